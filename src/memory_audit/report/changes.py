"""The "new since last run / resolved" sections the service adds to its reports."""

from __future__ import annotations

from collections.abc import Callable

from memory_audit.model.changes import Activity, Changes
from memory_audit.report import wording


def changes_markdown(changes: Changes, title: Callable[[str], str]) -> str:
    if changes.baseline:
        return "## First run: the baseline; later runs list what is new and what was resolved"
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


SHOWN_CHANGES = 20


def activity_markdown(activity: Activity) -> str:
    """The journal's account of a tree since the last run: counts, who, the latest changes."""
    counts = ", ".join(
        f"{activity.count(kind)} {kind}" for kind in ("created", "modified", "deleted", "restored")
    )
    lines = [f"## Memory changes since the last run: {counts}", ""]
    lines += [f"- {n} {who}" for who, n in activity.by_actor()]  # "by …", or "outside …"
    lines += ["", "Latest (who made each change is a best-effort reading):", ""]
    lines += [f"- {c.when} {c.kind} `{c.path}` — {c.by}" for c in activity.changes[:SHOWN_CHANGES]]
    if len(activity.changes) > SHOWN_CHANGES:
        lines.append(
            f"- … and {len(activity.changes) - SHOWN_CHANGES} more: `memory-audit history`"
        )
    return "\n".join(lines)
