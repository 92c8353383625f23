"""``memory-audit audit``: audit trees and print the report. Never writes to a tree."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from memory_audit.atomic import OutputRefused, write_output
from memory_audit.checks import OPTION_TYPES
from memory_audit.commands.progress import Progress
from memory_audit.commands.targets import resolve_scope, with_location
from memory_audit.config import settings as config_module
from memory_audit.config.settings import Profile
from memory_audit.engine import audit_refs, audited_refs, names_boundary, select_checks
from memory_audit.errors import MemoryAuditError, UsageError
from memory_audit.model.run import Run
from memory_audit.report import colour, json_report, renderer, text
from memory_audit.report.text import TextOptions
from memory_audit.store.dismissals import DB_NAME, read_dismissed
from memory_audit.tree.discovery import TreeRef


def run(  # noqa: PLR0913 - one keyword per flag of the CLI table
    *,
    paths: Sequence[str],
    project: str | None,
    checks: Sequence[str],
    output_format: str,
    output: Path | None,
    config_path: Path | None,
    profile: Profile | None,
    max_per_dimension: int | None,
    out: TextIO,
    project_root: Path | None = None,
    transcripts: Path | None = None,
    every: bool = False,
    quiet: bool = False,
    verbose: bool = False,
    color: str = "auto",
    indent: int | None = None,
    scan_transcripts: bool = False,
) -> int:
    if quiet and verbose:
        raise UsageError("-q and -v do not go together")
    config = _with_overrides(
        config_module.load(config_path, OPTION_TYPES), profile, max_per_dimension
    )
    if scan_transcripts:  # `--transcripts` alone: the session transcripts' secret scan
        return _scan_transcripts(paths, project, config, out)
    scope = resolve_scope(paths, project, config, every=every)
    selection = select_checks(checks, config.settings.audit.skip)
    refs = audited_refs(with_location(scope.refs, project_root, transcripts), selection)
    dismissed = read_dismissed(config.state_dir)
    run_ = _audited(refs, config, selection, dismissed)
    if (every or scope.note) and "duplicates" in selection:  # every store: notes they share
        run_ = _with_shared_notes(run_, refs, config, dismissed)
    if output_format == "html":
        run_ = with_history(run_, config, dismissed)
    if output_format == "text":
        options = TextOptions(
            color=colour.wanted(color, output is None and out.isatty(), os.environ),
            detail="quiet" if quiet else "verbose" if verbose else "normal",
            note=scope.note,
            current=scope.current,
        )
        rendered = text.render(run_, options)
    else:
        if scope.note:
            print(f"memory-audit: {scope.note}", file=sys.stderr)
        if output is None and output_format == "json":
            json_report.write(run_, out, indent)  # streamed: one tree's JSON at a time
            return exit_code(run_)
        rendered = _render(run_, output_format, indent)
    if output is None:
        out.write(rendered)
    else:
        _write_report(output, rendered, refs)
    if output_format == "text" and output is None and out.isatty():
        _offer_service(config, config_path)
    return exit_code(run_)


def _audited(
    refs: Sequence[TreeRef],
    config: config_module.Config,
    selection: Sequence[str],
    dismissed: frozenset[str],
) -> Run:
    labels = functools.cache(
        lambda: names_boundary(config.check_options("secrets"), [r.label for r in refs])
    )  # built when the first label is shown: only on a terminal, after a second
    progress = Progress.on(
        sys.stderr,
        len(refs),
        transcripts_per_tree=_transcripts(config, selection),
        shown=lambda label: labels().path(label),
    )
    try:
        return audit_refs(refs, config, selection, dismissed=dismissed, progress=progress)
    finally:
        if progress is not None:
            progress.finish()


def _scan_transcripts(
    paths: Sequence[str], project: str | None, config: config_module.Config, out: TextIO
) -> int:
    from memory_audit.commands import transcript_secrets

    named = resolve_scope(paths, project, config).refs if paths or project else None
    return transcript_secrets.run(named, config, out)


def _with_shared_notes(
    run: Run, refs: Sequence[TreeRef], config: config_module.Config, dismissed: frozenset[str]
) -> Run:
    from memory_audit.cross_tree import with_shared_notes  # loads `duplicates`: only when run

    return with_shared_notes(run, refs, config, dismissed)


def exit_code(run: Run) -> int:
    """1 for problems, or for anything that could not be audited; else 0 (every format).
    Suggestions never make the exit code."""
    return 1 if run.problem_total or unaudited_files(run) else 0


def unaudited_files(run: Run) -> bool:
    """A file that could not be read or checked, or a dimension that could not run (the
    secret rules could not be loaded), is no clean bill of health: exit 1, the reason is
    in the report's errors or skipped; so is a tree whose folder cannot be read. (A tree
    being consolidated is audited later: it alone does not make the exit code.)"""
    return any(
        (report.errors or report.not_run) and not report.being_consolidated
        for report in run.reports
    )


def _with_overrides(
    config: config_module.Config, profile: Profile | None, cap: int | None
) -> config_module.Config:
    audit_settings = config.settings.audit
    if profile is not None:
        audit_settings = replace(audit_settings, profile=profile)
    if cap is not None:
        audit_settings = replace(audit_settings, max_per_dimension=cap)
    return replace(config, settings=replace(config.settings, audit=audit_settings))


def _transcripts(config: config_module.Config, selection: Sequence[str]) -> int | None:
    if "usage" not in selection:
        return None
    return int(getattr(config.check_options("usage"), "sessions", 10))


def _write_report(output: Path, rendered: str, refs: Sequence[TreeRef]) -> None:
    _refuse_inside_trees(output, refs)
    try:
        write_output(output, rendered)
    except OutputRefused as exc:
        raise UsageError(f"--output: {exc}") from None


def _render(run: Run, output_format: str, indent: int | None) -> str:
    if output_format == "json":
        return json_report.render(run, indent)
    return renderer(output_format)(run)


def with_history(run: Run, config: config_module.Config, dismissed: frozenset[str]) -> Run:
    """What is new since the service's last run, and the trend of earlier runs, when the
    state database exists (it is not created for this)."""
    if not (config.state_dir / DB_NAME).exists():
        return run
    from memory_audit.store.state import State  # sqlite3: only for an HTML report's history

    state = State(config.state_dir)
    try:
        return replace(run, changes=state.changes(run, dismissed), history=state.trend())
    finally:
        state.close()


def _offer_service(config: config_module.Config, config_path: Path | None) -> None:
    # Only at a terminal: the service installer (urllib, http, XML) stays out of scripted runs.
    from memory_audit.commands import service
    from memory_audit.commands.offer import offer_weekly
    from memory_audit.install import backend_for_platform

    try:
        backend = backend_for_platform()
    except MemoryAuditError:
        return
    offer_weekly(
        config.state_dir,
        backend.unit_path().exists(),
        sys.stdin,
        sys.stderr,
        lambda: service.run(
            action="install",
            print_only=False,
            config_path=config_path,
            out=sys.stdout,
            backend=backend,
        ),
    )


def _refuse_inside_trees(output: Path, refs: Sequence[TreeRef]) -> None:
    target = output.absolute().resolve()
    for ref in refs:
        root = ref.root.absolute().resolve()
        # a workspace's documents are its root's own files: a report in a folder of it is
        # in none of its trees (its memory/ is refused by its own tree)
        inside = target.parent == root if ref.documents else target.is_relative_to(root)
        if inside:
            raise UsageError(f"refusing to write the report inside the memory tree {ref.root}")
