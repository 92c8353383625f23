"""The result of an audit: one report per tree, and the run that holds them.

Renderers, the state database and the fix session all take these types; the
engine builds them.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit import __version__
from memory_audit.model.changes import Activity, Changes, TrendPoint
from memory_audit.model.dimension import Dimension
from memory_audit.model.finding import Finding, Skip
from memory_audit.model.grade import Grade, grade
from memory_audit.model.health import Health
from memory_audit.model.stores import AgentStore, TranscriptSpan

CONSOLIDATION_LOCK = ".consolidate-lock"
"""The file Claude Code's consolidation holds; a report whose error names it was not audited."""
TREE_FOLDER = "."
"""The error path of a tree whose own folder could not be read: nothing of it was audited."""
NOT_AUDITED = (CONSOLIDATION_LOCK, TREE_FOLDER)


@dataclass(frozen=True)
class TreeReport:
    root: Path
    project: str | None
    project_path: Path | None
    profile: str
    memory_files: int
    session_recaps: int
    has_index: bool
    health: Health
    findings: tuple[Finding, ...]
    skipped: tuple[Skip, ...] = ()
    errors: tuple[tuple[str, str], ...] = ()
    checks: tuple[str, ...] = ()
    dismissed: tuple[Finding, ...] = ()
    not_memories: tuple[tuple[str, str], ...] = ()  # (path, why): README, encrypted files
    agent: AgentStore | None = None  # an agent's memory (None: a project's auto memory)
    frozen: str | None = None  # why Claude Code neither writes nor loads this store
    settings_notes: tuple[str, ...] = ()  # settings that could not be used (defaults were)
    transcripts: TranscriptSpan | None = None  # how far back session transcripts reach
    documents: bool = False  # a workspace root's documents beside its memory/: secrets only
    other_files: int = 0  # files that are no Markdown, read for secrets alone

    @property
    def counts(self) -> dict[str, int]:
        return dict(Counter(f.dimension for f in self.findings))

    @property
    def grade(self) -> Grade | None:
        """A to F from problem findings per 100 memories; None when not audited."""
        return grade(self.findings, self.memory_files) if self.audited else None

    @property
    def problems(self) -> tuple[Finding, ...]:
        """The findings to act on: what the exit code, headlines, alerts and the hook count."""
        return tuple(f for f in self.findings if not f.is_suggestion)

    @property
    def suggestions(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.is_suggestion)

    @property
    def problem_counts(self) -> dict[str, int]:
        return dict(Counter(f.dimension for f in self.problems))

    @property
    def audited(self) -> bool:
        """False for a tree Claude Code was consolidating or whose folder could not be read:
        its findings are unknown, not zero."""
        return self.not_audited_reason is None

    @property
    def not_audited_reason(self) -> str | None:
        """Why no check ran over this tree (the error entry that says so), or None."""
        return next((error for path, error in self.errors if path in NOT_AUDITED), None)

    @property
    def being_consolidated(self) -> bool:
        return any(path == CONSOLIDATION_LOCK for path, _ in self.errors)

    @property
    def not_run(self) -> dict[str, str]:
        """Dimensions none of which ran, and why: their result is unknown, not clean."""
        return {s.dimension: s.reason for s in self.skipped if s.whole}

    def of_level(self, suggestions: bool | None) -> tuple[Finding, ...]:
        """Problems (False), suggestions (True) or every finding (None)."""
        if suggestions is None:
            return self.findings
        return self.suggestions if suggestions else self.problems

    def shown(self, cap: int, suggestions: bool | None = None) -> list[Finding]:
        seen: Counter[str] = Counter()
        kept = []
        for finding in self.of_level(suggestions):
            seen[finding.dimension] += 1
            if seen[finding.dimension] <= cap:
                kept.append(finding)
        return kept

    def not_shown(self, cap: int, suggestions: bool | None = None) -> dict[str, int]:
        counts = Counter(f.dimension for f in self.of_level(suggestions))
        return {d: n - cap for d, n in counts.items() if n > cap}


@dataclass(frozen=True)
class Run:
    reports: tuple[TreeReport, ...]
    generated_at: dt.datetime = field(default_factory=lambda: dt.datetime.now().astimezone())
    max_per_dimension: int = 50
    version: str = __version__
    dimensions: tuple[Dimension, ...] = ()  # the registry's table, in report order
    # Filled where the state is at hand (the service, or audit with a state database):
    changes: Mapping[str, Changes] = field(default_factory=dict)  # tree root -> since last run
    history: tuple[TrendPoint, ...] = ()  # earlier runs, oldest first, for trend charts
    # tree root -> what the journal recorded since the last run
    activity: Mapping[str, Activity] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(len(r.findings) for r in self.reports)

    @property
    def problem_total(self) -> int:
        return sum(len(r.problems) for r in self.reports)

    @property
    def suggestion_total(self) -> int:
        return sum(len(r.suggestions) for r in self.reports)

    def title(self, dimension: str) -> str:
        return next((d.title for d in self.dimensions if d.id == dimension), dimension)
