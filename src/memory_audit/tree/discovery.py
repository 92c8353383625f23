"""Where memory trees are, and which project each belongs to.

A tree lives at ``~/.claude/projects/<slug>/memory/``; the slug is the project
path with every character outside ``[A-Za-z0-9]`` replaced by ``-``. That
mapping loses information, so the project path is read from the ``cwd`` field
of the project's session transcripts, with a bounded filesystem walk as the
fallback. Slugs longer than 200 characters carry a hash suffix we cannot
recompute: those are matched by prefix.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_audit.config.paths import claude_home
from memory_audit.errors import UsageError
from memory_audit.model.masked import MASK, shows
from memory_audit.model.stores import AgentStore
from memory_audit.regular_files import open_regular, read_regular
from memory_audit.sources.git import GitUnavailable, remote_urls, repository_root
from memory_audit.tree import claude_settings
from memory_audit.tree.agent_stores import agent_of, agent_stores, stores_in
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.location import ProjectLocation, is_config_repository
from memory_audit.tree.slugs import SLUG_LIMIT, slug_matches, slugify, tree_root_for_folder
from memory_audit.tree.workspace import documents_beside_memory

# Re-exported: slugs live in tree.slugs (light, for the hook); callers know them from here.
__all__ = ["SLUG_LIMIT", "slug_matches", "slugify"]

NAME_MAX = 255  # longest file name most file systems allow
TRANSCRIPTS_TO_SAMPLE = 5
LINES_TO_SAMPLE = 50
BYTES_TO_SAMPLE = 1024 * 1024
WALK_BUDGET = 4000
TRASH = ".trash"


@dataclass(frozen=True)
class TreeRef:
    root: Path
    location: ProjectLocation
    # the documents at an agent's workspace root beside its memory/ (that folder is a tree
    # of its own): audited for secrets only, the folder's own files alone
    documents: bool = False

    @property
    def label(self) -> str:
        if self.location.agent is not None:
            return self.location.agent.label
        if self.documents:  # beside its memory/, whose label may be the same project's
            return f"{self.root} (documents beside memory/)"
        return self.location.slug or str(self.root)


def projects_dir() -> Path:
    return claude_home() / "projects"


def settings_memory_dir(home: Path | None = None) -> Path | None:
    """``autoMemoryDirectory`` from the user settings (``settings.local.json`` wins)."""
    found: Path | None = None
    base = home or claude_home()
    for name in ("settings.json", "settings.local.json"):
        value = _read_json_object(base / name).get("autoMemoryDirectory")
        if isinstance(value, str) and value.strip():
            found = Path(value.strip()).expanduser()
    return found


def _read_json_object(path: Path) -> dict[str, object]:
    try:
        data = json.loads(read_regular(path).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


DEFAULT_ROOTS = ("~/.claude/projects/*/memory",)


def find_trees(
    roots: tuple[str, ...] = DEFAULT_ROOTS,
    *,
    locate_projects: bool = True,
    every_store: bool = False,
) -> list[TreeRef]:
    """Every tree matching the ``roots`` globs, plus the settings' ``autoMemoryDirectory``;
    with ``every_store``, also each known project's own ``autoMemoryDirectory`` (its local
    settings) and every agent's memory (after the project trees).

    ``locate_projects=False`` skips finding each project's folder (transcripts, a
    filesystem walk): the watcher needs only the roots, and rescans often.
    """
    refs = _auto_memory_trees(roots, locate_projects)
    if every_store:
        projects = known_projects(refs)
        seen = {r.root.resolve() for r in refs}
        refs += project_directory_trees(projects, seen)
        refs += find_agent_trees(projects, seen, locate_projects=locate_projects)
    return refs


def project_directory_trees(projects: list[Path], seen: set[Path]) -> list[TreeRef]:
    """Trees a project's ``.claude/settings.local.json`` moved with ``autoMemoryDirectory``."""
    refs = []
    for project in projects:
        folder = claude_settings.resolve(project).memory_directory
        if folder is not None and folder.is_dir() and folder.resolve() not in seen:
            seen.add(folder.resolve())
            refs.append(TreeRef(folder, ProjectLocation(project_path=project)))
    return refs


def _auto_memory_trees(roots: tuple[str, ...], locate_projects: bool) -> list[TreeRef]:
    seen: set[Path] = set()
    refs: list[TreeRef] = []
    for root in _candidate_roots(roots):
        if TRASH in root.parts:  # a store moved aside by review: kept, never audited
            continue
        real = root.resolve()
        if root.is_dir() and real not in seen:
            seen.add(real)
            refs.append(TreeRef(root, locate(root) if locate_projects else ProjectLocation()))
    return refs


def known_projects(refs: list[TreeRef]) -> list[Path]:
    """Project folders known from the trees found and from every project's transcripts
    (a project without auto memory may still have agents with memory)."""
    found = {r.location.project_path for r in refs if r.location.project_path is not None}
    located = {r.location.transcripts_dir for r in refs}
    for folder in _slug_folders():
        if folder not in located:
            project = _located_project(folder)
            if project is not None:
                found.add(project)
    return sorted(found)


