"""Stores orphaned by a moved or renamed project folder, and where the project went.

Claude Code keys a project's store by its path: rename or move the folder and the
next session starts an empty store under a new slug while the old one sits unused.
A store is orphaned when every ``cwd`` its transcripts record is gone. Where the
project went: another store whose sessions run in a folder that exists and has
the same name (a move, or a renamed parent). The old folder is gone, so its git
remote cannot be compared; two candidates are both named and the user decides.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from memory_audit.tree.discovery import projects_dir, transcript_cwds


@dataclass(frozen=True)
class MovedProject:
    old_path: Path
    candidates: tuple[tuple[str, Path], ...]  # (store slug, the folder its sessions run in)


def moved_project(transcripts_dir: Path, home: Path | None = None) -> MovedProject | None:
    """None unless this store's project folder is gone; then where it may have gone."""
    cwds = list(transcript_cwds(transcripts_dir))
    if not cwds or any(cwd.is_dir() for cwd in cwds):
        return None
    old = cwds[0]
    found = []
    base = home or projects_dir()
    with contextlib.suppress(OSError):
        for store in sorted(base.iterdir()):
            if store == transcripts_dir or not store.is_dir():
                continue
            live = next((c for c in transcript_cwds(store) if c.is_dir()), None)
            if live is not None and live.name == old.name:
                found.append((store.name, live))
    return MovedProject(old, tuple(found))
