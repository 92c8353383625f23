"""What else a ``[[wikilink]]`` in a memory can name: Claude Code's other notes.

Memories link skills (``[[doc-finder]]``), agents (``[[auditor]]``), commands, rules,
``[[CLAUDE]]``, notes kept beside the memory folder (a vault's ``[[anti-patterns]]``),
headings of a CLAUDE.md, memories of the user's other stores and of the project's own:
its agents' stores and the memory folders its repository tracks (a team's
``docs/claude/memory``), and in an Obsidian vault any note of the vault. Only names are
gathered: folders are listed, the repository's
tracked paths are listed, CLAUDE.md files are read for their headings (bounded); nothing
else outside the tree is read, and nothing is written.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

from memory_audit.config.paths import claude_home
from memory_audit.regular_files import read_regular
from memory_audit.sources.git import project_listing

ANCESTORS = 6  # folders above a memory tree that may hold skills/, agents/ or notes
KINDS = ("skills", "agents", "commands")
MAX_NAMES_PER_FOLDER = 2_000
RULE_FOLDERS = 64  # sub-folders of a rules/ folder listed at most, at any one time
MAX_STORES = 500
MAX_TRACKED_NAMES = 20_000
AGENT_SCOPES = ("agent-memory", "agent-memory-local")
INDEX = "MEMORY.md"
VAULT_MARK = ".obsidian"
HEADING_BYTES = 256 * 1024
Listing = tuple[Path, str] | None  # a repository's root and its tracked paths, or none


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
        if base.name == ".claude" or base == home:  # rules Claude Code loads, no other
            names.update(_rules(base / "rules"))
    for claude_md in (home / "CLAUDE.md", *(p / "CLAUDE.md" for p in bases)):
        names.update(_headings(claude_md))
    names.update(_other_stores(home))
    # the Markdown the project's repository tracks, listed once for its stores and a vault
    tracked = project_listing(project, "*.md") if project is not None else None
    if project is not None:
        names.update(_project_stores(project, tracked))
    names.update(_vault_notes(tree_root, tracked))
    return frozenset(names)


def _vault_notes(tree_root: Path, tracked: Listing) -> Iterator[str]:
    """In an Obsidian vault (a folder above the tree holding ``.obsidian/``) a wikilink
    names any note of the vault, by its name or its path from the vault's root (a
    person's ``[[Jim Slogar]]`` in ``people/``): the notes its repository tracks there
    (``tracked``, the project's, when the vault is in the project's repository)."""
    vault = next((p for p in _ancestors(tree_root) if (p / VAULT_MARK).is_dir()), None)
    if vault is None:
        return
    if tracked is None or not _within(vault, tracked[0]):
        tracked = project_listing(vault, "*.md")
    if tracked is None:
        return
    repository, listing = tracked
    inside = os.path.relpath(os.path.realpath(vault), os.path.realpath(repository))
    inside = inside.replace(os.sep, "/")
    prefix = "" if inside == "." else inside + "/"
    for path in itertools.islice((p for p in listing.split("\0") if p), MAX_TRACKED_NAMES):
        if path.startswith(prefix):
            yield path.rpartition("/")[2][:-3]
            yield path[len(prefix) : -3]


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


def _rules(folder: Path) -> Iterator[str]:
    """Stems of the rule files in ``rules/`` and its sub-folders (``00-architecture/``):
    Claude Code loads them all, and a memory names one by its stem."""
    pending, count = [folder], 0
    while pending and count < MAX_NAMES_PER_FOLDER:
        current = pending.pop()
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    count += 1
                    if count >= MAX_NAMES_PER_FOLDER:
                        return
                    if entry.name.endswith(".md"):
                        yield entry.name[:-3]
                    elif entry.is_dir(follow_symlinks=False) and len(pending) < RULE_FOLDERS:
                        pending.append(Path(entry.path))
        except OSError:
            continue


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


def _within(folder: Path, repository: Path) -> bool:
    real = os.path.realpath(folder)
    root = os.path.realpath(repository)
    return real == root or real.startswith(root + os.sep)


def _project_stores(project: Path, tracked: Listing) -> Iterator[str]:
    """Memory file stems of the project's agents' stores and of every folder below the
    project's root that its repository tracks a MEMORY.md in (files at any depth there;
    ``tracked``: the repository's Markdown)."""
    for scope in AGENT_SCOPES:
        for store in _folders(project / ".claude" / scope)[:MAX_STORES]:
            yield from _notes(store)
    if tracked is None:
        return
    listing = tracked[1]
    paths = list(itertools.islice((p for p in listing.split("\0") if p), MAX_TRACKED_NAMES))
    # a MEMORY.md at the repository's root makes no memory folder of the whole repository
    folders = {p.rpartition("/")[0] for p in paths if p.endswith("/" + INDEX)}
    for path in paths:
        parts = path.split("/")[:-1]
        # each folder the path is in, looked up in the set: linear in the listing
        if any("/".join(parts[: n + 1]) in folders for n in range(len(parts))):
            yield path.rpartition("/")[2][:-3]


def _folders(parent: Path) -> list[Path]:
    try:
        with os.scandir(parent) as entries:
            return sorted(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return []
