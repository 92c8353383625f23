"""Claude Code integration: the SessionStart hook in settings.json, and the /memory-audit skill.

``settings.json`` is the user's file: it is merged, never rewritten from a
template. Everything else in it is kept, a backup is written first, running
twice changes nothing, and a file that is not plain JSON (comments, trailing
commas) is refused with the parser's line and column, unchanged.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from memory_audit.atomic import write_atomic
from memory_audit.config.paths import claude_home
from memory_audit.errors import UsageError
from memory_audit.resource_files import read_resource

HOOK_MARKERS = ("memory_audit hook session-start", "memory-audit hook session-start")
SKILL_MARKER = "memory-audit claude install"
HOOK_TIMEOUT_SECONDS = 10


def settings_path() -> Path:
    return claude_home() / "settings.json"


def skill_path() -> Path:
    return claude_home() / "skills" / "memory-audit" / "SKILL.md"


def hook_command(python: Path | None = None) -> str:
    interpreter = python or Path(sys.executable).absolute()
    return f"{shlex.quote(str(interpreter))} -m memory_audit hook session-start"


def load_settings(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). "
            "Comments and trailing commas are not allowed in it; correct the file and run this "
            "again. Nothing was changed."
        ) from None
    if not isinstance(data, dict):
        raise UsageError(f"{path} does not hold a JSON object; nothing was changed")
    return data


def _is_ours(hook: Any) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return isinstance(command, str) and any(marker in command for marker in HOOK_MARKERS)


def _session_start(settings: dict[str, Any]) -> list[Any]:
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise UsageError("settings.json: `hooks` is not an object; nothing was changed")
    groups = hooks.setdefault("SessionStart", [])
    if not isinstance(groups, list):
        raise UsageError("settings.json: `hooks.SessionStart` is not a list; nothing was changed")
    return groups


def with_hook(settings: dict[str, Any], command: str) -> bool:
    """Add (or update) our SessionStart hook; True when ``settings`` changed."""
    groups = _session_start(settings)
    for group in groups:
        for hook in group.get("hooks", []) if isinstance(group, dict) else []:
            if _is_ours(hook):
                if hook.get("command") == command:
                    return False
                hook["command"] = command
                return True
    groups.append(
        {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS}]}
    )
    return True


def without_hook(settings: dict[str, Any]) -> bool:
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return False
    groups = hooks.get("SessionStart")
    if not isinstance(groups, list):
        return False
    changed = False
    for group in list(groups):
        inner = group.get("hooks") if isinstance(group, dict) else None
        if isinstance(inner, list) and any(_is_ours(h) for h in inner):
            group["hooks"] = [h for h in inner if not _is_ours(h)]
            changed = True
            if not group["hooks"]:
                groups.remove(group)
    if changed and not groups:
        del hooks["SessionStart"]
        if not hooks:
            del settings["hooks"]
    return changed


def save_settings(path: Path, settings: dict[str, Any]) -> Path | None:
    """Write ``settings`` (2-space JSON, as Claude Code does) after a backup; the backup's path."""
    backup = None
    if path.exists():
        backup = path.with_name(
            f"{path.name}.memory-audit-backup-{dt.datetime.now():%Y%m%dT%H%M%S}"
        )
        shutil.copy2(path, backup)
        mode = path.stat().st_mode & 0o777
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = 0o600
    write_atomic(path, json.dumps(settings, indent=2, ensure_ascii=False) + "\n", mode=mode)
    return backup


def skill_text() -> str:
    return read_resource("claude", "SKILL.md")


def skill_is_ours(path: Path) -> bool:
    try:
        return SKILL_MARKER in path.read_text(encoding="utf-8")
    except OSError:
        return False
