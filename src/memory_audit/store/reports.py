"""Report folders: one per run under ``<data dir>/reports/``, written atomically.

Folders are named by UTC time. A run is written into ``.tmp-<stamp>/`` and
renamed to ``<stamp>/`` when complete, so a reader (or a crash, or ``kill -9``)
never sees half a report; ``latest`` is a symlink swapped in one rename.
Folders are 0700, files 0600.
Only the newest ``keep`` runs are kept.

The store writes only into a folder it owns (:mod:`memory_audit.store.report_folder`)
and touches only what it wrote there: run folders (their name and their
``summary.json``), its own ``latest`` symlink and its own temporary names. A
user's file called ``latest`` or a folder that merely looks like a run stays.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import re
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from memory_audit.atomic import PRIVATE_DIR, PRIVATE_FILE, UNDECODABLE
from memory_audit.model.changes import Changes, is_baseline
from memory_audit.model.run import Run, TreeReport
from memory_audit.model.visible import code_span, visible
from memory_audit.report import json_report, markdown, wording
from memory_audit.report.changes import activity_markdown, changes_markdown
from memory_audit.report.report_file import ReportUnreadable, read_report_json
from memory_audit.store.report_folder import (
    LATEST,
    MARKER,
    RUN_NAME,
    TEMP_LATEST,
    TEMP_RUN,
    claim,
    is_run_folder,
    may_replace_latest,
    owner_mark,
)

log = logging.getLogger("memory_audit.daemon")
SUMMARY_ERRORS = 5  # a tree's error entries named in the summary; its report has them all
Extra = Callable[[Run, Path], None]  # more files for a run folder (the HTML report)


class ReportStore:
    def __init__(self, root: Path, keep: int, extras: tuple[Extra, ...] = ()) -> None:
        self.root = root
        self.keep = keep
        self.extras = extras

    def runs(self) -> list[Path]:
        """Complete run folders, oldest first."""
        if not self.root.is_dir():
            return []
        return sorted((p for p in self.root.iterdir() if is_run_folder(p)), key=run_order)

    def latest(self) -> Path | None:
        runs = self.runs()
        return runs[-1] if runs else None

    def clean_partial(self) -> None:
        """Remove temporary folders a killed run left behind (in a folder of ours only)."""
        if not self.root.is_dir() or owner_mark(self.root) is None:
            return
        for leftover in self.root.iterdir():
            if TEMP_RUN.match(leftover.name) and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)
            elif TEMP_LATEST.match(leftover.name) and leftover.is_symlink():
                leftover.unlink(missing_ok=True)

    def write(self, run: Run, changes: Mapping[str, Changes]) -> Path:
        claim(self.root)
        final = self._free_name(run.generated_at)
        temp = self.root / f".tmp-{final.name}-{os.getpid()}"
        temp.mkdir(mode=PRIVATE_DIR)
        try:
            self._fill(temp, run, changes)
            os.rename(temp, final)
        except BaseException:
            shutil.rmtree(temp, ignore_errors=True)
            raise
        self._point_latest(final)
        self._prune()
        return final

    def remove_own(self) -> bool:
        """Everything the store wrote, and the folder when nothing else is left in it
        (``service uninstall --purge``). True when the folder is gone."""
        if not self.root.is_dir() or owner_mark(self.root) is None:
            return False
        self.clean_partial()
        for folder in self.runs():
            shutil.rmtree(folder)
        if not may_replace_latest(self.root / LATEST):
            return False
        (self.root / LATEST).unlink(missing_ok=True)
        (self.root / MARKER).unlink()
        try:
            self.root.rmdir()
        except OSError:  # the user's own files stay, and so does the folder
            return False
        return True

    def _free_name(self, when: dt.datetime) -> Path:
        """``YYYY-MM-DDTHHMMSS`` in UTC (names sort in time order, DST or not); a second
        run in the same second gets a suffix above every one in use."""
        base = when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H%M%S")
        taken = [run_order(p)[1] for p in self.runs() if run_order(p)[0] == base]
        if not taken and not (self.root / base).exists():
            return self.root / base
        return self.root / f"{base}-{max(taken, default=1) + 1}"

    def _fill(self, folder: Path, run: Run, changes: Mapping[str, Changes]) -> None:
        write_file(folder / "summary.json", json_report.render(run))
        write_file(folder / "summary.md", summary_markdown(run, changes))
        for report, name in zip(run.reports, report_names(run.reports), strict=True):
            body = markdown.render_tree(report, run)
            extra = changes.get(str(report.root))
            activity = run.activity.get(str(report.root))
            sections = [body]
            sections += [changes_markdown(extra, run.title)] if extra else []
            sections += [activity_markdown(activity)] if activity and activity.changes else []
            text = "\n\n".join(sections) + "\n"
            write_file(folder / f"{name}.md", text)
        for extra_writer in self.extras:
            extra_writer(run, folder)

    def _point_latest(self, final: Path) -> None:
        if not may_replace_latest(self.root / LATEST):
            log.warning("%s is not memory-audit's link: left as it is", self.root / LATEST)
            return
        temp = self.root / f".latest-{os.getpid()}"
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
        temp.symlink_to(final.name)
        os.replace(temp, self.root / LATEST)

    def _prune(self) -> None:
        runs = self.runs()
        for old in runs[: max(0, len(runs) - self.keep)]:
            shutil.rmtree(old, ignore_errors=True)


def run_order(folder: Path) -> tuple[str, int]:
    match = RUN_NAME.match(folder.name)
    if match is None:
        return ("", 0)
    return (match.group(1), int(match.group(2) or 1))


def report_names(reports: Sequence[TreeReport]) -> list[str]:
    """Each tree's file name in a run folder (the summary links to them): its slug, or
    its folder names, with a number added where two would clash."""
    used: set[str] = set()
    names = []
    for report in reports:
        raw = report.project or "-".join(report.root.parts[-2:])
        name = re.sub(r"[^A-Za-z0-9._-]", "-", raw).strip(".") or "tree"
        candidate, number = name, 1
        while candidate in used:
            number += 1
            candidate = f"{name}-{number}"
        used.add(candidate)
        names.append(candidate)
    return names


def write_file(path: Path, text: str) -> None:
    """A new private file in a run folder being built (never replaces one)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    with os.fdopen(fd, "w", encoding="utf-8", errors=UNDECODABLE) as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def summary_markdown(run: Run, changes: Mapping[str, Changes]) -> str:
    stamp = run.generated_at.isoformat(timespec="seconds")
    projects = run.reports
    new = sum(len(c.new) for c in changes.values())
    resolved = sum(len(c.resolved) for c in changes.values())
    since = (
        "first run: the baseline later runs are compared with."
        if is_baseline(changes)
        else f"{new} new and {resolved} resolved since the last run."
    )
    lines = [
        f"# memory-audit weekly summary, {stamp}",
        "",
        f"**{run.problem_total} findings** in {sum(1 for r in projects if r.problems)} of "
        f"{len(projects)} memory trees{wording.not_audited_count(run)}"
        f"{_suggestions(run)}; {since}",
        "",
        *_not_run_lines(run),
    ]
    named = list(zip(projects, report_names(projects), strict=True))
    lines += _tree_table("project", [(r, n) for r, n in named if r.agent is None], changes)
    agents = [(r, n) for r, n in named if r.agent is not None]
    if agents:  # agents' memory: a section of its own, as the CLI shows it
        lines += ["", "## Agent memory", "", *_tree_table("agent", agents, changes)]
    lines += _errors_markdown(projects)
    lines += ["", "Review and fix, one confirmed decision at a time: `memory-audit review`."]
    return "\n".join(lines) + "\n"


