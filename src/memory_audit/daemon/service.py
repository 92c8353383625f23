"""The daemon: one asyncio loop composing the service's components.

It never changes a memory tree. Nothing heavy runs on the loop: the audit runs
in a child process (:mod:`memory_audit.daemon.audit_process`), file scans, the
journal and report writing on worker threads (:mod:`memory_audit.daemon.worker_thread`),
so signals, ``WATCHDOG=1`` pings and alerts keep flowing while a big tree is
read. The SQLite state is only touched from the loop thread.

The components are built here with what each uses, started in order and stopped in
reverse (Maestral's manager, engine and handler are the model):

- the alerter (:class:`~memory_audit.daemon.alerts.AlertCenter`): state, notifier, clock;
- the journal feed (:class:`~memory_audit.daemon.journal_feed.JournalFeed`);
- the watcher (:class:`~memory_audit.daemon.change_alerts.ChangeWatcher`), whose changes
  go to the journal feed and whose alerts to the alerter;
- the transcript follower (:class:`~memory_audit.daemon.transcript_alerts.TranscriptFollower`):
  secrets a session appends to its transcript, alerted like memory's;
- the scheduler (:class:`~memory_audit.daemon.weekly_audits.WeeklyAudits`), the one
  starter of the weekly audit.

SIGTERM/SIGINT stop it promptly, even mid-audit: the child is killed, the run
is recorded as ``interrupted`` and no report folder of it appears (reports are
written into a temporary folder renamed when complete). SIGHUP reloads the
configuration: the components whose settings changed are built anew from it
(see :mod:`memory_audit.daemon.components`); an invalid file is logged and the
old configuration kept.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.daemon import logs, systemd_notify
from memory_audit.daemon.alerts import AlertCenter
from memory_audit.daemon.change_alerts import ChangeWatcher, scanner_of, shown_scanner_of
from memory_audit.daemon.clock import Clock, local_now
from memory_audit.daemon.components import (
    build_notifier,
    build_store,
    keep_state_dir,
    with_section,
    writable_store,
)
from memory_audit.daemon.journal_feed import JournalFeed
from memory_audit.daemon.tasks import Background
from memory_audit.daemon.transcript_alerts import TranscriptFollower
from memory_audit.daemon.watch import TreeWatcher
from memory_audit.daemon.weekly_audits import WeeklyAudits
from memory_audit.errors import AlreadyRunning, ConfigError
from memory_audit.secrets.boundary import Boundary
from memory_audit.store.instance import InstanceLock
from memory_audit.store.state import State

log = logging.getLogger("memory_audit.daemon")
# How long a stop waits for the run it cut short to record itself interrupted.
STOP_GRACE_SECONDS = 1.0
# How long a thread holds the GIL while another waits for it. A tree's alert is scanned on
# a thread while another tree's scan of a file that takes seconds may hold the GIL, and
# each time the alert's thread lets the GIL go (a read, the database, a rule's C call) it
# waits a whole interval to take it back: at CPython's 5 ms, the alert beside such a
# file took 0.88 s (median; 0.37 s alone), at 0.5 ms 0.43 s (`bench/run.py slow-tree`).
# The weekly audit runs in a process of its own, with the default.
SWITCH_INTERVAL_SECONDS = 0.0005


class Daemon:
    def __init__(
        self, config_path: Path | None, config: config_module.Config, clock: Clock = local_now
    ) -> None:
        self.config_path = config_path
        self.config = config
        self.clock = clock
        self.state = State(config.state_dir)
        self.notifier = build_notifier(config.settings.notify)
        self._background = Background()
        self._stop = asyncio.Event()
        self.audits = WeeklyAudits(
            config,
            self.state,
            build_store(config),
            self.notifier,
            clock,
            journal=lambda: self.journal.journal,
        )
        self.alerts = self._build_alerts()
        self.journal = JournalFeed(
            config,
            lambda: scanner_of(self.config),
            lambda: self.alerts,
            self._watched_roots,
            self._spawn,
        )
        self.changes = ChangeWatcher(
            config,
            self.state,
            clock,
            lambda: self.alerts,
            lambda: self.notifier,
            self._spawn,
            changed=self.journal.changed,
            trees_seen=self.journal.trees_seen,
            values=self.journal.tree_values,
        )
        self.transcripts = TranscriptFollower(
            config,
            self.state,
            clock,
            lambda: scanner_of(self.config),
            lambda: self.alerts,
            self._spawn,
        )

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """A background task, kept referenced until done (asyncio holds tasks weakly)."""
        self._background.spawn(work)

    def _watched_roots(self) -> list[Path]:
        return self.changes.watched_roots()  # built after the feed that asks

    @property
    def watcher(self) -> TreeWatcher | None:
        return self.changes.watcher

    async def weekly(self) -> None:
        """The scheduler's due check and run, as its jobs call it."""
        await self.audits.weekly()

    # ---- lifecycle -----------------------------------------------------------

    async def serve(self) -> int:
        lock = InstanceLock(self.config.state_dir)
        lock.acquire()
        loop = asyncio.get_running_loop()
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
        try:
            return await self._serve(lock, loop)
        finally:
            sys.setswitchinterval(switch_interval)

    async def _serve(self, lock: InstanceLock, loop: asyncio.AbstractEventLoop) -> int:
        """The daemon's life while it holds ``lock``: start, wait to be stopped, shut down."""
        try:
            self._clean_after_crash()
            self._install_signals(loop)
            self.changes.start()
            self.transcripts.start()
            self.journal.start()
            self.audits.start()
            self._background.spawn(self._housekeeping_loop())
            self._background.spawn(self._watchdog_loop())
            systemd_notify.notify("READY=1")
            log.info(
                "memory-audit daemon ready; next weekly audit %s",
                self.audits.schedule.next_fire(self.clock()).isoformat(timespec="minutes"),
            )
            self.alerts.start()  # what no notification server accepted before
            await self._stop.wait()
            systemd_notify.notify("STOPPING=1")
            await self.audits.cut_run_short(STOP_GRACE_SECONDS)
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
        run = asyncio.ensure_future(self.audits.run("once"))
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
        self.audits.store.clean_partial()
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
        """The components stop in the reverse of their start."""
        self._background.cancel()
        self.alerts.stop()
        self.audits.stop()
        self.journal.stop()
        self.transcripts.stop()
        self.changes.stop()
        self.state.close()

    def _build_alerts(self) -> AlertCenter:
        notify = self.config.settings.notify
        return AlertCenter(
            self.state,
            self.notifier,
            notify.coalesce_seconds,
            self.audits.latest_summary,
            notify.retry_seconds,
            clock=self.clock,
            mask=self._masked_text,
        )

    def _masked_text(self, text: str) -> str:
        return Boundary.for_names(shown_scanner_of(self.config), [text]).text(text)

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
                ("schedule", lambda _: self.audits.reschedule(self.config)),
                ("watchers", lambda _: self.changes.reconfigure(self.config)),
                ("journal", lambda _: self.journal.reconfigure(self.config)),
            )
            if rebuild(old)
        ]
        self.audits.config = self.config  # the roots and options of the next run
        self.transcripts.reconfigure(self.config)
        self.changes.rescan()  # roots may have changed
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
        self.audits.store = store  # a run in progress writes its reports here too
        store.clean_partial()
        log.info("reports now go to %s", store.root)
        return True

    def _rebuild_notifier(self, old: config_module.Config) -> bool:
        if self.config.settings.notify == old.settings.notify:
            return False
        self.notifier = build_notifier(self.config.settings.notify, self.notifier)
        self.audits.notifier = self.notifier
        fresh = self._build_alerts()
        fresh.take_over(self.alerts)
        self.alerts = fresh
        return True

    # ---- timers --------------------------------------------------------------

    async def _housekeeping_loop(self) -> None:
        """Log lines held back by the rate limit are summed up now and then."""
        while True:
            await asyncio.sleep(self.config.settings.schedule.tick_seconds)
            logs.write_repeat_summaries()

    async def _watchdog_loop(self) -> None:
        interval = systemd_notify.watchdog_interval()
        while interval:
            systemd_notify.notify("WATCHDOG=1")
            await asyncio.sleep(interval)
