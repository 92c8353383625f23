"""Service benchmarks against a real daemon process, session bus and notification server.

    .venv/bin/python bench/service.py [--idle-seconds 600] [--alerts 40]

The daemon runs as the shipped unit runs it: ``WATCHDOG_USEC`` from its ``WatchdogSec=``.

- start to ready: process spawn to ``READY=1`` on ``$NOTIFY_SOCKET``, 50 trees of 200 files;
- start to first report: process spawn to the baseline run's ``latest/summary.json``;
- footprint: resident memory (VmRSS now, VmHWM peak) after the baseline audit of those trees;
- idle CPU: user+system CPU seconds over ``--idle-seconds`` with the 50 trees watched;
- latency: write of a new secret to the Notify call reaching the server, debounce 0.2 s;
- the same latency while another tree's 2 MB pathological MEMORY.md, which takes seconds
  to scan, is rewritten every 0.3 s (``--slow-tree``, or ``bench/run.py slow-tree``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import SessionBus, session_bus
from tests.support.slow_file import rewritten, slow_index

from bench.generate import generate

UNIT = Path(__file__).resolve().parent.parent / "service-files" / "memory-audit.service"
CONFIG = """\
watch: {debounce_seconds: 0.2}
notify: {max_per_hour: 1000}
"""


def proc_status(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])  # kB
    return fields


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime + stime
    return ticks / os.sysconf("SC_CLK_TCK")


def idle_cpu(pid: int, seconds: float, settle: float) -> float:
    """The daemon's CPU seconds over ``seconds`` of idling, once ``settle`` seconds passed
    (the journal's baseline runs first): what a measure of work subtracts."""
    time.sleep(settle)
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - before


def fifty_trees(home: Home) -> None:
    for number in range(50):
        generate(home.projects / f"-home-dev-project-{number:02}" / "memory", 200, seed=number)


def unit_watchdog_usec() -> int:
    """``WatchdogSec=`` of the unit we ship, in microseconds (what systemd passes)."""
    for line in UNIT.read_text().splitlines():
        if line.startswith("WatchdogSec="):
            return int(float(line.partition("=")[2]) * 1_000_000)
    raise ValueError(f"no WatchdogSec= in {UNIT}")


def start(home: Home) -> tuple[DaemonProcess, float, float]:
    """The daemon, seconds to READY=1, seconds to the first report (the baseline run's)."""
    config = home.root / "config.yaml"
    config.write_text(CONFIG)
    summary = home.reports / "latest" / "summary.json"
    started = time.monotonic()
    daemon = DaemonProcess(home, config, watchdog_usec=unit_watchdog_usec()).start()
    assert daemon.wait_message("READY=1", timeout=60), daemon.messages
    ready = time.monotonic() - started
    assert wait_for(summary.exists, timeout=300)
    return daemon, ready, time.monotonic() - started


def bench_fifty(work: Path, idle_seconds: float) -> None:
    home = Home(work / "fifty")
    fifty_trees(home)
    readies, reports = [], []
    for _ in range(3):
        _clear_reports(home)
        daemon, ready, report = start(home)
        readies.append(ready)
        reports.append(report)
        if len(readies) < 3:
            daemon.stop()
    print(
        f"start to ready, 50 trees x 200 files, WatchdogSec={unit_watchdog_usec() / 1e6:.0f} s:"
        f" median {statistics.median(readies):.2f} s"
        f" (runs: {', '.join(f'{r:.2f}' for r in readies)})"
    )
    print(
        f"start to first report written: median {statistics.median(reports):.2f} s "
        f"(runs: {', '.join(f'{r:.2f}' for r in reports)})"
    )
    try:
        time.sleep(2)
        assert daemon.process is not None
        pid = daemon.process.pid
        status = proc_status(pid)
        print(
            f"memory after the baseline audit: VmRSS {status['VmRSS'] / 1024:.0f} MB, "
            f"peak VmHWM {status['VmHWM'] / 1024:.0f} MB"
        )
        minutes = []  # minute by minute: the journal's baseline runs in the first ones
        for _ in range(max(1, round(idle_seconds / 60))):
            before = cpu_seconds(pid)
            time.sleep(60)
            minutes.append(cpu_seconds(pid) - before)
        used = sum(minutes)
        print(
            f"CPU over {60 * len(minutes)} s after the first report, 50 trees watched: "
            f"{used:.2f} s ({used * 10 / len(minutes):.2f} s per 10 min); minute by minute: "
            f"{', '.join(f'{m:.2f}' for m in minutes)}"
        )
    finally:
        daemon.stop()


def _clear_reports(home: Home) -> None:
    """A first start each time: no reports, no state (else the baseline is not run again)."""
    for folder in (home.reports.parent, home.state):
        if folder.exists():
            shutil.rmtree(folder)


def bench_latency(work: Path, alerts: int) -> None:
    home = Home(work / "latency")
    tree = write_tree(
        home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    with session_bus(work / "bus") as bus:
        home.bus_address = bus.address
        daemon, _, _ = start(home)
        try:
            assert bus.wait_for(1)  # baseline
            latencies = secret_latencies(bus, tree, alerts)
        finally:
            daemon.stop()
    print(f"write to notification, debounce 0.2 s, {alerts} alerts: {spread(latencies)}")


def bench_latency_beside_slow_tree(work: Path, alerts: int) -> None:
    """The same, while another tree's 2 MB MEMORY.md, seconds to scan, is rewritten."""
    home = Home(work / "latency-slow")
    slow = write_tree(home.projects / "-slow" / "memory", {"MEMORY.md": slow_index()})
    tree = write_tree(
        home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    with session_bus(work / "bus-slow") as bus:
        home.bus_address = bus.address
        daemon, _, _ = start(home)
        try:
            assert bus.wait_for(1, timeout=300)  # baseline: the audit reads the slow file too
            with rewritten(slow / "MEMORY.md"):
                time.sleep(2)  # the slow tree's scans are under way
                latencies = secret_latencies(bus, tree, alerts)
        finally:
            daemon.stop()
    print(
        f"write to notification while another tree's 2 MB pathological MEMORY.md is "
        f"rewritten every 0.3 s, debounce 0.2 s, {alerts} alerts: {spread(latencies)}"
    )


def secret_latencies(bus: SessionBus, tree: Path, alerts: int) -> list[float]:
    """Seconds from writing a new secret into ``tree`` to its notification, one by one."""
    latencies = []
    for number in range(alerts):
        before = len(bus.notifications())
        path = tree / f"note_{number:03}.md"
        path.write_text(memory(f"n{number}", body=f"token {github_token('ghp_', rnd(ALNUM, 36))}"))
        written = time.time()
        found = bus.wait_for(before + 1, timeout=60)
        latencies.append(float(str(found[-1]["time"])) - written)
        time.sleep(0.3)
    return latencies


def spread(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return f"median {statistics.median(ordered):.3f} s, p95 {p95:.3f} s, max {ordered[-1]:.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--idle-seconds", type=float, default=600.0)
    parser.add_argument("--alerts", type=int, default=40)
    parser.add_argument("--slow-tree", action="store_true", help="only the latency beside it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-audit-service-") as work:
        bench_latency_beside_slow_tree(Path(work), args.alerts)
        if args.slow_tree:
            return
        bench_latency(Path(work), args.alerts)
        bench_fifty(Path(work), args.idle_seconds)


if __name__ == "__main__":
    main()
