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
try:
    done = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          timeout=float(sys.argv[1]))
    size, code = len(done.stdout), done.returncode
except subprocess.TimeoutExpired:
    size, code = 0, -9
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.perf_counter() - start, usage.ru_maxrss, size, code, usage.ru_utime + usage.ru_stime)
"""
TIMEOUT = 900.0


def measure(
    command: list[str], env: dict[str, str] | None = None
) -> tuple[float, float, int, float]:
    """Wall seconds, peak MB, output bytes and CPU seconds of one run of ``command`` in a
    fresh process; killed after :data:`TIMEOUT` seconds (then the output size is 0)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(TIMEOUT), *command],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak_kb, size, code, cpu = done.stdout.split()
    if int(code) not in (0, 1, -9):
        raise RuntimeError(f"{command} exited {code}")
    return float(seconds), int(peak_kb) / 1024, int(size), float(cpu)


def compile_bytecode(folder: Path | None = None) -> None:
    """Bytecode for every module of the package (or of ``folder``), as ``pip install`` writes
    it. Run from a source checkout under ``PYTHONDONTWRITEBYTECODE`` (as here), every process
    would otherwise compile ~100 modules again: 10-15 ms of the session hook, ~0.1 s of an
    audit, which no installed copy pays."""
    if folder is None:
        import memory_audit  # noqa: PLC0415 - the package as this interpreter finds it

        folder = Path(memory_audit.__file__).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder)], check=True)


def isolated_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "HOME": str(home)}
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    env["XDG_DATA_HOME"] = str(home / ".local/share")
    env["XDG_STATE_HOME"] = str(home / ".local/state")
    env.pop("CLAUDE_CONFIG_DIR", None)
    return env


def audit_command(tree: Path, output: Path) -> list[str]:
    command = [sys.executable, "-m", "memory_audit", "audit", "--format", "json"]
    return [*command, "--output", str(output), str(tree)]


CASES = (
    ("realistic", 1_000, None, 5),
    ("realistic", 10_000, None, 3),
    ("small vocabulary (300 words)", 10_000, 300, 3),
    ("realistic", 50_000, None, 1),
    ("small vocabulary (300 words)", 50_000, 300, 1),
)


def bench_audit_process(work: Path, sizes: tuple[int, ...] = (1_000, 10_000, 50_000)) -> None:
    """`memory-audit audit --format json TREE`, every dimension, against the floor."""
    env = isolated_env(work / "audit-home")
    for label, files, vocabulary, repeats in CASES:
        if files not in sizes:
            continue
        tree = memory_tree(work / f"tree-{files}-{vocabulary}", files, vocabulary=vocabulary)
        floor = [measure([sys.executable, str(BENCH / "floor.py"), str(tree)])]
        output = work / "report.json"
        output.unlink(missing_ok=True)
        runs = [measure(audit_command(tree, output), env) for _ in range(repeats)]
        floor += [measure([sys.executable, str(BENCH / "floor.py"), str(tree)])]
        seconds = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[3] for r in runs)
        floor_seconds, floor_cpu = min(f[0] for f in floor), min(f[3] for f in floor)
        done = output.exists() and max(r[0] for r in runs) < TIMEOUT
        findings = _findings(output) if done else f"killed after {TIMEOUT:.0f} s"
        print(
            f"audit, whole process, {files:,} files, {label}: median {seconds:.2f} s "
            f"(runs: {', '.join(f'{r[0]:.2f}' for r in runs)}), CPU {cpu:.2f} s, peak "
            f"{max(r[1] for r in runs):.0f} MB, {findings}; floor {floor_seconds:.2f} s "
            f"(CPU {floor_cpu:.2f} s), ratio {seconds / floor_seconds:.1f} "
            f"(CPU {cpu / floor_cpu:.1f})"
        )


def _findings(output: Path) -> str:
    [report] = json.loads(output.read_text(encoding="utf-8"))["reports"]
    counts = report["counts"]
    size = output.stat().st_size / 1e6
    duplicates = counts.get("duplicates", 0)
    return f"{sum(counts.values())} findings ({duplicates} duplicates), {size:.1f} MB JSON"


def timed_runs(
    command: list[str], env: dict[str, str], stdin: str, repeats: int
) -> tuple[list[float], float]:
    """Wall seconds of each run, and the mean CPU seconds (user + system) of one run: on a
    busy machine the wall time says more about the neighbours than about the command."""
    times = []
    before = os.times()
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, input=stdin, env=env, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
    after = os.times()
    cpu = after.children_user + after.children_system
    return times, (cpu - before.children_user - before.children_system) / repeats
