"""Every default folder, computed in one place.

The folders themselves come from :mod:`memory_audit.config.user_dirs`, which the
session hook uses alone (without pathlib). A configured ``reports.dir`` or
``state.dir`` replaces these defaults; see :class:`memory_audit.config.settings.Config`.
"""

from __future__ import annotations

from pathlib import Path

from memory_audit.config.user_dirs import APP, user_dir
from memory_audit.config.user_dirs import claude_home as claude_home_text

__all__ = [  # APP is re-exported
    "APP",
    "claude_home",
    "default_config_file",
    "default_data_dir",
    "default_reports_dir",
    "default_state_dir",
]


def claude_home() -> Path:
    """``~/.claude``, or ``$CLAUDE_CONFIG_DIR`` when Claude Code is told to look elsewhere."""
    return Path(claude_home_text())


def default_config_file() -> Path:
    return Path(user_dir("config")) / "config.yaml"


def default_data_dir() -> Path:
    return Path(user_dir("data"))


def default_reports_dir() -> Path:
    return default_data_dir() / "reports"


def default_state_dir() -> Path:
    return Path(user_dir("state"))
