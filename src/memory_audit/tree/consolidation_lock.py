"""Claude Code's background consolidation lock: ``<tree>/.consolidate-lock``.

While "auto dream" rewrites a tree it holds this file (mtime = start, body =
PID). An audit in the middle would see a half-rewritten tree, so callers skip
the tree while the lock is fresh and retry later. A lock older than an hour
is stale (the consolidator died) and is ignored.
"""

from __future__ import annotations

import time
from pathlib import Path

from memory_audit.model.run import CONSOLIDATION_LOCK as LOCK_NAME

STALE_AFTER_SECONDS = 3600.0


def lock_age(root: Path, now: float | None = None) -> float | None:
    """Seconds since a fresh lock was taken, or None when the tree is free."""
    try:
        started = (root / LOCK_NAME).stat().st_mtime
    except OSError:
        return None
    age = (time.time() if now is None else now) - started
    return age if age < STALE_AFTER_SECONDS else None
