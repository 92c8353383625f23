"""The HTML report as a new user first sees it: readable links in both themes, round chart
ticks, one colour per dimension, no trend charts on the first run, secrets marked apart.
Rendered in headless Chromium, dark scheme included."""

from __future__ import annotations

import json
import re
from pathlib import Path

from memory_audit.checks import DIMENSIONS
from memory_audit.model.changes import TrendPoint
from memory_audit.model.run import Run
from memory_audit.report import charts, renderer
from tests.harness import NOW, index, memory, report, write_tree
from tests.secrets.samples import CASES
from tests.support.browser import dump_dom, pixel, screenshot

TOKEN = CASES["github-pat"][0][0][0]
PROBE = """<script>
const style = (el) => el ? getComputedStyle(el) : null;
const link = document.querySelector("table a");
const secret = document.querySelector("section.dimension.secret");
const other = document.querySelector("section.dimension:not(.secret)");
document.body.insertAdjacentHTML("beforeend", "<pre id='probe'>" + JSON.stringify({
  link: style(link).color,
  background: style(document.body).backgroundColor,
  secretBackground: style(secret).backgroundColor,
  otherBackground: style(other).backgroundColor,
  badge: document.querySelectorAll("section.secret .badge").length,
  charts: document.querySelectorAll("svg.chart").length,
  note: (document.getElementById("trends-note") || {}).textContent || "",
}) + "</pre>");
</script>"""


def first_run(tmp_path: Path) -> Run:
    tree = write_tree(
        tmp_path / "projects/-work-app/memory",
        {"MEMORY.md": index("gone.md", "a.md"), "a.md": memory("a", body=f"token {TOKEN}")},
    )
    return Run((report(tree),), NOW, dimensions=DIMENSIONS)


def probe(page: Path, profile: Path, scheme: str) -> dict[str, object]:
    dom = dump_dom(page.as_uri(), profile, scheme)
    found = re.search(r"<pre id=\"probe\">(.*?)</pre>", dom, re.S)
    assert found, dom[-2000:]
    data: dict[str, object] = json.loads(found.group(1).replace("&quot;", '"'))
    return data


def rgb(text: object) -> tuple[int, int, int]:
    r, g, b = (int(v) for v in re.findall(r"\d+", str(text))[:3])
    return r, g, b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def luminance(colour: tuple[int, int, int]) -> float:
        channels = [c / 255 for c in colour]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_first_run_report_in_chromium_dark_and_light(tmp_path: Path) -> None:
    html = renderer("html")(first_run(tmp_path))
    page = tmp_path / "report.html"
    page.write_text(html.replace("</body>", PROBE + "</body>"))
    for scheme in ("dark", "light"):
        seen = probe(page, tmp_path / f"profile-{scheme}", scheme)
        background = rgb(seen["background"])
        assert contrast(rgb(seen["link"]), background) >= 4.5, (scheme, seen)
        assert seen["secretBackground"] != seen["otherBackground"]
        assert seen["badge"] == 1
        assert seen["charts"] == 0  # one run is not a trend
        assert "Trends appear once the service has run twice" in str(seen["note"])
    dark = screenshot(page.as_uri(), tmp_path / "dark.png", tmp_path / "shot-dark", scheme="dark")
    light = screenshot(page.as_uri(), tmp_path / "light.png", tmp_path / "shot-light")
    assert pixel(dark, 4, 4) == (0x16, 0x18, 0x1C)
    assert pixel(light, 4, 4) == (255, 255, 255)


def test_trends_from_the_second_run_with_round_ticks_and_fixed_colours(tmp_path: Path) -> None:
    run = first_run(tmp_path)
    root = str(run.reports[0].root)
    history = (TrendPoint(1, "2026-11-23T09:00:00+00:00", root, "bloat", 23, 10, 900),)
    html = renderer("html")(Run(run.reports, NOW, history=history, dimensions=DIMENSIONS))
    assert html.count('<svg class="chart"') == 2
    ticks = re.findall(
        r'<text class="tick" x="42" y="[\d.]+" text-anchor="end">(\d+)%?</text>', html
    )
    assert ticks[:4] == ["0", "10", "20", "30"]  # 23 findings: 0/10/20/30, not 0/6/12/17/23
    bloat = charts.dimension_colour("bloat")
    drift = charts.dimension_colour("index-drift")
    assert f'fill="{bloat}"><title>2026-11-23: Bloat 23</title>' in html
    assert f'fill="{drift}"><title>2026-11-30: MEMORY.md index drift' in html
    assert f'style="background:{drift}"' in html  # the same colour beside the findings


def test_every_dimension_keeps_one_colour_of_its_own() -> None:
    colours = [charts.dimension_colour(d.id) for d in DIMENSIONS]
    assert len(set(colours)) == len(colours)
    assert charts.dimension_colour("secrets") == "#d62728"
    assert set(colours).isdisjoint(charts.SPARE_COLOURS)  # a new dimension collides with none
    assert charts.dimension_colour("not-yet-written") in charts.SPARE_COLOURS


def test_nice_ticks_are_round() -> None:
    assert charts.nice_ticks(30, whole=True) == [0, 10, 20, 30]
    assert charts.nice_ticks(7, whole=True) == [0, 2, 4, 6, 8]
    assert charts.nice_ticks(1, whole=True) == [0, 1]
    assert charts.nice_ticks(125) == [0, 50, 100, 150]
