"""One tree's report out of a stored ``summary.json``, decoding only that report.

The session hook needs one project's findings out of a summary of every tree
(hundreds of kilobytes): decoding all of it was a quarter of its time. The
writer (:mod:`memory_audit.report.json_report`) puts ``reports`` last and
``root`` first in each report, so the head and the one report are decoded
with json's scanner and the rest is only searched. A ``"root":`` in the raw
text is always a key (a quote inside a JSON string is escaped). Anything
unexpected falls back to decoding the whole document. Light: ``os`` and
:mod:`memory_audit.model.light_json` (not ``json``, which imports ``re``).
"""

from __future__ import annotations

import os

from memory_audit.model.light_json import scan, skip_whitespace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ROOT_KEY = '"root":'


def head_and_report(text: str, root: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The document without ``reports``, and the report whose root is ``root`` (normalised)."""
    try:
        return _head(text), _report(text, root)
    except (ValueError, IndexError, AttributeError):
        import json  # an unexpected layout: decode it all

        data = json.loads(text)
        reports = data.pop("reports", [])
        return data, next((r for r in reports if os.path.normpath(r["root"]) == root), None)


def _head(text: str) -> dict[str, Any]:
    head: dict[str, Any] = {}
    at = skip_whitespace(text, text.index("{") + 1)
    while text[at] == '"':
        key, at = scan(text, at)
        at = _expect(text, at, ":")
        if key == "reports":
            return head
        head[key], at = scan(text, at)
        at = skip_whitespace(text, at)
        at = skip_whitespace(text, at + 1) if text[at] == "," else at
    raise ValueError("no reports in the summary")


def _report(text: str, root: str) -> dict[str, Any] | None:
    start = text.find(ROOT_KEY)
    while start != -1:
        value, _ = scan(text, skip_whitespace(text, start + len(ROOT_KEY)))
        if isinstance(value, str) and os.path.normpath(value) == root:
            brace = start - 1
            while text[brace] in " \t\r\n":
                brace -= 1
            report, _ = scan(text, brace)
            if text[brace] != "{" or report.get("root") != value:
                raise ValueError("a report does not start with its root")
            found: dict[str, Any] = report
            return found
        start = text.find(ROOT_KEY, start + len(ROOT_KEY))
    return None


def _expect(text: str, at: int, char: str) -> int:
    at = skip_whitespace(text, at)
    if text[at] != char:
        raise ValueError(f"expected {char!r} at {at}")
    return skip_whitespace(text, at + 1)
