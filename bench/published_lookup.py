"""The lookup of secret values a repository publishes, at its worst: no value is found, so
every tracked file is read, up to the bounds (secrets/published.py).

.venv/bin/python bench/published_lookup.py [--files N] [--kilobytes K]

Builds a repository of N tracked text files of K KB each (one commit), then times
``published_in`` for 1 and for 50 absent values: the median of 5 runs, wall and CPU (the
machine is shared). The files are in the page cache after the first run, as they are for
an audit that just listed them.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memory_audit.secrets.published import published_in

RUNS = 5
WORDS = "alpha beta gamma delta config server route handler value token user".split()


def build(folder: Path, files: int, kilobytes: int) -> None:
    rng = random.Random(7)
    for n in range(files):
        path = folder / f"src/m{n % 100}/f{n}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        words = (rng.choice(WORDS) for _ in range(kilobytes * 1024 // 6))
        path.write_text(" ".join(words) + "\n")
    git = ["git", "-C", str(folder), "-c", "user.name=b", "-c", "user.email=b@x"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "files"], check=True)


def cpu_seconds() -> float:
    """User and system time of this process and its children (git) so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(repo: Path, values: dict[str, str]) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(RUNS):
        cpu, start = cpu_seconds(), time.perf_counter()
        assert published_in(repo, repo / "memory", values) == {}
        walls.append(time.perf_counter() - start)
        cpus.append(cpu_seconds() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--kilobytes", type=int, default=32)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder)
        build(repo, args.files, args.kilobytes)
        size = args.files * args.kilobytes / 1024
        print(f"{args.files} tracked files, {size:.0f} MB")
        for count in (1, 50):
            values = {str(n): f"Zq{n:03d}!absent" for n in range(count)}
            wall, cpu = timed(repo, values)
            print(f"{count} absent value(s): wall {wall * 1000:.0f} ms, CPU {cpu * 1000:.0f} ms")


if __name__ == "__main__":
    main()
