"""The HTML report: one self-contained file people can read at a glance.

No scripts, no fonts, no URLs: styles are inline, charts are inline SVG.
Light or dark by ``prefers-color-scheme``; printable. Per project it shows the
health summary (index size against the load budget as bars), what is new and
what was resolved since the last run, and the findings by dimension in the
words of the text report; over the runs in the state, trend charts of
findings per dimension and of index size against the budget.
"""

from __future__ import annotations

import re
from collections import defaultdict
from html import escape

from memory_audit.model.changes import Activity, Changes
from memory_audit.model.health import Health, SessionUse
from memory_audit.model.run import Run, TreeReport
from memory_audit.model.visible import visible
from memory_audit.report import charts, wording
from memory_audit.report.changes import SHOWN_CHANGES
from memory_audit.report.colour import SECRET_DIMENSION
from memory_audit.tree.load_budget import CHAR_LIMIT, LINE_LIMIT

STYLE = """
:root { --bg: #ffffff; --fg: #1d1f23; --muted: #5c6370; --line: #d8dbe0; --card: #f6f7f9;
        --ok: #2e7d32; --warn: #b26a00; --bad: #c62828; --accent: #3b5bdb;
        --link: #1f4fd1; --visited: #6a3fb5; --secret-bg: #fdecea; --secret-fg: #8e1111; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181c; --fg: #e6e8eb; --muted: #9aa1ad; --line: #353a42; --card: #1f2227;
          --ok: #66bb6a; --warn: #ffb74d; --bad: #ef5350; --accent: #8ea2ff;
          --link: #9db4ff; --visited: #c7a6ff; --secret-bg: #3a1517; --secret-fg: #ffb4ab; }
}
a { color: var(--link); } a:visited { color: var(--visited); }
.swatch { display: inline-block; width: .7em; height: .7em; border-radius: 2px;
          margin-right: .4em; vertical-align: baseline; }
section.dimension.secret { background: var(--secret-bg); color: var(--secret-fg);
          border-left: 4px solid var(--bad); padding: .2rem .8rem; border-radius: 4px; }
.badge { font-size: .75em; font-weight: 700; text-transform: uppercase; letter-spacing: .04em;
         background: var(--bad); color: #fff; border-radius: 3px; padding: .05em .4em;
         margin-right: .4em; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 64rem; padding: 2rem 1.5rem; background: var(--bg);
       color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { margin-top: 2.5rem; font-size: 1.3rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; } .muted { color: var(--muted); }
code { font: .92em ui-monospace, "SFMono-Regular", Menlo, monospace; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
        padding: .8rem 1rem; margin: .8rem 0; }
.bar { position: relative; height: .7rem; background: var(--line); border-radius: 4px;
       min-width: 8rem; overflow: hidden; }
.bar > span { position: absolute; inset: 0 auto 0 0; background: var(--ok); }
.bar.warn > span { background: var(--warn); } .bar.over > span { background: var(--bad); }
ul.findings { padding-left: 1.2rem; } ul.findings li { margin: .25rem 0; }
.judgment { color: var(--muted); font-style: italic; }
.new { color: var(--bad); } .resolved { color: var(--ok); }
svg.chart { width: 100%; height: auto; }
svg .axis { stroke: var(--muted); } svg .tick, svg .legend { fill: var(--muted); font-size: 11px; }
svg .limit { stroke: var(--bad); stroke-dasharray: 6 4; } svg .limit-label { fill: var(--bad); }
@media print {
  :root { --bg: #fff; --fg: #000; --card: #fff; }
  body { max-width: none; padding: 0; font-size: 11pt; }
  section.project { break-before: page; }
}
"""

CODE_SPAN = re.compile(r"`([^`]+)`")


def shown(value: str) -> str:
    """Text from memory files (names, messages) as the text report shows it (control
    characters as escapes: ``visible``), then escaped for HTML."""
    return escape(visible(value))


def text(value: str) -> str:
    """Shown text, with the report's `backticked` names shown as code."""
    return CODE_SPAN.sub(r"<code>\1</code>", shown(value))


