"""Claude Code's consolidation lock keeps a tree from being read while a live process holds
it; a lock whose process is gone (a consolidator that died young, a lock committed to a
repository and fresh from its checkout) frees the tree at once; a body that names no
process, or a lock that is not a regular file, keeps the safe side."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from memory_audit.model.run import CONSOLIDATION_LOCK as LOCK_NAME
from memory_audit.tree.consolidation_lock import lock_age


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_live_holder_keeps_the_tree_and_a_dead_one_frees_it(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_NAME
    lock.write_text(str(os.getpid()))
    assert lock_age(tmp_path) is not None
    lock.write_text(f"{_dead_pid()}\n")
    assert lock_age(tmp_path) is None


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
