"""One daemon per user: an exclusive ``flock`` on ``<state dir>/daemon.lock``.

The kernel releases the lock when the process dies, however it dies, so a
crash never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from memory_audit.atomic import ensure_private_dir
from memory_audit.errors import AlreadyRunning

LOCK_NAME = "daemon.lock"


class InstanceLock:
    def __init__(self, folder: Path) -> None:
        ensure_private_dir(folder)
        self.path = folder / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise AlreadyRunning(
                f"another memory-audit daemon is already running (pid {holder}; lock {self.path})"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @staticmethod
    def holder(folder: Path) -> int | None:
        """The PID holding the lock, or None when no daemon runs."""
        path = folder / LOCK_NAME
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            text = os.read(fd, 32).decode(errors="replace").strip()
            return int(text) if text.isdigit() else -1
        finally:
            os.close(fd)
        return None