def render(run: Run) -> str:
    stamp = run.generated_at.isoformat(timespec="minutes").replace("T", " ")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Memory audit, {escape(stamp)}</title><style>{STYLE}</style></head><body>",
        f'<h1>Memory audit</h1><p class="muted">{run.problem_total} findings '
        f"(+{run.suggestion_total} suggestions) in "
        f"{len(run.reports)} memory tree(s){escape(wording.not_audited_count(run))}, "
        f"{escape(stamp)} · "
        f"memory-audit {escape(run.version)}</p>",
        _overview(run),
        _trends(run),
        *[_project(index, report, run) for index, report in enumerate(run.reports)],
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def project_name(report: TreeReport) -> str:
    return wording.tree_name(report)


def _budget(report: TreeReport) -> float:
    """How full the load budget is, in percent: the tighter of lines and characters
    (bytes for reports written before characters were measured)."""
    h = report.health
    size = h.index_chars or h.index_bytes
    return 100 * max(h.index_lines / LINE_LIMIT, size / CHAR_LIMIT)


def _cut_row(cut_line: int | None) -> str:
    """Where Claude Code's cut falls in MEMORY.md: what no session sees."""
    if cut_line is None:
        return (
            '<tr><th>Loaded</th><td class="num">all</td><td>every line reaches a session</td></tr>'
        )
    return (
        f'<tr class="over"><th>Cut</th><td class="num">line {cut_line}</td>'
        f"<td>sessions receive MEMORY.md up to line {cut_line - 1} and a warning; "
        f"the rest is never seen</td></tr>"
    )


def _bar(percent: float, label: str) -> str:
    level = "over" if percent > 100 else "warn" if percent > 75 else ""
    return (
        f'<div class="bar {level}" title="{escape(label)}" aria-label="{escape(label)}">'
        f'<span style="width:{min(percent, 100):.0f}%"></span></div>'
    )


def _budget_row(title: str, used: int, limit: int, what: str) -> str:
    return (
        f'<tr><th>{title}</th><td class="num">{used:,} / {limit:,}</td>'
        f"<td>{_bar(100 * used / limit, f'{what} against {limit:,}')}</td></tr>"
    )


def _overview(run: Run) -> str:
    rows = []
    first_agent = next((i for i, r in enumerate(run.reports) if r.agent is not None), None)
    for index, report in enumerate(run.reports):
        if index == first_agent:  # agents' memory: a section of its own, as the CLI shows it
            rows.append('<tr><th colspan="6">Agent memory</th></tr>')
        change = run.changes.get(str(report.root), Changes())
        found = len(report.problems) if report.audited else "not audited"
        grade = report.grade.letter if report.grade is not None else "–"
        rows.append(
            f'<tr><td><a href="#p{index}">{shown(project_name(report))}</a></td>'
            f'<td class="num">{found}</td><td class="num">{grade}</td>'
            f'<td class="num">{"–" if change.baseline else len(change.new)}</td>'
            f'<td class="num">{"–" if change.baseline else len(change.resolved)}</td>'
            f"<td>{_bar(_budget(report), f'{_budget(report):.0f}% of the index load budget')}"
            "</td></tr>"
        )
    return (
        '<table><thead><tr><th>Project</th><th class="num">Findings</th><th class="num">Grade</th>'
        '<th class="num">New</th>'
        '<th class="num">Resolved</th><th>Index load budget</th></tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table>"
    )


def _trends(run: Run) -> str:
    if len({p.run_id for p in run.history}) < 1:
        # One point is not a trend: two charts of a single bar would fill the first screen.
        return (
            '<p class="muted" id="trends-note">Trends appear once the service has run twice; '
            "this report is the first point.</p>"
        )
    return _trend_charts(run)


