"""systemd user service: ``~/.config/systemd/user/memory-audit.service``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from memory_audit.install.spec import CommandResult, ServiceSpec, ServiceStatus, fill, run
from memory_audit.resource_files import read_resource

UNIT = "memory-audit.service"


def quote(argument: str) -> str:
    """One ExecStart argument, quoted the way systemd reads it (% and $ are special)."""
    escaped = argument.replace("%", "%%").replace("$", "$$")
    if any(c in escaped for c in " \t\"'\\;"):
        escaped = '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return escaped


class SystemdBackend:
    name = "systemd"

    def unit_path(self) -> Path:
        config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        return Path(config_home) / "systemd" / "user" / UNIT

    def render(self, spec: ServiceSpec) -> str:
        return fill(
            read_resource("service-files", UNIT),
            generated=spec.generated,
            exec_start=" ".join(quote(a) for a in spec.arguments),
            # "-": a folder missing at start is not an error (the daemon creates its own).
            writable=" ".join("-" + quote(str(p)) for p in spec.writable),
        )

    def _systemctl(self, *args: str) -> CommandResult:
        return run(["systemctl", "--user", *args])

    def reachable(self) -> tuple[bool, str]:
        if shutil.which("systemctl") is None:
            return False, "systemctl is not installed"
        result = self._systemctl("show-environment")
        if not result.ok:
            first = result.output.splitlines()[0] if result.output else f"exit {result.code}"
            return False, f"the systemd user manager is not reachable ({first})"
        return True, ""

    def activate(self) -> list[CommandResult]:
        was_running = self._systemctl("is-active", UNIT).output == "active"
        results = [self._systemctl("daemon-reload")]
        if results[-1].ok:
            results.append(self._systemctl("enable", "--now", UNIT))
        if results[-1].ok and was_running:
            results.append(self._systemctl("restart", UNIT))  # pick up the new unit file
        return results

    def deactivate(self) -> list[CommandResult]:
        return [self._systemctl("disable", "--now", UNIT)]

    def after_removal(self) -> list[CommandResult]:
        return [self._systemctl("daemon-reload")]

    def status(self) -> ServiceStatus:
        installed = self.unit_path().exists()
        ok, why = self.reachable()
        if not ok:
            return ServiceStatus(installed, None, None, why)
        enabled = self._systemctl("is-enabled", UNIT)
        active = self._systemctl("is-active", UNIT)
        return ServiceStatus(
            installed,
            enabled.output == "enabled",
            active.output == "active",
            f"systemd: {enabled.output or '?'}, {active.output or '?'}",
        )

    def logs(self, lines: int) -> str:
        if shutil.which("journalctl") is None:
            return ""
        result = run(["journalctl", "--user", "-u", UNIT, "-n", str(lines), "--no-pager"])
        return result.output if result.ok and "-- No entries --" not in result.output else ""

    def manual_commands(self) -> list[str]:
        return ["systemctl --user daemon-reload", f"systemctl --user enable --now {UNIT}"]

    def hints(self) -> list[str]:
        user = os.environ.get("USER") or "$USER"
        return [
            f"Headless or over SSH? Keep it running without a login: loginctl enable-linger {user}",
            "Notifications not arriving? Give the service your session's bus: "
            "systemctl --user import-environment DBUS_SESSION_BUS_ADDRESS DISPLAY "
            "(or dbus-update-activation-environment --systemd --all), then "
            f"systemctl --user restart {UNIT}",
        ]
