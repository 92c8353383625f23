"""Running ``memory-audit daemon`` as a real subprocess with a private home, for e2e tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

CONFIG = """\
schedule: {{weekly: "sun 09:00", tick_seconds: 1}}
watch: {{debounce_seconds: {debounce}, rescan_seconds: 2}}
notify: {{timeout_seconds: {timeout}, coalesce_seconds: {coalesce}, max_per_hour: 100,
  retry_seconds: [{retry}]}}
"""


@dataclass
class Home:
    root: Path
    bus_address: str | None = None

    @property
    def projects(self) -> Path:
        return self.root / ".claude" / "projects"

    @property
    def reports(self) -> Path:
        return self.root / ".local/share/memory-audit/reports"

    @property
    def state(self) -> Path:
        return self.root / ".local/state/memory-audit"

    @property
    def log(self) -> Path:
        return self.state / "log" / "daemon.log"

    def config(
        self, debounce: float = 0.2, timeout: float = 3.0, coalesce: float = 0.5, retry: float = 10
    ) -> Path:
        path = self.root / "config.yaml"
        path.write_text(
            CONFIG.format(debounce=debounce, timeout=timeout, coalesce=coalesce, retry=retry)
        )
        return path

    def env(self) -> dict[str, str]:
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "DBUS_", "NOTIFY_"))
        }
        env.update(
            {
                "HOME": str(self.root),
                "XDG_CONFIG_HOME": str(self.root / ".config"),
                "XDG_DATA_HOME": str(self.root / ".local/share"),
                "XDG_STATE_HOME": str(self.root / ".local/state"),
                "XDG_CACHE_HOME": str(self.root / ".cache"),
                "XDG_RUNTIME_DIR": str(self.root / "run"),
                "DBUS_SESSION_BUS_ADDRESS": self.bus_address or f"unix:path={self.root}/no-bus",
            }
        )
        return env


@dataclass
class DaemonProcess:
    home: Home
    config: Path
    process: subprocess.Popen[str] | None = None
    notify_socket: socket.socket | None = None
    messages: list[str] = field(default_factory=list)
    # Tests ping often to see the watchdog work; bench/service.py passes the shipped unit's.
    watchdog_usec: int = 2_000_000

    def start(self, *extra: str) -> DaemonProcess:
        path = self.home.root / "notify.sock"
        path.unlink(missing_ok=True)
        self.notify_socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify_socket.bind(str(path))
        env = {
            **self.home.env(),
            "NOTIFY_SOCKET": str(path),
            "WATCHDOG_USEC": str(self.watchdog_usec),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "memory_audit", "daemon", "--config", str(self.config), *extra],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        return self

    def wait_message(self, wanted: str, timeout: float = 20.0) -> bool:
        assert self.notify_socket is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(wanted in m for m in self.messages):
                return True
            self.notify_socket.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                self.messages.append(self.notify_socket.recv(4096).decode())
            except TimeoutError:
                break
        return any(wanted in m for m in self.messages)

    def signal(self, number: int) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    def finish(self, timeout: float = 30.0) -> tuple[int, str, str]:
        """Wait for a process expected to exit by itself (no signal sent)."""
        return self.stop(timeout, terminate=False)

    def stop(self, timeout: float = 10.0, *, terminate: bool = True) -> tuple[int, str, str]:
        assert self.process is not None
        if terminate and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=timeout)
        if self.notify_socket is not None:
            self.notify_socket.setblocking(False)
            while True:
                try:
                    self.messages.append(self.notify_socket.recv(4096).decode())
                except BlockingIOError:
                    break
            self.notify_socket.close()
        return self.process.returncode, out, err


def wait_for(condition: object, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return bool(condition())  # type: ignore[operator]
