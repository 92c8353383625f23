"""The scheduler component: when the weekly audit is due (anacron-style catch-up), running
it, its reports and its notification.

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
from apscheduler.triggers.interval import IntervalTrigger

from memory_audit.config.schedule import WeeklySchedule
from memory_audit.config.settings import Config
from memory_audit.daemon.audit_process import AuditFailed, AuditRequest, audit_in_child
from memory_audit.daemon.clock import Clock
from memory_audit.daemon.journaling import JournalKeeper
from memory_audit.daemon.tasks import Background
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
WEEKLY_JOB, CATCH_UP_JOB = "weekly", "catch-up"


class WeeklyAudits:
    """The scheduler: when the weekly audit runs, running it, its reports and notification.

    Built with what it uses (configuration, state, report store, notifier, clock, and the
    journal feed's keeper, when there is one); the daemon swaps ``store`` and ``notifier``
    when a reload rebuilds them. :meth:`start` is the one way the weekly audit is started:
    APScheduler calls :meth:`weekly` on the cron trigger (a fire missed while asleep runs
    once on waking: no grace limit, coalesced) and on a catch-up interval whose first run
    is at once. :meth:`weekly` runs the audit only when it is due, anacron-style: the
    trigger's previous fire time is later than the last success in the state. The interval
    makes a run after a resume prompt (asyncio timers do not count suspended time) and
    catches up at start what was missed while the service was not running.
    """

    def __init__(
        self,
        config: Config,
        state: State,
        store: ReportStore,
        notifier: Notifier,
        clock: Clock,
        journal: Callable[[], JournalKeeper | None] = lambda: None,
    ) -> None:
        self.config = config
        self.state = state
        self.store = store
        self.notifier = notifier
        self.clock = clock
        self.journal = journal
        self.schedule = WeeklySchedule.from_settings(config.settings.schedule)
        self.scheduler: AsyncIOScheduler | None = None
        self._run_lock = asyncio.Lock()
        self._retry_at: dt.datetime | None = None
        self._running: asyncio.Task[object] | None = None
        self._background = Background()
        self._stopped = False

    def start(self) -> None:
        """Inside the running loop (APScheduler's asyncio scheduler takes it then)."""
        self.scheduler = AsyncIOScheduler(
            jobstores={"default": MemoryJobStore()},
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        )
        self.scheduler.add_job(self._fire, self.schedule.trigger, id=WEEKLY_JOB)
        self.scheduler.add_job(
            self._fire,
            IntervalTrigger(seconds=self.config.settings.schedule.tick_seconds),
            id=CATCH_UP_JOB,
            next_run_time=dt.datetime.now(dt.UTC),  # at start: what was missed meanwhile
        )
        self.scheduler.start()

    async def _fire(self) -> None:
        """A job's fire: the due check runs beside the scheduler, so a long audit never
        counts as a job instance still running (the next fire is not skipped). A fire the
        scheduler queued before it stopped runs nothing: the state it reads is closed next."""
        if not self._stopped:
            self._background.spawn(self.weekly())

    def stop(self) -> None:
        self._stopped = True
        self._background.cancel()  # a due check spawned and not yet run
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        self.scheduler = None

    def reschedule(self, config: Config) -> bool:
        """The schedule of ``config`` (a reload); False when it did not change."""
        old, self.config = self.config, config
        if config.settings.schedule == old.settings.schedule:
            return False
        self.schedule = WeeklySchedule.from_settings(config.settings.schedule)
        if self.scheduler is not None:
            self.scheduler.reschedule_job(WEEKLY_JOB, trigger=self.schedule.trigger)
            self.scheduler.reschedule_job(
                CATCH_UP_JOB, trigger=IntervalTrigger(seconds=config.settings.schedule.tick_seconds)
            )
        return True

    async def weekly(self) -> None:
        """Run the weekly audit if it is due (missed runs are caught up, anacron style)."""
        now = self.clock()
        if self._run_lock.locked() or (self._retry_at is not None and now < self._retry_at):
            return
        if not self.schedule.due(now, self.state.last_success()):
            return
        trees = find_trees(self.config.settings.roots, locate_projects=False, every_store=True)
        busy = [r for r in trees if lock_age(r.root, now.timestamp()) is not None]
        if busy:
            self._retry_at = now + BUSY_RETRY
            log.info(
                "%s is being consolidated by Claude Code; weekly audit retried at %s",
                busy[0].root,
                self._retry_at.isoformat(timespec="minutes"),
            )
            return
        if not await self.run("weekly"):
            self._retry_at = self.clock() + FAILURE_RETRY

    async def run(self, kind: str) -> bool:
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
        journal = self.journal()
        if journal is None or last is None:
            return {}
        roots = [report.root for report in run.reports]
        activity = journal.activity(roots, last.timestamp())
        journal.retain(time.time())
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
