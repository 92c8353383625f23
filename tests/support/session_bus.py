"""A private D-Bus session bus with a recording notification server, for real-component tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SERVER = Path(__file__).with_name("notification_server.py")


@dataclass
class SessionBus:
    address: str
    record: Path
    server: subprocess.Popen[str] | None = None

    def start_server(self, *flags: str) -> None:
        """Start the recording notification server (``--hang``, ``--slow``) on this bus."""
        env = {**os.environ, "DBUS_SESSION_BUS_ADDRESS": self.address}
        self.server = subprocess.Popen(
            [sys.executable, str(SERVER), str(self.record), *flags],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.server.stdout is not None
        assert self.server.stdout.readline().strip() == "ready"

    def notifications(self) -> list[dict[str, object]]:
        if not self.record.exists():
            return []
        return [json.loads(line) for line in self.record.read_text().splitlines() if line]

    def wait_for(self, count: int, timeout: float = 15.0) -> list[dict[str, object]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.notifications()
            if len(found) >= count:
                return found
            time.sleep(0.05)
        return self.notifications()


@contextmanager
def session_bus(
    folder: Path, *, server: bool = True, hang: bool = False, slow: bool = False
) -> Iterator[SessionBus]:
    """Start ``dbus-daemon --session`` on a socket in ``folder``, and optionally the server."""
    folder.mkdir(parents=True, exist_ok=True)
    socket = folder / "bus"
    daemon = subprocess.Popen(
        [
            "dbus-daemon",
            "--session",
            "--nofork",
            "--nopidfile",
            f"--address=unix:path={socket}",
            "--print-address=1",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert daemon.stdout is not None
    address = daemon.stdout.readline().strip()
    bus = SessionBus(address, folder / "notifications.jsonl")
    try:
        if server:
            bus.start_server(*(["--hang"] if hang else []), *(["--slow"] if slow else []))
        yield bus
    finally:
        for process in (bus.server, daemon):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
