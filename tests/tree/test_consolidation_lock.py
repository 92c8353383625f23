"""Claude Code's consolidation lock keeps a tree from being read while it is fresh; a lock
committed to a repository (fresh from every checkout) whose process is gone frees the tree
at once; a dead PID alone, a body that names no process, or a lock that is not a regular
file, keeps the safe side."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from memory_audit.model.run import CONSOLIDATION_LOCK as LOCK_NAME
from memory_audit.tree.consolidation_lock import lock_age
from tests.support.git_repo import Repo


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_committed_lock_whose_process_is_gone_frees_the_tree(tmp_path: Path) -> None:
    # a repository keeping its memory with the lock committed: every checkout makes it fresh
    repo = Repo(tmp_path / "shop")
    repo.commit("memory", {"memory/MEMORY.md": "# Memory\n", f"memory/{LOCK_NAME}": "80475"})
    tree = repo.path / "memory"
    (tree / LOCK_NAME).write_text(f"{_dead_pid()}\n")  # tracked, its holder gone
    assert lock_age(tree) is None
    (tree / LOCK_NAME).write_text(str(os.getpid()))  # a live holder keeps it
    assert lock_age(tree) is not None


def test_a_lock_no_repository_tracks_waits_its_hour_whatever_its_pid(tmp_path: Path) -> None:
    # Claude Code in a container or a VM writes PIDs this machine does not see: a dead PID
    # alone frees nothing
    lock = tmp_path / LOCK_NAME
    for holder in (os.getpid(), _dead_pid()):
        lock.write_text(str(holder))
        assert lock_age(tmp_path) is not None


def test_a_body_that_is_no_pid_or_a_lock_that_is_no_file_keeps_the_tree(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_NAME
    for body in ("", "consolidating", "0", "9" * 40):
        lock.write_text(body)
        assert lock_age(tmp_path) is not None, body
    lock.unlink()
    os.mkfifo(lock)  # read, it would wait for a writer
    assert lock_age(tmp_path) is not None
    lock.unlink()
    (tmp_path / "holder").write_text(str(_dead_pid()))
    lock.symlink_to(tmp_path / "holder")  # not followed
    assert lock_age(tmp_path) is not None


def test_an_old_lock_is_stale_whoever_holds_it(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_NAME
    lock.write_text(str(os.getpid()))
    now = lock.stat().st_mtime + 3601
    assert lock_age(tmp_path, now) is None
