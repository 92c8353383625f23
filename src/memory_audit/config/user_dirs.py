"""The user's folders as plain strings, importing ``os`` and ``sys`` only.

The session hook runs at every Claude Code session start and imports this
module alone; :mod:`memory_audit.config.paths` builds its ``Path`` API on it.
On Linux the rule platformdirs applies is the XDG one (an absolute
``$XDG_*_HOME``, else the default under the home folder), written out here so
the hook pays for neither platformdirs nor pathlib; elsewhere platformdirs
decides.
"""

from __future__ import annotations

import os
import sys

APP = "memory-audit"
XDG = {
    "config": ("XDG_CONFIG_HOME", "~/.config"),
    "data": ("XDG_DATA_HOME", "~/.local/share"),
    "state": ("XDG_STATE_HOME", "~/.local/state"),
}


def user_dir(kind: str) -> str:
    """The user's ``config``, ``data`` or ``state`` folder of memory-audit."""
    if sys.platform == "linux":
        variable, default = XDG[kind]
        base = os.environ.get(variable, "")
        return os.path.join(base if os.path.isabs(base) else os.path.expanduser(default), APP)
    import platformdirs  # macOS and others: their own conventions

    folder: str = getattr(platformdirs, f"user_{kind}_dir")(APP)
    return folder


def claude_home() -> str:
    """``~/.claude``, or ``$CLAUDE_CONFIG_DIR`` when Claude Code is told to look elsewhere."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return os.path.expanduser(configured) if configured else os.path.expanduser("~/.claude")
