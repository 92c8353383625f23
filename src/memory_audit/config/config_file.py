"""Reading the configuration file without ever hanging on it.

The file is read at start and on every SIGHUP, by the daemon's loop, and by
``status``: a path that is a named pipe would block the open until someone writes
to it, a device may never end, a folder cannot be read at all. So only a regular
file is read: its kind is checked before it is opened, then it is opened and read
through :mod:`memory_audit.regular_files` (``O_NONBLOCK``: a pipe swapped in meanwhile
does not block the open; the kind checked again on the open descriptor; a file over
``MAX_BYTES`` refused). A file system that hangs (a dead network mount) is the last
case: the read runs on a thread, waited for ``READ_TIMEOUT_SECONDS`` at most.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

from memory_audit.errors import ConfigError
from memory_audit.regular_files import FileTooLarge, NotRegularFile, read_regular_within

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
    # Checked before the open too: a device is not even opened (opening some has effects).
    _refuse_irregular(path, os.stat(path).st_mode)
    try:
        data = read_regular_within(path, MAX_BYTES)
    except NotRegularFile as exc:  # swapped for a pipe or a device since the check above
        raise _irregular(path, exc.mode) from None
    except FileTooLarge as exc:
        size = f"{exc.size:,} bytes" if exc.size is not None else "over 1 MB (it grew while read)"
        raise ConfigError(f"config file {path} is {size}; the limit is 1 MB") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None


def _refuse_irregular(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise _irregular(path, mode)


def _irregular(path: Path, mode: int) -> ConfigError:
    kind = KINDS.get(stat.S_IFMT(mode), "not a regular file")
    return ConfigError(f"config file {path} is {kind}, not a regular file; not read")
