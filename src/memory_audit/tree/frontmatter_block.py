"""Cutting the frontmatter block out of a file exactly where Claude Code cuts it.

Claude Code 2.1.328 (DESIGN §2) drops a leading BOM (the reader already did),
then matches ``^---\\s*\\n([\\s\\S]*?)---\\s*\\n?``: the block opens with a line
that is ``---`` and ends at the **first** later ``---`` anywhere, even in the
middle of a value (``description: before --- after``). What follows that
``---`` is body text to Claude Code, so the fields below it are lost.

Our checks still want the body to start after the line the author meant to
close the block with, so :class:`Block` keeps both: the text Claude Code parses
and the first body line as the author laid the file out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

MARK = "---"
# JavaScript's \s: what may follow the opening and closing marks.
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
NESTED_KEY_LINE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*:")
HEADING = re.compile(r"#{1,6}[ \t]+\S")
BOLD_LINE = re.compile(r"\*\*[^*\n]+\*\*")  # a line that is bold text and nothing else
# The fields whose appearance below a `---` line shows the block was meant to go on.
BLOCK_FIELDS = frozenset({"name", "description", "type", "metadata"})
# ``- name: deploy``: a block's field written as a list item (a list, not a mapping: its own
# finding), not a document's list
LISTED_FIELD = re.compile(r"-[ \t]+(?:" + "|".join(sorted(BLOCK_FIELDS)) + r")[ \t]*:")
# How far below such a line the block's intended end is looked for.
SPLIT_WINDOW = 12


@dataclass(frozen=True)
class CutShort:
    """A ``---`` inside the block that ends it early for Claude Code."""

    line: int  # 1-based file line holding the ``---``
    column: int  # where the ``---`` starts in that line
    key: str  # the field whose value holds it ("" when it is not in a key: value line)
    lost_text: str  # what follows the ``---`` on that line
    lost_fields: tuple[str, ...]  # top-level keys below it, up to the intended closing line


@dataclass(frozen=True)
class Block:
    text: str  # what Claude Code parses as YAML
    first_line: int  # 1-based file line of the text's first line
    body_start: int  # 1-based first body line, after the closing line the author meant
    cut_short: CutShort | None = None


@dataclass(frozen=True)
class Split:
    """``block`` is None when Claude Code sees no block; ``opened`` when line 1 is ``---``;
    ``ruled`` when what follows that line reads as a document's body (a Markdown rule above
    its title): Claude Code still cuts there, but the author wrote no frontmatter."""

    block: Block | None
    opened: bool
    ruled: bool = False


def opens_block(lines: Sequence[str]) -> bool:
    return bool(lines) and lines[0].rstrip(JS_SPACE) == MARK


def split_block(lines: Sequence[str]) -> Split:
    """Find the block as Claude Code does; linear in the file's length."""
    if not opens_block(lines):
        return Split(None, False)
    for index in range(1, len(lines)):
        column = lines[index].find(MARK)
        if column < 0:
            continue
        ruled = _a_body(lines[1:index])  # a Markdown rule and a document: no one's block
        if column == 0 and not lines[index][len(MARK) :].strip(JS_SPACE):
            split = _split_by_line(lines, index)
            return Split(split or Block("\n".join(lines[1:index]), 2, index + 2), True, ruled)
        return Split(_cut_inside(lines, index, column), True, ruled)
    return Split(None, True, _a_body(lines[1 : 1 + SPLIT_WINDOW], closed=False))


