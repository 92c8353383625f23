"""Runs a crash cut short: marked `interrupted`, their half-written folders cleaned, by the
next daemon start or `--once`, never while another daemon may be mid-run."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

from memory_audit.store.instance import InstanceLock
from memory_audit.store.state import State
from tests.harness import index, memory, write_tree
from tests.support.daemon_process import DaemonProcess, Home


def crashed_run(home: Home) -> Path:
    """What kill -9 during a weekly run leaves: a `running` row and a `.tmp-*` folder."""
    state = State(home.state)
    state.begin_run("weekly", dt.datetime(2026, 11, 29, 9, 0).astimezone())
    state.close()
    leftover = home.reports / ".tmp-2026-11-29T090000-4242"
    leftover.mkdir(parents=True)
    (leftover / "summary.md").write_text("half")
    return leftover


def statuses(home: Home) -> list[str]:
    with sqlite3.connect(home.state / "state.db") as db:
        return [row[0] for row in db.execute("SELECT status FROM runs ORDER BY id")]


def test_once_marks_a_crashed_run_interrupted_and_removes_its_folder(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    leftover = crashed_run(home)
    code, _, err = DaemonProcess(home, home.config()).start("--once").finish()
    assert code == 0, err
    assert statuses(home) == ["interrupted", "ok"]
    assert not leftover.exists()


def test_once_leaves_a_running_daemons_work_alone(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    leftover = crashed_run(home)
    lock = InstanceLock(home.state)  # stands for a daemon in the middle of its own run
    lock.acquire()
    try:
        code, _, err = DaemonProcess(home, home.config()).start("--once").finish()
    finally:
        lock.release()
    assert code == 0, err
    assert statuses(home) == ["running", "ok"]
    assert leftover.exists()
