"""Wording shared by the human-readable renderers, so text and markdown say the same thing.

Paths and messages carry text from memory files: they are shown through ``visible``,
so a file name or a quote can neither colour a terminal nor start a line of its own.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from memory_audit.model.finding import Finding, Skip
from memory_audit.model.health import SessionUse
from memory_audit.model.run import TREE_FOLDER, Run, TreeReport
from memory_audit.model.visible import visible
from memory_audit.tree.load_budget import CHAR_LIMIT, LINE_LIMIT


def display_root(root: Path) -> str:
    """The tree's path with the home folder shown as ``~``, ending in ``/``."""
    absolute = root.absolute()
    home = Path.home()
    shown = f"~/{absolute.relative_to(home)}" if absolute.is_relative_to(home) else str(absolute)
    return visible(shown.rstrip("/") + "/")


def tree_name(report: TreeReport) -> str:
    """How a summary names a tree: its agent, its project's slug, or its folder."""
    if report.agent is not None:
        return visible(report.agent.label)
    if report.documents:  # beside its memory/ tree, of the same project
        return f"{display_root(report.root)} {DOCUMENTS_NAME}"
    return report.project or display_root(report.root)


DOCUMENTS_NAME = "(documents beside memory/, secrets only)"


def files_scanned(report: TreeReport) -> str:
    if report.documents:
        return f"{report.memory_files} documents beside memory/ (its own tree); secrets only"
    index = "MEMORY.md" if report.has_index else "no MEMORY.md"
    recaps = report.session_recaps
    scanned = f"{report.memory_files} memory files + {recaps} session-recaps + {index}"
    if report.other_files:
        scanned += f" + {report.other_files} other file(s), for secrets only"
    return scanned


def health_line(report: TreeReport) -> str:
    h = report.health
    parts = ["frozen"] if report.frozen else []
    parts += [
        f"{h.files} files, {h.total_lines:,} lines",
        f"index {h.index_lines}/{LINE_LIMIT} lines, {h.index_chars:,}/{CHAR_LIMIT:,} characters"
        + (f" (cut at line {h.index_cut_line})" if h.index_cut_line else ""),
        f"{h.review_due} review due",
        f"{h.unindexed} unindexed",
    ]
    if h.recall_total > h.recall_seen:
        parts.append(f"recall sees {h.recall_seen} of {h.recall_total}")
    if h.sessions is not None:
        parts.append(sessions_part(h.sessions))
    if report.transcripts is not None:
        parts.append(transcripts_part(report))
    return " · ".join(parts)


def transcripts_part(report: TreeReport) -> str:
    """``transcripts reach back 12 days (cleanupPeriodDays 30: the oldest goes on 2026-12-19)``"""
    span = report.transcripts
    assert span is not None
    days = "1 day" if span.days == 1 else f"{span.days} days"
    when = (
        "the oldest are past it: swept when Claude Code next starts"
        if span.days >= span.cleanup_days
        else f"the oldest goes on {span.swept_on.isoformat()}"
    )
    return f"transcripts reach back {days} (cleanupPeriodDays {span.cleanup_days}: {when})"


def frozen_line(report: TreeReport) -> str:
    return (
        f"Frozen: {visible(report.frozen or '')} — Claude Code neither writes this store "
        "nor loads it into sessions"
    )


def settings_lines(report: TreeReport) -> list[str]:
    return [f"Settings: {visible(note)}" for note in report.settings_notes]


def grade_part(report: TreeReport) -> str:
    """``grade B`` (docs/dimensions.md, "Health grade"); empty when not audited."""
    found = report.grade
    return f"grade {found.letter}" if found is not None else ""


def sessions_part(use: SessionUse) -> str:
    """``3 sessions: 12 memories surfaced, 4 unused, 1 dead weight, 2 coverage gaps``;
    a count whose check did not judge is left out; no count at all without a session."""
    if use.sessions == 0:  # "0 sessions: 0 memories surfaced" says nothing a user can act on
        return "no session transcripts yet"
    counts = [f"{use.surfaced} {'memory' if use.surfaced == 1 else 'memories'} surfaced"]
    for count, what in (
        (use.unused, "unused"),
        (use.dead_weight, "dead weight"),
        (use.coverage_gaps, "coverage gaps" if use.coverage_gaps != 1 else "coverage gap"),
    ):
        if count is not None:
            counts.append(f"{count} {what}")
    noun = "session" if use.sessions == 1 else "sessions"
    return f"{use.sessions} {noun}: " + ", ".join(counts)


def not_memories_line(report: TreeReport) -> str:
    listed = ", ".join(f"{path} ({why})" for path, why in report.not_memories)
    return f"Not memories, skipped: {listed}"


def largest_line(report: TreeReport) -> str:
    return ", ".join(f"{visible(path)} ({lines} lines)" for path, lines in report.health.largest)


def location(finding: Finding) -> str:
    if finding.line is None:
        return visible(finding.path)
    return f"{visible(finding.path)}:{finding.line}"


