"""An edit: the proposed new content of some files, shown as a diff, applied atomically.

Computing an edit never touches the disk; ``apply`` does, file by file with an
atomic rename, new files first, so an interruption leaves each file either as
it was or fully changed.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from memory_audit.fix.text_file import TextFile


class StaleTarget(Exception):
    """The file changed since the audit: the finding must be checked again."""


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

    def apply(self) -> None:
        for change in sorted(self.changes, key=lambda c: c.before is not None):
            if change.rename_to is not None:
                if change.rename_to.exists():
                    raise StaleTarget(f"{change.rename_to.name} already exists")
                change.after.write()
                os.rename(change.after.path, change.rename_to)
            elif change.before is None or change.before.text != change.after.text:
                change.after.write()
