"""A child started by the daemon ends when the daemon does, even one whose daemon died
before the child could ask the kernel to end it."""

from __future__ import annotations

import os
import subprocess
import sys

from memory_audit.daemon.parent_death import PARENT_ENV

CHILD = (
    "from memory_audit.daemon.parent_death import die_with_parent; die_with_parent(); print('on')"
)


def run_child(parent: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD],
        env={**os.environ, PARENT_ENV: str(parent)},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_a_child_whose_parent_is_already_gone_exits_at_once() -> None:
    # The pid given is not the child's parent: as when the daemon died before this call.
    done = run_child(parent=os.getppid())
    assert (done.returncode, done.stdout) == (1, "")


def test_a_child_of_a_living_parent_carries_on() -> None:
    done = run_child(parent=os.getpid())
    assert (done.returncode, done.stdout, done.stderr) == (0, "on\n", "")
