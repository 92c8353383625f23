"""Markdown read as CommonMark reads it: links, wikilinks, code, with line numbers.

Links and code come from markdown-it-py's token stream, so a link inside a
code span or a code block (fenced or indented) is not a link, ``foo(bar).md``
is one target, and ``---`` is a thematic break. ``[[wikilinks]]`` are not
CommonMark: they are found in the text of paragraphs and headings, outside
code spans, by a hand scanner.

Every step runs in linear time on untrusted text (DESIGN §6). markdown-it-py's
own link-label search walks to the end of the paragraph for every unclosed
``[``, which is quadratic; :mod:`memory_audit.tree.markdown_bounds` replaces it
with a memoised one and bounds link destinations and titles. Emphasis, entities,
autolinks and inline HTML say nothing about links or code, and their rules
(some of them superlinear) are switched off.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from memory_audit.tree.markdown_blocks import leaf_blocks
from memory_audit.tree.markdown_links import OFFSET, SimpleInline, simple_inline
from memory_audit.tree.markdown_spans import code_spans, plain_code_text
from memory_audit.tree.wikilinks import find_wikilinks

TYPE_CHECKING = False
if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")  # anchored: linear
SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
# Bounds that keep one document's parse under about a second whatever it holds (measured in
# docs/benchmarks.md); the largest real memory file costs 5,600 units and has 983 lines.
LABEL_COST = 24
MARKUP = re.compile(r"[\n!#$%&*+\-:<=>@\[\\\]^_`{}~]")  # a character class: linear


@dataclass(frozen=True)
class Limits:
    """How much of a document is parsed: its first ``lines``, and inline text up to a cost
    of ``inline`` (see :func:`inline_cost`). Past them, links are not read and the lines
    are listed in ``Document.unread``."""

    lines: int = 5_000
    inline: int = 50_000
    skip_plain: bool = True  # a document with no link or code syntax is not parsed at all
    # Headings, paragraphs, lists and code read without markdown-it, and inline text
    # without ``[`` scanned for code spans by hand: the same answers, ten times faster.
    fast: bool = True
    # Units a backtick or a backslash costs on top where a ``[`` sends the text to
    # markdown-it: its code-span search or escape at each one in a link label took 4-10 µs
    # (``"`a" * N`` in a MEMORY.md link title: 5 s a megabyte, ``"a\\" * N`` 2 s; issue 30).
    # Bodies' smaller budget bounds them without it.
    label_markup: int = 0


BODY_LIMITS = Limits()


@dataclass(frozen=True, slots=True)  # a tree holds many: no __dict__ each
class Link:
    """A link found in a body: ``[title](target)`` or ``[[name]]``."""

    line: int
    target: str
    title: str
    wiki: bool
    mention: bool = False  # a ``.md`` path in a code span: a pointer a reader follows, no link


@dataclass(frozen=True, slots=True)  # a tree holds many: no __dict__ each
class Span:
    """A link and where it sits in its block's text (offsets into ``Block.text``)."""

    link: Link
    start: int
    end: int


@dataclass(frozen=True, slots=True)  # a tree holds many: no __dict__ each
class Block:
    """A leaf block: ``paragraph``, ``heading``, ``code``, ``html`` or ``break``."""

    kind: str
    first: int  # 1-based line numbers, inclusive
    last: int
    text: str = ""  # the inline text of a paragraph or heading (container markers removed)
    spans: tuple[Span, ...] = ()
    opens_item: bool = False  # the first block of a list item: its first line has the marker
    unread: tuple[tuple[int, int], ...] = ()  # lines past the parse budget: links not read


class _LineOf:
    """A block's line numbers by offset in its text: the line breaks found once, then
    bisected. Counting the breaks before every span made a long paragraph of many links
    or code spans quadratic (10 s for 700 KB of code spans)."""

    __slots__ = ("breaks", "first")

    def __init__(self, block: Block) -> None:
        self.first = block.first
        self.breaks = [found.start() for found in re.finditer("\n", block.text)]

    def line_of(self, offset: int) -> int:
        return self.first + bisect.bisect_left(self.breaks, offset)


