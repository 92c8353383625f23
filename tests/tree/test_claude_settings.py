"""Claude Code's memory settings, resolved as Claude Code resolves them; bad files are notes."""

from __future__ import annotations

import json
from pathlib import Path

from memory_audit.tree.claude_settings import resolve


def settings(path: Path, text: str | dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if isinstance(text, str) else json.dumps(text))


def user(home: Path, name: str = "settings.json") -> Path:
    return home / ".claude" / name


def test_memory_is_on_with_a_30_day_window_when_nothing_is_set(isolated_home: Path) -> None:
    found = resolve(None, {})
    assert (found.frozen_by, found.cleanup_days, found.notes) == (None, 30, ())


def test_project_settings_win_over_user_settings_and_local_over_shared(
    isolated_home: Path, tmp_path: Path
) -> None:
    settings(user(isolated_home), {"autoMemoryEnabled": True, "cleanupPeriodDays": 90})
    settings(tmp_path / ".claude/settings.json", {"autoMemoryEnabled": False})
    found = resolve(tmp_path, {})
    assert found.frozen_by == f"autoMemoryEnabled: false in {tmp_path}/.claude/settings.json"
    assert found.cleanup_days == 90
    settings(tmp_path / ".claude/settings.local.json", {"autoMemoryEnabled": True})
    assert resolve(tmp_path, {}).frozen_by is None


def test_the_environment_variable_wins_over_every_file(isolated_home: Path) -> None:
    assert resolve(None, {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}).frozen_by == (
        "CLAUDE_CODE_DISABLE_AUTO_MEMORY=1 in the environment"
    )
    settings(user(isolated_home), {"autoMemoryEnabled": False})
    assert resolve(None, {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}).frozen_by is None


def test_auto_memory_directory_is_taken_from_local_settings_not_shared_ones(
    isolated_home: Path, tmp_path: Path
) -> None:
    settings(tmp_path / ".claude/settings.json", {"autoMemoryDirectory": "/etc/redirected"})
    found = resolve(tmp_path, {})
    assert found.memory_directory is None
    assert found.notes == (
        f"{tmp_path}/.claude/settings.json: autoMemoryDirectory is ignored in a project's "
        "shared settings (Claude Code takes it from user or local settings only)",
    )
    settings(tmp_path / ".claude/settings.local.json", {"autoMemoryDirectory": "~/notes/app"})
    assert resolve(tmp_path, {}).memory_directory == isolated_home / "notes/app"


def test_settings_with_comments_or_trailing_commas_are_a_note_and_defaults_hold(
    isolated_home: Path,
) -> None:
    settings(user(isolated_home), '{\n  // mine\n  "autoMemoryEnabled": false\n}\n')
    settings(user(isolated_home, "settings.local.json"), '{"cleanupPeriodDays": 7,}')
    found = resolve(None, {})
    assert (found.frozen_by, found.cleanup_days) == (None, 30)
    assert found.notes == (
        "~/.claude/settings.json: not valid JSON at line 2, column 3 "
        "(a comment or a trailing comma?); defaults used",
        "~/.claude/settings.local.json: not valid JSON at line 1, column 25 "
        "(a comment or a trailing comma?); defaults used",
    )


def test_values_of_the_wrong_type_are_a_note_and_the_default_is_used(
    isolated_home: Path,
) -> None:
    settings(
        user(isolated_home),
        {"autoMemoryEnabled": "false", "cleanupPeriodDays": "7", "autoMemoryDirectory": 3},
    )
    found = resolve(None, {})
    assert (found.frozen_by, found.cleanup_days, found.memory_directory) == (None, 30, None)
    assert found.notes == (
        "~/.claude/settings.json: autoMemoryEnabled should be true or false, not text; "
        "the default is used",
        "~/.claude/settings.json: cleanupPeriodDays should be a whole number of days, not "
        "text; the default is used",
        "~/.claude/settings.json: autoMemoryDirectory should be an absolute path or one under "
        "~/, not a number; the default is used",
    )


def test_settings_that_are_not_an_object_or_not_text_are_notes(isolated_home: Path) -> None:
    settings(user(isolated_home), "[1, 2]")
    user(isolated_home, "settings.local.json").write_bytes(b"\xff\xfe{}")
    assert resolve(None, {}).notes == (
        "~/.claude/settings.json: not a JSON object; defaults used",
        "~/.claude/settings.local.json: not UTF-8 JSON; defaults used",
    )
