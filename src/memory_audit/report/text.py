"""The plain-text report, in the shape of seed 000 §4."""

from __future__ import annotations

from memory_audit.model.run import Run, TreeReport
from memory_audit.report import wording


def render(run: Run) -> str:
    blocks = [render_tree(report, run) for report in run.reports]
    return "\n\n".join(blocks) + "\n"


def render_tree(report: TreeReport, run: Run) -> str:
    cap = run.max_per_dimension
    lines = [
        f"Memory audit: {wording.display_root(report.root)}",
        f"Files scanned: {wording.files_scanned(report)}",
        f"Findings: {len(report.findings)} total",
        f"Health: {wording.health_line(report)}",
    ]
    if report.health.largest:
        lines.append(f"Largest: {wording.largest_line(report)}")
    counts = report.counts
    shown = report.shown(cap)
    for dimension in run.dimensions:
        if dimension.id not in counts:
            continue
        lines += ["", f"## {dimension.title} ({counts[dimension.id]})"]
        lines += [
            f"- {wording.location(f)} — {wording.sentence(f)}"
            for f in shown
            if f.dimension == dimension.id
        ]
        hidden = report.not_shown(cap).get(dimension.id)
        if hidden:
            lines.append(wording.more_not_shown(hidden, dimension.id))
    lines += ["", _quiet_dimensions(report)]
    lines += _notes(report, run)
    return "\n".join(lines)


def _quiet_dimensions(report: TreeReport) -> str:
    if not report.findings:
        return "## All dimensions: Nothing material."
    return "## All other dimensions: Nothing material."


def _notes(report: TreeReport, run: Run) -> list[str]:
    lines: list[str] = []
    if report.skipped:
        lines += ["", "Skipped:"]
        lines += [f"- {run.title(s.dimension)}: {s.reason}" for s in report.skipped]
    if report.errors:
        lines += ["", "Errors:"]
        lines += [f"- {path or '(audit)'}: {error}" for path, error in report.errors]
    if report.dismissed:
        lines += ["", f"Dismissed ({len(report.dismissed)}, not counted):"]
        lines += [f"- {wording.location(f)} — {f.message}" for f in report.dismissed]
    return lines
