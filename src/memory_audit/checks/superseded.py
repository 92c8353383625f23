"""Superseded entries in index: MEMORY.md still points at replaced memories.

When a file's frontmatter says ``superseded_by:``, discovery already skips
it, but an index line that still links it misleads every session and costs
index lines. The file itself stays on disk, readable.

Failing::

    MEMORY.md:7   - [Old deploy steps](deploy_v1.md) — how we deploy
    deploy_v1.md  superseded_by: deploy_v2.md

    MEMORY.md:7 — `deploy_v1.md` is superseded by `deploy_v2.md` but still indexed.
    Suggest: remove the index line.

Passing: the index links ``deploy_v2.md`` only.

An index line that marks its note as history itself (``[deprecated]``, ``[已废弃]``)
misleads no session: the owner keeps it on purpose, and removing
it only saves the line, so the finding is a suggestion.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from memory_audit.model.dimension import Level
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.index_file import INDEX_NAME, IndexLink
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "superseded"
# Words and tags by which an index line calls its note history, in the corpus's languages.
# Whole words only: "historically" or "legacy-free" say nothing of the note.
HISTORY_MARK = re.compile(
    r"(?i)(?<!\w)(?:deprecated|superseded|obsolete|outdated|historical|archived|legacy"
    r"|veraltet|historisch|obsoleto|obsoleta|obsolète|historique|histórico|histórica"
    r"|deprecado|descontinuado|устарело|устаревший)(?!\w)"
    r"|已废弃|已廢棄|废弃|廢棄|历史|歷史|已过时|已過時|过时|過時|已替代|已被替代"
    r"|廃止|非推奨|旧版|アーカイブ|폐기|사용 중단"
)


@dataclass(frozen=True)
class Options:
    pass


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    pointers = tree.index.pointer_lines if tree.index else frozenset()
    for link, target in tree.index_links:
        if link.line not in pointers:
            continue  # a sentence may well name an old file ("replaced X with Y")
        memory = tree.files.get(target.path) if target.path is not None else None
        if memory is not None and memory.superseded_by:
            yield _superseded_entry(tree, link, memory, marked=_marked_as_history(tree, link))


def _marked_as_history(tree: MemoryTree, link: IndexLink) -> bool:
    assert tree.index is not None  # the link is one of its lines
    line = tree.index.lines[link.line - 1]
    return HISTORY_MARK.search(line) is not None


def _superseded_entry(
    tree: MemoryTree, link: IndexLink, memory: MemoryFile, *, marked: bool
) -> Finding:
    successors = [tree.resolve_reference(s, memory.path).path for s in memory.superseded_by]
    shown = ", ".join(f"`{s}`" for s in memory.superseded_by)
    unindexed = [s for s in successors if s in tree.files and s not in tree.index_targets]
    if len(unindexed) == 1:
        suggestion = f"point the index line at `{unindexed[0]}` instead"
        fix = {
            "action": "update-index-path",
            "line": link.line,
            "old": link.target,
            "new": unindexed[0],
        }
    else:
        suggestion = "remove the index line; the file stays readable on disk"
        fix = {"action": "remove-index-line", "line": link.line, "target": link.target}
        successor = next((s for s in successors if s in tree.files), None)
        if successor is not None and not _declares(tree, successor, memory.path):
            # Out of the index, only a `supersedes` relation still leads to it: without
            # one, removing the line would make it an orphan (the next finding).
            suggestion += f", and declare in `{successor}` that it supersedes it"
            fix["relate"] = {"path": successor, "type": "supersedes", "target": memory.path}
    message = f"`{memory.path}` is superseded by {shown} but still indexed"
    if marked:
        message += "; its index line already marks it as history"
    return make_finding(
        ID,
        "superseded-in-index",
        INDEX_NAME,
        link.line,
        message,
        suggestion,
        key=memory.path,
        related=(memory.path,),
        fix=fix,
        level=Level.SUGGESTION.value if marked else None,
    )


def _declares(tree: MemoryTree, successor: str, old: str) -> bool:
    return any(
        r.type == "supersedes" and tree.resolve_reference(r.target, successor).path == old
        for r in tree.files[successor].relations
    )
