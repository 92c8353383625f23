"""The few pieces of Markdown structure an audit needs: fences, links, paragraphs.

Everything works on lists of lines so that callers can report 1-based line
numbers relative to the whole file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

FENCE = re.compile(r"^\s{0,3}(```|~~~)")
MD_LINK = re.compile(
    r"(?<!!)\[(?P<title>[^\]\n]*)\]\((?P<target><[^>\n]*>|[^)\s]+)(?:\s+\"[^\"\n]*\")?\)"
)
WIKILINK = re.compile(r"\[\[(?P<name>[^\]\[|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]")
HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class Link:
    """A link found in a body: ``[title](target)`` or ``[[name]]``."""

    line: int
    target: str
    title: str
    wiki: bool


def prose_lines(lines: Sequence[str], first_line: int = 1) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, text)`` for lines outside fenced code blocks."""
    fence: str | None = None
    for number, text in enumerate(lines, start=first_line):
        match = FENCE.match(text)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker
            elif marker == fence:
                fence = None
            continue
        if fence is None:
            yield number, text


def find_links(lines: Sequence[str], first_line: int = 1) -> tuple[Link, ...]:
    found: list[Link] = []
    for number, text in prose_lines(lines, first_line):
        if "](" in text:
            found.extend(
                Link(number, m.group("target").strip("<>"), m.group("title"), wiki=False)
                for m in MD_LINK.finditer(text)
            )
        if "[[" in text:
            found.extend(
                Link(number, m.group("name").strip(), m.group("name").strip(), wiki=True)
                for m in WIKILINK.finditer(text)
            )
    return tuple(found)


def is_external(target: str) -> bool:
    """True for URLs and other scheme links (``https:``, ``mailto:``), which are not files."""
    return bool(SCHEME.match(target)) and not target.startswith("file:")


def first_paragraph(lines: Sequence[str]) -> str:
    """The first block of prose, skipping headings, front blank lines and code."""
    paragraph: list[str] = []
    for _, text in prose_lines(lines):
        stripped = text.strip()
        if not stripped:
            if paragraph:
                break
            continue
        if HEADING.match(text) and not paragraph:
            continue
        paragraph.append(stripped)
    return " ".join(paragraph)
