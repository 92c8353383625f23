"""markdown-it's inline links and code spans, without markdown-it, for simple inline text.

Most links in memory files are ``[text](target.md)``: a label with no brackets,
backticks or escapes, and a target with no space, bracket or parenthesis, closed
at once. With the link reference definitions of the document absent (the fast block
reader steps aside on any), such a text reads the same as markdown-it's ``link`` and
``backticks`` rules read it: each ``[`` or backtick run is met left to right; a code
span (:mod:`memory_audit.tree.markdown_spans`) hides what it covers; a ``[`` that does
not start a simple link starts none at all as long as no ``](`` is left outside the
links and code spans found (a link needs its label's ``]`` right before ``(``).
Anything else (an escape, an image, a title, a nested or spaced link, an unread
``](``) is handed back to markdown-it. tests/tree/test_markdown_fast_paths.py
compares both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_audit.tree.markdown_spans import closing_run, last_runs, run_end

# The key of a link's or code span's place in a token's meta (set by markdown_bounds).
OFFSET = "memory_audit_offset"

# markdown_bounds.DESTINATION_LIMIT: a longer target is not a link (markdown-it's bound).
SIMPLE_LINK = re.compile(r"\[([^\[\]`\\\n]+)\]\(([^\s()<>`\\\x00-\x1f\x7f]{1,4096})\)")


@dataclass(frozen=True)
class SimpleInline:
    links: tuple[tuple[int, int, str, str], ...]  # start, end, label, target
    code: tuple[tuple[int, int, str], ...]  # start, end, content


def simple_inline(text: str) -> SimpleInline | None:
    """The links and code spans of ``text``, or None when markdown-it must read it."""
    if "\\" in text or "![" in text:
        return None
    links: list[tuple[int, int, str, str]] = []
    code: list[tuple[int, int, str]] = []
    runs: dict[int, int] | None = None
    pos = 0
    while (at := _next_mark(text, pos)) >= 0:
        if text[at] == "[":
            link = SIMPLE_LINK.match(text, at)
            if link is not None:
                links.append((at, link.end(), link.group(1), link.group(2)))
            pos = link.end() if link is not None else at + 1
            continue
        runs = runs if runs is not None else last_runs(text)
        span = closing_run(text, at, runs)
        if span is not None:
            code.append(span)
        pos = span[1] if span is not None else run_end(text, at)
    if _unread_label_end(text, [(s, e) for s, e, *_ in links] + [(s, e) for s, e, _ in code]):
        return None
    return SimpleInline(tuple(links), tuple(code))


def _next_mark(text: str, pos: int) -> int:
    bracket, tick = text.find("[", pos), text.find("`", pos)
    return min(bracket, tick) if bracket >= 0 and tick >= 0 else max(bracket, tick)


def _unread_label_end(text: str, read: list[tuple[int, int]]) -> bool:
    """Whether a ``](`` lies outside every link and code span found."""
    read.sort()
    place, index = text.find("]("), 0
    while place >= 0:
        while index < len(read) and read[index][1] <= place:
            index += 1
        if index == len(read) or read[index][0] > place:
            return True
        place = text.find("](", place + 1)
    return False
