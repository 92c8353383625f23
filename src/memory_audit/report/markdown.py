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
    title = wording.tree_name(report)
    if not report.audited:  # no count would be true: zero findings least of all
        why = wording.capitalised(wording.not_audited(report, path=report.project is not None))
        return f"# Memory audit: {title}\n\n**{why}**"
    lines = [
        f"# Memory audit: {title}",
        "",
        f"- Tree: {code_span(wording.display_root(report.root))}",
        *([f"- **{wording.frozen_line(report)}**"] if report.frozen else []),
        *(f"- {line}" for line in wording.settings_lines(report)),
        f"- Files scanned: {wording.files_scanned(report)}",
        f"- Findings: **{wording.findings_total(report)}**",
        # a workspace's documents: no index, no memories, nothing health measures
        *([] if report.documents else [f"- Health: {wording.health_line(report)}"]),
    ]
    if report.health.largest:
        lines.append(f"- Largest: {wording.largest_line(report)}")
    lines += _sections(report, run, suggestions=False)
    lines += [line for text in wording.not_run_lines(report, run) for line in ("", f"## {text}")]
    quiet = wording.quiet_dimensions(report, run)
    if quiet:
        lines += ["", f"## {quiet}: Nothing material."]
    if report.suggestions:  # folded: a viewer shows the summary line until it is opened
        lines += [
            "",
            "<details>",
            f"<summary>{wording.SUGGESTIONS_TITLE} ({len(report.suggestions)})</summary>",
            "",
            wording.SUGGESTIONS_NOTE,
            *_sections(report, run, suggestions=True, heading="###"),
            "",
            "</details>",
        ]
    lines += _notes(report, run)
    return "\n".join(lines)


def _sections(report: TreeReport, run: Run, *, suggestions: bool, heading: str = "##") -> list[str]:
    cap = run.max_per_dimension
    found = report.of_level(suggestions)
    shown = report.shown(cap, suggestions)
    hidden = report.not_shown(cap, suggestions)
    lines: list[str] = []
    for dimension in run.dimensions:
        count = sum(1 for f in found if f.dimension == dimension.id)
        if not count:
            continue
        lines += ["", f"{heading} {dimension.title} ({count})", ""]
        lines += [
            f"- {code_span(wording.location(f))} — {wording.sentence(f)} "
            f"`[{wording.short_fingerprint(f)}]`"
            for f in shown
            if f.dimension == dimension.id
        ]
        if dimension.id in hidden:
            lines += ["", wording.more_not_shown(hidden[dimension.id], dimension.id, report)]
    return lines


def _notes(report: TreeReport, run: Run) -> list[str]:
    lines: list[str] = []
    if report.not_memories:
        lines += ["", "### Not memories, skipped", ""]
        lines += [f"- `{path}`: {why}" for path, why in report.not_memories]
    skipped = wording.partly_skipped(report)
    if skipped:
        lines += ["", "### Skipped", ""]
        lines += [f"- {run.title(s.dimension)}: {visible(s.reason)}" for s in skipped]
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
