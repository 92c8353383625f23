"""Something that kept (part of) a file from being understood: the tree's unit of trouble."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FileProblem:
    code: str
    message: str
    line: int | None = None
    # what to do about this file's trouble when its cause is known (an indented key), in
    # place of the code's general advice
    suggestion: str | None = None
