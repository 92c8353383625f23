"""Orphan files: memories nothing leads to from MEMORY.md.

A memory is reachable when a reader starting at MEMORY.md gets to it: an
index line links it (a stale index path that means it counts) or is led by its name
(``- See `notes.md` — hook``, ``- notes.md -- hook``), or a reachable
file links it (markdown link or ``[[wikilink]]``) or names it in a relation
field (``relations:``, ``superseded_by``, ``related:``, ``relates_to:``). Hubs,
archives and second-level indexes (``retros/index.md``) therefore reach the
notes they list. Recaps (``sessions/``) are never orphans, nor are memories in an
archive folder (``archive/``, ``retired/``, ...: kept out of the index on purpose; the
skip counts them). With no MEMORY.md at all nothing is reachable: that one cause is
``index-drift``'s ``missing-index``, not one orphan per memory.

Claude Code reads more than MEMORY.md: a memory the project's ``CLAUDE.md`` or
``AGENTS.md`` (the repository's, or a folder's above the tree) links or names by path
(``memory/roadmap.md`` in a table of key files) is reachable, and so is one that an
agent or skill file MEMORY.md or a reachable memory links names (the agent's working
file). Those files are read bounded: regular files, a few dozen at most, each capped.

A dated series (three or more notes differing by a date stamp, ``snapshot-2026-04-14.md``)
that no index line reaches is a log or checkpoint a tool writes and finds by name: the
skip counts it, no orphan is reported. When some of a series are indexed, the rest are
one finding, not one each.

More than ``FLOOD`` unreachable memories in one tree (an index kept as a short kernel over an
archive of notes, or an index that links nothing) are one cause: one finding lists them, with
no fix; so are more than ten unreachable files no session saved (no ``---`` block: a hook's
logs, another tool's notes), less those the frontmatter dimension reports as one folder or
series of another kind (``engine``: it sees both dimensions' findings). Indexing them one
line each would flood the index past its load budget; whether they are an archive to move
into ``archive/`` or notes sessions should find, only the owner can say.

An unreachable memory whose body is empty (a title or HTML comments only: a placeholder
its agent never filled) gets no index line to add: one would point every session at
nothing; its owner fills it in or removes it.

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

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from memory_audit.analysis.dated_series import SERIES_MINIMUM, series_key
from memory_audit.analysis.off_schema import UNSAVED, folder_without_blocks
from memory_audit.analysis.tree_home import written_by_another_program
from memory_audit.model.finding import Finding, Skip, listed, make_finding
from memory_audit.tree.file_kinds import in_archive
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.load_budget import without_comments
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "orphans"

FLOOD = 10  # more unreachable memories than this in one tree: one finding listing them
SHOWN = 5  # of a flood, the paths its message names
HEADING = re.compile(r"[ \t]*#{1,6}(?:[ \t]|$)")  # not a tag line: "#todo #deploy-blocker"


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
        foreign = written_by_another_program(tree)  # index-drift says why, and reports nothing
        cause = "" if foreign is not None else " (`missing-index`)"
        yield Skip(ID, f"there is no MEMORY.md, so nothing is reachable{cause}")
        return
    unreached = [
        m for m in sorted(tree.memories, key=lambda m: m.path) if m.path not in tree.reachable
    ]
    archived = sum(1 for m in unreached if in_archive(m.path))
    unreached = [m for m in unreached if not in_archive(m.path)]
    series = _series(tree)
    in_unread_series: list[MemoryFile] = []
    for key, members in _by_series(unreached, series).items():
        if len(members) == len(series[key]):
            in_unread_series.extend(members)  # none indexed: a tool's checkpoints, found by name
        else:
            yield _series_orphans(tree, members, len(series[key]) - len(members))
    yield from _lone_orphans(tree, [m for m in unreached if series_key(m.path) not in series])
    if archived:
        yield Skip(ID, f"{archived} memories in archive folders, kept out of the index: not judged")
    if in_unread_series:
        count = len({series_key(m.path) for m in in_unread_series})
        yield Skip(
            ID,
            f"{len(in_unread_series)} memories of {count} dated series that no index line"
            " reaches (a log or checkpoint a tool writes and finds by name): not judged",
        )


def _lone_orphans(tree: MemoryTree, lone: list[MemoryFile]) -> Iterator[Finding]:
    """One finding each, or one for more than ``FLOOD`` saved memories."""
    # a folder with no block anywhere is the frontmatter dimension's one finding: its
    # orphans say nothing of blocks (asked once, not for each orphan)
    bare = sum(1 for m in tree.memories if not m.frontmatter_present)
    blockless = folder_without_blocks(bare, tree.memories)
    # a file no session saved stays its own finding here: the engine drops its frontmatter
    # ones, lists many as one, and leaves out those the frontmatter dimension reports as a
    # folder of another kind
    saved = [m for m in lone if not _never_saved(m, blockless)]
    grouped = {m.path for m in saved} if len(saved) > FLOOD else set()
    if grouped:
        yield _flood(tree, saved)
    for memory in lone:
        if memory.path not in grouped:
            yield _orphan(tree, memory, blockless)


def _series(tree: MemoryTree) -> dict[str | None, list[str]]:
    """Dated series of three or more memories: series -> its members (archives aside)."""
    found: dict[str | None, list[str]] = defaultdict(list)
    for memory in tree.memories:
        key = series_key(memory.path)
        if key is not None and not in_archive(memory.path):
            found[key].append(memory.path)
    return {key: paths for key, paths in found.items() if len(paths) >= SERIES_MINIMUM}


def _by_series(
    memories: list[MemoryFile], series: dict[str | None, list[str]]
) -> dict[str | None, list[MemoryFile]]:
    found: dict[str | None, list[MemoryFile]] = defaultdict(list)
    for memory in memories:
        key = series_key(memory.path)
        if key in series:
            found[key].append(memory)
    return dict(sorted(found.items(), key=lambda item: str(item[0])))


def _series_orphans(tree: MemoryTree, members: list[MemoryFile], indexed: int) -> Finding:
    """The unindexed notes of a series whose others are indexed: one finding, the newest's."""
    newest, older = members[-1], members[:-1]
    others = f" and {len(older)} older note(s) of its series" if older else ""
    return make_finding(
        ID,
        "orphan-candidate",
        newest.path,
        None,
        f"not reachable from MEMORY.md{others}, while {indexed} of the series are indexed",
        "index them as the rest of the series is, archive them, or remove them",
        judgment=True,
        related=tuple(m.path for m in older),
        fix=None if older or newest.path in tree.superseded else _add_line(newest),
    )


