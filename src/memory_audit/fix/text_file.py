"""Reading and writing a memory file the way it was: same line endings, same BOM.

Edits work on text with ``\\n`` line endings; writing restores the file's own
(CRLF stays CRLF) and is atomic, so an interrupted fix leaves the old file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memory_audit.atomic import write_atomic
from memory_audit.fix import tree_access

BOM = "\ufeff"


@dataclass(frozen=True)
class TextFile:
    path: Path
    text: str  # with "\n" line endings, no BOM
    newline: str
    bom: bool
    mode: int
    root: Path | None = None  # set when read through the tree guard: written through it too
    raw: bytes | None = None  # the bytes read, for the check right before a write

    @classmethod
    def read_in(cls, root: Path, rel: str) -> TextFile:
        """A file of the tree, through the guard: a regular file, no symlink on the way."""
        data, mode = tree_access.read_bytes(root, rel)
        return cls.decode(root / rel, data, mode, root)

    @classmethod
    def decode(cls, path: Path, data: bytes, mode: int, root: Path | None = None) -> TextFile:
        text = data.decode("utf-8")
        bom = text.startswith(BOM)
        text = text.removeprefix(BOM)
        newline = "\r\n" if "\r\n" in text else "\n"
        return cls(path, text.replace("\r\n", "\n"), newline, bom, mode, root, data)

    @classmethod
    def read(cls, path: Path) -> TextFile:
        data = path.read_bytes()
        text = data.decode("utf-8")
        bom = text.startswith(BOM)
        text = text.removeprefix(BOM)
        newline = "\r\n" if "\r\n" in text else "\n"
        return cls(path, text.replace("\r\n", "\n"), newline, bom, path.stat().st_mode & 0o777)

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def with_text(self, text: str) -> TextFile:
        return TextFile(self.path, text, self.newline, self.bom, self.mode, self.root)

    def encoded(self) -> bytes:
        text = self.text.replace("\n", self.newline)
        return ((BOM if self.bom else "") + text).encode("utf-8")

    def write(self) -> None:
        write_atomic(self.path, self.encoded(), mode=self.mode)


def new_file(path: Path, text: str, root: Path | None = None) -> TextFile:
    return TextFile(path, text, "\n", False, 0o644 & ~current_umask(), root)


def current_umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
