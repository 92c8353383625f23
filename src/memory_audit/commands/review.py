"""``memory-audit review [PATH | --project SLUG] [--from-report FILE]``: one decision at a time.

The only code path that writes to a memory tree. Findings come from the
latest report of the tree (or ``--from-report``), or from an audit run now
when there is no report or it is older than the tree.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from memory_audit.atomic import ensure_private_dir, write_atomic
from memory_audit.checks import OPTION_TYPES
from memory_audit.commands.targets import resolve_scope
from memory_audit.config import settings as config_module
from memory_audit.cross_tree import MIN_STORES, shared_note_findings
from memory_audit.engine import (
    audit_tree,
    audited_refs,
    load_ref,
    names_boundary,
    redaction_boundary,
    select_checks,
    shown_tree,
)
from memory_audit.errors import UsageError
from memory_audit.fix import changelog, preview, user_level
from memory_audit.fix.actions import actions
from memory_audit.fix.console import Console, interrupts_deferred
from memory_audit.fix.outcome import Outcome
from memory_audit.fix.session import Session
from memory_audit.fix.tree_access import NotInTree, Tree
from memory_audit.journal.index import Actor
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.model.finding import Finding
from memory_audit.model.masked import shows
from memory_audit.model.run import TreeReport
from memory_audit.model.tree_scope import scoped, tree_identity
from memory_audit.report import json_report
from memory_audit.report.report_file import read_report_json
from memory_audit.secrets.loading import (
    FALSE_POSITIVES_HEADER,
    false_positives_path,
    secret_scanner,
)
from memory_audit.secrets.rules import false_positive_row
from memory_audit.secrets.scanner import Scanner
from memory_audit.store.reports import ReportStore
from memory_audit.store.state import State
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.snapshot import MemoryTree
from memory_audit.tree.workspace import documents_root

# usage runs only to ask whether the store's project moved (orphaned-store, which review
# can fix): reading transcripts for dead weight again adds nothing a fix needs.
REVIEW_OPTIONS = {"usage": {"orphans_only": True}}
ORPHANED = "orphaned-store"  # asked first: the tree's other findings move with it


INTERRUPTED = 130  # Ctrl-C or a closed terminal, as a shell reports SIGINT


def run(
    *,
    paths: Sequence[str],
    project: str | None,
    from_report: Path | None,
    config_path: Path | None,
    inp: TextIO,
    out: TextIO,
    every: bool = False,
) -> int:
    """Scoped like ``audit``: this project's tree, else each tree in turn."""
    config = config_module.load(config_path, OPTION_TYPES)
    scope = resolve_scope(paths, project, config, every=every)
    refs = audited_refs(scope.refs, select_checks([], config.settings.audit.skip))
    console = Console(inp, out)
    if scope.note:
        console.say(scope.note)
    state = State(config.state_dir)
    # a workspace's documents are no store: what they share with its memories is no copy
    stores = [ref for ref in refs if not ref.documents]
    shared = _SharedNotes(stores if len(stores) >= MIN_STORES else [], config, state)
    # A closed terminal: not killed by the hang-up, the session reads end-of-file at its
    # next question and stops as Ctrl-C does, so what was applied is recorded.
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        for number, ref in enumerate(refs, 1):
            if len(refs) > 1:
                label = shown_tree(config, ref)(ref.label)
                console.say(f"\n=== Tree {number} of {len(refs)}: {label} ===")
            outcome = _review(ref, config, state, console, from_report, shared)
            if outcome.interrupted:
                return INTERRUPTED
            if outcome.quit:
                break
        return 0
    finally:
        signal.signal(signal.SIGHUP, previous)
        state.close()


def _say_errors(report: TreeReport, console: Console) -> None:
    """What could not be read is said, and stays out of every fix (never taken as missing)."""
    for path, error in report.errors:
        console.say(f"Not audited, left alone: {path}: {error}")


