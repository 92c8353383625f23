"""Orphan files: memories nothing leads to.

A file is an orphan candidate when it is isolated twice over: no MEMORY.md
line links it (a stale index path that means it counts as a link), and no
other memory reaches it (no ``relations:`` entry, no ``superseded_by``, no
body link or ``[[wikilink]]``). A file missing from the
index but reachable through another memory is findable, so it is not an
orphan (index-drift still reports the missing entry). Files under
``sessions/`` are found by folder and are never orphans.

Failing::

    scratch_idea.md — not in MEMORY.md, and no memory links to it.

Passing: ``scratch_idea.md`` linked from ``project_plan.md`` as ``[[scratch-idea]]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from memory_audit.model.dimension import Dimension, Severity
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.snapshot import MemoryTree

ID = "orphans"
DIMENSION = Dimension(ID, "Orphan files", Severity.WARNING, hook_priority=120)


@dataclass(frozen=True)
class Options:
    pass


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    for memory in sorted(tree.memories, key=lambda m: m.path):
        if memory.path in tree.index_targets or memory.path in tree.moved_index_targets:
            continue
        if memory.path in tree.incoming_relations or memory.path in tree.incoming_links:
            continue
        yield make_finding(
            ID,
            "orphan-candidate",
            memory.path,
            None,
            "not in MEMORY.md, and no relation or link from another memory leads to it",
            "add it to MEMORY.md, link it from a related memory, or remove it if no longer"
            " relevant",
            judgment=True,
        )
