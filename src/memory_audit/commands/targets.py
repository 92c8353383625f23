"""Turning command-line arguments into the trees a command works on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
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


def resolve_targets(paths: Sequence[str], project: str | None, config: Config) -> list[TreeRef]:
    """Explicit paths, else ``--project``, else every tree found."""
    if paths and project:
        raise UsageError("give tree paths or --project, not both")
    if project:
        return [discover.tree_for_project(project)]
    if paths:
        return [discover.tree_for_path(Path(p)) for p in paths]
    refs = discover.find_trees(config.settings.roots)
    if not refs:
        raise UsageError(f"no memory tree found at {discover.projects_dir()}/*/memory")
    return refs
