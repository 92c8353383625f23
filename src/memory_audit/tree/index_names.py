"""Index lines that point at a file by its name instead of a link.

Many indexes write their pointers without link syntax: ``- `notes.md` — hook``,
``- [notes.md] — hook``, ``- See `notes.md` — hook``, ``See `notes.md` for the details.``,
``- notes.md — hook``, or a table's rows led by the name (``| notes.md | hook |``).
Such a line has the pointer shape (issue 25, item 4): its leading content, after a list
marker, emphasis and an optional ``See``/``See also``/``→``, is the name, and the rest is
its hook. A line that names a file in the middle of a sentence is prose, whatever it names.

This module finds the *candidates*; whether the name is a file of the tree, and so whether
the line points anywhere, is the snapshot's to say (:attr:`MemoryTree.index_named`). Hand
scanned: one pass over each line, whatever it holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from memory_audit.tree.markdown import Block, Span

EMPHASIS = " \t*_"
ARROWS = ("→", "->", "⇒", "➜")
# A bare name ends at white space or at a character no file name in an index holds.
NAME_STOPS = frozenset("`[]()<>|\"'")
TRAILING = ".,;:!?*_"  # sentence punctuation or a closing emphasis after a bare name
SEPARATORS = ("—", "–", "--", "-", ":")
LIST_GLUE = " \t,;/&"  # between the names of a list of files


@dataclass(frozen=True)
class NamedPointer:
    """One index line pointing at ``target`` by its name, with the words after it."""

    line: int
    target: str
    hook: str
    several: bool = False  # the first of a list of names (``See: `a.md`, `b.md```)
    sends: bool = False  # led by ``See`` or an arrow: it tells the reader to open the file


def named_pointers(
    block: Block, linked: frozenset[int], pointers: frozenset[int]
) -> Iterator[NamedPointer]:
    """The lines of a paragraph whose leading content names a ``.md`` file.

    Like a linked pointer, a line led by the name itself is one only on the paragraph's
    first line or right after another pointer: the next line of a wrapped sentence may
    begin with a name too. A line led by a capitalised ``See`` or an arrow starts its own
    sentence wherever it is, and so does a name a dash follows (``notes.md — hook``).
    Lines with links (``linked``) are read as links; ``pointers`` are those of them that
    are entries.
    """
    mentions = {s.start: s for s in block.spans if s.link.mention}
    after_pointer = False
    offset = 0
    for number, text in enumerate(block.text.split("\n"), start=block.first):
        found = None if number in linked else _leading_name(text, offset, mentions)
        if found is not None:
            name, end, sends, opens_sentence = found
            shaped = opens_sentence or number == block.first or after_pointer
            if not (shaped or _dashed(text, end)):
                found = None
            else:
                # a list of files (`a.md`, `b.md`): its words are no hook of the first
                more = offset + _skip(text, end, LIST_GLUE) in mentions
                hook = _hook(text[end:])
                yield NamedPointer(number, name, hook, several=more, sends=sends)
        after_pointer = found is not None or number in pointers
        offset += len(text) + 1


def _leading_name(
    text: str, offset: int, mentions: Mapping[int, Span]
) -> tuple[str, int, bool, bool] | None:
    """``(name, where it ends, sends, opens_sentence)`` when ``text`` is led by a ``.md``
    name (``sends``: after ``See`` or an arrow)."""
    at = _skip(text, 0, EMPHASIS)
    if text.startswith("|", at):  # a table's row, led by its first cell: a line of its own
        found = _name_at(text, _skip(text, at + 1, EMPHASIS), offset, mentions)
        return None if found is None else (*found, False, True)
    lead, opens_sentence = _lead(text, at)
    sends, at = lead > at, lead
    at = _skip(text, at, EMPHASIS + ":")
    found = _name_at(text, at, offset, mentions)
    return None if found is None else (*found, sends, opens_sentence)


def _name_at(
    text: str, at: int, offset: int, mentions: Mapping[int, Span]
) -> tuple[str, int] | None:
    """The ``.md`` name at ``at`` (in a code span the parser read as a file's, or bare) and
    where it ends."""
    if at >= len(text):
        return None
    if text[at] == "`":
        span = mentions.get(offset + at)
        if span is None:
            return None  # a code span, but not a file name
        return span.link.target, span.end - offset
    if text[at] == "[":  # ``[notes.md] — hook``: the name in brackets, with no link target
        found = _bare_name(text, at + 1)
        if found is None or not text.startswith("]", found[1]):
            return None
        return found[0], found[1] + 1
    return _bare_name(text, at)


def _dashed(text: str, end: int) -> bool:
    """Whether a dash follows the name: ``notes.md  — hook`` has the pointer's shape on any
    line of a paragraph (a plain-text index whose hooks wrap onto indented lines), where a
    wrapped sentence's next line, led by a name, goes on with words."""
    rest = text[_skip(text, end, " \t*_") :]
    return rest.startswith(("—", "–", "--", "- "))


def _skip(text: str, at: int, chars: str) -> int:
    while at < len(text) and text[at] in chars:
        at += 1
    return at


def _lead(text: str, at: int) -> tuple[int, bool]:
    """Past a leading ``See``, ``See also`` or arrow; whether it opens a sentence."""
    for arrow in ARROWS:
        if text.startswith(arrow, at):
            return at + len(arrow), True
    word = text[at : at + 8]
    for lead in ("see also", "see"):
        after = at + len(lead)
        if word.lower().startswith(lead) and after < len(text) and text[after] in EMPHASIS + ":":
            return after, text[at] == "S"
    return at, False


def _bare_name(text: str, at: int) -> tuple[str, int] | None:
    end = at
    while end < len(text) and not text[end].isspace() and text[end] not in NAME_STOPS:
        end += 1
    name = text[at:end].rstrip(TRAILING)
    if len(name) <= len(".md") or not name.endswith(".md") or "://" in name:
        return None
    return name, at + len(name)


def _hook(rest: str) -> str:
    if rest.lstrip("*_ ").startswith("|"):  # a table row's other cells, without the rules
        return " · ".join(cell.strip() for cell in rest.split("|") if cell.strip())
    rest = rest.lstrip("*_.,; ").strip()
    for separator in SEPARATORS:
        if rest.startswith(separator):
            return rest[len(separator) :].strip()
    return rest