# The daemon asks at every rescan: a slug folder is located again only once it changed (a
# new transcript), not by reading transcripts, or walking the filesystem, each time.
_LOCATED: dict[tuple[Path, int], Path | None] = {}
LOCATED_KEPT = 10_000


def _located_project(folder: Path) -> Path | None:
    try:
        key = (folder, folder.stat().st_mtime_ns)
    except OSError:
        return None
    if key not in _LOCATED:
        if len(_LOCATED) >= LOCATED_KEPT:
            _LOCATED.clear()
        _LOCATED[key] = locate_project(folder.name, folder)
    found = _LOCATED[key]
    return found if found is not None and found.is_dir() else None


def _slug_folders() -> list[Path]:
    try:
        return sorted(p for p in projects_dir().iterdir() if p.is_dir())
    except OSError:
        return []


def find_agent_trees(
    projects: list[Path], seen: set[Path] | None = None, *, locate_projects: bool = True
) -> list[TreeRef]:
    """Every agent memory tree: the user's and those of ``projects`` (without
    ``locate_projects``, only the agent is known: no git repository is asked)."""
    seen = set() if seen is None else seen
    refs = []
    for root in agent_stores(projects):
        real = root.resolve()
        if real not in seen:
            seen.add(real)
            refs.append(TreeRef(root, locate(root) if locate_projects else _agent_only(root)))
    return refs


def _agent_only(root: Path) -> ProjectLocation:
    agent = agent_of(root)
    return ProjectLocation(agent=agent[0] if agent else None)


def expand_root(pattern: str) -> str:
    """``~/.claude`` means the Claude Code folder (``$CLAUDE_CONFIG_DIR`` when set)."""
    if pattern == "~/.claude" or pattern.startswith("~/.claude/"):
        pattern = str(claude_home()) + pattern[len("~/.claude") :]
    return os.path.expanduser(pattern)


def _candidate_roots(roots: tuple[str, ...]) -> Iterator[Path]:
    for pattern in roots:
        expanded = expand_root(pattern)
        anchor = Path(expanded).anchor
        if not anchor:
            yield from sorted(Path().glob(expanded))
        elif glob_magic(expanded):
            yield from sorted(Path(anchor).glob(os.path.relpath(expanded, anchor)))
        else:
            yield Path(expanded)
    configured = settings_memory_dir()
    if configured is not None:
        yield configured


