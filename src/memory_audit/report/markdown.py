"""The markdown report: the text report's content, formatted for a viewer."""

from __future__ import annotations

from memory_audit.model.run import Run, TreeReport
from memory_audit.model.visible import code_span, visible
from memory_audit.report import wording


def render(run: Run) -> str:
    stamp = run.generated_at.isoformat(timespec="seconds")
    head = [f"_memory-audit {run.version}, {stamp}_"]
    blocks = [render_tree(report, run) for report in run.reports]
    return "\n\n".join(head + blocks) + "\n"


def render_tree(report: TreeReport, run: Run) -> str:
    cap = run.max_per_dimension
    title = report.project or wording.display_root(report.root)
    if not report.audited:  # no count would be true: zero findings least of all
        why = wording.capitalised(wording.not_audited(report, path=report.project is not None))
        return f"# Memory audit: {title}\n\n**{why}**"
    lines = [
        f"# Memory audit: {title}",
        "",
        f"- Tree: {code_span(wording.display_root(report.root))}",
        f"- Files scanned: {wording.files_scanned(report)}",
        f"- Findings: **{len(report.findings)}** total",
        f"- Health: {wording.health_line(report)}",
    ]
    if report.health.largest:
        lines.append(f"- Largest: {wording.largest_line(report)}")
    counts = report.counts
    shown = report.shown(cap)
    for dimension in run.dimensions:
        if dimension.id not in counts:
            continue
        lines += ["", f"## {dimension.title} ({counts[dimension.id]})", ""]
        lines += [
            f"- {code_span(wording.location(f))} — {wording.sentence(f)} "
            f"`[{wording.short_fingerprint(f)}]`"
            for f in shown
            if f.dimension == dimension.id
        ]
        hidden = report.not_shown(cap).get(dimension.id)
        if hidden:
            lines += ["", wording.more_not_shown(hidden, dimension.id, report)]
    quiet = wording.quiet_dimensions(report, run)
    if quiet:
        lines += ["", f"## {quiet}: Nothing material."]
    lines += _notes(report, run)
    return "\n".join(lines)


def _notes(report: TreeReport, run: Run) -> list[str]:
    lines: list[str] = []
    if report.not_memories:
        lines += ["", "### Not memories, skipped", ""]
        lines += [f"- `{path}`: {why}" for path, why in report.not_memories]
    if report.skipped:
        lines += ["", "### Skipped", ""]
        lines += [f"- {run.title(s.dimension)}: {visible(s.reason)}" for s in report.skipped]
    if report.errors:
        lines += ["", "### Errors", ""]
        lines += [
            f"- {code_span(path or '(audit)')}: {visible(error)}" for path, error in report.errors
        ]
    if report.dismissed:
        lines += ["", f"### Dismissed ({len(report.dismissed)}, not counted)", ""]
        lines += [
            f"- {code_span(wording.location(f))} — {visible(f.message)} "
            f"`[{wording.short_fingerprint(f)}]`"
            for f in report.dismissed
        ]
    return lines
