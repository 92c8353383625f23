"""The daemon: one asyncio loop that watches, audits weekly, reports and notifies.

It never changes a memory tree. Audits and file scans run on worker threads
(the loop stays responsive to events and signals); the SQLite state is only
touched from the loop thread. SIGTERM/SIGINT stop it within a few seconds (an
audit in progress is abandoned: reports are written atomically, so nothing
partial is left). SIGHUP reloads the configuration: the components whose
settings changed are built anew from it (see :mod:`memory_audit.daemon.components`);
an invalid file is logged and the old configuration kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import signal
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.daemon import systemd_notify
from memory_audit.daemon.alerts import Alert, AlertCenter, FileScan, alerts_for, scan_file
from memory_audit.daemon.components import (
    build_notifier,
    build_store,
    keep_state_dir,
    with_section,
    writable_store,
)
from memory_audit.daemon.instance import InstanceLock
from memory_audit.daemon.journaling import JournalKeeper, split_by_tree
from memory_audit.daemon.schedule import WeeklySchedule
from memory_audit.daemon.state import State
from memory_audit.daemon.watch import TreeWatcher
from memory_audit.engine import audit_refs, select_checks
from memory_audit.errors import AlreadyRunning, ConfigError, describe
from memory_audit.model.changes import Activity, Changes, is_baseline
from memory_audit.model.run import Run
from memory_audit.secrets.loading import RulesUnavailable, scanner_for
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.consolidation_lock import lock_age
from memory_audit.tree.discovery import TreeRef, expand_root, find_trees, glob_magic
from memory_audit.tree.location import ProjectLocation
from memory_audit.tree.walk import list_tree

log = logging.getLogger("memory_audit.daemon")
T = TypeVar("T")
BUSY_RETRY = dt.timedelta(minutes=5)
FAILURE_RETRY = dt.timedelta(minutes=15)
RESCAN_AFTER_NEW_FOLDER = 1.0
Clock = Callable[[], dt.datetime]


def local_now() -> dt.datetime:
    return dt.datetime.now().astimezone()


def in_daemon_thread(work: Callable[[], T]) -> asyncio.Future[T]:
    """Run ``work`` on a daemon thread: unlike executor threads, an exit never waits for it."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if not future.done():
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)  # type: ignore[arg-type]

    def target() -> None:
        try:
            result = work()
        except BaseException as exc:  # handed to the awaiting coroutine
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            loop.call_soon_threadsafe(settle, result, None)

    threading.Thread(target=target, name="memory-audit-worker", daemon=True).start()
    return future


