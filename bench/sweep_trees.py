"""`audit --check secrets` on the sweep corpus, compared across source trees (two commits).

.venv/bin/python bench/sweep_trees.py [--runs 5] SRC [SRC ...]

Each SRC is a ``src/`` folder (``git archive <commit> src config | tar -x -C /tmp/x`` gives
one; ``config/`` because the bundled rules are reached through ``src/.../resources``). Runs
alternate between the trees, each a whole process with this venv's interpreter and
``PYTHONPATH=SRC``, on the 2,001 files of ``bench/corpus.py``. Printed per tree: median wall
and CPU time (user + system, the forked child included), recall of the 48 planted tokens
and the false positives.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import secret_corpus
from bench.process import compile_bytecode, isolated_env


def run_once(
    src: Path, corpus: Path, env: dict[str, str]
) -> tuple[float, float, set[tuple[str, int]]]:
    """(wall seconds, CPU seconds, reported (file, line) pairs) of one process."""
    command = [sys.executable, "-m", "memory_audit", "audit", "--check", "secrets"]
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    out = subprocess.run(
        [*command, "--format", "json", str(corpus)],
        env={**env, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    [report] = json.loads(out)["reports"]
    return wall, cpu, {place for f in report["findings"] for place in places(f)}


def places(finding: dict[str, Any]) -> list[tuple[str, int]]:
    """Every (file, line) a finding reports: one secret value's places are listed in its
    fix (sources from before that reported each place as a finding of its own)."""
    listed = (finding.get("fix") or {}).get("places") or [finding]
    return [(place["path"], place["line"]) for place in listed]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sources", nargs="+", type=Path, metavar="SRC")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for src in args.sources:
        compile_bytecode(src)  # as installed: no process measured compiles a module
    with tempfile.TemporaryDirectory(prefix="memory-audit-sweep-") as work:
        corpus = Path(work) / "secrets-2000"
        expected = {(p.path, p.line) for p in secret_corpus(corpus)}
        env = isolated_env(Path(work) / "home")
        runs: dict[Path, list[tuple[float, float, set[tuple[str, int]]]]] = {
            s: [] for s in args.sources
        }
        for _ in range(args.runs):
            for src in args.sources:
                runs[src].append(run_once(src.resolve(), corpus, env))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    for src, results in runs.items():
        found = results[-1][2]
        print(
            f"{src}: wall median {statistics.median(r[0] for r in results):.3f} s "
            f"(min {min(r[0] for r in results):.3f}), CPU median "
            f"{statistics.median(r[1] for r in results):.3f} s ({args.runs} runs); recall "
            f"{len(found & expected)}/{len(expected)}, false positives {len(found - expected)}"
        )


if __name__ == "__main__":
    main()
