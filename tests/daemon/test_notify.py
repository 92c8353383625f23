from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from memory_audit.config.settings import NotifySettings
from memory_audit.daemon.notify import DesktopBackend, Notifier, RateLimit, use_runtime_bus
from tests.support.session_bus import session_bus


def send(notifier: Notifier, title: str = "t", message: str = "m") -> bool | None:
    return asyncio.run(notifier.send(title, message))


def test_desktop_notification_reaches_a_real_notification_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with session_bus(tmp_path / "bus") as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        notifier = Notifier(NotifySettings(), DesktopBackend())
        assert (
            send(notifier, "memory-audit: 1 possible secret in 1 file", "a.md:3 ghp_R8mQ...aE7u")
            is True
        )
        [shown] = bus.notifications()
    assert shown["app"] == "memory-audit"
    assert shown["summary"] == "memory-audit: 1 possible secret in 1 file"
    assert shown["body"] == "a.md:3 ghp_R8mQ...aE7u"


def test_no_notification_server_returns_quickly_without_raising(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with session_bus(tmp_path / "bus", server=False) as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        notifier = Notifier(NotifySettings(timeout_seconds=2.0), DesktopBackend())
        assert send(notifier) is False


def test_no_bus_at_all_returns_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/nothing-here")
    assert send(Notifier(NotifySettings(timeout_seconds=2.0), DesktopBackend())) is False


@pytest.mark.slow
def test_hung_notification_server_is_bounded_by_the_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with session_bus(tmp_path / "bus", hang=True) as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        notifier = Notifier(NotifySettings(timeout_seconds=1.0), DesktopBackend())

        async def both() -> tuple[bool | None, int]:
            ticks = 0

            async def tick() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.05)
                    ticks += 1

            ticker = asyncio.create_task(tick())
            result = await notifier.send("t", "m")
            ticker.cancel()
            return result, ticks

        result, ticks = asyncio.run(both())
        assert result is False
        assert len(bus.notifications()) == 1  # the server got the call and never answered
        assert ticks >= 2  # the loop kept running while the send waited (20 ticks if idle)


def test_notification_server_that_appears_later_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = DesktopBackend()
    notifier = Notifier(NotifySettings(timeout_seconds=2.0), backend)
    with session_bus(tmp_path / "bus1", server=False) as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        assert send(notifier) is False
    with session_bus(tmp_path / "bus2") as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        assert send(notifier) is True


def test_runtime_bus_is_used_when_no_address_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    with session_bus(tmp_path) as bus:  # the socket is $XDG_RUNTIME_DIR/bus
        use_runtime_bus()
        assert os.environ["DBUS_SESSION_BUS_ADDRESS"] == f"unix:path={tmp_path}/bus"
        assert send(Notifier(NotifySettings(), DesktopBackend())) is True
        assert len(bus.notifications()) == 1


def test_rate_limit_holds_back_a_storm() -> None:
    limit = RateLimit(3)
    start = time.monotonic()
    assert [limit.allow(start + i) for i in range(5)] == [True, True, True, False, False]
    assert limit.allow(start + 3600.5)


def test_notifier_reports_rate_limited_sends_as_held_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with session_bus(tmp_path / "bus") as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        notifier = Notifier(NotifySettings(max_per_hour=2), DesktopBackend())

        async def storm() -> list[bool | None]:
            return [await notifier.send("t", str(i)) for i in range(6)]

        assert asyncio.run(storm()) == [True, True, None, None, None, None]
        assert len(bus.notifications()) == 2
