"""CPU seconds of each dimension in one `memory-audit audit --format json` of a tree.

    .venv/bin/python -m bench.dimensions TREE        # a tree made by bench/corpus.py
    .venv/bin/python -m bench.dimensions --make 1000 DIR   # make it first (seed 7)

Each check's own time (``time.process_time`` around ``engine._items``); what a check
computes first on the shared snapshot (a file's Markdown parse, the link graph) is charged
to the first check that asks. Run it under ``/usr/bin/time -f %U+%S`` for the whole process.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.corpus import memory_tree
from memory_audit import engine
from memory_audit.cli import main as cli_main

TIMES: dict[str, float] = {}
_ITEMS = engine._items


def _timed(tree: Any, dimension: str, options: Any) -> Any:
    start = time.process_time()
    try:
        return _ITEMS(tree, dimension, options)
    finally:
        TIMES[dimension] = TIMES.get(dimension, 0.0) + time.process_time() - start


def main(argv: list[str]) -> None:
    if argv[:1] == ["--make"]:
        memory_tree(Path(argv[2]), int(argv[1]))
        argv = argv[2:]
    engine._items = _timed  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as scratch:
        start = time.process_time()
        cli_main(["audit", "--format", "json", "--output", f"{scratch}/report.json", argv[0]])
        total = time.process_time() - start
    for dimension, seconds in sorted(TIMES.items(), key=lambda item: -item[1]):
        print(f"{dimension:16s} {seconds:7.3f}")
    print(f"{'all checks':16s} {sum(TIMES.values()):7.3f}\n{'in process':16s} {total:7.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
