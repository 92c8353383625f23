"""An edit: the proposed new content of some files, shown as a diff, applied atomically.

Computing an edit never touches the disk; ``apply`` does, file by file with an
atomic rename, new files first, so an interruption leaves each file either as
it was or fully changed.
"""

from __future__ import annotations

import contextlib
import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from memory_audit.fix import tree_access
from memory_audit.fix.text_file import TextFile, new_file
from memory_audit.tree.index_file import INDEX_NAME


class StaleTarget(Exception):
    """The file changed since the audit: the finding must be checked again."""


def new_name(root: Path, name: str) -> Path:
    """Where a file the user named goes: a new ``.md`` file inside the tree, or StaleTarget
    (the session asks again)."""
    if not name.endswith(".md") or Path(name).is_absolute() or ".." in Path(name).parts:
        raise StaleTarget(f"`{name}` is not a .md file name inside the tree")
    try:
        taken = tree_access.exists(root, name)
    except tree_access.NotInTree as exc:  # e.g. a folder on the way is a symlink
        raise StaleTarget(str(exc)) from None
    if taken:
        raise StaleTarget(f"{name} already exists; choose another name")
    return root / name


def index_line_added(root: Path, line: str) -> FileChange:
    """MEMORY.md with ``line`` appended, read through the tree guard; created when the
    tree has none yet."""
    try:
        existing = (
            TextFile.read_in(root, INDEX_NAME) if tree_access.exists(root, INDEX_NAME) else None
        )
    except tree_access.NotInTree as exc:
        raise StaleTarget(str(exc)) from None
    index = existing or new_file(root / INDEX_NAME, "# Memory index\n", root)
    lines = [*index.text.rstrip("\n").split("\n"), line, ""]
    return FileChange(existing, index.with_text("\n".join(lines)))


@dataclass(frozen=True)
class FileChange:
    before: TextFile | None  # None: a new file
    after: TextFile
    rename_to: Path | None = None


@dataclass(frozen=True)
class Edit:
    description: str  # one line, for the changelog: "MEMORY.md: removed the line for gone.md"
    changes: tuple[FileChange, ...]

    def diff(self, root: Path) -> str:
        parts: list[str] = []
        for change in self.changes:
            old = change.before.text.splitlines(keepends=True) if change.before else []
            new = change.after.text.splitlines(keepends=True)
            name = change.after.path.relative_to(root).as_posix()
            target = (change.rename_to or change.after.path).relative_to(root).as_posix()
            parts.extend(
                difflib.unified_diff(
                    old, new, f"a/{name}" if change.before else "/dev/null", f"b/{target}", n=2
                )
            )
            if change.rename_to and old == new:
                parts.append(f"rename {name} → {target}\n")
        return "".join(parts)

    def changed_on_disk(self) -> str | None:
        """The first file that no longer holds what this edit was computed from, if any."""
        for change in self.changes:
            if change.before is None:
                continue
            try:
                current = change.before.path.read_bytes()
            except OSError:
                return change.before.path.name
            if current != change.before.encoded():
                return change.before.path.name
        return None

    def apply(self) -> None:
        """New files first; if a later write fails, the new files go again, so a failed fix
        leaves the tree as it was (each existing file is replaced atomically)."""
        created: list[Path] = []
        try:
            for change in sorted(self.changes, key=lambda c: c.before is not None):
                _apply_one(change)
                if change.before is None:
                    created.append(change.after.path)
        except BaseException:
            for path in created:
                with contextlib.suppress(OSError):
                    path.unlink()
            raise


def _apply_one(change: FileChange) -> None:
    if change.after.root is not None:
        try:
            _apply_in_tree(change, change.after.root)
        except tree_access.NotInTree as exc:
            raise StaleTarget(str(exc)) from None
        return
    if change.rename_to is not None:
        if change.rename_to.exists():
            raise StaleTarget(f"{change.rename_to.name} already exists")
        change.after.write()
        os.rename(change.after.path, change.rename_to)
    elif change.before is None or change.before.text != change.after.text:
        change.after.write()


def _apply_in_tree(change: FileChange, root: Path) -> None:
    """Through the tree guard: the file must still hold exactly the bytes the edit was
    computed from (a concurrent writer's lines are never lost), no symlink is followed."""
    rel = change.after.path.relative_to(root).as_posix()
    before = change.before
    expected = (
        None if before is None else before.raw if before.raw is not None else before.encoded()
    )
    if before is None or before.text != change.after.text:
        tree_access.replace(root, rel, change.after.encoded(), change.after.mode, expected)
    if change.rename_to is not None:
        tree_access.rename(root, rel, change.rename_to.relative_to(root).as_posix())