@dataclass(frozen=True)
class Document:
    blocks: tuple[Block, ...]
    unread: tuple[tuple[int, int], ...] = ()  # line ranges whose links were not read

    # Cached: every check that reads links or skips code asks again, for every file.
    @cached_property
    def links(self) -> tuple[Link, ...]:
        return tuple(span.link for block in self.blocks for span in block.spans)

    @cached_property
    def code_lines(self) -> frozenset[int]:
        """Lines inside fenced or indented code blocks, fence lines included."""
        return frozenset(
            line
            for block in self.blocks
            if block.kind == "code"
            for line in range(block.first, block.last + 1)
        )


def parse_markdown(
    lines: Sequence[str], first_line: int = 1, limits: Limits = BODY_LIMITS
) -> Document:
    return _parse(tuple(lines), first_line, limits)


def links_and_code(document: Document) -> Document:
    """What a memory file's readers read of its parse, kept beside its lines: the blocks
    that hold a link or are code, without their inline texts (a paragraph of several
    lines is a copy of them). Links, code lines and unread ranges stay as parsed; spans
    keep their offsets into the texts, which only the index's reader reads, and it keeps
    its own parse whole."""
    blocks = tuple(
        replace(b, text="") if b.text else b for b in document.blocks if b.spans or b.kind == "code"
    )
    return Document(blocks, document.unread)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    """Built on first use: importing markdown-it-py is a large share of a process that
    parses no Markdown (``--check secrets``, the daemon's change scan, the session hook)."""
    from memory_audit.tree.markdown_bounds import bounded_parser

    return bounded_parser()


@lru_cache(maxsize=64)  # a body is parsed by the loader, then again by stale-refs and bloat
def _parse(lines: tuple[str, ...], first_line: int, limits: Limits) -> Document:
    if limits.skip_plain and not any(_may_hold_links_or_code(line) for line in lines):
        return Document(())  # plain prose: no link, no code; skip the (slow) parser
    env: dict[str, object] = {}
    read = lines[: limits.lines]
    # Blocks' inline texts are the lines less their container markers: when all the lines
    # fit the budget, every block does, and no block's cost needs counting.
    whole = inline_cost("\n".join(read), limits.label_markup)
    budget = [limits.inline] if whole > limits.inline else None
    leaves = _leaves(read, first_line, env, limits.fast)
    blocks = [_read_inline(block, env, budget, limits) for block in leaves]
    unread = [lines for block in blocks for lines in block.unread]
    unread += _unread_tail(lines, first_line, limits.lines)
    return Document(tuple(blocks), tuple(unread))


def _unread_tail(lines: Sequence[str], first_line: int, read: int) -> list[tuple[int, int]]:
    """The lines past the budget that could hold a link (every link starts with ``[``):
    a long log or table with no bracket in its tail loses no link by not being parsed,
    and a notice about it is one its owner can do nothing with."""
    bracketed = [number for number, line in enumerate(lines[read:], start=read) if "[" in line]
    if not bracketed:
        return []
    return [(first_line + bracketed[0], first_line + bracketed[-1])]


def _may_hold_links_or_code(line: str) -> bool:
    """False only when CommonMark can find no link, wikilink, code span or code block:
    every link starts with ``[``, every code span with a backtick, a fence is backticks
    or ``~~~``, and indented code needs four columns of indentation."""
    return "[" in line or "`" in line or "~~~" in line or "    " in line or "\t" in line


def _read_inline(
    block: Block, env: dict[str, object], budget: list[int] | None, limits: Limits
) -> Block:
    """Parse a paragraph's or heading's inline text within the document's budget.

    A paragraph over the budget is read line by line, so that the lines that fit
    (an index entry next to a runaway line) are still read.
    """
    if block.kind not in ("paragraph", "heading"):
        return block
    fast = limits.fast
    lines = _LineOf(block)
    if budget is None or _affordable(block.text, budget, limits.label_markup):
        found = _inline_spans(lines, block.text, 0, env, fast)
        return replace(block, spans=found) if found else block
    spans: list[Span] = []
    unread: list[tuple[int, int]] = []
    offset = 0
    for number, line in enumerate(block.text.split("\n"), start=block.first):
        if _affordable(line, budget, limits.label_markup):
            spans += _inline_spans(lines, line, offset, env, fast)
        else:
            unread.append((number, number))
        offset += len(line) + 1
    return replace(block, spans=tuple(spans), unread=tuple(unread))


