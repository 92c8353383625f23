"""Which of a tree's memories reached recent sessions: shared by ``usage`` and the health line.

A memory reaches a session when a ``Read`` call opened it or Claude Code attached it
(:mod:`memory_audit.sources.sessions` reads the transcripts). Paths are compared
under the tree's root as given and as resolved, so a symlinked ``~/.claude`` matches.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from memory_audit.config.paths import default_state_dir
from memory_audit.sources.sessions import SessionActivity, session_activity
from memory_audit.sources.transcripts import recent_transcripts
from memory_audit.tree.snapshot import MemoryTree

# Transcripts record the main session's reads, not which subagent read what.
AGENT_STORE = "an agent's memory: session transcripts do not say which agent read what"


def tree_roots(tree: MemoryTree) -> list[str]:
    return sorted({str(tree.root), os.path.realpath(tree.root)})


def window_sessions(
    tree: MemoryTree, count: int, state_dir: str | None, max_mb: int
) -> list[SessionActivity]:
    """The ``count`` newest sessions of the tree's store (none without transcripts).

    Read once for every use: lines naming the tree (memories surfaced) or the project
    (paths touched), so ``usage``, ``coverage`` and the health line share the cache."""
    folder = tree.location.transcripts_dir
    if folder is None:
        return []
    transcripts = recent_transcripts(folder, count)
    state = Path(state_dir or default_state_dir())
    project = tree.location.project_path
    # The project first: every record's `cwd` names it, so a block is known to matter at once.
    needles = ([str(project)] if project else []) + tree_roots(tree)
    return session_activity(transcripts, needles, state, max_mb * 1024 * 1024)


def surfaced(tree: MemoryTree, sessions: Sequence[SessionActivity]) -> set[str]:
    """Tree paths of the memories that reached any of these sessions."""
    roots = [root.rstrip("/") + "/" for root in tree_roots(tree)]
    paths = set().union(*(session.surfaced for session in sessions))
    return {next((path[len(r) :] for r in roots if path.startswith(r)), path) for path in paths}


def too_few(found: int, needed: int) -> str | None:
    """Why a session check cannot judge with ``found`` sessions, or None when it can."""
    if found == 0:
        return "no session transcripts in this store (~/.claude/projects/<slug>/*.jsonl)"
    if found < needed:
        return f"needs {needed} sessions, found {found}"
    return None
