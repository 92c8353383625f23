"""Measuring a tree's health summary (the numbers every report starts with)."""

from __future__ import annotations

from memory_audit.analysis.review_by import is_due
from memory_audit.model.health import Health
from memory_audit.tree.memory_file import FileKind
from memory_audit.tree.snapshot import MemoryTree

LARGEST = 5


def measure(tree: MemoryTree, *, frontmatter: bool = True) -> Health:
    """The tree's numbers; without ``frontmatter``, only those its text gives (no YAML)."""
    if not frontmatter:
        return _text_only(tree)
    memories = tree.memories
    by_size = sorted(memories, key=lambda m: (-m.line_count, m.path))[:LARGEST]
    indexed = tree.index_targets
    return Health(
        files=len(memories),
        total_lines=sum(m.line_count for m in memories),
        index_lines=tree.index.line_count if tree.index else 0,
        index_bytes=tree.index.size if tree.index else 0,
        largest=tuple((m.path, m.line_count) for m in by_size),
        # From the rule itself, not from findings: --check may have left `expiry` out.
        review_due=sum(1 for m in memories if is_due(m, tree.taken_at.date())),
        unindexed=sum(1 for m in memories if m.path not in indexed),
    )


def _text_only(tree: MemoryTree) -> Health:
    memories = [f for f in tree.files.values() if f.listed_kind is FileKind.MEMORY]
    by_size = sorted(memories, key=lambda m: (-m.line_count, m.path))[:LARGEST]
    return Health(
        files=len(memories),
        total_lines=sum(m.line_count for m in memories),
        index_lines=tree.index.line_count if tree.index else 0,
        index_bytes=tree.index.size if tree.index else 0,
        largest=tuple((m.path, m.line_count) for m in by_size),
        review_due=0,
        unindexed=0,
    )
