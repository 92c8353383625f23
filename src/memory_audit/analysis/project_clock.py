"""When a memory's project last changed: the day of its newest commit.

A dated claim ("audit baseline as of 2026-07-10") is as current as its project: when no
commit came after it, nothing it describes changed, however old the date. Read once per tree,
and only for a tree whose memories make such a claim (one ``git log -1``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from memory_audit.analysis.dates import parse_date
from memory_audit.sources.git import GitUnavailable, open_repository, run_git
from memory_audit.tree.snapshot import MemoryTree


def last_change(tree: MemoryTree) -> dt.date | None:
    """The committer day of the newest commit that changed the project: its folder in the
    repository (a monorepo's other projects are not it), less the memory tree when the
    repository holds it (a memory's own edits are no change of what it describes). None
    without a located project repository, or when the repository is the memory folder's
    own or the home folder's (their commits say when memory or dotfiles changed)."""
    folder = tree.location.project_path
    if folder is None:
        return None
    try:
        repo = open_repository(folder)
        if repo.path in (tree.root.resolve(), tree.home.resolve()):
            return None
        project = _inside(folder, repo.path) or "."
        memory = _inside(tree.root, repo.path)
        day = ""
        if memory is not None:
            day = _newest(repo.path, repo.head, project, f":(exclude){memory}")
        # a repository whose only commits are the memory's: when the memory last changed
        day = day or _newest(repo.path, repo.head, project)
    except (GitUnavailable, OSError):
        return None
    return parse_date(day)


def _newest(repo: Path, head: str, *spec: str) -> str:
    return run_git(repo, "log", "-1", "--format=%cs", head, "--", *spec).strip()


def _inside(path: Path, repo: Path) -> str | None:
    """``path`` relative to the repository's root, when it is inside it and not the root."""
    try:
        relative = path.resolve().relative_to(repo)
    except ValueError:
        return None
    return relative.as_posix() if relative.parts else None
