"""`hook session-start` start-up, compared across source trees (for example two commits).

.venv/bin/python bench/hook_startup.py [--runs 20] [--dismissals N] [m:]SRC [[m:]SRC ...]

Each SRC is a ``src/`` folder (``git archive <commit> | tar -x -C /tmp/x`` gives one);
the hook runs from it through ``PYTHONPATH``, with this venv's interpreter and packages,
by the command ``memory-audit claude install`` writes now (``python -P -c ...``), or with
``m:`` before SRC by the one earlier versions wrote (``python -m memory_audit ...``).
``--dismissals N`` adds a state database with N dismissals (and the state's copy of them).
The report it reads is written once by the code this script imports (the same one as
``bench/run.py hook``: 50 projects of 200 files). Runs alternate between the trees, so a
machine whose load changes during the measurement slows them alike. Printed per tree: the
median wall time of the whole process (interpreter start included), and its median CPU
time (user + system), which other processes on a busy machine disturb much less; and the
same for ``python -c pass``, the interpreter's own start, as the floor.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generate import generate
from bench.process import compile_bytecode
from memory_audit.checks import DIMENSIONS, REGISTRY
from memory_audit.engine import audit_tree
from memory_audit.install.claude import hook_command
from memory_audit.model.run import Run
from memory_audit.store.reports import ReportStore
from memory_audit.store.state import State
from memory_audit.tree.snapshot import load_tree

PAYLOAD = json.dumps({"session_id": "s", "cwd": "/home/dev/p07", "source": "startup"})


def private_home(work: Path) -> dict[str, str]:
    """A home with 50 projects and one report of their findings; the hook's environment."""
    home = work / "hook-home"
    trees = [
        generate(home / ".claude/projects" / f"-home-dev-p{n:02}" / "memory", 200, seed=n)
        for n in range(50)
    ]
    run = Run(
        tuple(audit_tree(load_tree(t), tuple(REGISTRY)) for t in trees), dimensions=DIMENSIONS
    )
    ReportStore(home / ".local/share/memory-audit/reports", keep=3).write(run, {})
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    env.pop("CLAUDE_CONFIG_DIR", None)
    return env


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


HOOK = tuple(shlex.split(hook_command())[1:])  # as `memory-audit claude install` writes it
EARLIER_HOOK = ("-m", "memory_audit", "hook", "session-start")  # as earlier versions did
BARE = ("-c", "pass")  # the interpreter alone: what no change to the hook can remove


def add_dismissals(env: dict[str, str], count: int) -> None:
    """A state database with ``count`` dismissals, written as the service writes them."""
    state = State(Path(env["XDG_STATE_HOME"]) / "memory-audit")
    for number in range(count):
        state.dismiss(f"{number:020x}", None, "bench", dt.datetime.now().astimezone())
    state.close()


def run_once(
    src: Path, env: dict[str, str], args: tuple[str, ...] = HOOK
) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one process."""
    cpu_before, started = children_cpu(), time.perf_counter()
    out = subprocess.run(
        [sys.executable, *args],
        input=PAYLOAD,
        env={**env, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return time.perf_counter() - started, children_cpu() - cpu_before, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sources", nargs="+", metavar="[m:]SRC")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--dismissals", type=int, default=0)
    args = parser.parse_args()
    trees = {name: Path(name.removeprefix("m:")).resolve() for name in args.sources}
    for src in trees.values():
        compile_bytecode(src)  # as installed: no process measured compiles a module
    with tempfile.TemporaryDirectory(prefix="memory-audit-hook-") as work:
        env = private_home(Path(work))
        if args.dismissals:
            add_dismissals(env, args.dismissals)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        times["python -c pass"] = []
        for _ in range(args.runs):
            for name, src in trees.items():
                command = EARLIER_HOOK if name.startswith("m:") else HOOK
                wall, cpu, out = run_once(src, env, command)
                assert "pending in this project's memory" in out, out
                times[name].append((wall, cpu))
            times["python -c pass"].append(run_once(Path(), env, BARE)[:2])
    for name, pairs in times.items():
        walls, cpus = [w for w, _ in pairs], [c for _, c in pairs]
        print(
            f"{name}: wall median {statistics.median(walls):.3f} s "
            f"(min {min(walls):.3f}, max {max(walls):.3f}); "
            f"CPU median {statistics.median(cpus):.3f} s ({args.runs} runs)"
        )


if __name__ == "__main__":
    main()
