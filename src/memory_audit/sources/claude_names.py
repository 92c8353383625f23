"""What else a ``[[wikilink]]`` in a memory can name: Claude Code's other notes.

Memories link skills (``[[doc-finder]]``), agents (``[[auditor]]``), commands,
``[[CLAUDE]]``, notes kept beside the memory folder (a vault's ``[[anti-patterns]]``),
headings of a CLAUDE.md and memories of the user's other stores. Only names are
gathered: folders are listed, CLAUDE.md files are read for their headings (bounded);
nothing else outside the tree is read, and nothing is written.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from memory_audit.config.paths import claude_home
from memory_audit.regular_files import read_regular

ANCESTORS = 6  # folders above a memory tree that may hold skills/, agents/ or notes
KINDS = ("skills", "agents", "commands")
MAX_NAMES_PER_FOLDER = 2_000
MAX_STORES = 500
HEADING_BYTES = 256 * 1024


def outside_names(tree_root: Path, project: Path | None) -> frozenset[str]:
    """Every name a wikilink in this tree may mean outside the tree itself."""
    home = claude_home()
    bases = [*_ancestors(tree_root), home]
    if project is not None:
        bases += [project, project / ".claude"]
    names: set[str] = set()
    for base in dict.fromkeys(bases):
        names.update(_notes(base))
        for kind in KINDS:
            names.update(_notes(base / kind, folders=True))
    for claude_md in (home / "CLAUDE.md", *(p / "CLAUDE.md" for p in bases)):
        names.update(_headings(claude_md))
    names.update(_other_stores(home))
    return frozenset(names)


def _ancestors(root: Path) -> Iterator[Path]:
    for parent in list(root.parents)[:ANCESTORS]:
        if parent == Path(parent.anchor):
            return
        yield parent


def _notes(folder: Path, *, folders: bool = False) -> Iterator[str]:
    """Stems of the ``.md`` files in ``folder`` (and its sub-folders' names when asked)."""
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_NAMES_PER_FOLDER:
                    return
                if entry.name.endswith(".md"):
                    yield entry.name[:-3]
                elif folders and entry.is_dir(follow_symlinks=False):
                    yield entry.name
    except OSError:
        return


def _headings(path: Path) -> Iterator[str]:
    try:  # a CLAUDE.md that is a pipe is not waited on (nor a device read)
        text = read_regular(path, HEADING_BYTES).decode("utf-8", "replace")
    except OSError:
        return
    for line in text.splitlines():
        if line.startswith("#"):
            yield line.lstrip("#").strip()


def _other_stores(home: Path) -> Iterator[str]:
    """Memory file stems of every project's and agent's store on this machine."""
    stores = [
        *(p / "memory" for p in _folders(home / "projects")),
        *_folders(home / "agent-memory"),
    ]
    for store in stores[:MAX_STORES]:
        yield from _notes(store)


def _folders(parent: Path) -> list[Path]:
    try:
        with os.scandir(parent) as entries:
            return sorted(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return []
