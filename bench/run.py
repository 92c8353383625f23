"""Benchmarks. Each prints its numbers; docs/benchmarks.md records them with this command.

.venv/bin/python bench/run.py [hook secrets audit ...]   (no name: all of them)

``hook``, ``secrets``, ``audit``, ``service``, ``slow-tree``, ``transcript-follow`` and
``transcript-alert`` measure whole processes, as
users feel them; ``duplicates`` and ``transcripts`` time one part in-process. ``secrets``
installs gitleaks and detect-secrets into a venv of their own (build/bench-venv) on first use.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import shlex
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memory_audit.checks import DIMENSIONS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import memory_log_follow, service, transcript_follow
from bench.corpus import secret_corpus
from bench.generate import PROJECT, generate, restatements, transcript_corpus
from bench.process import bench_audit_process, compile_bytecode, isolated_env, timed_runs
from bench.sweep import compare
from memory_audit.checks import REGISTRY, coverage, duplicates, usage
from memory_audit.engine import audit_tree
from memory_audit.install.claude import hook_command
from memory_audit.model.run import Run
from memory_audit.sources.sessions import cache_file
from memory_audit.store.dismissals import DB_NAME
from memory_audit.store.reports import ReportStore
from memory_audit.store.state import State
from memory_audit.tree.snapshot import ProjectLocation, load_tree

REPEATS = 5


def timed(action: Callable[[], object], repeats: int = REPEATS) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def cpu_timed(action: Callable[[], object], repeats: int = 3) -> list[float]:
    """CPU seconds of this process per run: steadier than wall time on a shared machine."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return times


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times):.3f} s (min {min(times):.3f}, max {max(times):.3f})"


