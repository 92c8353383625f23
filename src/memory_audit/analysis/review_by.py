"""When a memory is due for review: its ``review_by`` read as a date, an event or "Durable".

Shared by the ``expiry`` check and the health summary's "review due" count.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from memory_audit.analysis.dates import (
    add_days,
    date_of_timestamp,
    looks_like_date,
    parse_date,
    relative_days,
)
from memory_audit.tree.memory_file import MemoryFile

NOT_EVENTS = frozenset(
    {"yesterday", "today", "tomorrow", "now", "soon", "later", "never", "someday"}
)


@dataclass(frozen=True)
class ReviewBy:
    kind: str  # date | durable | event | invalid
    due: dt.date | None
    text: str


def review_by(memory: MemoryFile) -> ReviewBy | None:
    """How a memory's ``review_by`` reads, with its due date when it has one."""
    value = memory.meta("review_by")
    if value is None:
        return None
    if isinstance(value, dt.date):
        return ReviewBy("date", parse_date(value), str(value))
    if not isinstance(value, str) or not value.strip():
        return ReviewBy("invalid", None, repr(value))
    return _review_text(memory, value.strip())


def _review_text(memory: MemoryFile, text: str) -> ReviewBy:
    if text.split(maxsplit=1)[0].lower().rstrip(".,;:—-") == "durable":
        return ReviewBy("durable", None, text)
    if looks_like_date(text):
        due = parse_date(text)
        return ReviewBy("date" if due else "invalid", due, text)
    days = relative_days(text)
    if days is not None:
        return ReviewBy("date", add_days(_base_date(memory), days), text)
    is_event = len(text.split()) >= 2 and text.lower() not in NOT_EVENTS
    return ReviewBy("event" if is_event else "invalid", None, text)


def is_due(memory: MemoryFile, today: dt.date) -> bool:
    state = review_by(memory)
    return state is not None and state.due is not None and state.due < today


def _base_date(memory: MemoryFile) -> dt.date:
    for key in ("last_challenged", "modified"):
        found = parse_date(memory.meta(key))
        if found is not None:
            return found
    return date_of_timestamp(memory.mtime)
