"""One bad file never silences the audit of the others, through the real command.

The cases an attacker reported (issue 30): a MEMORY.md holding a lone CR, and a memory
file whose name is not UTF-8, made `audit`, `audit --all`, `loaded`, `review` and
`daemon --once` exit 3, and left every other tree without a report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.harness import memory, write_tree
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.terminal import Terminal

LONE_CR = "a\rb\n"
BAD_NAME = os.fsdecode(b"n\xffo.md")  # the name's byte 0xff is not UTF-8
SHOWN_NAME = "n\\xffo.md"  # how every output shows it
HEALTHY = {
    "MEMORY.md": "- [Deploy](deploy.md) — read before deploying the app to production\n",
    "deploy.md": memory("deploy", description="read before deploying the app to production"),
}


def cli(
    home: Home, *args: str, timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", *args],
        capture_output=True,
        text=True,
        env=home.env(),
        check=False,
        timeout=timeout,
        cwd=cwd,
    )


def two_projects(home: Home, bad: dict[str, str]) -> tuple[Path, Path]:
    """A project whose tree holds the bad input, and a healthy one."""
    bad_tree = write_tree(home.projects / "-work-bad" / "memory", bad)
    good_tree = write_tree(home.projects / "-work-good" / "memory", HEALTHY)
    return bad_tree, good_tree


def reports_by_project(stdout: str) -> dict[str, dict[str, Any]]:
    return {r["project"]: r for r in json.loads(stdout)["reports"]}


# ---- a lone CR in MEMORY.md ------------------------------------------------------------


def test_lone_cr_is_inside_its_line_as_claude_code_counts_it(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": LONE_CR})
    result = cli(home, "audit", "--format", "json", str(tree))
    assert result.returncode in (0, 1), result.stderr
    [report] = json.loads(result.stdout)["reports"]
    assert report["errors"] == []
    assert report["health"]["index_lines"] == 1  # split on "\n" only: one line


def test_lone_cr_before_an_entrys_hook_keeps_the_entry_on_its_line(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "- [Deploy](deploy.md)\r— read before deploying\n"
            "- [Gone](gone.md) — removed\n",
            "deploy.md": HEALTHY["deploy.md"],
        },
    )
    result = cli(home, "audit", "--format", "json", "--check", "index-drift", str(tree))
    [report] = json.loads(result.stdout)["reports"]
    assert report["errors"] == []
    # deploy.md is indexed on line 1; the broken link is on line 2, not line 3.
    assert [(f["code"], f["path"], f["line"]) for f in report["findings"]] == [
        ("broken-index-link", "MEMORY.md", 2)
    ]


def test_audit_all_reports_the_healthy_tree_next_to_a_lone_cr(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    two_projects(home, {"MEMORY.md": LONE_CR})
    result = cli(home, "audit", "--all", "--format", "json")
    assert result.returncode in (0, 1), result.stderr
    reports = reports_by_project(result.stdout)
    assert set(reports) == {"-work-bad", "-work-good"}
    assert all(r["errors"] == [] for r in reports.values())


def test_loaded_shows_a_lone_cr_escaped_in_one_line(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": LONE_CR})
    result = cli(home, "loaded", str(tree))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("a\\x0db\n")
    assert "Lines:      1 counted, 1 loaded" in result.stdout


def test_review_walks_a_tree_with_a_lone_cr(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    # an index large enough (10,000 characters) for its inline content to be a finding
    text = LONE_CR + "".join(f"- note {n:03}: {'y' * 80}\n" for n in range(110))
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": text})
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "review", str(tree)],
        {**home.env(), "TERM": "dumb", "EDITOR": "true"},
    )
    assert "inline content" in term.expect("[q]uit: ")
    term.send("q")
    assert term.wait() == 0
    assert (tree / "MEMORY.md").read_bytes() == text.encode()


@pytest.mark.slow
def test_daemon_once_writes_every_report_next_to_a_lone_cr(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    two_projects(home, {"MEMORY.md": LONE_CR})
    code, _, err = DaemonProcess(home, home.config()).start("--once").finish(timeout=120)
    assert code == 0, err
    latest = home.reports / "latest"
    assert {p.name for p in latest.glob("*.md")} >= {"-work-bad.md", "-work-good.md"}
    summary = json.loads((latest / "summary.json").read_text(encoding="utf-8"))
    assert all(r["errors"] == [] for r in summary["reports"])


# ---- a file name that is not UTF-8 -----------------------------------------------------

FORMATS = ["text", "json", "markdown", "html", "sarif", "github"]


def undecodable_tree(root: Path) -> Path:
    return write_tree(root, {**HEALTHY, BAD_NAME: memory("nameless")})


@pytest.mark.parametrize("output_format", FORMATS)
def test_an_undecodable_name_is_shown_escaped_in_every_format(
    tmp_path: Path, output_format: str
) -> None:
    home = Home(tmp_path / "home")
    # its description cut by a YAML comment: a problem, so every format reports the name
    bad = memory("nameless", description="fixed (see #12) too")
    tree = write_tree(tmp_path / "memory", {**HEALTHY, BAD_NAME: bad})
    # Run from the tree's folder: SARIF and GitHub name files relative to it, as in CI.
    printed = cli(home, "audit", "--format", output_format, str(tree), cwd=tmp_path)
    written = tmp_path / f"report.{output_format}"
    saved = cli(
        home, "audit", "--format", output_format, "-o", str(written), str(tree), cwd=tmp_path
    )
    for result in (printed, saved):
        assert result.returncode == 1, result.stderr  # the cut value: found, not a crash
    on_disk = written.read_text(encoding="utf-8")  # strict UTF-8: no raw byte written
    for text in (printed.stdout, on_disk):
        assert "\udcff" not in text
        assert "\ufffd" not in text
        shown = json.dumps(SHOWN_NAME)[1:-1] if output_format in ("json", "sarif") else SHOWN_NAME
        assert shown in text
    if output_format == "json":
        [report] = json.loads(on_disk)["reports"]
        assert report["errors"] == []
        found = [(f["dimension"], f["path"]) for f in report["findings"]]
        assert ("frontmatter", SHOWN_NAME) in found


def test_review_shows_an_undecodable_name_and_proposes_no_fix_that_would_write_its_escape(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    tree = undecodable_tree(tmp_path / "memory")
    before = {p.name: p.read_bytes() for p in tree.iterdir()}
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "review", str(tree)],
        {**home.env(), "TERM": "dumb", "EDITOR": "true"},
    )
    screen = term.expect("[q]uit: ")
    assert f"Orphan files: {SHOWN_NAME}" in screen
    assert "Apply makes" not in screen  # an index line naming "n\\xffo.md" would be wrong
    assert "(user judgment required)" in screen
    term.send("q")
    assert term.wait() == 0
    assert {p.name: p.read_bytes() for p in tree.iterdir()} == before


@pytest.mark.slow
def test_daemon_once_writes_every_report_next_to_an_undecodable_name(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    bad_tree, _ = two_projects(home, HEALTHY)
    undecodable_tree(bad_tree)
    code, _, err = DaemonProcess(home, home.config()).start("--once").finish(timeout=120)
    assert code == 0, err
    latest = home.reports / "latest"
    assert SHOWN_NAME in (latest / "-work-bad.md").read_text(encoding="utf-8")
    assert (latest / "-work-good.md").is_file()
    summary = json.loads((latest / "summary.json").read_text(encoding="utf-8"))
    assert {r["project"] for r in summary["reports"]} == {"-work-bad", "-work-good"}


@pytest.mark.slow
def test_running_daemon_journals_the_other_files_of_a_tree_with_an_undecodable_name(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    tree = undecodable_tree(home.projects / "-work-app" / "memory")
    config = home.config()
    daemon = DaemonProcess(home, config).start()
    try:
        assert daemon.wait_message("READY=1"), daemon.messages
        assert wait_for(lambda: "journal: baseline of 1 tree" in _log(home)), _log(home)
        (tree / "deploy.md").write_text(memory("deploy", body="Deploy on Tuesdays."))
        assert wait_for(lambda: "modified  deploy.md" in cli(home, "history", str(tree)).stdout)
    finally:
        code, _, err = daemon.stop()
    assert code == 0, err
    log = _log(home)
    assert f"journal: {SHOWN_NAME} in {tree} not recorded: its name is not UTF-8" in log
    assert "UnicodeEncodeError" not in log


def _log(home: Home) -> str:
    return home.log.read_text(encoding="utf-8") if home.log.exists() else ""


# ---- report files handed to review --from-report ---------------------------------------


def from_report(tmp_path: Path, report: Path) -> subprocess.CompletedProcess[str]:
    home = Home(tmp_path / "home")
    tree = write_tree(tmp_path / "memory", HEALTHY)
    # A hang (a FIFO waited on) fails the test through the timeout.
    return cli(home, "review", "--from-report", str(report), str(tree), timeout=60)


def test_review_refuses_a_report_nested_deeper_than_any_report(tmp_path: Path) -> None:
    report = tmp_path / "deep.json"
    report.write_text("[" * 100_000 + "]" * 100_000)
    result = from_report(tmp_path, report)
    assert result.returncode == 2
    assert f"cannot read report {report}: nested more than 64 levels deep" in result.stderr
    assert "Traceback" not in result.stderr


def test_review_refuses_a_device_as_a_report(tmp_path: Path) -> None:
    result = from_report(tmp_path, Path("/dev/zero"))
    assert result.returncode == 2
    assert "cannot read report /dev/zero: not a regular file" in result.stderr


def test_review_refuses_a_fifo_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    result = from_report(tmp_path, fifo)
    assert result.returncode == 2
    assert f"cannot read report {fifo}: not a regular file" in result.stderr


def test_review_refuses_a_report_over_the_size_limit(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(256 * 1024 * 1024 + 1)  # sparse: nothing is written, nothing read
    result = from_report(tmp_path, huge)
    assert result.returncode == 2
    assert "over the 268,435,456-byte limit" in result.stderr
