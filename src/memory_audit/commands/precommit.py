"""``memory-audit pre-commit [--check ID]... FILE...``: audit the memory trees among these files.

For a repository that commits memory trees. A file belongs to the nearest
folder above it that holds a MEMORY.md (or is named ``memory``); a document at the
root of an agent's workspace without one, to that workspace (its ``memory/`` and
its documents, these for secrets); each such tree is audited once, with every
dimension but ``usage`` unless ``--check`` says otherwise. Exit 1 on findings fails the commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from memory_audit.checks import DIMENSIONS
from memory_audit.commands import audit
from memory_audit.model.dimension import Need
from memory_audit.tree.agent_stores import agent_of
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.workspace import documents_beside_memory

# A commit has no session transcripts: dimensions that read them are left to the service.
DEFAULT_CHECKS = tuple(d.id for d in DIMENSIONS if Need.TRANSCRIPTS not in d.needs)


def trees_of(files: Sequence[str]) -> list[Path]:
    roots: list[Path] = []
    for name in files:
        path = Path(name).absolute()
        if path.suffix == ".md" and documents_beside_memory(path.parent):
            if path.parent not in roots:  # named, the workspace brings its documents
                roots.append(path.parent)
            continue
        for folder in path.parents:
            # an agent's store is its own tree, index or not (never the folder of stores)
            if (folder / INDEX_NAME).is_file() or folder.name == "memory" or agent_of(folder):
                if folder not in roots:
                    roots.append(folder)
                break
    return roots


def run(
    *,
    files: Sequence[str],
    checks: Sequence[str],
    output_format: str,
    config_path: Path | None,
    out: TextIO,
) -> int:
    roots = trees_of(files)
    if not roots:
        return 0
    return audit.run(
        paths=[str(r) for r in roots],
        project=None,
        checks=checks or DEFAULT_CHECKS,
        output_format=output_format,
        output=None,
        config_path=config_path,
        profile=None,
        max_per_dimension=None,
        out=out,
        project_root=Path.cwd(),
    )
