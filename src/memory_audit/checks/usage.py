"""Dead weight by usage: memories no recent session opened.

Claude Code's session transcripts (``~/.claude/projects/<slug>/*.jsonl``)
record every tool call. A memory file that no ``Read`` call opened in the
last ``sessions`` sessions (default 10) is a dead-weight candidate (seed 002):
user judgment, since a memory can matter without being read (its description
alone steers sessions). With fewer sessions than that, nothing is reported.
Recaps and ``team/`` are not judged; MEMORY.md is always loaded.

Transcripts are streamed, broken lines skipped, results cached per transcript
(size and mtime) in the state folder; a transcript over ``max_transcript_mb``
is read from its most recent part only.

Failing::

    old_vendor_notes.md — no session read it in the last 10 sessions.

Passing: every memory opened at least once in the last 10 sessions.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.config.paths import default_state_dir
from memory_audit.config.schema import INTERNAL
from memory_audit.model.dimension import Dimension, Need, Severity
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.sources.transcripts import recent_transcripts, sessions
from memory_audit.tree.snapshot import MemoryTree

ID = "usage"
DIMENSION = Dimension(
    ID,
    "Dead weight by usage",
    Severity.NOTE,
    hook_priority=150,
    needs=frozenset({Need.TRANSCRIPTS}),
)


@dataclass(frozen=True)
class Options:
    sessions: int = field(default=10, metadata={"range": (1, 10_000)})
    max_transcript_mb: int = field(default=1024, metadata={"range": (1, 1_000_000)})
    # where the per-transcript cache lives: the configured state.dir
    state_dir: str | None = field(default=None, metadata=INTERNAL)


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    folder = tree.location.transcripts_dir
    if folder is None:
        return
    transcripts = recent_transcripts(folder, options.sessions)
    if len(transcripts) < options.sessions:
        yield Skip(ID, f"needs {options.sessions} sessions, found {len(transcripts)}")
        return
    roots = sorted({str(tree.root), os.path.realpath(tree.root)})
    state = Path(options.state_dir or default_state_dir())
    recent = sessions(transcripts, roots, state, options.max_transcript_mb * 1024 * 1024)
    read = {_relative(path, roots) for session in recent for path in session.reads}
    for memory in sorted(tree.memories, key=lambda m: m.path):
        if memory.path not in read:
            yield make_finding(
                ID,
                "unread-memory",
                memory.path,
                None,
                f"no session read it in the last {len(recent)} sessions",
                "if it no longer matters or lives elsewhere, archive it; if it should be read, "
                "sharpen its description and index hook",
                judgment=True,
            )


def _relative(path: str, roots: list[str]) -> str:
    for root in roots:
        if path.startswith(root.rstrip("/") + "/"):
            return path[len(root.rstrip("/")) + 1 :]
    return path
