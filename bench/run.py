"""Benchmarks. Each prints its numbers; docs/benchmarks.md records them with this command.

    .venv/bin/python bench/run.py [audit ...]   (no name: all of them)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generate import generate  # noqa: E402
from memory_audit.checks import REGISTRY  # noqa: E402
from memory_audit.engine import audit_tree  # noqa: E402
from memory_audit.tree import load_tree  # noqa: E402

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
    """Full audit (read + every registered dimension) of synthetic trees of 1,000 and 10,000 files."""
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


BENCHMARKS: dict[str, Callable[[Path], None]] = {"audit": bench_audit}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", choices=[*BENCHMARKS, []], metavar="NAME")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-audit-bench-") as work:
        for name in args.names or BENCHMARKS:
            BENCHMARKS[name](Path(work))


if __name__ == "__main__":
    main()
