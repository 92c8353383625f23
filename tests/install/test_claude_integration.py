"""`memory-audit claude install|uninstall`: a careful merge into the user's settings.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.e2e.test_hook import project_with_report
from tests.harness import digest, index

OTHER: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git log:*)"]},
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}
        ],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}],
    },
}


def claude(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "claude", *args],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )


# What `claude install` writes: no `-m` (runpy at every session start), `-P` (no
# `memory_audit` folder of the project can stand in for this installation).
HOOK = "-P -c 'from memory_audit.__main__ import main; raise SystemExit(main())' hook session-start"
OLD_HOOK = "-m memory_audit hook session-start"  # what earlier versions wrote


def ours(settings: dict[str, Any]) -> list[dict[str, Any]]:
    groups = settings.get("hooks", {}).get("SessionStart", [])
    return [h for g in groups for h in g["hooks"] if h["command"].endswith(" hook session-start")]


def test_install_into_existing_settings_keeps_everything_else(isolated_home: Path) -> None:
    settings = isolated_home / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(OTHER, indent=4))
    settings.chmod(0o640)
    result = claude("install")
    assert result.returncode == 0, result.stderr
    data = json.loads(settings.read_text())
    [hook] = ours(data)
    assert hook["command"] == f"{sys.executable} {HOOK}"
    assert hook["timeout"] == 10
    assert data["model"] == "opus"
    assert data["permissions"] == OTHER["permissions"]
    assert data["hooks"]["PreToolUse"] == OTHER["hooks"]["PreToolUse"]
    assert data["hooks"]["SessionStart"][0] == OTHER["hooks"]["SessionStart"][0]
    assert settings.stat().st_mode & 0o777 == 0o640
    [backup] = settings.parent.glob("settings.json.memory-audit-backup-*")
    assert json.loads(backup.read_text()) == OTHER
    skill = isolated_home / ".claude/skills/memory-audit/SKILL.md"
    assert skill.read_text().startswith("---\nname: memory-audit\n")

    before = digest(isolated_home / ".claude")
    assert "already in" in claude("install").stdout  # idempotent: a second run changes nothing
    assert digest(isolated_home / ".claude") == before

    assert claude("uninstall").returncode == 0
    assert json.loads(settings.read_text()) == OTHER
    assert not skill.exists()
    assert not skill.parent.exists()


def test_install_without_a_settings_file(isolated_home: Path) -> None:
    assert claude("install").returncode == 0
    settings = isolated_home / ".claude/settings.json"
    assert len(ours(json.loads(settings.read_text()))) == 1
    assert settings.stat().st_mode & 0o777 == 0o600
    assert claude("uninstall").returncode == 0
    assert json.loads(settings.read_text()) == {}


def test_a_symlinked_settings_file_stays_a_link(isolated_home: Path) -> None:
    dotfiles = isolated_home / "dotfiles/claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text(json.dumps(OTHER))
    settings = isolated_home / ".claude/settings.json"
    settings.parent.mkdir()
    settings.symlink_to(dotfiles)
    assert claude("install").returncode == 0
    assert settings.is_symlink()
    assert settings.resolve() == dotfiles
    assert len(ours(json.loads(dotfiles.read_text()))) == 1
    assert claude("uninstall").returncode == 0
    assert settings.is_symlink()
    assert json.loads(dotfiles.read_text()) == OTHER


def test_comments_or_trailing_commas_are_refused_and_nothing_changes(isolated_home: Path) -> None:
    settings = isolated_home / ".claude/settings.json"
    settings.parent.mkdir()
    for text in ('{\n  // my settings\n  "model": "opus"\n}\n', '{\n  "model": "opus",\n}\n'):
        settings.write_text(text)
        before = digest(isolated_home / ".claude")
        result = claude("install")
        assert result.returncode == 2
        assert "is not valid JSON (line " in result.stderr
        assert "Comments and trailing commas are not allowed" in result.stderr
        assert digest(isolated_home / ".claude") == before


def test_a_foreign_skill_with_our_name_is_left_alone(isolated_home: Path) -> None:
    skill = isolated_home / ".claude/skills/memory-audit/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("my own skill\n")
    assert "is not ours" in claude("install").stdout
    claude("uninstall")
    assert skill.read_text() == "my own skill\n"


def test_install_then_uninstall_keeps_two_backups_even_within_one_second(
    isolated_home: Path,
) -> None:
    settings = isolated_home / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(OTHER))
    assert claude("install").returncode == 0
    installed = settings.read_text()
    assert claude("uninstall").returncode == 0
    backups = sorted(settings.parent.glob("settings.json.memory-audit-backup-*"))
    assert len(backups) == 2
    contents = {json.loads(b.read_text()) == OTHER for b in backups}
    assert contents == {True, False}  # one holds the original, the other the installed file
    assert installed in {b.read_text() for b in backups}


def test_skill_and_hook_run_this_installation_by_its_absolute_path(isolated_home: Path) -> None:
    settings = isolated_home / ".claude/settings.json"
    settings.parent.mkdir()
    stale = {
        "hooks": {
            "SessionStart": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": f"/gone/venv/bin/python {OLD_HOOK}",
                        }
                    ]
                }
            ]
        }
    }
    settings.write_text(json.dumps(stale))
    assert claude("install").returncode == 0
    [hook] = ours(json.loads(settings.read_text()))
    assert hook["command"] == f"{sys.executable} {HOOK}"
    skill = (isolated_home / ".claude/skills/memory-audit/SKILL.md").read_text()
    assert f"    {sys.executable} -P -m memory_audit audit --format json\n" in skill
    assert "{command}" not in skill
    assert "\n    memory-audit " not in skill  # no bare command Claude's PATH may not have


def test_doctor_names_a_hook_or_skill_whose_program_is_gone(isolated_home: Path) -> None:
    assert claude("install").returncode == 0
    healthy = doctor()
    assert f"✓ Claude Code SessionStart hook runs {sys.executable}" in healthy
    assert f"✓ Claude Code /memory-audit skill runs {sys.executable}" in healthy

    skill = isolated_home / ".claude/skills/memory-audit/SKILL.md"
    skill.write_text(skill.read_text().replace(sys.executable, "/gone/venv/bin/python"))
    settings = isolated_home / ".claude/settings.json"
    settings.write_text(settings.read_text().replace(sys.executable, "/gone/venv/bin/python"))
    broken = run_doctor()
    assert broken.returncode == 1
    assert (
        "✗ Claude Code SessionStart hook runs /gone/venv/bin/python, which no longer exists"
        in broken.stdout
    )
    assert "✗ Claude Code /memory-audit skill runs /gone/venv/bin/python" in broken.stdout
    assert "fix: memory-audit claude install" in broken.stdout


def run_doctor() -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "doctor"],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )


def doctor() -> str:
    return run_doctor().stdout


def run_hook(command: str, project: Path) -> str:
    """``command`` as Claude Code runs it: by a shell, in the project, JSON on stdin."""
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps({"cwd": str(project)}),
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    ).stdout


def test_an_earlier_versions_hook_keeps_working_and_install_upgrades_it(
    isolated_home: Path, tmp_path: Path
) -> None:
    project, _ = project_with_report(isolated_home, tmp_path, {"MEMORY.md": index("gone.md")})
    settings = isolated_home / ".claude/settings.json"  # .claude/projects holds the tree
    earlier: dict[str, Any] = {
        "type": "command",
        "command": f"{sys.executable} {OLD_HOOK}",
        "timeout": 10,
    }
    written = json.loads(json.dumps(OTHER))
    written["hooks"]["SessionStart"].append({"hooks": [earlier]})
    settings.write_text(json.dumps(written, indent=2))
    answer = run_hook(earlier["command"], project)
    assert answer.startswith("memory-audit: 1 finding(s) pending")

    before = doctor()
    assert f"✓ Claude Code SessionStart hook runs {sys.executable}" in before
    assert "! Claude Code SessionStart hook has an earlier version's command" in before

    installed = claude("install")
    assert installed.returncode == 0
    assert installed.stdout.startswith(f"updated the SessionStart hook in {settings}")
    data = json.loads(settings.read_text())
    [hook] = ours(data)
    assert hook == {**earlier, "command": f"{sys.executable} {HOOK}"}  # updated in place
    assert data["hooks"]["SessionStart"][0] == OTHER["hooks"]["SessionStart"][0]
    assert data["hooks"]["PreToolUse"] == OTHER["hooks"]["PreToolUse"]
    assert run_hook(hook["command"], project) == answer
    after = doctor()
    assert f"✓ Claude Code SessionStart hook runs {sys.executable}" in after
    assert "earlier version's command" not in after

    assert claude("uninstall").returncode == 0
    assert json.loads(settings.read_text()) == OTHER


def test_the_skill_walks_claude_through_recompressing_a_body(isolated_home: Path) -> None:
    """10b is Claude's job: propose the body, before and after, write on yes, audit again."""
    assert claude("install").returncode == 0
    skill = (isolated_home / ".claude/skills/memory-audit/SKILL.md").read_text()
    recompress = skill[skill.index("### Recompress a body") :]
    steps = ["Propose the rewritten body", "before, then after", "Write only on the user's yes"]
    assert all(step in recompress for step in steps)
    assert f"{sys.executable} -P -m memory_audit audit --format json` again" in recompress
    dead = skill[skill.index("### A memory that no longer earns its place") :]
    assert all(word in dead for word in ("**demote**", "**trim**", "**archive**", "**delete**"))