def _affordable(text: str, budget: list[int], label_markup: int) -> bool:
    cost = inline_cost(text, label_markup)
    if cost > budget[0]:
        return False
    budget[0] -= cost
    return True


def _inline_spans(
    lines: _LineOf, text: str, offset: int, env: dict[str, object], fast: bool
) -> tuple[Span, ...]:
    if fast and "`" not in text and "[" not in text:
        return ()  # no link, wikilink or code span: nothing to find
    if fast and plain_code_text(text):
        return tuple(_code_mentions(lines, code_spans(text), offset))
    simple = simple_inline(text) if fast and not env.get("references") else None
    if simple is not None:
        return _simple_spans(lines, text, offset, simple)
    children: list[Token] = []
    parser = _parser()
    parser.inline.parse(text, parser, env, children)
    return _spans(lines, children, text, offset)


def inline_cost(text: str, label_markup: int = 0) -> int:
    """What markdown-it's inline parser spends on ``text``, in rough units.

    Plain text is consumed in runs; each markup character costs one pass of the
    rules, each ``[`` a link-label search on top, and when there is one, each backtick
    and backslash ``label_markup`` more (see :attr:`Limits.label_markup`).
    """
    brackets = text.count("[")
    tokens = label_markup * (text.count("`") + text.count("\\")) if brackets else 0
    return len(MARKUP.findall(text)) + LABEL_COST * brackets + tokens


def _leaves(
    lines: Sequence[str], first_line: int, env: dict[str, object], fast: bool
) -> list[Block]:
    """The leaf blocks, from :mod:`memory_audit.tree.markdown_blocks` when it can read
    the document, else from markdown-it (which fills ``env`` with link definitions)."""
    found = leaf_blocks(lines) if fast else None
    if found is None:
        # Claude Code splits on "\n" only, and so do we: a lone "\r" is inside its line.
        # markdown-it would end a line there and number every later line one too far.
        text = "\n".join(lines).replace("\r", " ")
        return list(_blocks(_parser().parse(text, env), first_line))
    return [
        Block(kind, start + first_line, max(start, end - 1) + first_line, text, opens_item=item)
        for kind, start, end, text, item in found
    ]


def _blocks(tokens: Sequence[Token], first_line: int) -> Iterator[Block]:
    item_open = False
    for index, token in enumerate(tokens):
        if token.type == "list_item_open":
            item_open = True
        if token.map is None or token.type not in LEAF_KINDS:
            continue
        first, last = token.map[0] + first_line, token.map[1] + first_line - 1
        kind = LEAF_KINDS[token.type]
        text = tokens[index + 1].content if kind in ("paragraph", "heading") else ""
        yield Block(kind, first, max(first, last), text, opens_item=item_open)
        item_open = False


LEAF_KINDS = {
    "paragraph_open": "paragraph",
    "heading_open": "heading",
    "code_block": "code",
    "fence": "code",
    "html_block": "html",
    "hr": "break",
}


def _spans(lines: _LineOf, children: Sequence[Token], text: str, offset: int) -> tuple[Span, ...]:
    """Links in ``text``, which starts at ``offset`` of the block's text."""
    found = list(_markdown_links(lines, children, offset))
    found += _mentions(lines, children, offset)
    code = [child.meta[OFFSET] for child in children if child.type == "code_inline"]
    found += _wiki_spans(lines, text, code, offset)
    return tuple(sorted(found, key=lambda span: span.start))


