"""Review due: corrections and conventions past their ``review_by``, or long unchallenged.

``review_by`` (docs/dimensions.md, "Governance fields") says when a memory should be re-evaluated:

- a date (YAML date or ``YYYY-MM-DD…`` text) that has passed → ``review-due``;
- "after 3 months" (days, weeks, months, years) counted from ``last_challenged``,
  else ``metadata.modified``, else the file's modification time → ``review-due``
  once passed;
- ``Durable`` (first word) → never due;
- any other phrase ("after migration complete") is an event only the user can
  judge → ``review-event`` (user judgment);
- anything else (a number, a list, ``2026-13-45``, "yesterday") → ``invalid-review-by``.

``last_challenged`` (when it was last verified) older than ``challenge_days``
(default 90) → ``challenge-overdue``; in the future or not a date →
``invalid-last-challenged``.

Failing::

    review_by: 2026-03-01       (today is 2026-11-30)

    feedback_x.md:5 — review_by 2026-03-01 passed 274 days ago. Suggest: check it
    still holds, then set a new review_by (or Durable) and last_challenged.

Passing: ``review_by: Durable``, or a date still ahead.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from memory_audit.analysis.dates import parse_date
from memory_audit.analysis.review_by import review_by
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "expiry"


@dataclass(frozen=True)
class Options:
    challenge_days: int = field(default=90, metadata={"range": (1, 36500)})


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    today = tree.taken_at.date()
    for memory in sorted(tree.memories, key=lambda m: m.path):
        yield from _review_by(memory, today)
        yield from _last_challenged(memory, today, options.challenge_days)


def _review_by(memory: MemoryFile, today: dt.date) -> Iterator[Finding]:
    state = review_by(memory)
    if state is None or state.kind == "durable":
        return
    line = memory.frontmatter_line("review_by")
    if state.kind == "invalid":
        yield make_finding(
            ID,
            "invalid-review-by",
            memory.path,
            line,
            f"review_by {_shown(state.text)} is not a date, 'after N months', an event or Durable",
            "write a date (YYYY-MM-DD), 'after 3 months', the event to wait for, or Durable",
        )
    elif state.kind == "event":
        yield make_finding(
            ID,
            "review-event",
            memory.path,
            line,
            f"review_by waits for an event: {_shown(state.text)}",
            "if it has happened, re-check the memory and set a new review_by",
            judgment=True,
        )
    elif state.due is not None and state.due < today:
        yield make_finding(
            ID,
            "review-due",
            memory.path,
            line,
            f"review_by {state.due.isoformat()} passed {(today - state.due).days} days ago",
            "check it still holds, then set a new review_by (or Durable) and last_challenged",
        )


def _last_challenged(memory: MemoryFile, today: dt.date, limit: int) -> Iterator[Finding]:
    value: Any = memory.meta("last_challenged")
    if value is None:
        return
    line = memory.frontmatter_line("last_challenged")
    when = parse_date(value)
    if when is None or when > today:
        problem = "is in the future" if when else "is not a date"
        yield make_finding(
            ID,
            "invalid-last-challenged",
            memory.path,
            line,
            f"last_challenged {_shown(str(value))} {problem}",
            "set last_challenged to the date the memory was last verified (YYYY-MM-DD)",
        )
    elif (today - when).days > limit:
        yield make_finding(
            ID,
            "challenge-overdue",
            memory.path,
            line,
            f"last challenged {when.isoformat()}, {(today - when).days} days ago (over {limit})",
            "verify it against reality now and update last_challenged",
            judgment=True,
        )


def _shown(text: str) -> str:
    return f"`{text[:60]}`"
