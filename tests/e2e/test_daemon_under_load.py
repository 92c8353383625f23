"""The real daemon while its audit chews on pathological files: signals, watchdog pings
and secret alerts keep flowing, and SIGTERM stops it at once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import session_bus

BIG_FILES = 16  # ~0.5 s of audit each on these machines: several seconds in all


def pathological_tree(home: Home) -> Path:
    """Memory files, and MEMORY.md, each holding one 1 MB line that is nearly all link syntax."""
    files = {f"big_{i:02}.md": f"big_{i:02}" for i in range(BIG_FILES)}
    text = index(*files) + "](" + "[" * 1_000_000 + "\n"
    tree = write_tree(home.projects / "-big" / "memory", {"MEMORY.md": text})
    for i, name in enumerate(files):
        line = "](" + "[" * 1_000_000 if i % 2 == 0 else "[[" * 500_000
        (tree / name).write_text(memory(name.removesuffix(".md"), body=line))
    return tree


def log_text(home: Home) -> str:
    return home.log.read_text() if home.log.exists() else ""


def audit_children(home: Home) -> list[int]:
    """Audit processes started for this home (found by their environment)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        if b"memory_audit.daemon.audit_process" in command and (
            f"HOME={home.root}".encode() in environment.split(b"\0")
        ):
            found.append(int(entry.name))
    return found


def hold(pids: list[int], sign: signal.Signals) -> None:
    """Stop (SIGSTOP) or resume (SIGCONT) the audit processes. A held audit is a long audit
    on any machine: the 1 MB lines alone take a faster machine (or a faster audit) only a
    second or two, and the test must not depend on how long."""
    for pid in pids:
        os.kill(pid, sign)


def pings(daemon: DaemonProcess) -> int:
    """WATCHDOG=1 messages received so far (reading what has arrived)."""
    daemon.wait_message("never sent", timeout=0.1)
    return daemon.messages.count("WATCHDOG=1")


@pytest.mark.slow
def test_alerts_pings_and_sigterm_are_not_held_up_by_a_long_audit(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    pathological_tree(home)
    small = write_tree(
        home.projects / "-small" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    token = github_token("ghp_", rnd(ALNUM, 36))
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config()).start()
        assert daemon.process is not None
        try:
            assert daemon.wait_message("READY=1")
            assert wait_for(lambda: "weekly audit started" in log_text(home))
            assert wait_for(lambda: audit_children(home) != [])
            auditing = audit_children(home)
            hold(auditing, signal.SIGSTOP)
            pings_at_start = pings(daemon)

            # (a) a secret written meanwhile alerts, while the audit is still running
            (small / "leak.md").write_text(memory("leak", body=f"deploy key {token}"))
            assert wait_for(
                lambda: any("possible secret" in str(n["summary"]) for n in bus.notifications())
            )
            assert "weekly audit:" not in log_text(home)
            assert audit_children(home) != []

            # the watchdog kept being fed (every second here) during the audit
            assert wait_for(lambda: pings(daemon) >= pings_at_start + 2, timeout=5)
            assert "weekly audit:" not in log_text(home)

            # (b) SIGTERM mid-audit: out within 2 s, status 0
            hold(auditing, signal.SIGCONT)  # busy again, on its pathological lines
            daemon.signal(signal.SIGTERM)
            code = daemon.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pytest.fail("the daemon did not exit within 2 s of SIGTERM")
        finally:
            daemon.stop()
    assert code == 0
    assert audit_children(home) == []  # the audit process went with it
    with sqlite3.connect(home.state / "state.db") as db:
        runs = db.execute("SELECT kind, status FROM runs").fetchall()
    assert runs == [("weekly", "interrupted")]
    assert not (home.reports / "latest").exists()
    left = list(home.reports.iterdir()) if home.reports.exists() else []
    assert [p.name for p in left] in ([], [".memory-audit-reports"])  # no run, no temp
    assert "weekly audit interrupted; no report written" in log_text(home)
    assert token not in log_text(home)


@pytest.mark.slow
def test_once_cut_short_by_sigterm_exits_at_once_and_records_the_run_interrupted(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    pathological_tree(home)
    daemon = DaemonProcess(home, home.config()).start("--once")
    assert daemon.process is not None
    try:
        assert wait_for(lambda: "once audit started" in log_text(home))
        assert wait_for(lambda: audit_children(home) != [])
        daemon.signal(signal.SIGTERM)  # the 1 MB lines take seconds: still auditing
        code = daemon.process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pytest.fail("--once did not exit within 2 s of SIGTERM")
    finally:
        daemon.stop()
    assert code == 3  # no report: the run did not complete
    assert audit_children(home) == []
    with sqlite3.connect(home.state / "state.db") as db:
        assert db.execute("SELECT kind, status FROM runs").fetchall() == [("once", "interrupted")]
    assert not (home.reports / "latest").exists()
