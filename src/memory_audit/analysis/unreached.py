"""Which memories MEMORY.md does not reach, as ``orphans`` reports them: one finding per
file outside archives and dated series, a series' unindexed notes together.

Kept apart from the dimension, which reads the dated series through it too.
"""

from __future__ import annotations

from collections import defaultdict

from memory_audit.analysis.dated_series import SERIES_MINIMUM, series_key
from memory_audit.tree.file_kinds import in_archive
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

# What an orphan's message says of a file with no block either: the engine drops that
# file's own `no-frontmatter` finding when it sees this (one cause, one finding). Kept
# here, not in the check: a secrets-only audit imports no other check.
UNSAVED = "and no frontmatter either"


def judged(tree: MemoryTree) -> bool:
    """Whether what the index reaches is known: an index here, readable."""
    return tree.index is not None and not tree.index_unreadable and not tree.index_above


def unreached(tree: MemoryTree) -> list[MemoryFile]:
    """Memories the index does not reach, by path (archives aside)."""
    return [
        m
        for m in sorted(tree.memories, key=lambda m: m.path)
        if m.path not in tree.reachable and not in_archive(m.path)
    ]


def series(tree: MemoryTree) -> dict[str | None, list[str]]:
    """Dated series of three or more memories: series -> its members (archives aside)."""
    found: dict[str | None, list[str]] = defaultdict(list)
    for memory in tree.memories:
        key = series_key(memory.path)
        if key is not None and not in_archive(memory.path):
            found[key].append(memory.path)
    return {key: paths for key, paths in found.items() if len(paths) >= SERIES_MINIMUM}


def single_orphans(tree: MemoryTree) -> list[MemoryFile]:
    """The unreached memories each reported on its own (in no dated series)."""
    if not judged(tree):
        return []
    known = series(tree)
    return [m for m in unreached(tree) if series_key(m.path) not in known]
