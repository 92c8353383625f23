"""What a change would make: the tree audited as it would be, before anything is written.

The tree is copied into a private temporary folder (0700; regular files and symlinks
only, each opened without following a link and without blocking on a FIFO, and at most
``max_bytes`` each), audited, the change written into the copy, and audited again. A
finding the second audit has and the first has not (by dimension, code and file) is one
the change would make. Both audits are of the copy, so what lies around the tree (its
location, sessions) cancels out. The copy is removed at once; the real tree is only read.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from memory_audit.fix.edits import Edit
from memory_audit.model.finding import Finding

Audit = Callable[[Path], list[Finding]]  # the findings of a tree at this path


def made_by(edit: Edit, root: Path, audit: Audit, max_bytes: int) -> list[Finding]:
    """The findings ``edit`` would add to the tree at ``root``."""
    with tempfile.TemporaryDirectory(prefix="memory-audit-preview-") as folder:
        copy = Path(folder) / root.name
        _copy_tree(root, copy, max_bytes)
        before = audit(copy)
        _write(edit, copy)
        after = audit(copy)
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


def _copy_tree(source: Path, target: Path, max_bytes: int) -> None:
    for folder, dirs, files in os.walk(source, followlinks=False):
        rel = Path(folder).relative_to(source)
        dirs[:] = [d for d in dirs if d != ".trash"]
        (target / rel).mkdir(mode=0o700, parents=True, exist_ok=True)
        for name in files:
            _copy_one(Path(folder) / name, target / rel / name, max_bytes)


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


def _write(edit: Edit, copy: Path) -> None:
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
