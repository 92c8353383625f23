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


DRAWN = 16
DRAWN_HEX = 24


def drawn_name_part(part: str) -> bool:
    """A name part that may be a generated token: 16 characters or more of letters and
    digits (with ``-`` and ``_``) mixing both cases and digits, or 24 hex digits. Such a
    part of a path outside the tree (never scanned for secrets) is not printed."""
    run = part.replace("-", "").replace("_", "")
    if len(run) < DRAWN or not run.isalnum():
        return False
    if len(run) >= DRAWN_HEX and all(c in "0123456789abcdefABCDEF" for c in run):
        return True
    return (
        any(c.isupper() for c in run)
        and any(c.islower() for c in run)
        and any(c.isdigit() for c in run)
    )
