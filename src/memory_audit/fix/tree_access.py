"""The one way ``review`` reads and writes a memory tree: regular files inside it, nothing else.

Every path is opened from the tree's root one folder at a time with ``O_NOFOLLOW``
(so a folder swapped for a symlink leads nowhere), the file itself with
``O_NOFOLLOW | O_NONBLOCK`` (a symlink or a FIFO never blocks or redirects), checked
to be a regular file and read up to a size cap (``/dev/zero`` cannot exhaust memory).
A write goes to a temporary file in the same folder and is renamed over the entry,
relative to that folder's descriptor: the rename replaces the directory entry, never
what a symlink points at.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

MAX_BYTES = 16 * 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class NotInTree(Exception):
    """A path review must not touch; the message says why, for the user."""


class Missing(NotInTree):
    """The file, or a folder on the way to it, does not exist."""


def parts_of(rel: str) -> list[str]:
    """The components of a tree path, or NotInTree for anything that could leave the tree."""
    path = PurePosixPath(rel)
    if not rel or path.is_absolute() or any(p in ("", ".", "..") for p in rel.split("/")):
        raise NotInTree(f"`{rel}` is not a path inside the tree")
    return list(path.parts)


@contextlib.contextmanager
def folder_of(root: Path, rel: str) -> Iterator[tuple[int, str]]:
    """(descriptor of the folder holding ``rel``, its file name), every folder opened
    without following symlinks."""
    *folders, name = parts_of(rel)
    fd = _open(str(root), _DIR_FLAGS, None, rel)
    try:
        for folder in folders:
            inner = _open(folder, _DIR_FLAGS, fd, rel)
            os.close(fd)
            fd = inner
        yield fd, name
    finally:
        os.close(fd)


def read_bytes(root: Path, rel: str, limit: int = MAX_BYTES) -> tuple[bytes, int]:
    """The content and permission bits of a regular file inside the tree."""
    with folder_of(root, rel) as (folder, name):
        fd = _open(name, _READ_FLAGS, folder, rel)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise NotInTree(f"{rel} is not a regular file; not opened")
            if info.st_size > limit:
                raise NotInTree(f"{rel} is {info.st_size:,} bytes, over the {limit:,} limit")
            data = handle.read(limit + 1)
    if len(data) > limit:
        raise NotInTree(f"{rel} grew over the {limit:,}-byte limit while read")
    return data, stat.S_IMODE(info.st_mode)


def read_if_present(root: Path, rel: str, limit: int = MAX_BYTES) -> bytes | None:
    """:func:`read_bytes`'s content, or None when the file or a folder on the way (the
    root included) does not exist."""
    try:
        return read_bytes(root, rel, limit)[0]
    except Missing:
        return None


def exists(root: Path, rel: str) -> bool:
    """Whether anything (a file, a link, a folder) has that name inside the tree."""
    with folder_of(root, rel) as (folder, name):
        try:
            os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            return False
    return True


def replace(root: Path, rel: str, data: bytes, mode: int, expected: bytes | None) -> None:
    """Write ``data`` at ``rel``. ``expected`` is what the user was shown: the file must
    still hold exactly those bytes (None: it must not exist), checked right before."""
    with folder_of(root, rel) as (folder, name):
        _check_unchanged(folder, name, rel, expected)
        temp = f".{name}.{secrets.token_hex(4)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(temp, flags, mode, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, mode, dir_fd=folder)
            os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=folder)
            raise


def rename(root: Path, rel: str, to: str) -> None:
    """Move a file (or a folder) within its folder or into another folder of the tree;
    never over an existing name."""
    if exists(root, to):
        raise NotInTree(f"{to} already exists")
    with folder_of(root, rel) as (source, name), folder_of(root, to) as (target, new_name):
        os.rename(name, new_name, src_dir_fd=source, dst_dir_fd=target)


def make_folders(root: Path, rel: str, mode: int = 0o777) -> None:
    """Create the folder ``rel`` (and those on the way) inside ``root``; an existing one
    is kept. Each is opened without following symlinks, as every other path here."""
    fd = _open(str(root), _DIR_FLAGS, None, rel)
    try:
        for name in parts_of(rel):
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, mode, dir_fd=fd)  # the umask applies, as for any new folder
            inner = _open(name, _DIR_FLAGS, fd, rel)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)


def remove(root: Path, rel: str, expected: bytes) -> None:
    """Delete a file that still holds exactly ``expected`` (a copy made moments ago)."""
    with folder_of(root, rel) as (folder, name):
        _check_unchanged(folder, name, rel, expected)
        os.unlink(name, dir_fd=folder)


def _check_unchanged(folder: int, name: str, rel: str, expected: bytes | None) -> None:
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        if expected is None:
            return
        raise NotInTree(f"{rel} was removed since it was shown; nothing written") from None
    except OSError as exc:
        raise NotInTree(_refusal(rel, exc)) from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise NotInTree(f"{rel} is no longer a regular file; nothing written")
        current = handle.read(MAX_BYTES + 1)
    if expected is None or current != expected:
        raise NotInTree(f"{rel} changed since it was shown; nothing written")


def _open(name: str, flags: int, folder: int | None, rel: str) -> int:
    try:
        return os.open(name, flags, dir_fd=folder)
    except FileNotFoundError as exc:
        raise Missing(_refusal(rel, exc)) from None
    except OSError as exc:
        raise NotInTree(_refusal(rel, exc)) from None


def _refusal(rel: str, exc: OSError) -> str:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return (
            f"{rel} is reached through a symlink; memory-audit touches only files inside the tree"
        )
    if isinstance(exc, FileNotFoundError):
        return f"{rel} no longer exists"
    if isinstance(exc, PermissionError):
        return f"{rel} is unreadable (permission denied)"
    return f"{rel}: {exc.strerror or type(exc).__name__}"
