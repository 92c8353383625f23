"""Every default folder, computed in one place.

Light on purpose (``os`` and ``platformdirs`` only): the session hook imports it.
A configured ``reports.dir`` or ``state.dir`` replaces these defaults; see
:class:`memory_audit.config.settings.Config`.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "memory-audit"


def claude_home() -> Path:
    """``~/.claude``, or ``$CLAUDE_CONFIG_DIR`` when Claude Code is told to look elsewhere."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def default_config_file() -> Path:
    return Path(platformdirs.user_config_dir(APP)) / "config.yaml"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP))


def default_reports_dir() -> Path:
    return default_data_dir() / "reports"


def default_state_dir() -> Path:
    return Path(platformdirs.user_state_dir(APP))
