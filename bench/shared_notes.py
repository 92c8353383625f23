"""The cross-store pass (``cross_tree``): 50 stores of 100 memories, 5 notes each kept in 10.

.venv/bin/python bench/shared_notes.py [--stores N] [--memories N]

Stores come from ``bench/corpus.py`` (one seed each); five user-level notes are planted in
ten stores apiece. Prints the first run of the pass (memories parsed on the way, as in
``audit --all``, which loads the stores again) and the median of 5 more over the parsed
trees, in wall and CPU time, and how many shared notes it found.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import memory_tree
from memory_audit.cross_tree import shared_notes
from memory_audit.tree.snapshot import MemoryTree, load_tree

REPEATS = 5
NOTES = [
    "The user wants pnpm for every install, never npm or yarn.",
    "Commit messages follow Conventional Commits with a scope in parentheses.",
    "Always run the formatter before committing; the user dislikes style-only diffs.",
    "Answer in British English, and keep explanations short unless asked for more.",
    "Never push to main directly: open a pull request, even for a one-line fix.",
]


def build(base: Path, stores: int, memories: int) -> list[Path]:
    roots = []
    for number in range(stores):
        root = memory_tree(base / f"store{number:03d}", memories, seed=number)
        for note, text in enumerate(NOTES):
            if (number + note) % (stores // 10 or 1) == 0:
                meta = f"---\nname: shared-{note}\ndescription: a preference\ntype: feedback\n---\n"
                (root / f"shared_{note}.md").write_text(meta + text + "\n", encoding="utf-8")
        roots.append(root)
    return roots


def measure(trees: list[MemoryTree]) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    found = shared_notes(trees)
    return time.perf_counter() - wall, time.process_time() - cpu, len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", type=int, default=50)
    parser.add_argument("--memories", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        roots = build(Path(folder), args.stores, args.memories)
        first = measure([load_tree(root) for root in roots])
        trees = [load_tree(root) for root in roots]
        measure(trees)
        runs = [measure(trees) for _ in range(REPEATS)]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    print(
        f"{args.stores} stores x {args.memories} memories: first run (parsing included) "
        f"{first[0]:.2f} s wall, {first[1]:.2f} s CPU; then median {wall:.2f} s wall, "
        f"{cpu:.2f} s CPU; {first[2]} shared notes"
    )


if __name__ == "__main__":
    main()
