"""What changed in a tree between two runs of the service."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from memory_audit.model.finding import Finding


@dataclass(frozen=True)
class Resolved:
    dimension: str
    code: str
    path: str
    message: str


@dataclass(frozen=True)
class Changes:
    new: tuple[Finding, ...] = ()
    resolved: tuple[Resolved, ...] = ()
    baseline: bool = False  # the first run: nothing to compare with, so nothing is "new"


def is_baseline(changes: Mapping[str, Changes]) -> bool:
    return any(c.baseline for c in changes.values())


@dataclass(frozen=True)
class TrendPoint:
    """One tree's counts in one earlier run, from the state database."""

    run_id: int
    finished_at: str
    root: str
    dimension: str  # "" for a run with no findings in that tree
    count: int
    index_lines: int
    index_bytes: int


@dataclass(frozen=True)
class FileChange:
    """One journaled change to a memory file (the service's journal)."""

    when: str  # local time, "YYYY-MM-DD HH:MM"
    kind: str  # created | modified | deleted | restored
    path: str
    by: str  # who made it, best effort, as it reads after the change ("by …", "outside …")


@dataclass(frozen=True)
class Activity:
    """What happened to one tree's files since the service's last run, newest first."""

    changes: tuple[FileChange, ...] = ()

    def count(self, kind: str) -> int:
        return sum(1 for c in self.changes if c.kind == kind)

    def by_actor(self) -> list[tuple[str, int]]:
        counts: dict[str, int] = {}
        for change in self.changes:
            counts[change.by] = counts.get(change.by, 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
