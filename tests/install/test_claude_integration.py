"""`memory-audit claude install|uninstall`: a careful merge into the user's settings.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.harness import digest

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


def ours(settings: dict[str, Any]) -> list[dict[str, Any]]:
    groups = settings.get("hooks", {}).get("SessionStart", [])
    return [
        h for g in groups for h in g["hooks"] if "memory_audit hook session-start" in h["command"]
    ]


def test_install_into_existing_settings_keeps_everything_else(isolated_home: Path) -> None:
    settings = isolated_home / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(OTHER, indent=4))
    settings.chmod(0o640)
    result = claude("install")
    assert result.returncode == 0, result.stderr
    data = json.loads(settings.read_text())
    [hook] = ours(data)
    assert hook["command"] == f"{sys.executable} -m memory_audit hook session-start"
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
