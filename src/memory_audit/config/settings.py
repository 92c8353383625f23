"""Configuration: one YAML file, every option defaulted, validated once.

The file lives at ``platformdirs.user_config_dir("memory-audit")/config.yaml``
unless ``--config`` names another. No raw dicts leave this module: callers get
a frozen :class:`Config`. ``config/config.example.yaml`` documents every key.
"""

from __future__ import annotations

import dataclasses
import re
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from memory_audit.config.config_file import read_config_text
from memory_audit.config.paths import default_config_file, default_reports_dir, default_state_dir
from memory_audit.errors import ConfigError

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEKLY = re.compile(r"^\s*(?P<days>[a-z,*-]+)\s+(?P<hour>\d{1,2}):(?P<minute>\d{2})\s*$", re.I)


@dataclass(frozen=True)
class WeeklyTime:
    days: tuple[str, ...]
    hour: int
    minute: int

    @property
    def day_of_week(self) -> str:
        """APScheduler's day_of_week, always by name (its numbers start on Monday)."""
        return ",".join(self.days)


def parse_weekly(text: str) -> WeeklyTime:
    match = WEEKLY.match(text)
    if not match:
        raise ValueError(f"{text!r} is not '<day> HH:MM' (e.g. 'sun 09:00')")
    raw_days = match.group("days").lower()
    days = DAYS if raw_days in ("*", "daily") else tuple(d[:3] for d in raw_days.split(","))
    unknown = [d for d in days if d not in DAYS]
    hour, minute = int(match.group("hour")), int(match.group("minute"))
    if unknown or hour > 23 or minute > 59:
        raise ValueError(f"{text!r} is not '<day> HH:MM' with days mon..sun and a valid time")
    return WeeklyTime(days, hour, minute)


def _weekly_error(value: str) -> str | None:
    try:
        parse_weekly(value)
    except ValueError as exc:
        return str(exc)
    return None


def _timezone_error(value: str) -> str | None:
    if value == "local":
        return None
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return f"unknown time zone {value!r} (use 'local' or an IANA name like 'Europe/Paris')"
    return None


def _retry_error(value: tuple[float, ...]) -> str | None:
    if not value:
        return "needs at least one delay"
    if any(not 0.1 <= delay <= 86400.0 for delay in value):
        return "each delay must be between 0.1 and 86400 seconds"
    return None


Profile = Literal["auto", "claude-code", "governed"]


@dataclass(frozen=True)
class AuditSettings:
    profile: Profile = "auto"
    max_file_bytes: int = field(default=1024 * 1024, metadata={"range": (1024, 1 << 30)})
    max_per_dimension: int = field(default=50, metadata={"range": (1, 1_000_000)})
    skip: tuple[str, ...] = ()  # dimension ids, checked against the registry in parse()


@dataclass(frozen=True)
class ScheduleSettings:
    weekly: str = field(default="sun 09:00", metadata={"check": _weekly_error})
    timezone: str = field(default="local", metadata={"check": _timezone_error})
    tick_seconds: float = field(default=60.0, metadata={"range": (1.0, 3600.0)})

    @property
    def weekly_time(self) -> WeeklyTime:
        return parse_weekly(self.weekly)


@dataclass(frozen=True)
class WatchSettings:
    enabled: bool = True
    debounce_seconds: float = field(default=2.0, metadata={"range": (0.0, 600.0)})
    rescan_seconds: float = field(default=180.0, metadata={"range": (1.0, 86400.0)})
    observer: Literal["auto", "native", "polling"] = "auto"
    polling_interval_seconds: float = field(default=5.0, metadata={"range": (0.5, 3600.0)})


@dataclass(frozen=True)
class NotifySettings:
    enabled: bool = True
    backend: Literal["auto", "desktop", "osascript", "none"] = "auto"
    timeout_seconds: float = field(default=5.0, metadata={"range": (0.1, 120.0)})
    coalesce_seconds: float = field(default=0.15, metadata={"range": (0.0, 600.0)})
    max_per_hour: int = field(default=12, metadata={"range": (1, 3600)})
    # After no server accepted an alert: wait each delay in turn, then the last one forever.
    retry_seconds: tuple[float, ...] = field(
        default=(10.0, 30.0, 120.0, 600.0, 1800.0), metadata={"check": _retry_error}
    )


