"""Opening a file this program only reads, when it may be anything: a regular file or
an error, never a wait.

``open()`` on a named pipe blocks until something writes to it, and on a device reads
whatever the device gives. A project's ``CLAUDE.md``, a settings file, a transcript, a
rule file, the configuration or a report handed to ``review`` is whatever the disk holds,
so each is opened without blocking and read only when ``fstat`` says it is a regular file
(links are followed: a settings file linked from a dotfiles folder is the user's file);
anything else is an ``OSError``, which every reader already answers with "not read". One
odd file stops nothing (DESIGN §6.3).
"""

from __future__ import annotations

import errno
import os
import stat
from io import BufferedReader
from pathlib import Path

CHUNK_BYTES = 1024 * 1024  # a file read whole is read in pieces: no buffer of the limit's size


class NotRegularFile(OSError):
    """The path is a pipe, a socket, a device or a folder: not read. ``mode`` is what
    ``fstat`` found, for a caller that names the kind."""

    def __init__(self, path: Path | str, mode: int = 0) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))
        self.mode = mode


class FileTooLarge(OSError):
    """A regular file over a reader's limit: refused, not cut. ``size`` is what ``fstat``
    said, or None when the file grew past the limit while it was read."""

    def __init__(self, path: Path | str, size: int | None, limit: int) -> None:
        super().__init__(errno.EFBIG, f"over the {limit:,}-byte limit", str(path))
        self.size = size
        self.limit = limit


def open_regular(path: Path | str, *, follow_links: bool = True) -> BufferedReader:
    """``path`` opened for binary reading; :class:`NotRegularFile` (an ``OSError``) when
    it is not a regular file, without waiting on it. ``follow_links=False``: a link is an
    ``OSError`` too (a repository's tracked link may point anywhere on disk)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
    fd = os.open(path, flags if follow_links else flags | os.O_NOFOLLOW)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, mode)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path | str, limit: int = -1) -> bytes:
    """Up to ``limit`` bytes of a regular file (all when negative)."""
    with open_regular(path) as handle:
        return handle.read(limit)


def read_regular_within(path: Path | str, limit: int, *, follow_links: bool = True) -> bytes:
    """All of a regular file of at most ``limit`` bytes; :class:`FileTooLarge` when it is
    larger, checked before the read (nothing of it is read) and after (it grew)."""
    with open_regular(path, follow_links=follow_links) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise FileTooLarge(path, size, limit)
        data = _read_up_to(handle, limit + 1)
    if len(data) > limit:
        raise FileTooLarge(path, None, limit)
    return data


def _read_up_to(handle: BufferedReader, size: int) -> bytes:
    parts = []
    while size > 0 and (part := handle.read(min(size, CHUNK_BYTES))):
        parts.append(part)
        size -= len(part)
    return b"".join(parts)
