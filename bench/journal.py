"""Journal benchmarks: the daemon's baseline of 50 trees, one change, a simulated year, and
what the journal's secret values cost the on-change alert.

.venv/bin/python bench/journal.py [baseline|change|year|alert]   (no name: all four)

- baseline: a real daemon process with 50 trees x 200 files; time from start to the
  "journal: baseline" log line, and the daemon's RSS right after.
- change: recording one changed file of a 200-file tree (what journaling adds to the
  write -> alert path), median of 50.
- year: 50 trees, 20 edits a day for 365 days (realistic sizes), written straight to the
  journal's store with retention applied each simulated week; the size on disk at the end.
- alert: the on-change secret scan of one changed file of a 200-file tree whose first file
  says a password, the tree's values kept between changes (as the daemon shares the
  journal's): the whole scan of the batch, and its look-up of the tree's secrets alone,
  median of 50.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memory_audit.config.settings import JournalSettings
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.daemon.journaling import JournalKeeper
from memory_audit.daemon.known_secrets import known_secrets
from memory_audit.journal.index import MODIFIED, Actor, NewVersion
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.journal.tree_values import TreeValues
from memory_audit.secrets.loading import ScannerConfig, secret_scanner

PASSWORD = "Quay" + "58" + "!!mk"  # a look-alike; a rule finds it after "password is"
WORDS = (
    "deploy staging review tests database migration schema cache queue worker retry token "
    "config branch release hotfix rollback metrics latency budget owner handoff ticket "
    "customer invoice billing ledger export import sync webhook payload timeout fixture"
).split()


def note(rng: random.Random, name: str, size: int) -> str:
    words = [rng.choice(WORDS) for _ in range(size // 7)]
    lines = [" ".join(words[i : i + 12]) + "." for i in range(0, len(words), 12)]
    header = f"---\nname: {name}\ndescription: {' '.join(words[:8])}\ntype: project\n---\n"
    return header + "\n".join(lines) + "\n"


def make_trees(home: Path, trees: int, files: int) -> list[Path]:
    rng = random.Random(7)
    roots = []
    for t in range(trees):
        root = home / ".claude/projects" / f"-work-p{t}" / "memory"
        root.mkdir(parents=True)
        index = ["# Index"]
        for f in range(files):
            name = f"project_note_{f:03}.md"
            (root / name).write_text(note(rng, name, rng.randint(600, 4000)))
            index.append(f"- [{name}]({name}) — notes {f}")
        (root / "MEMORY.md").write_text("\n".join(index) + "\n")
        roots.append(root)
    return roots


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def bench_baseline() -> None:
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        make_trees(home, 50, 200)
        config = home / "config.yaml"
        config.write_text("notify: {backend: none}\nschedule: {weekly: 'sun 09:00'}\n")
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "cfg"),
        }
        log = home / "state/memory-audit/log/daemon.log"
        start = time.perf_counter()
        daemon = subprocess.Popen(
            [sys.executable, "-m", "memory_audit", "daemon", "--config", str(config)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            while "journal: baseline" not in (log.read_text() if log.exists() else ""):
                time.sleep(0.02)
            elapsed = time.perf_counter() - start
            resident = rss_mb(daemon.pid)
        finally:
            daemon.terminate()
            daemon.wait()
        print(f"baseline: 50 trees x 200 files: {elapsed:.2f} s from start; RSS {resident:.0f} MB")


def bench_change() -> None:
    with tempfile.TemporaryDirectory() as folder:
        [root] = make_trees(Path(folder), 1, 200)
        journal = Journal(Path(folder) / "state")
        recorder = Recorder(
            journal.index, journal.blobs, secret_scanner(ScannerConfig(state_dir=folder)), 1 << 20
        )
        recorder.reconcile(root, 0.0, lambda *_: Actor("baseline"))
        rng = random.Random(3)
        times = []
        for i in range(50):
            target = root / f"project_note_{rng.randrange(200):03}.md"
            target.write_text(note(rng, target.name, 2000) + f"edit {i}\n")
            start = time.perf_counter()
            recorder.reconcile(root, float(i), lambda *_: Actor("outside"), {target.name})
            times.append(time.perf_counter() - start)
        times.sort()
        median, p95 = statistics.median(times) * 1000, times[int(len(times) * 0.95)] * 1000
        print(f"change: one file of a 200-file tree: median {median:.1f} ms, p95 {p95:.1f} ms")


def bench_alert() -> None:
    with tempfile.TemporaryDirectory() as folder:
        [root] = make_trees(Path(folder), 1, 200)
        said = root / "project_note_000.md"
        said.write_text(said.read_text() + f"the wifi password is {PASSWORD}\n")
        scanner = secret_scanner(ScannerConfig(state_dir=folder))
        values = TreeValues(1 << 20)
        _scan_all(set(root.glob("*.md")), root, scanner, 1 << 20, values)  # the sweep at start
        rng = random.Random(5)
        lookups: list[float] = []
        lookup_cpu: list[float] = []
        plain: list[float] = []
        repeating: list[float] = []
        for i in range(100):
            target = root / f"project_note_{rng.randrange(1, 200):03}.md"
            repeat = i % 2 == 1
            tail = f"ssh -p {PASSWORD} nas {i}\n" if repeat else f"edit {i}\n"
            target.write_text(note(rng, target.name, 2000) + tail)
            start, cpu = time.perf_counter(), time.thread_time()
            known_secrets(values, root, {target.name}, scanner)
            lookups.append(time.perf_counter() - start)
            lookup_cpu.append(time.thread_time() - cpu)
            start = time.perf_counter()
            [scan] = _scan_all({target}, root, scanner, 1 << 20, values)
            (repeating if repeat else plain).append(time.perf_counter() - start)
            assert bool(scan.repeats) == repeat
        print(
            f"alert: one changed file of a 200-file tree: the tree's secrets looked up in "
            f"{_ms(lookups)}, CPU {_ms(lookup_cpu)}; the batch's scan {_ms(plain)}, "
            f"{_ms(repeating)} when the file repeats the password (a repository lookup)"
        )


def _ms(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[int(len(times) * 0.95)]
    return f"median {statistics.median(times) * 1000:.1f} ms (p95 {p95 * 1000:.1f})"


def bench_year() -> None:
    rng = random.Random(11)
    day = 86400.0
    start = time.time() - 365 * day
    with tempfile.TemporaryDirectory() as folder:
        settings = JournalSettings()
        keeper = JournalKeeper(
            Path(folder), settings, lambda: secret_scanner(ScannerConfig(state_dir=folder))
        )
        journal = keeper.journal
        texts = {
            (t, f): note(rng, f"n{f}", rng.randint(600, 4000))
            for t in range(50)
            for f in range(200)
        }
        began = time.perf_counter()
        for d in range(365):
            batch = []
            for t in range(50):
                for e in range(20):
                    f = rng.randrange(200)
                    text = texts[(t, f)]
                    cut = rng.randrange(len(text))
                    text = text[:cut] + f" edit {d}.{e} " + text[cut:]
                    texts[(t, f)] = text
                    data = text.encode()
                    blob = journal.blobs.put(data)
                    at = start + d * day + e * 600
                    batch.append(
                        NewVersion(
                            f"/p{t}", f"n{f}.md", at, MODIFIED, blob, len(data), 0, Actor("outside")
                        )
                    )
            journal.index.add(batch)
            if d % 7 == 6:
                keeper.retain(start + (d + 1) * day)
        keeper.retain(start + 365 * day)
        stats = journal.stats()
        print(
            f"year: 50 trees, 20 edits a day, 365 days ({50 * 20 * 365:,} edits): "
            f"{stats.versions:,} versions kept, {stats.bytes_on_disk / 1e6:.1f} MB on disk "
            f"(simulated in {time.perf_counter() - began:.0f} s)"
        )


if __name__ == "__main__":
    benches = {
        "baseline": bench_baseline,
        "change": bench_change,
        "year": bench_year,
        "alert": bench_alert,
    }
    for name in sys.argv[1:] or list(benches):
        benches[name]()