@dataclass(frozen=True)
class ReportSettings:
    keep: int = field(default=12, metadata={"range": (1, 10_000)})
    dir: str | None = None


@dataclass(frozen=True)
class StateSettings:
    dir: str | None = None
    changelog_dir: str | None = None


@dataclass(frozen=True)
class JournalSettings:
    enabled: bool = True
    alert_deleted: int = field(default=5, metadata={"range": (1, 1_000_000)})
    alert_shrink: float = field(default=0.3, metadata={"range": (0.01, 1.0)})
    keep_all_days: int = field(default=30, metadata={"range": (1, 36500)})
    daily_days: int = field(default=90, metadata={"range": (0, 36500)})
    deleted_days: int = field(default=90, metadata={"range": (1, 36500)})
    max_mb: int = field(default=200, metadata={"range": (1, 1_000_000)})
    max_file_bytes: int = field(default=1024 * 1024, metadata={"range": (1024, 1 << 30)})
    attribution_seconds: float = field(default=10.0, metadata={"range": (0.5, 3600.0)})
    retry_seconds: float = field(default=30.0, metadata={"range": (0.1, 86400.0)})


@dataclass(frozen=True)
class Settings:
    roots: tuple[str, ...] = ("~/.claude/projects/*/memory",)
    audit: AuditSettings = AuditSettings()
    schedule: ScheduleSettings = ScheduleSettings()
    watch: WatchSettings = WatchSettings()
    notify: NotifySettings = NotifySettings()
    reports: ReportSettings = ReportSettings()
    state: StateSettings = StateSettings()
    journal: JournalSettings = JournalSettings()


OptionTypes = Mapping[str, type[Any]]
"""Each dimension's ``Options`` dataclass, by id: the checks registry hands it in, so
that reading the configuration never imports the checks themselves."""


@dataclass(frozen=True)
class Config:
    settings: Settings = Settings()
    checks: Mapping[str, Any] = field(default_factory=dict)
    source: Path | None = None
    option_types: OptionTypes = field(default_factory=dict)

    def check_options(self, dimension: str) -> Any:
        options = self.checks.get(dimension) or self.option_types[dimension]()
        # Checks that keep state (the secret salt, false positives) follow state.dir.
        if getattr(options, "state_dir", "unset") is None:
            options = dataclasses.replace(options, state_dir=str(self.state_dir))
        return options

    @property
    def report_dir(self) -> Path:
        configured = self.settings.reports.dir
        return _expand(configured) if configured else default_reports_dir()

    @property
    def state_dir(self) -> Path:
        configured = self.settings.state.dir
        return _expand(configured) if configured else default_state_dir()

    @property
    def changelog_dir(self) -> Path:
        configured = self.settings.state.changelog_dir
        return _expand(configured) if configured else self.state_dir / "changelog"


def _expand(path: str) -> Path:
    return Path(path).expanduser()


def load(path: Path | None = None, option_types: OptionTypes | None = None) -> Config:
    """The configuration from ``path``, or the default file, or all defaults.

    ``option_types`` validates ``checks.<id>``; None (for commands that run no
    check) skips that section.
    """
    explicit = path is not None
    path = path or default_config_file()
    try:
        text = read_config_text(path)  # a regular file only: a FIFO never hangs a reload
    except FileNotFoundError:
        if explicit:
            raise ConfigError(f"config file not found: {path}") from None
        return Config(option_types=option_types or {})
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None
    return parse(text, str(path), path=path, option_types=option_types)


def parse(
    text: str,
    source: str = "config.yaml",
    *,
    path: Path | None = None,
    option_types: OptionTypes | None = None,
) -> Config:
    """The configuration in ``text`` (YAML), validated."""
    from memory_audit.config.reading import parse_text  # YAML is loaded only for a file

    settings, checks = parse_text(text, Settings, source, option_types=option_types)
    return Config(settings, checks, path, option_types or {})