def _trend_charts(run: Run) -> str:
    runs: dict[tuple[int, str], list[tuple[str, str, int, int, int]]] = defaultdict(list)
    for point in run.history:
        runs[(point.run_id, point.finished_at[:10])].append(
            (point.root, point.dimension, point.count, point.index_lines, point.index_bytes)
        )
    current = [
        (str(r.root), d, n, r.health.index_lines, r.health.index_bytes)
        for r in run.reports
        for d, n in (r.counts.items() or [("", 0)])
    ]
    runs[(1 << 62, run.generated_at.date().isoformat())] = current
    ordered = [runs[key] for key in sorted(runs)]
    labels = [key[1] for key in sorted(runs)]
    per_dimension = {
        d.title: [sum(n for _, dim, n, _, _ in points if dim == d.id) for points in ordered]
        for d in run.dimensions
    }
    names = {str(r.root): project_name(r) for r in run.reports}
    budget: dict[str, list[float]] = {}
    for root, name in names.items():
        budget[name] = [
            max(
                [
                    100 * max(lines / LINE_LIMIT, size / CHAR_LIMIT)
                    for r, _, _, lines, size in points
                    if r == root
                ]
                or [0.0]
            )
            for points in ordered
        ]
    colours = {d.title: charts.dimension_colour(d.id) for d in run.dimensions}
    return (
        "<h2>Trends</h2>"
        + charts.stacked_bars("Findings per dimension, per run", labels, per_dimension, colours)
        + charts.lines_against_limit("Index size against the load budget", labels, budget, 100)
    )


def _project(index: int, report: TreeReport, run: Run) -> str:
    if not report.audited:
        return _unaudited_project(index, report)
    h = report.health
    largest = ", ".join(f"<code>{shown(p)}</code> ({n})" for p, n in h.largest) or "–"
    parts = [
        f'<section class="project" id="p{index}"><h2>{shown(project_name(report))}</h2>',
        f'<p class="muted"><code>{shown(str(report.root))}</code> · '
        f"profile {escape(report.profile)} · {escape(wording.grade_part(report))}</p>",
        _frozen(report),
        _documents_card(report) if report.documents else _health_card(h, largest),
        _changes(run.changes.get(str(report.root))),
        _activity(run.activity.get(str(report.root))),
        _findings(report, run),
        "</section>",
    ]
    return "\n".join(p for p in parts if p)


def _health_card(h: Health, largest: str) -> str:
    return "".join(
        [
            '<div class="card"><table>',
            f'<tr><th>Memory files</th><td class="num">{h.files}</td>'
            f"<td>{h.total_lines:,} lines; largest: {largest}</td></tr>",
            _budget_row("Index lines", h.index_lines, LINE_LIMIT, "index lines"),
            _budget_row("Index characters", h.index_chars, CHAR_LIMIT, "index characters"),
            _cut_row(h.index_cut_line),
            f'<tr><th>Review due</th><td class="num">{h.review_due}</td><td></td></tr>',
            f'<tr><th>Unindexed</th><td class="num">{h.unindexed}</td><td></td></tr>',
            _sessions_rows(h.sessions),
            "</table></div>",
        ]
    )


def _documents_card(report: TreeReport) -> str:
    """A workspace's documents: how many were scanned, and for what (no index, no memories)."""
    return (
        '<div class="card"><table><tr><th>Documents</th>'
        f'<td class="num">{report.memory_files}</td>'
        f"<td>{escape(wording.files_scanned(report))}</td></tr></table></div>"
    )


def _frozen(report: TreeReport) -> str:
    lines = [wording.frozen_line(report)] if report.frozen else []
    lines += wording.settings_lines(report)
    return "".join(f'<p class="not-audited">{shown(line)}</p>' for line in lines)


def _unaudited_project(index: int, report: TreeReport) -> str:
    """A tree no check ran over: why, and no numbers (they are unknown, not zero)."""
    why = wording.capitalised(wording.not_audited(report, path=False))
    return (
        f'<section class="project" id="p{index}"><h2>{escape(project_name(report))}</h2>'
        f'<p class="muted"><code>{escape(str(report.root))}</code></p>'
        f'<p class="not-audited"><strong>{escape(why)}</strong></p></section>'
    )


def _sessions_rows(use: SessionUse | None) -> str:
    """What recent sessions did with the tree; a count whose check did not judge is left out."""
    if use is None:
        return ""
    rows = [
        ("Sessions", use.sessions, "the newest sessions of this store that were read"),
        ("Surfaced", use.surfaced, "memories that reached at least one of them"),
        ("Unused", use.unused, "memories none of them used, said nowhere else: kept"),
        ("Dead weight", use.dead_weight, "unused memories whose content is carried elsewhere"),
        ("Coverage gaps", use.coverage_gaps, "areas sessions keep working in, no memory names"),
    ]
    return "\n".join(
        f'<tr><th>{title}</th><td class="num">{count}</td><td>{why}</td></tr>'
        for title, count, why in rows
        if count is not None
    )


