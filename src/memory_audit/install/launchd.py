"""launchd agent: ``~/Library/LaunchAgents/<label>.plist``."""

from __future__ import annotations

import os
from pathlib import Path
from xml.sax.saxutils import escape

from memory_audit.install.spec import CommandResult, ServiceSpec, ServiceStatus, fill, run
from memory_audit.resource_files import read_resource

LABEL = "org.memory-audit.daemon"


class LaunchdBackend:
    name = "launchd"

    def unit_path(self) -> Path:
        return Path.home() / "Library" / "LaunchAgents" / f"{LABEL}.plist"

    def render(self, spec: ServiceSpec) -> str:
        arguments = "\n".join(f"    <string>{escape(a)}</string>" for a in spec.arguments)
        return fill(
            read_resource("service-files", "memory-audit.plist"),
            generated=escape(spec.generated),
            label=LABEL,
            arguments=arguments,
            log=escape(str(spec.log)),
        )

    @property
    def domain(self) -> str:
        return f"gui/{os.getuid()}"

    def reachable(self) -> tuple[bool, str]:
        result = run(["launchctl", "print", self.domain])
        if result.code == 127:
            return False, "launchctl is not available (not macOS?)"
        return (True, "") if result.ok else (False, f"launchd domain {self.domain} not reachable")

    def activate(self) -> list[CommandResult]:
        run(["launchctl", "bootout", f"{self.domain}/{LABEL}"])  # reinstall: drop the old job
        return [run(["launchctl", "bootstrap", self.domain, str(self.unit_path())])]

    def deactivate(self) -> list[CommandResult]:
        return [run(["launchctl", "bootout", f"{self.domain}/{LABEL}"])]

    def after_removal(self) -> list[CommandResult]:
        return []

    def status(self) -> ServiceStatus:
        installed = self.unit_path().exists()
        result = run(["launchctl", "print", f"{self.domain}/{LABEL}"])
        if result.code == 127:
            return ServiceStatus(installed, None, None, "launchctl is not available")
        active = "state = running" in result.output
        return ServiceStatus(
            installed, result.ok, active, "launchd: " + ("running" if active else "not running")
        )

    def logs(self, lines: int) -> str:
        return ""  # the log file is read by the caller

    def manual_commands(self) -> list[str]:
        return [f"launchctl bootstrap {self.domain} {self.unit_path()}"]

    def hints(self) -> list[str]:
        return [
            "Notifications show as coming from Script Editor (osascript): allow them in "
            "System Settings > Notifications."
        ]
