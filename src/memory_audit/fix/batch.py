"""Deciding once for a named set: "apply to all N" findings of one code in one tree.

The session lists every target, shows the combined diff a page at a time, asks once,
then applies each with the same guards as a single fix. What each target's change
*is* (the lines it removes and adds, per file) is fixed at the listing: right before
its write a target is built again from the files as they are, and written only when
its file holds what the listing read (or what this batch wrote since) and the change
is still the one shown. Otherwise it is skipped with a message; the others go on.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from memory_audit.fix.edits import Edit

PAGE_LINES = 40  # the combined diff is shown this many lines at a time

Delta = tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]


def delta(edit: Edit) -> Delta:
    """The change an edit makes, without its context: per file, the lines it removes and
    the lines it adds (a rename or a deletion named as such)."""
    parts = []
    for change in edit.changes:
        old = change.before.text.splitlines() if change.before else []
        new = [] if change.delete else change.after.text.splitlines()
        removed, added = [], []
        for line in list(difflib.unified_diff(old, new, n=0, lineterm=""))[2:]:
            if line.startswith("-"):
                removed.append(line[1:])
            elif line.startswith("+"):
                added.append(line[1:])
        where = change.after.rel + (f" → {change.rename_to}" if change.rename_to else "")
        where += " (deleted)" if change.delete else ""
        parts.append((where, tuple(removed), tuple(added)))
    return tuple(parts)


def pages(text: str, size: int = PAGE_LINES) -> list[str]:
    lines = text.splitlines()
    return ["\n".join(lines[at : at + size]) for at in range(0, len(lines), size)] or [""]


@dataclass
class Ledger:
    """What this batch wrote, file by file: a file holding it was changed by us, not by
    someone else, since the listing."""

    written: dict[str, bytes] = field(default_factory=dict)

    def expected(self, rel: str, listed: bytes) -> bytes:
        return self.written.get(rel, listed)

    def wrote(self, edit: Edit) -> None:
        for change in edit.changes:
            if change.delete:
                self.written[change.after.rel] = b""
            else:
                self.written[change.rename_to or change.after.rel] = change.after.encoded()


def moved_on(edit: Edit, ledger: Ledger, read: Callable[[str], bytes | None]) -> str | None:
    """The first file of ``edit`` that holds neither what the listing read nor what this
    batch wrote since: someone else changed it."""
    for change in edit.changes:
        before = change.before
        if before is None:
            continue
        listed = before.raw if before.raw is not None else before.encoded()
        if read(before.rel) != ledger.expected(before.rel, listed):
            return before.rel
    return None
