"""stale-refs on the 10,000-file tree with a git project of 50,000 commits.

.venv/bin/python bench/stale_refs.py [--commits N] [--files N]

The project is written with ``git fast-import``: commit i adds ``src/m<i%500>/f<i>.py``;
every 10th commit deletes an earlier file and every 20th renames one into ``lib/``. One in
ten memories of the ``bench/generate.py`` tree cites three project files (present, deleted
or renamed) and one commit. Prints the median of 5 runs with the history cache cold (the
one ``git log`` reads all 50,000 commits), warm (HEAD unchanged) and after one new commit
(only it is read), in wall time and in CPU time (the machine is shared). Run with another
checkout's ``src`` on ``PYTHONPATH`` to time that code on the same input.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generate import generate
from memory_audit.engine import audit_tree
from memory_audit.tree.snapshot import ProjectLocation, load_tree

REPEATS = 5


def _commit(number: int) -> list[str]:
    lines = [
        "commit refs/heads/main",
        f"committer b <b@x> {1_700_000_000 + number * 60} +0000",
        f"data {len(f'c{number}')}",
        f"c{number}",
        f"M 100644 inline src/m{number % 500}/f{number}.py",
        f"data {len(f'x{number}') + 1}",
        f"x{number}",
    ]
    if number % 10 == 5:
        old = number - 3
        lines.append(f"D src/m{old % 500}/f{old}.py")
    if number % 20 == 7:
        old = number - 7
        lines.append(f"R src/m{old % 500}/f{old}.py lib/m{old % 500}/f{old}.py")
    return [*lines, ""]


def make_project(path: Path, commits: int) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    stream = "\n".join(line for n in range(commits) for line in _commit(n)) + "\n"
    subprocess.run(
        ["git", "-C", str(path), "fast-import", "--quiet"], input=stream.encode(), check=True
    )
    subprocess.run(["git", "-C", str(path), "checkout", "-q", "-f", "main"], check=True)


def cite_project(tree: Path, project: Path, commits: int, seed: int = 3) -> int:
    """Append path and commit references to one memory in ten; return how many files."""
    rng = random.Random(seed)
    heads = subprocess.run(
        ["git", "-C", str(project), "rev-list", "--max-count=50", "main"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    cited = 0
    for number, path in enumerate(sorted(tree.rglob("*_*.md"))):
        if number % 10:
            continue
        files = [rng.randrange(commits) for _ in range(3)]
        refs = ", ".join(f"`src/m{f % 500}/f{f}.py`" for f in files)
        commit = rng.choice(heads)[:9] if rng.random() < 0.7 else f"{rng.getrandbits(36):09x}"
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\nCode in {refs}; fixed in commit {commit}.\n")
        cited += 1
    return cited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=50_000)
    parser.add_argument("--files", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-audit-bench-") as work_dir:
        work = Path(work_dir)
        os.environ["XDG_STATE_HOME"] = str(work / "state")  # a private history cache
        start = time.perf_counter()
        make_project(work / "project", args.commits)
        tree = generate(work / "tree", args.files)
        cited = cite_project(tree, work / "project", args.commits)
        print(f"setup {time.perf_counter() - start:.1f} s; {cited} memories cite the project")
        location = ProjectLocation("bench", work / "project", None)
        loaded = load_tree(tree, location=location)

        def run() -> int:
            return len(audit_tree(loaded, ("stale-refs",)).findings)

        for label in ("cold", "warm", "one new commit"):
            walls, cpus = [], []
            for _ in range(REPEATS):
                if label == "cold":
                    shutil.rmtree(work / "state", ignore_errors=True)
                if label == "one new commit":
                    new_commit(work / "project")
                wall, cpu = time.perf_counter(), cpu_seconds()
                found = run()
                walls.append(time.perf_counter() - wall)
                cpus.append(cpu_seconds() - cpu)
            print(
                f"stale-refs {label}: median {statistics.median(walls):.3f} s wall "
                f"(min {min(walls):.3f}, max {max(walls):.3f}), "
                f"{statistics.median(cpus):.3f} s CPU with git's; {found} findings"
            )


def cpu_seconds() -> float:
    """This process's CPU time and its finished children's (git): the machine is shared."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def new_commit(project: Path) -> None:
    identity = ["-c", "user.name=b", "-c", "user.email=b@x"]
    commit = ["commit", "-q", "--allow-empty", "-m", "more"]
    subprocess.run(["git", "-C", str(project), *identity, *commit], check=True)


if __name__ == "__main__":
    main()
