"""What a change would make: the tree audited as it would be, before anything is written.

The tree is copied into a private temporary folder (0700, in the user's state folder, not
a shared /tmp: the copy holds what the memories hold; regular files and symlinks only,
each opened without following a link and without blocking on a FIFO, at most
``max_bytes`` each), audited, the change written into the copy, and audited again. A
finding the second audit has and the first has not (by dimension, code and file) is one
the change would make. Both audits are of a copy, so what lies around the tree (its
location, sessions) cancels out; the first is kept while the tree's files stay as they
were (one audit per question). The copy is removed when the review ends; one a killed
review left behind is removed by the next.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from memory_audit.fix.edits import Edit
from memory_audit.model.finding import Finding
from memory_audit.tree.discovery import TRASH
from memory_audit.tree.snapshot import other_limit

Audit = Callable[[Path], list[Finding]]  # the findings of a tree at this path
Stamp = tuple[tuple[str, int, int], ...]
PREFIX = "memory-audit-preview-"
LEFT_OVER = 24 * 3600  # a copy this old was left by a review that was killed: removed


def remove_left_over(parent: Path, now: float) -> None:
    """Copies a killed review left behind (never a live one's: those are fresh)."""
    try:
        entries = list(parent.glob(f"{PREFIX}*"))
    except OSError:
        return
    for entry in entries:
        with contextlib.suppress(OSError):
            if (
                entry.is_dir()
                and not entry.is_symlink()
                and now - entry.stat().st_mtime > LEFT_OVER
            ):
                shutil.rmtree(entry)


class Preview:
    """Previews of one tree, from one private copy made when first asked and made again
    only when the tree's files (names, sizes, modification times) changed: each change is
    written into the copy, audited, and undone. ``close`` removes the copy (so does the
    end of the process)."""

    def __init__(
        self,
        root: Path,
        audit: Audit,
        max_bytes: int,
        parent: Path | None = None,
        *,
        documents: bool = False,
    ) -> None:
        self.root = root
        # a workspace's documents: its root's own files alone (its folders are no part)
        self.documents = documents
        self.audit = audit
        self.max_bytes = max_bytes
        self.parent = parent  # where the copy goes: the user's private state folder
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._stamp: Stamp | None = None
        self._before: list[Finding] = []

    def __call__(self, edit: Edit) -> list[Finding]:
        stamp = _stamp(self.root, self.documents)
        folder = self._folder
        if folder is None or stamp != self._stamp:
            folder = self._refresh(stamp)
        copy = Path(folder.name) / self.root.name
        undo = _write(edit, copy)
        try:
            after = self.audit(copy)
        finally:
            _undo(undo)
        return _grown(self._before, after)

    def _refresh(self, stamp: Stamp) -> tempfile.TemporaryDirectory[str]:
        self.close()
        folder = tempfile.TemporaryDirectory(prefix=PREFIX, dir=self.parent)
        copy = Path(folder.name) / self.root.name
        _copy_tree(self.root, copy, self.max_bytes, self.documents)
        self._folder, self._stamp, self._before = folder, stamp, self.audit(copy)
        return folder

    def close(self) -> None:
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None


def _grown(before: list[Finding], after: list[Finding]) -> list[Finding]:
    grown = _kinds(after) - _kinds(before)
    made: list[Finding] = []
    for finding in after:
        kind = (finding.dimension, finding.code, finding.path)
        if grown[kind] > 0:
            grown[kind] -= 1
            made.append(finding)
    return made


def _kinds(findings: list[Finding]) -> Counter[tuple[str, str, str]]:
    return Counter((f.dimension, f.code, f.path) for f in findings)


def _stamp(source: Path, documents: bool = False) -> Stamp:
    """Every entry of the tree as (path, size, modification time): what a change alters."""
    stamp: list[tuple[str, int, int]] = []
    for folder, dirs, files in os.walk(source, followlinks=False):
        rel = Path(folder).relative_to(source)
        dirs[:] = [] if documents else sorted(d for d in dirs if d != TRASH)
        for name in sorted(files):
            try:
                info = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            stamp.append(((rel / name).as_posix(), info.st_size, info.st_mtime_ns))
    return tuple(stamp)


def _copy_tree(source: Path, target: Path, max_bytes: int, documents: bool = False) -> None:
    for folder, dirs, files in os.walk(source, followlinks=False):
        rel = Path(folder).relative_to(source)
        dirs[:] = [] if documents else [d for d in dirs if d != TRASH]
        (target / rel).mkdir(mode=0o700, parents=True, exist_ok=True)
        for name in files:
            # the audit reads every file for secrets up to the limit of a file that is no
            # memory: a copy cut at a memory's would hold less than the audit of the tree read
            limit = other_limit(max_bytes)
            _copy_one(Path(folder) / name, target / rel / name, limit)


def _copy_one(path: Path, to: Path, max_bytes: int) -> None:
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            os.symlink(os.readlink(path), to)
            return
        if not stat.S_ISREG(info.st_mode):
            return  # a FIFO, a socket, a device: never opened
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        data = os.read(fd, max_bytes + 1)
    except OSError:
        return
    finally:
        os.close(fd)
    to.write_bytes(data)
    to.chmod(0o600)


def _write(edit: Edit, copy: Path) -> list[tuple[Path, bytes | None]]:
    """The change written into the copy; what each touched path held before (None: it was
    not there), to undo it."""
    touched = [copy / c.after.rel for c in edit.changes]
    touched += [copy / c.rename_to for c in edit.changes if c.rename_to is not None]
    undo = [(path, path.read_bytes() if path.is_file() else None) for path in touched]
    for change in edit.changes:
        path = copy / change.after.rel
        if change.delete:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.write_bytes(change.after.encoded())
        if change.rename_to is not None:
            target = copy / change.rename_to
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            path.rename(target)
    return undo


def _undo(undo: list[tuple[Path, bytes | None]]) -> None:
    for path, held in reversed(undo):
        if held is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(held)
