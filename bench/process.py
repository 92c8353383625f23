"""Whole-process benchmarks: the command a user runs, interpreter start included.

Each figure is the wall time of a new process (median of several), its peak resident
memory (``ru_maxrss`` of that child alone), and for the audit the read-and-parse floor
(``bench/floor.py``) on the same tree.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.corpus import memory_tree

BENCH = Path(__file__).resolve().parent
MEASURE = """\
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
      len(done.stdout), done.returncode)
"""


def measure(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Seconds, peak MB and output bytes of one run of ``command`` in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *command],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak_kb, size, code = done.stdout.split()
    if int(code) not in (0, 1):
        raise RuntimeError(f"{command} exited {code}")
    return float(seconds), int(peak_kb) / 1024, int(size)


def isolated_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "HOME": str(home)}
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    env["XDG_DATA_HOME"] = str(home / ".local/share")
    env["XDG_STATE_HOME"] = str(home / ".local/state")
    env.pop("CLAUDE_CONFIG_DIR", None)
    return env


def audit_command(tree: Path) -> list[str]:
    return [sys.executable, "-m", "memory_audit", "audit", "--format", "json", str(tree)]


def bench_audit_process(work: Path) -> None:
    """`memory-audit audit --format json TREE`, every dimension, against the floor."""
    env = isolated_env(work / "audit-home")
    cases = [
        ("realistic", 1_000, None, 5),
        ("realistic", 10_000, None, 3),
        ("small vocabulary (300 words)", 10_000, 300, 3),
        ("realistic", 50_000, None, 1),
        ("small vocabulary (300 words)", 50_000, 300, 1),
    ]
    for label, files, vocabulary, repeats in cases:
        tree = memory_tree(work / f"tree-{files}-{vocabulary}", files, vocabulary=vocabulary)
        floor = [measure([sys.executable, str(BENCH / "floor.py"), str(tree)])[0]]
        runs = [measure(audit_command(tree), env) for _ in range(repeats)]
        floor += [measure([sys.executable, str(BENCH / "floor.py"), str(tree)])[0]]
        seconds = statistics.median(r[0] for r in runs)
        findings = _findings(tree, env)
        print(
            f"audit, whole process, {files:,} files, {label}: median {seconds:.2f} s "
            f"(runs: {', '.join(f'{r[0]:.2f}' for r in runs)}), peak "
            f"{max(r[1] for r in runs):.0f} MB, JSON {runs[-1][2] / 1e6:.1f} MB, "
            f"{findings}; floor {min(floor):.2f} s, ratio {seconds / min(floor):.1f}"
        )


def _findings(tree: Path, env: dict[str, str]) -> str:
    done = subprocess.run(audit_command(tree), env=env, capture_output=True, text=True, check=False)
    [report] = json.loads(done.stdout)["reports"]
    counts = report["counts"]
    return f"{sum(counts.values())} findings ({counts.get('duplicates', 0)} duplicates)"


def timed_runs(command: list[str], env: dict[str, str], stdin: str, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, input=stdin, env=env, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
    return times
