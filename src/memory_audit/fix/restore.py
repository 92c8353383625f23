"""Bringing a journaled version back: plan, show, confirm, write, record.

Reads and writes go through :mod:`memory_audit.fix.tree_access`, as ``review``'s do:
regular files inside the tree, never through a symlink (every folder from the tree
root down is opened with ``O_NOFOLLOW``, missing ones created the same way, and the
file is replaced with a rename in its own folder), and never over a change the user
has not seen: the file is read again right before the write and compared with what
the diff showed.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.fix import tree_access
from memory_audit.fix.text_file import current_umask
from memory_audit.journal.blobs import CorruptBlob
from memory_audit.journal.content import decoded
from memory_audit.journal.index import RESTORED, Actor, NewVersion, Version
from memory_audit.journal.store import Journal, why_unreadable
from memory_audit.model.visible import visible

MAX_READ = 64 * 1024 * 1024


class RestoreRefused(Exception):
    """A restore that must not happen (changed since shown, a symlink on the way, …)."""


@dataclass(frozen=True)
class RestorePlan:
    root: Path
    path: str
    version: Version
    content: bytes
    current: bytes | None  # the file as read before asking; None: the file does not exist
    shown: bytes | None = None  # ``current`` with secrets masked, as the journal keeps text
    masked: Callable[[bytes], bytes] | None = field(default=None, compare=False, repr=False)

    @property
    def needed(self) -> bool:
        """False when the file already says what the version says (secrets aside)."""
        return (self.current if self.shown is None else self.shown) != self.content


def read_current(root: Path, rel: str) -> bytes | None:
    """The file as it is now, read through the tree guard; None when absent."""
    try:
        return tree_access.read_if_present(_real(root), rel, MAX_READ)
    except tree_access.NotInTree as refused:
        raise RestoreRefused(str(refused)) from None


def _real(root: Path) -> Path:
    """The tree root as configured may be a symlink (a dotfiles manager's); below it,
    every step is opened without following one."""
    return Path(os.path.realpath(root))


def plan(
    journal: Journal, root: Path, version: Version, masked: Callable[[bytes], bytes]
) -> RestorePlan:
    try:
        content = journal.content(version)
    except CorruptBlob as exc:
        reason = why_unreadable(exc, journal.blobs.max_inflated)
        raise RestoreRefused(
            f"version {version.id} of {version.path}: {reason}; not restored"
        ) from None
    current = read_current(root, version.path)
    shown = None if current is None else masked(current)
    return RestorePlan(root, version.path, version, content, current, shown, masked)


def replan(journal: Journal, old: RestorePlan) -> RestorePlan:
    """The same version against the file as it is now (after a refused write)."""
    current = read_current(old.root, old.path)
    masked = old.masked if old.masked is not None else (lambda data: data)
    shown = None if current is None else masked(current)
    return RestorePlan(old.root, old.path, old.version, old.content, current, shown, masked)


def diff(plan: RestorePlan) -> str:
    """The preview: the file's name escaped (a newline in it cannot start a line of its own);
    its lines are made visible where they are printed (``Console.say``)."""
    name = visible(plan.path)
    if plan.current is None:
        header = f"{name}: the file was deleted; it comes back as version {plan.version.id}"
        return header + "\n" + _added(plan.content)
    # The masked text: a secret in the file never reaches the terminal.
    before = decoded(plan.shown or plan.current).splitlines(keepends=True)
    after = decoded(plan.content).splitlines(keepends=True)
    lines = difflib.unified_diff(
        before, after, f"{name} (now)", f"{name} (version {plan.version.id})"
    )
    return "".join(lines) or f"{name}: already identical to version {plan.version.id}\n"


def _added(content: bytes) -> str:
    return "".join("+" + line for line in decoded(content).splitlines(True))


def write(plan: RestorePlan) -> None:
    """Write the version, unless the file changed since the diff was shown."""
    write_checked(plan.root, plan.path, plan.current, plan.content)


def write_checked(root: Path, rel: str, shown: bytes | None, content: bytes) -> None:
    """Replace ``rel`` with ``content`` if it still holds ``shown`` (None: still absent).
    A tree deleted wholesale comes back with its first restored file, folders included."""
    try:
        folders = tree_access.parts_of(rel)[:-1]
        if not os.path.lexists(root):
            root.mkdir(parents=True)
        real = _real(root)
        if folders:
            tree_access.make_folders(real, "/".join(folders), 0o755)
        tree_access.replace(real, rel, content, 0o644 & ~current_umask(), expected=shown)
    except tree_access.NotInTree as refused:
        raise RestoreRefused(str(refused)) from None


def record(journal: Journal, plan: RestorePlan, reason: str, when: float) -> None:
    info = os.lstat(plan.root / plan.path)
    version = NewVersion(
        str(plan.root), plan.path, when, RESTORED, plan.version.blob, len(plan.content),
        info.st_mtime_ns, Actor("restore", None, reason[:80]), f"from version {plan.version.id}",
        plan.version.masked,
    )  # fmt: skip
    journal.index.add([version])
