"""Reading and writing a memory file the way it was: same line endings, same BOM.

Edits work on text with ``\\n`` line endings; writing restores the file's own
(CRLF stays CRLF) and is atomic, so an interrupted fix leaves the old file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memory_audit.atomic import write_atomic

BOM = "\ufeff"


@dataclass(frozen=True)
class TextFile:
    path: Path
    text: str  # with "\n" line endings, no BOM
    newline: str
    bom: bool
    mode: int

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
        return TextFile(self.path, text, self.newline, self.bom, self.mode)

    def encoded(self) -> bytes:
        text = self.text.replace("\n", self.newline)
        return ((BOM if self.bom else "") + text).encode("utf-8")

    def write(self) -> None:
        write_atomic(self.path, self.encoded(), mode=self.mode)


def new_file(path: Path, text: str) -> TextFile:
    return TextFile(path, text, "\n", False, 0o644 & ~_umask())


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
