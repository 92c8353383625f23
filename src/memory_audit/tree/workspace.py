"""An OpenClaw agent's workspace: the files beside its memory that name it one."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

# The files an OpenClaw (formerly Clawdbot) agent's workspace holds beside its MEMORY.md,
# which that agent injects into its own prompt at a session's start, trimmed by its own
# rules: the first four name an agent's persona and are no Claude Code file's names.
PERSONA_FILES = ("SOUL.md", "IDENTITY.md", "HEARTBEAT.md", "BOOTSTRAP.md")
WORKSPACE_FILES = (*PERSONA_FILES, "USER.md", "TOOLS.md", "AGENTS.md")
WORKSPACE_MEMORY = "memory"


def workspace_files(present: Iterable[str]) -> list[str]:
    """The workspace's files among ``present`` (names), in ``WORKSPACE_FILES``'s order,
    when they make the folder a workspace: two or more, one of them a persona's."""
    names = set(present)
    held = [name for name in WORKSPACE_FILES if name in names]
    return held if len(held) >= 2 and any(name in PERSONA_FILES for name in held) else []


def held_in(folder: Path) -> list[str]:
    """:func:`workspace_files` of a folder on disk."""
    return workspace_files(name for name in WORKSPACE_FILES if os.path.isfile(folder / name))
