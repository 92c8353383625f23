"""``memory-audit projects``: the trees found, their size, and the project each belongs to.

A store whose project folder is gone (renamed or moved) says so, with the store where
the project went when one is found (``usage``'s orphaned-store; ``review`` moves it)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from memory_audit.analysis.moved_projects import MovedProject, moved_project
from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.engine import names_boundary
from memory_audit.tree.discovery import TreeRef, find_trees
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.walk import list_tree

NOT_LOCATED = "project root not located"
Shown = Callable[[str], str]  # a path as shown: a secret in it masked


@dataclass(frozen=True)
class TreeSummary:
    ref: TreeRef
    files: int
    index_lines: int
    index_bytes: int
    moved: MovedProject | None = None

    def to_json(self, shown: Shown) -> dict[str, object]:
        path = self.ref.location.project_path
        slug = self.ref.location.slug
        moved = self.moved
        return {
            "root": shown(str(self.ref.root)),
            "project": shown(slug) if slug else None,
            # Additive: an agent's memory names its agent and scope (null: auto memory).
            "agent": agent.to_json() if (agent := self.ref.location.agent) else None,
            "project_path": shown(str(path)) if path else None,
            "files": self.files,
            "index_lines": self.index_lines,
            "index_bytes": self.index_bytes,
            "moved": None
            if moved is None
            else {
                "old_path": shown(str(moved.old_path)),
                "into": [
                    {"store": shown(c.slug), "path": shown(str(c.path))} for c in moved.candidates
                ],
            },
        }

    @property
    def names(self) -> list[str]:
        """Every path this summary shows, for the boundary that masks a secret in one."""
        location, moved = self.ref.location, self.moved
        found = [
            str(self.ref.root),
            self.ref.label,
            location.slug or "",
            str(location.project_path),
        ]
        if moved is not None:
            found.append(str(moved.old_path))
            found += [name for c in moved.candidates for name in (c.slug, str(c.path))]
        return found

    def project_text(self, shown: Shown) -> str:
        path = self.ref.location.project_path
        if path is not None:
            return shown(str(path))
        if self.ref.location.agent is not None:
            return "–"  # a user-level agent's memory belongs to no project
        if self.moved is None:
            return NOT_LOCATED
        stores = ", ".join(shown(c.slug) for c in self.moved.candidates) or "no store found"
        return f"gone: {shown(str(self.moved.old_path))} (moved to: {stores}; memory-audit review)"


def summarize(ref: TreeRef) -> TreeSummary:
    listing = list_tree(ref.root)
    lines, size = _index_size(ref.root / INDEX_NAME)
    location = ref.location
    gone = location.project_path is None and location.transcripts_dir is not None
    moved = moved_project(location.transcripts_dir) if gone and location.transcripts_dir else None
    return TreeSummary(ref, len(listing.candidates), lines, size, moved)


def _index_size(path: Path) -> tuple[int, int]:
    try:
        data = path.read_bytes()
    except OSError:
        return 0, 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1), len(data)


def run(*, config_path: Path | None, output_format: str, out: TextIO) -> int:
    config = config_module.load(config_path, OPTION_TYPES)
    summaries = [summarize(ref) for ref in find_trees(config.settings.roots, every_store=True)]
    # A secret in a project folder's name (the transcripts' cwd) is masked like any other.
    names = [name for s in summaries for name in s.names]
    shown = names_boundary(config.check_options("secrets"), names).path
    if output_format == "json":
        out.write(json.dumps([s.to_json(shown) for s in summaries], indent=2) + "\n")
    else:
        out.write(render_table(summaries, shown))
    return 0


def render_table(summaries: Sequence[TreeSummary], shown: Shown = str) -> str:
    if not summaries:
        return "No memory trees found.\n"
    rows = [("PROJECT", "FILES", "INDEX LINES", "INDEX BYTES", "PROJECT PATH")]
    for s in summaries:
        rows.append(
            (
                shown(s.ref.label),
                str(s.files),
                str(s.index_lines),
                f"{s.index_bytes:,}",
                s.project_text(shown),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4]
        for r in rows
    ]
    return "\n".join(lines) + "\n"
