from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from memory_audit.config.settings import NotifySettings
from memory_audit.daemon.alerts import AlertCenter, alerts_for, scan_file
from memory_audit.notify import DesktopBackend, Notifier, RateLimit, use_runtime_bus
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.store.state import State
from tests.harness import memory, write_tree
from tests.secrets.samples import CASES
from tests.support.session_bus import session_bus

TOKEN = CASES["github-pat"][0][0][0]


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


def test_control_characters_in_a_file_name_never_reach_a_notification(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A secret alert names its file: a newline in the name cannot start a line of the
    body, and no ESC or BEL reaches the notification server (body or title)."""
    forged = "a\nFORGED: all clear\x1b]0;owned\x07.md"
    tree = write_tree(tmp_path / "memory", {forged: memory("a", body=f"token {TOKEN}")})
    state = State(tmp_path / "state")
    scan = scan_file(
        tree / forged,
        tree,
        secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state"))),
        1 << 20,
    )
    assert scan is not None
    with session_bus(tmp_path / "bus") as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        notifier = Notifier(NotifySettings(), DesktopBackend())
        center = AlertCenter(state, notifier, 0.0, lambda: None)

        async def alert_then_send() -> bool | None:
            center.add(alerts_for(scan, state, frozenset()))
            await center.flush()
            return await notifier.send("memory-audit: \x1b]0;owned\x07 title", "a\x1b[2J\nb")

        assert asyncio.run(alert_then_send()) is True
        first, second = bus.notifications()
    state.close()
    body = str(first["body"]).splitlines()
    assert body[0].startswith("a\\nFORGED: all clear\\x1b]0;owned\\x07.md:6 ")
    assert body[1:] == ["Review: memory-audit review"]
    assert second["summary"] == "memory-audit: \\x1b]0;owned\\x07 title"
    assert second["body"] == "a\\x1b[2J\nb"  # the message's own lines stay lines
    shown = "".join(str(n["summary"]) + str(n["body"]) for n in (first, second))
    assert "\x1b" not in shown
    assert "\x07" not in shown


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
