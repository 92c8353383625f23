"""The one way ``review`` and ``restore`` read and write a memory tree: regular files
inside it, nothing else.

A :class:`Tree` holds its root folder open from the start of the session (opened with
``O_NOFOLLOW | O_DIRECTORY``: a root that is a symlink is refused). Every path below it
is opened from that descriptor one folder at a time with ``O_NOFOLLOW`` (so a folder
swapped for a symlink leads nowhere), the file itself with ``O_NOFOLLOW | O_NONBLOCK``
(a symlink or a FIFO never blocks or redirects), checked to be a regular file and read
up to a size cap (``/dev/zero`` cannot exhaust memory). A write goes to a temporary
file in the same folder and is renamed over the entry, relative to that folder's
descriptor: the rename replaces the directory entry, never what a symlink points at.

The folders *above* the root are not opened one by one (a dotfiles manager may link
``~/.claude``), so before every write the root's path is looked up again, following
links, and must still lead to the very folder held open: a folder above it moved or
swapped for a symlink meanwhile ends in :class:`Moved`, nothing written. A root that
did not exist at the start (a tree deleted wholesale, a store not created yet) is held
as its nearest existing folder, and the missing folders are created from there.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from types import TracebackType

MAX_BYTES = 16 * 1024 * 1024
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class NotInTree(Exception):
    """A path review must not touch; the message says why, for the user."""


class Missing(NotInTree):
    """The file, or a folder on the way to it, does not exist."""


class Moved(NotInTree):
    """The tree's folder is no longer where the session found it: nothing more is written."""


def parts_of(rel: str) -> list[str]:
    """The components of a tree path, or NotInTree for anything that could leave the tree."""
    path = PurePosixPath(rel)
    if not rel or path.is_absolute() or any(p in ("", ".", "..") for p in rel.split("/")):
        raise NotInTree(f"`{rel}` is not a path inside the tree")
    return list(path.parts)


