"""Benchmarks. Each prints its numbers; docs/benchmarks.md records them with this command.

.venv/bin/python bench/run.py [audit ...]   (no name: all of them)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memory_audit.checks import DIMENSIONS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generate import generate, secret_corpus, transcript_corpus
from memory_audit.checks import REGISTRY, duplicates, usage
from memory_audit.daemon.store import ReportStore
from memory_audit.engine import audit_tree
from memory_audit.model.run import Run
from memory_audit.secrets.loading import load_scanner
from memory_audit.tree.snapshot import ProjectLocation, load_tree
from memory_audit.tree.walk import list_tree, read_text

REPEATS = 5


def timed(action: Callable[[], object], repeats: int = REPEATS) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times):.3f} s (min {min(times):.3f}, max {max(times):.3f})"


def bench_audit(work: Path) -> None:
    """Full audit (read + every dimension) of synthetic trees of 1,000 and 10,000 files."""
    medians = {}
    for files in (1_000, 10_000):
        root = generate(work / f"tree-{files}", files)

        def audit(root: Path = root) -> object:
            return audit_tree(load_tree(root), tuple(REGISTRY))

        times = timed(audit)
        medians[files] = statistics.median(times)
        findings = len(audit().findings)  # type: ignore[attr-defined]
        print(f"audit {files:>6} files: {summary(times)}; {findings} findings")
    print(f"audit ratio 10,000/1,000: {medians[10_000] / medians[1_000]:.1f}")


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

        print(f"pathological {name:>10}: {summary(timed(audit, repeats=3))}")


def bench_duplicates(work: Path) -> None:
    """The duplicates dimension alone on a loaded 10,000-file tree (~1% planted near-duplicates)."""
    tree = load_tree(generate(work / "dup-10000", 10_000))
    options = duplicates.Options()
    times = timed(lambda: list(duplicates.check(tree, options)))
    found = len(list(duplicates.check(tree, options)))
    print(f"duplicates 10000 files: {summary(times)}; {found} pairs")


def bench_secrets(work: Path) -> None:
    """Secret sweep of a 2,000-file corpus (~8 MB): list, read, decode and scan every file."""
    root = work / "secrets-2000"
    planted = secret_corpus(root)
    size = sum(p.stat().st_size for p in root.iterdir())
    scanner = load_scanner(None, work / "state")

    def sweep() -> int:
        hits = 0
        for candidate in list_tree(root).candidates:
            text = read_text(candidate.source, 1 << 20).text or ""
            hits += len(scanner.scan(text))
        return hits

    times = timed(sweep)
    print(
        f"secrets {size / 1e6:.1f} MB in 2000 files: {summary(times)}; "
        f"{sweep()} hits for {len(planted)} planted"
    )


def bench_transcripts(work: Path) -> None:
    """`usage` over 200 transcripts of 10 MB each (2 GB): cold (no cache), then warm."""
    project = work / "projects" / "-bench"
    root = generate(project / "memory", 200)
    size = transcript_corpus(project, root, count=200, megabytes=10)
    tree = load_tree(root, location=ProjectLocation("-bench", None, project))
    options = usage.Options(sessions=200, state_dir=str(work / "usage-state"))
    cache = work / "usage-state" / "sessions-cache.json"

    def cold() -> int:
        cache.unlink(missing_ok=True)
        return len(list(usage.check(tree, options)))

    times = timed(cold, repeats=3)
    found = cold()
    print(f"usage {size / 1e6:.0f} MB in 200 transcripts, cold: {summary(times)}; {found} found")
    warm = timed(lambda: list(usage.check(tree, options)))
    print(f"usage {size / 1e6:.0f} MB in 200 transcripts, warm cache: {summary(warm)}")


def bench_hook(work: Path) -> None:
    """`hook session-start` as Claude Code runs it: a new process, JSON on stdin, a report of
    50 projects of 200 files (thousands of findings) to read."""
    home = work / "hook-home"
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    env.pop("CLAUDE_CONFIG_DIR", None)
    trees = [
        generate(home / ".claude/projects" / f"-home-dev-p{n:02}" / "memory", 200, seed=n)
        for n in range(50)
    ]
    run = Run(
        tuple(audit_tree(load_tree(t), tuple(REGISTRY)) for t in trees), dimensions=DIMENSIONS
    )
    store = ReportStore(home / ".local/share/memory-audit/reports", keep=3)
    folder = store.write(run, {})
    size = (folder / "summary.json").stat().st_size
    payload = json.dumps({"session_id": "s", "cwd": "/home/dev/p07", "source": "startup"})
    command = [sys.executable, "-m", "memory_audit", "hook", "session-start"]

    def once() -> str:
        return subprocess.run(
            command, input=payload, env=env, capture_output=True, text=True, check=True
        ).stdout

    assert "pending in this project's memory" in once()
    times = timed(once, repeats=20)
    print(
        f"hook session-start, {run.total} findings in a {size / 1e6:.1f} MB report: "
        f"{summary(times)} (a whole process, interpreter start included)"
    )


BENCHMARKS: dict[str, Callable[[Path], None]] = {
    "hook": bench_hook,
    "transcripts": bench_transcripts,
    "audit": bench_audit,
    "duplicates": bench_duplicates,
    "secrets": bench_secrets,
    "pathological": bench_pathological,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", choices=[*BENCHMARKS, []], metavar="NAME")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-audit-bench-") as work:
        for name in args.names or BENCHMARKS:
            BENCHMARKS[name](Path(work))


if __name__ == "__main__":
    main()
