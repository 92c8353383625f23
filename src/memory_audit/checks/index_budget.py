"""Index load budget: what of MEMORY.md actually reaches a session, and what wastes it.

Claude Code loads the first 200 lines or the first 25,000 bytes of MEMORY.md,
whichever comes first; the rest is invisible to every session.

- ``over-budget``: the index is past either limit; and ``invisible-entry`` for
  every index entry past the cut-off (or cut in the middle), with its line;
- ``near-budget``: past ``warn_lines`` (150) or ``warn_bytes`` (20,000);
- ``inline-content``: lines that are not pointers (paragraphs, code blocks,
  tables, knowledge written into the index), one finding per block: a
  pointer-only index keeps knowledge in topic files (docs/dimensions.md,
  "The memory model");
- ``rule-in-index``: a behavioural rule ("Always…", "Never…") with no pointer:
  it belongs in ``~/.claude/rules/``, the always-loaded rules layer;
- ``long-hook``: a hook over ``max_hook_chars`` (150);
- ``several-links``: one index line pointing at more than one file.

Failing::

    MEMORY.md, 230 lines: 30 entries past line 200 that no session sees.
    MEMORY.md:4   Always run `make lint` before pushing.

Passing: 120 lines of ``- [Title](file.md) — hook`` pointers under headings.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from memory_audit.model.dimension import Dimension, Severity
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.index_file import (
    INDEX_NAME,
    LIST_ITEM,
    LOAD_BYTE_LIMIT,
    LOAD_LINE_LIMIT,
    Index,
    LineKind,
)
from memory_audit.tree.snapshot import MemoryTree

ID = "index-budget"
DIMENSION = Dimension(ID, "Index load budget", Severity.WARNING, hook_priority=30)
RULE_START = (
    "always ",
    "never ",
    "don't ",
    "dont ",
    "do not ",
    "must ",
    "avoid ",
    "prefer ",
    "remember to ",
    "make sure ",
    "use ",
    "stop ",
    "only ",
)


@dataclass(frozen=True)
class Options:
    line_limit: int = field(default=LOAD_LINE_LIMIT, metadata={"range": (1, 100_000)})
    byte_limit: int = field(default=LOAD_BYTE_LIMIT, metadata={"range": (1, 100_000_000)})
    warn_lines: int = field(default=150, metadata={"range": (1, 100_000)})
    warn_bytes: int = field(default=20_000, metadata={"range": (1, 100_000_000)})
    max_hook_chars: int = field(default=150, metadata={"range": (10, 10_000)})


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    index = tree.index
    if index is None:
        return
    yield from _budget(index, options)
    yield from _content(index)
    for entry in index.entries:
        if entry.kind is LineKind.POINTER and len(entry.hook) > options.max_hook_chars:
            yield make_finding(
                ID,
                "long-hook",
                INDEX_NAME,
                entry.line,
                f"hook for `{entry.target}` is {len(entry.hook)} characters "
                f"(over {options.max_hook_chars})",
                "shorten the hook to one line that says when to open the file; details go in it",
                key=entry.target,
            )
        if len(entry.links) > 1:
            targets = ", ".join(f"`{link.target}`" for link in entry.links)
            yield make_finding(
                ID,
                "several-links",
                INDEX_NAME,
                entry.line,
                f"one index line points at {len(entry.links)} files: {targets}",
                "give each file its own pointer line",
                key=entry.target,
            )


def cut_off(index: Index, options: Options) -> tuple[int, bool]:
    """(first line not fully loaded, 1-based, or 0 when all of it loads; cut by bytes?)."""
    loaded = 0
    for number, size in enumerate(index.line_bytes, start=1):
        if number > options.line_limit:
            return number, False
        loaded += size
        if loaded > options.byte_limit:
            return number, True
    return 0, False


def _budget(index: Index, options: Options) -> Iterator[Finding]:
    first_hidden, by_bytes = cut_off(index, options)
    lines, size = index.line_count, index.size
    shape = f"MEMORY.md is {lines} lines, {size:,} bytes"
    if first_hidden:
        hidden = [e for e in index.entries if e.line >= first_hidden]
        limit = f"{options.byte_limit:,} bytes" if by_bytes else f"{options.line_limit} lines"
        yield make_finding(
            ID,
            "over-budget",
            INDEX_NAME,
            None,
            f"{shape}; Claude Code loads only the first {limit}, so {len(hidden)} entries "
            f"from line {first_hidden} on are never seen",
            "move inline content to topic files and merge or drop stale entries until it fits",
        )
        for entry in hidden:
            how = (
                "cut off mid-line"
                if entry.line == first_hidden and by_bytes
                else "past the cut-off"
            )
            yield make_finding(
                ID,
                "invisible-entry",
                INDEX_NAME,
                entry.line,
                f"entry `[{entry.title}]({entry.target})` is {how}; no session sees it",
                "move it above the cut-off, or shrink the index",
                key=entry.target,
            )
    elif lines > options.warn_lines or size > options.warn_bytes:
        yield make_finding(
            ID,
            "near-budget",
            INDEX_NAME,
            None,
            f"{shape}; the load limit is {options.line_limit} lines / {options.byte_limit:,} bytes",
            "trim now: move inline content to topic files, drop superseded and stale entries",
        )


def _content(index: Index) -> Iterator[Finding]:
    block: list[int] = []
    for number, (text, kind) in enumerate(zip(index.lines, index.line_kinds, strict=True), 1):
        if kind is LineKind.TEXT and _is_rule(text):
            yield from _inline(index, block)
            block = []
            yield make_finding(
                ID,
                "rule-in-index",
                INDEX_NAME,
                number,
                f'behavioural rule in the index: "{_rule_text(text)[:80]}"',
                "move it to ~/.claude/rules/<topic>.md (always loaded) and drop it from the index",
                key=text.strip(),
            )
        elif kind in (LineKind.TEXT, LineKind.CODE):
            block.append(number)
        elif kind is not LineKind.BLANK or not block:
            yield from _inline(index, block)
            block = []
    yield from _inline(index, block)


def _inline(index: Index, block: Sequence[int]) -> Iterator[Finding]:
    if not block:
        return
    first, last = block[0], block[-1]
    where = f"line {first}" if first == last else f"lines {first}–{last}"
    yield make_finding(
        ID,
        "inline-content",
        INDEX_NAME,
        first,
        f"{where}: {len(block)} line(s) of inline content, not pointers",
        "move it into a topic file and leave one `- [Title](file.md) — hook` line",
        key=index.lines[first - 1].strip()[:80],
        fix={"action": "move-to-topic", "first": first, "last": last},
    )


def _rule_text(text: str) -> str:
    item = LIST_ITEM.match(text)
    return (text[item.end() :] if item else text).strip().lstrip("*_>").strip()


def _is_rule(text: str) -> bool:
    return _rule_text(text).lower().startswith(RULE_START)
