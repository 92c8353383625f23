"""Inline SVG charts for the HTML report: no scripts, no fonts, nothing fetched."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 56
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#8c564b",
)


# One colour per dimension, the same in every report (a chart's legend is learned once).
DIMENSION_COLOURS = {
    "index-drift": "#4e79a7",
    "frontmatter": "#f28e2b",
    "relations": "#76b7b2",
    "duplicates": "#59a14f",
    "stale-refs": "#edc948",
    "orphans": "#b07aa1",
    "superseded": "#ff9da7",
    "session-recaps": "#9c755f",
    "secrets": "#d62728",
    "bloat": "#bab0ac",
    "descriptions": "#6b6ecf",
    "index-budget": "#1f77b4",
    "expiry": "#2ca02c",
    "confidence": "#9467bd",
    "corrections": "#8c564b",
    "usage": "#17becf",
    "coverage": "#7f7f00",
}
# For a dimension not listed yet: colours no listed dimension uses.
SPARE_COLOURS = ("#e377c2", "#bcbd22", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5")


def color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def dimension_colour(dimension: str) -> str:
    """A dimension's fixed colour; one added later gets a stable one from its id."""
    if dimension in DIMENSION_COLOURS:
        return DIMENSION_COLOURS[dimension]
    return SPARE_COLOURS[sum(dimension.encode()) % len(SPARE_COLOURS)]


def nice_ticks(maximum: float, count: int = 4, *, whole: bool = False) -> list[float]:
    """Axis ticks at round steps (1, 2, 2.5 or 5 times a power of ten) from 0 past
    ``maximum``: 0/10/20/30, never 0/8/15/22/30. ``whole``: counts, so steps of at least 1
    and no 2.5."""
    if maximum <= 0:
        return [0.0, 1.0]
    raw = maximum / count
    power = 10 ** math.floor(math.log10(raw))
    multiples = (1, 2, 5, 10) if whole else (1, 2, 2.5, 5, 10)
    step = next(m * power for m in multiples if m * power >= raw)
    if whole:
        step = max(1.0, float(round(step)))
    top = math.ceil(maximum / step - 1e-9) * step
    return [round(i * step, 10) for i in range(round(top / step) + 1)]


def _frame(title: str, body: list[str], extra_height: int = 0) -> str:
    height = HEIGHT + extra_height
    # Inline SVG in HTML needs no xmlns: the page stays free of any URL.
    return (
        f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {height}">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _axis(ticks: list[float], unit: str = "") -> list[str]:
    plot_height = HEIGHT - TOP - BOTTOM
    maximum = ticks[-1]
    parts = [
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
        f'y2="{HEIGHT - BOTTOM}"/>',
    ]
    for value in ticks:
        y = HEIGHT - BOTTOM - plot_height * value / maximum
        shown = f"{value:.0f}" if value == int(value) else f"{value:g}"
        parts.append(
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{shown}{unit}</text>"
        )
    return parts


def _labels(labels: Sequence[str], slot: float) -> list[str]:
    every = max(1, len(labels) // 8)
    return [
        f'<text class="tick" x="{LEFT + slot * (i + 0.5):.1f}" y="{HEIGHT - BOTTOM + 16}" '
        f'text-anchor="middle">{escape(label)}</text>'
        for i, label in enumerate(labels)
        if i % every == 0 or i == len(labels) - 1
    ]


def _legend(names: Sequence[str], y: float, colours: Mapping[str, str] | None = None) -> list[str]:
    parts, x, row = [], LEFT, 0
    for index, name in enumerate(names):
        fill = (colours or {}).get(name, color(index))
        width = 22 + 7 * len(name)
        if x + width > WIDTH - RIGHT:
            x, row = LEFT, row + 1
        top = y + row * 18
        parts.append(
            f'<rect x="{x}" y="{top}" width="10" height="10" fill="{fill}"/>'
            f'<text class="legend" x="{x + 14}" y="{top + 9}">{escape(name)}</text>'
        )
        x += width
    return parts


def stacked_bars(
    title: str,
    labels: Sequence[str],
    series: Mapping[str, Sequence[int]],
    colours: Mapping[str, str] | None = None,
) -> str:
    """One bar per label, stacked by series (dimensions, each in ``colours``); a legend."""
    names = [n for n in series if any(series[n])]
    totals = [sum(series[n][i] for n in names) for i in range(len(labels))]
    ticks = nice_ticks(max([*totals, 1]), whole=True)
    maximum = ticks[-1]
    slot = (WIDTH - LEFT - RIGHT) / max(1, len(labels))
    plot_height = HEIGHT - TOP - BOTTOM
    body = _axis(ticks)
    bar = min(slot * 0.7, 56.0)
    for i in range(len(labels)):
        y: float = HEIGHT - BOTTOM
        for index, name in enumerate(names):
            height = plot_height * series[name][i] / maximum
            if height > 0:
                y -= height
                body.append(
                    f'<rect x="{LEFT + slot * (i + 0.5) - bar / 2:.1f}" y="{y:.1f}" '
                    f'width="{bar:.1f}" height="{height:.1f}" '
                    f'fill="{(colours or {}).get(name, color(index))}">'
                    f"<title>{escape(labels[i])}: {escape(name)} {series[name][i]}</title>"
                    "</rect>"
                )
    body += _labels(labels, slot)
    rows = 1 + len(names) // 5
    body += _legend(names, HEIGHT - BOTTOM + 28, colours)
    return _frame(title, body, extra_height=rows * 18)


def lines_against_limit(
    title: str,
    labels: Sequence[str],
    series: Mapping[str, Sequence[float]],
    limit: float,
    unit: str = "%",
) -> str:
    """One line per series (projects), with the limit drawn across."""
    ticks = nice_ticks(max([limit * 1.25, *[v for values in series.values() for v in values]]))
    maximum = ticks[-1]
    slot = (WIDTH - LEFT - RIGHT) / max(1, len(labels))
    plot_height = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return HEIGHT - BOTTOM - plot_height * value / maximum

    body = _axis(ticks, unit)
    body.append(
        f'<line class="limit" x1="{LEFT}" y1="{y_of(limit):.1f}" x2="{WIDTH - RIGHT}" '
        f'y2="{y_of(limit):.1f}"/><text class="tick limit-label" x="{WIDTH - RIGHT}" '
        f'y="{y_of(limit) - 4:.1f}" text-anchor="end">load limit</text>'
    )
    for index, (name, values) in enumerate(series.items()):
        points = " ".join(
            f"{LEFT + slot * (i + 0.5):.1f},{y_of(v):.1f}" for i, v in enumerate(values)
        )
        body.append(
            f'<polyline fill="none" stroke="{color(index)}" stroke-width="2" '
            f'points="{points}"><title>{escape(name)}</title></polyline>'
        )
        body += [
            f'<circle cx="{LEFT + slot * (i + 0.5):.1f}" cy="{y_of(v):.1f}" r="3" '
            f'fill="{color(index)}"><title>{escape(name)}: {v:.0f}{unit}</title></circle>'
            for i, v in enumerate(values)
        ]
    body += _labels(labels, slot)
    body += _legend(list(series), HEIGHT - BOTTOM + 28)
    return _frame(title, body, extra_height=(1 + len(series) // 5) * 18)