def _review(
    ref: TreeRef,
    config: config_module.Config,
    state: State,
    console: Console,
    from_report: Path | None,
    shared: _SharedNotes,
) -> Outcome:
    selection = select_checks([], config.settings.audit.skip)
    options = {d: config.check_options(d) for d in selection}
    for dimension, values in REVIEW_OPTIONS.items():
        if dimension in options:
            options[dimension] = dataclasses.replace(options[dimension], **values)

    read: list[MemoryTree] = []  # the snapshot the last audit read

    def audit_now() -> TreeReport:
        read[:] = [load_ref(ref, config)]
        return shared.added(ref, audit_tree(read[0], selection, options, state.dismissed()))

    before = audit_now()
    snapshot = read[0]  # the tree as the findings were made, before any fix
    _say_errors(before, console)
    findings = _findings(ref, config, before, from_report, console)
    known = {g.fingerprint for g in findings}
    findings += [f for f in shared.of(ref) if f.fingerprint not in known]
    dismissed = state.dismissed()
    findings = [f for f in findings if f.fingerprint not in dismissed]
    findings.sort(key=lambda f: f.code != ORPHANED)
    if not findings:
        console.say(f"No findings to review in {shown_tree(config, ref)(str(ref.root))}.")
        return Outcome()
    rules = config.check_options("secrets")
    scanner = secret_scanner(rules)
    names = redaction_boundary(snapshot, rules)
    real_paths = names.paths(snapshot.present | set(snapshot.files))
    with _held(ref.root) as tree:
        session = Session(
            tree,
            console,
            {**actions(scanner), user_level.NAME: user_level.ACTION},
            scanner,
            lambda: list(audit_now().findings),
            names=names,
            real_paths=real_paths,
        )
        session.todo_file = _todo_path(config, ref)
        previews = _previewing(ref, config, selection, options)
        session.preview = previews
        journal = Journal(config.state_dir, config.settings.journal.max_file_bytes)
        session.journal = _journaling(journal, scanner, config, ref.root)
        try:
            outcome = session.run(findings)
        finally:
            journal.close()
            previews.close()  # the private copy of the tree goes at once
            with interrupts_deferred():  # dismissals survive any failure, and a hang-up
                _persist(session.outcome, ref, config, state)
    after = None if outcome.moved_to is not None else audit_now()
    console.say("")
    console.say(outcome.summary(len(after.findings) if after else 0))
    if outcome.todos:
        console.say(f"TODOs captured: {_todo_path(config, ref)}")
    if outcome.moved_to is not None:
        console.say(f"The store moved: review it there with memory-audit review {outcome.moved_to}")
    if outcome.applied:
        _record_changelog(
            outcome=outcome,
            ref=ref,
            config=config,
            console=console,
            before=before,
            after=after,
            from_report=from_report,
        )
    return outcome


class _SharedNotes:
    """The notes several stores keep (``cross_tree``), found once when the review starts:
    moving the first store's copy must not make the others' decisions disappear. A copy
    this review moved out is no longer asked about."""

    def __init__(self, refs: Sequence[TreeRef], config: config_module.Config, state: State):
        self.refs, self.config, self.state = list(refs), config, state
        self._found: dict[str, list[Finding]] | None = None

    def of(self, ref: TreeRef) -> list[Finding]:
        if not self.refs:
            return []
        if self._found is None:
            dismissed = self.state.dismissed()
            self._found = shared_note_findings(self.refs, self.config, dismissed)
        return [f for f in self._found.get(str(ref.root), []) if (ref.root / f.path).is_file()]

    def added(self, ref: TreeRef, report: TreeReport) -> TreeReport:
        known = {f.fingerprint for f in (*report.findings, *report.dismissed)}
        extra = tuple(f for f in self.of(ref) if f.fingerprint not in known)
        return dataclasses.replace(report, findings=report.findings + extra) if extra else report


def _previewing(
    ref: TreeRef,
    config: config_module.Config,
    selection: Sequence[str],
    options: dict[str, object],
) -> preview.Preview:
    """What a change would make, from an audit of a private copy (fix/preview.py)."""

    def audit_copy(root: Path) -> list[Finding]:
        copy = load_ref(TreeRef(root, ref.location, ref.documents), config)
        return list(audit_tree(copy, selection, options).findings)

    ensure_private_dir(config.state_dir)
    preview.remove_left_over(config.state_dir, time.time())
    limit = config.settings.audit.max_file_bytes
    return preview.Preview(
        ref.root, audit_copy, limit, parent=config.state_dir, documents=ref.documents
    )


def _journaling(
    journal: Journal, scanner: Scanner, config: config_module.Config, root: Path
) -> Callable[[list[str]], None]:
    """Each file a fix touches, recorded in the journal before and after the write (by
    ``memory-audit review``): a deleted or archived memory is restorable even when the
    service is not running."""
    recorder = Recorder(
        journal.index, journal.blobs, scanner, config.settings.journal.max_file_bytes
    )

    def record(paths: list[str]) -> None:
        recorder.reconcile(root, time.time(), lambda *_: Actor("review"), changed=set(paths))

    return record


def _held(root: Path) -> Tree:
    """The tree held open for the whole session: every fix is written through it."""
    try:
        return Tree.open(root)
    except NotInTree as exc:
        raise UsageError(f"not reviewed: {exc}") from None


def _findings(
    ref: TreeRef,
    config: config_module.Config,
    fresh: TreeReport,
    from_report: Path | None,
    console: Console,
) -> list[Finding]:
    report_file = from_report or _latest_report(config)
    if report_file is not None:
        stored = _stored(report_file, ref.root)
        if stored is not None and stored[0].timestamp() >= _newest_change(ref.root):
            console.say(f"Findings from the report of {stored[0]:%Y-%m-%d %H:%M} ({report_file}).")
            return _still_true(list(stored[1].findings), fresh, console)
        if from_report is not None and stored is None:
            shown = shown_tree(config, ref)(str(ref.root))
            raise UsageError(f"{from_report} has no report for {shown}")
        console.say("The report is older than the tree: audited now.")
    else:
        console.say("No report for this tree yet: audited now.")
    return list(fresh.findings)


