"""The weekly audit: when it is due (anacron-style catch-up), running it, its reports.

The audit itself runs in a child process (:mod:`memory_audit.daemon.audit_process`);
the state is read and written on the loop thread only; the reports are written on
a worker thread, into a temporary folder renamed when complete. A run cut short
by SIGTERM is marked ``interrupted`` at once (a kill -9 leaves it ``running``,
marked at the next start); ``latest`` only ever points at a complete run.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from memory_audit.config.schedule import WeeklySchedule
from memory_audit.config.settings import Config
from memory_audit.daemon.audit_process import AuditFailed, AuditRequest, audit_in_child
from memory_audit.daemon.journaling import JournalKeeper
from memory_audit.daemon.worker_thread import in_daemon_thread
from memory_audit.errors import describe
from memory_audit.model.changes import Activity, Changes, is_baseline
from memory_audit.model.run import Run
from memory_audit.notify import Notifier
from memory_audit.report import wording
from memory_audit.store.reports import ReportStore
from memory_audit.store.state import State
from memory_audit.tree.consolidation_lock import lock_age
from memory_audit.tree.discovery import find_trees

log = logging.getLogger("memory_audit.daemon")
BUSY_RETRY = dt.timedelta(minutes=5)
FAILURE_RETRY = dt.timedelta(minutes=15)
Clock = Callable[[], dt.datetime]


class WeeklyAudits:
    """The weekly part of :class:`~memory_audit.daemon.service.Daemon`."""

    config: Config
    clock: Clock
    state: State
    store: ReportStore
    notifier: Notifier
    schedule: WeeklySchedule
    journal: JournalKeeper | None
    scheduler: AsyncIOScheduler | None
    _run_lock: asyncio.Lock
    _retry_at: dt.datetime | None
    _running: asyncio.Task[object] | None

    def _start_scheduler(self) -> None:
        self.scheduler = AsyncIOScheduler(
            jobstores={"default": MemoryJobStore()},
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        )
        self.scheduler.add_job(
            self.weekly, self.schedule.trigger, id="weekly", replace_existing=True
        )
        self.scheduler.start()

    async def weekly(self) -> None:
        """Run the weekly audit if it is due (missed runs are caught up, anacron style)."""
        now = self.clock()
        if self._run_lock.locked() or (self._retry_at is not None and now < self._retry_at):
            return
        if not self.schedule.due(now, self.state.last_success()):
            return
        trees = find_trees(self.config.settings.roots, locate_projects=False)
        busy = [r for r in trees if lock_age(r.root, now.timestamp()) is not None]
        if busy:
            self._retry_at = now + BUSY_RETRY
            log.info(
                "%s is being consolidated by Claude Code; weekly audit retried at %s",
                busy[0].root,
                self._retry_at.isoformat(timespec="minutes"),
            )
            return
        if not await self._run("weekly"):
            self._retry_at = self.clock() + FAILURE_RETRY

    async def _run(self, kind: str) -> bool:
        async with self._run_lock:
            self._running = asyncio.current_task()
            try:
                return await self._run_recorded(kind)
            finally:
                self._running = None

    async def cut_run_short(self, grace: float) -> None:
        """Cut the run in progress short (SIGTERM); it is recorded as interrupted."""
        running = self._running
        if running is not None and not running.done():
            running.cancel()
            await asyncio.wait({running}, timeout=grace)

    async def _run_recorded(self, kind: str) -> bool:
        started = self.clock()
        run_id = self.state.begin_run(kind, started)
        log.info("%s audit started", kind)
        try:
            run, changes, folder = await self._audit_and_write(started)
        except asyncio.CancelledError:
            self.state.interrupt_run(run_id, self.clock())
            log.info("%s audit interrupted; no report written", kind)
            raise
        except Exception as exc:
            why = str(exc) if isinstance(exc, AuditFailed) else describe(exc)
            log.error("%s audit failed: %s", kind, why)
            self.state.fail_run(run_id, self.clock())
            return False
        # Success is recorded only now that the reports exist.
        self.state.finish_run(run_id, run, folder, changes, self.clock())
        self._retry_at = None
        log.info(
            "%s audit: %d findings (+%d suggestions) in %d trees; reports in %s",
            kind,
            run.problem_total,
            run.suggestion_total,
            len(run.reports),
            folder,
        )
        await self._notify_run(run, changes, folder)
        return True

    async def _audit_and_write(self, started: dt.datetime) -> tuple[Run, dict[str, Changes], Path]:
        dismissed = self.state.dismissed()
        audited = await audit_in_child(AuditRequest(self.config, started, dismissed))
        changes = self.state.changes(audited, dismissed)
        last = self.state.last_success()  # the state is read on the loop thread only
        activity = await in_daemon_thread(lambda: self._journal_activity(audited, last))
        run = replace(audited, changes=changes, history=self.state.trend(), activity=activity)
        store = self.store
        folder = await in_daemon_thread(lambda: store.write(run, changes))
        return run, changes, folder

    def _journal_activity(self, run: Run, last: dt.datetime | None) -> dict[str, Activity]:
        """What the journal recorded since the last successful run (none on the first)."""
        if self.journal is None or last is None:
            return {}
        roots = [report.root for report in run.reports]
        activity = self.journal.activity(roots, last.timestamp())
        self.journal.retain(time.time())
        return activity

    async def _notify_run(self, run: Run, changes: dict[str, Changes], folder: Path) -> None:
        new = sum(len(c.new) for c in changes.values())
        # Suggestions wait in the report: a notification speaks of problems only.
        projects = sum(1 for r in run.reports if r.problems)
        since = "the first run" if is_baseline(changes) else f"{new} new since the last run"
        not_run = wording.not_run_summary(run)  # a check that did not run is never "clean"
        unaudited = [wording.not_audited(r) for r in run.reports if not r.audited]
        if run.problem_total:
            message = (
                f"{run.problem_total} findings in {projects} of {len(run.reports)} projects, "
                f"{since}.\n" + (f"{not_run}\n" if not_run else "") + "Review: memory-audit review"
            )
        elif unaudited:
            message = f"No findings in the {len(run.reports) - len(unaudited)} trees audited."
        else:
            message = not_run or f"All {len(run.reports)} memory trees are clean."
        if unaudited:  # never "clean": say which trees were not read, and why
            message += "\n" + "\n".join(wording.capitalised(u) for u in unaudited[:3])
            message += f"\n(and {len(unaudited) - 3} more)" if len(unaudited) > 3 else ""
        await self.notifier.send("memory-audit: weekly audit", message, folder / "summary.md")

    def latest_summary(self) -> Path | None:
        latest = self.store.latest()
        return latest / "summary.md" if latest else None