def _simple_spans(lines: _LineOf, text: str, offset: int, read: SimpleInline) -> tuple[Span, ...]:
    """:func:`_spans` of a text :func:`simple_inline` read."""
    found = [
        Span(
            Link(lines.line_of(offset + start), target, title, wiki=False), *_at(offset, start, end)
        )
        for start, end, title, target in read.links
    ]
    found += _code_mentions(lines, read.code, offset)
    found += _wiki_spans(lines, text, [(start, end) for start, end, _ in read.code], offset)
    return tuple(sorted(found, key=lambda span: span.start))


def _at(offset: int, start: int, end: int) -> tuple[int, int]:
    return offset + start, offset + end


def _markdown_links(lines: _LineOf, children: Sequence[Token], offset: int) -> Iterator[Span]:
    for index, child in enumerate(children):
        if child.type != "link_open" or OFFSET not in child.meta:
            continue
        start, end = (offset + at for at in child.meta[OFFSET])
        title = _label_text(children, index + 1)
        target = str(child.attrs.get("href", ""))
        yield Span(Link(lines.line_of(start), target, title, wiki=False), start, end)


def _mentions(lines: _LineOf, children: Sequence[Token], offset: int) -> Iterator[Span]:
    for child in children:
        path = child.content.strip()
        if child.type == "code_inline" and OFFSET in child.meta and _is_md_path(path):
            start, end = (offset + at for at in child.meta[OFFSET])
            yield Span(Link(lines.line_of(start), path, path, wiki=False, mention=True), start, end)


def _code_mentions(
    lines: _LineOf, spans: Iterable[tuple[int, int, str]], offset: int
) -> Iterator[Span]:
    """:func:`_mentions` for code spans read without markdown-it (``start, end, content``)."""
    for start, end, content in spans:
        path = content.strip()
        if _is_md_path(path):
            at = offset + start
            yield Span(
                Link(lines.line_of(at), path, path, wiki=False, mention=True), at, offset + end
            )


def _is_md_path(text: str) -> bool:
    return text.endswith(".md") and not any(c.isspace() for c in text) and "://" not in text


def _label_text(children: Sequence[Token], start: int) -> str:
    parts: list[str] = []
    for child in children[start:]:
        if child.type == "link_close":
            break
        if child.type == "code_inline":
            parts.append(child.markup + child.content + child.markup)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        else:
            parts.append(child.content)
    return "".join(parts)


def _wiki_spans(
    lines: _LineOf, text: str, code: Sequence[tuple[int, int]], offset: int
) -> Iterator[Span]:
    starts = [start for start, _ in code]
    for start, end, name in find_wikilinks(text):
        inside = bisect.bisect_right(starts, start) - 1
        if inside >= 0 and code[inside][1] > start:
            continue  # in a code span: `[[x]]` is code, not a link
        at = offset + start
        yield Span(Link(lines.line_of(at), name, name, wiki=True), at, offset + end)


def prose_lines(
    lines: Sequence[str], first_line: int = 1, document: Document | None = None
) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, text)`` for lines outside code blocks (fenced or indented)."""
    code = (document or parse_markdown(lines, first_line)).code_lines
    for number, text in enumerate(lines, start=first_line):
        if number not in code:
            yield number, text


def is_external(target: str) -> bool:
    """True for URLs and other scheme links (``https:``, ``mailto:``), which are not files."""
    scheme, colon, _ = target.partition(":")
    if not colon or not scheme or not scheme[0].isalpha() or scheme == "file":
        return False
    return all(c in SCHEME_CHARS for c in scheme)


def first_paragraph(
    lines: Sequence[str], first_line: int = 1, document: Document | None = None
) -> str:
    """The first block of prose, skipping headings, front blank lines, breaks and code.

    ``document``: the lines already parsed (``MemoryFile.markdown``), to parse once."""
    paragraph: list[str] = []
    for _, text in prose_lines(lines, first_line, document):
        stripped = text.strip()
        if not stripped or _is_break(stripped):
            if paragraph:
                break
            continue
        if HEADING.match(text) and not paragraph:
            continue
        paragraph.append(stripped)
    return " ".join(paragraph)


def _is_break(stripped: str) -> bool:
    marks = stripped.replace(" ", "")
    return len(marks) >= 3 and marks[0] in "-*_" and marks == marks[0] * len(marks)
