"""Claude Code's settings that change what memory does, resolved as Claude Code does.

Sources, lowest first: the user's ``~/.claude/settings.json`` and ``settings.local.json``,
then the project's ``.claude/settings.json`` and ``.claude/settings.local.json``; a later
source wins. ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` wins over every file (``1`` turns auto
memory off, ``0`` on). ``autoMemoryDirectory`` is not taken from the project's shared
``settings.json`` (Claude Code refuses it there, so that a cloned repository cannot
redirect memory writes): such a value is reported and ignored.

A settings file that is not strict JSON (comments, a trailing comma) or holds a value of
the wrong type is a note, and the default is used: an audit never fails on it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memory_audit.config.paths import claude_home
from memory_audit.model.stores import DEFAULT_CLEANUP_DAYS
from memory_audit.regular_files import read_regular

DISABLE_VARIABLE = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
MAX_SETTINGS_BYTES = 1 << 20
JSON_KINDS: dict[type, str] = {
    bool: "true or false",
    str: "text",
    int: "a number",
    float: "a number",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


@dataclass(frozen=True)
class MemorySettings:
    """What the settings say about one project's memory."""

    frozen_by: str | None = None  # why auto memory is off (None: on)
    memory_directory: Path | None = None
    cleanup_days: int = DEFAULT_CLEANUP_DAYS
    notes: tuple[str, ...] = ()  # settings files or values that could not be used


@dataclass(frozen=True)
class _Source:
    path: Path
    shared_project: bool = False  # the project's committed settings.json


def settings_sources(project: Path | None, home: Path | None = None) -> list[_Source]:
    base = home or claude_home()
    sources = [_Source(base / "settings.json"), _Source(base / "settings.local.json")]
    if project is not None:
        sources += [
            _Source(project / ".claude" / "settings.json", shared_project=True),
            _Source(project / ".claude" / "settings.local.json"),
        ]
    return sources


def resolve(
    project: Path | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> MemorySettings:
    """The memory settings of ``project`` (None: the user's alone)."""
    environ = os.environ if environ is None else environ
    state = _Resolution()
    for source in settings_sources(project, home):
        data, note = read_settings(source.path)
        if note:
            state.notes.append(note)
        state.apply(data, source)
    state.apply_environment(environ.get(DISABLE_VARIABLE))
    return state.settings()


class _Resolution:
    def __init__(self) -> None:
        self.frozen_by: str | None = None
        self.directory: Path | None = None
        self.cleanup_days = DEFAULT_CLEANUP_DAYS
        self.notes: list[str] = []

    def apply(self, data: Mapping[str, object], source: _Source) -> None:
        where = _display(source.path)
        enabled = data.get("autoMemoryEnabled")
        if isinstance(enabled, bool):
            self.frozen_by = None if enabled else f"autoMemoryEnabled: false in {where}"
        elif enabled is not None:
            self._wrong("autoMemoryEnabled", "true or false", enabled, where)
        self._apply_cleanup(data.get("cleanupPeriodDays"), where)
        self._apply_directory(data.get("autoMemoryDirectory"), source, where)

    def _apply_cleanup(self, days: object, where: str) -> None:
        if days is None:
            return
        if isinstance(days, int) and not isinstance(days, bool) and days >= 0:
            self.cleanup_days = days
        else:
            self._wrong("cleanupPeriodDays", "a whole number of days", days, where)

    def _apply_directory(self, value: object, source: _Source, where: str) -> None:
        if value is None:
            return
        if not isinstance(value, str) or not _usable_directory(value):
            self._wrong("autoMemoryDirectory", "an absolute path or one under ~/", value, where)
        elif source.shared_project:
            self.notes.append(
                f"{where}: autoMemoryDirectory is ignored in a project's shared settings "
                "(Claude Code takes it from user or local settings only)"
            )
        else:
            self.directory = Path(value.strip()).expanduser()

    def apply_environment(self, value: str | None) -> None:
        word = (value or "").strip().lower()
        if word in TRUE_WORDS:
            self.frozen_by = f"{DISABLE_VARIABLE}={value} in the environment"
        elif word in FALSE_WORDS:
            self.frozen_by = None

    def _wrong(self, key: str, wanted: str, value: object, where: str) -> None:
        kind = JSON_KINDS.get(type(value), "a value of another kind")
        self.notes.append(f"{where}: {key} should be {wanted}, not {kind}; the default is used")

    def settings(self) -> MemorySettings:
        return MemorySettings(self.frozen_by, self.directory, self.cleanup_days, tuple(self.notes))


def _usable_directory(value: str) -> bool:
    text = value.strip()
    return bool(text) and (os.path.isabs(text) or text.startswith("~/"))


def read_settings(path: Path) -> tuple[dict[str, object], str | None]:
    """The settings file's object, and a note when it exists but cannot be used."""
    try:
        raw = read_regular(path, MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"{_display(path)}: cannot be read ({exc.strerror or 'error'}); defaults used"
    if len(raw) > MAX_SETTINGS_BYTES:
        return {}, f"{_display(path)}: larger than 1 MB, not read; defaults used"
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return {}, f"{_display(path)}: {_json_problem(exc)}; defaults used"
    if not isinstance(data, dict):
        return {}, f"{_display(path)}: not a JSON object; defaults used"
    return data, None


def _json_problem(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        hint = " (a comment or a trailing comma?)" if _looks_like_jsonc(exc) else ""
        return f"not valid JSON at line {exc.lineno}, column {exc.colno}{hint}"
    return "not UTF-8 JSON"


def _looks_like_jsonc(exc: json.JSONDecodeError) -> bool:
    rest = exc.doc[exc.pos : exc.pos + 2]
    return rest.startswith(("//", "/*", "}", "]")) or "Expecting property name" in exc.msg


def _display(path: Path) -> str:
    home = Path.home()
    try:
        return "~/" + path.relative_to(home).as_posix()
    except ValueError:
        return str(path)
