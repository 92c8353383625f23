"""Following a session transcript: a real daemon while a simulated session writes 1 MB/s.

    .venv/bin/python bench/transcript_follow.py [--seconds 60] [--rate 1000000] [--alerts 30]

The session appends records shaped like Claude Code's (user turns and tool results of
prose from the Zipf vocabulary, one in 200 holding a token) every 50 ms. Measured: the
daemon's CPU (user + system, from /proc) while the session writes, less its CPU over as
long idle just before, as a share of one core; and how many of the planted tokens alerted.

``--alerts N`` measures the alert's latency instead: N sessions, one after another, each
appending one record that holds a token; seconds from the append to the Notify call
reaching the notification server (debounce 0.2 s, coalescing 0.5 s).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import session_bus

from bench.corpus import words
from bench.service import cpu_seconds, idle_cpu, spread, start

TICK = 0.05
TABLES = ("alerts", "pending_alerts")
PLANT_EVERY = 20  # ticks
SESSION = "0b5e7a1c-2222-4333-8444-555566667777"


def record(text: str, number: int, session: str = SESSION) -> str:
    content: list[dict[str, str]] = (
        [{"type": "text", "text": text}]
        if number % 3
        else [{"type": "tool_result", "tool_use_id": f"t{number}", "content": text}]
    )
    return json.dumps(
        {
            "type": "user",
            "sessionId": session,
            "uuid": f"{number:08x}-0000-4000-8000-000000000000",
            "timestamp": "2026-12-01T16:04:00.000Z",
            "cwd": "/home/dev/app",
            "message": {"role": "user", "content": content},
        }
    )


def session_lines(rate: int, seconds: float, seed: int = 7) -> list[list[str]]:
    """What the session appends at each tick: about ``rate * TICK`` bytes of records."""
    rng = random.Random(seed)
    chunks = []
    for tick in range(round(seconds / TICK)):
        lines: list[str] = []
        size = 0
        while size < rate * TICK:
            text = " ".join(words(rng, rng.randint(40, 400)))
            if not lines and tick % PLANT_EVERY == 0:  # one token a second
                text += f" export GITHUB_TOKEN={github_token('ghp_', rnd(ALNUM, 36))}"
            line = record(text, len(lines))
            lines.append(line)
            size += len(line) + 1
        chunks.append(lines)
    return chunks


def bench(work: Path, seconds: float, rate: int) -> None:
    home = Home(work / "transcript-follow")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    chunks = session_lines(rate, seconds)
    planted = sum("ghp_" in line for lines in chunks for line in lines)
    transcript = home.projects / "-app" / f"{SESSION}.jsonl"
    with session_bus(work / "bus-transcripts") as bus:
        home.bus_address = bus.address
        daemon, _, _ = start(home)
        try:
            assert bus.wait_for(1, timeout=300)  # the baseline run
            assert daemon.process is not None
            pid = daemon.process.pid
            idle = idle_cpu(pid, seconds, settle=5)
            written = 0
            before = cpu_seconds(pid)
            began = time.monotonic()
            with transcript.open("a", encoding="utf-8") as handle:
                for number, lines in enumerate(chunks):
                    data = "\n".join(lines) + "\n"
                    handle.write(data)
                    handle.flush()
                    written += len(data.encode())
                    time.sleep(max(0.0, began + (number + 1) * TICK - time.monotonic()))
            elapsed = time.monotonic() - began
            time.sleep(2)  # the last reads
            busy = cpu_seconds(pid) - before
            alerted = wait_for(lambda: _alerted(home) >= planted, timeout=30)
        finally:
            daemon.stop()
    share = (busy - idle) / elapsed
    print(
        f"session writing {written / elapsed / 1e6:.2f} MB/s for {elapsed:.0f} s "
        f"({written / 1e6:.0f} MB): daemon CPU {busy:.2f} s, idle over as long {idle:.2f} s, "
        f"{100 * share:.1f}% of one core for the transcript; "
        f"{_alerted(home)} of {planted} planted tokens alerted ({'all' if alerted else 'NOT all'})"
    )


def bench_latency(work: Path, alerts: int) -> None:
    """Seconds from a session's append of a token to its notification, session by session
    (a session alerts once for a value, so each measure has a session of its own)."""
    home = Home(work / "transcript-latency")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    latencies = []
    with session_bus(work / "bus-transcript-latency") as bus:
        home.bus_address = bus.address
        daemon, _, _ = start(home)
        try:
            assert bus.wait_for(1, timeout=300)  # the baseline run
            for number in range(alerts):
                session = f"{number:08x}-3333-4444-8555-666677778888"
                transcript = home.projects / "-app" / f"{session}.jsonl"
                transcript.write_text(record("hello", 0, session) + "\n", encoding="utf-8")
                time.sleep(1.0)  # the new transcript is followed
                before = len(bus.notifications())
                with transcript.open("a", encoding="utf-8") as handle:
                    handle.write(
                        record(f"use {github_token('ghp_', rnd(ALNUM, 36))}", 1, session) + "\n"
                    )
                written = time.time()
                found = bus.wait_for(before + 1, timeout=60)
                latencies.append(float(str(found[-1]["time"])) - written)
        finally:
            daemon.stop()
    print(
        f"a token appended to a session's transcript, to its notification, {alerts} sessions: "
        f"{spread(latencies)}"
    )


def _alerted(home: Home) -> int:
    """Alerts raised for the session, sent or waiting (the log sums up past 20 a minute)."""
    with contextlib.closing(sqlite3.connect(home.state / "state.db")) as db:
        query = "SELECT COUNT(*) FROM {} WHERE kind = 'transcript'"
        return sum(int(db.execute(query.format(t)).fetchone()[0]) for t in TABLES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=int, default=1_000_000, help="bytes a second")
    parser.add_argument("--alerts", type=int, default=0, help="measure latency instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-audit-bench-") as work:
        if args.alerts:
            bench_latency(Path(work), args.alerts)
        else:
            bench(Path(work), args.seconds, args.rate)


if __name__ == "__main__":
    main()
