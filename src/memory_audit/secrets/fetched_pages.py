"""A value inside the text of a web page an agent fetched, as its tool recorded the fetch.

Agents' workspaces keep a log of their tool calls, and a web fetch's record holds the page
it brought back: ``TOOL: {"url": "https://<site>/...", "finalUrl": ..., "status": 200, ...,
"text": "<the page>"}``. A key in that text is the site's: a browser key its pages embed, a
map tile's token, a front-end bundle's constant (round 147's first look, a tuning half: three
such values in one scraper's log, all judged no secret of the user's). It is a suggestion
that names the site, since only the user knows whether the site is their own.

What counts: the value's line holds a fetch's record (a ``"url"`` of http or https and a
``"finalUrl"`` or a ``"status"`` beside it) and the value comes after the record's
``"text"`` or ``"content"`` key, so it is in what the page said, not in the request the
agent made (a key the agent put in the URL it fetched is its own).
"""

from __future__ import annotations

import re

# A fetch's record on one line: the page's address, then what the fetch gives beside it
FETCH_RECORD = re.compile(
    r'"url"[ \t]*:[ \t]*"https?://(?P<host>[A-Za-z0-9.-]+)[^"]*"'
    r'(?=[^\n]{0,400}?"(?:finalUrl|status)"[ \t]*:)'
)
# Where the page's own text starts in the record
PAGE_TEXT = re.compile(r'"(?:text|content)"[ \t]*:[ \t]*"')


def fetched_page_host(text: str, start: int) -> str | None:
    """The site whose fetched page holds the value at ``text[start:]``: the host of the
    fetch's record on the value's line when the value is in the page's text; None when the
    line holds no such record or the value is outside the page's text."""
    line_start = text.rfind("\n", 0, start) + 1
    record = FETCH_RECORD.search(text, line_start, start)
    if record is None:
        return None
    page = PAGE_TEXT.search(text, record.end(), start)
    return record.group("host") if page is not None else None
