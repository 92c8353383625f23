"""Where the entries a cut MEMORY.md hides can go in one decision: into one topic file,
with one pointer to it that a session still sees.

Moving hidden entries above the cut-off only hides others, and removing them deletes
pointers; moving everything past the cut into a topic file keeps every pointer (one hop
further) and frees the index. The pointer takes the first moved line's place, so that line
is chosen where the shortened index, pointer included, loads whole: the first hidden line
when there is room for one more line, else the last visible entries move with the rest.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import islice

from memory_audit.tree.load_budget import LoadedIndex, load_index
from memory_audit.tree.markdown import parse_markdown

OVERFLOW_NAME = "more-memories.md"
OVERFLOW_TITLE = "More memories"  # what move-to-topic titles ``OVERFLOW_NAME``
OVERFLOW_LEAD = "more memories, past MEMORY.md's load limit: "
DESCRIPTION_CHARS = 140  # under index-budget's default hook limit (150): the pointer's hook
TRIES = 20  # earlier entries tried for the pointer's place (each try is one load)
# How far above the cut the heading of the section it falls in may be, for the move to take
# the section whole (its heading and first lines would stay behind, cut from the rest)
SECTION_REACH = 40
SECTION_HEADING = re.compile(r"#{2,6}[ \t]")


def overflow_fix(
    lines: Sequence[str],
    loaded: LoadedIndex,
    hidden: Sequence[tuple[int, str]],
    code: Collection[int] | None = None,
) -> dict[str, object] | None:
    """``move-to-topic`` for every line from the pointer's place to the last non-blank line,
    ``lines`` listing the hidden entries' line numbers (``hidden``: line and title); None
    when nothing is hidden."""
    if loaded.first_hidden is None or not hidden:
        return None
    last = len(lines)
    while last > loaded.first_hidden and not lines[last - 1].strip():
        last -= 1
    description = overflow_description([title for _, title in hidden])
    if code is None:  # the index's parsed code lines, when the caller has none at hand
        code = parse_markdown(lines).code_lines
    start = pointer_place(lines, loaded.first_hidden, description, code)
    return {
        "action": "move-to-topic",
        "first": start,
        "last": last,
        "lines": [line for line, _ in hidden],
        "name": OVERFLOW_NAME,
        "description": description,
    }


def overflow_description(titles: Sequence[str]) -> str:
    """What the file holds, by the titles of its first entries: recall picks a topic file
    by its description, so it names them (and ends as a sentence, not cut)."""
    shown: list[str] = []
    for title in titles:
        words = " ".join(title.split())
        rest = len(titles) - len(shown) - 1
        tail = f" and {rest} more" if rest else ""
        if len(OVERFLOW_LEAD) + len(", ".join([*shown, words])) + len(tail) > DESCRIPTION_CHARS:
            break
        shown.append(words)
    rest = len(titles) - len(shown)
    listed = ", ".join(shown) + (f" and {rest} more" if rest and shown else "")
    return OVERFLOW_LEAD + (listed or f"{rest} {'entry' if rest == 1 else 'entries'}")


def pointer_place(
    lines: Sequence[str], first_hidden: int, description: str, code: Collection[int] = ()
) -> int:
    """The 1-based line the pointer replaces: the heading of the section the cut falls in
    when it is near (the section moves whole), else the first hidden line, if the index cut
    there and ended by the pointer loads whole; else the latest line before it that does
    (an index line, never one inside a block, is what moves with the rest)."""
    pointer = f"- [{OVERFLOW_TITLE}]({OVERFLOW_NAME}) — {description}"
    earlier = (n for n in range(first_hidden - 1, 0, -1) if _is_item(lines[n - 1]))
    # the section the cut falls in, from its heading, or else its paragraph or list, from
    # the lead-in over it (``**Rules:**`` then the items the cut splits)
    whole = _section_start(lines, first_hidden, code) or _block_start(lines, first_hidden)
    candidates = [*([whole] if whole else []), first_hidden, *islice(earlier, TRIES)]
    for start in candidates:
        if not load_index("\n".join([*lines[: start - 1], pointer])).cut:
            return start
    return first_hidden


def _section_start(lines: Sequence[str], first_hidden: int, code: Collection[int]) -> int | None:
    """The heading (``##`` or deeper, never the title) of the section the cut falls in, when
    it is at most ``SECTION_REACH`` lines above the first hidden line (a ``#`` line among
    the ``code`` lines is code, not a heading): moving from it keeps the section in one
    place. None when the cut falls between blocks (a blank line, a rule, a heading), inside
    code, or far into a section."""
    if (
        first_hidden > len(lines)
        or first_hidden in code
        or _between_blocks(lines[first_hidden - 1])
    ):
        return None
    for number in range(first_hidden - 1, max(1, first_hidden - SECTION_REACH) - 1, -1):
        if number not in code and SECTION_HEADING.match(lines[number - 1].lstrip()):
            return number if number > 1 else None
    return None


def _block_start(lines: Sequence[str], first_hidden: int) -> int | None:
    """The lead-in of the list the cut falls in (``**Rules:**``: the first line of the block,
    after the blank line or heading above it, when it ends in a colon and is no item), at
    most ``SECTION_REACH`` lines above the first hidden line with no fence between; None
    when the cut falls between blocks or the block has no lead-in."""
    if first_hidden > len(lines) or _between_blocks(lines[first_hidden - 1]):
        return None
    start = first_hidden
    for number in range(first_hidden - 1, max(1, first_hidden - SECTION_REACH) - 1, -1):
        line = lines[number - 1].strip()
        if not line or line.startswith("#"):
            lead_in = lines[start - 1].strip().rstrip("*_` ")
            # only a lead-in over the list would be stranded: a run of entries is not
            leads = lead_in.endswith((":", "：")) and not _is_item(lead_in)
            return start if leads and 1 < start < first_hidden else None
        if line.startswith(("```", "~~~")):
            return None
        start = number
    return None


def _between_blocks(line: str) -> bool:
    """A cut at a blank line, a rule (``---``) or a heading splits no block."""
    stripped = line.strip()
    return not stripped or set(stripped) <= set("-*_ ") or stripped.startswith("#")


def _is_item(line: str) -> bool:
    return line.lstrip().startswith(("- ", "* ", "+ "))
