"""Orphan files: memories nothing leads to from MEMORY.md.

A memory is reachable when a reader starting at MEMORY.md gets to it: an
index line links it (a stale index path that means it counts), or a reachable
file links it (markdown link or ``[[wikilink]]``) or names it in a relation
field (``relations:``, ``superseded_by``, ``related:``, ``relates_to:``). Hubs,
archives and second-level indexes (``retros/index.md``) therefore reach the
notes they list. Recaps (``sessions/``) are never orphans, nor are memories in an
archive folder (``archive/``, ``retired/``, ...: kept out of the index on purpose; the
skip counts them). With no MEMORY.md at all nothing is reachable: that one cause is
``index-drift``'s ``missing-index``, not one orphan per memory.

This dimension owns unreachable files: each yields exactly one finding, here.
``index-drift`` reports a reachable file missing from MEMORY.md only when the
user asks for a flat index (its ``flat_index`` option), never an unreachable
one. While MEMORY.md exists but cannot be read (permissions, binary), what
it reaches is unknown: the dimension is skipped, and no fix is offered that
would add lines to a file nobody could read.

Failing::

    scratch_idea.md — not reachable from MEMORY.md: no index line, and no link
    or relation from a reachable memory leads to it.

Passing: ``scratch_idea.md`` linked as ``[[scratch-idea]]`` from
``archive.md``, which MEMORY.md lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.file_kinds import in_archive
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "orphans"


@dataclass(frozen=True)
class Options:
    pass


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    if tree.index_unreadable:
        yield Skip(ID, "MEMORY.md cannot be read, so what it reaches is unknown")
        return
    if tree.index_above:  # adding lines to a new MEMORY.md would make a second index
        yield Skip(ID, "the index is the MEMORY.md one folder up; what it reaches is not judged")
        return
    if tree.index is None:
        yield Skip(ID, "there is no MEMORY.md, so nothing is reachable (`missing-index`)")
        return
    archived = 0
    for memory in sorted(tree.memories, key=lambda m: m.path):
        if memory.path in tree.reachable:
            continue
        if in_archive(memory.path):
            archived += 1
        else:
            yield _orphan(tree, memory)
    if archived:
        yield Skip(ID, f"{archived} memories in archive folders, kept out of the index: not judged")


def _orphan(tree: MemoryTree, memory: MemoryFile) -> Finding:
    linked_from = sorted(tree.incoming_links.get(memory.path, set()))
    related = sorted(tree.incoming_relations.get(memory.path, set()))
    sources = sorted({*linked_from, *related})
    why = (
        f"only unreachable files lead to it ({', '.join(sources[:3])})"
        if sources
        else "no index line, and no link or relation from another memory leads to it"
    )
    return make_finding(
        ID,
        "orphan-candidate",
        memory.path,
        None,
        f"not reachable from MEMORY.md: {why}",
        "add it to MEMORY.md, link it from an indexed memory, or remove it if no longer relevant",
        judgment=True,
        related=tuple(sources),
        fix=None if memory.path in tree.superseded else _add_line(memory),
    )


def _add_line(memory: MemoryFile) -> dict[str, str]:
    return {"action": "add-index-line", "path": memory.path, "text": memory.index_pointer()}
