"""Measuring a tree's health summary (the numbers every report starts with)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from memory_audit.analysis.index_loaders import cut_line
from memory_audit.analysis.recall import RECALL_CAP, recall_scan
from memory_audit.analysis.review_by import is_due
from memory_audit.analysis.session_use import surfaced, window_sessions
from memory_audit.model.finding import Finding
from memory_audit.model.health import Health, SessionUse
from memory_audit.tree.memory_file import FileKind, MemoryFile
from memory_audit.tree.snapshot import MemoryTree

LARGEST = 5


def measure(tree: MemoryTree, *, frontmatter: bool = True) -> Health:
    """The tree's numbers; without ``frontmatter``, only those its text gives (no YAML)."""
    if not frontmatter:
        memories = [f for f in tree.files.values() if f.listed_kind is FileKind.MEMORY]
        return _shape(tree, memories)
    memories = tree.memories
    indexed = tree.index_targets
    recall = recall_scan(tree)
    return _shape(
        tree,
        memories,
        # From the rule itself, not from findings: --check may have left `expiry` out.
        review_due=sum(1 for m in memories if is_due(m, tree.taken_at.date())),
        unindexed=sum(1 for m in memories if m.path not in indexed),
        recall_total=len(recall.order),
        recall_seen=min(len(recall.order), RECALL_CAP),
    )


def _shape(
    tree: MemoryTree,
    memories: list[MemoryFile],
    review_due: int = 0,
    unindexed: int = 0,
    recall_total: int = 0,
    recall_seen: int = 0,
) -> Health:
    by_size = sorted(memories, key=lambda m: (-m.line_count, m.path))[:LARGEST]
    loaded = tree.index_load
    return Health(
        files=len(memories),
        total_lines=sum(m.line_count for m in memories),
        index_lines=loaded.lines if loaded else 0,  # as Claude Code counts them
        index_bytes=tree.index.size if tree.index else 0,
        largest=tuple((m.path, m.line_count) for m in by_size),
        review_due=review_due,
        unindexed=unindexed,
        index_chars=loaded.chars if loaded else 0,
        index_cut_line=cut_line(tree),
        recall_total=recall_total,
        recall_seen=recall_seen,
    )


def session_use(
    tree: MemoryTree, usage: Any, ran: Collection[str], findings: Sequence[Finding]
) -> SessionUse | None:
    """The health line's session numbers, with ``usage``'s options (its window, cache and
    size bound). ``ran``: the dimensions that ran and judged (not skipped); the counts of
    unused memories, dead weight and coverage gaps are those of their findings."""
    if tree.location.transcripts_dir is None or getattr(usage, "orphans_only", False):
        return None  # orphans_only: review's run asks about moved stores, not sessions
    sessions = window_sessions(tree, usage.sessions, usage.state_dir, usage.max_transcript_mb)
    memories = {m.path for m in tree.memories}
    found = Counter(f.code for f in findings if f.dimension in ("usage", "coverage"))
    unused = [f for f in findings if f.dimension == "usage" and f.code == "unused-memories"]
    return SessionUse(
        sessions=len(sessions),
        surfaced=len(surfaced(tree, sessions) & memories),
        unused=sum(len(f.related) for f in unused) if "usage" in ran else None,
        dead_weight=found["dead-weight"] if "usage" in ran else None,
        coverage_gaps=found["coverage-gap"] if "coverage" in ran else None,
    )
