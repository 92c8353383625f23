"""Unreadable is not missing: a file or folder the user cannot read is reported as such,
never as missing, and `review` offers no fix that acts on it.

Each test really makes things unreadable (mode 000) and runs the tool as someone whom
that stops (as root: with the capabilities that bypass it dropped).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_review import env_for
from tests.harness import index, memory, write_tree
from tests.support.daemon_process import Home
from tests.support.session_bus import session_bus
from tests.support.terminal import Terminal
from tests.support.unreadable import run_unprivileged, unreadable, without_read_override

INDEX = (
    "# Index\n"
    "- [A](a.md) — about a\n"
    "- [B](locked/b.md) — behind a folder nobody can read\n"
    "- [C](c.md) — a file nobody can read\n"
    "- [Gone](gone.md) — removed long ago\n"
)
AUDIT = [sys.executable, "-m", "memory_audit", "audit", "--format", "json"]


def locked_tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": INDEX,
            "a.md": memory("a"),
            "locked/b.md": memory("b"),
            "c.md": memory("c"),
        },
    )


def audit_json(*trees: Path) -> tuple[int, dict[str, Any]]:
    result = run_unprivileged([*AUDIT, *map(str, trees)])
    assert result.stdout, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return result.returncode, data


def test_the_helper_really_cannot_read_a_mode_000_file(tmp_path: Path) -> None:
    secret = tmp_path / "f"
    secret.write_text("x")
    with unreadable(secret):
        result = run_unprivileged(["cat", str(secret)])
    assert result.returncode != 0
    assert "Permission denied" in result.stderr
    assert run_unprivileged(["cat", str(secret)]).stdout == "x"


def test_unreadable_file_and_folder_are_errors_never_missing(tmp_path: Path) -> None:
    tree = locked_tree(tmp_path)
    with unreadable(tree / "locked", tree / "c.md"):
        code, data = audit_json(tree)
    [report] = data["reports"]
    assert code == 1
    assert {"path": "locked", "error": "permission denied"} in report["errors"]
    assert {"path": "c.md", "error": "permission denied"} in report["errors"]
    about = [(f["code"], f["path"], f.get("message", "")) for f in report["findings"]]
    assert [f for f in about if f[0] == "broken-index-link"] == [
        ("broken-index-link", "MEMORY.md", "link target `gone.md` doesn't exist")
    ]
    assert not [f for f in report["findings"] if "locked/b.md" in json.dumps(f)]
    assert not [f for f in report["findings"] if "`c.md`" in json.dumps(f)]


def test_an_unreadable_index_is_not_missing_and_no_fix_writes_to_it(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": "# Index\n", "a.md": memory("a")})
    with unreadable(tree / "MEMORY.md"):
        code, data = audit_json(tree)
    [report] = data["reports"]
    assert code == 1
    [missing] = [f for f in report["findings"] if f["code"] == "missing-index"]
    assert missing["message"].startswith("MEMORY.md cannot be read (permission denied)")
    assert [f for f in report["findings"] if f.get("fix")] == []
    assert {"dimension": "orphans", "reason": "MEMORY.md cannot be read, so what it reaches "
            "is unknown"} in report["skipped"]  # fmt: skip


def test_an_unreadable_tree_root_is_an_error_and_the_other_trees_are_audited(
    tmp_path: Path,
) -> None:
    locked = write_tree(tmp_path / "one/memory", {"MEMORY.md": "# Index\n", "a.md": memory("a")})
    other = write_tree(tmp_path / "two/memory", {"MEMORY.md": "# Index\n- [G](gone.md) — g\n"})
    with unreadable(locked):
        code, data = audit_json(locked, other)
        text = run_unprivileged([*AUDIT[:-2], str(locked), str(other)])
    first, second = data["reports"]
    assert code == 1
    assert first["errors"] == [
        {"path": ".", "error": "the memory folder cannot be read (permission denied); not audited"}
    ]
    assert first["findings"] == []
    assert [f["code"] for f in second["findings"] if f["dimension"] == "index-drift"] == [
        "broken-index-link"
    ]
    assert text.returncode == 1, text.stderr
    assert "MEMORY.md is missing" not in text.stdout
    assert "Not audited: the memory folder cannot be read (permission denied)" in text.stdout


def test_review_says_what_it_cannot_read_and_keeps_its_index_lines(tmp_path: Path) -> None:
    tree = locked_tree(tmp_path)
    home = tmp_path / "home"
    argv = [sys.executable, "-m", "memory_audit", "review", str(tree)]
    with unreadable(tree / "locked", tree / "c.md"):
        term = Terminal(without_read_override(argv), env_for(home))
        opening = term.expect("[q]uit: ")
        assert "Not audited, left alone: locked: permission denied" in opening
        assert "Not audited, left alone: c.md: permission denied" in opening
        assert "removed the index line for `gone.md`" in opening
        term.send("a")
        term.expect("Applied:")
        rest = term.expect("Enter to skip): ")
        assert "Audit complete. 1 applied, 0 skipped, 0 deferred." in rest
        term.send("")
        assert term.wait() == 0
    assert "[1/1] MEMORY.md index drift: MEMORY.md:5" in opening  # the one finding: gone.md
    assert "`locked/b.md` doesn't exist" not in opening + rest
    assert "`c.md` doesn't exist" not in opening + rest
    assert (tree / "MEMORY.md").read_text() == INDEX.replace(
        "- [Gone](gone.md) — removed long ago\n", ""
    )


def test_a_tree_behind_a_folder_that_cannot_be_searched_is_an_error_entry(
    tmp_path: Path,
) -> None:
    locked = write_tree(tmp_path / "one/memory", {"MEMORY.md": "# Index\n", "a.md": memory("a")})
    other = write_tree(tmp_path / "two/memory", {"MEMORY.md": "# Index\n- [G](gone.md) — g\n"})
    with unreadable(locked.parent):
        code, data = audit_json(locked, other)
    first, second = data["reports"]
    assert code == 1
    assert first["errors"] == [
        {"path": ".", "error": "the memory folder cannot be read (permission denied); not audited"}
    ]
    assert [f["code"] for f in second["findings"] if f["dimension"] == "index-drift"] == [
        "broken-index-link"
    ]


def test_review_of_an_unreadable_tree_says_so_and_changes_nothing(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": "# Index\n", "a.md": memory("a")})
    argv = [sys.executable, "-m", "memory_audit", "review", str(tree)]
    with unreadable(tree):
        term = Terminal(without_read_override(argv), env_for(tmp_path / "home"))
        shown = term.expect("No findings to review")
        assert term.wait() == 0
    assert "the memory folder cannot be read (permission denied); not audited" in shown
    assert (tree / "MEMORY.md").read_text() == "# Index\n"
    assert sorted(p.name for p in tree.iterdir()) == ["MEMORY.md", "a.md"]


NOT_READ = "not audited: the memory folder cannot be read (permission denied)"


def _two_projects(home: Home) -> tuple[Path, Path]:
    locked = write_tree(home.projects / "-work-locked/memory", {"MEMORY.md": "# Index\n"})
    clean = write_tree(
        home.projects / "-work-fine/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    return locked, clean


def _audit(home: Home, *argv: str) -> str:
    command = [sys.executable, "-m", "memory_audit", "audit", "--all", *argv]
    result = run_unprivileged(command, env={**home.env(), "NO_COLOR": "1"})
    assert result.returncode == 1, result.stderr  # an unaudited tree is no clean bill of health
    return result.stdout


def test_a_tree_that_could_not_be_read_is_not_audited_on_every_output_never_clean(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    locked, _ = _two_projects(home)
    where = "~/.claude/projects/-work-locked/memory/"
    with unreadable(locked):
        quiet = _audit(home, "-q")
        full = _audit(home)
        markdown = _audit(home, "--format", "markdown")
        data = json.loads(_audit(home, "--format", "json"))
        html = _audit(home, "--format", "html")
    [line] = [line for line in quiet.splitlines() if "-work-locked" in line]
    assert line.split() == ["-work-locked", "–", "–", *f"{NOT_READ} ({where})".split()]
    assert "Summary: 0 findings in 0 of 2 memory trees; 1 not audited" in quiet
    assert f"Memory audit: {where}\nN{NOT_READ[1:]}\n" in full
    assert "- .:" not in full
    assert "Findings: 0 total\nHealth: 0 files" not in full
    assert f"**N{NOT_READ[1:]} ({where})**" in markdown
    [report] = [r for r in data["reports"] if r["project"] == "-work-locked"]
    assert (
        report["not_audited"] == "the memory folder cannot be read (permission denied); not audited"
    )
    assert [r["not_audited"] for r in data["reports"] if r is not report] == [None]
    assert f"N{NOT_READ[1:]}" in html
    assert '<td class="num">not audited</td>' in html
    [section] = [s for s in html.split('<section class="project"') if "-work-locked</h2>" in s]
    assert "nothing material" not in section
    assert "Memory files" not in section  # no numbers: they are unknown, not zero


@pytest.mark.slow
def test_the_weekly_notification_names_a_tree_not_audited_and_never_says_clean(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    locked, _ = _two_projects(home)
    command = [sys.executable, "-m", "memory_audit", "daemon", "--once", "--config"]
    with session_bus(tmp_path / "bus") as bus, unreadable(locked):
        home.bus_address = bus.address
        result = run_unprivileged([*command, str(home.config())], env=home.env(), timeout=120)
        [weekly] = bus.wait_for(1)
    assert result.returncode == 0, result.stderr
    assert weekly["summary"] == "memory-audit: weekly audit"
    body = str(weekly["body"])
    assert "clean" not in body
    assert body.startswith("No findings in the 1 trees audited.\n")
    assert f"N{NOT_READ[1:]} (~/.claude/projects/-work-locked/memory/)" in body
