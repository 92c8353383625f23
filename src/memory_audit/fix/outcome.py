"""What a review session did: the changes written, each finding's result, and what the
caller records when it ends (dismissals, TODOs, false positives)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.model.finding import Finding

# What became of one finding; the counts add up to the findings the session had.
APPLIED, SKIPPED, DEFERRED, RESOLVED = "applied", "skipped", "deferred", "resolved"


@dataclass
class Outcome:
    applied: list[str] = field(default_factory=list)  # changelog lines, one per change
    counts: dict[str, int] = field(
        default_factory=lambda: {APPLIED: 0, SKIPPED: 0, DEFERRED: 0, RESOLVED: 0}
    )
    dismissed: list[tuple[Finding, str]] = field(default_factory=list)
    todos: list[Finding] = field(default_factory=list)
    false_positives: list[Finding] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # fixes that could not be written
    # changelog lines for another tree this session wrote to (a store moved into it)
    elsewhere: dict[Path, list[str]] = field(default_factory=dict)
    moved_to: Path | None = None  # the tree itself went to .trash: nothing more to ask
    quit: bool = False
    interrupted: bool = False  # Ctrl-C or the terminal closed

    @property
    def skipped(self) -> int:
        return self.counts[SKIPPED]

    @property
    def deferred(self) -> int:
        return self.counts[DEFERRED]

    def summary(self, remaining: int) -> str:
        """The closing line (README, "Fixing: one decision at a time"); the counts add up to the
        findings the session had."""
        resolved = self.counts[RESOLVED]
        earlier = f" ({resolved} already resolved by an earlier fix)" if resolved else ""
        return (
            f"Audit complete. {self.counts[APPLIED]} applied, {self.skipped} skipped, "
            f"{self.deferred} deferred{earlier}. Memory tree: {remaining} findings remain."
        )
