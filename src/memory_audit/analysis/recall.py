"""The recall scan: which memories Claude Code can pick from at all (DESIGN §2).

At each turn a side query picks at most five topic files from the CLI's memory
scan: MEMORY.md first, then every other memory file newest first by
modification time, a frontmatter ``modified`` stamp standing in for the file
time, capped at 200. A memory past the 200th is never a candidate, whatever
its description says.

Ties (equal times: a fresh checkout gives every file the same mtime) are broken
by path, in code-point order, so the listing is the same on every run.
A ``modified`` value that is not a date is set aside and the file time used; the
files holding one are listed, so the report can say why.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from memory_audit.tree.snapshot import MemoryTree

RECALL_CAP = 200
SCRATCH_KEY = "recall-scan"


@dataclass(frozen=True)
class RecallScan:
    order: tuple[str, ...]  # topic files as the scan lists them (MEMORY.md, first, not included)
    stamped: frozenset[str]  # files whose `modified` stamp stood in for the file time
    not_dates: tuple[tuple[str, str], ...]  # (path, value) of `modified` values that are no date
    # files sharing the time at the cut when the cut falls among them (a checkout gives every
    # file one time): which of them the scan leaves out is Claude Code's, not known here
    tied_at_cap: int = 0

    @property
    def seen(self) -> tuple[str, ...]:
        return self.order[:RECALL_CAP]

    @property
    def past_cap(self) -> tuple[str, ...]:
        return self.order[RECALL_CAP:]


def recall_scan(tree: MemoryTree) -> RecallScan:
    """The scan's listing for ``tree``, computed once per snapshot."""
    found = tree.scratch.get(SCRATCH_KEY)
    if isinstance(found, RecallScan):
        return found
    times: dict[str, float] = {}
    stamped: set[str] = set()
    not_dates: list[tuple[str, str]] = []
    for memory in tree.files.values():
        stamp = memory.meta("modified")
        when = stamp_time(stamp) if stamp is not None else None
        if when is not None:
            stamped.add(memory.path)
        elif stamp is not None and str(stamp).strip():
            not_dates.append((memory.path, str(stamp)))
        times[memory.path] = when if when is not None else memory.mtime
    order = tuple(sorted(times, key=lambda path: (-times[path], path)))
    tied = 0
    if len(order) > RECALL_CAP and times[order[RECALL_CAP - 1]] == times[order[RECALL_CAP]]:
        tied = sum(1 for when in times.values() if when == times[order[RECALL_CAP]])
    scan = RecallScan(order, frozenset(stamped), tuple(sorted(not_dates)), tied)
    tree.scratch[SCRATCH_KEY] = scan
    return scan


def stamp_time(value: Any) -> float | None:
    """Seconds since the epoch for a YAML date, datetime or ISO 8601 text; else None.

    Dates and times without a zone are read as UTC, so the order never depends
    on the machine's time zone.
    """
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    else:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()
