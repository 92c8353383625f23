"""`memory-audit review`: where its findings come from, and what it records besides edits."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.e2e.test_review import env_for, make_tree, review
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES

TOKEN = CASES["github-pat"][0][0][0]


def audit(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", *args],
        env=env_for(home),
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_false_positive_is_recorded_and_not_reported_again(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"Sample token: {TOKEN}")},
    )
    assert audit(home, "--check", "secrets", str(tree)).returncode == 1
    term = review(home, tree)
    assert "possible GitHub personal access token" in term.expect("[q]uit: ")
    term.send("f")
    assert "0 applied, 1 skipped, 0 deferred" in term.expect("findings remain.")
    assert term.wait() == 0
    again = audit(home, "--check", "secrets", str(tree))
    assert again.returncode == 0, again.stdout
    stored = (home / ".local/state/memory-audit").rglob("*")
    assert all(TOKEN not in p.read_text(errors="replace") for p in stored if p.is_file())


def test_a_judgment_finding_captured_as_todo_lands_in_the_todo_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — notes about a\n",
            "a.md": memory("a", body="See [[a-note-never-written]] for details."),
        },
    )
    term = review(home, tree)
    assert "(user judgment required)" in term.expect("[q]uit: ")
    term.send("t")
    assert "0 applied, 0 skipped, 1 deferred" in term.expect("findings remain.")
    assert term.wait() == 0
    [todo] = (home / ".local/state/memory-audit/todo").glob("*.md")
    assert "- [ ] a.md:6 — " in todo.read_text()
    assert "a-note-never-written" in todo.read_text()


def test_review_takes_the_reports_findings_until_the_tree_changes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tree = make_tree(tmp_path)
    # Written a minute ago: the report's time (whole seconds) comes after every file's.
    for path in (tree, *tree.rglob("*")):
        os.utime(path, (time.time() - 60, time.time() - 60))
    report = tmp_path / "run.json"
    audit(home, "--format", "json", "-o", str(report), str(tree))
    term = review(home, tree, "--from-report", str(report))
    assert "Findings from the report of " in term.expect("[q]uit: ")
    term.send("q")
    assert term.wait() == 0
    later = time.time() + 60
    os.utime(tree / "a.md", (later, later))  # edited after the report was written
    term = review(home, tree, "--from-report", str(report))
    assert "The report is older than the tree: audited now." in term.expect("[q]uit: ")
    term.send("q")
    assert term.wait() == 0


def test_a_report_without_the_tree_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    other = write_tree(tmp_path / "other" / "memory", {"MEMORY.md": index("gone.md")})
    report = tmp_path / "run.json"
    audit(home, "--format", "json", "-o", str(report), str(other))
    tree = make_tree(tmp_path)
    refused = subprocess.run(
        [sys.executable, "-m", "memory_audit", "review", str(tree), "--from-report", str(report)],
        env=env_for(home),
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert f"{report} has no report for {tree}" in refused.stderr


def test_a_false_positive_mark_holds_for_the_value_whatever_rule_finds_it_later(
    tmp_path: Path,
) -> None:
    key = "Fk" + "Qm4Tz8Vb1Nc6Wd3Fg5Jh0Ks7Pl2Mn9Qx4Rz8Hd6"  # a look-alike
    home = tmp_path / "home"
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"Fernhill API Key: {key}")},
    )
    term = review(home, tree)
    assert "(pattern: generic-assignment)" in term.expect("[q]uit: ")
    term.send("f")
    term.expect("findings remain.")
    assert term.wait() == 0
    # the value moves to a line another rule reads: still the value marked
    write_tree(
        tree,
        {
            "MEMORY.md": index("b.md"),
            "a.md": memory("a", body="Fernhill API Key: in the vault"),
            "b.md": memory("b", body=f"curl -H 'Authorization: Bearer {key}' https://x.test"),
        },
    )
    again = audit(home, "--check", "secrets", str(tree))
    assert again.returncode == 0, again.stdout
