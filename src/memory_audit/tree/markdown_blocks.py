"""markdown-it's block parser for the Markdown memory files are written in, without markdown-it.

Parsing a note's blocks with markdown-it-py costs about a millisecond (its list rule
re-enters the whole block parser for every item); a tree of 10,000 notes would spend
most of its audit there. :func:`leaf_blocks` follows the same algorithm (markdown-it
4's ``tokenize``, ``list``, ``paragraph``, ``fence``, ``code`` and ``heading`` rules,
line by line, with their quirks) for documents made of headings, paragraphs, lists
and code, and gives up (returns None) on anything else: tabs, carriage returns,
block quotes, HTML blocks, thematic breaks, setext underlines, link reference
definitions, empty list items, deep nesting. The caller then runs markdown-it.

tests/tree/test_markdown_blocks.py compares both on generated and real-shaped
documents: every answer given is markdown-it's.
"""

from __future__ import annotations

from collections.abc import Sequence

# markdown-it's mdTrim set (CommonMark whitespace; tests compare it with the library's own):
# importing markdown_it for it would load the whole parser into runs that parse no Markdown.
MD_TRIM_CHARS = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def mdTrim(string: str) -> str:  # markdown-it's name and behaviour
    return string.strip(MD_TRIM_CHARS)


# (kind, first line, end line (exclusive), inline text, first block of a list item), 0-based
Leaf = tuple[str, int, int, str, bool]
MAX_LEVEL = 20  # markdown-it's maxNesting: deeper, it drops the rest of the document
SPACE = " "
# What a block other than a paragraph or indented code starts with (fence, block quote,
# thematic break, list marker, heading, HTML): a line starting otherwise is prose.
MARKUP_STARTS = frozenset("`~>*-_+#<0123456789")


class Unsupported(Exception):
    """A construct this reader does not follow; markdown-it must read the document."""


def leaf_blocks(lines: Sequence[str]) -> list[Leaf] | None:
    """The leaf blocks markdown-it finds in ``"\\n".join(lines)``, or None when unsure."""
    text = "\n".join(lines)
    if "\t" in text or "\r" in text or "\0" in text or "]:" in text:
        return None  # tabs, line ends markdown-it rewrites, reference definitions
    if any(_underline_like(line) for line in lines):
        return None
    counted = list(lines)
    if counted and not counted[-1].strip(SPACE):
        counted.pop()  # markdown-it does not count a blank last line without a newline
    try:
        return _Reader(counted).read()
    except Unsupported:
        return None


def _underline_like(line: str) -> bool:
    """A setext underline (``===``, ``-``) or a thematic break made of ``-``: left to
    markdown-it, which reads them in the context of the lines before."""
    stripped = line.strip(SPACE)
    return bool(stripped) and stripped[0] in "-=" and stripped == stripped[0] * len(stripped)


