"""Memories that do not follow Claude Code's frontmatter schema, grouped by their cause.

Claude Code writes every memory with a ``---`` block holding ``name``, ``description`` and
``type``. A file without one is a lapse when the notes around it have one; it is not when
the folder keeps its notes another way, and then one cause should be one finding:

- the tree's own convention: most of its memories do not follow the schema, and the
  convention shows: several of them carry a block of another schema (``created``,
  ``status``, ``tags``: an Obsidian-style vault, a team's analytical notes), or no memory
  follows Claude Code's. A majority of bare files beside notes that do follow it are
  lapses, each reported (a Claude Code folder where design notes were saved by hand);
- a dated series: three or more files of one name with a date in it
  (``sandbox-snapshot-2026-05-01.md``), none with frontmatter: a tool or a schedule writes
  them, not a session saving a memory;
- a folder of another kind: a sub-folder where no memory has frontmatter (``specs/``,
  ``notes/``) while the rest of the tree has it.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from memory_audit.analysis.dated_series import SERIES_MINIMUM, series_key
from memory_audit.tree.memory_file import MemoryFile

SCHEMA_KEYS = frozenset({"name", "description"})  # either one: the file means Claude's schema
OTHER_BLOCKS = 3  # blocks of another schema that show the tree's own convention
FEWEST = 3  # fewer files than this are each a lapse, whatever their share


@dataclass(frozen=True)
class OwnConvention:
    bare: tuple[MemoryFile, ...]  # no frontmatter at all
    other: tuple[MemoryFile, ...]  # a block, but neither name nor description in it
    total: int  # memories whose frontmatter was read (or is absent)

    @property
    def members(self) -> tuple[MemoryFile, ...]:
        return tuple(sorted((*self.bare, *self.other), key=lambda m: m.path))

    def other_fields(self, most: int = 3) -> list[str]:
        """The other schema's commonest fields, for the message."""
        counts: dict[str, int] = {}
        for memory in self.other:
            for key in memory.frontmatter or {}:
                counts[str(key)] = counts.get(str(key), 0) + 1
        return sorted(counts, key=lambda k: (-counts[k], k))[:most]

    def types(self, schema: Collection[str]) -> frozenset[str]:
        """The ``type`` values the other schema's blocks give, the convention's own
        (``procedural``), but those close to one of ``schema``'s (``projet``: a typo)."""
        values = {m.type for m in self.other if m.type}
        return frozenset(
            v for v in values if not difflib.get_close_matches(v, list(schema), n=1, cutoff=0.8)
        )


def follows_schema(memory: MemoryFile) -> bool:
    """A readable block with ``name`` or ``description`` (top level or under metadata)."""
    fm = memory.frontmatter
    if fm is None:
        return False
    metadata = fm.get("metadata")
    keys = set(fm) | (set(metadata) if isinstance(metadata, Mapping) else set())
    return bool(SCHEMA_KEYS & keys)


def own_convention(
    memories: Sequence[MemoryFile],
    *,
    blocks_only: bool = False,
    types: Collection[str] = (),
) -> OwnConvention | None:
    """The tree's memories off Claude Code's schema, when they are its convention.

    ``memories``: those whose frontmatter was read or is absent (unreadable ones are
    reported for what they are, and counted on neither side). ``blocks_only`` (Claude
    Code's own folder, whose files Claude Code writes): only blocks of another schema, more
    than those of Claude Code's, show a convention there (an owner's own memory system);
    a block typed as Claude Code types (``types``: ``type: feedback`` without a name) and a
    file with no block are lapses there, each reported on its own."""
    bare = tuple(m for m in memories if not m.frontmatter_present)
    other = tuple(m for m in memories if m.frontmatter is not None and not follows_schema(m))
    if blocks_only:
        other = tuple(m for m in other if m.type not in types)
        follow = len(memories) - len(bare) - len(other)
        if len(other) >= max(OTHER_BLOCKS, FEWEST) and len(other) > follow:
            return OwnConvention((), other, len(memories))
        return None
    off = len(bare) + len(other)
    if off < FEWEST or not memories:
        return None
    if off * 2 <= len(memories):
        return None
    if len(other) >= OTHER_BLOCKS or off == len(memories):
        return OwnConvention(bare, other, len(memories))
    return None


def dated_series(
    bare: Iterable[MemoryFile], memories: Iterable[MemoryFile]
) -> dict[str, list[MemoryFile]]:
    """Bare files by the dated name they share (``sandbox-snapshot-<date>.md``), for names
    with three or more of them and no memory of that name with frontmatter."""
    by_name: dict[str, list[MemoryFile]] = {}
    for memory in bare:
        name = series_key(memory.path)
        if name is not None:
            by_name.setdefault(name, []).append(memory)
    typed = {series_key(m.path) for m in memories if m.frontmatter_present}
    return {k: v for k, v in by_name.items() if len(v) >= SERIES_MINIMUM and k not in typed}


def other_kind_folders(
    bare: Iterable[MemoryFile], memories: Iterable[MemoryFile]
) -> dict[str, list[MemoryFile]]:
    """Bare files by their sub-folder, for folders where no memory has frontmatter while
    some memory elsewhere in the tree has it; a file in nested folders of that kind
    (``exams/banking/ibps.md``) goes with the topmost of them (``exams/``): one catalogue
    kept in fifteen sub-folders is one folder of another kind, not fifteen."""
    typed: set[str] = set()  # every folder holding a memory with frontmatter, at any depth below it
    for memory in memories:
        if memory.frontmatter_present:
            parts = memory.path.split("/")[:-1]
            typed.update("/".join(parts[: i + 1]) for i in range(len(parts)))
            typed.add("")
    if not typed:
        return {}
    by_folder: dict[str, list[MemoryFile]] = {}
    for memory in bare:
        parts = memory.path.split("/")[:-1]
        untyped = ("/".join(parts[: i + 1]) for i in range(len(parts)))
        folder = next((f for f in untyped if f not in typed), None)
        if folder is not None:
            by_folder.setdefault(folder, []).append(memory)
    return by_folder


def unfenced_fields(lines: Sequence[str], most: int = 20) -> tuple[int, frozenset[str]]:
    """``key: value`` lines opening a file without ``---`` fences: how many, and their keys
    (none unless ``name`` or ``description`` is among them: a block that lost its fences)."""
    keys: list[str] = []
    for line in lines[:most]:
        key, colon, _ = line.partition(":")
        # a frontmatter key is lower case ("name", "description", "created_at"); "Note:" or
        # "TODO:" opening the body is prose
        if not colon or not key[:1].islower() or not all(c.isalnum() or c in "_-" for c in key):
            break
        if not key.isascii() or key.lower() != key:
            break
        keys.append(key)
    if not SCHEMA_KEYS & set(keys):
        return 0, frozenset()
    return len(keys), frozenset(keys)
