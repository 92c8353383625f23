"""Claude Code integration: the SessionStart hook in settings.json, and the /memory-audit skill.

``settings.json`` is the user's file: it is merged, never rewritten from a
template. Everything else in it is kept, a backup is written first, running
twice changes nothing, and a file that is not plain JSON (comments, trailing
commas) is refused with the parser's line and column, unchanged.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from memory_audit.atomic import write_atomic
from memory_audit.config.paths import claude_home
from memory_audit.errors import UsageError
from memory_audit.resource_files import read_resource

# The hook's code: no ``-m`` (runpy and what it imports cost ~8 ms at every session start).
HOOK_ENTRY = "from memory_audit.__main__ import main; raise SystemExit(main())"
# Ours: the command written now, and the ``-m`` forms earlier versions wrote.
HOOK_MARKERS = (
    "memory_audit.__main__ import main",
    "memory_audit hook session-start",
    "memory-audit hook session-start",
)
SKILL_MARKER = "memory-audit claude install"
HOOK_TIMEOUT_SECONDS = 10


def settings_path() -> Path:
    return claude_home() / "settings.json"


def skill_path() -> Path:
    return claude_home() / "skills" / "memory-audit" / "SKILL.md"


def command_line(python: Path | None = None) -> str:
    """How Claude Code runs this installation: its interpreter's absolute path, so a
    virtualenv install works although its ``bin`` is not on Claude's PATH. ``-P``: Claude
    Code runs commands in the user's project, and without it Python would import a
    ``memory_audit`` folder there before this installation."""
    return f"{_interpreter(python)} -P -m memory_audit"


def hook_command(python: Path | None = None) -> str:
    """The SessionStart hook: like :func:`command_line`, but through ``-c`` rather than
    ``-m``, which every session start would wait for (``python -P`` since 3.11)."""
    return f"{_interpreter(python)} -P -c {shlex.quote(HOOK_ENTRY)} hook session-start"


def _interpreter(python: Path | None) -> str:
    return shlex.quote(str(python or Path(sys.executable).absolute()))


def hook_programs(settings: dict[str, Any]) -> list[str]:
    """The programs our SessionStart hooks run (their first word), for ``doctor``."""
    return [_first_word(command) for command in _our_hook_commands(settings)]


def outdated_hooks(settings: dict[str, Any]) -> list[str]:
    """Our SessionStart hooks written by an earlier version (``-m memory_audit``): they
    work, slower, and import a ``memory_audit`` folder in the project first."""
    commands = _our_hook_commands(settings)
    return [c for c in commands if c != hook_command(Path(_first_word(c)))]


def _our_hook_commands(settings: dict[str, Any]) -> list[str]:
    hooks = settings.get("hooks")
    groups = hooks.get("SessionStart") if isinstance(hooks, dict) else None
    commands = []
    for group in groups if isinstance(groups, list) else []:
        inner = group.get("hooks") if isinstance(group, dict) else None
        for hook in inner if isinstance(inner, list) else []:
            if _is_ours(hook):
                commands.append(str(hook["command"]))
    return commands


def skill_program(path: Path) -> str | None:
    """The program our installed skill tells Claude to run (the first word before ``-m``,
    with or without ``-P``), or None (no skill, not ours)."""
    if not skill_is_ours(path):
        return None
    found = re.search(r"^    (.+?) -m memory_audit audit", path.read_text(encoding="utf-8"), re.M)
    return _first_word(found.group(1)) if found else ""


def _first_word(command: str) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    return words[0] if words else ""


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
        backup = _new_backup(path)
        shutil.copy2(path, backup)
        mode = path.stat().st_mode & 0o777
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = 0o600
    write_atomic(path, json.dumps(settings, indent=2, ensure_ascii=False) + "\n", mode=mode)
    return backup


def _new_backup(path: Path) -> Path:
    """A backup name no earlier backup has: install then uninstall in the same second keeps
    both (the name is claimed with O_EXCL before it is written)."""
    stamp = f"{path.name}.memory-audit-backup-{dt.datetime.now():%Y%m%dT%H%M%S}"
    for number in range(1, 1000):
        candidate = path.with_name(stamp if number == 1 else f"{stamp}-{number}")
        try:
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue
        return candidate
    raise UsageError(f"too many backups of {path} this second; nothing was changed")


def skill_text(python: Path | None = None) -> str:
    return read_resource("claude", "SKILL.md").replace("{command}", command_line(python))


def skill_is_ours(path: Path) -> bool:
    try:
        return SKILL_MARKER in path.read_text(encoding="utf-8")
    except OSError:
        return False
