"""``memory-audit dismiss|undismiss`` and ``memory-audit changelog``.

A dismissal names a finding by its fingerprint, or the first 8 digits the text
report shows in brackets; it is looked up in the trees in scope first, so a
typo is refused rather than remembered.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from memory_audit.checks import OPTION_TYPES
from memory_audit.commands.targets import resolve_scope
from memory_audit.config import settings as config_module
from memory_audit.engine import audit_refs, select_checks, shown_tree
from memory_audit.errors import UsageError
from memory_audit.fix.changelog import changelog_path
from memory_audit.model.finding import Finding
from memory_audit.model.visible import visible
from memory_audit.store.dismissals import DB_NAME
from memory_audit.store.state import State

FINGERPRINT = re.compile(r"^[0-9a-f]{6,64}$")


def dismiss(
    *,
    fingerprint: str | None,
    paths: Sequence[str],
    project: str | None,
    every: bool,
    reason: str | None,
    list_only: bool,
    config_path: Path | None,
    out: TextIO,
) -> int:
    config = config_module.load(config_path, OPTION_TYPES)
    if list_only:
        return _list(config, out)
    if fingerprint is None or not reason:
        raise UsageError("dismiss FINGERPRINT --reason WHY (or dismiss --list)")
    wanted = _valid(fingerprint)
    finding, root = _find(wanted, paths, project, every, config)
    state = State(config.state_dir)
    try:
        state.dismiss(finding.fingerprint, str(root), reason, dt.datetime.now().astimezone())
    finally:
        state.close()
    out.write(
        f"dismissed [{finding.fingerprint[:8]}] {visible(finding.path)}: "
        f"{visible(finding.message)}\n"
        "It stays out of notifications and counts, and is listed apart in reports "
        f"(`memory-audit undismiss {finding.fingerprint[:8]}` brings it back).\n"
    )
    return 0


def undismiss(*, fingerprint: str, config_path: Path | None, out: TextIO) -> int:
    config = config_module.load(config_path)
    wanted = _valid(fingerprint)
    if not (config.state_dir / DB_NAME).exists():
        raise UsageError("nothing is dismissed")
    state = State(config.state_dir)
    try:
        matches = [row for row in state.dismissals() if row[0].startswith(wanted)]
        if len(matches) != 1:
            raise UsageError(
                f"{len(matches) or 'no'} dismissals match {fingerprint!r} "
                "(`memory-audit dismiss --list` shows them)"
            )
        state.undismiss(matches[0][0])
    finally:
        state.close()
    out.write(f"[{matches[0][0][:8]}] is reported again\n")
    return 0


def _valid(fingerprint: str) -> str:
    wanted = fingerprint.strip().strip("[]").lower()
    if not FINGERPRINT.match(wanted):
        raise UsageError(
            f"{fingerprint!r} is not a finding fingerprint (the hex digits shown in "
            "brackets in the report, at least 6)"
        )
    return wanted


def _find(
    wanted: str,
    paths: Sequence[str],
    project: str | None,
    every: bool,
    config: config_module.Config,
) -> tuple[Finding, Path]:
    """The one finding in scope (dismissed ones included) whose fingerprint starts so."""
    scope = resolve_scope(paths, project, config, every=every)
    run = audit_refs(scope.refs, config, select_checks([], config.settings.audit.skip))
    matches = [
        (finding, report.root)
        for report in run.reports
        for finding in (*report.findings, *report.dismissed)
        if finding.fingerprint.startswith(wanted)
    ]
    where = ", ".join(ref.label for ref in scope.refs[:3]) + ("…" if len(scope.refs) > 3 else "")
    if not matches:
        raise UsageError(
            f"no finding has the fingerprint {wanted} in {where}; nothing was dismissed "
            "(give the tree as a path or --project, or --all)"
        )
    if len(matches) > 1:
        raise UsageError(f"{len(matches)} findings start with {wanted}; give more digits")
    return matches[0]


def _list(config: config_module.Config, out: TextIO) -> int:
    rows = []
    if (config.state_dir / DB_NAME).exists():
        state = State(config.state_dir)
        try:
            rows = state.dismissals()
        finally:
            state.close()
    if not rows:
        out.write("No dismissals.\n")
        return 0
    for fingerprint, root, reason, when in rows:
        shown_root = visible(root) if root else "(any tree)"
        out.write(f"[{fingerprint[:8]}] {when[:10]}  {shown_root}\n    {visible(reason)}\n")
    return 0


def show_changelog(
    *,
    paths: Sequence[str],
    project: str | None,
    every: bool,
    config_path: Path | None,
    out: TextIO,
) -> int:
    config = config_module.load(config_path, OPTION_TYPES)
    scope = resolve_scope(paths, project, config, every=every)
    if scope.note:
        out.write(scope.note + "\n\n")
    for ref in scope.refs:
        shown = shown_tree(config, ref)
        path = changelog_path(config.changelog_dir, ref.root, shown(str(ref.root)))
        if path.exists():
            out.write(path.read_text(encoding="utf-8"))
        else:
            out.write(
                f"No changelog yet for {shown(ref.label)} "
                "(review sessions that apply fixes add to it).\n"
            )
    return 0
