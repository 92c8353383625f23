"""Links a memory writes from where Claude Code runs, not from the memory's own folder.

A session runs in the project's folder, so a memory's relative link is often written from
there (``docs/plan.md``, ``.claude/agents/reviewer.md``) and does not resolve from the
memory folder. Such a link works where it was written: it is no broken link. A link into
``.claude/`` also names what Claude Code loads from its own folder (``~/.claude/skills/``,
``~/.claude/agents/``): a user-level skill cited as ``.claude/skills/x/SKILL.md``, or a
project that is the home folder itself, where the two are one. Existence is checked, never
the content.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast
from urllib.parse import unquote

from memory_audit.config.user_dirs import claude_home
from memory_audit.tree.real_folder import RealFolder
from memory_audit.tree.snapshot import MemoryTree

CLAUDE_FOLDER = ".claude/"


def resolves_from_where_claude_runs(tree: MemoryTree, target: str) -> bool:
    """Whether a relative link the tree lacks names a file of the project's folder, or,
    under ``.claude/``, of Claude Code's own folder."""
    raw = unquote(target.split("#", 1)[0])
    if not raw or raw.startswith(("/", "~", "../")) or "://" in raw:
        return False
    if "\0" in raw:  # ``%00``: no file is so named (and os calls raise ValueError on it)
        return False
    project = tree.location.project_path
    if project is not None and _holds_file(real_folder(tree, project), raw):
        return True
    return raw.startswith(CLAUDE_FOLDER) and _holds_file(
        real_folder(tree, Path(claude_home())), raw.removeprefix(CLAUDE_FOLDER)
    )


def real_folder(tree: MemoryTree, folder: Path) -> RealFolder:
    """``folder`` by its real path, resolved once per snapshot (asked for every link)."""
    key = ("outside-links-real", str(folder))
    if key not in tree.scratch:
        tree.scratch[key] = RealFolder(folder)
    return cast(RealFolder, tree.scratch[key])


def _holds_file(folder: RealFolder, relative: str) -> bool:
    candidate = os.path.join(folder.path, relative)
    return folder.holds(candidate) and os.path.isfile(candidate)
