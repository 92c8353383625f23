"""Installing the service: one backend per service manager, chosen in one place."""

from __future__ import annotations

import sys

from memory_audit.errors import UsageError
from memory_audit.install.launchd import LaunchdBackend
from memory_audit.install.spec import ServiceBackend
from memory_audit.install.systemd import SystemdBackend


def backend_for_platform(platform: str | None = None) -> ServiceBackend:
    platform = platform or sys.platform
    if platform.startswith("linux"):
        return SystemdBackend()
    if platform == "darwin":
        return LaunchdBackend()
    raise UsageError(
        f"no service manager support for {platform}; run `memory-audit daemon` "
        "from your own supervisor instead"
    )
