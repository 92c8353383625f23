"""Reading and writing a memory file the way it was: same line endings, same BOM.

Edits work on text with ``\\n`` line endings; writing restores the file's own
(CRLF stays CRLF). Every file is read (and later written) through its tree's guard,
:class:`memory_audit.fix.tree_access.Tree`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memory_audit.fix.tree_access import Tree

BOM = "\ufeff"
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def _empty_utf16(data: bytes) -> bool:
    """A UTF-16 byte order mark with blank lines at most after it."""
    if not data.startswith(UTF16_MARKS):
        return False
    try:
        return not data.decode("utf-16").strip()
    except UnicodeDecodeError:
        return False


@dataclass(frozen=True)
class TextFile:
    path: Path
    text: str  # with "\n" line endings, no BOM
    newline: str
    bom: bool
    mode: int
    tree: Tree  # read through this guard, and written through it too
    raw: bytes | None = None  # the bytes read, for the check right before a write

    @classmethod
    def read_in(cls, tree: Tree, rel: str) -> TextFile:
        """A file of the tree, through the guard: a regular file, no symlink on the way."""
        data, mode = tree.read_bytes(rel)
        return cls.decode(tree, rel, data, mode)

    @classmethod
    def decode(cls, tree: Tree, rel: str, data: bytes, mode: int) -> TextFile:
        # a UTF-16 byte order mark and no text is an empty file (the audit reads it so):
        # what a fix writes into it is UTF-8
        text = "" if _empty_utf16(data) else data.decode("utf-8")
        bom = text.startswith(BOM)
        text = text.removeprefix(BOM)
        newline = "\r\n" if "\r\n" in text else "\n"
        return cls(tree.path / rel, text.replace("\r\n", "\n"), newline, bom, mode, tree, data)

    @property
    def rel(self) -> str:
        """The path inside its tree."""
        return self.path.relative_to(self.tree.path).as_posix()

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def with_text(self, text: str) -> TextFile:
        return TextFile(self.path, text, self.newline, self.bom, self.mode, self.tree)

    def encoded(self) -> bytes:
        text = self.text.replace("\n", self.newline)
        return ((BOM if self.bom else "") + text).encode("utf-8")


def new_file(tree: Tree, rel: str, text: str) -> TextFile:
    return TextFile(tree.path / rel, text, "\n", False, 0o644 & ~current_umask(), tree)


def current_umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
