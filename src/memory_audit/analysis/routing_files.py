"""Which instruction file of a repository routes sessions to a memory folder.

A repository can keep memory folders that are read through its own files rather than
through a MEMORY.md of theirs: a CLAUDE.md that says "client memory is in
``clients/[domain]/memory/``", a "project memory" section linking ``memory/roadmap.md``,
a root MEMORY.md that loads them. Such a file, in a folder above the tree up to the
project root, names the folder (a ``[placeholder]``, ``<placeholder>``, ``{placeholder}``
or ``*`` standing for one folder above it) or a file inside it; its own MEMORY.md does not count,
since a link to the missing index is no route around it. Files are read bounded, and each
line is split once: linear in their size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.snapshot import MemoryTree
from memory_audit.tree.walk import read_text

ROUTING_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "AGENTS.md", INDEX_NAME)
MAX_BYTES = 256 * 1024
SEPARATORS = str.maketrans({c: " " for c in "`()\"'|,;"})
PLACEHOLDERS = (("[", "]"), ("<", ">"), ("{", "}"))


@dataclass(frozen=True)
class Route:
    file: str  # the routing file, relative to the project root (or by name)
    line: int


def routed_from(tree: MemoryTree) -> Route | None:
    """The nearest instruction file above the tree that names it, if any."""
    project = tree.location.project_path
    for folder in _folders_above(tree.root, project):
        folder_parts = tree.root.parts[len(folder.parts) :]
        for name in ROUTING_FILES:
            line = _line_naming(folder / name, folder_parts)
            if line is not None:
                return Route(_shown(folder / name, project), line)
    return None


def _folders_above(root: Path, project: Path | None) -> list[Path]:
    """From the tree's parent up to the project root; the parent alone without one."""
    if project is None or project == root or not root.is_relative_to(project):
        return [root.parent]
    return [p for p in root.parents if p.is_relative_to(project)]


def _line_naming(path: Path, folder: tuple[str, ...]) -> int | None:
    text = read_text(path, MAX_BYTES).text if path.is_file() else None
    for number, line in enumerate((text or "").splitlines(), 1):
        if "/" in line and any(_names(word, folder) for word in _words(line)):
            return number
    return None


def _words(line: str) -> list[str]:
    return [w.strip(".:*") for w in line.translate(SEPARATORS).split() if "/" in w]


def _names(word: str, folder: tuple[str, ...]) -> bool:
    parts = [p for p in word.replace("\\", "/").split("/") if p not in ("", ".")]
    if len(parts) < len(folder) or parts[len(folder) :] == [INDEX_NAME]:
        return False
    last = len(folder) - 1  # the memory folder itself is named, never a placeholder
    pairs = enumerate(zip(parts, folder, strict=False))  # parts may go on into the folder
    return all(p == f or (i < last and _placeholder(p)) for i, (p, f) in pairs)


def _placeholder(part: str) -> bool:
    return part == "*" or any(
        len(part) > 2 and part[0] == o and part[-1] == c for o, c in PLACEHOLDERS
    )


def _shown(path: Path, project: Path | None) -> str:
    if project is not None and path.is_relative_to(project):
        return path.relative_to(project).as_posix()
    return path.name
