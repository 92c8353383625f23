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
from memory_audit.tree.snapshot import MemoryTree, Target

CLAUDE_FOLDER = ".claude/"
UP = "../"


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


def resolves_where_written(
    tree: MemoryTree, raw: str, target: Target, *, top_level: bool = True
) -> bool:
    """Whether a link the tree lacks resolves where it was written: from the project's
    folder or Claude Code's own (``docs/plan.md``, ``.claude/skills/x/SKILL.md``); from a
    top-level note or the index, ``../x.md`` as if the memory folder sat in the project; a
    path out of the tree through a ``.claude`` folder, in Claude Code's own folder."""
    return (
        resolves_from_where_claude_runs(tree, raw)
        or (top_level and resolves_from_the_project_above(tree, raw))
        or (not target.inside and resolves_in_claude_home(tree, target.absolute))
    )


def resolves_from_the_project_above(tree: MemoryTree, target: str) -> bool:
    """Whether ``../<file>`` from a Claude Code memory folder names a file of the project:
    written as if the memory folder sat in the project (``<project>/memory``), where
    ``projects/<slug>/`` holds only Claude Code's transcripts."""
    raw = unquote(target.split("#", 1)[0])
    project = tree.location.project_path
    if tree.location.slug is None or project is None or not _one_level_up(raw):
        return False
    return "\0" not in raw and _holds_file(real_folder(tree, project), raw[len(UP) :])


def leads_into_the_slug_folder(tree: MemoryTree, absolute: str | None) -> bool:
    """Whether a path out of a Claude Code memory folder ends in the folder Claude Code
    keeps for the project (``projects/<slug>/``): transcripts only, no documents."""
    if tree.location.slug is None or absolute is None:
        return False
    key = ("outside-links-slug-folder", str(tree.root))
    if key not in tree.scratch:  # resolved once per snapshot, not for each broken link
        root = tree.root
        tree.scratch[key] = {os.path.dirname(os.path.abspath(root)), str(root.resolve().parent)}
    return os.path.dirname(absolute) in cast(set[str], tree.scratch[key])


def resolves_in_claude_home(tree: MemoryTree, absolute: str | None) -> bool:
    """Whether a path through a ``.claude`` folder (``../../../../.claude/rules/x.md``:
    up to the home folder, then into Claude Code's) names a file of Claude Code's own
    folder, whatever that folder is called here (``CLAUDE_CONFIG_DIR``)."""
    if absolute is None or "\0" in absolute:
        return False
    parts = absolute.split(os.sep)
    if CLAUDE_FOLDER.rstrip("/") not in parts:
        return False
    last = len(parts) - 1 - parts[::-1].index(CLAUDE_FOLDER.rstrip("/"))
    rest = os.sep.join(parts[last + 1 :])
    return bool(rest) and _holds_file(real_folder(tree, Path(claude_home())), rest)


def _one_level_up(raw: str) -> bool:
    return raw.startswith(UP) and not raw.startswith(UP + UP) and len(raw) > len(UP)


def real_folder(tree: MemoryTree, folder: Path) -> RealFolder:
    """``folder`` by its real path, resolved once per snapshot (asked for every link)."""
    key = ("outside-links-real", str(folder))
    if key not in tree.scratch:
        tree.scratch[key] = RealFolder(folder)
    return cast(RealFolder, tree.scratch[key])


def _holds_file(folder: RealFolder, relative: str) -> bool:
    candidate = os.path.join(folder.path, relative)
    return folder.holds(candidate) and os.path.isfile(candidate)
