"""Turning command-line arguments into the trees a command works on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memory_audit.config.settings import Config
from memory_audit.errors import UsageError
from memory_audit.tree import discovery as discover
from memory_audit.tree.discovery import TreeRef


def with_location(
    refs: list[TreeRef], project_root: Path | None, transcripts: Path | None
) -> list[TreeRef]:
    """Apply ``--project-root`` / ``--transcripts`` overrides to every target."""
    for path, what in ((project_root, "--project-root"), (transcripts, "--transcripts")):
        if path is not None and not path.is_dir():
            raise UsageError(f"{what}: {path} is not a folder")
    return [
        replace(
            ref,
            location=replace(
                ref.location,
                project_path=project_root.absolute() if project_root else ref.location.project_path,
                transcripts_dir=transcripts.absolute()
                if transcripts
                else ref.location.transcripts_dir,
            ),
        )
        for ref in refs
    ]


@dataclass(frozen=True)
class Scope:
    """The trees a command works on, and the sentence that says how they were chosen when
    the user did not name them (printed first)."""

    refs: list[TreeRef]
    note: str = ""
    current: Path | None = None  # the tree of the project the command runs in, if any


def resolve_scope(
    paths: Sequence[str], project: str | None, config: Config, *, every: bool = False
) -> Scope:
    """The trees a command works on: explicit paths, else ``--project``, else ``--all``, else
    the project the command runs in (its folder or any sub-folder), else every tree, saying so."""
    if sum(map(bool, (paths, project, every))) > 1:
        raise UsageError("give tree paths, --project or --all, not more than one")
    here = discover.tree_for_folder(Path.cwd())
    if project:
        return Scope([discover.tree_for_project(_project_path(project))], current=here)
    if paths:
        refs = [ref for p in paths for ref in discover.trees_for_path(Path(p))]
        return Scope(_once(refs), current=here)
    if here is not None and not every:
        return Scope([discover.tree_for_path(here)], current=here)
    refs = discover.find_trees(config.settings.roots, every_store=True)
    if not refs:
        raise UsageError(f"no memory tree found at {discover.projects_dir()}/*/memory")
    if every:
        return Scope(refs, current=here)
    return Scope(
        refs,
        f"Not inside a project with memory: every tree ({len(refs)}); "
        "--project or a path chooses one.",
    )


def _once(refs: list[TreeRef]) -> list[TreeRef]:
    """Each tree once, where it first came (a store named beside its folder of stores)."""
    seen: set[Path] = set()
    kept = []
    for ref in refs:
        if ref.root.absolute() not in seen:
            seen.add(ref.root.absolute())
            kept.append(ref)
    return kept


def _project_path(project: str) -> str:
    """``--project .`` (or any relative path to a folder) means that folder's project."""
    if project.startswith(("-", "/", "~")) or not Path(project).is_dir():
        return project
    return str(Path(project).absolute())