class _Reader:
    """The state of markdown-it's ``StateBlock`` (no tabs: a column is a character)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.shift = [len(line) - len(line.lstrip(SPACE)) for line in lines]  # tShift = sCount
        # A list item moves its first line's shift to its content, never past the line's
        # end: which lines are blank never changes, so it is known once.
        self.blank = [shift >= len(line) for shift, line in zip(self.shift, lines, strict=True)]
        self.line_max = len(lines)
        self.blk_indent = 0
        self.list_indent = -1
        self.level = 0
        self.line = 0
        self.item_open = False
        self.leaves: list[Leaf] = []

    def read(self) -> list[Leaf]:
        self.tokenize(0, self.line_max)
        return self.leaves

    def emit(self, kind: str, first: int, end: int, text: str = "") -> None:
        self.leaves.append((kind, first, end, text, self.item_open))
        self.item_open = False

    def code_block(self, line: int) -> bool:
        return self.shift[line] - self.blk_indent >= 4

    def first_char(self, line: int) -> str:
        text, pos = self.lines[line], self.shift[line]
        return text[pos] if pos < len(text) else "\n"

    def tokenize(self, start: int, end: int) -> None:
        line = start
        while line < end:
            while line < self.line_max and self.blank[line]:
                line += 1
            self.line = line
            if line >= end or self.shift[line] < self.blk_indent:
                break
            if self.level >= MAX_LEVEL:
                raise Unsupported("nesting")
            self.block(line, end)
            line = self.line
            if line < end and self.blank[line]:
                line += 1
                self.line = line

    def block(self, line: int, end: int) -> None:
        """markdown-it's rules in order: code, fence, blockquote, hr, list, reference,
        html_block, heading, lheading, paragraph (reference and lheading cannot match
        the documents :func:`leaf_blocks` accepts)."""
        if self.code(line, end):
            return
        char = self.first_char(line)
        if char in "`~" and self.fence(line, end, silent=False):
            return
        if char in MARKUP_STARTS:
            self.refuse_others(line)
            if self.list(line, end, silent=False):
                return
        if char == "#" and self.heading(line, silent=False):
            return
        self.paragraph(line)

    def refuse_others(self, line: int) -> None:
        """Block quotes, HTML blocks and thematic breaks are not followed."""
        if self.code_block(line):
            return
        char = self.first_char(line)
        if char in "<>" or (char in "*-_" and self.thematic_break(line)):
            raise Unsupported(char)

    def thematic_break(self, line: int) -> bool:
        text, pos = self.lines[line], self.shift[line]
        marker = text[pos]
        rest = text[pos + 1 :]
        return rest.strip(SPACE + marker) == "" and rest.count(marker) >= 2

    def code(self, line: int, end: int) -> bool:
        if not self.code_block(line):
            return False
        last = following = line + 1
        while following < end:
            if self.blank[following]:
                following += 1
            elif self.code_block(following):
                following += 1
                last = following
            else:
                break
        self.line = last
        self.emit("code", line, last)
        return True

    def fence(self, line: int, end: int, silent: bool) -> bool:
        text, pos = self.lines[line], self.shift[line]
        if self.code_block(line) or pos + 3 > len(text):
            return False
        marker = text[pos]
        if marker not in "~`":
            return False
        length = _run(text, pos, marker) - pos
        if length < 3 or (marker == "`" and "`" in text[pos + length :]):
            return False
        if silent:
            return True
        following, closed = line + 1, False
        while following < end:
            if self.closes_fence(following, marker, length):
                closed = True
                break
            if self.stops_fence(following):
                break
            following += 1
        self.line = following + (1 if closed else 0)
        self.emit("code", line, self.line)
        return True

    def stops_fence(self, line: int) -> bool:
        return not self.blank[line] and self.shift[line] < self.blk_indent

    def closes_fence(self, line: int, marker: str, length: int) -> bool:
        text, pos = self.lines[line], self.shift[line]
        if self.stops_fence(line) or pos >= len(text) or text[pos] != marker:
            return False
        if self.code_block(line):
            return False
        after = _run(text, pos, marker)
        return after - pos >= length and not text[after:].strip(SPACE)

    def heading(self, line: int, silent: bool) -> bool:
        text, pos = self.lines[line], self.shift[line]
        if self.code_block(line) or pos >= len(text) or text[pos] != "#":
            return False
        after = _run(text, pos, "#")
        if after - pos > 6 or (after < len(text) and text[after] != SPACE):
            return False
        if silent:
            return True
        content_end = len(text.rstrip(SPACE))
        content_end = max(after, content_end)
        hashes = len(text[after:content_end]) - len(text[after:content_end].rstrip("#"))
        closing = content_end - hashes
        if hashes and closing > after and text[closing - 1] == SPACE:
            content_end = closing
        self.line = line + 1
        self.emit("heading", line, line + 1, mdTrim(text[after:content_end]))
        return True

    def paragraph(self, start: int) -> None:
        following = start + 1
        while following < self.line_max and not self.blank[following]:
            if self.shift[following] - self.blk_indent > 3:
                following += 1  # a lazy continuation, whatever it holds
                continue
            if self.first_char(following) in MARKUP_STARTS and self.interrupts_paragraph(following):
                break
            following += 1
        content = mdTrim(self.text_lines(start, following, self.blk_indent))
        self.line = following
        self.emit("paragraph", start, following, content)

    def interrupts_paragraph(self, line: int) -> bool:
        """The paragraph terminators: fence, blockquote, hr, list, html_block, heading."""
        if self.fence(line, self.line_max, silent=True):
            return True
        self.refuse_others(line)
        return self.list(line, self.line_max, silent=True) or self.heading(line, silent=True)

    def text_lines(self, start: int, end: int, indent: int) -> str:
        """``StateBlock.getLines``: each line less up to ``indent`` columns of indentation."""
        return "\n".join(
            self.lines[line][min(indent, self.shift[line]) :] for line in range(start, end)
        )

    def list(self, start: int, end: int, silent: bool) -> bool:
        if self.code_block(start):
            return False
        if (
            self.list_indent >= 0
            and self.shift[start] - self.list_indent >= 4
            and self.shift[start] < self.blk_indent
        ):
            return False
        marker = _marker(self.lines[start], self.shift[start])
        if marker is None:
            return False
        after, ordered, value = marker
        if silent:  # asked by a paragraph: may this line interrupt it?
            if self.shift[start] < self.blk_indent:
                return True
            text = self.lines[start]
            return (not ordered or value == 1) and bool(text[after:].strip(SPACE))
        self.read_items(start, end, after, ordered)
        return True

    def read_items(self, start: int, end: int, after: int, ordered: bool) -> None:
        marker_char = self.lines[start][after - 1]
        self.level += 1
        following = start
        while following < end:
            start = following
            self.read_item(start, end, after)
            following = self.line
            if following >= end or self.ends_list(following):
                break
            marker = _marker(self.lines[following], self.shift[following])
            if marker is None or marker[1] != ordered:
                break
            after = marker[0]
            if self.lines[following][after - 1] != marker_char:
                break
        self.level -= 1
        self.line = following

    def ends_list(self, line: int) -> bool:
        """The list terminators (fence, blockquote, hr) and a line indented too little."""
        if self.shift[line] < self.blk_indent or self.code_block(line):
            return True
        if self.fence(line, self.line_max, silent=True):
            return True
        self.refuse_others(line)
        return False

    def read_item(self, start: int, end: int, after: int) -> None:
        text = self.lines[start]
        content = len(text) - len(text[after:].lstrip(SPACE))
        if content >= len(text) or content - after > 4:
            raise Unsupported("empty item, or code right after the marker")
        self.level += 1
        self.item_open = True
        saved = self.shift[start], self.list_indent, self.blk_indent
        self.list_indent, self.blk_indent = self.blk_indent, content
        self.shift[start] = content
        self.tokenize(start, end)
        self.shift[start], self.list_indent, self.blk_indent = saved
        self.level -= 1


def _run(text: str, pos: int, char: str) -> int:
    """The position after the run of ``char`` starting at ``pos``."""
    return len(text) - len(text[pos:].lstrip(char))


def _marker(text: str, pos: int) -> tuple[int, bool, int] | None:
    """A list marker at ``pos``: (position after it, ordered, number), or None.

    markdown-it's ``skipBulletListMarker`` and ``skipOrderedListMarker``."""
    if pos >= len(text):
        return None
    if text[pos] in "*-+":
        after = pos + 1
        return (after, False, 0) if after >= len(text) or text[after] == SPACE else None
    digits = _digits(text, pos)
    if digits == pos or digits - pos > 9 or digits >= len(text) or text[digits] not in ".)":
        return None
    after = digits + 1
    if after < len(text) and text[after] != SPACE:
        return None
    return after, True, int(text[pos:digits])


def _digits(text: str, pos: int) -> int:
    end = pos
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return end
