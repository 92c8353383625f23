"""The real daemon stays responsive tree by tree: a slow tree delays no other tree's alert,
a flood of identical failures cannot rotate the log away, an audit child dies with a
killed daemon, and a config file that is not a regular file never hangs a reload."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory_audit.daemon.log_limit import BURST
from tests.e2e.test_daemon_under_load import audit_children, hold, log_text, pathological_tree
from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import SessionBus, session_bus
from tests.support.slow_file import SLOW_HITS, rewritten, slow_index


def small_tree(home: Home, slug: str) -> Path:
    return write_tree(
        home.projects / slug / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )


def stop_or_kill(daemon: DaemonProcess) -> None:
    """Stop the daemon; kill it if it hangs (it did, on a FIFO, before the fix)."""
    try:
        daemon.stop()
    except subprocess.TimeoutExpired:
        assert daemon.process is not None
        daemon.process.kill()
        daemon.stop()


# The slow file's own secret, named in its alert by place and kind (the tree's other
# notification, the index past its budget, names the file too).
SLOWER_HITS = 4 * SLOW_HITS  # a scan several times the debounce and the alert's delay
SLOW_SECRET = f"MEMORY.md:{SLOWER_HITS + 2} GitHub"


def notified_about(bus: SessionBus, name: str) -> list[dict[str, object]]:
    return [n for n in bus.notifications() if name in str(n["body"])]


@pytest.mark.slow
def test_a_secret_alerts_before_another_trees_slow_scan_ends(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    slow = write_tree(home.projects / "-slow" / "memory", {"MEMORY.md": slow_index(0)})
    fast = small_tree(home, "-fast")
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config()).start()
        try:
            assert daemon.wait_message("READY=1")
            # The weekly audit reads the slow file too, in its own process: held, so the
            # daemon's scans have the machine to themselves.
            assert wait_for(lambda: audit_children(home) != [])
            hold(audit_children(home), signal.SIGSTOP)
            # The start's scan of the slow tree is over once it alerts for the index's size.
            assert wait_for(lambda: notified_about(bus, "-slow: MEMORY.md is") != [], timeout=60)
            # The slow file now ends in a secret of its own: its alert comes when a scan of
            # it ends, seconds after it starts. The other tree's secret, written once that
            # scan is under way, must not wait for it.
            tail = f"key {github_token('ghp_', rnd(ALNUM, 36))}\n"
            with rewritten(slow / "MEMORY.md", tail=tail, hits=SLOWER_HITS):
                time.sleep(1)  # past the debounce: the slow tree's scan is under way
                (fast / "leak.md").write_text(
                    memory("leak", body=f"key {github_token('ghp_', rnd(ALNUM, 36))}")
                )
                assert wait_for(lambda: notified_about(bus, "leak.md") != [], timeout=30)
                assert wait_for(lambda: notified_about(bus, SLOW_SECRET) != [], timeout=60)
        finally:
            daemon.stop()
    bodies = [str(n["body"]) for n in bus.notifications()]
    leak = next(i for i, body in enumerate(bodies) if "leak.md" in body)
    slow_alert = next(i for i, body in enumerate(bodies) if SLOW_SECRET in body)
    assert leak < slow_alert, bodies


@pytest.mark.slow
def test_a_failure_repeated_at_every_change_is_logged_a_few_times_with_a_count(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    tree = small_tree(home, "-app")
    config = home.config(debounce=0.05)
    missing = tmp_path / "patterns-gone.md"  # every scan fails: the rules are unavailable
    config.write_text(config.read_text() + f"checks: {{secrets: {{patterns: {missing}}}}}\n")
    daemon = DaemonProcess(home, config).start()
    try:
        assert daemon.wait_message("READY=1")
        assert wait_for(lambda: "secret alerts paused" in log_text(home))
        for number in range(120):
            (tree / "a.md").write_text(memory("a", body=f"edit {number}"))
            time.sleep(0.1)
    finally:
        daemon.stop()
    text = log_text(home)
    paused = [line for line in text.splitlines() if "secret alerts paused" in line]
    assert len(paused) <= BURST + 1  # the summary line quotes the last one
    counted = re.search(r"repeated ([\d,]+) more times .* secret alerts paused", text)
    assert counted is not None, text[-2000:]
    assert int(counted[1].replace(",", "")) >= 50


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU the processes used (0 for one that is gone)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@pytest.mark.slow
def test_the_audit_child_dies_with_a_daemon_killed_mid_audit(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    pathological_tree(home)
    daemon = DaemonProcess(home, home.config()).start()
    assert daemon.process is not None
    try:
        assert daemon.wait_message("READY=1")
        assert wait_for(lambda: audit_children(home) != [])
        # Held once past its start-up, in its audit: an audit that does not end by itself.
        assert wait_for(lambda: cpu_seconds(audit_children(home)) >= 1.0)
        hold(audit_children(home), signal.SIGSTOP)
        daemon.signal(signal.SIGKILL)
        daemon.process.wait(timeout=10)
        assert wait_for(lambda: audit_children(home) == [], timeout=5)
    finally:
        hold(audit_children(home), signal.SIGKILL)  # none, unless the test failed
        daemon.stop()


@pytest.mark.slow
def test_a_reload_from_a_fifo_is_refused_and_the_daemon_alerts_on(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = small_tree(home, "-app")
    config = home.config()
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, config).start()
        try:
            assert daemon.wait_message("READY=1")
            config.unlink()
            os.mkfifo(config)  # opened for reading, it blocks until someone writes
            daemon.signal(signal.SIGHUP)
            assert wait_for(lambda: "configuration reload failed" in log_text(home))
            (tree / "leak.md").write_text(
                memory("leak", body=f"key {github_token('ghp_', rnd(ALNUM, 36))}")
            )
            assert wait_for(lambda: notified_about(bus, "leak.md") != [])
            status = subprocess.run(
                [sys.executable, "-m", "memory_audit", "status", "--config", str(config)],
                capture_output=True,
                text=True,
                env=home.env(),
                timeout=20,
                check=False,
            )
        finally:
            stop_or_kill(daemon)
    expected = f"config file {config} is a named pipe (FIFO), not a regular file"
    assert expected in log_text(home)
    assert (status.returncode, expected in status.stderr) == (2, True)
