"""One tree's report out of a stored ``summary.json``, decoding only that report.

The session hook needs one project's findings out of a summary of every tree
(hundreds of kilobytes): decoding all of it was a quarter of its time. The
writer (:mod:`memory_audit.report.json_report`) puts ``reports`` last and
``root`` first in each report, so the head and the one report are decoded
with ``raw_decode`` and the rest is only searched. A ``"root":`` in the raw
text is always a key (a quote inside a JSON string is escaped). Anything
unexpected falls back to decoding the whole document. Light: ``json``, ``os``.
"""

from __future__ import annotations

import json
import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DECODER = json.JSONDecoder()
ROOT_KEY = '"root":'
WHITESPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace, as json.decoder skips it


def head_and_report(text: str, root: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The document without ``reports``, and the report whose root is ``root`` (normalised)."""
    try:
        return _head(text), _report(text, root)
    except (ValueError, IndexError, AttributeError):
        data = json.loads(text)
        reports = data.pop("reports", [])
        return data, next((r for r in reports if os.path.normpath(r["root"]) == root), None)


def _head(text: str) -> dict[str, Any]:
    head: dict[str, Any] = {}
    at = _skip(text, text.index("{") + 1)
    while text[at] == '"':
        key, at = DECODER.raw_decode(text, at)
        at = _expect(text, at, ":")
        if key == "reports":
            return head
        head[key], at = DECODER.raw_decode(text, at)
        at = _skip(text, at)
        at = _skip(text, at + 1) if text[at] == "," else at
    raise ValueError("no reports in the summary")


def _report(text: str, root: str) -> dict[str, Any] | None:
    start = text.find(ROOT_KEY)
    while start != -1:
        value, _ = DECODER.raw_decode(text, _skip(text, start + len(ROOT_KEY)))
        if isinstance(value, str) and os.path.normpath(value) == root:
            brace = start - 1
            while text[brace] in " \t\r\n":
                brace -= 1
            report, _ = DECODER.raw_decode(text, brace)
            if text[brace] != "{" or report.get("root") != value:
                raise ValueError("a report does not start with its root")
            found: dict[str, Any] = report
            return found
        start = text.find(ROOT_KEY, start + len(ROOT_KEY))
    return None


def _skip(text: str, at: int) -> int:
    return WHITESPACE.match(text, at).end()  # type: ignore[union-attr]  # `*` always matches


def _expect(text: str, at: int, char: str) -> int:
    at = _skip(text, at)
    if text[at] != char:
        raise ValueError(f"expected {char!r} at {at}")
    return _skip(text, at + 1)
