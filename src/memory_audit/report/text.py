"""The plain-text report, for a person at a terminal.

Its shape: docs/dimensions.md, "The report".

Several trees: one summary screen first (per project, findings by dimension,
secrets first, totals), then each tree's details. ``quiet`` prints only the
summary, ``verbose`` adds what was skipped and why. It ends with how many
findings have a proposed fix, and the command that walks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memory_audit.model.finding import Finding
from memory_audit.model.run import Run, TreeReport
from memory_audit.model.visible import visible
from memory_audit.report import wording
from memory_audit.report.colour import SECRET_DIMENSION, Painter

Detail = Literal["quiet", "normal", "verbose"]
RULE = "----"
WIDTH = 100  # the summary's lines wrap here


@dataclass(frozen=True)
class TextOptions:
    color: bool = False
    detail: Detail = "normal"
    note: str = ""  # how the trees were chosen, when the user did not name them: first line
    current: Path | None = None  # the tree of the project the command ran in


def render(run: Run, options: TextOptions | None = None) -> str:
    options = options or TextOptions()
    paint = Painter(options.color, run.dimensions)
    blocks = [options.note] if options.note else []
    if len(run.reports) > 1 or options.detail == "quiet":
        blocks.append(summary(run, paint))
    if options.detail != "quiet":
        blocks += [render_tree(report, run, paint, options) for report in run.reports]
    blocks.append(ending(run, options))
    return "\n\n".join(b for b in blocks if b) + "\n"


# ---- the summary screen ---------------------------------------------------------------


def summary(run: Run, paint: Painter) -> str:
    with_findings = sum(1 for r in run.reports if r.problems)
    secrets = sum(r.problem_counts.get(SECRET_DIMENSION, 0) for r in run.reports)
    head = (
        f"Summary: {run.problem_total} findings in {with_findings} of {len(run.reports)} "
        "memory trees"
    )
    head += wording.not_audited_count(run)
    if secrets:
        head += " — " + paint.dimension(f"{secrets} possible secret(s)", SECRET_DIMENSION)
    names = [wording.tree_name(r) for r in run.reports]
    width = max(len(n) for n in [*names, "TOTAL"])
    lines = [paint.bold(head), ""]
    agents_shown = False
    for report, name in zip(run.reports, names, strict=True):
        if report.agent is not None and not agents_shown:  # agents' memory: a section of its own
            lines += ["", paint.bold("Agent memory"), ""]
            agents_shown = True
        count = len(report.problems) if report.audited else "–"  # unknown, not zero
        grade = report.grade.letter if report.grade is not None else "–"
        lead = f"  {name.ljust(width)}  {count:>6}  {grade}  "
        parts = _by_dimension(report, run, paint)
        lines += _wrapped(lead, parts, WIDTH)
    lines.append(f"  {'TOTAL'.ljust(width)}  {run.problem_total:>6}")
    if run.suggestion_total:
        lines += ["", wording.suggestions_line(run.suggestion_total)]
    return "\n".join(lines)


def _by_dimension(report: TreeReport, run: Run, paint: Painter) -> list[tuple[str, str]]:
    """(plain, painted) words: the plain one measures, the painted one is printed."""
    if not report.audited:
        text = wording.not_audited(report, path=report.project is not None)
        return [(text, paint.bold(text))]
    counts = report.problem_counts
    order = sorted(run.dimensions, key=lambda d: d.id != SECRET_DIMENSION)
    words = [(d.id, "did not run") for d in order if d.id in report.not_run]
    words += [(d.id, str(counts[d.id])) for d in order if d.id in counts]
    parts = [(f"{d} {what}", paint.dimension(f"{d} {what}", d)) for d, what in words]
    if report.suggestions:
        more = f"+{len(report.suggestions)} suggestion(s)"
        parts.append((more, paint.dim(more)))
    return parts or [("clean", paint.dim("clean"))]


def _wrapped(lead: str, parts: list[tuple[str, str]], width: int) -> list[str]:
    """``lead`` then the parts joined by " · ", continued under the first part."""
    lines, current, used = [], lead, len(lead)
    for index, (plain, painted) in enumerate(parts):
        separator = " · " if index and used > len(lead) else ""
        if index and used + len(separator) + len(plain) > width:
            lines.append(current)
            current, used, separator = " " * len(lead), len(lead), ""
        current += separator + painted
        used += len(separator) + len(plain)
    return [*lines, current]


# ---- one tree's details ----------------------------------------------------------------


def render_tree(
    report: TreeReport, run: Run, paint: Painter | None = None, options: TextOptions | None = None
) -> str:
    paint = paint or Painter(False)
    options = options or TextOptions()
    title = paint.bold(f"Memory audit: {_title(report)}")
    if not report.audited:  # no count below would be true: zero findings least of all
        return "\n".join(
            [title, paint.bold(wording.capitalised(wording.not_audited(report, path=False)))]
        )
    lines = [title]
    if report.frozen:
        lines.append(paint.bold(wording.frozen_line(report)))
    lines += wording.settings_lines(report)
    lines += [
        f"Files scanned: {wording.files_scanned(report)}",
        f"Findings: {wording.findings_total(report)}",
    ]
    if not report.documents:  # no index, no memories: what health measures is not there
        lines.append(f"Health: {wording.health_line(report)}")
    if report.health.largest:
        lines.append(f"Largest: {wording.largest_line(report)}")
    lines += _dimensions(report, run, paint, suggestions=False)
    lines += [line for text in wording.not_run_lines(report, run) for line in ("", f"## {text}")]
    quiet = wording.quiet_dimensions(report, run)
    if quiet:
        lines += ["", f"## {quiet}: Nothing material."]
    if report.suggestions:
        lines += ["", paint.bold(f"## {wording.SUGGESTIONS_TITLE} ({len(report.suggestions)})")]
        lines += [wording.SUGGESTIONS_NOTE]
        lines += _dimensions(report, run, paint, suggestions=True, heading="###")
    lines += _notes(report, run, options)
    return "\n".join(lines)


def _title(report: TreeReport) -> str:
    root = wording.display_root(report.root)
    if report.documents:
        return wording.tree_name(report)
    return f"{wording.tree_name(report)} — {root}" if report.agent is not None else root


def _dimensions(
    report: TreeReport, run: Run, paint: Painter, *, suggestions: bool, heading: str = "##"
) -> list[str]:
    cap = run.max_per_dimension
    found = report.of_level(suggestions)
    counts = {d.id: sum(1 for f in found if f.dimension == d.id) for d in run.dimensions}
    shown = report.shown(cap, suggestions)
    hidden = report.not_shown(cap, suggestions)
    lines: list[str] = []
    for dimension in run.dimensions:
        if not counts[dimension.id]:
            continue
        title = f"{heading} {dimension.title} ({counts[dimension.id]})"
        lines += ["", paint.dimension(title, dimension.id)]
        lines += [_line(f, paint) for f in shown if f.dimension == dimension.id]
        if dimension.id in hidden:
            lines.append(wording.more_not_shown(hidden[dimension.id], dimension.id, report))
    return lines


def _line(finding: Finding, paint: Painter) -> str:
    where = wording.location(finding)
    if finding.dimension == SECRET_DIMENSION:
        where = paint.dimension(where, SECRET_DIMENSION)
    mark = paint.dim(f"[{wording.short_fingerprint(finding)}]")
    return f"- {where} — {wording.sentence(finding)} {mark}"


def _notes(report: TreeReport, run: Run, options: TextOptions) -> list[str]:
    lines: list[str] = []
    if report.not_memories:
        lines += ["", wording.not_memories_line(report)]
    skipped = wording.partly_skipped(report)
    if skipped and options.detail == "verbose":
        lines += ["", "Skipped:"]
        lines += [f"- {run.title(s.dimension)}: {visible(s.reason)}" for s in skipped]
    elif skipped:
        lines += ["", f"Skipped: {len(skipped)} part(s) of checks could not run (-v: why)."]
    if report.errors:
        lines += ["", "Errors:"]
        lines += [
            f"- {wording.error_line(path, error, report.root)}" for path, error in report.errors
        ]
    if report.dismissed:
        lines += [
            "",
            f"Dismissed ({len(report.dismissed)}, not counted; `memory-audit dismiss --list`):",
        ]
        lines += [
            f"- {wording.location(f)} — {visible(f.message)} [{wording.short_fingerprint(f)}]"
            for f in report.dismissed
        ]
    return lines


# ---- the ending: what to do next -------------------------------------------------------


def ending(run: Run, options: TextOptions) -> str:
    """The closing lines: how many findings have a proposed fix, and the review command per tree."""
    fixable = [(r, wording.fixable(r)) for r in run.reports]
    total = sum(n for _, n in fixable)
    if not run.total:
        return ""
    lines = [
        RULE,
        wording.fixable_line(total, run.total, run.suggestion_total),
        "Walk them one decision at a time (1. Apply  2. Skip  3. Edit  4. View detail):",
    ]
    lines += [f"  {wording.review_command(r, options.current)}" for r in run.reports if r.findings]
    return "\n".join(lines)
