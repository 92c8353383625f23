"""MEMORY.md: the always-loaded index, parsed into entries and other lines.

The canonical entry is ``- [Title](file.md) — one-line hook``. Real indexes
also use `` - `` or ``: `` after the link, ordered lists, headings between
groups and links written ``./x.md``, ``../x.md`` or ``~/x.md``. Lines are
classified from the CommonMark token stream (:mod:`memory_audit.tree.markdown`),
so a link in a code span or block is no entry and ``---`` is a break.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from memory_audit.tree.index_names import NamedPointer, named_pointers
from memory_audit.tree.markdown import Block, Document, Limits, Span, is_external, parse_markdown

INDEX_NAME = "MEMORY.md"
# What of MEMORY.md reaches a session is computed in tree.load_budget, and only there.
# The index may hold a whole tree's entries (10,000 in the benchmark): a larger parse budget.
# Always parsed: its headings and breaks are structure even without a single link.
INDEX_LIMITS = Limits(lines=20_000, inline=1_000_000, skip_plain=False, label_markup=8)
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
HOOK_SEPARATOR = re.compile(r"^\s*(?:—|–|--|-|:)\s*")


class LineKind(enum.Enum):
    BLANK = "blank"
    HEADING = "heading"
    POINTER = "pointer"  # a list item that starts with a link: a proper index entry
    LINKED_TEXT = "linked-text"  # prose that mentions a link somewhere
    CODE = "code"  # inside or delimiting a code block (fenced or indented)
    BREAK = "break"  # a thematic break (---, ***): structure, not content
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

    @property
    def is_pointer(self) -> bool:
        """The line starts with its link: an index entry, not prose that mentions a file."""
        return self.kind is LineKind.POINTER


@dataclass(frozen=True)
class _Structure:
    line_kinds: tuple[LineKind, ...]
    entries: tuple[IndexEntry, ...]
    unread: tuple[tuple[int, int], ...]  # line ranges too costly to read links from
    mentions: tuple[str, ...]  # ``.md`` paths named in code spans: `notes.md` — pointers
    named: tuple[NamedPointer, ...]  # lines led by a file's name: - `notes.md` — hook


@dataclass(frozen=True)
class Index:
    """MEMORY.md's lines; its Markdown structure is parsed on first use (a secrets-only
    run, the daemon's change scan and the session hook read the lines alone)."""

    lines: tuple[str, ...]
    size: int  # bytes on disk
    line_bytes: tuple[int, ...]  # bytes of each line on disk, its newline included
    mtime: float

    @property
    def line_count(self) -> int:
        return len(self.lines)

    @cached_property
    def markdown(self) -> Document:
        """The index as CommonMark reads it (within the index's own, larger, limits)."""
        return parse_markdown(self.lines, limits=INDEX_LIMITS)

    @cached_property
    def _structure(self) -> _Structure:
        return _parse_structure(self.lines, self.markdown)

    @property
    def line_kinds(self) -> tuple[LineKind, ...]:
        return self._structure.line_kinds

    @property
    def entries(self) -> tuple[IndexEntry, ...]:
        return self._structure.entries

    @property
    def unread(self) -> tuple[tuple[int, int], ...]:
        return self._structure.unread

    @property
    def mentions(self) -> tuple[str, ...]:
        return self._structure.mentions

    @property
    def named(self) -> tuple[NamedPointer, ...]:
        """Lines that point at a file by its name, not a link (``- `notes.md` — hook``):
        candidates, until the snapshot finds the file (:attr:`MemoryTree.index_named`)."""
        return self._structure.named

    @cached_property
    def pointer_lines(self) -> frozenset[int]:
        """The lines that are index entries (they start with their link), not prose."""
        return frozenset(entry.line for entry in self.entries if entry.is_pointer)


def parse_index(text: str, size: int, mtime: float, raw_line_bytes: Sequence[int]) -> Index:
    lines = tuple(text.split("\n"))
    if lines and lines[-1] == "":
        lines = lines[:-1]
    return Index(lines, size, tuple(raw_line_bytes), mtime)


def _parse_structure(lines: tuple[str, ...], document: Document) -> _Structure:
    kinds = [LineKind.BLANK if not line.strip() else LineKind.TEXT for line in lines]
    entries: list[IndexEntry] = []
    for block in document.blocks:
        if block.kind == "html":
            kinds[block.first - 1 : block.last] = _html_kinds(lines[block.first - 1 : block.last])
            continue
        for number in range(block.first, block.last + 1):
            kinds[number - 1] = _block_kind(block, lines[number - 1])
        if block.spans:
            entries += _entries(block, kinds)
    return _Structure(
        tuple(kinds),
        tuple(entries),
        document.unread,
        tuple(link.target for link in document.links if link.mention),
        tuple(_named(document.blocks, kinds)),
    )


