"""What running the daemon's audit in a child process costs: the same audit, alternately
in the child (as the daemon runs it) and in this process (as it ran before).

    .venv/bin/python bench/audit_in_child.py [--trees 50] [--files 200] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generate import generate
from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.daemon.audit_process import AuditRequest, audit_in_child, run_request


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trees", type=int, default=50)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-audit-child-"))
    try:
        for number in range(args.trees):
            generate(work / f"-home-dev-project-{number:02}" / "memory", args.files, seed=number)
        config = config_module.parse(
            f"roots: ['{work}/*/memory']\nstate: {{dir: {work}/state}}\n",
            option_types=OPTION_TYPES,
        )
        request = AuditRequest(config, dt.datetime.now().astimezone(), frozenset())
        for _ in range(args.rounds):
            for where in ("child process", "in process"):
                started = time.monotonic()
                if where == "child process":
                    run = asyncio.run(audit_in_child(request))
                else:
                    run = run_request(request)
                took = time.monotonic() - started
                print(f"{where}: {took:.1f} s, {len(run.reports)} trees, {run.total} findings")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
