"""Thinning old versions: every version for a while, then one a day, then one a week.

Rules, per file (DESIGN §5 and the journal settings):

- every version of the last ``keep_all_days`` days is kept;
- older, up to ``keep_all_days + daily_days``: the last version of each day;
- older still: the last version of each ISO week;
- the last kept version before a deletion stays for at least ``deleted_days``
  after the deletion (what a restore of a deleted file needs);
- then, while the kept blobs exceed ``max_bytes``, the oldest versions go
  first (never a file's latest version), with a log line.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memory_audit.journal.index import Version

DAY = 86400.0


@dataclass(frozen=True)
class Policy:
    keep_all_days: int = 30
    daily_days: int = 90
    deleted_days: int = 90
    max_bytes: int = 200 * 1024 * 1024


def thinned(versions: Iterable[Version], now: float, policy: Policy) -> set[int]:
    """Ids of versions the day/week rules no longer keep."""
    by_file: dict[tuple[str, str], list[Version]] = defaultdict(list)
    for version in versions:
        by_file[(version.root, version.path)].append(version)
    dropped: set[int] = set()
    for history in by_file.values():
        dropped |= _thin_file(sorted(history, key=lambda v: v.id), now, policy)
    return dropped


def _thin_file(history: Sequence[Version], now: float, policy: Policy) -> set[int]:
    protected = {history[-1].id} | _before_deletions(history, now, policy)
    seen_buckets: set[tuple[str, int]] = set()
    dropped: set[int] = set()
    for version in reversed(history):  # newest first: the last of each bucket is kept
        bucket = _bucket(version.at, now, policy)
        if bucket is None or version.id in protected:
            continue
        if bucket in seen_buckets:
            dropped.add(version.id)
        seen_buckets.add(bucket)
    return dropped


def _bucket(at: float, now: float, policy: Policy) -> tuple[str, int] | None:
    age_days = (now - at) / DAY
    if age_days <= policy.keep_all_days:
        return None
    day = dt.date.fromtimestamp(at)
    if age_days <= policy.keep_all_days + policy.daily_days:
        return ("day", day.toordinal())
    year, week, _ = day.isocalendar()
    return ("week", year * 100 + week)


def _before_deletions(history: Sequence[Version], now: float, policy: Policy) -> set[int]:
    keep = set()
    for position, version in enumerate(history):
        recent = now - version.at <= policy.deleted_days * DAY
        if version.is_tombstone and recent:
            before = next((v for v in reversed(history[:position]) if v.kept), None)
            if before is not None:
                keep.add(before.id)
    return keep


def over_budget(
    versions: Sequence[Version], size_of: Callable[[str], int], budget: int
) -> list[int]:
    """Oldest-first ids to drop until the distinct blobs fit ``budget`` (latest versions stay)."""
    latest: dict[tuple[str, str], int] = {}
    for version in versions:
        latest[(version.root, version.path)] = max(
            version.id, latest.get((version.root, version.path), 0)
        )
    users: dict[str, int] = defaultdict(int)
    for version in versions:
        if version.blob is not None:
            users[version.blob] += 1
    total = sum(size_of(blob) for blob in users)
    dropped = []
    for version in sorted(versions, key=lambda v: v.id):
        if total <= budget:
            break
        if version.id == latest[(version.root, version.path)]:
            continue
        dropped.append(version.id)
        if version.blob is not None:
            users[version.blob] -= 1
            if users[version.blob] == 0:
                total -= size_of(version.blob)
    return dropped