class Daemon:
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
        self._stop = asyncio.Event()
        self._changed: set[Path] = set()
        self._changed_ready = asyncio.Event()
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
                    self._change_loop(),
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
        finally:
            self._shutdown()
            lock.release()
        log.info("memory-audit daemon stopped")
        return 0

    async def once(self) -> int:
        """``--once``: the weekly audit now, reports, notification, exit. Without a daemon
        running, what a killed run left behind is cleaned up first."""
        lock = self._lock_if_free()
        if lock is not None:  # else the daemon's run may be in progress: leave its folders
            self._clean_after_crash()
            self.alerts.resume()  # else the running daemon sends them
        try:
            ran = await self._run("once")
            await self.alerts.flush()
        finally:
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
        )

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

    def _build_journal(self) -> JournalKeeper | None:
        settings = self.config.settings.journal
        return (
            JournalKeeper(self.config.state_dir, settings, self._scanner)
            if settings.enabled
            else None
        )

    def _rebuild_journal(self, old: config_module.Config) -> bool:
        if self.config.settings.journal == old.settings.journal:
            return False
        if self.journal is not None:
            self.journal.close()
        self.journal = self._build_journal()
        self._journaled_roots.clear()  # a journal switched back on takes a new baseline
        return True

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

    # ---- the weekly audit ----------------------------------------------------

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
        trees = self.trees(locate_projects=False)
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
            started = self.clock()
            run_id = self.state.begin_run(kind, started)
            dismissed = self.state.dismissed()
            try:
                audited = await in_daemon_thread(lambda: self._audit(started, dismissed))
                changes = self.state.changes(audited, dismissed)
                last = self.state.last_success()  # the state is read on the loop thread only
                activity = await in_daemon_thread(lambda: self._journal_activity(audited, last))
                run = replace(
                    audited, changes=changes, history=self.state.trend(), activity=activity
                )
                folder = await in_daemon_thread(lambda: self.store.write(run, changes))
            except Exception:
                log.exception("%s audit failed", kind)
                self.state.fail_run(run_id, self.clock())
                return False
            # Success is recorded only now that the reports exist.
            self.state.finish_run(run_id, run, folder, changes, self.clock())
            self._retry_at = None
            log.info(
                "%s audit: %d findings in %d trees; reports in %s",
                kind,
                run.total,
                len(run.reports),
                folder,
            )
        await self._notify_run(run, changes, folder)
        return True

    def _journal_activity(self, run: Run, last: dt.datetime | None) -> dict[str, Activity]:
        """What the journal recorded since the last successful run (none on the first)."""
        if self.journal is None or last is None:
            return {}
        roots = [report.root for report in run.reports]
        activity = self.journal.activity(roots, last.timestamp())
        self.journal.retain(time.time())
        return activity

    def _audit(self, now: dt.datetime, dismissed: frozenset[str]) -> Run:
        selection = select_checks([], self.config.settings.audit.skip)
        return audit_refs(self.trees(), self.config, selection, now=now, dismissed=dismissed)

    async def _notify_run(self, run: Run, changes: dict[str, Changes], folder: Path) -> None:
        new = sum(len(c.new) for c in changes.values())
        projects = sum(1 for r in run.reports if r.findings)
        since = "the first run" if is_baseline(changes) else f"{new} new since the last run"
        if run.total:
            message = (
                f"{run.total} findings in {projects} of {len(run.reports)} projects, "
                f"{since}.\nReview: memory-audit review"
            )
        else:
            message = f"All {len(run.reports)} memory trees are clean."
        await self.notifier.send("memory-audit: weekly audit", message, folder / "summary.md")

    def latest_summary(self) -> Path | None:
        latest = self.store.latest()
        return latest / "summary.md" if latest else None

    # ---- watching ------------------------------------------------------------

    def trees(self, *, locate_projects: bool = True) -> list[TreeRef]:
        return find_trees(self.config.settings.roots, locate_projects=locate_projects)

    def project_folders(self) -> list[Path]:
        """The folders new trees appear in: each root glob's part before its first wildcard."""
        folders = []
        for pattern in self.config.settings.roots:
            parts = Path(expand_root(pattern)).parts
            index = next((i for i, p in enumerate(parts) if glob_magic(p)), None)
            if index:
                folders.append(Path(*parts[:index]))
        return folders

    def _start_watching(self, loop: asyncio.AbstractEventLoop) -> None:
        watch = self.config.settings.watch
        if not watch.enabled:
            return
        self.watcher = TreeWatcher(
            loop,
            watch.debounce_seconds,
            watch.observer,
            watch.polling_interval_seconds,
            self._file_changed,
            self._schedule_rescan,
        )
        self.watcher.start()
        self.rescan()

    def rescan(self) -> None:
        if self.watcher is None:
            return
        had_limit = self.watcher.limit_hit
        roots = [r.root for r in self.trees(locate_projects=False)]
        self.watcher.update(roots, self.project_folders())
        if self.journal is not None and set(roots) - self._journaled_roots:
            self._spawn(self._journal_baseline())
        self.state.set_watched(self.watcher.observers(), self.clock())
        if self.watcher.limit_hit and not had_limit:
            self._spawn(
                self.notifier.send(
                    "memory-audit: watching by polling",
                    "The inotify watch limit is reached; memory trees are polled instead "
                    "(alerts may take a few seconds longer). Raise fs.inotify.max_user_watches.",
                )
            )

    def _schedule_rescan(self) -> None:
        if self._rescan_handle is None:
            self._rescan_handle = asyncio.get_running_loop().call_later(
                RESCAN_AFTER_NEW_FOLDER, self._rescan_now
            )

    def _rescan_now(self) -> None:
        self._rescan_handle = None
        self.rescan()

    def _file_changed(self, path: Path) -> None:
        self._changed.add(path)
        self._changed_ready.set()
        if self.journal is not None:
            self._journal_pending.add(path)
            self._journal_ready.set()

    def _scanner(self) -> Scanner:
        rules = self.config.check_options("secrets")
        return scanner_for(rules.patterns, rules.state_dir, rules.gitleaks_config)

    # ---- the journal ---------------------------------------------------------

    async def _journal_baseline(self) -> None:
        """Record every tree not yet journaled by this process (at start, and new trees)."""
        if self.journal is None:
            return
        journal = self.journal
        refs = [r for r in self.trees(locate_projects=False) if r.root not in self._journaled_roots]
        if not refs:
            return
        self._journaled_roots |= {r.root for r in refs}
        try:
            await in_daemon_thread(lambda: journal.journal.repair(time.time()))
            changes = await in_daemon_thread(lambda: journal.record(refs, None))
        except Exception as exc:
            self._journaled_roots -= {r.root for r in refs}
            log.error("journal: baseline failed: %s; retried at the next rescan", describe(exc))
            return
        recorded = sum(len(c.versions) for c in changes)
        log.info("journal: baseline of %d tree(s), %d version(s) recorded", len(refs), recorded)

    async def _journal_loop(self) -> None:
        """Record settled changes; a failure (full disk) keeps them for the next attempt."""
        while True:
            await self._journal_ready.wait()
            self._journal_ready.clear()
            batch, self._journal_pending = self._journal_pending, set()
            try:
                changes = await self._journal_batch(batch)
            except Exception as exc:
                self._journal_pending |= batch
                log.error("journal: %d change(s) not recorded yet: %s", len(batch), describe(exc))
                asyncio.get_running_loop().call_later(
                    self.config.settings.journal.retry_seconds, self._journal_ready.set
                )
                continue
            if self.journal is not None:
                now = time.time()
                self.alerts.add([a for c in changes for a in self.journal.watch.observe(c, now)])

    async def _journal_batch(self, batch: set[Path]) -> list[Any]:
        journal = self.journal
        if journal is None or not batch:
            return []
        watched = {Path(r) for r in (self.watcher.observers() if self.watcher else {})}
        refs = {r.root: r for r in self.trees(locate_projects=False)}
        # A tree deleted wholesale is no longer found, and soon no longer watched.
        for root in (watched | self._journaled_roots) - set(refs):
            refs[root] = TreeRef(root, ProjectLocation())
        by_tree, locks = split_by_tree(batch, refs)
        now = time.time()
        for root in locks:
            journal.note_lock_event(root, now)
        chosen = [refs[root] for root in by_tree]
        return await in_daemon_thread(lambda: journal.record(chosen, by_tree))

    async def _change_loop(self) -> None:
        """Scan changed files in batches on a worker thread; alert from the loop.

        A batch that fails is logged and dropped; the loop, and with it every later
        alert, carries on. Without a usable patterns file the batch is kept, and
        scanned with the next change once the file is back.
        """
        while True:
            await self._changed_ready.wait()
            self._changed_ready.clear()
            batch, self._changed = self._changed, set()
            try:
                await self._scan_changes(batch)
            except RulesUnavailable as exc:
                self._changed |= batch
                log.error("secret alerts paused: %s", exc)
            except Exception as exc:
                log.error("scanning %d changed file(s) failed: %s", len(batch), describe(exc))

    async def _scan_changes(self, batch: set[Path]) -> None:
        roots = [Path(r) for r in (self.watcher.observers() if self.watcher else {})]
        rules = self.config.check_options("secrets")
        scanner = scanner_for(rules.patterns, rules.state_dir, rules.gitleaks_config)
        limit = self.config.settings.audit.max_file_bytes
        scans = await in_daemon_thread(partial(_scan_all, batch, roots, scanner, limit))
        self._raise_alerts(scans, scanner)

    def _raise_alerts(self, scans: list[FileScan], scanner: Scanner) -> None:
        ignored = scanner.false_positives | self.state.dismissed()
        found: list[Alert] = []
        for scan in scans:
            found += alerts_for(scan, self.state, ignored)
        self.alerts.add(found)

    async def _startup_sweep(self) -> None:
        """Alert for secrets that landed while the service was not running."""
        roots = [r.root for r in self.trees(locate_projects=False)]
        paths = await in_daemon_thread(lambda: _tree_files(roots))
        self._changed.update(paths)
        if paths:
            self._changed_ready.set()

    # ---- timers --------------------------------------------------------------

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.settings.schedule.tick_seconds)
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


def _scan_all(paths: set[Path], roots: list[Path], scanner: Scanner, limit: int) -> list[FileScan]:
    scans = []
    for path in sorted(paths):
        root = max(
            (r for r in roots if path.is_relative_to(r)), key=lambda r: len(r.parts), default=None
        )
        if root is not None:
            with contextlib.suppress(OSError):
                scan = scan_file(path, root, scanner, limit)
                if scan is not None:
                    scans.append(scan)
    return scans


def _tree_files(roots: list[Path]) -> list[Path]:
    """Every file the audit reads, listed safely (no symlink loops, nothing outside)."""
    files = []
    for root in roots:
        listing = list_tree(root)
        files += [root / c.path for c in listing.candidates]
        if listing.index is not None:
            files.append(root / listing.index.path)
    return files