class Tree:
    """A tree root held open; see the module's docstring."""

    def __init__(self, path: Path, fd: int, missing: tuple[str, ...]) -> None:
        self.path = path
        self._fd = fd  # the root's, or its nearest existing folder's while ``missing``
        self._missing = missing  # the folders from there down to the root, not there yet

    @classmethod
    def open(cls, path: Path) -> Tree:
        """Hold ``path`` open; a symlink (or a file) in its place is refused."""
        missing: list[str] = []
        folder = Path(os.path.abspath(path))
        while True:
            try:
                fd = os.open(folder, DIR_FLAGS)
            except FileNotFoundError:
                if folder.parent == folder:
                    raise Missing(f"{path} does not exist") from None
                missing.insert(0, folder.name)
                folder = folder.parent
                continue
            except OSError as exc:
                raise NotInTree(_root_refusal(folder, exc)) from None
            return cls(Path(os.path.abspath(path)), fd, tuple(missing))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)

    def __enter__(self) -> Tree:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ---- reading -----------------------------------------------------------------------

    @contextlib.contextmanager
    def folder_of(self, rel: str) -> Iterator[tuple[int, str]]:
        """(descriptor of the folder holding ``rel``, its file name), every folder opened
        from the held root without following symlinks."""
        *folders, name = parts_of(rel)
        if self._missing:
            raise Missing(f"{rel} no longer exists")
        fd = os.dup(self._fd)
        try:
            for folder in folders:
                inner = open_at(folder, DIR_FLAGS, fd, rel)
                os.close(fd)
                fd = inner
            yield fd, name
        finally:
            os.close(fd)

    def read_bytes(self, rel: str, limit: int = MAX_BYTES) -> tuple[bytes, int]:
        """The content and permission bits of a regular file inside the tree."""
        with self.folder_of(rel) as (folder, name):
            fd = open_at(name, READ_FLAGS, folder, rel)
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

    def read_if_present(self, rel: str, limit: int = MAX_BYTES) -> bytes | None:
        """:meth:`read_bytes`'s content, or None when the file or a folder on the way (the
        root included) does not exist."""
        try:
            return self.read_bytes(rel, limit)[0]
        except Missing:
            return None

    def exists(self, rel: str) -> bool:
        """Whether anything (a file, a link, a folder) has that name inside the tree."""
        try:
            return self.lstat(rel) is not None
        except Missing:
            return False

    def lstat(self, rel: str) -> os.stat_result:
        with self.folder_of(rel) as (folder, name):
            try:
                return os.stat(name, dir_fd=folder, follow_symlinks=False)
            except FileNotFoundError:
                raise Missing(f"{rel} no longer exists") from None

    # ---- writing: each first checks the root is still where it was ---------------------

    def check_in_place(self) -> None:
        """Moved when the root's path (followed through any link above it) no longer leads
        to the folder held open, or, for a root still to create, its nearest folder."""
        anchor = self.path.parents[len(self._missing) - 1] if self._missing else self.path
        held = os.fstat(self._fd)
        try:
            now = os.stat(anchor)
        except OSError:
            now = None
        if now is None or (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
            raise Moved(
                f"{self.path} is no longer the folder this session opened (it, or a folder "
                "above it, was moved or replaced, e.g. by a symlink); nothing written"
            )

    def create_root(self) -> None:
        """Create the root's missing folders (a tree deleted wholesale, a new store), each
        from the one above it, without following a symlink."""
        self.check_in_place()
        for name in self._missing:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, dir_fd=self._fd)  # the umask applies, as for any new folder
            inner = open_at(name, DIR_FLAGS, self._fd, str(self.path))
            os.close(self._fd)
            self._fd = inner
            self._missing = self._missing[1:]

    def replace(self, rel: str, data: bytes, mode: int, expected: bytes | None) -> None:
        """Write ``data`` at ``rel``. ``expected`` is what the user was shown: the file must
        still hold exactly those bytes (None: it must not exist), checked right before."""
        self.check_in_place()
        with self.folder_of(rel) as (folder, name):
            check_unchanged(folder, name, rel, expected)
            temp = write_temp(folder, name, data, mode)
            try:
                os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp, dir_fd=folder)
                raise

    def append(self, rel: str, data: bytes) -> None:
        """Add ``data`` at the end of an existing regular file, as an appending writer does."""
        self.check_in_place()
        with self.folder_of(rel) as (folder, name):
            flags = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
            fd = open_at(name, flags, folder, rel)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise NotInTree(f"{rel} is no longer a regular file; nothing written")
                os.write(fd, data)
            finally:
                os.close(fd)

    def rename(self, rel: str, to: str) -> None:
        """Move a file (or a folder) within its folder or into another folder of the tree;
        never over an existing name."""
        self.check_in_place()
        if self.exists(to):
            raise NotInTree(f"{to} already exists")
        with self.folder_of(rel) as (source, name), self.folder_of(to) as (target, new_name):
            os.rename(name, new_name, src_dir_fd=source, dst_dir_fd=target)

    def make_folders(self, rel: str, mode: int = 0o777) -> None:
        """Create the folder ``rel`` (and those on the way) inside the tree; an existing one
        is kept. Each is opened without following symlinks, as every other path here."""
        self.create_root()
        fd = os.dup(self._fd)
        try:
            for name in parts_of(rel):
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, mode, dir_fd=fd)  # the umask applies, as for any new folder
                inner = open_at(name, DIR_FLAGS, fd, rel)
                os.close(fd)
                fd = inner
        finally:
            os.close(fd)

    def remove(self, rel: str, expected: bytes) -> None:
        """Delete a file that still holds exactly ``expected`` (a copy made moments ago)."""
        self.check_in_place()
        with self.folder_of(rel) as (folder, name):
            check_unchanged(folder, name, rel, expected)
            os.unlink(name, dir_fd=folder)

    def holds(self, name: str, other: Tree) -> bool:
        """Whether the entry ``name`` of this folder is ``other``'s held root (not a
        folder put in its place)."""
        try:
            here = self.lstat(name)
        except NotInTree:
            return False
        held = os.fstat(other._fd)
        return not other._missing and (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino)


def write_temp(folder: int, name: str, data: bytes, mode: int) -> str:
    """A new temporary file beside ``name`` holding ``data``, on disk; its name."""
    temp = f".{name}.{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temp, flags, mode, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode, dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        raise
    return temp


def check_unchanged(folder: int, name: str, rel: str, expected: bytes | None) -> None:
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=folder)
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


def open_at(name: str, flags: int, folder: int | None, rel: str) -> int:
    try:
        return os.open(name, flags, dir_fd=folder)
    except FileNotFoundError as exc:
        raise Missing(_refusal(rel, exc)) from None
    except OSError as exc:
        raise NotInTree(_refusal(rel, exc)) from None


def _root_refusal(folder: Path, exc: OSError) -> str:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return (
            f"{folder} is a symlink (or not a folder); memory-audit writes only into "
            "the tree's own folder, never through a link"
        )
    return f"{folder}: {exc.strerror or type(exc).__name__}"


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
