"""MemoryTree: an immutable snapshot of one memory tree, read once.

Checks never touch the filesystem for the tree's own files: everything they
need (frontmatter, index entries, links, reverse maps) is here. Link targets
that fall outside the tree are checked for existence only.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from urllib.parse import unquote

from memory_audit.errors import describe
from memory_audit.tree.file_kinds import (
    DEFAULT_RECAP_GLOBS,
    INDEX_CASE_REASON,
    index_by_another_case,
    listed_kind,
    not_memory_reason,
)
from memory_audit.tree.index_file import INDEX_NAME, Index, IndexLink, parse_index
from memory_audit.tree.index_names import NamedPointer
from memory_audit.tree.load_budget import LoadedIndex, load_index
from memory_audit.tree.location import ProjectLocation
from memory_audit.tree.markdown import Link, is_external
from memory_audit.tree.memory_file import FileKind, FileProblem, MemoryFile, parse_memory_file
from memory_audit.tree.outside_readers import (
    MAX_FILES,
    OutsidePaths,
    instruction_files,
    paths_in,
    project_runnables,
    readable_from,
    runnable,
    runnable_copies,
    tree_path_by_suffix,
)
from memory_audit.tree.walk import (
    BINARY_SNIFF,
    ENCRYPTED,
    Candidate,
    ReadError,
    ReadResult,
    binary_at_start,
    list_tree,
    read_as_other,
    read_text,
)
from memory_audit.tree.wikilinks import find_wikilinks

__all__ = ["MemoryTree", "ProjectLocation", "Target", "load_tree"]

DEFAULT_MAX_FILE_BYTES = 1024 * 1024
# The index gets a larger cap: every structural check depends on it, and a runaway
# index is drift to report, not a file to skip.
INDEX_MAX_BYTES = 16 * 1024 * 1024
# A file that is no Markdown is read for secrets alone: the limit on a memory (read whole
# into a session's context) is no limit on it. A program's raw chat log passes 1 MB in a day,
# and a token pasted into it is there all the same.
OTHER_MAX_BYTES = 16 * 1024 * 1024
# ... and all of them together up to this much (the snapshot holds their text while the
# checks run: a folder of a year's logs must not hold the weekly run's memory hostage).
OTHER_TOTAL_BYTES = 64 * 1024 * 1024
AGENT_STORE_APART = "an agent's memory store: audited as a tree of its own"
PROFILES = ("auto", "claude-code", "governed")
GOVERNED_MARKERS = ("scope", "relevance")
TYPE_PREFIXES = frozenset({"user", "feedback", "project", "reference"})
# a memory's type before its name, joined by "_" or "-": ``project_deploy-notes``
TYPE_PREFIX = re.compile(rf"(?i:({'|'.join(sorted(TYPE_PREFIXES))})([_-])(.+))")


# A table cell holding only a ``.md`` file's name (bare, in bold or in a code span; an
# underscore is the name's: ``_index.md``).
TABLE_CELL_NAME = re.compile(r"\|[ \t]*\**`?([^|`\s*][^|`\s]*\.md)`?\**[ \t]*(?=\|)")


@dataclass(frozen=True)
class Target:
    """Where a link points. ``path`` is set for targets inside the tree."""

    path: str | None
    absolute: str | None
    exists: bool

    @property
    def inside(self) -> bool:
        return self.path is not None


@dataclass(frozen=True)
class MemoryTree:
    root: Path
    files: Mapping[str, MemoryFile]
    index: Index | None
    present: frozenset[str]
    unread: Mapping[str, tuple[FileProblem, ...]]
    errors: tuple[ReadError, ...]
    location: ProjectLocation
    requested_profile: str
    taken_at: dt.datetime
    home: Path = field(default_factory=Path.home)
    skipped_files: Mapping[str, str] = field(default_factory=dict)  # unreadable non-memories
    index_load: LoadedIndex | None = None  # what of MEMORY.md a session receives
    # what reading MEMORY.md found wrong though it was read (bytes that are no UTF-8)
    index_problems: tuple[FileProblem, ...] = ()
    documents: bool = False  # a workspace root's own documents, beside its memory/ tree
    # files that are no memories (a raw chat log, a config, a hidden store), whose text the
    # secret rules alone read: listed here, read only when asked (:attr:`other_texts`)
    other_files: tuple[Candidate, ...] = ()
    other_max_bytes: int = OTHER_MAX_BYTES

    # ---- views -------------------------------------------------------------

    @cached_property
    def profile(self) -> str:
        return resolve_profile(self.requested_profile, self.files.values())

    @cached_property
    def not_memories(self) -> Mapping[str, str]:
        """Files in the folder that are not memories (README, encrypted): path -> why."""
        found = dict(self.skipped_files)
        for memory in self.files.values():
            if memory.listed_kind is not FileKind.NOT_MEMORY:
                continue
            reason = not_memory_reason(memory.path, memory.joined)
            if reason is None and index_by_another_case(memory.path):
                reason = INDEX_CASE_REASON
            found[memory.path] = reason or ""
        return dict(sorted(found.items()))

    @cached_property
    def _others_read(self) -> OthersRead:
        return read_others(self.other_files, self.other_max_bytes)

    @property
    def other_texts(self) -> Mapping[str, str]:
        """Path -> the text of each file that is no memory, read on the first ask: a tree
        loaded only to be compared (review's cross-store pass) holds none in memory; an
        audit asks, for its secret boundary, whatever checks run."""
        return self._others_read.texts

    @property
    def others_too_large(self) -> int:
        return self._others_read.too_large

    @property
    def others_unreadable(self) -> int:
        return self._others_read.unreadable

    def of_kind(self, *kinds: FileKind) -> list[MemoryFile]:
        return [f for f in self.files.values() if f.kind in kinds]

    @cached_property
    def index_above(self) -> bool:
        """No MEMORY.md here, but one in the folder above: a copy of a memory folder whose
        index was kept beside it (existence only; a file outside the tree is never read)."""
        return self.index is None and os.path.isfile(os.path.join(self.root.parent, INDEX_NAME))

    @property
    def index_unreadable(self) -> bool:
        """MEMORY.md is there but could not be read: what it lists is unknown."""
        return self.index is None and INDEX_NAME in self.present

    @property
    def memories(self) -> list[MemoryFile]:
        return self.of_kind(FileKind.MEMORY)

    @property
    def recaps(self) -> list[MemoryFile]:
        return self.of_kind(FileKind.RECAP)

    @cached_property
    def index_links(self) -> tuple[tuple[IndexLink, Target], ...]:
        """Every file link in MEMORY.md with where it resolves (the index's line -> target map)."""
        return tuple(
            (link, self.resolve_link(link.target, "", wiki=link.wiki))
            for entry in (self.index.entries if self.index else ())
            for link in entry.links
        )

    @cached_property
    def index_named(self) -> tuple[tuple[NamedPointer, str | None], ...]:
        """Index lines that point at a file by its name, not a link (``- `notes.md` —
        hook``), with the tree path of the file they name; None for a document of the
        project a line sends the reader to (``See `docs/INDEX.md` — hook``): a pointer too,
        but no memory the index lists (a line that starts by naming one, ``CLAUDE.md has
        the standards``, says something about it). A name no such file has (a file since
        deleted, a path on another machine) makes no pointer: the line stays text."""
        found: list[tuple[NamedPointer, str | None]] = []
        for pointer in self.index.named if self.index else ():
            path = self._resolve_mention(pointer.target, "").path
            if path is not None and path != INDEX_NAME:
                found.append((pointer, path))
            elif path is None and pointer.sends and self._project_document(pointer.target):
                found.append((pointer, None))
        return tuple(found)

    def _project_document(self, raw: str) -> bool:
        """A file of the project outside the tree, named from the project's root
        (``docs/INDEX.md``, ``/docs/INDEX.md``): existence only, never read."""
        project = self.location.project_path
        if project is None:
            return False
        root = os.path.normpath(project)
        candidate = os.path.normpath(os.path.join(root, unquote(raw).lstrip("/")))
        tree = self._root_text
        inside_tree = candidate == tree or candidate.startswith(tree + "/")
        return candidate.startswith(root + "/") and not inside_tree and os.path.isfile(candidate)

    @cached_property
    def index_targets(self) -> Mapping[str, tuple[int, ...]]:
        """Tree path -> MEMORY.md lines that point at it: by a link, or by its name."""
        found: dict[str, list[int]] = defaultdict(list)
        for link, target in self.index_links:
            if target.path is not None:
                found[target.path].append(link.line)
        for pointer, named in self.index_named:
            if named is not None:
                found[named].append(pointer.line)
        return {path: tuple(sorted(lines)) for path, lines in found.items()}

    @cached_property
    def superseded(self) -> frozenset[str]:
        """Files marked replaced: by their own ``superseded_by`` or another's ``supersedes``."""
        found = {m.path for m in self.files.values() if m.superseded_by}
        for source in self.files.values():
            for relation in source.relations:
                if relation.type == "supersedes":
                    target = self.resolve_reference(relation.target, source.path)
                    if target.path is not None and target.path != source.path:
                        found.add(target.path)
        return frozenset(found)

    @cached_property
    def moved_index_targets(self) -> Mapping[str, IndexLink]:
        """Unindexed file -> the broken index link that meant it.

        A link is taken to mean a file when the link's target is gone and exactly
        one unindexed, unsuperseded memory elsewhere has the same file name (it was
        moved). Failing that, for a link into the tree, when exactly one such memory's
        file name differs from the link's only in case and separators
        (``project_game-mvp.md`` for ``project_game_mvp.md``) or its frontmatter ``name``
        is the link's file name (``implementation-plan.md`` renamed, its ``name`` kept):
        it was renamed.
        """
        unindexed: dict[str, list[str]] = defaultdict(list)
        for memory in self.memories:
            if memory.path not in self.index_targets and memory.path not in self.superseded:
                unindexed[memory.path.rsplit("/", 1)[-1]].append(memory.path)
        moved: dict[str, IndexLink] = {}
        renamed: list[tuple[IndexLink, str]] = []
        for link, target in self.index_links:
            if target.exists or link.wiki:
                continue
            name = link.target.split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            candidates = [p for p in unindexed.get(name, []) if p not in moved]
            if len(candidates) == 1:
                moved[candidates[0]] = link
            elif not candidates and target.inside and name:
                renamed.append((link, name))
        if renamed:  # names read (frontmatter parsed) only when a link is left to explain
            by_name = self._unindexed_by_name_key(unindexed)
            for link, name in renamed:
                candidates = [p for p in by_name.get(name_key(name), []) if p not in moved]
                if len(candidates) == 1:
                    moved[candidates[0]] = link
        return moved

    def _unindexed_by_name_key(self, unindexed: Mapping[str, list[str]]) -> dict[str, list[str]]:
        """The unindexed memories by ``name_key`` of their file name and frontmatter name."""
        found: dict[str, list[str]] = defaultdict(list)
        for paths in unindexed.values():
            for path in paths:
                memory = self.files[path]
                keys = {name_key(path.rsplit("/", 1)[-1])}
                if memory.name:
                    keys.add(name_key(memory.name))
                for key in keys - {""}:
                    found[key].append(path)
        return found

    @cached_property
    def outgoing(self) -> Mapping[str, frozenset[str]]:
        """Tree path -> files its links, wikilinks and relation fields lead to.

        Relation fields: ``relations:``, ``superseded_by``, ``related:``, ``relates_to:``.
        """
        return {
            path: frozenset(self._relation_targets(m) | self._link_targets(m))
            for path, m in self.files.items()
        }

    def _relation_targets(self, source: MemoryFile) -> set[str]:
        raws = [r.target for r in (*source.relations, *source.related)]
        found = set()
        for raw in [*raws, *source.superseded_by]:
            target = self.resolve_reference(raw, source.path)
            if target.path is not None and target.path != source.path:
                found.add(target.path)
        return found

    def _link_targets(self, source: MemoryFile) -> set[str]:
        found = set()
        for link in source.links:
            path = self.link_target(link, source.path)
            if path is not None and path != source.path:
                found.add(path)
        text = source.text
        if "|" in text and ".md" in text:
            # a table listing files by their bare names (``| 3 | What is working? |
            # what-is-working.md | Active |``): the file's own index of them
            for raw in TABLE_CELL_NAME.findall(text):
                path = self._resolve_mention(raw, source.path).path
                if path is not None and path != source.path:
                    found.add(path)
        return found

    def link_target(self, link: Link, source: str) -> str | None:
        """The tree file a link, wikilink or ``.md`` mention in ``source`` (``""``: the
        index) leads to; None for an outside address or no file of the tree."""
        if link.mention:
            target = self._resolve_mention(link.target, source)
        elif link.wiki or not is_external(link.target):
            target = self.resolve_link(link.target, source, wiki=link.wiki)
        else:
            return None
        return target.path

    def _resolve_mention(self, raw: str, source: str) -> Target:
        """A ``.md`` path in a code span, from the file, the root, or the repository
        (``.claude-memory/retros/index.md``); only an existing file counts."""
        own = f"{self.root.name}/"
        for text, folder in ((raw, source), (raw, ""), (raw.removeprefix(own), "")):
            target = self.resolve_path(text, folder)
            if target.exists and target.path in self.files:
                return target
        return Target(None, None, False)

    @cached_property
    def incoming_relations(self) -> Mapping[str, frozenset[str]]:
        """Tree path -> files whose relation fields point at it."""
        return _reverse({p: self._relation_targets(m) for p, m in self.files.items()})

    @cached_property
    def incoming_links(self) -> Mapping[str, frozenset[str]]:
        """Tree path -> files whose bodies link to it (markdown links or wikilinks)."""
        return _reverse({p: self._link_targets(m) for p, m in self.files.items()})

    @cached_property
    def reachable(self) -> frozenset[str]:
        """Files a reader reaches from MEMORY.md: its entries, then every link or relation
        of a reached file (hubs, archives, a second-level index), breadth first. The
        project's CLAUDE.md and AGENTS.md, and the agent and skill files MEMORY.md or a
        reached memory links, lead in too: Claude Code reads a memory they name from there
        (:mod:`memory_audit.tree.outside_readers`)."""
        seen = set(self.index_targets) | set(self.moved_index_targets)
        for mention in self.index.mentions if self.index else ():  # - **`notes.md`** — hook
            named = self._resolve_mention(mention, "")
            if named.path is not None:
                seen.add(named.path)
        project = self.location.project_path
        outside = list(self._instruction_paths)
        outside += project_runnables(project)[: max(0, MAX_FILES - len(outside))]
        seen |= self.instruction_named | self._named_in(outside[len(self._instruction_paths) :])
        self._reach(seen, seen)
        read = set(outside)
        while len(read) < MAX_FILES:
            runnable = [f for f in self._runnables_linked(seen) if f not in read]
            batch = runnable[: MAX_FILES - len(read)]
            read.update(batch)
            new = self._named_in(batch) - seen
            if not new:
                break  # nothing more is reached, so no further agent is linked
            seen |= new
            self._reach(seen, new)
        return frozenset(seen)

    def _reach(self, seen: set[str], start: Iterable[str]) -> None:
        """Add to ``seen`` every file the links and relations of ``start`` lead to."""
        queue = deque(sorted(start))
        while queue:
            for target in self.outgoing.get(queue.popleft(), ()):
                if target not in seen:
                    seen.add(target)
                    queue.append(target)

    @cached_property
    def imported(self) -> frozenset[str]:
        """Tree files the project's CLAUDE.md (or AGENTS.md) imports (``@memory/plan.md``):
        Claude Code loads each whole into every session, found by no description."""
        found = set()
        for path, paths in self._instruction_paths.items():
            for raw in paths.imported:
                target = self._resolve(raw, os.path.relpath(path.parent, self._root_text))
                if target.path is not None and target.path in self.files:
                    found.add(target.path)
        return frozenset(found)

    @cached_property
    def instruction_named(self) -> frozenset[str]:
        """Tree files the project's instruction files (CLAUDE.md, AGENTS.md above the tree)
        link, name by path or import: sessions are told to read them from there. For an
        agent's store, also those its agent's definition names: the agent's instructions."""
        return frozenset(self._named_in(self._instruction_paths) | self._named_by_agent())

    def _named_by_agent(self) -> set[str]:
        """Tree files the definition of the store's agent names (``Load your files from
        `.claude/agent-memory/builder/`: `napkin.md`, `decisions.md```): a bare name there is
        the store's own file, as the agent reads it from its memory folder."""
        agent, project = self.location.agent, self.location.project_path
        if agent is None or project is None:
            return set()
        # imported here: an agent file's frontmatter is YAML, which a secrets-only audit of
        # a tree with no config file never loads
        from memory_audit.tree.agent_definitions import definition_files

        return self._named_in(definition_files(project, agent), from_root=True)

    @cached_property
    def named_as_folder(self) -> bool:
        """Whether an instruction file names the tree's folder itself by path
        (``.claude/memory/``, from the project or from the instruction file's folder)."""
        project = self.location.project_path
        for path, paths in self._instruction_paths.items():
            bases = (path.parent, *((project,) if project is not None else ()))
            if {os.path.relpath(self._root_text, base) for base in bases} & paths.folders:
                return True
        return False

    @cached_property
    def _named_from_project(self) -> bool:
        """Whether the project's instruction files name this folder, or files in it, by
        their path from the project's root (``.claude/memory/global.md``): the convention
        its links follow too. Without it a link written so is judged from the folder (on
        other trees such links were a mistake, right to fix)."""
        project = self.location.project_path
        if project is None:
            return False
        rel = os.path.relpath(self._root_text, project)
        return any(
            rel in paths.folders or any(raw.startswith(rel + "/") for raw in paths.named)
            for paths in self._instruction_paths.values()
        )

    @cached_property
    def _instruction_paths(self) -> dict[Path, OutsidePaths]:
        """What the instruction files above the tree name and import: each read once, for
        reachability and for imports both."""
        found = instruction_files(self.root, self.location.project_path)
        return {path: paths_in(path) for path in found}

    def _named_in(self, outside: Iterable[Path], *, from_root: bool = False) -> set[str]:
        """Tree files that files outside the tree link or name by path (``from_root``: a
        name that is none from the file's folder is read from the tree's, as an agent reads
        its definition's names); a path ending in the tree's folder and a file of it,
        ``.claude/agent-memory/builder/napkin.md``, names that file."""
        found = set()
        for path in outside:
            read = self._instruction_paths.get(path)
            for raw in (read or paths_in(path)).named:
                target = self._resolve(raw, os.path.relpath(path.parent, self._root_text))
                if from_root and (target.path is None or target.path not in self.files):
                    target = self._resolve(raw, "")
                if target.path is not None and target.path in self.files:
                    found.add(target.path)
                elif (tail := tree_path_by_suffix(raw, self.root.name, self._names)) is not None:
                    found.add(tail)
        return found

    def _runnables_linked(self, reached: set[str]) -> list[Path]:
        """Agent and skill files outside the tree that MEMORY.md or a reached file links
        (or this repository's copy of one a link reaches once installed)."""
        targets = [target for _, target in self.index_links]
        for path in sorted(reached):
            memory = self.files.get(path)
            for link in memory.links if memory is not None else ():
                if not link.wiki and not link.mention and not is_external(link.target):
                    targets.append(self.resolve_path(link.target, path))
        found: list[Path] = []
        for target in targets:
            if target.inside or target.absolute is None or not runnable(target.absolute):
                continue
            if target.exists:
                found.append(Path(target.absolute))
                continue
            project = self.location.project_path
            found.extend(
                c for c in runnable_copies(target.absolute, self.root, project) if _file(c)
            )
        allowed = readable_from(self.root, self.location.project_path)
        return [f for f in dict.fromkeys(found) if any(a.holds(f) for a in allowed)]

    @cached_property
    def _names(self) -> frozenset[str]:
        return frozenset(self.files)

    def references_to(self, path: str) -> int:
        """How many index lines, relations and links point at ``path`` (for ordering)."""
        return (
            len(self.index_targets.get(path, ()))
            + len(self.incoming_relations.get(path, ()))
            + len(self.incoming_links.get(path, ()))
        )

    @cached_property
    def names(self) -> Mapping[str, str]:
        """Normalised name, stem, first heading or index title -> tree path."""
        found: dict[str, str] = {}
        for entry in self.index.entries if self.index else ():
            target = self.resolve_path(entry.target, "") if not entry.links[0].wiki else None
            if target is not None and target.path is not None and target.path in self.files:
                found.setdefault(name_key(entry.title), target.path)
        for memory in self.files.values():
            for label in (memory.stem, memory.name, _first_heading(memory)):
                if label:
                    found[name_key(label)] = memory.path
        for memory in self.files.values():  # [[deploy-notes]] for project_deploy_notes.md
            typed = TYPE_PREFIX.match(memory.stem)
            # or project-deploy-notes.md of type project: "user-guide" is a name of its own
            if typed is not None and (
                typed.group(2) == "_" or typed.group(1).lower() == memory.type
            ):
                found.setdefault(name_key(typed.group(3)), memory.path)
        return found

    # ---- resolving links ---------------------------------------------------

    def resolve_link(self, target: str, source: str, *, wiki: bool = False) -> Target:
        if wiki:
            path = self.names.get(name_key(target))
            if path is None and "/" in target:
                return self._wiki_path(target, source)
            return Target(
                path, os.path.join(self._root_text, path) if path else None, path is not None
            )
        return self.resolve_path(target, source)

    def _wiki_path(self, target: str, source: str) -> Target:
        """``[[categories/decisions]]``: a vault's path link names a note by its path, from
        the vault's root (Obsidian's form) or, failing that, from the linking note's folder,
        with ``.md`` left out."""
        name = target.split("|", 1)[0].split("#", 1)[0].strip()
        if not name.lower().endswith(".md"):
            name += ".md"
        from_root = self.resolve_path(name, "")
        if from_root.exists or not source:
            return from_root
        beside = self.resolve_path(name, source)
        return beside if beside.exists else from_root

    def resolve_reference(self, raw: str, source: str) -> Target:
        """A relation or ``superseded_by`` value: a path, a memory's name, or a wikilink
        (``"[[deploy-notes]] — why it matters"``: the link's name, the words after it aside)."""
        wiki = reference_wikilink(raw)
        if wiki is not None:
            return self.resolve_link(wiki, source, wiki=True)
        target = self.resolve_path(raw, source)
        if target.exists or "/" in raw or raw.endswith(".md"):
            if not target.exists and target.path is not None:
                from_root = self.resolve_path(raw, "")
                return from_root if from_root.exists else target
            return target
        by_name = self.names.get(name_key(raw))
        if by_name is not None:
            return Target(by_name, os.path.join(self._root_text, by_name), True)
        with_suffix = self.resolve_path(raw + ".md", "")
        return with_suffix if with_suffix.exists else target

    def resolve_path(self, raw: str, source: str) -> Target:
        """Resolve a path written in ``source`` (a tree path; "" for the root).

        Memoised: the snapshot never changes, and the same links are resolved by
        several checks. Strings, not pathlib: this is the structural checks' hot path.
        """
        key = (raw, source.rpartition("/")[0])
        found = self._resolved.get(key)
        if found is None:
            found = self._resolved[key] = self._resolve(raw, key[1])
        return found

    def _resolve(self, raw: str, folder: str) -> Target:
        text = unquote(raw.split("#", 1)[0].split("?", 1)[0]).strip()
        if not text:
            return Target(None, None, True)
        text = text.removeprefix("file://")
        if text.startswith("~"):
            candidate = os.path.join(str(self.home), text[1:].lstrip("/"))
        elif os.path.isabs(text):
            candidate = text
        else:
            candidate = os.path.join(self._root_text, folder, text)
            found = self._classify(os.path.normpath(candidate))
            if found.exists or text.startswith(("./", "../")):
                return found
            # ``.claude/memory/notes.md`` in a repository's copy: written from the project's
            # root, where sessions work (its CLAUDE.md names its files so), not from here
            from_project = self._from_project(text)
            return from_project if from_project is not None else found
        return self._classify(os.path.normpath(candidate))

    def _from_project(self, text: str) -> Target | None:
        """The tree file ``text`` names from the project's root, when the tree is inside the
        project and the file is there."""
        project = self.location.project_path
        if project is None or not self._named_from_project:
            return None
        candidate = os.path.normpath(os.path.join(project, text))
        if not candidate.startswith(self._root_text + "/"):
            return None
        found = self._classify(candidate)
        return found if found.exists and found.path is not None else None

    def _classify(self, candidate: str) -> Target:
        for root in self._root_texts:
            if candidate.startswith(root + "/") or candidate == root:
                rel = candidate[len(root) + 1 :]
                exists = rel in self.present or rel in self.files or _may_exist(candidate)
                return Target(rel, candidate, exists)
        return Target(None, candidate, os.path.exists(candidate))

    @cached_property
    def scratch(self) -> dict[object, object]:
        """Results other layers derive from the snapshot once (the secret scan), by key."""
        return {}

    @cached_property
    def _resolved(self) -> dict[tuple[str, str], Target]:
        return {}

    @cached_property
    def _root_text(self) -> str:
        return os.path.normpath(self.root.absolute())

    @cached_property
    def _root_texts(self) -> tuple[str, ...]:
        real = os.path.realpath(self.root)
        return (self._root_text,) if real == self._root_text else (self._root_text, real)


def _reverse(edges: Mapping[str, Iterable[str]]) -> Mapping[str, frozenset[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for source, targets in edges.items():
        for target in targets:
            found[target].add(source)
    return {path: frozenset(sources) for path, sources in found.items()}


def _file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _may_exist(path: str) -> bool:
    """False only when the file is known to be missing: behind an unreadable folder it
    may well exist, and a fix must never remove the index line of a file it cannot see."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in it
        return False
    except OSError:
        return True
    return True


def reference_wikilink(raw: str) -> str | None:
    """The name of the ``[[wikilink]]`` a relation value opens with, or None."""
    if not raw.lstrip().startswith("[["):
        return None
    found = next(find_wikilinks(raw), None)
    return found[2] if found is not None else None


def name_key(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower().removesuffix(".md")).strip("-")


def _first_heading(memory: MemoryFile) -> str:
    for line in memory.body_lines[:20]:
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def load_tree(
    root: Path,
    *,
    location: ProjectLocation | None = None,
    profile: str = "auto",
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    now: dt.datetime | None = None,
    candidates: Iterable[Candidate] | None = None,
    recap_globs: Sequence[str] = DEFAULT_RECAP_GLOBS,
    documents: bool = False,
) -> MemoryTree:
    """Read ``root`` into a snapshot. ``candidates`` overrides the listing (tests
    use it to delete a file between listing and reading). ``documents``: the folder's own
    files alone (an agent's workspace root, beside its memory/ tree)."""
    root = Path(os.path.normpath(root.absolute()))
    listing = list_tree(root, documents=documents)
    files: dict[str, MemoryFile] = {}
    unread: dict[str, tuple[FileProblem, ...]] = {p: (q,) for p, q in listing.problems}
    skipped: dict[str, str] = {rel + "/": AGENT_STORE_APART for rel in listing.apart}
    errors = list(listing.errors)
    # memories too large to read whole (a month's chat log kept as one note): read for
    # secrets alone, as a file that is no memory is; a key pasted into one is there all the same
    oversize: list[Candidate] = []
    for candidate in listing.candidates if candidates is None else candidates:
        try:
            result = read_text(candidate.source, max_file_bytes)
            if result.error is not None:
                errors.append(ReadError(candidate.path, result.error))
            elif result.text is None and any(p.code == ENCRYPTED for p in result.problems):
                skipped[candidate.path] = result.problems[0].message
            elif result.text is None:
                unread[candidate.path] = result.problems
                if any(problem.code == "file-too-large" for problem in result.problems):
                    oversize.append(candidate)
            else:
                files[candidate.path] = _memory_file(
                    candidate, result, recap_globs, listing.index is not None
                )
        except Exception as exc:  # a reader's bug: this file's error entry, not the tree's
            errors.append(ReadError(candidate.path, unreadable(exc)))
    index_problems: list[FileProblem] = []
    try:
        index, index_load = _read_index(
            listing.index, max(max_file_bytes, INDEX_MAX_BYTES), unread, errors, index_problems
        )
    except Exception as exc:
        index, index_load = None, None
        errors.append(ReadError(INDEX_NAME, unreadable(exc)))
    return MemoryTree(
        root=root,
        files=files,
        index=index,
        present=frozenset(listing.present),
        unread=unread,
        errors=tuple(errors),
        location=location or ProjectLocation(),
        requested_profile=profile,
        taken_at=now or dt.datetime.now().astimezone(),
        skipped_files=skipped,
        index_load=index_load,
        index_problems=tuple(index_problems),
        documents=documents,
        other_files=(*listing.others, *oversize),
        other_max_bytes=other_limit(max_file_bytes),
    )


def read_limit(rel: str, max_file_bytes: int) -> int:
    """How far a tree file is read as kept: a memory up to ``max_file_bytes`` (a session
    reads it whole), a file read for secrets alone (:func:`read_as_other`) up to
    :func:`other_limit`. A file read for its secrets only (the daemon's scan of a changed
    file, review's private copy) is read to :func:`other_limit` whatever it is: a memory
    past ``max_file_bytes`` is not read as a memory, but its secrets are read all the same."""
    return other_limit(max_file_bytes) if read_as_other(rel) else max_file_bytes


def other_limit(max_file_bytes: int) -> int:
    """How far a file read for secrets alone is read: :data:`OTHER_MAX_BYTES`, or further
    when a memory's limit (``max_file_bytes``) is larger. The audit, the daemon, the journal
    and review's preview all read such a file this far."""
    return max(max_file_bytes, OTHER_MAX_BYTES)


@dataclass(frozen=True)
class OthersRead:
    texts: dict[str, str]
    too_large: int  # over the limit on one, or past the total
    unreadable: int  # could not be opened or read (a locked file, a folder gone)


def read_others(others: Sequence[Candidate], max_file_bytes: int) -> OthersRead:
    """The text of each file that is no memory, for the secret rules alone, and the counts
    of those over the size limit or past the total (:data:`OTHER_TOTAL_BYTES`), and of those
    that could not be read. A binary file (an image, a database) is no text and is left out
    without a word: it is no memory, and holds no text a rule reads."""
    texts: dict[str, str] = {}
    too_large = unreadable = total = 0
    for candidate in others:
        try:
            size = os.stat(candidate.source, follow_symlinks=False).st_size
        except FileNotFoundError:
            continue  # gone since the listing: nothing to read
        except OSError:
            unreadable += 1
            continue
        if total + min(size, max_file_bytes + 1) > OTHER_TOTAL_BYTES:
            too_large += 1
            continue
        try:
            if size > BINARY_SNIFF and binary_at_start(candidate.source):
                continue
            result = read_text(candidate.source, max_file_bytes)
        except Exception:  # a reader's bug on a file that is no memory: counted, not read
            unreadable += 1
            continue
        if result.text is not None:
            total += result.size
            texts[candidate.path] = result.text
        elif any(problem.code == "file-too-large" for problem in result.problems):
            too_large += 1
        elif result.error is not None:
            unreadable += 1
    return OthersRead(texts, too_large, unreadable)


def unreadable(exc: Exception) -> str:
    """The error entry of a file whose reading raised: the failure's type and place only
    (its message may quote the file)."""
    return f"could not be read ({describe(exc)}); not audited"


def _memory_file(
    candidate: Candidate, result: ReadResult, recap_globs: Sequence[str], index_present: bool
) -> MemoryFile:
    text = result.text or ""
    kind = listed_kind(candidate.path, candidate.kind, recap_globs)
    if kind is FileKind.MEMORY and not_memory_reason(candidate.path, text):
        kind = FileKind.NOT_MEMORY
    elif kind is FileKind.MEMORY and not index_present and index_by_another_case(candidate.path):
        kind = FileKind.NOT_MEMORY  # the index, in another case
    return parse_memory_file(candidate.path, kind, text, result.size, result.mtime, result.problems)


def _read_index(
    candidate: Candidate | None,
    max_file_bytes: int,
    unread: dict[str, tuple[FileProblem, ...]],
    errors: list[ReadError],
    problems: list[FileProblem],
) -> tuple[Index | None, LoadedIndex | None]:
    if candidate is None:
        return None, None
    result = read_text(candidate.source, max_file_bytes, line_bytes=True)
    if result.error is not None:
        errors.append(ReadError(INDEX_NAME, result.error))
        return None, None
    if result.text is None:
        unread[INDEX_NAME] = result.problems
        return None, None
    problems.extend(result.problems)
    index = parse_index(result.text, result.size, result.mtime, result.line_bytes)
    return index, load_index(result.disk_text)


def resolve_profile(requested: str, files: Iterable[MemoryFile]) -> str:
    """``auto`` is ``governed`` as soon as any file uses ``scope`` or ``relevance``."""
    if requested != "auto":
        return requested
    for memory in files:
        fm = memory.frontmatter or {}
        if any(key in fm for key in GOVERNED_MARKERS):
            return "governed"
    return "claude-code"