PATHOLOGICAL_SIZE = 1_000_000  # under the 1 MiB file cap: the line is read, not skipped
PATHOLOGICAL_LINES = {
    "](+[": "](" + "[" * PATHOLOGICAL_SIZE,
    "[[": "[[" * (PATHOLOGICAL_SIZE // 2),
    "backticks": "x" + "`" * PATHOLOGICAL_SIZE,
    "nested []": "[" * (PATHOLOGICAL_SIZE // 2) + "]" * (PATHOLOGICAL_SIZE // 2),
    "no newline": "word/" + "x" * PATHOLOGICAL_SIZE,
}


def bench_pathological(work: Path) -> None:
    """Full audit of a tree whose memory file and MEMORY.md each hold one 1 MB line."""
    for name, line in PATHOLOGICAL_LINES.items():
        root = work / f"pathological-{len(name)}-{abs(hash(name))}"
        root.mkdir()
        (root / "MEMORY.md").write_text(f"- [A](a.md) — a\n{line}\n", encoding="utf-8")
        body = f"---\nname: a\ndescription: a pathological line\ntype: project\n---\n{line}\n"
        (root / "a.md").write_text(body, encoding="utf-8")

        def audit(root: Path = root) -> object:
            return audit_tree(load_tree(root), tuple(REGISTRY))

        wall = timed(audit, repeats=3)
        print(f"pathological {name:>10}: {summary(wall)}; CPU {summary(cpu_timed(audit))}")


def bench_audit_cpu(work: Path) -> None:
    """The 10,000-file audit in CPU seconds of this process (steadier than wall time on a
    shared machine). Run it with PYTHONPATH=<older checkout>/src to compare two versions."""
    root = generate(work / "tree-10000", 10_000)

    def audit() -> int:
        return len(audit_tree(load_tree(root), tuple(REGISTRY)).findings)

    audit()  # warm: the scanner's rules compile once per process
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        found = audit()
        times.append(time.process_time() - start)
    print(f"audit 10000 files, CPU: {summary(times)}; {found} findings")


def bench_duplicates(work: Path) -> None:
    """The duplicates dimension alone on a loaded 10,000-file tree (~1% planted near-duplicates)."""
    tree = load_tree(generate(work / "dup-10000", 10_000))
    options = duplicates.Options()
    times = timed(lambda: list(duplicates.check(tree, options)))
    found = len(list(duplicates.check(tree, options)))
    print(f"duplicates 10000 files: {summary(times)}; {found} clusters")


def bench_restatements(work: Path) -> None:
    """The whole audit, as a process, of 50,000 notes: 2% restate another in other words,
    500 restate one fact. Wall time, peak memory, and the duplicates findings."""
    root = work / "restatements-50000"
    cluster = set(restatements(root, 50_000))
    command = [sys.executable, "-m", "memory_audit", "audit", "--format", "json", str(root)]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak, cpu = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
    [report] = json.loads(result.stdout)["reports"]
    found = [f for f in report["findings"] if f["dimension"] == "duplicates"]
    biggest = max(found, key=lambda f: len(f["related"]))
    members = {biggest["path"], *biggest["related"]}
    print(
        f"audit of 50000 files with restatements: {elapsed:.1f} s ({cpu:.1f} s CPU), "
        f"peak {peak:.0f} MB; "
        f"{len(found)} duplicate clusters, the largest {len(members)} members "
        f"({len(members & cluster)} of the {len(cluster)} planted)"
    )


def bench_secrets(work: Path) -> None:
    """The secret sweep as users run it, side by side with gitleaks 8 and detect-secrets:
    2,000 memory-shaped files (~8 MB), 48 planted tokens in 33 families, 120 decoys."""
    root = work / "secrets-2000"
    planted = secret_corpus(root)
    compare(root, planted, work)


def bench_transcripts(work: Path) -> None:
    """`usage` and `coverage` over 200 transcripts of 10 MB each (2 GB): cold (no sessions
    cache), then warm. Wall time and this process's CPU time (the machine may be shared)."""
    project = work / "projects" / "-bench"
    root = generate(project / "memory", 200)
    size = transcript_corpus(project, root, count=200, megabytes=10)
    location = ProjectLocation("-bench", Path(PROJECT), project)
    tree = load_tree(root, location=location)
    state = str(work / "usage-state")
    options = (usage.Options(sessions=200, state_dir=state), coverage.Options(200, state_dir=state))
    cache = cache_file(work / "usage-state", project)

    def both() -> list[object]:
        return [*usage.check(tree, options[0]), *coverage.check(tree, options[1])]

    def cold() -> list[object]:
        cache.unlink(missing_ok=True)
        return both()

    label = f"usage + coverage, {size / 1e6:.0f} MB in 200 transcripts"
    print(f"{label}, cold: {cpu_summary(cold, 3)}; {len(cold())} found")
    print(f"{label}, warm cache: {cpu_summary(both, REPEATS)}")


def cpu_summary(action: Callable[[], object], repeats: int) -> str:
    """Median wall and CPU (``process_time``) seconds of ``repeats`` runs."""
    wall, cpu = [], []
    for _ in range(repeats):
        started, used = time.perf_counter(), time.process_time()
        action()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return f"{summary(wall)}; CPU median {statistics.median(cpu):.3f} s"


def bench_hook(work: Path) -> None:
    """`hook session-start` as Claude Code runs it (the command `memory-audit claude install`
    writes): a new process, JSON on stdin, a compact report of 70 projects of 200 files
    (0.8 MB); then a state database with dismissals beside it, read from the state's plain
    copy; then the same database after a commit by another program, which makes the hook
    read the database itself (``sqlite3``)."""
    home = work / "hook-home"
    env = isolated_env(home)
    trees = [
        generate(home / ".claude/projects" / f"-home-dev-p{n:02}" / "memory", 200, seed=n)
        for n in range(70)
    ]
    run = Run(
        tuple(audit_tree(load_tree(t), tuple(REGISTRY)) for t in trees), dimensions=DIMENSIONS
    )
    store = ReportStore(home / ".local/share/memory-audit/reports", keep=3)
    size = (store.write(run, {}) / "summary.json").stat().st_size
    payload = json.dumps({"session_id": "s", "cwd": "/home/dev/p07", "source": "startup"})
    command = shlex.split(hook_command())  # as `memory-audit claude install` writes it
    print(f"hook command: {shlex.join(command)}")
    baseline, baseline_cpu = timed_runs([sys.executable, "-c", "pass"], env, "", 20)
    state_dir = home / ".local/state/memory-audit"
    for label, prepare in HOOK_CASES.items():
        prepare(state_dir, run, trees)
        check = subprocess.run(
            command, input=payload, env=env, capture_output=True, text=True, check=False
        )
        assert "pending in this project's memory" in check.stdout, check
        times, cpu = timed_runs(command, env, payload, 20)
        print(
            f"hook session-start, {run.total} findings in a {size / 1e6:.2f} MB report, "
            f"{label}: {summary(times)}, CPU {cpu * 1000:.0f} ms a run (whole process; "
            f"`python -c pass`: {statistics.median(baseline):.3f} s, CPU "
            f"{baseline_cpu * 1000:.0f} ms)"
        )


def _dismiss_twenty(state_dir: Path, run: Run, trees: list[Path]) -> None:
    state = State(state_dir)
    for finding in run.reports[3].findings[:20]:
        state.dismiss(finding.fingerprint, str(trees[3]), "bench", run.generated_at)
    state.close()


def _commit_elsewhere(state_dir: Path, run: Run, trees: list[Path]) -> None:
    """A commit the state did not make (an earlier version, the sqlite3 shell)."""
    with contextlib.closing(sqlite3.connect(state_dir / DB_NAME)) as db, db:
        db.execute("INSERT OR REPLACE INTO meta VALUES ('bench', 'elsewhere')")


HOOK_CASES: dict[str, Callable[[Path, Run, list[Path]], None]] = {
    "no state database": lambda *_: None,
    "a state database with 20 dismissals": _dismiss_twenty,
    "the same database after a commit by another program (read with sqlite3)": (_commit_elsewhere),
}


def bench_service(work: Path) -> None:
    """The daemon with the shipped unit's watchdog: ready, first report, memory, idle CPU
    over a real 10 minutes, and alert latency."""
    service.bench_fifty(work, 600.0)
    service.bench_latency(work, 60)
    service.bench_latency_beside_slow_tree(work, 60)


def bench_transcript_follow(work: Path) -> None:
    """The daemon's CPU while a session writes its transcript at 1 MB/s for a minute."""
    transcript_follow.bench(work, 60.0, 1_000_000)


def bench_transcript_alert(work: Path) -> None:
    """Alert latency of a token pasted into a session, 30 sessions."""
    transcript_follow.bench_latency(work, 30)


def bench_memory_log(work: Path) -> None:
    """The daemon's CPU while a 4 MB chat log in a memory tree gets a record every 3 s and
    every second, and the latency of a token in it."""
    memory_log_follow.bench(work / "every-3-s", 4.0, 3.0, 60.0)
    memory_log_follow.bench(work / "every-second", 4.0, 1.0, 60.0)


def bench_slow_tree(work: Path) -> None:
    """Alert latency of a tree while another tree's file takes seconds to scan."""
    service.bench_latency_beside_slow_tree(work, 40)


BENCHMARKS: dict[str, Callable[[Path], None]] = {
    "hook": bench_hook,
    "secrets": bench_secrets,
    "audit": bench_audit_process,
    "audit-cpu": bench_audit_cpu,
    "duplicates": bench_duplicates,
    "transcripts": bench_transcripts,
    "service": bench_service,
    "slow-tree": bench_slow_tree,
    "transcript-follow": bench_transcript_follow,
    "transcript-alert": bench_transcript_alert,
    "memory-log": bench_memory_log,
    "pathological": bench_pathological,
    "restatements": bench_restatements,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", choices=[*BENCHMARKS, []], metavar="NAME")
    args = parser.parse_args()
    compile_bytecode()  # what an installed copy has: processes measured do not compile
    with tempfile.TemporaryDirectory(prefix="memory-audit-bench-") as work:
        for name in args.names or BENCHMARKS:
            BENCHMARKS[name](Path(work))


if __name__ == "__main__":
    main()
