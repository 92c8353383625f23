"""The daemon's on-change scan of a note full of published values, at its worst: every value
the note holds is one the repository publishes too, so the scan reads, for each, whether the
note places it on a live system (daemon/change_alerts.py ``_live``).

.venv/bin/python bench/daemon_published_scan.py [--values N] [--kilobytes K]

Builds a repository whose memory note lists N passwords under ``## Passwords`` (one a line),
after K KB of prose with no heading and no word for production (the worst case: every
reading of a value's place goes through all of it), and whose seed file publishes all of
them, commits it, then times one on-change scan of the note (``_scan_all``, as the service
runs it on a save, its size limit raised to the note's): the median CPU time of 5 runs (the
machine is shared).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memory_audit.checks.secrets import Options
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.secrets.loading import secret_scanner

RUNS = 5


def build(repo: Path, values: int, kilobytes: int) -> Path:
    """The repository and its memory tree: one note of ``values`` passwords, all published,
    after ``kilobytes`` KB of prose."""
    tree = repo / "memory"
    tree.mkdir(parents=True)
    passwords = [f"Harb{n:04d}#quay" for n in range(values)]
    (tree / "MEMORY.md").write_text("- [Passwords](a.md) — the lab's logins\n")
    body = "\n".join(f"- **Password:** `{password}`" for password in passwords)
    prose = "The lab keeps its notes here, one line a fact.\n" * (kilobytes * 1024 // 48)
    note = f"---\nname: a\ndescription: logins\n---\n{prose}## Passwords\n{body}\n"
    (tree / "a.md").write_text(note)
    (repo / "seed.yml").write_text("".join(f"p: {password}\n" for password in passwords))
    git = ["git", "-C", str(repo), "-c", "user.name=b", "-c", "user.email=b@x"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "seed"], check=True)
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--values", type=int, default=1500)
    parser.add_argument("--kilobytes", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tree = build(Path(folder) / "shop", args.values, args.kilobytes)
        limit = max(1 << 20, (tree / "a.md").stat().st_size + 1)
        scanner = secret_scanner(Options(state_dir=str(Path(folder) / "state")))
        times = []
        for _ in range(RUNS):
            start = time.process_time()
            scans = _scan_all({tree / "a.md"}, tree, scanner, limit)
            times.append(time.process_time() - start)
        published = len(scans[0].published) if scans else 0
        print(
            f"{args.values} published values in one note after {args.kilobytes} KB:"
            " on-change scan CPU median"
            f" {statistics.median(times):.3f} s ({published} published, {RUNS} runs)"
        )


if __name__ == "__main__":
    main()
