"""A note three projects keep: `audit --all` suggests one user-level home, and `review --all`
in a real pseudo-terminal moves it there, one confirmed decision per store (issue 29)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.e2e.test_review import env_for
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal

PNPM = "The user wants pnpm for every install, never npm or yarn; lockfile pnpm-lock.yaml."
PROMPT = "1. [a]pply  2. [s]kip  3. [e]dit  4. [v]iew detail  [q]uit: "
OWN = {
    "a": "Invoices are rounded half-even before tax.",
    "b": "The mobile app pins React Native 0.74.",
    "c": "Feature flags live in LaunchDarkly project orbit.",
}


def three_projects(home: Path) -> dict[str, Path]:
    stores = {}
    for name, own in OWN.items():
        stores[name] = write_tree(
            home / f".claude/projects/-work-{name}/memory",
            {
                "MEMORY.md": index("pkg.md", "own.md"),
                "pkg.md": memory("pkg", body=PNPM, type="feedback"),
                "own.md": memory("own", body=own),
            },
        )
    return stores


def test_audit_all_suggests_a_user_level_home_for_a_note_three_stores_keep(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    three_projects(home)
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", "--all", "--format", "json"],
        capture_output=True,
        text=True,
        env=env_for(home),
        check=False,
    )
    assert result.returncode == 0  # suggestions never make the exit code
    for report in json.loads(result.stdout)["reports"]:
        [shared] = [f for f in report["findings"] if f["code"] == "same-note-in-projects"]
        assert (shared["path"], shared["level"]) == ("pkg.md", "suggestion")
        assert "kept in 3 stores: -work-a, -work-b, -work-c" in shared["message"]


def test_review_moves_the_shared_note_to_the_user_level_one_store_at_a_time(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    stores = three_projects(home)
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "review", "--all"], env_for(home), cwd=str(tmp_path)
    )
    first = term.expect(PROMPT)
    assert "=== Tree 1 of 3: -work-a ===" in first
    assert "Possible duplicates: pkg.md" in first
    assert (
        "Apply makes one change: ~/.claude/CLAUDE.md: added the note; pkg.md moved to "
        ".trash/pkg.md and its MEMORY.md line removed" in first
    )
    assert f"+{PNPM}" in first  # the diff shows what goes to the user level
    term.send("1")
    term.expect("Why these changes?")
    term.send("one home for it")
    second = term.expect(PROMPT)
    assert "=== Tree 2 of 3: -work-b ===" in second
    # CLAUDE.md holds it already: this store's decision only moves its copy out
    assert "Apply makes one change: pkg.md moved to .trash/pkg.md and its MEMORY.md" in second
    term.send("1")
    term.expect("Why these changes?")
    term.send("")
    term.expect(PROMPT)
    term.send("2")  # the third store keeps its copy: its own decision
    term.expect("Remember this dismissal")
    term.send("n")
    assert term.wait() == 0
    claude_md = (home / ".claude/CLAUDE.md").read_text()
    assert claude_md.count(PNPM) == 1
    for name in ("a", "b"):
        assert not (stores[name] / "pkg.md").exists()
        assert PNPM in (stores[name] / ".trash/pkg.md").read_text()  # kept, restorable
        assert "pkg.md" not in (stores[name] / "MEMORY.md").read_text()
    assert (stores["c"] / "pkg.md").exists()
    assert "pkg.md" in (stores["c"] / "MEMORY.md").read_text()
    logs = "".join(p.read_text() for p in home.rglob("changelog/*.md"))
    assert "pkg.md moved to .trash/pkg.md" in logs
