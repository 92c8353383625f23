"""A chat log kept inside a memory folder, growing while a real daemon watches the tree.

    .venv/bin/python bench/memory_log_follow.py [--initial-mb 4] [--interval 3] [--seconds 60]

Agents' workspaces keep their raw chat logs under ``memory/`` (``memory/raw/chat.jsonl``);
the secret check reads them (files that are no memories, for secrets only), and so does
the on-change alert. The log starts ``--initial-mb`` long and gets one record (prose from
the Zipf vocabulary, in a chat bridge's JSON shape) every ``--interval`` seconds; the
record written after a quarter of the run holds a token. The daemon runs with the shipped
debounce (2 s). Measured: the daemon's CPU (user + system, from /proc) while the log
grows, less its CPU over as long idle just before, as a share of one core; and seconds
from the token's append to its notification reaching the notification server.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import session_bus

from bench.corpus import words
from bench.service import cpu_seconds, idle_cpu, unit_watchdog_usec

CONFIG = """\
watch: {debounce_seconds: 2.0}
notify: {max_per_hour: 1000, coalesce_seconds: 0.5}
"""
LOG = "raw/chat.jsonl"


def record(rng: random.Random, number: int, extra: str = "") -> str:
    text = " ".join(words(rng, rng.randint(10, 120))) + extra
    return json.dumps(
        {
            "update_id": 700000 + number,
            "date": 1780000000 + 30 * number,
            "from": {"id": 4242, "first_name": "Dev"} if number % 2 else {"id": 1, "is_bot": True},
            "text": text,
        },
        ensure_ascii=False,
    )


def bench(work: Path, initial_mb: float, interval: float, seconds: float) -> None:
    rng = random.Random(7)
    work.mkdir(parents=True, exist_ok=True)
    home = Home(work / "memory-log")
    tree = write_tree(
        home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    log = tree / LOG
    log.parent.mkdir(parents=True)
    lines, size, number = [], 0, 0
    while size < initial_mb * 1e6:
        lines.append(record(rng, number))
        size += len(lines[-1]) + 1
        number += 1
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = home.root / "config.yaml"
    config.write_text(CONFIG)
    appends = max(1, round(seconds / interval))
    planted_at = appends // 4
    token = github_token("ghp_", rnd(ALNUM, 36))
    with session_bus(work / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, config, watchdog_usec=unit_watchdog_usec()).start()
        try:
            assert daemon.wait_message("READY=1", timeout=60), daemon.messages
            assert wait_for((home.reports / "latest" / "summary.json").exists, timeout=300)
            assert bus.wait_for(1, timeout=300)  # the baseline run's notification
            assert daemon.process is not None
            pid = daemon.process.pid
            idle = idle_cpu(pid, seconds, settle=10)
            notified = len(bus.notifications())
            written_at = 0.0
            before = cpu_seconds(pid)
            began = time.monotonic()
            with log.open("a", encoding="utf-8") as handle:
                for step in range(appends):
                    extra = f" here is the bot token: {token}" if step == planted_at else ""
                    handle.write(record(rng, number + step, extra) + "\n")
                    handle.flush()
                    if extra:
                        written_at = time.time()
                    time.sleep(max(0.0, began + (step + 1) * interval - time.monotonic()))
            elapsed = time.monotonic() - began
            found = bus.wait_for(notified + 1, timeout=120)
            busy = cpu_seconds(pid) - before
        finally:
            daemon.stop()
    alerted = [n for n in found[notified:] if token[:4] in str(n.get("body", ""))]
    latency = (
        f"{float(str(alerted[0]['time'])) - written_at:.1f} s after its append"
        if alerted
        else "NOT alerted"
    )
    print(
        f"a {initial_mb:g} MB chat log under memory/, one record every {interval:g} s for "
        f"{elapsed:.0f} s: daemon CPU {busy:.2f} s, idle over as long {idle:.2f} s, "
        f"{100 * (busy - idle) / elapsed:.1f}% of one core for the log; the token {latency}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--initial-mb", type=float, default=4.0)
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between records")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-audit-bench-") as work:
        bench(Path(work), args.initial_mb, args.interval, args.seconds)


if __name__ == "__main__":
    main()