def _named(blocks: Sequence[Block], kinds: Sequence[LineKind]) -> Iterator[NamedPointer]:
    """Lines led by a file's name, in paragraphs with a line no link was read on (most
    index lines are links, and a 10,000-entry index is read on every audit)."""
    text = LineKind.TEXT
    for block in blocks:
        if block.kind != "paragraph" or ".md" not in block.text:
            continue
        lines = range(block.first, block.last + 1)
        if any(kinds[n - 1] is text for n in lines):  # a line with no link read on it
            linked = frozenset(n for n in lines if kinds[n - 1] is not LineKind.TEXT)
            pointers = frozenset(n for n in lines if kinds[n - 1] is LineKind.POINTER)
            yield from named_pointers(block, linked, pointers)


def _block_kind(block: Block, line: str) -> LineKind:
    if not line.strip():
        return LineKind.BLANK
    return BLOCK_KINDS.get(block.kind, LineKind.TEXT)


def _html_kinds(lines: Sequence[str]) -> list[LineKind]:
    """An HTML block's lines: a comment's, from its ``<!--`` to its ``-->``, are the
    comment's (a note to whoever edits the index); other markup is text."""
    kinds = []
    inside = False
    for line in lines:
        opens = line.lstrip().startswith("<!--")
        if not line.strip():
            kinds.append(LineKind.BLANK)
        elif opens or inside:
            kinds.append(LineKind.COMMENT)
            rest = line[line.index("<!--") + 4 :] if opens else line
            inside = "-->" not in rest
        else:
            kinds.append(LineKind.TEXT)
    return kinds


BLOCK_KINDS = {"code": LineKind.CODE, "heading": LineKind.HEADING, "break": LineKind.BREAK}


def _entries(block: Block, kinds: list[LineKind]) -> Iterator[IndexEntry]:
    by_line: dict[int, list[Span]] = {}
    for span in block.spans:
        if not span.link.mention:  # a path in a code span is text, not an entry
            by_line.setdefault(span.link.line, []).append(span)
    pointer_run = True  # every line so far in this block has been a pointer
    file_lines = sorted(
        n
        for n, spans in by_line.items()
        if any(s.link.wiki or not is_external(s.link.target) for s in spans)
    )
    for number, spans in sorted(by_line.items()):
        files = [s for s in spans if s.link.wiki or not is_external(s.link.target)]
        if files and block.kind == "heading":
            # ``## [Deploy notes](deploy.md)``: a section titled by its file is the way to
            # it (the lines under it say when it helps), though no pointer line of its own
            links = tuple(
                IndexLink(number, s.link.title, s.link.target, s.link.wiki) for s in files
            )
            yield IndexEntry(number, LineKind.HEADING, links, "")
            continue
        if not files or block.kind != "paragraph":
            continue
        line_start = block.text.rfind("\n", 0, spans[0].start) + 1
        line_end = _line_end(block.text, spans[0].start)
        starts_with_link = files[0] is spans[0] and not block.text[
            line_start : spans[0].start
        ].strip(" *_")
        # A pointer is a line that *starts* with its link: a list item's first line, a
        # paragraph's first line, or a line in a run of such lines. A sentence that
        # mentions a link ("... See [x](x.md).") or a wrapped sentence whose next line
        # happens to begin with one is prose, whatever it links.
        pointer = (
            starts_with_link and pointer_run and (number == block.first or number - 1 in by_line)
        )
        pointer_run = pointer
        kinds[number - 1] = LineKind.POINTER if pointer else LineKind.LINKED_TEXT
        after = block.text[files[0].end : line_end].lstrip("*_")
        hook = HOOK_SEPARATOR.sub("", after, count=1).strip() if after.strip() else ""
        if pointer and block.opens_item:
            # A list item's hook wrapped onto the lines after it (indented or not), up to
            # the next line linking a file: Claude Code reads the item whole, and those
            # lines are the entry's, no content of their own.
            stop = next((n for n in file_lines if n > number), block.last + 1)
            stop = _named_line(block.text, line_end, number, stop)
            wrapped = _next_lines(block.text, line_end, stop - number - 1)
            if wrapped:
                hook = f"{hook} {wrapped}".strip()
                for continued in range(number + 1, stop):
                    if kinds[continued - 1] is LineKind.TEXT:
                        kinds[continued - 1] = LineKind.POINTER
        links = tuple(IndexLink(number, s.link.title, s.link.target, s.link.wiki) for s in files)
        yield IndexEntry(number, kinds[number - 1], links, hook)


def _named_line(text: str, line_end: int, number: int, stop: int) -> int:
    """The first line after ``number`` (before ``stop``) led by a ``.md`` file's name, or
    ``See`` one: a pointer by name (``tree.index_names``), no part of the hook above."""
    for offset, line in enumerate(text[line_end + 1 :].split("\n")[: stop - number - 1], 1):
        words = line.strip(" \t*_").removeprefix("See ").removeprefix("→ ").split(maxsplit=1)
        if words and words[0].strip("`*_.,;:").endswith(".md"):
            return number + offset
    return stop


def _next_lines(text: str, line_end: int, count: int) -> str:
    """The ``count`` lines after the one ending at ``line_end``, joined by spaces."""
    if count <= 0 or line_end >= len(text):
        return ""
    end = line_end
    for _ in range(count):
        end = _line_end(text, end + 1)
    return " ".join(text[line_end + 1 : end].split())


def _line_end(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return len(text) if end < 0 else end
