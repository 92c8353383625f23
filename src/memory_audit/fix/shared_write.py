"""Writing MEMORY.md while Claude Code may be writing it too, without losing its line.

Claude Code writes MEMORY.md with a plain write (no lock file, no rename), so there is no
lock to share. A fix replaces the file with a rename (atomic: a crash leaves the old file
or the new one), and a rename has one way to lose another writer's line: a writer that
opened MEMORY.md before the rename writes into the file the rename replaced. So:

1. The file is opened and read: it must hold exactly the bytes the fix was computed from,
   else nothing is written and the session checks the finding again and asks again.
2. The new content goes to a temporary file beside it, on disk.
3. Right before the rename the file is read again through the descriptor still open on
   it, and its name must still lead to that file: any change, and the temporary file is
   removed, nothing is written, and the fix is offered again.
4. The rename.
5. The replaced file is watched through that descriptor until it has been quiet for
   ``SETTLE`` seconds: a line appended there (the writer had it open before the rename)
   is appended to the new MEMORY.md, as its writer meant; a replaced file rewritten
   otherwise is put back (their version wins), and the fix is offered again on it.
6. The new MEMORY.md is read: when a writer wrote the whole file over the fix (a plain
   write of what it had read before the rename, plus its line), the fix is redone on
   that content through these same steps; any other content is theirs: kept, and the
   fix is offered again.

Left open, as for any writer without a shared lock: a writer that opened the file
before the rename and writes only after the quiet ``SETTLE`` window.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time

from memory_audit.fix.tree_access import (
    MAX_BYTES,
    READ_FLAGS,
    NotInTree,
    Tree,
    open_at,
    write_temp,
)

SETTLE = 0.1  # seconds the replaced file must stay unchanged after the rename
WATCH_LIMIT = 2.0  # a writer still appending to the replaced file after this is not waited for
POLL = 0.005
REDOS = 3  # times the fix is redone on a file written over it, before asking again


class Overtaken(NotInTree):
    """Another writer changed the file as the fix was written: nothing of theirs is lost,
    the fix is offered again on what the file holds now."""


def replace_shared(
    tree: Tree, rel: str, base: bytes, new: bytes, mode: int, redos: int = REDOS
) -> None:
    """Replace ``rel`` (which must hold ``base``) with ``new``; see the module docstring."""
    tree.check_in_place()
    with tree.folder_of(rel) as (folder, name):
        replaced = _swap(folder, name, rel, base, new, mode)
    if replaced != base:
        _recover(tree, rel, base, new, replaced, mode)
    current = tree.read_bytes(rel)[0]
    if current.startswith(new):
        return  # lines appended after the rename went to the new file: nothing lost
    if current.startswith(base) and redos:
        replace_shared(tree, rel, current, new + current[len(base) :], mode, redos - 1)
        return
    raise Overtaken(
        f"{rel} was rewritten by another program as the fix was written; their version is kept"
    )


def _swap(folder: int, name: str, rel: str, base: bytes, new: bytes, mode: int) -> bytes:
    """Steps 1 to 5: the replaced file's content once it has settled."""
    fd = _open_regular(folder, name, rel)
    try:
        if _read_all(fd) != base:
            raise NotInTree(f"{rel} changed since it was shown; nothing written")
        temp = write_temp(folder, name, new, mode)
        try:
            if _read_all(fd) != base or not _same_file(folder, name, fd):
                raise Overtaken(f"{rel} was written by another program just now; nothing written")
            os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=folder)
            raise
        return _settled(fd)
    finally:
        os.close(fd)


def _recover(tree: Tree, rel: str, base: bytes, new: bytes, replaced: bytes, mode: int) -> None:
    """A writer wrote into the file the rename replaced: its appended bytes go to the end
    of the new file; a rewrite of the whole file is put back instead of the fix."""
    if replaced.startswith(base):
        tree.append(rel, replaced[len(base) :])
        return
    current = tree.read_bytes(rel)[0]
    if current.startswith(new):
        tree.replace(rel, replaced + current[len(new) :], mode, expected=current)
    raise Overtaken(
        f"{rel} was rewritten by another program as the fix was written; their version is kept"
    )


def _settled(fd: int) -> bytes:
    seen = _read_all(fd)
    start = quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < SETTLE and time.monotonic() - start < WATCH_LIMIT:
        time.sleep(POLL)
        now = _read_all(fd)
        if now != seen:
            seen, quiet_since = now, time.monotonic()
    return seen


def _open_regular(folder: int, name: str, rel: str) -> int:
    fd = open_at(name, READ_FLAGS, folder, rel)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotInTree(f"{rel} is no longer a regular file; nothing written")
    return fd


def _same_file(folder: int, name: str, fd: int) -> bool:
    try:
        entry = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    held = os.fstat(fd)
    return (entry.st_dev, entry.st_ino) == (held.st_dev, held.st_ino)


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    offset = 0
    while offset <= MAX_BYTES:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)
