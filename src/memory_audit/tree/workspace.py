"""An OpenClaw agent's workspace: the documents its agent injects into its own prompt
(persona, user, tools) beside its ``memory/`` folder of daily notes.

Known by names alone, so the tree layer (discovery, the walk) and the checks share one rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from memory_audit.tree.index_file import INDEX_NAME

# The files an OpenClaw (formerly Clawdbot) agent's workspace holds beside its MEMORY.md,
# which that agent injects into its own prompt at a session's start, trimmed by its own
# rules: the first four name an agent's persona and are no Claude Code file's names.
PERSONA_FILES = ("SOUL.md", "IDENTITY.md", "HEARTBEAT.md", "BOOTSTRAP.md")
WORKSPACE_FILES = (*PERSONA_FILES, "USER.md", "TOOLS.md", "AGENTS.md")
WORKSPACE_MEMORY = "memory"


def held_names(names: Iterable[str]) -> list[str]:
    """The workspace files among ``names``, in :data:`WORKSPACE_FILES`' order."""
    present = set(names)
    return [name for name in WORKSPACE_FILES if name in present]


def a_workspace(held: list[str]) -> bool:
    """Two of its files, one of them a persona's: no other kind of folder holds both."""
    return len(held) >= 2 and any(name in PERSONA_FILES for name in held)


def workspace_files_in(folder: Path) -> list[str]:
    """The workspace files ``folder`` holds as files (existence only, nothing is read)."""
    return [name for name in WORKSPACE_FILES if os.path.isfile(folder / name)]


def documents_beside_memory(folder: Path) -> bool:
    """A workspace whose root keeps no MEMORY.md: its ``memory/`` is audited as the tree,
    and the documents at its root (where tools' keys and accounts are noted) apart, for
    secrets only."""
    return (folder / WORKSPACE_MEMORY).is_dir() and a_workspace(workspace_files_in(folder))


def documents_root(folder: Path) -> bool:
    """Whether ``folder`` is audited as a workspace's documents (no MEMORY.md of its own):
    its own files alone are that tree's, for the journal and review as for the audit."""
    return not (folder / INDEX_NAME).exists() and documents_beside_memory(folder)
