"""Atomic, private file writes: a temporary file in the same folder, then rename.

A reader (or a crash) sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


def ensure_private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    os.chmod(path, PRIVATE_DIR)
    return path


def write_atomic(path: Path, data: bytes | str, mode: int = PRIVATE_FILE) -> None:
    """Replace ``path``'s content. A symlink (a dotfiles manager's) stays a link: the
    new content goes to the file it points at."""
    if path.is_symlink() and path.exists():
        path = path.resolve()
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
