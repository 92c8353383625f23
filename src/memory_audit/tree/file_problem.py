"""Something that kept (part of) a file from being understood: the tree's unit of trouble."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FileProblem:
    code: str
    message: str
    line: int | None = None
