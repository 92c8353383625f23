"""Reading the configuration file without ever hanging on it.

The file is read at start and on every SIGHUP, by the daemon's loop, and by
``status``: a path that is a named pipe would block the open until someone writes
to it, a device may never end, a folder cannot be read at all. So only a regular
file is read: its kind is checked before it is opened, opened with ``O_NONBLOCK``
(a pipe swapped in meanwhile does not block the open) and checked again on the open
descriptor. A file system that hangs (a dead network mount) is the last case: the
read runs on a thread, waited for ``READ_TIMEOUT_SECONDS`` at most.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

from memory_audit.errors import ConfigError

READ_TIMEOUT_SECONDS = 5.0
MAX_BYTES = 1024 * 1024  # a configuration is a few kilobytes
KINDS = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFDIR: "a directory",
    stat.S_IFSOCK: "a socket",
}


def read_config_text(path: Path, timeout: float = READ_TIMEOUT_SECONDS) -> str:
    """The text of the configuration file at ``path``.

    Raises FileNotFoundError when there is none, another OSError when it cannot be
    read, ConfigError naming the path when it is not a regular file, is not UTF-8, or
    does not answer within ``timeout``.
    """
    outcome: list[str | BaseException] = []

    def read() -> None:
        try:
            outcome.append(_read(path))
        except BaseException as exc:  # handed to the waiting caller
            outcome.append(exc)

    reader = threading.Thread(target=read, name="memory-audit-config", daemon=True)
    reader.start()
    reader.join(timeout)
    if not outcome:
        raise ConfigError(f"config file {path} did not answer within {timeout:g} s; not read")
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _read(path: Path) -> str:
    _refuse_irregular(path, os.stat(path).st_mode)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        _refuse_irregular(path, info.st_mode)
        if info.st_size > MAX_BYTES:
            raise ConfigError(f"config file {path} is {info.st_size:,} bytes; the limit is 1 MB")
        data = file.read(MAX_BYTES + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None


def _refuse_irregular(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        kind = KINDS.get(stat.S_IFMT(mode), "not a regular file")
        raise ConfigError(f"config file {path} is {kind}, not a regular file; not read")
