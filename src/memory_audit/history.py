"""What changed in a tree between two runs of the service."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import Finding


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
