"""Dead weight by usage: memories no recent session used whose content lives elsewhere.

What each session did is read from its transcript (``~/.claude/projects/<slug>/*.jsonl``):
a memory reached a session when a ``Read`` call opened it, or Claude Code attached
it (``nested_memory``) or picked it for a turn (``relevant_memories``). A memory
none of the last ``sessions`` sessions (default 3) used is *unused*; it is
**dead weight** when what it says is also carried elsewhere: a CLAUDE.md (the
project's or the user's), a rule in ``.claude/rules/`` or ``~/.claude/rules/``, a
skill, or another memory that sessions do use (its first paragraph appears there,
``overlap`` of its words or more). Unused memories with unique content are counted
in one note, not reported file by file: they may still steer sessions by their
description. With fewer sessions than ``sessions``, nothing is judged.

A store whose project folder is gone (every ``cwd`` in its transcripts missing) is
**orphaned** (a renamed or moved project). The finding names where the project went:
a newer store whose sessions run in the same git repository (one of its commits, or
its remote, appears in the old transcripts) or in a folder of the same name; with one
such store ``review`` offers to move this store into it (README, "Moving a store
whose project moved"); with two or more it is a judgment naming all, and review lets
the user pick one or skip.

Failing::

    feedback_tests.md — not used in the last 3 sessions, and CLAUDE.md says the same
    (92% of its words). Suggest: delete it, or keep only what CLAUDE.md lacks.

    MEMORY.md — this store's project `/home/me/work/ledger` no longer exists; sessions
    now run in `/home/me/src/books` (store `-home-me-src-books`: its commit 1a2b3c4d5e
    is named in the old sessions). Suggest: move or merge this store into the new one.

Passing: every unused memory says something nothing else says, and the project folder
the sessions ran in exists.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.analysis.moved_projects import moved_project
from memory_audit.analysis.session_use import AGENT_STORE, surfaced, too_few, window_sessions
from memory_audit.analysis.similarity import tokens
from memory_audit.config.fields import INTERNAL
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.sources.rule_files import instruction_files, rule_files
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "usage"
MIN_TOKENS = 5
MOVE_ONE = (
    "move or merge this store into the new one (memory-audit review: copies the topic "
    "files, merges MEMORY.md, keeps this folder in .trash/)"
)
MOVE_PICK = "pick the store it moved to in memory-audit review, or delete it if the project is gone"


@dataclass(frozen=True)
class Options:
    sessions: int = field(default=3, metadata={"range": (1, 10_000)})
    overlap: float = field(default=0.8, metadata={"range": (0.3, 1.0)})
    max_transcript_mb: int = field(default=1024, metadata={"range": (1, 1_000_000)})
    # where the per-transcript cache lives: the configured state.dir
    state_dir: str | None = field(default=None, metadata=INTERNAL)
    # review reads no transcripts for dead weight: it asks only whether the store moved
    orphans_only: bool = field(default=False, metadata=INTERNAL)


@dataclass(frozen=True)
class Carrier:
    label: str
    paragraphs: tuple[frozenset[str], ...]


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    folder = tree.location.transcripts_dir
    if tree.location.agent is not None:
        yield Skip(ID, AGENT_STORE)
        return
    if folder is None:
        return  # no transcripts (a tree outside ~/.claude, in CI): nothing to judge, silently
    yield from _orphaned(folder)
    if options.orphans_only:
        return
    sessions = window_sessions(tree, options.sessions, options.state_dir, options.max_transcript_mb)
    reason = too_few(len(sessions), options.sessions)
    if reason:
        yield Skip(ID, reason)
        return
    used = surfaced(tree, sessions)
    judged = [m for m in tree.memories if not m.path.startswith("team/")]
    unused = [m for m in sorted(judged, key=lambda m: m.path) if m.path not in used]
    carriers = _carriers(tree, [m for m in judged if m.path in used])
    unique = []
    for memory in unused:
        carried = _carried_by(memory, carriers, options.overlap)
        if carried is None:
            unique.append(memory.path)
        else:
            yield _dead_weight(memory, carried, options.sessions)
    if unique:
        yield _unused_note(unique, options.sessions)


def _carriers(tree: MemoryTree, used: Sequence[MemoryFile]) -> list[Carrier]:
    project = tree.location.project_path
    found = [
        Carrier(rule.display, tuple(tokens(p) for p in rule.paragraphs))
        for rule in instruction_files(project) + rule_files(project)
    ]
    found += [Carrier(f"`{m.path}`", (tokens(m.first_paragraph),)) for m in used]
    return found


def _carried_by(memory: MemoryFile, carriers: Sequence[Carrier], overlap: float) -> str | None:
    """Where the memory's first paragraph is already said: the share of its words there."""
    mine = tokens(memory.first_paragraph)
    if len(mine) < MIN_TOKENS:
        return None
    for carrier in carriers:
        for paragraph in carrier.paragraphs:
            share = len(mine & paragraph) / len(mine)
            if share >= overlap:
                return f"{carrier.label} ({share:.0%} of its words)"
    return None


def _dead_weight(memory: MemoryFile, carried: str, sessions: int) -> Finding:
    return make_finding(
        ID,
        "dead-weight",
        memory.path,
        None,
        f"not used in the last {sessions} sessions, and {carried} already says it",
        "delete it, or keep only what the other place lacks",
        judgment=True,
    )


def _memories(count: int) -> str:
    return "1 memory" if count == 1 else f"{count} memories"


def _unused_note(paths: list[str], sessions: int) -> Finding:
    return make_finding(
        ID,
        "unused-memories",
        "MEMORY.md",
        None,
        f"{_memories(len(paths))} not used in the last {sessions} sessions (their content is "
        "not found elsewhere, so they are kept)",
        "if one no longer matters, archive it; if it should be recalled, sharpen its description",
        judgment=True,
        related=tuple(paths),
    )


def _orphaned(transcripts_dir: Path) -> Iterator[Finding]:
    moved = moved_project(transcripts_dir)
    if moved is None:
        return
    where = "; ".join(
        f"`{c.path}` (store `{c.slug}`: {', '.join(c.clues)})" for c in moved.candidates
    )
    if len(moved.candidates) == 1:
        found, suggestion = f"; sessions now run in {where}", MOVE_ONE
    elif moved.candidates:
        found, suggestion = f"; {len(moved.candidates)} stores may hold it: {where}", MOVE_PICK
    else:
        found, suggestion = "; no store for it was found", "delete it if the project is gone"
    slugs = tuple(c.slug for c in moved.candidates)
    yield make_finding(
        ID,
        "orphaned-store",
        "MEMORY.md",
        None,
        f"this store's project `{moved.old_path}` no longer exists{found}",
        suggestion,
        key=str(moved.old_path),
        judgment=len(slugs) != 1,
        related=slugs,
        fix={"action": "move-store", "into": list(slugs)} if slugs else None,
    )
