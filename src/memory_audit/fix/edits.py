"""An edit: the proposed new content of some files, shown as a diff, applied atomically.

Computing an edit never touches the disk; ``apply`` does, file by file with an
atomic rename, new files first, so an interruption leaves each file either as
it was or fully changed.
"""

from __future__ import annotations

import contextlib
import difflib
from dataclasses import dataclass
from pathlib import Path

from memory_audit.fix import tree_access
from memory_audit.fix.shared_write import replace_shared
from memory_audit.fix.text_file import TextFile, new_file
from memory_audit.fix.tree_access import Tree
from memory_audit.tree.index_file import INDEX_NAME


class StaleTarget(Exception):
    """The file changed since the audit: the finding must be checked again."""


class NeedsValue(Exception):
    """The answer would leave the file with a new finding (a required value left blank):
    the session asks for another one, nothing written."""


def new_name(tree: Tree, name: str) -> str:
    """Where a file the user named goes: a new ``.md`` file inside the tree (its path in
    the tree), or StaleTarget (the session asks again)."""
    if not name.endswith(".md") or Path(name).is_absolute() or ".." in Path(name).parts:
        raise StaleTarget(f"`{name}` is not a .md file name inside the tree")
    try:
        taken = tree.exists(name)
    except tree_access.NotInTree as exc:  # e.g. a folder on the way is a symlink
        raise StaleTarget(str(exc)) from None
    if taken:
        raise StaleTarget(f"{name} already exists; choose another name")
    return name


def index_line_added(tree: Tree, line: str) -> FileChange:
    """MEMORY.md with ``line`` appended, read through the tree guard; created when the
    tree has none yet."""
    try:
        existing = TextFile.read_in(tree, INDEX_NAME) if tree.exists(INDEX_NAME) else None
    except tree_access.NotInTree as exc:
        raise StaleTarget(str(exc)) from None
    index = existing or new_file(tree, INDEX_NAME, "# Memory index\n")
    lines = [*index.text.rstrip("\n").split("\n"), line, ""]
    return FileChange(existing, index.with_text("\n".join(lines)))


@dataclass(frozen=True)
class FileChange:
    before: TextFile | None  # None: a new file
    after: TextFile
    rename_to: str | None = None  # a path in the same tree (its folders made as needed)
    delete: bool = False  # the file goes (the journal keeps its last version)


@dataclass(frozen=True)
class Edit:
    description: str  # one line, for the changelog: "MEMORY.md: removed the line for gone.md"
    changes: tuple[FileChange, ...]

    def diff(self) -> str:
        parts: list[str] = []
        for change in self.changes:
            old = change.before.text.splitlines(keepends=True) if change.before else []
            new = [] if change.delete else change.after.text.splitlines(keepends=True)
            name = change.after.rel
            target = "/dev/null" if change.delete else f"b/{change.rename_to or name}"
            source = f"a/{name}" if change.before else "/dev/null"
            parts.extend(difflib.unified_diff(old, new, source, target, n=2))
            target = change.rename_to or name
            if change.rename_to and old == new:
                parts.append(f"rename {name} → {target}\n")
        return "".join(parts)

    def changed_on_disk(self) -> str | None:
        """The first file that no longer holds what this edit was computed from, if any."""
        for change in self.changes:
            before = change.before
            if before is None:
                continue
            try:
                current = before.tree.read_bytes(before.rel)[0]
            except (OSError, tree_access.NotInTree):
                return before.path.name
            if current != _bytes_of(before):
                return before.path.name
        return None

    def apply(self) -> None:
        """New files first; if a later write fails, the new files go again, so a failed fix
        leaves the tree as it was (each existing file is replaced atomically). Every write
        goes through the tree guard; a tree moved meanwhile raises tree_access.Moved."""
        created: list[TextFile] = []
        try:
            for change in sorted(self.changes, key=lambda c: c.before is not None):
                _apply_one(change)
                if change.before is None:
                    created.append(change.after)
        except BaseException:
            for made in created:
                with contextlib.suppress(OSError, tree_access.NotInTree):
                    made.tree.remove(made.rel, made.encoded())
            raise


def _bytes_of(before: TextFile) -> bytes:
    return before.raw if before.raw is not None else before.encoded()


def _apply_one(change: FileChange) -> None:
    try:
        _apply_in_tree(change)
    except tree_access.Moved:
        raise
    except tree_access.NotInTree as exc:
        raise StaleTarget(str(exc)) from None


def _apply_in_tree(change: FileChange) -> None:
    """Through the tree guard: the file must still hold exactly the bytes the edit was
    computed from (a concurrent writer's lines are never lost), no symlink is followed.
    MEMORY.md, which Claude Code may be writing at the same moment, goes through
    :func:`memory_audit.fix.shared_write.replace_shared`."""
    after, before = change.after, change.before
    tree, rel = after.tree, after.rel
    if change.delete and before is not None:
        tree.remove(rel, _bytes_of(before))
        return
    if before is None:
        tree.replace(rel, after.encoded(), after.mode, None)
    elif before.text != after.text:
        if rel == INDEX_NAME:
            replace_shared(tree, rel, _bytes_of(before), after.encoded(), after.mode)
        else:
            tree.replace(rel, after.encoded(), after.mode, _bytes_of(before))
    if change.rename_to is not None:
        folder = change.rename_to.rpartition("/")[0]
        if folder:
            tree.make_folders(folder)
        tree.rename(rel, change.rename_to)
