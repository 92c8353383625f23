"""One tree's report out of a stored ``summary.json``, decoding only that report.

The session hook needs one project's findings out of a summary of every tree
(hundreds of kilobytes): decoding all of it was a quarter of its time, and even
turning all its bytes into a string takes 2 ms (one character past Latin-1, an
ellipsis, makes the whole string two bytes a character). The writer
(:mod:`memory_audit.report.json_report`) puts ``reports`` last and ``root``
first in each report, compact, with ``ensure_ascii=False``: so the head is the
text before the first ``"root":``, and the tree's report starts right before
``"root":`` and its root written the same way, and ends before the next
``"root":``. Only those two pieces are decoded, with json's scanner. A
``"root":`` in the raw text is always a key (a quote inside a JSON string is
escaped). A root written otherwise (an indented document) is looked for
report by report, and anything unexpected falls back to decoding the whole
document. Light: ``os`` and :mod:`memory_audit.model.light_json` (not
``json``, which imports ``re``).
"""

from __future__ import annotations

import os
import stat  # imported by os already: free

from memory_audit.model.light_json import quoted, scan, skip_whitespace
from memory_audit.model.masked import shows

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ROOT_KEY = '"root":'
ROOT_KEY_BYTES = ROOT_KEY.encode()
MAX_SUMMARY_BYTES = 256 * 1024 * 1024  # report.report_file's limit (that module imports json)


def read_summary_bytes(path: str) -> bytes | None:
    """A stored summary's bytes, or None when it is not a regular file within the limit:
    a FIFO left in its place is opened without waiting for a writer, a device is never
    read (a session start is never held up, nor its memory exhausted)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SUMMARY_BYTES:
            return None
        parts = []
        left = info.st_size + 1  # what fstat saw; a file grown since is cut there
        while left > 0 and (part := os.read(fd, left)):
            parts.append(part)
            left -= len(part)
        return b"".join(parts)
    finally:
        os.close(fd)


def head_and_report(data: bytes, root: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The document (UTF-8) without ``reports``, and the report whose root is ``root``
    (normalised)."""
    try:
        first = data.find(ROOT_KEY_BYTES)
        head = _head(data[: first if first != -1 else len(data)].decode("utf-8"))
        found = _written_as_is(data, root)
        return head, found if found is not None else _report(data.decode("utf-8"), root)
    except (ValueError, IndexError, AttributeError):
        import json  # an unexpected layout: decode it all

        whole = json.loads(data.decode("utf-8"))
        reports = whole.pop("reports", [])
        return whole, next((r for r in reports if shows(r["root"], root)), None)


def _written_as_is(data: bytes, root: str) -> dict[str, Any] | None:
    """The report whose ``"root":`` is followed by ``root`` as the writer spells it."""
    key = ROOT_KEY_BYTES + quoted(root).encode("utf-8")
    start = data.find(key)
    if start == -1 or data[start - 1 : start] != b"{":
        return None
    end = data.find(ROOT_KEY_BYTES, start + len(key))
    report, _ = scan(data[start - 1 : end if end != -1 else len(data)].decode("utf-8"), 0)
    if not isinstance(report, dict) or report.get("root") != root:
        raise ValueError("a report does not start with its root")
    found: dict[str, Any] = report
    return found


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
        if isinstance(value, str) and shows(value, root):
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
