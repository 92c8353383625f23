"""Agents' memory and Claude Code's settings, through the real command (issue 29)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from memory_audit.tree.discovery import slugify
from tests.e2e.test_cli import cli
from tests.harness import index, memory, write_tree
from tests.support.git_repo import Repo
from tests.support.transcripts import write_session


def project_with_agents(home: Path, tmp_path: Path) -> Repo:
    """A git project with an agent store in each scope; the project's memory is clean."""
    repo = Repo(tmp_path / "app")
    repo.commit("first", {"scripts/deploy.sh": "echo deploy\n", "README.md": "app\n"})
    gone = repo.remove("drop the deploy script", "scripts/deploy.sh")
    assert gone
    write_session(home / ".claude/projects" / slugify(repo.path), 0, [], cwd=str(repo.path))
    stale = memory("deploy", body="Deploys run `scripts/deploy.sh` from CI.")
    write_tree(
        repo.path / ".claude/agent-memory/release-helper",
        {"MEMORY.md": index("deploy.md"), "deploy.md": stale},
    )
    write_tree(
        repo.path / ".claude/agent-memory-local/release-helper",
        {"MEMORY.md": index("a.md"), "a.md": memory("a")},
    )
    write_tree(
        home / ".claude/agent-memory/plugin-reviewer",
        {"MEMORY.md": index("b.md"), "b.md": memory("b")},
    )
    return repo


def test_audit_all_audits_every_agent_store_in_a_section_of_its_own(
    isolated_home: Path, tmp_path: Path
) -> None:
    project_with_agents(isolated_home, tmp_path)
    result = cli("audit", "--all")
    lines = result.stdout.splitlines()
    section = lines.index("Agent memory")
    agents = [line.split()[:4] for line in lines[section + 1 :] if line.startswith("  agent ")]
    assert sorted(agents) == [
        ["agent", "plugin-reviewer", "(user)", "0"],
        ["agent", "release-helper", "(local)", "0"],
        ["agent", "release-helper", "(project)", "0"],
    ]
    # committed with the project: its references are checked against the repository, and
    # kept inside it, a deleted file's reference is a suggestion (as in a memory/ copy)
    assert "`scripts/deploy.sh` was deleted from the project in" in result.stdout
    assert "1 suggestion" in result.stdout
    assert "Memory audit: agent release-helper (project) — " in result.stdout


def test_agent_stores_in_json_name_agent_and_scope_and_say_why_sessions_are_not_judged(
    isolated_home: Path, tmp_path: Path
) -> None:
    project_with_agents(isolated_home, tmp_path)
    reports = json.loads(cli("audit", "--all", "--format", "json").stdout)["reports"]
    by_agent = {(r["agent"]["name"], r["agent"]["scope"]): r for r in reports if r["agent"]}
    assert set(by_agent) == {
        ("plugin-reviewer", "user"),
        ("release-helper", "project"),
        ("release-helper", "local"),
    }
    skipped = {s["dimension"]: s["reason"] for s in by_agent["plugin-reviewer", "user"]["skipped"]}
    why = "an agent's memory: session transcripts do not say which agent read what"
    assert (skipped["usage"], skipped["coverage"]) == (why, why)


def test_projects_lists_agent_stores_with_agent_and_scope(
    isolated_home: Path, tmp_path: Path
) -> None:
    repo = project_with_agents(isolated_home, tmp_path)
    table = cli("projects").stdout
    assert "agent release-helper (project)" in table
    rows = {line.split("  ")[0]: line for line in table.splitlines()}
    assert rows["agent release-helper (local)"].endswith(str(repo.path))
    assert rows["agent plugin-reviewer (user)"].endswith("–")
    listed = json.loads(cli("projects", "--format", "json").stdout)
    assert {"name": "plugin-reviewer", "scope": "user"} in [t["agent"] for t in listed]


def test_a_store_whose_memory_is_switched_off_is_reported_frozen(
    isolated_home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "app"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude/settings.json").write_text('{"autoMemoryEnabled": false}')
    folder = isolated_home / ".claude/projects" / slugify(project)
    write_session(folder, 0, [], cwd=str(project))
    write_tree(folder / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    text = cli("audit", str(folder / "memory")).stdout.splitlines()
    assert text[1] == (
        f"Frozen: autoMemoryEnabled: false in {project}/.claude/settings.json — Claude Code "
        "neither writes this store nor loads it into sessions"
    )
    health = next(line for line in text if line.startswith("Health: "))
    assert health.startswith("Health: frozen · 1 files")
    [tree] = json.loads(cli("audit", str(folder / "memory"), "--format", "json").stdout)["reports"]
    assert tree["frozen"] == f"autoMemoryEnabled: false in {project}/.claude/settings.json"


def test_a_settings_file_with_a_comment_is_a_note_and_the_audit_goes_on(
    isolated_home: Path, tmp_path: Path
) -> None:
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude/settings.json").write_text(
        '{\n  // off\n  "autoMemoryEnabled": false\n}'
    )
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    result = cli("audit", str(tree))
    assert result.returncode == 0
    assert "Settings: ~/.claude/settings.json: not valid JSON at line 2, column 3" in result.stdout
    assert "Frozen" not in result.stdout


def test_the_health_line_says_how_far_transcripts_reach_and_when_the_oldest_goes(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "UTC")  # the dates below are those of UTC
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude/settings.json").write_text('{"cleanupPeriodDays": 10}')
    project = tmp_path / "app"
    project.mkdir()
    folder = isolated_home / ".claude/projects" / slugify(project)
    oldest = write_session(folder, 0, [], cwd=str(project))  # mtime 2023-11-14
    write_tree(folder / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    [tree] = json.loads(cli("audit", str(folder / "memory"), "--format", "json").stdout)["reports"]
    span = tree["transcripts"]
    assert (span["oldest"], span["swept_on"], span["cleanup_period_days"]) == (
        "2023-11-14",
        "2023-11-24",
        10,
    )
    assert oldest.exists()
    text = cli("audit", str(folder / "memory")).stdout
    assert "(cleanupPeriodDays 10: the oldest are past it: swept when Claude Code next" in text
    os.utime(oldest)  # written now: swept in ten days
    [tree] = json.loads(cli("audit", str(folder / "memory"), "--format", "json").stdout)["reports"]
    swept = dt.date.fromisoformat(tree["transcripts"]["swept_on"])
    assert (tree["transcripts"]["days"], swept - dt.datetime.now(dt.UTC).date()) == (
        0,
        dt.timedelta(days=10),
    )
    text = cli("audit", str(folder / "memory")).stdout
    assert (
        f"transcripts reach back 0 days (cleanupPeriodDays 10: the oldest goes on {swept})" in text
    )
