"""A value inside the text of a web page an agent fetched, as its tool recorded the fetch.

Agents' workspaces keep a log of their tool calls, and a web fetch's record holds the page
it brought back: ``TOOL: {"url": "https://<site>/...", "finalUrl": ..., "status": 200, ...,
"text": "<the page>"}``. A key in that text is the site's: a browser key its pages embed, a
map tile's token, a front-end bundle's constant (round 147's first look, a tuning half: three
such values in one scraper's log, all judged no secret of the user's). It is a suggestion
that names the site, since only the user knows whether the site is their own.

What counts: the value's line holds a fetch's record, a JSON object that opens with the
page's ``"url"`` (http or https) and gives its ``"finalUrl"`` (where redirects ended: a web
fetch's own field, which a configuration's object has no reason to hold), and the value lies
inside that record's ``"text"`` or ``"content"`` string, so it is what the page said: not the
request the agent made (a key in the URL it fetched, a header it sent), nor anything after
the page's text. A page of the machine's own or of a private network (``localhost``,
``192.168.x``, ``*.local``) is the user's own system, whatever fetched it; which kinds of
value a page may hold for the site is the caller's to say.
"""

from __future__ import annotations

import ipaddress
import re

from memory_audit.secrets.rules import Rule

# A fetch's record: its opening brace and the page's address (the host ends at the first
# character no host holds, so a failed search does not try every split of a long one)
RECORD = re.compile(r'\{[ \t]*"url"[ \t]*:[ \t]*"https?://(?P<host>[A-Za-z0-9.-]+)(?=[/?#:"])')
FINAL_URL = re.compile(r'"finalUrl"[ \t]*:[ \t]*"')
# Where the page's own text starts in the record
PAGE_TEXT = re.compile(r'"(?:text|content)"[ \t]*:[ \t]*"')
# A JSON string's end: the first quote no backslash escapes
STRING_END = re.compile(r'(?:[^"\\\n]|\\.)*"')
# The issuers' kinds a site's pages hold by design (a browser's Maps key); a generic rule's
# value is judged by the words around it, which a page's are. Any other issuer's token in a
# page (a GitHub token on a settings page) opens an account, whosever the page is.
PAGE_KINDS = frozenset({"google-api-key"})
OWN_HOSTS = re.compile(r"(?i)(?:localhost|[\w.-]+\.(?:local|internal|lan|home|localhost))\Z")


def fetched_page_host(text: str, start: int) -> str | None:
    """The site whose fetched page holds the value at ``text[start:]``: the host of the
    nearest fetch's record before the value on its line, when the value lies inside that
    record's page text and the host is no machine of the user's own network; None otherwise."""
    line_start = text.rfind("\n", 0, start) + 1
    records = list(RECORD.finditer(text, line_start, start))
    if not records:
        return None
    record = records[-1]  # the record the value is in, if any: the last one opened before it
    final = FINAL_URL.search(text, record.end(), start)
    page = PAGE_TEXT.search(text, final.end(), start) if final is not None else None
    if page is None:
        return None
    end = STRING_END.match(text, page.end())
    if end is None or end.end() <= start:  # the page's text closed before the value
        return None
    host = record.group("host")
    return None if _own_network(host) else host


def page_kind(rule: Rule | None) -> bool:
    """Whether a rule's values are of a kind a site's page may hold for the site: a generic
    rule's, or an issuer's key that pages embed by design (:data:`PAGE_KINDS`)."""
    return rule is not None and (rule.generic or rule.name in PAGE_KINDS)


def _own_network(host: str) -> bool:
    """A host of the machine itself or of a private network: the user's own system."""
    if OWN_HOSTS.match(host):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_private or address.is_loopback or address.is_link_local
