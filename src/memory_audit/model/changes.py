"""What changed in a tree between two runs of the service."""

from __future__ import annotations

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