def _tree_table(
    heading: str, named: list[tuple[TreeReport, str]], changes: Mapping[str, Changes]
) -> list[str]:
    lines = [
        f"| {heading} | findings | new | resolved | index lines | index bytes | report |",
        "|---|---|---|---|---|---|---|",
    ]
    for report, name in named:
        change = changes.get(str(report.root), Changes())
        health = report.health
        found = len(report.problems) if report.audited else wording.not_audited(report)
        tree = wording.tree_name(report) if report.agent else report.project or report.root
        lines.append(
            f"| {tree} | {found} | "
            f"{_count(change.new, change)} | {_count(change.resolved, change)} | "
            f"{health.index_lines} | {health.index_bytes:,} | [{name}.md]({name}.md) |"
        )
    return lines


def _suggestions(run: Run) -> str:
    return f" (and {run.suggestion_total} suggestions)" if run.suggestion_total else ""


def _not_run_lines(run: Run) -> list[str]:
    """A check that did not run (no secret rules) said above the table, never left to
    look like a clean column."""
    not_run = wording.not_run_summary(run)
    return [f"**{not_run}**", ""] if not_run else []


def _errors_markdown(reports: Sequence[TreeReport]) -> list[str]:
    """What could not be read or audited, tree by tree: a tree that failed is named here,
    never just a row of zero findings."""
    lines = []
    for report in reports:
        tree = code_span(str(report.project or report.root))
        for path, error in report.errors[:SUMMARY_ERRORS]:
            lines.append(f"- {tree} {code_span(path)}: {visible(error)}")
        if len(report.errors) > SUMMARY_ERRORS:
            lines.append(f"  - …and {len(report.errors) - SUMMARY_ERRORS} more in its report")
    return ["", "Not read or not audited:", *lines] if lines else []


def _count(items: tuple[object, ...], change: Changes) -> str:
    return "–" if change.baseline else str(len(items))


def read_summary(folder: Path) -> dict[str, object]:
    data = read_report_json(folder / "summary.json")  # a regular file, bounded
    if not isinstance(data, dict):
        raise ReportUnreadable(f"cannot read report {folder / 'summary.json'}: not an object")
    return data
