"""What of MEMORY.md reaches a session: Claude Code 2.1.328's truncation, reproduced.

DESIGN §2, read from Claude Code's own bundle: in the project memory path a
leading frontmatter block and every ``<!-- … -->`` comment are removed; the
text is trimmed (JavaScript's ``trim``), split on ``\\n`` and cut to its first
200 lines; then, if it is longer than 25,000 characters *as JavaScript counts
them* (UTF-16 code units: an emoji is two, a CJK character or an em dash one),
it is cut at the last ``\\n`` at or before index 25,000, or at 25,000 when
there is none. When anything was cut, a warning is appended::

    \\n\\n> WARNING: MEMORY.md is <why>. Only part of it was loaded: <K> of <N>
    lines were cut off, starting at line <R> ("<that line, 80 chars>"). Keep
    index entries to one line under ~200 chars; move detail into topic files.

``<why>`` is ``<N> lines (limit: 200)``, ``<size> (limit: 24.4KB) — index
entries are too long`` or ``<N> lines and <size>``, sizes written the way
Claude Code's ``formatFileSize`` writes them. :func:`load_index` is the one
place the audit computes this: the ``index-budget`` check, the health line, the
HTML bars, the service's budget alert and ``memory-audit loaded`` all use it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from memory_audit.tree.frontmatter_block import JS_SPACE, split_block

LINE_LIMIT = 200
CHAR_LIMIT = 25_000
# An index under this many characters (two fifths of CHAR_LIMIT) costs a session little
# whatever its hooks and the facts kept in it (index-budget's default, descriptions' bound).
SMALL_INDEX_CHARS = 10_000
SHOWN_CHARS = 80
NEWLINE = re.compile("\n")
ADVICE = "Keep index entries to one line under ~200 chars; move detail into topic files."


@dataclass(frozen=True)
class LoadedIndex:
    text: str  # exactly what a session receives: the kept content, then the warning if cut
    lines: int  # N: lines of the content Claude Code counts
    chars: int  # its length in UTF-16 code units
    kept_lines: int  # lines loaded whole
    loaded_chars: int  # UTF-16 code units of the kept content (warning not included)
    warning: str  # "" when nothing was cut
    first_hidden: int | None  # 1-based file line of the first line not loaded whole
    partial: bool  # that line is loaded in part (cut at 25,000 inside it)
    # 1-based file line of each line a session receives (the one loaded in part included)
    loaded_file_lines: tuple[int, ...]

    @property
    def cut(self) -> bool:
        return bool(self.warning)

    @property
    def received_lines(self) -> list[str]:
        """The lines a session receives (the warning not included)."""
        return self.text[: len(self.text) - len(self.warning)].split("\n")


def utf16_len(text: str) -> int:
    """The length JavaScript reports for ``text`` (unpaired surrogates count one)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_prefix(text: str, units: int) -> str:
    """``text.slice(0, units)`` as JavaScript computes it (it may split a surrogate pair)."""
    data = text.encode("utf-16-le", "surrogatepass")[: 2 * units]
    return data.decode("utf-16-le", "surrogatepass")


def load_index(raw: str, *, project: bool = True) -> LoadedIndex:
    """Claude Code's view of a MEMORY.md whose text (line endings as on disk) is ``raw``."""
    content = _Content(raw, project)
    lines = content.text.split("\n")
    kept, partial_text = _cut(lines)
    body = "\n".join(lines[:kept]) + partial_text
    warning = _warning(lines, content.text, kept, bool(partial_text))
    hidden = kept + 1 if warning else None
    received = kept + 1 if partial_text else kept
    return LoadedIndex(
        text=body + warning,
        lines=len(lines) if content.text else 0,
        chars=utf16_len(content.text),
        kept_lines=kept,
        loaded_chars=utf16_len(body),
        warning=warning,
        first_hidden=content.file_line(hidden) if hidden is not None else None,
        partial=bool(partial_text),
        loaded_file_lines=tuple(content.file_line(n) or n for n in range(1, received + 1)),
    )


