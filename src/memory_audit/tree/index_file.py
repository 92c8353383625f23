"""MEMORY.md: the always-loaded index, parsed into entries and other lines.

The canonical entry is ``- [Title](file.md) — one-line hook``. Real indexes
also use `` - `` or ``: `` after the link, ordered lists, headings between
groups and links written ``./x.md``, ``../x.md`` or ``~/x.md``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory_audit.tree.markdown import FENCE, HEADING, MD_LINK, WIKILINK, is_external

INDEX_NAME = "MEMORY.md"
# What of MEMORY.md reaches a session: Claude Code cuts it after this many lines or bytes.
LOAD_LINE_LIMIT = 200
LOAD_BYTE_LIMIT = 25_000
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
HOOK_SEPARATOR = re.compile(r"^\s*(?:—|–|--|-|:)\s*")


class LineKind(enum.Enum):
    BLANK = "blank"
    HEADING = "heading"
    POINTER = "pointer"  # a list item that starts with a link: a proper index entry
    LINKED_TEXT = "linked-text"  # prose that mentions a link somewhere
    CODE = "code"  # inside or delimiting a fenced block
    TEXT = "text"  # anything else: inline knowledge, rules, paragraphs
    COMMENT = "comment"  # <!-- ... --> lines


@dataclass(frozen=True)
class IndexLink:
    line: int
    title: str
    target: str
    wiki: bool


@dataclass(frozen=True)
class IndexEntry:
    """One line of MEMORY.md with at least one file link; ``links[0]`` is its target."""

    line: int
    kind: LineKind
    links: tuple[IndexLink, ...]
    hook: str

    @property
    def target(self) -> str:
        return self.links[0].target

    @property
    def title(self) -> str:
        return self.links[0].title


@dataclass(frozen=True)
class Index:
    lines: tuple[str, ...]
    line_kinds: tuple[LineKind, ...]
    entries: tuple[IndexEntry, ...]
    size: int  # bytes on disk
    line_bytes: tuple[int, ...]  # bytes of each line on disk, its newline included
    mtime: float

    @property
    def line_count(self) -> int:
        return len(self.lines)


def parse_index(text: str, size: int, mtime: float, raw_line_bytes: Sequence[int]) -> Index:
    lines = tuple(text.split("\n"))
    if lines and lines[-1] == "":
        lines = lines[:-1]
    kinds = _classify(lines)
    entries = tuple(
        entry
        for number, (line, kind) in enumerate(zip(lines, kinds, strict=True), start=1)
        if (entry := _entry(number, line, kind)) is not None
    )
    return Index(lines, kinds, entries, size, tuple(raw_line_bytes), mtime)


def _classify(lines: Sequence[str]) -> tuple[LineKind, ...]:
    kinds: list[LineKind] = []
    fence: str | None = None
    in_comment = False
    for line in lines:
        match = FENCE.match(line)
        if fence is not None or match:
            if match:
                marker = match.group(1)
                fence = marker if fence is None else (None if marker == fence else fence)
            kinds.append(LineKind.CODE)
            continue
        stripped = line.strip()
        if in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            kinds.append(LineKind.COMMENT)
        else:
            kinds.append(_kind_of(line, stripped))
    return tuple(kinds)


def _kind_of(line: str, stripped: str) -> LineKind:
    if not stripped:
        return LineKind.BLANK
    if HEADING.match(line):
        return LineKind.HEADING
    item = LIST_ITEM.match(line)
    rest = line[item.end() :] if item else ""
    if item and (_starts_with_link(rest)):
        return LineKind.POINTER
    if _file_links(line):
        return LineKind.LINKED_TEXT
    return LineKind.TEXT


def _starts_with_link(text: str) -> bool:
    # "- **[Title](x.md)** — hook" is as much a pointer as the plain form.
    text = text.lstrip("*_ ")
    match = MD_LINK.match(text) or WIKILINK.match(text)
    return match is not None and not is_external(_target_of(match))


def _target_of(match: re.Match[str]) -> str:
    if "target" in match.groupdict():
        return match.group("target").strip("<>")
    return match.group("name").strip()


def _file_links(line: str) -> list[tuple[re.Match[str], str]]:
    found = [(m, m.group("title")) for m in MD_LINK.finditer(line)]
    found += [(m, m.group("name").strip()) for m in WIKILINK.finditer(line)]
    found.sort(key=lambda pair: pair[0].start())
    return [(m, title) for m, title in found if not is_external(_target_of(m))]


def _entry(number: int, line: str, kind: LineKind) -> IndexEntry | None:
    if kind not in (LineKind.POINTER, LineKind.LINKED_TEXT):
        return None
    links = _file_links(line)
    index_links = tuple(
        IndexLink(number, title, _target_of(m), wiki="name" in m.groupdict()) for m, title in links
    )
    after = line[links[0][0].end() :].lstrip("*_")
    hook = HOOK_SEPARATOR.sub("", after, count=1).strip() if after.strip() else ""
    return IndexEntry(number, kind, index_links, hook)
