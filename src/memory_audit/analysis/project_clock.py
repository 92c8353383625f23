"""When a memory's project last changed: the day of its newest commit.

A dated claim ("audit baseline as of 2026-07-10") is as current as its project: when no
commit came after it, nothing it describes changed, however old the date. Read once per tree,
and only for a tree whose memories make such a claim (one ``git log -1``).
"""

from __future__ import annotations

import datetime as dt

from memory_audit.analysis.dates import parse_date
from memory_audit.sources.git import GitUnavailable, open_repository, run_git
from memory_audit.tree.snapshot import MemoryTree


def last_change(tree: MemoryTree) -> dt.date | None:
    """The committer day of the project's HEAD; None without a located project repository,
    or when the repository is the memory folder's own or the home folder's (their commits
    say when memory or dotfiles changed, not the project)."""
    folder = tree.location.project_path
    if folder is None:
        return None
    try:
        repo = open_repository(folder)
        if repo.path in (tree.root.resolve(), tree.home.resolve()):
            return None
        day = run_git(repo.path, "log", "-1", "--format=%cs", repo.head).strip()
    except (GitUnavailable, OSError):
        return None
    return parse_date(day)
