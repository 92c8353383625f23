"""Desktop notifications that can never block or storm.

Backends, chosen in one place:

- ``desktop``: desktop-notifier (D-Bus ``org.freedesktop.Notifications`` on
  Linux). It never raises; a notification counts as delivered only when its
  ``on_dispatched`` callback ran. Every send is bounded by a timeout, so a
  hung notification server cannot stall the service. On Linux, when
  ``DBUS_SESSION_BUS_ADDRESS`` is unset and ``$XDG_RUNTIME_DIR/bus`` exists
  (the usual case under systemd), that bus is used.
- ``osascript``: macOS without an app bundle, where desktop-notifier cannot
  post; arguments are passed as ``argv``, never spliced into a script.
- ``none``: log only. Reports hold everything anyway. The log line is the
  delivery: a send through it counts as accepted.

A sliding-window rate limit caps notifications per hour, whatever happens. It
counts notifications a backend accepted: an attempt no server answered showed
nothing, so retrying it later does not eat the room meant for other alerts.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

from desktop_notifier import DesktopNotifier

from memory_audit.config.settings import NotifySettings
from memory_audit.model.visible import visible, visible_lines

log = logging.getLogger("memory_audit.daemon")
APP_NAME = "memory-audit"
HOUR = 3600.0


class Backend(Protocol):
    name: str

    async def send(self, title: str, message: str, opens: Path | None, timeout: float) -> bool: ...


class DesktopBackend:
    name = "desktop"

    def __init__(self) -> None:
        self._notifier: DesktopNotifier | None = None

    async def send(self, title: str, message: str, opens: Path | None, timeout: float) -> bool:
        if self._notifier is None:
            self._notifier = DesktopNotifier(app_name=APP_NAME)
        dispatched = asyncio.Event()
        try:
            await asyncio.wait_for(
                self._notifier.send(
                    title=title,
                    message=message,
                    on_dispatched=dispatched.set,
                    on_clicked=(lambda: open_path(opens)) if opens else None,
                ),
                timeout,
            )
        except TimeoutError:
            log.warning("notification server did not answer within %.1f s", timeout)
        if not dispatched.is_set():
            # desktop-notifier keeps a dead connection forever; start afresh next time,
            # so a notification server that comes (back) later is found.
            self._notifier = None
        return dispatched.is_set()


class OsascriptBackend:
    name = "osascript"
    SCRIPT = (
        "on run argv",
        "display notification (item 2 of argv) with title (item 1 of argv)",
        "end run",
    )

    async def send(self, title: str, message: str, opens: Path | None, timeout: float) -> bool:
        arguments = [a for line in self.SCRIPT for a in ("-e", line)]
        process = await asyncio.create_subprocess_exec(
            "osascript",
            *arguments,
            title,
            message,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            return await asyncio.wait_for(process.wait(), timeout) == 0
        except TimeoutError:
            process.kill()
            return False


class LogBackend:
    name = "none"

    async def send(self, title: str, message: str, opens: Path | None, timeout: float) -> bool:
        log.info("notification (logged only, notifications are off): %s — %s", title, message)
        return True  # the log is this backend's only channel, and the line is written


def open_path(path: Path | None) -> None:
    """Open a report in the user's viewer (notification clicked)."""
    opener = "open" if sys.platform == "darwin" else "xdg-open"
    if path is not None and shutil.which(opener):
        with contextlib.suppress(OSError):
            subprocess.Popen(
                [opener, str(path)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )


def use_runtime_bus() -> None:
    """Point D-Bus clients at ``$XDG_RUNTIME_DIR/bus`` when nothing else is set."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if (
        sys.platform.startswith("linux")
        and "DBUS_SESSION_BUS_ADDRESS" not in os.environ
        and runtime
        and os.path.exists(os.path.join(runtime, "bus"))
    ):
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={runtime}/bus"


def choose_backend(setting: str) -> Backend:
    if setting == "none":
        return LogBackend()
    if setting == "osascript":
        return OsascriptBackend()
    if setting == "auto" and platform.system() == "Darwin" and not _in_app_bundle():
        return OsascriptBackend()
    use_runtime_bus()
    return DesktopBackend()


def _in_app_bundle() -> bool:
    return ".app/Contents/" in sys.executable


class RateLimit:
    """At most ``limit`` events in any hour (monotonic clock)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._sent: collections.deque[float] = collections.deque()

    def carry_over(self, previous: RateLimit) -> None:
        """Count the events ``previous`` allowed in the last hour as this limit's own."""
        self._sent = previous._sent

    def allow(self, now: float | None = None) -> bool:
        """Room for one more, counted at once (see :meth:`has_room` to count only later)."""
        now = time.monotonic() if now is None else now
        if not self.has_room(now):
            return False
        self.count(now)
        return True

    def has_room(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        while self._sent and now - self._sent[0] >= HOUR:
            self._sent.popleft()
        return len(self._sent) < self.limit

    def count(self, now: float | None = None) -> None:
        self._sent.append(time.monotonic() if now is None else now)

    def seconds_until_room(self, now: float | None = None) -> float:
        """How long until one more fits (0 when it fits now)."""
        now = time.monotonic() if now is None else now
        if self.has_room(now):
            return 0.0
        return max(0.0, self._sent[0] + HOUR - now)


class Notifier:
    def __init__(self, settings: NotifySettings, backend: Backend | None = None) -> None:
        self.settings = settings
        self.backend = backend or choose_backend(settings.backend if settings.enabled else "none")
        self.limit = RateLimit(settings.max_per_hour)
        self._warned = False

    async def send(self, title: str, message: str, opens: Path | None = None) -> bool | None:
        """True: accepted (shown, or logged by the ``none`` backend). False: no server
        accepted it (logged). None: held back by the rate limit, nothing attempted.

        Every backend gets the title and each line of the message escaped, whoever
        composed them: no control character reaches a notification server or the log."""
        title, message = visible(title), visible_lines(message)
        if not self.limit.has_room():
            log.warning("notification rate limit (%d/hour) reached; held back", self.limit.limit)
            return None
        try:
            shown = await self.backend.send(title, message, opens, self.settings.timeout_seconds)
        except Exception as exc:  # a notification must never take the service down
            log.warning("notification failed: %s", type(exc).__name__)
            shown = False
        if shown:
            self.limit.count()
        elif not self._warned:
            self._warned = True
            log.warning(
                "no notification shown (no server on the session bus?); "
                "alerts are kept and sent again later, everything stays in the reports"
            )
        if self.backend.name != "none":
            first_line = message.splitlines()[0] if message else ""
            state = "shown" if shown else "not shown"
            log.info("notification %s: %s — %s", state, title, first_line)
        return shown
