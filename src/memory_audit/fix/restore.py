"""Bringing a journaled version back: plan, show, confirm, write, record.

Reads and writes go through :mod:`memory_audit.fix.tree_access`, as ``review``'s do:
the tree's folder is held open from the start (a tree whose folder is now a symlink is
refused, and so is a write once its path, or a folder above it, leads elsewhere),
regular files inside the tree only, never through a symlink (every folder from the
tree root down is opened with ``O_NOFOLLOW``, missing ones created the same way, and
the file is replaced with a rename in its own folder), and never over a change the
user has not seen: the file is read again right before the write and compared with
what the diff showed. MEMORY.md is written as review writes it, watching for another
writer (:mod:`memory_audit.fix.shared_write`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.fix import tree_access
from memory_audit.fix.shared_write import replace_shared
from memory_audit.fix.text_file import current_umask
from memory_audit.fix.tree_access import Tree
from memory_audit.journal.blobs import CorruptBlob
from memory_audit.journal.content import decoded
from memory_audit.journal.index import RESTORED, Actor, NewVersion, Version
from memory_audit.journal.store import Journal, why_unreadable
from memory_audit.model.visible import visible
from memory_audit.tree.index_file import INDEX_NAME

MAX_READ = 64 * 1024 * 1024


class RestoreRefused(Exception):
    """A restore that must not happen (changed since shown, a symlink on the way, …)."""


class TreeMoved(RestoreRefused):
    """The tree's folder, or one above it, was moved or swapped since the restore began."""


@dataclass(frozen=True)
class RestorePlan:
    tree: Tree
    path: str
    version: Version
    content: bytes
    current: bytes | None  # the file as read before asking; None: the file does not exist
    shown: bytes | None = None  # ``current`` with secrets masked, as the journal keeps text
    masked: Callable[[bytes], bytes] | None = field(default=None, compare=False, repr=False)

    @property
    def root(self) -> Path:
        return self.tree.path

    @property
    def needed(self) -> bool:
        """False when the file already says what the version says (secrets aside)."""
        return (self.current if self.shown is None else self.shown) != self.content


def open_tree(root: Path) -> Tree:
    """The tree held open for the whole restore; a root that is now a symlink (or a
    file) is refused: restore writes only into the tree's own folder."""
    try:
        return Tree.open(root)
    except tree_access.NotInTree as refused:
        raise RestoreRefused(f"not restored: {refused}") from None


def read_current(tree: Tree, rel: str) -> bytes | None:
    """The file as it is now, read through the tree guard; None when absent."""
    try:
        return tree.read_if_present(rel, MAX_READ)
    except tree_access.NotInTree as refused:
        raise RestoreRefused(str(refused)) from None


def plan(
    journal: Journal, tree: Tree, version: Version, masked: Callable[[bytes], bytes]
) -> RestorePlan:
    try:
        content = journal.content(version)
    except CorruptBlob as exc:
        reason = why_unreadable(exc, journal.blobs.max_inflated)
        raise RestoreRefused(
            f"version {version.id} of {version.path}: {reason}; not restored"
        ) from None
    current = read_current(tree, version.path)
    shown = None if current is None else masked(current)
    return RestorePlan(tree, version.path, version, content, current, shown, masked)


def replan(journal: Journal, old: RestorePlan) -> RestorePlan:
    """The same version against the file as it is now (after a refused write)."""
    current = read_current(old.tree, old.path)
    masked = old.masked if old.masked is not None else (lambda data: data)
    shown = None if current is None else masked(current)
    return RestorePlan(old.tree, old.path, old.version, old.content, current, shown, masked)


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
    write_checked(plan.tree, plan.path, plan.current, plan.content)


def write_checked(tree: Tree, rel: str, shown: bytes | None, content: bytes) -> None:
    """Replace ``rel`` with ``content`` if it still holds ``shown`` (None: still absent).
    A tree deleted wholesale comes back with its first restored file, folders included."""
    mode = 0o644 & ~current_umask()
    try:
        folders = tree_access.parts_of(rel)[:-1]
        tree.create_root()
        if folders:
            tree.make_folders("/".join(folders), 0o755)
        if rel == INDEX_NAME and shown is not None:
            replace_shared(tree, rel, shown, content, mode)
        else:
            tree.replace(rel, content, mode, expected=shown)
    except tree_access.Moved as moved:
        raise TreeMoved(str(moved)) from None
    except tree_access.NotInTree as refused:
        raise RestoreRefused(str(refused)) from None


def record(journal: Journal, plan: RestorePlan, reason: str, when: float) -> None:
    info = plan.tree.lstat(plan.path)
    version = NewVersion(
        str(plan.root), plan.path, when, RESTORED, plan.version.blob, len(plan.content),
        info.st_mtime_ns, Actor("restore", None, reason[:80]), f"from version {plan.version.id}",
        plan.version.masked,
    )  # fmt: skip
    journal.index.add([version])