def sentence(finding: Finding) -> str:
    """``<message>. Suggest: <suggestion>.`` with the user-judgment mark where it applies."""
    text = finding.message.rstrip(".")
    if finding.suggestion:
        text += f". Suggest: {finding.suggestion.rstrip('.')}"
    text += "."
    if finding.judgment:
        text += " (user judgment required)"
    return visible(text)


def error_line(path: str, error: str, root: Path | None = None) -> str:
    """``path: error``; the tree's own folder (``.``) is shown by its real path."""
    if path == TREE_FOLDER and root is not None:
        return f"{display_root(root)}: {visible(error)}"
    return f"{visible(path or '(audit)')}: {visible(error)}"


def not_audited(report: TreeReport, path: bool = True) -> str:
    """For a tree no check ran over: why, and where (``path=False`` where its path is shown
    beside it already); "" for an audited tree."""
    reason = report.not_audited_reason
    if reason is None:
        return ""
    why = reason.split("; not audited", 1)[0]  # the entry ends by saying what this line says
    where = f" ({display_root(report.root)})" if path else ""
    return f"not audited: {visible(why)}{where}"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def not_audited_count(run: Run) -> str:
    """ "; 2 not audited" when some trees were not, "" otherwise: added to a run's totals."""
    count = sum(1 for r in run.reports if not r.audited)
    return f"; {count} not audited" if count else ""


def more_not_shown(count: int, dimension: str, report: TreeReport | None = None) -> str:
    """The note under a capped section; ``--check`` is offered only when it would narrow the run."""
    if report is not None and tuple(report.checks) == (dimension,):
        return f"({count} more not shown — all of them: --max-per-dimension all)"
    return f"({count} more not shown — narrow with --check {dimension})"


def short_fingerprint(finding: Finding) -> str:
    """What ``dismiss`` takes: the first 8 hex digits are enough to name one finding."""
    return finding.fingerprint[:8]


def quiet_dimensions(report: TreeReport, run: Run) -> str:
    """Which dimensions found nothing, of those that ran ("" when none). A dimension
    that did not run at all is not among them: its result is unknown (``not_run_lines``)."""
    not_run = report.not_run
    ran = [d for d in run.dimensions if d.id in report.checks and d.id not in not_run]
    quiet = [d for d in ran if d.id not in report.counts]
    if not quiet or not report.audited:
        return ""
    if len(ran) + len(not_run) == len(run.dimensions):  # those shown above are the others
        return "All other dimensions" if report.findings or not_run else "All dimensions"
    return ", ".join(d.title for d in quiet)


def not_run_lines(report: TreeReport, run: Run) -> list[str]:
    """One sentence per dimension that did not run, where its result would be shown."""
    return [
        f"{run.title(dimension)}: did not run — {visible(reason)}. "
        "Its result is unknown, not clean."
        for dimension, reason in report.not_run.items()
    ]


def not_run_summary(run: Run) -> str:
    """One sentence over every tree for the dimensions that did not run ("" when all ran),
    e.g. for the service's summary and its notification."""
    trees: dict[str, list[str]] = {}
    for report in run.reports:
        for dimension, reason in report.not_run.items():
            trees.setdefault(dimension, []).append(reason)
    sentences = [
        f"{run.title(dimension)} did not run in {len(reasons)} of {len(run.reports)} memory "
        f"trees ({visible(reasons[0])}): unknown, not clean."
        for dimension, reasons in trees.items()
    ]
    return " ".join(sentences)


def partly_skipped(report: TreeReport) -> list[Skip]:
    """Skipped parts of dimensions that ran (a dimension that did not run has its own line)."""
    return [s for s in report.skipped if not s.whole]


SUGGESTIONS_TITLE = "Suggestions"
SUGGESTIONS_NOTE = (
    "Worth a look, not counted: these kinds of finding were right less than 9 times in 10 on"
    " memory trees the rules were not tuned on."
)


def suggestions_line(count: int) -> str:
    return (
        f"Also {count} suggestion(s): worth a look, not counted (shown after each tree's findings)."
    )


def findings_total(report: TreeReport) -> str:
    suggestions = len(report.suggestions)
    more = f" (+{suggestions} suggestion(s), listed last)" if suggestions else ""
    grade = grade_part(report)
    return f"{len(report.problems)} total{more}" + (f" · {grade}" if grade else "")


def fixable_line(fixable: int, total: int, suggestions: int = 0) -> str:
    what = "findings and suggestions" if suggestions else "findings"
    if fixable == total:
        return f"All {total} {what} have a proposed fix."
    return f"{fixable} of {total} {what} have a proposed fix; the others need your judgment."


def fixable(report: TreeReport) -> int:
    """Findings whose fix ``review`` can apply (the others ask for the user's judgment)."""
    return sum(1 for f in report.findings if f.fix is not None)


def review_command(report: TreeReport, current: Path | None) -> str:
    """The command that reviews this tree from where the user is."""
    if current is not None and report.root.absolute() == current.absolute():
        return "memory-audit review"
    if report.project:
        return f"memory-audit review --project={report.project}"
    root = report.root.absolute()
    shown = root.relative_to(Path.cwd()) if root.is_relative_to(Path.cwd()) else root
    return f"memory-audit review {shlex.quote(str(shown))}"
