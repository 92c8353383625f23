"""Finding things in the journal the way people name them: a path, a time, a version."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from memory_audit.errors import UsageError
from memory_audit.journal.index import JournalIndex, Version


def locate(index: JournalIndex, given: str) -> tuple[Path, str]:
    """(tree root, tree-relative path; "" for the tree itself) of a path the user typed."""
    path = Path(os.path.abspath(os.path.expanduser(given)))
    roots = sorted((Path(r) for r in index.roots()), key=lambda r: len(r.parts), reverse=True)
    for root in roots:
        if path == root:
            return root, ""
        if path.is_relative_to(root):
            return root, path.relative_to(root).as_posix()
    raise UsageError(f"{given}: not in any journaled memory tree (is the service running?)")


def parse_when(text: str) -> float:
    """``2026-11-30``, ``2026-11-30T14:02`` or ``2026-11-30 14:02:05`` (local unless an
    offset is given) as epoch seconds."""
    try:
        when = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"{text!r} is not a time (use 2026-11-30, 2026-11-30T14:02 or 2026-11-30 14:02:05)"
        ) from None
    return when.astimezone().timestamp() if when.tzinfo is None else when.timestamp()


def at_time(index: JournalIndex, root: Path, rel: str, when: float) -> Version | None:
    """The file's version in force at ``when`` (a tombstone when it was deleted then)."""
    return next((v for v in index.history(str(root), rel) if v.at <= when), None)


def tree_at(index: JournalIndex, root: Path, when: float) -> dict[str, Version]:
    """Every file's version in force at ``when``, deleted ones left out."""
    state: dict[str, Version] = {}
    for version in reversed(index.history(str(root))):
        if version.at > when:
            break
        state[version.path] = version
    return {path: v for path, v in state.items() if not v.is_tombstone}


def restorable(index: JournalIndex, root: Path, rel: str) -> Version | None:
    """The default version to bring back: the newest kept one that differs from now."""
    history = index.history(str(root), rel)
    latest = history[0] if history else None
    for version in history:
        if version.kept and (latest is None or latest.is_tombstone or version.blob != latest.blob):
            return version
    return None
