"""Running a command as someone who cannot read what mode 000 forbids.

A normal user cannot read a file or list a folder once ``chmod 000`` applies.
Root (CI runs as root) still can, through the capabilities ``CAP_DAC_OVERRIDE``
and ``CAP_DAC_READ_SEARCH``; :func:`without_read_override` then runs the
command under ``setpriv`` (util-linux) with those two dropped from the
bounding set and no inheritable capability, so it meets permissions as a
user would. Only that one process loses them, never the test itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DROPPED = "-dac_override,-dac_read_search"


def without_read_override(argv: Sequence[str]) -> list[str]:
    """``argv`` as a command that chmod 000 stops, for root and everyone else."""
    if os.geteuid() != 0:
        return list(argv)
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to test unreadable files as root"
    return [setpriv, "--inh-caps=-all", f"--bounding-set={DROPPED}", "--", *argv]


def run_unprivileged(argv: Sequence[str], **options: Any) -> subprocess.CompletedProcess[str]:
    """``argv`` run to completion as :func:`without_read_override` makes it (text, captured)."""
    return subprocess.run(
        without_read_override(argv), capture_output=True, text=True, check=False, **options
    )


@contextmanager
def unreadable(*paths: Path) -> Iterator[None]:
    """``paths`` at mode 000 for the block, their modes back afterwards (for cleanup)."""
    modes = [(path, path.stat().st_mode & 0o7777) for path in paths]
    for path, _ in modes:
        os.chmod(path, 0)
    try:
        yield
    finally:
        for path, mode in reversed(modes):
            os.chmod(path, mode)
