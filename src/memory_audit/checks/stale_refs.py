"""Stale references: memories that cite files, commits or design ids that no longer exist.

- ``missing-file-reference``: a path in a body (backticked, ``~/…``, ``.claude/…``,
  or a bare ``dir/file.ext``) exists in none of the places it can refer to:
  the located project folder (and, for ``other-repo/…``, its parent), the
  tree, and the home folder. Existence is checked; nothing is read.
- ``stale-commit-reference``: a hash after "commit", in backticks or in
  parentheses that no located repository has (the project's, and sibling
  repositories named by ``scope`` tags). One ``git cat-file --batch-check``
  per repository answers for all hashes.
- ``outdated-reference``: an id matching a configured ``design_docs`` pattern
  that its planning file no longer mentions (renumbered or removed).

Where the project or its repository cannot be located the checks that need
them are skipped and listed under ``skipped``, never reported as failures.
Session recaps are stale by nature and are not checked.

Failing::

    deploy.md:   The retry logic lives in `src/billing/retry.py` (commit 4f2a91c).
    (the file was renamed; the commit was rebased away)

Passing: the same memory after the rename, citing the current path and a commit in history.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.analysis.references import (
    Reference,
    commit_references,
    path_exists,
    path_references,
)
from memory_audit.model.dimension import Dimension, Need, Severity
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.sources.git import GitUnavailable, existing_commits, repository_root
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "stale-refs"
DIMENSION = Dimension(
    ID,
    "Stale references",
    Severity.WARNING,
    hook_priority=100,
    needs=frozenset({Need.PROJECT, Need.GIT}),
)
DOC_READ_LIMIT = 4 * 1024 * 1024


def _regex_error(value: str) -> str | None:
    try:
        re.compile(value)
    except re.error as exc:
        return f"not a valid regular expression ({exc})"
    return None if value else "must not be empty"


def _nonempty(value: str) -> str | None:
    return None if value.strip() else "must not be empty"


@dataclass(frozen=True)
class DesignDoc:
    pattern: str = field(default="", metadata={"check": _regex_error})
    file: str = field(default="", metadata={"check": _nonempty})


@dataclass(frozen=True)
class Options:
    paths: bool = True
    commits: bool = True
    design_docs: tuple[DesignDoc, ...] = ()


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    memories = sorted(tree.memories, key=lambda m: m.path)
    if options.paths:
        yield from _paths(tree, memories)
    if options.commits:
        yield from _commits(tree, memories)
    for doc in options.design_docs:
        yield from _design_doc(tree, memories, doc)


def _paths(tree: MemoryTree, memories: list[MemoryFile]) -> Iterator[Finding | Skip]:
    project = tree.location.project_path
    unchecked = 0
    for memory in memories:
        for ref in path_references(memory.body_lines, memory.body_start, memory.markdown):
            verdict = path_exists(tree, memory, ref.text)
            if verdict is None:
                unchecked += 1
            elif not verdict:
                yield _missing_file(memory, ref, project)
    if unchecked:
        yield Skip(ID, f"{unchecked} relative path(s) not checked — project root not located")


def _missing_file(memory: MemoryFile, ref: Reference, project: Path | None) -> Finding:
    where = f"the project at {project}, " if project else ""
    return make_finding(
        ID,
        "missing-file-reference",
        memory.path,
        ref.line,
        f"references `{ref.text}`, which doesn't exist "
        f"(checked {where}the tree and the home folder)",
        "update the reference, or remove it if no longer relevant",
        key=ref.text,
    )


def _commits(tree: MemoryTree, memories: list[MemoryFile]) -> Iterator[Finding | Skip]:
    refs = [
        (m, r) for m in memories for r in commit_references(m.body_lines, m.body_start, m.markdown)
    ]
    if not refs:
        return
    repos, reason = _repositories(tree, memories)
    if not repos:
        yield Skip(ID, f"git checks skipped — {reason}")
        return
    found: set[str] = set()
    hashes = {r.text for _, r in refs}
    for repo in repos:
        try:
            found |= existing_commits(repo, hashes - found)
        except GitUnavailable as exc:
            yield Skip(ID, f"git checks skipped for {repo} — {exc}")
            return
    names = ", ".join(str(r) for r in repos)
    for memory, ref in refs:
        if ref.text not in found:
            yield make_finding(
                ID,
                "stale-commit-reference",
                memory.path,
                ref.line,
                f"commit `{ref.text}` is not in {names}",
                "update the hash (the commit may have been rebased or squashed), or remove it",
                key=ref.text,
            )


def _repositories(tree: MemoryTree, memories: list[MemoryFile]) -> tuple[list[Path], str]:
    project = tree.location.project_path
    if project is None:
        return [], "repo not located"
    candidates = [project, *sorted({project.parent / tag for m in memories for tag in m.scope})]
    repos: list[Path] = []
    for folder in candidates:
        if folder.is_dir():
            try:
                root = repository_root(folder)
            except GitUnavailable as exc:
                if folder == project and "not found" in str(exc):
                    return [], "git not found"
                continue
            if root not in repos:
                repos.append(root)
    return repos, "repo not located"


def _design_doc(
    tree: MemoryTree, memories: list[MemoryFile], doc: DesignDoc
) -> Iterator[Finding | Skip]:
    path = Path(doc.file).expanduser()
    if not path.is_absolute():
        if tree.location.project_path is None:
            yield Skip(ID, f"design ids ({doc.pattern}) not checked — project root not located")
            return
        path = tree.location.project_path / path
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            planning = handle.read(DOC_READ_LIMIT)
    except OSError:
        yield Skip(ID, f"design ids ({doc.pattern}) not checked — {path} not found")
        return
    pattern = re.compile(doc.pattern)
    cited: dict[tuple[str, str], int] = defaultdict(int)
    for memory in memories:
        for number, text in enumerate(memory.body_lines, start=memory.body_start):
            for match in pattern.finditer(text):
                if match.group(0) not in planning and (memory.path, match.group(0)) not in cited:
                    cited[(memory.path, match.group(0))] = number
    for (memory_path, ident), number in sorted(cited.items()):
        yield make_finding(
            ID,
            "outdated-reference",
            memory_path,
            number,
            f"cites `{ident}`, which {doc.file} no longer mentions",
            f"look up what `{ident}` became in {doc.file} and update the memory",
            key=ident,
        )
