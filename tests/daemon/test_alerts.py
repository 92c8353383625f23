from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from memory_audit.config import NotifySettings
from memory_audit.daemon.alerts import Alert, AlertCenter
from memory_audit.daemon.notify import DesktopBackend, Notifier
from memory_audit.daemon.state import State
from tests.support.session_bus import session_bus


def secret(key: str, path: str) -> Alert:
    return Alert(key, "secret", "/tree", path, f"{path}:1 GitHub token ghp_R8mQ...aE7u")


def test_alerts_arriving_during_a_slow_send_are_not_sent_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with session_bus(tmp_path / "bus", hang=True) as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        state = State(tmp_path / "state")
        notifier = Notifier(NotifySettings(timeout_seconds=1.0), DesktopBackend())
        center = AlertCenter(state, notifier, 0.05, lambda: None)

        async def scenario() -> None:
            center.add([secret("a", "a.md")])
            await asyncio.sleep(0.4)  # the first send waits on the server
            center.add([secret("a", "a.md"), secret("b", "b.md")])  # a.md scanned again
            for _ in range(100):  # both sends time out after 1 s and are then recorded
                if state.alert_count() == 2:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # room for a third notification, were one coming

        asyncio.run(scenario())
        bodies = [str(n["body"]) for n in bus.notifications()]
        assert state.alert_count() == 2  # each recorded once
        state.close()
    assert [b.splitlines()[0] for b in bodies] == [
        "a.md:1 GitHub token ghp_R8mQ...aE7u",
        "b.md:1 GitHub token ghp_R8mQ...aE7u",
    ]
    assert all(len(b.splitlines()) == 2 for b in bodies)  # one alert and the review line each
