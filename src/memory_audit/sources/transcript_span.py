"""How far back a project's session transcripts reach, and when the oldest is swept.

Claude Code deletes transcripts older than ``cleanupPeriodDays`` (30 by default) at
startup, so every transcript-based judgment (``usage``, ``coverage``) sees at most that
many days; the report says how many days exist and when the oldest goes.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from memory_audit.model.stores import DEFAULT_CLEANUP_DAYS, TranscriptSpan

DAY = 86_400.0


def transcript_span(
    folder: Path, now: dt.datetime, cleanup_days: int = DEFAULT_CLEANUP_DAYS
) -> TranscriptSpan | None:
    """The span of ``folder``'s ``*.jsonl`` transcripts by modification time (what the
    sweep goes by), or None when there are none."""
    oldest = _oldest_mtime(folder)
    if oldest is None:
        return None
    started = dt.datetime.fromtimestamp(oldest, now.tzinfo)
    days = max(0, int((now.timestamp() - oldest) // DAY))
    swept = (started + dt.timedelta(days=cleanup_days)).date()
    return TranscriptSpan(days, started.date(), swept, cleanup_days)


def _oldest_mtime(folder: Path) -> float | None:
    oldest: float | None = None
    try:
        for path in folder.glob("*.jsonl"):
            try:
                mtime = path.stat().st_mtime
            except OSError:
                continue
            oldest = mtime if oldest is None else min(oldest, mtime)
    except OSError:
        return None
    return oldest
