"""The "new since last run / resolved" sections the service adds to its reports."""

from __future__ import annotations

from collections.abc import Callable

from memory_audit.model.changes import Changes
from memory_audit.report import wording


def changes_markdown(changes: Changes, title: Callable[[str], str]) -> str:
    lines = [f"## Since the last run: {len(changes.new)} new, {len(changes.resolved)} resolved"]
    if changes.new:
        lines += ["", "New:", ""]
        lines += [
            f"- `{wording.location(f)}` — {title(f.dimension)}: {f.message}" for f in changes.new
        ]
    if changes.resolved:
        lines += ["", "Resolved:", ""]
        lines += [f"- `{r.path}` — {title(r.dimension)}: {r.message}" for r in changes.resolved]
    return "\n".join(lines)
