"""What `review`'s preview costs before each question: a tree of N memories copied into a
private folder, audited, one description changed in the copy, audited again.

.venv/bin/python bench/fix_preview.py [--files N ...]

Prints, per tree size, the first preview (both audits) and the median of the next 5 (the
audit of the unchanged tree kept: one audit each), in wall time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memory_audit.checks import REGISTRY
from memory_audit.engine import audit_tree
from memory_audit.fix import preview
from memory_audit.fix.actions import set_field
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.tree.snapshot import load_tree

REPEATS = 5
INDEXED = 190  # past this, the index itself is the finding; the rest are unindexed


def build(root: Path, files: int) -> None:
    root.mkdir(parents=True)
    lines = [f"- [N{n}](n{n}.md) — note {n} about the ledger" for n in range(min(files, INDEXED))]
    (root / "MEMORY.md").write_text("# Index\n" + "\n".join(lines) + "\n")
    for n in range(files):
        (root / f"n{n}.md").write_text(
            f"---\nname: n{n}\ndescription: Ledger note {n}\ntype: project\n---\n"
            f"The ledger closes on day {n % 28 + 1}; note {n} says why.\n"
        )


def audit(root: Path) -> list[Finding]:
    return list(audit_tree(load_tree(root), tuple(REGISTRY)).findings)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, nargs="+", default=[100, 1000, 3000])
    sizes = parser.parse_args().files
    for files in sizes:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder) / "memory"
            build(root, files)
            edit = set_field(
                Tree.open(root), {"path": "n1.md", "field": "description"}, ["When it closes."]
            )
            previews = preview.Preview(root, audit, 1 << 20)
            start = time.perf_counter()
            previews(edit)
            first = time.perf_counter() - start
            times = []
            for _ in range(REPEATS):
                start = time.perf_counter()
                previews(edit)
                times.append(time.perf_counter() - start)
        print(f"{files:6} files: first {first:.3f} s, next median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
