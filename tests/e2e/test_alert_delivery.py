"""The real daemon keeps an alert no notification server accepted, and sends it later."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree
from tests.install.test_service_command import cli
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import session_bus


def alert_rows(home: Home) -> tuple[int, int]:
    """(alerts recorded as sent, alerts pending)."""
    with sqlite3.connect(home.state / "state.db") as db:
        sent = db.execute("SELECT COUNT(*) FROM alerts WHERE kind = 'secret'").fetchone()[0]
        held = db.execute("SELECT COUNT(*) FROM pending_alerts").fetchone()[0]
    return int(sent), int(held)


def logged(home: Home, text: str) -> bool:
    return home.log.exists() and text in home.log.read_text()


@pytest.mark.slow
def test_an_alert_raised_with_no_server_arrives_after_a_restart_once_one_is_there(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    tree = write_tree(
        home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    token = github_token("ghp_", rnd(ALNUM, 36))
    with session_bus(tmp_path / "bus", server=False) as bus:
        home.bus_address = bus.address
        config = home.config(retry=0.5)
        daemon = DaemonProcess(home, config).start()
        try:
            assert daemon.wait_message("READY=1")
            assert wait_for(lambda: logged(home, "audit:"))  # the baseline run is done
            (tree / "leak.md").write_text(memory("leak", body=f"deploy key {token}"))
            assert wait_for(lambda: logged(home, "alert: leak.md:"))
            assert wait_for(lambda: logged(home, "next attempt in 0.5 s"))
        finally:
            code, _, err = daemon.stop()
        assert code == 0, err
        assert alert_rows(home) == (0, 1)  # not sent, kept
        status = cli(home, "status").stdout
        assert "Alerts sent: 0; 1 waiting for a notification server" in status

        bus.start_server()
        daemon = DaemonProcess(home, config).start()
        try:
            assert daemon.wait_message("READY=1")
            assert wait_for(lambda: any("leak.md" in str(n["body"]) for n in bus.notifications()))
        finally:
            code, _, err = daemon.stop()
        assert code == 0, err
    secret_alerts = [n for n in bus.notifications() if "possible secret" in str(n["summary"])]
    assert len(secret_alerts) == 1
    assert alert_rows(home) == (1, 0)
    assert token not in home.log.read_text()