def _cut(lines: list[str]) -> tuple[int, str]:
    """(lines kept whole, the part of the next line kept) after both limits."""
    head = lines[:LINE_LIMIT]
    newline_at, cut_after = -1, 0
    for number, line in enumerate(head[:-1], start=1):
        newline_at += utf16_len(line) + 1
        if newline_at > CHAR_LIMIT:
            break
        cut_after = number
    if utf16_len("\n".join(head)) <= CHAR_LIMIT:
        return len(head), ""
    if cut_after > 0:
        return cut_after, ""
    return 0, utf16_prefix(head[0], CHAR_LIMIT)


def _warning(lines: list[str], text: str, kept: int, partial: bool) -> str:
    by_lines = len(lines) > LINE_LIMIT
    size = utf16_len(text)
    by_size = size > CHAR_LIMIT
    if not by_lines and not by_size:
        return ""
    if by_size and not by_lines:
        why = f"{file_size(size)} (limit: {file_size(CHAR_LIMIT)}) — index entries are too long"
    elif by_lines and not by_size:
        why = f"{len(lines)} lines (limit: {LINE_LIMIT})"
    else:
        why = f"{len(lines)} lines and {file_size(size)}"
    first = lines[kept] if kept < len(lines) else ""
    shown = utf16_prefix(first, SHOWN_CHARS)
    lost = f"{len(lines) - kept} of {len(lines)} lines were cut off, starting at line {kept + 1}"
    return (
        f'\n\n> WARNING: MEMORY.md is {why}. Only part of it was loaded: {lost} ("{shown}"). '
        f"{ADVICE}"
    )


def file_size(size: int) -> str:
    """Claude Code's ``formatFileSize``: ``812 bytes``, ``24.4KB``, ``1.2MB``."""
    kb = size / 1024
    if kb < 1:
        return f"{size} bytes"
    if kb < 1024:
        return f"{kb:.1f}".removesuffix(".0") + "KB"
    return f"{kb / 1024:.1f}".removesuffix(".0") + "MB"


class _Content:
    """The text Claude Code counts, and where each of its lines starts in the file."""

    def __init__(self, raw: str, project: bool) -> None:
        self._newlines = [m.start() for m in NEWLINE.finditer(raw)]
        start = _frontmatter_end(raw) if project else 0
        self._pieces = _without_comments(raw, start) if project else [(0, raw)]
        joined = "".join(text for _, text in self._pieces)
        lead = len(joined) - len(joined.lstrip(JS_SPACE))
        self.text = joined.strip(JS_SPACE)
        self._line_starts = [lead] + [lead + m.end() for m in NEWLINE.finditer(self.text)]
        self._piece_starts = []
        offset = 0
        for _, text in self._pieces:
            self._piece_starts.append(offset)
            offset += len(text)

    def file_line(self, content_line: int) -> int | None:
        """The 1-based file line where the content's line ``content_line`` starts."""
        if content_line > len(self._line_starts):
            return None
        joined_at = self._line_starts[content_line - 1]
        piece = bisect.bisect_right(self._piece_starts, joined_at) - 1
        raw_at = self._pieces[piece][0] + joined_at - self._piece_starts[piece]
        return bisect.bisect_left(self._newlines, raw_at) + 1


def _frontmatter_end(raw: str) -> int:
    """Where the text after a leading frontmatter block starts (0 when there is none)."""
    lines = raw.split("\n")
    block = split_block(lines).block
    if block is None:
        return 0
    cut = block.cut_short
    if cut is not None:  # the block ended at a `---` inside a line: the text after it stays
        return sum(len(line) + 1 for line in lines[: cut.line - 1]) + cut.column + 3
    end = sum(len(line) + 1 for line in lines[: block.body_start - 1])
    return min(end, len(raw))


def without_comments(text: str) -> str:
    """``text`` as Claude Code reads it, without its ``<!-- … -->`` comments."""
    return "".join(piece for _, piece in _without_comments(text, 0))


def _without_comments(raw: str, start: int) -> list[tuple[int, str]]:
    """``raw[start:]`` without ``<!-- … -->``, as (offset in raw, text) pieces."""
    pieces = []
    position = start
    while True:
        opening = raw.find("<!--", position)
        closing = raw.find("-->", opening + 4) if opening >= 0 else -1
        if closing < 0:
            pieces.append((position, raw[position:]))
            return pieces
        pieces.append((position, raw[position:opening]))
        position = closing + 3
