"""Opening a file this program only reads, when it may be anything: a regular file or
an error, never a wait.

``open()`` on a named pipe blocks until something writes to it, and on a device reads
whatever the device gives. A project's ``CLAUDE.md``, a settings file, a transcript or a
rule file is whatever the disk holds, so each is opened without blocking and read only
when ``fstat`` says it is a regular file (links are followed: a settings file linked
from a dotfiles folder is the user's file); anything else is an ``OSError``, which every
reader already answers with "not read". One odd file stops nothing (DESIGN §6.3).
"""

from __future__ import annotations

import errno
import os
import stat
from io import BufferedReader
from pathlib import Path


class NotRegularFile(OSError):
    """The path is a pipe, a socket, a device or a folder: not read."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))


def open_regular(path: Path | str) -> BufferedReader:
    """``path`` opened for binary reading; :class:`NotRegularFile` (an ``OSError``) when
    it is not a regular file, without waiting on it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path | str, limit: int = -1) -> bytes:
    """Up to ``limit`` bytes of a regular file (all when negative)."""
    with open_regular(path) as handle:
        return handle.read(limit)
