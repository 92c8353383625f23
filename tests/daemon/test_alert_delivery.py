"""An alert counts as sent only once a notification server accepted it; until then it is
kept, in memory and in the state, and sent again with backoff."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from pathlib import Path

import pytest

from memory_audit.config.settings import NotifySettings
from memory_audit.daemon.alerts import Alert, AlertCenter
from memory_audit.notify import DesktopBackend, Notifier
from memory_audit.store.state import State
from tests.support.session_bus import session_bus
from tests.support.waiting import wait_until

RETRY = (0.3, 0.6)


def leak(key: str = "k1") -> Alert:
    return Alert(key, "secret", "/tree", "notes.md", "notes.md:3 GitHub token ghp_R8mQ...aE7u")


def attempts(caplog: pytest.LogCaptureFixture) -> int:
    return sum("notification not shown" in r.getMessage() for r in caplog.records)


@pytest.mark.slow
def test_an_alert_no_server_accepted_is_kept_and_arrives_once_a_server_appears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "memory_audit.daemon")
    with session_bus(tmp_path / "bus", server=False) as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        state = State(tmp_path / "state")
        # One notification an hour: failed attempts must not use it up.
        notifier = Notifier(NotifySettings(timeout_seconds=2.0, max_per_hour=1), DesktopBackend())
        center = AlertCenter(state, notifier, 0.05, lambda: None, RETRY)

        async def scenario() -> tuple[int, int, list[str]]:
            center.add([leak()])
            assert await wait_until(lambda: attempts(caplog) >= 3, timeout=10)
            unsent = state.alert_count()
            held = [row[0] for row in state.held_alerts()]
            bus.start_server()
            assert await wait_until(lambda: state.alert_count() == 1, timeout=10)
            return unsent, attempts(caplog), held

        unsent, tried, held = asyncio.run(scenario())
        shown = bus.notifications()
        remaining = state.held_alerts()
        state.close()
    assert unsent == 0  # not recorded as sent while nobody showed it
    assert held == ["k1"]  # kept in the state meanwhile
    assert [n["body"] for n in shown] == [
        "notes.md:3 GitHub token ghp_R8mQ...aE7u\nReview: memory-audit review"
    ]
    assert remaining == []
    # Backoff, not a loop: 0.3 s, then 0.6 s between attempts (each no-server attempt
    # fails at once), so a few attempts, not hundreds.
    assert 3 <= tried <= 12


@pytest.mark.slow
def test_a_fresh_alert_brings_the_next_attempt_forward_and_takes_the_backlog_along(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "memory_audit.daemon")
    with session_bus(tmp_path / "bus", server=False) as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        state = State(tmp_path / "state")
        notifier = Notifier(NotifySettings(timeout_seconds=2.0), DesktopBackend())
        # The second delay is long: only a fresh alert can bring the next attempt forward.
        center = AlertCenter(state, notifier, 0.05, lambda: None, (0.5, 600.0))

        async def scenario() -> int:
            center.add([leak("k1")])
            assert await wait_until(lambda: attempts(caplog) == 2, timeout=10)
            bus.start_server()
            for n in range(2, 12):  # a burst of fresh alerts: one attempt, not ten
                center.add([leak(f"k{n}")])
            assert await wait_until(lambda: state.alert_count() == 11, timeout=10)
            return attempts(caplog)

        tried = asyncio.run(scenario())
        shown = bus.notifications()
        state.close()
    assert tried == 2
    assert [n["summary"] for n in shown] == ["memory-audit: 11 possible secrets in 1 file"]


def test_alerts_held_by_one_process_are_sent_by_the_next(tmp_path: Path) -> None:
    state = State(tmp_path / "state")
    held = ("k1", "secret", "/tree", "notes.md", "notes.md:3 token ghp_R8mQ...aE7u")
    state.hold_alerts([held], dt.datetime.now().astimezone())
    notifier = Notifier(NotifySettings(backend="none"))
    center = AlertCenter(state, notifier, 0.05, lambda: None, RETRY)

    async def scenario() -> None:
        center.resume()
        center.resume()  # resumed twice: still one alert
        assert await wait_until(lambda: state.alert_count() == 1, timeout=5)

    asyncio.run(scenario())
    assert state.held_alerts() == []
    state.close()
