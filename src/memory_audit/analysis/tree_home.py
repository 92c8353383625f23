"""Where a tree lives: under Claude Code's own folder on this machine, or inside the
repository of its project (a copy the repository keeps).

Every audit asks (the engine levels a copy's findings); it is kept apart from
``stale_sources``, whose imports (git history, path references) cost a run that checks
no reference some 2% of a secrets sweep.
"""

from __future__ import annotations

import os

from memory_audit.tree.discovery import projects_dir, settings_memory_dir
from memory_audit.tree.snapshot import MemoryTree


def on_this_machine(tree: MemoryTree) -> bool:
    """A Claude Code tree of this user: under ~/.claude/projects or autoMemoryDirectory."""
    root = tree.root.resolve()
    homes = [projects_dir(), settings_memory_dir()]
    return any(h is not None and root.is_relative_to(h.expanduser().resolve()) for h in homes)


def repository_copy(tree: MemoryTree) -> bool:
    """Memory its project keeps inside itself (``<repo>/memory``, ``<repo>/.claude/memory``,
    an agent's project-scope ``<repo>/.claude/agent-memory/<agent>/``), audited with that
    project: what a repository holds beside its code, where files that are not memories,
    notes never committed and dated records are common (measured on public trees, agents'
    memory among them). Not a folder under Claude Code's own folder, nor a tree audited
    beside a project, or alone."""
    project = tree.location.project_path
    if project is None or on_this_machine(tree):
        return False
    return os.path.realpath(tree.root).startswith(os.path.realpath(project) + os.sep)