def _a_body(lines: Sequence[str], *, closed: bool = True) -> bool:
    """The lines after a leading ``---`` are a document's, not a block's: a Markdown heading
    first (``# Title``, a comment to YAML), then prose, and none of the block's own fields
    (``name:``, ``description:``). A file that opens with a rule above its title reads so;
    advice to quote a line of it would be nonsense. With no closing mark, a heading as the
    first text says the same."""
    # the first line with text decides most files (``name: ...``): asked before the rest
    first = next((line for line in lines if line.strip(JS_SPACE)), None)
    if first is None:
        return False
    # with no closing mark, a bold line first is a title as much (``**Run report - <date>**``)
    titled = HEADING.match(first) is not None or (
        not closed and BOLD_LINE.fullmatch(first.strip(JS_SPACE)) is not None
    )
    if not titled:
        return False
    text = [line for line in lines if line.strip(JS_SPACE)]
    keys = [m.group(1) for m in map(KEY_LINE.match, text) if m]
    if any(key in BLOCK_FIELDS for key in keys):
        return False
    # a heading, then a Markdown list and no key at all (a daily log's entry between two
    # rules): no block either, though YAML would read the list
    listed = (
        not keys
        and any(line.startswith("- ") for line in text)
        and not any(LISTED_FIELD.match(line) for line in text)  # a block's fields as a list
    )
    return not closed or listed or any(_prose(line) for line in text)


def _prose(line: str) -> bool:
    """A line no YAML block holds: not a heading (a comment), a key, an indented or a
    ``- `` list line."""
    return not (
        HEADING.match(line) or KEY_LINE.match(line) or line[:1] in " \t" or line.startswith("- ")
    )


def _split_by_line(lines: Sequence[str], index: int) -> Block | None:
    """A ``---`` line that closes the block before fields it was meant to hold: the
    lines up to the next ``---`` line name a field the block lacks (``description:``,
    ``type:``). So a writer that inserts a field before the first ``---`` leaves a file
    when a value holds one (``name: A (--- / B)``): the block ends inside ``name``."""
    close = _mark_line(lines, index + 1, index + 1 + SPLIT_WINDOW)
    if close is None:
        return None
    # the value the `---` broke: the key line just above it, when the text right below
    # it is no field of its own (the rest of that value)
    broken = KEY_LINE.match(lines[index - 1]) if index > 1 else None
    between = lines[index + 1 : close]
    rest = between[0] if between else ""
    key = broken.group(1) if broken and rest.strip() and not KEY_LINE.match(rest) else ""
    # every line between is a field, its indented part or blank (the broken value's rest
    # first): a body's prose, a fence or a list under a rule is no block's tail
    tail = between[1:] if key else between
    if not all(not t.strip() or t[:1] in " \t" or KEY_LINE.match(t) for t in tail):
        return None
    # a field counts as held at any depth (`type` under `metadata:`, the current layout)
    above = {m.group(1) for m in map(NESTED_KEY_LINE.match, lines[1:index]) if m}
    below = [m.group(1) for m in map(KEY_LINE.match, between) if m]
    if not any(k in BLOCK_FIELDS and k not in above for k in below):
        return None
    cut = CutShort(line=index + 1, column=0, key=key, lost_text="", lost_fields=tuple(below))
    return Block("\n".join(lines[1:index]), 2, close + 2, cut)


def _cut_inside(lines: Sequence[str], index: int, column: int) -> Block:
    """A ``---`` that is not a line of its own: the block ends there anyway."""
    line = lines[index]
    text = "\n".join([*lines[1:index], line[:column]])
    close = _mark_line(lines, index + 1, len(lines))
    alone = not line[:column].strip(JS_SPACE) and not line[column + len(MARK) :].strip()
    if close is None and alone:
        # the closing line itself, indented with the whole file (a note pasted with a code
        # block's indent): it ends the block where its author meant, nothing is cut
        return Block(text, 2, index + 2)
    below = lines[index + 1 : close] if close is not None else ()
    key = KEY_LINE.match(line)
    cut = CutShort(
        line=index + 1,
        column=column,
        key=key.group(1) if key and key.end() <= column else "",
        lost_text=line[column + len(MARK) :].strip(),
        lost_fields=tuple(m.group(1) for m in map(KEY_LINE.match, below) if m),
    )
    body_start = close + 2 if close is not None else index + 2
    return Block(text, 2, body_start, cut)


def _mark_line(lines: Sequence[str], start: int, stop: int) -> int | None:
    """The first line from ``start`` (before ``stop``) that is ``---`` alone: where the
    author meant the block to end."""
    return next(
        (i for i in range(start, min(len(lines), stop)) if lines[i].rstrip(JS_SPACE) == MARK),
        None,
    )