def _still_true(stored: list[Finding], fresh: TreeReport, console: Console) -> list[Finding]:
    """A report is a file anyone could have written: each of its findings is kept only
    when the audit of the tree as it is now finds it too, and then the audit's own
    finding (path, fix) is used, never the report's."""
    now = {f.fingerprint: f for f in (*fresh.findings, *fresh.dismissed)}
    # A report written before fingerprints named their tree holds bare ones.
    identity = tree_identity(fresh.root)
    kept = [
        now.get(f.fingerprint) or now[scoped(identity, f.fingerprint)]
        for f in stored
        if f.fingerprint in now or scoped(identity, f.fingerprint) in now
    ]
    refused = len(stored) - len(kept)
    if refused:
        console.say(
            f"{refused} finding(s) of the report do not match the tree as it is now "
            "(fixed meanwhile, or not from this tree): left out."
        )
    return kept


def _latest_report(config: config_module.Config) -> Path | None:
    latest = ReportStore(config.report_dir, config.settings.reports.keep).latest()
    return latest / "summary.json" if latest else None


def _stored(report_file: Path, root: Path) -> tuple[dt.datetime, TreeReport] | None:
    document = read_report_json(report_file)  # a regular file, size and nesting bounded
    try:
        run = json_report.from_json(document)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(f"cannot read report {report_file}: {exc}") from None
    for report in run.reports:
        if report.root.resolve() == root.resolve() or shows(str(report.root), str(root)):
            return run.generated_at, report
    return None


def _newest_change(root: Path) -> float:
    newest = root.stat().st_mtime
    documents = documents_root(root)  # a workspace's documents: its root's own files
    for folder, folders, files in os.walk(root):
        if documents:
            folders[:] = []
        for name in files:
            if name.endswith(".md"):
                try:
                    newest = max(newest, os.stat(os.path.join(folder, name)).st_mtime)
                except OSError:
                    continue
    return newest


def _persist(outcome: Outcome, ref: TreeRef, config: config_module.Config, state: State) -> None:
    now = dt.datetime.now().astimezone()
    shown = shown_tree(config, ref)
    for finding, reason in outcome.dismissed:
        state.dismiss(finding.fingerprint, shown(str(ref.root)), reason, now)
    if outcome.false_positives:
        path = false_positives_path(config.state_dir)
        text = path.read_text(encoding="utf-8") if path.exists() else FALSE_POSITIVES_HEADER
        for finding in outcome.false_positives:
            fix = finding.fix or {}
            text += false_positive_row(
                # the value's fingerprint: the mark clears it whatever rule finds it
                str(fix.get("value") or fix.get("fingerprint")),
                str(fix.get("pattern")),
                finding.path,
                f"marked in review {now:%Y-%m-%d}",
            )
        ensure_private_dir(path.parent)
        write_atomic(path, text)
    if outcome.todos:
        label = shown(ref.label)
        todo = _todo_path(config, ref)
        lines = [
            f"- [ ] {f.path}{f':{f.line}' if f.line else ''} — {f.message} "
            f"(captured {now:%Y-%m-%d})"
            for f in outcome.todos
        ]
        changelog.append(todo, f"TODO for {label}", "\n".join(lines))


def _todo_path(config: config_module.Config, ref: TreeRef) -> Path:
    """The tree's TODO notes, named by the tree as reports show it (a secret masked)."""
    label = shown_tree(config, ref)(ref.label)
    return config.state_dir / "todo" / f"{label.strip('/').replace('/', '-')}.md"


def _record_changelog(
    *,
    outcome: Outcome,
    ref: TreeRef,
    config: config_module.Config,
    console: Console,
    before: TreeReport,
    after: TreeReport | None,
    from_report: Path | None,
) -> None:
    why = ""
    if not outcome.interrupted:  # stopped: record now, ask nothing more
        try:
            why = console.ask("Why these changes? (one line for the changelog, Enter to skip)")
        except (EOFError, KeyboardInterrupt):
            outcome.interrupted = True
    trigger = f"report {from_report}" if from_report else "memory-audit review"
    text = changelog.entry(
        dt.datetime.now().astimezone(),
        trigger,
        outcome.applied,
        why,
        _metrics(before),
        _metrics(after) if after else changelog.Metrics(0, 0, 0),
    )
    shown = shown_tree(config, ref)
    path = changelog.changelog_path(config.changelog_dir, ref.root, shown(str(ref.root)))
    with interrupts_deferred():
        changelog.append(path, shown(ref.label), text)
        for root, changes in outcome.elsewhere.items():
            there = names_boundary(config.check_options("secrets"), [str(root)]).path
            other = changelog.changelog_path(config.changelog_dir, root, there(str(root)))
            entry = changelog.entry(
                dt.datetime.now().astimezone(), f"{trigger} of {shown(ref.label)}", changes, why
            )
            changelog.append(other, there(root.parent.name), entry)
            console.say(f"Changelog: {other}")
    console.say(f"Changelog: {path}")


def _metrics(report: TreeReport) -> changelog.Metrics:
    return changelog.Metrics(report.health.index_lines, report.health.files, len(report.findings))
