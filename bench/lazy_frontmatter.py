"""Whole-process timings of a secrets-only run and a full audit, for two source trees.

Measures what a user waits for (`python -m memory_audit audit TREE ...`, interpreter start
included) on the 10,000-file tree of bench/generate.py, so that a change to how
frontmatter is read (lazily, with a flat fast path) is judged before and after:

    .venv/bin/python bench/lazy_frontmatter.py --src src --src /path/to/old/checkout/src

Each --src is put first on PYTHONPATH; HOME and the XDG folders point into a scratch
folder, so nothing of the user's is read or written. Also counts, in process, how many
frontmatter blocks the flat fast path read and how many went to YAML.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generate import generate
from memory_audit.tree.claude_yaml import ReadBy
from memory_audit.tree.flat_yaml import load_flat
from memory_audit.tree.snapshot import load_tree

RUNS = {
    "secrets only": ["--check", "secrets"],
    "full audit": [],
}


def whole_process(src: Path, tree: Path, extra: list[str], scratch: Path) -> float:
    env = {
        **os.environ,
        "PYTHONPATH": str(src),
        "HOME": str(scratch),
        "XDG_CONFIG_HOME": str(scratch / "config"),
        "XDG_DATA_HOME": str(scratch / "data"),
        "XDG_STATE_HOME": str(scratch / "state"),
        "XDG_CACHE_HOME": str(scratch / "cache"),
    }
    command = [sys.executable, "-m", "memory_audit", "audit", str(tree), *extra]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command} exited {done.returncode}")
    return elapsed


def fast_path_share(tree: Path) -> str:
    snapshot = load_tree(tree)
    blocks = [m.split.block for m in snapshot.files.values() if m.split.block is not None]
    flat = sum(1 for block in blocks if load_flat(block.text) is not None)
    strict = sum(1 for m in snapshot.files.values() if m.read.read_by is ReadBy.STRICT)
    return f"{flat} of {len(blocks)} blocks read by the flat fast path ({strict} strict YAML)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--src", type=Path, action="append", required=True)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-audit-bench-") as work:
        tree = generate(Path(work) / "tree", args.files)
        scratch = Path(work) / "home"
        scratch.mkdir()
        for src in args.src:
            for name, extra in RUNS.items():
                times = [
                    whole_process(src.resolve(), tree, extra, scratch) for _ in range(args.repeats)
                ]
                print(
                    f"{src}: {name:<12} {args.files} files: median {statistics.median(times):.2f} s"
                    f" (min {min(times):.2f}, max {max(times):.2f})"
                )
        print(fast_path_share(tree))


if __name__ == "__main__":
    main()
