"""The running service alerts when a file gains a bare repeat of a secret the tree holds
(the audit reports that place too), masked; a value no file says is a secret any more does
not alert. A real daemon process, a real session bus and notification server, real events."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.test_daemon import TOKEN, secret_notifications
from tests.harness import index, memory, write_tree
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.session_bus import SessionBus, session_bus

pytestmark = pytest.mark.slow

# Look-alikes built here: a rule finds the value after "password is", nothing finds it bare.
PASSWORD = "Quay" + "58" + "!!mk"
SAID = f"the wifi password is {PASSWORD}"
BARE = f"ssh admin@nas -p {PASSWORD} --port 2222"  # no rule matches it here


def _tree(home: Home) -> Path:
    return write_tree(
        home.projects / "-work-app" / "memory",
        {
            "MEMORY.md": index("wifi.md", "hosts.md"),
            "wifi.md": memory("wifi", body=SAID),
            "hosts.md": memory("hosts", body="The NAS is in the rack."),
        },
    )


def _bodies(bus: SessionBus) -> list[str]:
    return [str(n["body"]) for n in secret_notifications(bus.notifications())]


def _run(tmp_path: Path, home: Home, steps: Callable[[SessionBus], None]) -> str:
    """Start the daemon with ``home``, wait for its first alert (the password said in
    wifi.md), run ``steps(bus)``; every output of the service, for the leak check."""
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config()).start()
        try:
            assert daemon.wait_message("READY=1"), daemon.messages
            assert wait_for(lambda: any("wifi.md:6" in b for b in _bodies(bus)))
            steps(bus)
        finally:
            code, out, err = daemon.stop()
    assert code == 0, err
    stored = [p for p in home.root.rglob("*") if p.is_file() and "memory" not in p.parts]
    return out + err + "".join(p.read_bytes().decode("latin-1") for p in stored)


def test_a_file_gaining_a_bare_repeat_of_a_secret_alerts_masked(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = _tree(home)

    def steps(bus: SessionBus) -> None:
        (tree / "hosts.md").write_text(memory("hosts", body=f"The NAS is in the rack.\n{BARE}"))
        assert wait_for(lambda: any("hosts.md" in b for b in _bodies(bus)))
        [alert] = [n for n in secret_notifications(bus.notifications()) if "hosts.md" in str(n)]
        assert alert["summary"] == "memory-audit: 1 possible secret in 1 file"
        assert "hosts.md:7 " in str(alert["body"])
        assert "(repeated)" in str(alert["body"])
        assert PASSWORD not in str(alert)

    every_output = _run(tmp_path, home, steps)
    assert "hosts.md:7" in every_output  # the log holds the alert
    assert PASSWORD not in every_output


def test_a_value_no_file_says_is_a_secret_any_more_raises_no_alert(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = _tree(home)

    def steps(bus: SessionBus) -> None:
        (tree / "wifi.md").write_text(memory("wifi", body="The wifi is open now."))
        # the bare value and a token in one change: the token's alert says the change was
        # scanned, and it is the only secret found in it (wifi.md is read again whenever
        # it differs on disk from when its values were taken: no wait for its event)
        body = f"The NAS is in the rack.\n{BARE}\nDeploy token: {TOKEN}"
        (tree / "hosts.md").write_text(memory("hosts", body=body))
        assert wait_for(lambda: any("hosts.md" in b for b in _bodies(bus)))
        [alert] = [n for n in secret_notifications(bus.notifications()) if "hosts.md" in str(n)]
        assert alert["summary"] == "memory-audit: 1 possible secret in 1 file"
        assert "GitHub personal access token" in str(alert["body"])
        assert not wait_for(lambda: len(secret_notifications(bus.notifications())) > 2, 2)

    assert PASSWORD not in _run(tmp_path, home, steps)
