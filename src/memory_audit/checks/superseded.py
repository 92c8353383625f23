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

An index entry that tags its note as history itself (``— [deprecated] ...``, ``— [已废弃]
...``, ``— replaced by ...``) misleads no session: the owner keeps it on purpose, and
removing it only saves the line, so the finding is a suggestion, and its fix removes the
line (pointing it at the successor would put the tag on the current note).
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
# Words by which an index entry tags its note as history, in the corpus's languages. They
# count only as a tag (below): "— replaces the deprecated v1 API" or "— 聊天历史同步" use
# them of the note's subject.
_HISTORY_WORD = (
    r"(?:deprecated|superseded|obsolete|outdated|historical|history|archived|legacy|old"
    r"|retired|replaced|veraltete?[rsn]?|historische?[rsn]?|obsolet[oa]s?|obsolète"
    r"|historique|hist[óo]ric[oa]s?|deprecad[oa]s?|descontinuad[oa]s?|устарел[аои]?"
    r"|устаревш(?:ий|ая|ее|ие)|архив|已废弃|已廢棄|废弃|廢棄|历史|歷史|已过时|已過時|过时"
    r"|過時|已替代|已被替代|已被取代|仅供参考|僅供參考|廃止|非推奨|旧版|旧|アーカイブ|폐기"
    r"|사용 중단)"
)
# A tag: the word alone in brackets, or leading them (``[deprecated — see v2]``), anywhere
# in the title or the hook but not a link's label (``[Deprecated APIs](apis.md)``); or the
# word opening the hook (``**Legacy:**``, ``Historical —``).
BRACKETED_TAG = re.compile(
    rf"(?i)\[\s*{_HISTORY_WORD}(?:[^\]\w][^\]]*)?\](?!\()"
    rf"|\(\s*{_HISTORY_WORD}(?:[^)\w][^)]*)?\)|【\s*{_HISTORY_WORD}[^】]*】"
)
LEADING_TAG = re.compile(rf"(?i)^[*_~`\s]*{_HISTORY_WORD}[*_~`\s]*[:：—–-]")
# Words naming the note that replaced this one: the entry says it is history.
SUCCESSOR_NAMED = re.compile(
    r"(?i)\b(?:superseded|replaced|obsoleted)\s+by\b|\bersetzt\s+durch\b"
    r"|\b(?:reemplazad[oa]|substituíd[oa]|remplacée?)\s+p(?:or|ar)\b"
    r"|被[^，。,.;；]{0,30}?(?:取代|替代|替换|替換)|已被(?:取代|替代|替换|替換)"
)


@dataclass(frozen=True)
class Options:
    pass


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    if tree.index is None:
        return
    entries = {entry.line: entry for entry in tree.index.entries if entry.is_pointer}
    for link, target in tree.index_links:
        entry = entries.get(link.line)
        if entry is None:
            continue  # a sentence may well name an old file ("replaced X with Y")
        memory = tree.files.get(target.path) if target.path is not None else None
        if memory is not None and memory.superseded_by:
            marked = tagged_as_history(link.title, entry.hook)
            yield _superseded_entry(tree, link, memory, marked=marked)


def tagged_as_history(title: str, hook: str) -> bool:
    """Whether an index entry's own words tag its note as history: a tag in its title or
    hook, or its hook naming the note that replaced it."""
    return bool(
        BRACKETED_TAG.search(title)
        or BRACKETED_TAG.search(hook)
        or LEADING_TAG.match(hook)
        or SUCCESSOR_NAMED.search(hook)
    )


def _superseded_entry(
    tree: MemoryTree, link: IndexLink, memory: MemoryFile, *, marked: bool
) -> Finding:
    successors = [tree.resolve_reference(s, memory.path).path for s in memory.superseded_by]
    shown = ", ".join(f"`{s}`" for s in memory.superseded_by)
    unindexed = [s for s in successors if s in tree.files and s not in tree.index_targets]
    if len(unindexed) == 1 and not marked:
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
