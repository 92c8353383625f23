"""The daemon: one asyncio loop that watches, audits weekly, reports and notifies.

It never changes a memory tree. Nothing heavy runs on the loop: the audit runs
in a child process (:mod:`memory_audit.daemon.audit_process`), file scans, the
journal and report writing on worker threads (:mod:`memory_audit.daemon.worker_thread`),
so signals, ``WATCHDOG=1`` pings and alerts keep flowing while a big tree is
read. The SQLite state is only touched from the loop thread.

SIGTERM/SIGINT stop it promptly, even mid-audit: the child is killed, the run
is recorded as ``interrupted`` and no report folder of it appears (reports are
written into a temporary folder renamed when complete). SIGHUP reloads the
configuration: the components whose settings changed are built anew from it
(see :mod:`memory_audit.daemon.components`); an invalid file is logged and the
old configuration kept.

The parts live beside this module: :mod:`~memory_audit.daemon.weekly_audits`
(when and how the weekly audit runs), :mod:`~memory_audit.daemon.change_alerts`
(watching, secret scans of changed files) and :mod:`~memory_audit.daemon.journal_feed`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import signal
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.daemon import logs, systemd_notify
from memory_audit.daemon.alerts import AlertCenter
from memory_audit.daemon.change_alerts import ChangeAlerts
from memory_audit.daemon.components import (
    build_notifier,
    build_store,
    keep_state_dir,
    with_section,
    writable_store,
)
from memory_audit.daemon.instance import InstanceLock
from memory_audit.daemon.journal_feed import JournalFeed
from memory_audit.daemon.schedule import WeeklySchedule
from memory_audit.daemon.state import State
from memory_audit.daemon.tree_queues import TreeQueues
from memory_audit.daemon.watch import TreeWatcher
from memory_audit.daemon.weekly_audits import Clock, WeeklyAudits
from memory_audit.errors import AlreadyRunning, ConfigError
from memory_audit.secrets.boundary import Boundary

log = logging.getLogger("memory_audit.daemon")
# How long a stop waits for the run it cut short to record itself interrupted.
STOP_GRACE_SECONDS = 1.0


def local_now() -> dt.datetime:
    return dt.datetime.now().astimezone()


class Daemon(WeeklyAudits, ChangeAlerts, JournalFeed):
    def __init__(
        self, config_path: Path | None, config: config_module.Config, clock: Clock = local_now
    ) -> None:
        self.config_path = config_path
        self.config = config
        self.clock = clock
        self.state = State(config.state_dir)
        self.store = build_store(config)
        self.notifier = build_notifier(config.settings.notify)
        self.schedule = WeeklySchedule.from_settings(config.settings.schedule)
        self.alerts = self._build_alerts()
        self._run_lock = asyncio.Lock()
        self._retry_at: dt.datetime | None = None
        self._running: asyncio.Task[object] | None = None
        self._stop = asyncio.Event()
        self.scans = TreeQueues(self._scan_tree, self._spawn)
        self._rescan_handle: asyncio.TimerHandle | None = None
        self.journal = self._build_journal()
        self._journal_pending: set[Path] = set()
        self._journal_ready = asyncio.Event()
        self._journaled_roots: set[Path] = set()
        self.watcher: TreeWatcher | None = None
        self.scheduler: AsyncIOScheduler | None = None
        self._background: set[asyncio.Task[Any]] = set()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """A background task, kept referenced until done (asyncio holds tasks weakly)."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ---- lifecycle -----------------------------------------------------------

    async def serve(self) -> int:
        lock = InstanceLock(self.config.state_dir)
        lock.acquire()
        loop = asyncio.get_running_loop()
        try:
            self._clean_after_crash()
            self._install_signals(loop)
            self._start_watching(loop)
            self._start_scheduler()
            tasks = [
                asyncio.create_task(t)
                for t in (
                    self._tick_loop(),
                    self._rescan_loop(),
                    self._journal_loop(),
                    self._watchdog_loop(),
                )
            ]
            systemd_notify.notify("READY=1")
            log.info(
                "memory-audit daemon ready; next weekly audit %s",
                self.schedule.next_fire(self.clock()).isoformat(timespec="minutes"),
            )
            self.alerts.resume()  # what no notification server accepted before
            self._spawn(self._startup_sweep())
            self._spawn(self._journal_baseline())
            self._spawn(self.weekly())
            await self._stop.wait()
            systemd_notify.notify("STOPPING=1")
            for task in tasks:
                task.cancel()
            await self.cut_run_short(STOP_GRACE_SECONDS)
        finally:
            self._shutdown()
            lock.release()
        log.info("memory-audit daemon stopped")
        return 0

    async def once(self) -> int:
        """``--once``: the weekly audit now, reports, notification, exit. Without a daemon
        running, what a killed run left behind is cleaned up first. SIGTERM/SIGINT cut
        the audit short (recorded as interrupted, exit 3)."""
        lock = self._lock_if_free()
        if lock is not None:  # else the daemon's run may be in progress: leave its folders
            self._clean_after_crash()
            self.alerts.resume()  # else the running daemon sends them
        run = asyncio.ensure_future(self._run("once"))
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, run.cancel)
        try:
            ran = await run
            await self.alerts.flush()
        except asyncio.CancelledError:  # the run was cut short by a signal, and recorded so
            ran = False
        finally:
            for number in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(number)
            if lock is not None:
                lock.release()
        return 0 if ran else 3

    def _lock_if_free(self) -> InstanceLock | None:
        lock = InstanceLock(self.config.state_dir)
        try:
            lock.acquire()
        except AlreadyRunning:
            return None
        return lock

    def _clean_after_crash(self) -> None:
        """Only while holding the instance lock: no other run can be in progress."""
        self.store.clean_partial()
        interrupted = self.state.mark_interrupted()
        if interrupted:
            log.info("%d run(s) cut short earlier are marked interrupted", interrupted)

    def stop(self) -> None:
        log.info("stopping")
        self._stop.set()

    def _install_signals(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.add_signal_handler(signal.SIGTERM, self.stop)
        loop.add_signal_handler(signal.SIGINT, self.stop)
        loop.add_signal_handler(signal.SIGHUP, self.reload)

    def _shutdown(self) -> None:
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        if self.watcher is not None:
            self.watcher.stop()
        if self.journal is not None:
            self.journal.journal.index.mark_stopped()
            self.journal.close()
        self.state.close()

    def _build_alerts(self) -> AlertCenter:
        notify = self.config.settings.notify
        return AlertCenter(
            self.state,
            self.notifier,
            notify.coalesce_seconds,
            self.latest_summary,
            notify.retry_seconds,
            mask=self._masked_text,
        )

    def _masked_text(self, text: str) -> str:
        return Boundary.for_names(self._shown_scanner(), [text]).text(text)

    # ---- reload (SIGHUP) -----------------------------------------------------

    def reload(self) -> None:
        try:
            fresh = config_module.load(self.config_path, OPTION_TYPES)
        except ConfigError as exc:
            log.error("configuration reload failed; keeping the previous configuration: %s", exc)
            return
        old, self.config = self.config, keep_state_dir(self.config, fresh)
        rebuilt = [
            name
            for name, rebuild in (
                ("reports", self._rebuild_store),
                ("notifications", self._rebuild_notifier),
                ("schedule", self._rebuild_schedule),
                ("watchers", self._rebuild_watchers),
                ("journal", self._rebuild_journal),
            )
            if rebuild(old)
        ]
        self.rescan()  # roots may have changed
        log.info(
            "configuration reloaded from %s; rebuilt: %s",
            fresh.source or "defaults",
            ", ".join(rebuilt) or "nothing",
        )

    def _rebuild_store(self, old: config_module.Config) -> bool:
        keep = self.config.settings.reports.keep
        if (self.config.report_dir, keep) == (old.report_dir, old.settings.reports.keep):
            return False
        store = writable_store(self.config)
        if store is None:
            self.config = with_section(self.config, reports=old.settings.reports)
            return False
        self.store = store  # a run in progress writes its reports here too
        self.store.clean_partial()
        log.info("reports now go to %s", self.store.root)
        return True

    def _rebuild_notifier(self, old: config_module.Config) -> bool:
        if self.config.settings.notify == old.settings.notify:
            return False
        self.notifier = build_notifier(self.config.settings.notify, self.notifier)
        fresh = self._build_alerts()
        fresh.take_over(self.alerts)
        self.alerts = fresh
        return True

    def _rebuild_schedule(self, old: config_module.Config) -> bool:
        if self.config.settings.schedule == old.settings.schedule:
            return False
        self.schedule = WeeklySchedule.from_settings(self.config.settings.schedule)
        if self.scheduler is not None:
            self.scheduler.reschedule_job("weekly", trigger=self.schedule.trigger)
        return True

    def _rebuild_watchers(self, old: config_module.Config) -> bool:
        if self.config.settings.watch == old.settings.watch:
            return False
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        self._start_watching(asyncio.get_running_loop())
        if self.watcher is not None:
            self._spawn(self._startup_sweep())  # what changed while no watcher looked
        return True

    # ---- timers --------------------------------------------------------------

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.settings.schedule.tick_seconds)
            logs.write_repeat_summaries()
            self._spawn(self.weekly())

    async def _rescan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.settings.watch.rescan_seconds)
            self.rescan()

    async def _watchdog_loop(self) -> None:
        interval = systemd_notify.watchdog_interval()
        while interval:
            systemd_notify.notify("WATCHDOG=1")
            await asyncio.sleep(interval)
