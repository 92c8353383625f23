"""Claude Code's background consolidation lock: ``<tree>/.consolidate-lock``.

While "auto dream" rewrites a tree it holds this file (mtime = start, body =
PID). An audit in the middle would see a half-rewritten tree, so callers skip
the tree while the lock is fresh and retry later. A lock older than an hour
is stale (the consolidator died) and is ignored, and so is a lock committed to
a repository with the memory it keeps, whose checkout makes it look fresh, when
its process is none this machine runs. A dead PID alone frees nothing: Claude
Code in a container or a VM writes PIDs this machine does not see.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from memory_audit.model.run import CONSOLIDATION_LOCK as LOCK_NAME
from memory_audit.regular_files import read_regular_within
from memory_audit.sources.git import GitUnavailable, run_git

STALE_AFTER_SECONDS = 3600.0
# A PID is a short run of digits; a longer body is no PID this reads.
MAX_BODY = 32


def lock_age(root: Path, now: float | None = None) -> float | None:
    """Seconds since a fresh lock was taken, or None when the tree is free."""
    lock = root / LOCK_NAME
    try:
        started = lock.stat().st_mtime
    except OSError:
        return None
    age = (time.time() if now is None else now) - started
    if age >= STALE_AFTER_SECONDS or (not _holder_may_run(lock) and _committed(lock)):
        return None
    return age


def _committed(lock: Path) -> bool:
    """Whether the repository the tree lies in tracks the lock: a copy of memory committed
    with it, not a consolidation under way (asked only of a lock whose process is gone)."""
    try:
        return bool(run_git(lock.parent, "ls-files", "-z", "--", LOCK_NAME).strip("\0"))
    except GitUnavailable:
        return False


def _holder_may_run(lock: Path) -> bool:
    """False only when the lock names a process (its body, a PID) that does not exist
    here; a body that is no PID, or one that cannot be read, keeps the lock (the safe side:
    the tree waits for the hour to pass)."""
    try:  # never through a link, never waiting on a pipe: the tree is untrusted input
        body = read_regular_within(lock, MAX_BODY, follow_links=False)
    except OSError:  # too large, a link, a pipe, gone
        return True
    text = body.strip()
    pid = int(text) if text.isdigit() else 0
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, OSError):
        return True  # another user's process (it exists), or no such PID on this system
    return True
