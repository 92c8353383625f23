"""The HTML report: self-contained, and as Chromium actually renders it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memory_audit.checks import DIMENSIONS
from memory_audit.model.changes import Activity, Changes, FileChange, Resolved, TrendPoint
from memory_audit.model.run import Run
from memory_audit.report import renderer
from tests.harness import NOW, index, memory, report, write_tree
from tests.secrets.samples import CASES
from tests.support.browser import distinct_pixel_bytes, dump_dom, screenshot

RESOURCE = re.compile(
    r"""(?:src|href|xlink:href|action)\s*=\s*["']?\s*https?:|url\(\s*["']?https?:|@import""", re.I
)
TOKEN = CASES["github-pat"][0][0][0]


def two_projects(tmp_path: Path) -> Run:
    app = write_tree(
        tmp_path / "projects/-work-app/memory",
        {"MEMORY.md": index("gone.md", "a.md"), "a.md": memory("a", body=f"token {TOKEN}")},
    )
    site = write_tree(
        tmp_path / "projects/-work-site/memory", {"MEMORY.md": index("b.md"), "b.md": memory("b")}
    )
    first = report(app)
    history = tuple(
        TrendPoint(run, f"2026-11-{day:02}T09:00:00+00:00", str(app), dim, n, 180 + run, 20_000)
        for run, day in ((1, 8), (2, 15), (3, 22))
        for dim, n in (("index-drift", run), ("bloat", 2))
    )
    history += tuple(
        TrendPoint(run, f"2026-11-{day:02}T09:00:00+00:00", str(site), "", 0, 10, 400)
        for run, day in ((1, 8), (2, 15), (3, 22))
    )
    from dataclasses import replace

    named = (replace(first, project="-work-app"), replace(report(site), project="-work-site"))
    changes = {
        str(app): Changes(
            new=first.findings[:1],
            resolved=(
                Resolved(
                    "index-drift",
                    "broken-index-link",
                    "MEMORY.md",
                    "link target `old.md` doesn't exist",
                ),
            ),
        )
    }
    return Run(named, NOW, changes=changes, history=history, dimensions=DIMENSIONS)


def test_html_is_self_contained_and_carries_no_secret(tmp_path: Path) -> None:
    html = renderer("html")(two_projects(tmp_path))
    assert RESOURCE.search(html) is None
    assert "http://" not in html
    assert "https://" not in html
    assert "<script" not in html.lower()
    assert "@media (prefers-color-scheme: dark)" in html
    assert "@media print" in html
    assert TOKEN not in html


def test_html_shows_projects_dimensions_changes_and_trends(tmp_path: Path) -> None:
    html = renderer("html")(two_projects(tmp_path))
    assert html.count('<section class="project"') == 2
    assert 'data-dimension="index-drift"' in html
    assert 'data-dimension="secrets"' in html
    assert "Since the last run: 1 new, 1 resolved" in html
    assert "link target <code>old.md</code> doesn&#x27;t exist" in html
    assert html.count('<svg class="chart"') == 2
    assert (
        html.count("<title>2026-11-15: MEMORY.md index drift 2</title>") == 1
    )  # an earlier run's bar
    assert "Trends build up" not in html  # four points: a real trend


def test_html_shows_control_characters_from_names_and_texts_as_escapes(tmp_path: Path) -> None:
    forged = "a\nFORGED\x1b]0;owned\x07.md"
    tree = write_tree(
        tmp_path / "projects/-work-app/memory",
        {"MEMORY.md": index("gone.md"), forged: memory("a", body="A line.\n" * 40)},
    )
    root = str(tree)
    gone = "link target `x\x1b[2J.md` doesn't exist"
    changes = {root: Changes(resolved=(Resolved("index-drift", "broken", forged, gone),))}
    journal = FileChange("2026-11-30 09:00", "modified", forged, "session \x1b[31mred\x07")
    run = Run(
        (report(tree),),
        NOW,
        changes=changes,
        activity={root: Activity((journal,))},
        dimensions=DIMENSIONS,
    )
    html = renderer("html")(run)
    assert "\x1b" not in html
    assert "\x07" not in html
    assert html.count("<code>a\\nFORGED\\x1b]0;owned\\x07.md") >= 3  # largest, resolved, journal
    assert "session \\x1b[31mred\\x07" in html
    assert "<code>x\\x1b[2J.md</code>" in html


@pytest.mark.slow
def test_html_in_headless_chromium(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(renderer("html")(two_projects(tmp_path)))
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    shot = screenshot(page.as_uri(), tmp_path / "report.png", tmp_path / "profile1")
    empty = screenshot(blank.as_uri(), tmp_path / "blank.png", tmp_path / "profile2")
    assert distinct_pixel_bytes(shot) > 10 * distinct_pixel_bytes(empty)
    dom = dump_dom(page.as_uri(), tmp_path / "profile3")
    for expected in (
        "-work-app",
        "-work-site",
        'data-dimension="index-drift"',
        'data-dimension="secrets"',
        '<svg class="chart"',
        "<polyline",
    ):
        assert expected in dom


def test_daemon_run_folders_get_an_html_report(tmp_path: Path) -> None:
    from memory_audit.config.settings import Config, ReportSettings, Settings
    from memory_audit.daemon.components import build_store

    run = two_projects(tmp_path)
    reports = ReportSettings(dir=str(tmp_path / "reports"))
    folder = build_store(Config(Settings(reports=reports))).write(run, run.changes)
    html = (folder / "index.html").read_text()
    assert "-work-app" in html
    assert (folder / "index.html").stat().st_mode & 0o777 == 0o600