def _changes(change: Changes | None) -> str:
    if change is None:
        return ""
    if change.baseline:
        return "<h3>First run: the baseline; later runs show what is new and resolved</h3>"
    items = [
        f'<li class="new">new: <code>{escape(wording.location(f))}</code> — {text(f.message)}</li>'
        for f in change.new
    ]
    items += [
        f'<li class="resolved">resolved: <code>{shown(r.path)}</code> — {text(r.message)}</li>'
        for r in change.resolved
    ]
    title = f"<h3>Since the last run: {len(change.new)} new, {len(change.resolved)} resolved</h3>"
    return title + (f'<ul class="findings">{"".join(items)}</ul>' if items else "")


def _activity(activity: Activity | None) -> str:
    """The journal since the last run, as a small timeline (newest first)."""
    if activity is None or not activity.changes:
        return ""
    items = "".join(
        f'<li class="change {escape(c.kind)}"><time>{escape(c.when)}</time> {escape(c.kind)} '
        f"<code>{shown(c.path)}</code> — {shown(c.by)}</li>"
        for c in activity.changes[:SHOWN_CHANGES]
    )
    more = len(activity.changes) - SHOWN_CHANGES
    tail = f"<li>… and {more} more (<code>memory-audit history</code>)</li>" if more > 0 else ""
    return f'<h3>Memory changes since the last run</h3><ol class="timeline">{items}{tail}</ol>'


def _findings(report: TreeReport, run: Run) -> str:
    # A dimension that did not run: its result is unknown, never "nothing material".
    parts = [f'<p class="not-run">{shown(line)}</p>' for line in wording.not_run_lines(report, run)]
    if not report.findings:
        quiet = wording.quiet_dimensions(report, run)
        return "\n".join([*parts, f"<p>{quiet}: nothing material.</p>" if quiet else ""])
    parts += _sections(report, run, suggestions=False)
    if report.suggestions:
        folded = "\n".join(_sections(report, run, suggestions=True))
        parts.append(
            f'<details class="suggestions"><summary>{wording.SUGGESTIONS_TITLE} '
            f'({len(report.suggestions)})</summary><p class="muted">'
            f"{escape(wording.SUGGESTIONS_NOTE)}</p>{folded}</details>"
        )
    return "\n".join(parts)


def _sections(report: TreeReport, run: Run, *, suggestions: bool) -> list[str]:
    cap = run.max_per_dimension
    shown_findings = report.shown(cap, suggestions)
    hidden = report.not_shown(cap, suggestions)
    parts: list[str] = []
    for dimension in run.dimensions:
        mine = [f for f in shown_findings if f.dimension == dimension.id]
        if not mine:
            continue
        count = len(mine) + hidden.get(dimension.id, 0)
        secret = dimension.id == SECRET_DIMENSION
        badge = '<span class="badge">secret</span>' if secret else ""
        items = "".join(
            f"<li>{badge}<code>{escape(wording.location(f))}</code> — "
            f"{text(wording.sentence(f).removesuffix(' (user judgment required)'))}"
            + (' <span class="judgment">(user judgment required)</span>' if f.judgment else "")
            + "</li>"
            for f in mine
        )
        more = (
            '<p class="muted">'
            + escape(wording.more_not_shown(hidden[dimension.id], dimension.id, report))
            + "</p>"
            if dimension.id in hidden
            else ""
        )
        swatch = f'<span class="swatch" style="background:{charts.dimension_colour(dimension.id)}">'
        parts.append(
            f'<section class="dimension{" secret" if secret else ""}" '
            f'data-dimension="{dimension.id}">'
            f"<h3>{swatch}</span>{escape(dimension.title)} ({count})"
            f'</h3><ul class="findings">{items}</ul>{more}</section>'
        )
    return parts
