"""Where an orphaned store's project went: 40 newer stores in git repositories, and an
orphaned store whose transcripts (35 MB) are full of git output.

.venv/bin/python bench/orphaned_store.py [--stores N] [--mb N]

Each transcript line of the orphaned store is a tool result with 200 commit-like hashes
and 50 remote URLs (the worst case for the scan: every line is searched and every token
matches). Prints the median of 5 runs of ``moved_project`` cold (the in-process cache of
what the transcripts name emptied: the daemon's first audit) and warm (its next audits:
only the git calls, two per candidate store), in wall time.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memory_audit.analysis import moved_projects

REPEATS = 5


def build(base: Path, stores: int, megabytes: int) -> Path:
    projects = base / "projects"
    for number in range(stores):
        repo = base / f"src/app{number}"
        repo.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        commit = ["-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "--allow-empty"]
        subprocess.run(["git", "-C", str(repo), *commit, "-m", "start"], check=True)
        store = projects / f"-src-app{number}"
        store.mkdir(parents=True)
        (store / "s.jsonl").write_text(json.dumps({"type": "user", "cwd": str(repo)}) + "\n")
        os.utime(store / "s.jsonl", (2e9, 2e9))
    old = projects / "-work-gone"
    old.mkdir()
    output = "[main 1a2b3c4d] commit 1a2b3c4d5e6f " * 200 + " To github.com:me/app.git " * 50
    content = [{"type": "tool_result", "content": output}]
    line = json.dumps({"type": "user", "message": {"content": content}}) + "\n"
    for number in range(5):
        transcript = old / f"s{number}.jsonl"
        with transcript.open("w") as handle:
            handle.write(json.dumps({"type": "user", "cwd": str(base / "work/gone")}) + "\n")
            handle.write(line * (megabytes * 1024 * 1024 // 5 // len(line)))
        os.utime(transcript, (1e9, 1e9))
    return projects


def timed(projects: Path, cold: bool) -> float:
    if cold:
        moved_projects._CACHE.clear()
    start = time.perf_counter()
    moved_projects.moved_project(projects / "-work-gone", projects)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stores", type=int, default=40)
    parser.add_argument("--mb", type=int, default=35)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        projects = build(Path(folder), args.stores, args.mb)
        for label, cold in (("cold", True), ("warm", False)):
            runs = [timed(projects, cold) for _ in range(REPEATS)]
            print(f"{label}: median {statistics.median(runs):.3f} s over {REPEATS} runs")


if __name__ == "__main__":
    main()
