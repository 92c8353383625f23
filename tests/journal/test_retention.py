from __future__ import annotations

from memory_audit.journal.index import Actor, Version
from memory_audit.journal.retention import DAY, Policy, over_budget, thinned

NOW = 1_000 * DAY


def version(vid: int, days_ago: float, kind: str = "modified", path: str = "a.md") -> Version:
    blob = None if kind == "deleted" else f"blob{vid}"
    return Version("/t", path, NOW - days_ago * DAY, kind, blob, 100, 0, Actor("outside"), id=vid)


def test_retention_keeps_everything_recent_then_one_a_day_then_one_a_week() -> None:
    versions = [
        version(1, 200.0),  # week bucket A
        version(2, 199.9),  # same day and week as 1: newer, kept
        version(3, 60.0),  # daily zone
        version(4, 59.95),  # same day as 3: kept (newer)
        version(5, 10.0),
        version(6, 9.99),  # within 30 days: all kept
    ]
    dropped = thinned(versions, NOW, Policy())
    assert dropped == {1, 3}


def test_retention_the_last_version_before_a_recent_deletion_is_kept() -> None:
    versions = [version(1, 100.5), version(2, 100.4), version(3, 50.0, kind="deleted")]
    assert thinned(versions, NOW, Policy()) == set()  # 2 is protected; 1 is not the same day
    assert thinned(versions, NOW, Policy(deleted_days=10)) == {1}  # not protected any more
    aged = [version(1, 400.5), version(2, 400.4), version(3, 300.0, kind="deleted")]
    assert thinned(aged, NOW, Policy()) == {1}  # deletion long ago: week rule only


def test_retention_budget_drops_oldest_first_but_never_a_latest_version() -> None:
    versions = [version(i, 100 - i) for i in range(1, 6)] + [version(9, 1, path="b.md")]
    dropped = over_budget(versions, lambda blob: 100, budget=300)
    assert dropped == [1, 2, 3]
    assert over_budget(versions, lambda blob: 100, budget=10_000) == []
    only_latest = [version(5, 1), version(9, 1, path="b.md")]
    assert over_budget(only_latest, lambda blob: 100, budget=0) == []