def glob_magic(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def locate(root: Path) -> ProjectLocation:
    """The slug, project path and transcripts of a tree, as far as they can be known.

    A tree outside the projects folder (a synced copy, or one committed to a
    repository) belongs to the git work tree it lives in, unless that repository
    is the memory folder's own, or a dotfiles or Claude configuration repository
    (:func:`is_config_repository`): then the project is not located.
    """
    agent = agent_of(root)
    if agent is not None:
        return _agent_location(root, *agent)
    parent = root.absolute().parent
    if root.name != "memory" or parent.parent.resolve() != projects_dir().resolve():
        repo, config = _enclosing_repository(root)
        return ProjectLocation(project_path=repo, in_config_repository=config)
    slug = parent.name
    return ProjectLocation(slug, locate_project(slug, parent), parent)


def _agent_location(root: Path, agent: AgentStore, project: Path | None) -> ProjectLocation:
    """An agent's memory: the user's belongs to no project; a project's (committed or
    local) belongs to the repository it is committed in, else to its project folder."""
    if project is None:
        return ProjectLocation(agent=agent)
    found = _enclosing_repository(root)[0] or (project if project.is_dir() else None)
    return ProjectLocation(project_path=found, agent=agent)


def _enclosing_repository(root: Path) -> tuple[Path | None, bool]:
    """The git work tree holding ``root``, and whether it is a configuration repository
    (then no project: the first is None)."""
    try:
        repo = repository_root(root)
    except GitUnavailable:
        return None, False
    tree = Path(os.path.realpath(root))
    if is_config_repository(Path(os.path.realpath(repo)), tree, remote_urls(repo)):
        return None, True
    return repo, False


def locate_project(slug: str, transcripts_dir: Path) -> Path | None:
    for cwd in transcript_cwds(transcripts_dir):
        for candidate in (cwd, *cwd.parents):
            if slug_matches(slugify(candidate), slug) and candidate.is_dir():
                return candidate
    return walk_for_slug(slug)


def transcript_cwds(transcripts_dir: Path) -> Iterator[Path]:
    """``cwd`` values from the newest transcripts, reading only their first lines."""
    try:
        transcripts = sorted(
            transcripts_dir.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True
        )
    except OSError:
        return
    for transcript in transcripts[:TRANSCRIPTS_TO_SAMPLE]:
        cwd = _first_cwd(transcript)
        if cwd is not None:
            yield cwd


def _first_cwd(transcript: Path) -> Path | None:
    try:
        with open_regular(transcript) as handle:
            # Bounded: a line without end (a 2 GB sparse transcript) is not read whole.
            budget = BYTES_TO_SAMPLE
            for _ in range(LINES_TO_SAMPLE):
                raw = handle.readline(budget)
                budget -= len(raw)
                cwd = _cwd_of(raw)
                if cwd is not None or not raw or budget <= 0:
                    return cwd
    except OSError:
        return None
    return None


def _cwd_of(raw: bytes) -> Path | None:
    if b'"cwd"' not in raw:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    cwd = record.get("cwd") if isinstance(record, dict) else None
    return Path(cwd) if isinstance(cwd, str) and os.path.isabs(cwd) else None


def walk_for_slug(slug: str) -> Path | None:
    """Rebuild a path from its slug by walking the filesystem from ``/``, greedily."""
    if not slug.startswith("-") or len(slug) > SLUG_LIMIT:
        return None
    budget = [WALK_BUDGET]
    return _walk(Path("/"), slug[1:], budget)


def _walk(directory: Path, rest: str, budget: list[int]) -> Path | None:
    budget[0] -= 1
    if budget[0] < 0:
        return None
    try:
        names = sorted((e.name for e in os.scandir(directory) if e.is_dir()), key=len, reverse=True)
    except OSError:
        return None
    for name in names:
        head = slugify(name)
        if not rest.startswith(head):
            continue
        if len(rest) == len(head):
            return directory / name
        if rest[len(head)] == "-":
            found = _walk(directory / name, rest[len(head) + 1 :], budget)
            if found is not None:
                return found
    return None


def tree_for_project(project: str) -> TreeRef:
    """``--project``: a slug (``-home-me-app``, the leading dash optional) or a project path."""
    if os.path.isabs(os.path.expanduser(project)):
        path = Path(project).expanduser()
        found = tree_for_folder(path.absolute()) or tree_for_folder(path.resolve())
        if found is not None:
            return TreeRef(found, locate(found))
        raise UsageError(f"no memory tree found for the project {project}")
    for slug in (project, f"-{project}"):
        root = projects_dir() / slug / "memory"
        if slug and "/" not in slug and len(slug) <= NAME_MAX and root.is_dir():
            return TreeRef(root, locate(root))
    shown = _shown_slug(project)
    if shown is not None:
        return TreeRef(shown, locate(shown))
    raise UsageError(f"no memory tree found at {projects_dir() / project / 'memory'}")


def _shown_slug(project: str) -> Path | None:
    """The one tree whose slug ``project`` is as reports show it (a token in the project
    folder's name masked): the ``--project`` a report suggests works."""
    if MASK not in project or "/" in project:
        return None
    try:
        slugs = [entry.name for entry in os.scandir(projects_dir()) if entry.is_dir()]
    except OSError:
        return None
    found = [s for s in slugs if shows(project, s) or shows(f"-{project}", s)]
    root = projects_dir() / found[0] / "memory" if len(found) == 1 else None
    return root if root is not None and root.is_dir() else None


def tree_for_folder(folder: Path) -> Path | None:
    """The memory tree of the project ``folder`` is in (the project itself or any sub-folder)."""
    found = tree_root_for_folder(str(folder))
    return Path(found) if found is not None else None


def trees_for_path(path: Path) -> list[TreeRef]:
    """An explicit argument's trees: :func:`tree_for_path`'s, and when that is a folder of
    agents' stores, each store too (its files are no part of the folder's own tree); when
    it is an agent's workspace without a MEMORY.md, its root's documents too, for secrets
    (its ``memory/`` is the tree; TOOLS.md and USER.md are where keys get noted)."""
    ref = tree_for_path(path)
    stores = [tree_for_path(ref.root / name) for name in stores_in(ref.root)]
    named = path.expanduser()
    if ref.root != named and ref.root.parent == named and documents_beside_memory(named):
        # a workspace reached through a link is its folder's (a tree's root is no link:
        # the guard that writes for review refuses one)
        real = Path(os.path.realpath(named)) if named.is_symlink() else named
        stores.append(TreeRef(real, locate(real), documents=True))
    return [ref, *stores]


def tree_for_path(path: Path) -> TreeRef:
    """An explicit argument: a memory tree, a ``projects/<slug>`` folder, or a project."""
    path = path.expanduser()
    try:
        is_folder = path.is_dir()
    except PermissionError:  # a folder on the way cannot be searched: it may well be a tree
        return TreeRef(path, locate(path))  # its audit says it could not be read
    if not is_folder:
        raise UsageError(f"no memory tree found at {path}")
    if (
        path.name == "memory"
        or agent_of(path) is not None  # an agent's store, empty or not
        or (path / INDEX_NAME).exists()
    ):
        return TreeRef(path, locate(path))
    if (path / "memory").is_dir():
        return TreeRef(path / "memory", locate(path / "memory"))
    by_slug = projects_dir() / slugify(path.resolve()) / "memory"
    if by_slug.is_dir():
        return TreeRef(by_slug, locate(by_slug))
    if any(path.glob("*.md")):
        return TreeRef(path, locate(path))
    raise UsageError(f"no memory tree found at {path}")