def _orphan(tree: MemoryTree, memory: MemoryFile, blockless: bool) -> Finding:
    linked_from = sorted(tree.incoming_links.get(memory.path, set()))
    related = sorted(tree.incoming_relations.get(memory.path, set()))
    sources = sorted({*linked_from, *related})
    why = (
        f"only unreachable files lead to it ({', '.join(sources[:3])})"
        if sources
        else "no index line, and no link or relation from another memory leads to it"
    )
    if _never_saved(memory, blockless):
        return _unsaved(memory, why, sources)
    if _empty(memory):
        return make_finding(
            ID,
            "orphan-candidate",
            memory.path,
            None,
            f"not reachable from MEMORY.md: {why}; its body is empty (a title or comments"
            " only): a placeholder never filled",
            "fill it in when there is something to keep, then index it; or remove it",
            judgment=True,
            related=tuple(sources),
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


def _empty(memory: MemoryFile) -> bool:
    """A body of nothing but headings, HTML comments and blank lines: an index line would
    point every session at nothing."""
    text = without_comments("\n".join(memory.body_lines))
    return all(not line.strip() or HEADING.match(line) for line in text.split("\n"))


def _never_saved(memory: MemoryFile, blockless: bool) -> bool:
    """No block opened at all (a broken one is a frontmatter problem), in a folder whose
    other files have blocks: see :func:`_unsaved`."""
    return not blockless and not memory.split.opened and not memory.problems


def _flood(tree: MemoryTree, memories: list[MemoryFile]) -> Finding:
    """Many unreachable memories: one finding on the index, listing them, with no fix."""
    reached = sum(1 for m in tree.memories if m.path in tree.reachable)
    paths = [m.path for m in memories]
    return make_finding(
        ID,
        "orphan-candidate",
        INDEX_NAME,
        None,
        f"{len(paths)} memories are not reachable from MEMORY.md, which reaches {reached}:"
        f" {listed(paths, SHOWN)}",
        "if they are an archive kept on purpose, move them into an archive/ folder (not"
        " judged); else index the ones sessions should find, each line costing load budget",
        judgment=True,
        related=tuple(paths),
        key="many-orphans",
    )


def _unsaved(memory: MemoryFile, why: str, sources: list[str]) -> Finding:
    """Neither frontmatter nor a way in from the index: no session saved this file as a
    memory (a hook's empty stub, a copied document, a pointer back to the index), or one
    was written by hand and never finished. Which, only its owner can say: worth a look,
    with no fix to apply (indexing a stale copy brings it back; deleting a note loses it).
    Measured on copies of Claude Code's own folders: 0 of 15 such findings were right as
    an index line to add."""
    return make_finding(
        ID,
        "orphan-candidate",
        memory.path,
        None,
        f"not reachable from MEMORY.md, {UNSAVED} ({why}): no session"
        " saved it as a memory, or one was written by hand and never finished",
        "if it is a memory to keep, give it a --- block with name, description and type and"
        " an index line; if not (a stub, a copied document, a superseded snapshot), remove it",
        judgment=True,
        related=tuple(sources),
        level="suggestion",
    )


def _add_line(memory: MemoryFile) -> dict[str, str]:
    return {"action": "add-index-line", "path": memory.path, "text": memory.index_pointer()}
