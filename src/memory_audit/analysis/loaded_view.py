"""What a session of a project receives from its memory, and an account of it.

Built from the snapshot's :class:`~memory_audit.tree.load_budget.LoadedIndex`
(Claude Code's cut of MEMORY.md) and the recall scan, for ``memory-audit
loaded``. When the project loads the whole index itself (a CLAUDE.md import, an
instruction to read it, there or in the index's own loaded lines:
:mod:`memory_audit.analysis.index_loaders`), the account says
so, and no pointer is past the cut. Every piece of memory text in it has passed the tree's redaction
boundary: a secret in MEMORY.md, or in a file, folder or project name, is shown as
``<head>...<tail>`` here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memory_audit.analysis.index_loaders import whole_index_loader
from memory_audit.analysis.recall import RECALL_CAP, recall_scan
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.load_budget import CHAR_LIMIT, LINE_LIMIT, LoadedIndex
from memory_audit.tree.snapshot import MemoryTree


@dataclass(frozen=True)
class Pointer:
    line: int
    title: str
    target: str
    path: str | None  # the tree path it resolves to (None: outside the tree)
    exists: bool
    loaded: bool  # the line reaches a session


@dataclass(frozen=True)
class LoadedAccount:
    root: str
    text: str  # exactly what a session receives from MEMORY.md ("" without one)
    index: LoadedIndex | None
    pointers: tuple[Pointer, ...]
    recall_order: tuple[str, ...]
    recall_not_dates: tuple[tuple[str, str], ...]
    errors: tuple[tuple[str, str], ...] = ()  # (path, why): files that could not be read
    loaded_by: str | None = None  # what of the project loads the whole index, if anything

    @property
    def past_cut(self) -> tuple[Pointer, ...]:
        return tuple(p for p in self.pointers if not p.loaded)

    @property
    def past_recall_cap(self) -> tuple[str, ...]:
        return self.recall_order[RECALL_CAP:]

    def to_json(self) -> dict[str, Any]:
        index = self.index
        return {
            "schema": "memory-audit/loaded@1",
            "root": self.root,
            "index": INDEX_NAME if index is not None else None,
            "text": self.text,
            "lines": index.lines if index else 0,
            "chars": index.chars if index else 0,
            "line_limit": LINE_LIMIT,
            "char_limit": CHAR_LIMIT,
            "loaded_lines": index.kept_lines if index else 0,
            "loaded_chars": index.loaded_chars if index else 0,
            "cut": bool(index and index.cut),
            "cut_at_line": index.first_hidden if index else None,
            "loaded_in_full_by": self.loaded_by,
            "entries_past_cut": [_pointer(p) for p in self.past_cut],
            "pointers": [_pointer(p) for p in self.pointers],
            "recall": {
                "cap": RECALL_CAP,
                "total": len(self.recall_order),
                "order": list(self.recall_order),
                "past_cap": list(self.past_recall_cap),
                "modified_not_dates": [{"path": p, "value": v} for p, v in self.recall_not_dates],
            },
            "errors": [{"path": p, "error": e} for p, e in self.errors],
        }


def _pointer(pointer: Pointer) -> dict[str, Any]:
    return {
        "line": pointer.line,
        "title": pointer.title,
        "target": pointer.target,
        "path": pointer.path,
        "exists": pointer.exists,
        "loaded": pointer.loaded,
    }


def loaded_account(tree: MemoryTree, redact: Callable[[str], str]) -> LoadedAccount:
    index = tree.index_load
    loaded_by = _loaded_in_full_by(tree)
    cut = index.first_hidden if index is not None and loaded_by is None else None
    pointers = tuple(
        Pointer(
            link.line,
            redact(link.title),
            redact(link.target),
            None if target.path is None else redact(target.path),
            target.exists,
            cut is None or link.line < cut,
        )
        for link, target in tree.index_links
    )
    scan = recall_scan(tree)
    return LoadedAccount(
        root=redact(str(tree.root)),
        text=redact(index.text) if index is not None else "",
        index=index,
        pointers=pointers,
        recall_order=tuple(redact(p) for p in scan.order),
        recall_not_dates=tuple((redact(p), redact(v)) for p, v in scan.not_dates),
        errors=tuple((e.path, redact(e.error)) for e in tree.errors),
        loaded_by=None if loaded_by is None else redact(loaded_by),
    )


def _loaded_in_full_by(tree: MemoryTree) -> str | None:
    loader = whole_index_loader(tree)
    return None if loader is None else loader.describe()
