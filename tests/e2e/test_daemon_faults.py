"""The service under faults: each with a real daemon process."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import session_bus


def token() -> str:
    return github_token("ghp_", rnd(ALNUM, 36))


def secret_alerts(notifications: list[dict[str, object]]) -> list[dict[str, object]]:
    return [n for n in notifications if "possible secret" in str(n["summary"])]


def one_tree(home: Home, slug: str = "-app") -> Path:
    return write_tree(
        home.projects / slug / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )


def assert_reports_written(home: Home) -> None:
    summary = json.loads((home.reports / "latest" / "summary.json").read_text())
    assert summary["schema"] == "memory-audit/run@1"


def test_once_without_a_notification_server_still_writes_reports(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    one_tree(home)
    with session_bus(tmp_path / "bus", server=False) as bus:
        home.bus_address = bus.address
        code, _, err = DaemonProcess(home, home.config(timeout=2)).start("--once").finish()
    assert code == 0, err
    assert_reports_written(home)
    assert "no notification shown" in home.log.read_text()


@pytest.mark.slow
def test_once_with_a_hung_notification_server_completes(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    one_tree(home)
    with session_bus(tmp_path / "bus", hang=True) as bus:
        home.bus_address = bus.address
        code, _, err = (
            DaemonProcess(home, home.config(timeout=1)).start("--once").finish(timeout=60)
        )
        assert len(bus.notifications()) == 1  # it was asked, and never answered
    assert code == 0, err
    assert_reports_written(home)
    assert "did not answer within 1.0 s" in home.log.read_text()


def test_corrupt_state_database_is_moved_aside_and_the_run_succeeds(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    one_tree(home)
    home.state.mkdir(parents=True)
    (home.state / "state.db").write_bytes(os.urandom(8192))
    code, _, err = DaemonProcess(home, home.config()).start("--once").finish()
    assert code == 0, err
    assert list(home.state.glob("state.db.corrupt-*"))
    assert "unreadable" in home.log.read_text()
    assert "recreated" in home.log.read_text()
    assert_reports_written(home)


@pytest.mark.slow
def test_deleted_tree_and_new_project_while_watched(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    doomed = one_tree(home, "-doomed")
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config()).start()
        try:
            assert daemon.wait_message("READY=1")
            assert bus.wait_for(1)  # the baseline run's notification
            shutil.rmtree(doomed.parent)
            fresh = one_tree(home, "-fresh")
            assert wait_for(
                lambda: str(fresh) in (home.log.read_text() if home.log.exists() else "")
            )
            (fresh / "a.md").write_text(memory("a", body=f"key {token()}"))
            assert wait_for(lambda: len(secret_alerts(bus.notifications())) == 1)
            assert daemon.process is not None
            assert daemon.process.poll() is None
        finally:
            code, _, err = daemon.stop()
    assert code == 0, err
    assert f"stopped watching {doomed}" in home.log.read_text()


@pytest.mark.slow
def test_5000_writes_in_10_seconds_give_one_coalesced_alert_missing_nothing(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = one_tree(home)
    files = [tree / f"burst_{i:02}.md" for i in range(50)]
    secrets = {path: token() for path in files}
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        # The debounce is well above the gap between two writes to one file (50 writes):
        # no file goes quiet until the burst ends, so the alerts arrive together.
        daemon = DaemonProcess(home, home.config(debounce=1.0, coalesce=1.0)).start()
        try:
            assert daemon.wait_message("READY=1")
            assert bus.wait_for(1)
            for write in range(5000):  # as fast as it goes: a few seconds on this machine
                path = files[write % 50]
                path.write_text(memory(path.stem, body=f"draft {write}: {secrets[path]}"))
            assert wait_for(lambda: secret_alerts(bus.notifications()), timeout=30)
            time.sleep(3)  # anything that would come late has had its chance
            alerts = secret_alerts(bus.notifications())
            assert [a["summary"] for a in alerts] == [
                "memory-audit: 50 possible secrets in 50 files"
            ]
            assert "…and 47 more" in str(alerts[0]["body"])
            assert daemon.process is not None
            assert daemon.process.poll() is None
        finally:
            code, _, err = daemon.stop()  # still answers SIGTERM after the storm
    assert code == 0, err
    with sqlite3.connect(home.state / "state.db") as db:
        assert db.execute("SELECT COUNT(*) FROM alerts WHERE kind = 'secret'").fetchone()[0] == 50
