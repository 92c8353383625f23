"""The service end to end: a real daemon process, a real session bus, real file events."""

from __future__ import annotations

import datetime as dt
import signal
from pathlib import Path

import pytest

from memory_audit.store.reports import ReportStore
from memory_audit.store.state import State
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.session_bus import session_bus

TOKEN = CASES["github-pat"][0][0][0]


def secret_notifications(bus_notifications: list[dict[str, object]]) -> list[dict[str, object]]:
    return [n for n in bus_notifications if "possible secret" in str(n["summary"])]


@pytest.mark.slow
def test_daemon_end_to_end(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = write_tree(
        home.projects / "-work-app" / "memory",
        {"MEMORY.md": index("notes.md"), "notes.md": memory("notes", body="Deploy with CI.")},
    )
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config()).start()
        try:
            assert daemon.wait_message("READY=1"), daemon.messages
            assert wait_for((home.reports / "latest" / "summary.json").exists)
            [weekly] = bus.wait_for(1)
            assert weekly["summary"] == "memory-audit: weekly audit"
            assert daemon.wait_message("WATCHDOG=1")

            (tree / "notes.md").write_text(memory("notes", body=f"Deploy token: {TOKEN}"))
            assert wait_for(lambda: len(secret_notifications(bus.notifications())) == 1)
            [alert] = secret_notifications(bus.notifications())
            assert alert["summary"] == "memory-audit: 1 possible secret in 1 file"
            assert "notes.md:6 GitHub personal access token ghp_" in str(alert["body"])
            assert TOKEN not in str(alert)

            (tree / "notes.md").write_text(
                memory("notes", body=f"Deploy token: {TOKEN}\nSaved again.")
            )
            assert not wait_for(
                lambda: len(secret_notifications(bus.notifications())) > 1, timeout=3
            )
        finally:
            code, out, err = daemon.stop()
    assert code == 0, err
    assert "STOPPING=1" in "".join(daemon.messages)
    every_output = out + err + home.log.read_text()
    every_output += "".join(
        p.read_bytes().decode("latin-1")
        for p in home.root.rglob("*")
        if p.is_file() and not p.is_relative_to(tree)
    )
    assert TOKEN not in every_output
    assert "memory-audit daemon stopped" in home.log.read_text()


@pytest.mark.slow
def test_second_daemon_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    first = DaemonProcess(home, home.config()).start()
    try:
        assert first.wait_message("READY=1")
        second = DaemonProcess(home, home.config())
        second.notify_socket = None
        code, _, err = second.start().finish()
        assert code == 2
        assert "another memory-audit daemon is already running (pid" in err
    finally:
        assert first.stop()[0] == 0


def test_sighup_with_an_invalid_config_keeps_the_old_one(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": ""})
    config = home.config()
    daemon = DaemonProcess(home, config).start()
    try:
        assert daemon.wait_message("READY=1")
        config.write_text("watch: {debounce_seconds: soon}\n")
        daemon.signal(signal.SIGHUP)
        assert wait_for(lambda: "keeping the previous configuration" in home.log.read_text())
        assert "watch.debounce_seconds: expected a number" in home.log.read_text()
        config.write_text("watch: {debounce_seconds: 0.5}\n")
        daemon.signal(signal.SIGHUP)
        assert wait_for(lambda: "configuration reloaded" in home.log.read_text())
    finally:
        code, _, err = daemon.stop()
    assert code == 0, err


def test_invalid_config_at_start_exits_2_before_anything_runs(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    config = home.root / "bad.yaml"
    home.root.mkdir(parents=True)
    config.write_text("notify: {backend: carrier-pigeon}\n")
    code, _, err = DaemonProcess(home, config).start().finish()
    assert code == 2
    assert "notify.backend: 'carrier-pigeon' is not one of" in err
    assert not home.reports.exists()


@pytest.mark.slow
def test_sighup_sends_the_next_runs_reports_to_a_new_reports_dir(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    config = home.config()
    moved = tmp_path / "elsewhere" / "reports"
    daemon = DaemonProcess(home, config).start()
    try:
        assert daemon.wait_message("READY=1")
        assert wait_for((home.reports / "latest" / "summary.json").exists)
        config.write_text(
            config.read_text() + f"reports: {{dir: '{moved}'}}\nstate: {{dir: '{tmp_path}/s2'}}\n"
        )
        daemon.signal(signal.SIGHUP)
        assert wait_for(lambda: "configuration reloaded" in home.log.read_text())
        # A week passes: the weekly audit is due again, and the 1 s tick starts it.
        state = State(home.state)
        state.put(
            "last_success", (dt.datetime.now().astimezone() - dt.timedelta(days=8)).isoformat()
        )
        state.close()
        assert wait_for((moved / "latest" / "summary.json").exists)
    finally:
        code, _, err = daemon.stop()
    assert code == 0, err
    assert len(ReportStore(home.reports, 12).runs()) == 1
    log = home.log.read_text()
    assert f"reports now go to {moved}" in log
    assert "rebuilt: reports\n" in log
    # The state folder holds the daemon's lock and database: refused live, kept.
    assert f"state.dir changed to {tmp_path}/s2" in log
    assert not (tmp_path / "s2").exists()
