"""Atomic, private file writes: a temporary file in the same folder, then rename.

A reader (or a crash) sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
import tempfile
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
# The encoding error handler of every text this program writes: a lone surrogate (a byte
# of a file name that is not UTF-8, as os.fsdecode holds it) is written as its escape,
# ``\xff``, never as a UnicodeEncodeError that loses the whole report.
UNDECODABLE = "memory-audit-undecodable"


def _escape_undecodable(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start : error.end]
    return "".join(_escape(ord(c)) for c in chunk), error.end


def _escape(code: int) -> str:
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


codecs.register_error(UNDECODABLE, _escape_undecodable)


def utf8(text: str) -> bytes:
    return text.encode("utf-8", UNDECODABLE)


def ensure_private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    os.chmod(path, PRIVATE_DIR)
    return path


def write_atomic(
    path: Path, data: bytes | str, mode: int = PRIVATE_FILE, *, durable: bool = True
) -> None:
    """Replace ``path``'s content. A symlink (a dotfiles manager's) stays a link: the
    new content goes to the file it points at. ``durable=False`` skips the ``fsync``, for
    a copy whose reader detects a torn one (after a power loss) and rebuilds it."""
    if path.is_symlink() and path.exists():
        path = path.resolve()
    payload = utf8(data) if isinstance(data, str) else data
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


class OutputRefused(Exception):
    """An output path that cannot take a file: the message says why."""


def write_output(path: Path, data: str, mode: int = PRIVATE_FILE) -> None:
    """Write a report where the user asked. A regular file (or a new one) is replaced
    atomically; a device, FIFO or socket (``/dev/null``, ``/dev/stdout``) is written in
    place, never replaced; a folder or a missing parent folder is refused."""
    try:
        info = os.stat(path)  # through symlinks: what the path leads to decides
    except FileNotFoundError:
        parent = path.absolute().parent
        if not os.path.isdir(parent):
            raise OutputRefused(f"the folder {parent} does not exist") from None
        _write_replacing(path, data, mode)
        return
    if stat.S_ISDIR(info.st_mode):
        raise OutputRefused(f"{path} is a folder; name a file in it")
    if stat.S_ISREG(info.st_mode):
        _write_replacing(path, data, mode)
        return
    try:
        with open(path, "w", encoding="utf-8", errors=UNDECODABLE) as handle:
            handle.write(data)
    except OSError as exc:
        raise OutputRefused(f"cannot write {path} ({exc.strerror or type(exc).__name__})") from None


def _write_replacing(path: Path, data: str, mode: int) -> None:
    try:
        write_atomic(path, data, mode)
    except OSError as exc:
        raise OutputRefused(f"cannot write {path} ({exc.strerror or type(exc).__name__})") from None
