"""The journal feed component: a baseline of every tree, then each settled change.

Recording (reading, masking, compressing files capped in size) runs on a worker
thread; a failure (a full disk) keeps the changes for the next attempt, and
watching and alerting go on. Mass deletions raise one alert (see
:mod:`memory_audit.daemon.journaling`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory_audit.config.settings import Config
from memory_audit.daemon.alerts import AlertCenter
from memory_audit.daemon.journaling import JournalKeeper, split_by_tree
from memory_audit.daemon.tasks import Background
from memory_audit.daemon.tree_queues import Spawn
from memory_audit.daemon.worker_thread import in_daemon_thread
from memory_audit.errors import describe
from memory_audit.journal.tree_values import TreeValues
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.discovery import TreeRef, find_trees
from memory_audit.tree.location import ProjectLocation

log = logging.getLogger("memory_audit.daemon")


class JournalFeed:
    """The journal feed component: a baseline of every tree, then each settled change.

    Built with the configuration, the scanner that masks what it keeps, the alert queue
    (a function: a reload builds it anew), which trees the watcher watches, and a
    ``spawn`` for background work. The watcher hands it each change (:meth:`changed`)
    and the trees it found (:meth:`trees_seen`). :meth:`start` begins recording;
    :meth:`stop` ends it and closes the journal.
    """

    def __init__(
        self,
        config: Config,
        scanner: Callable[[], Scanner],
        alerts: Callable[[], AlertCenter],
        watched_roots: Callable[[], list[Path]],
        spawn: Spawn,
    ) -> None:
        self.config = config
        self.scanner = scanner
        self.alerts = alerts
        self.watched_roots = watched_roots
        self.spawn = spawn
        self.journal = self._build()
        self._pending: set[Path] = set()
        self._ready = asyncio.Event()
        self._journaled_roots: set[Path] = set()
        self._background = Background()

    def _build(self) -> JournalKeeper | None:
        settings = self.config.settings.journal
        return (
            JournalKeeper(self.config.state_dir, settings, self.scanner)
            if settings.enabled
            else None
        )

    def start(self) -> None:
        self._background.spawn(self._record_loop())
        self.spawn(self.baseline())

    def stop(self) -> None:
        self._background.cancel()
        if self.journal is not None:
            self.journal.journal.index.mark_stopped()
            self.journal.close()

    def reconfigure(self, config: Config) -> bool:
        """The journal settings of ``config`` (a reload); False when they did not change."""
        old, self.config = self.config, config
        if config.settings.journal == old.settings.journal:
            return False
        if self.journal is not None:
            self.journal.close()
        self.journal = self._build()
        self._journaled_roots.clear()  # a journal switched back on takes a new baseline
        return True

    def trees(self) -> list[TreeRef]:
        return find_trees(self.config.settings.roots, locate_projects=False, every_store=True)

    def tree_values(self) -> TreeValues | None:
        """Each tree's secret values as the journal last read them (None when it is off):
        the on-change alert searches a changed file for their repeats without a scan."""
        return self.journal.tree_values if self.journal is not None else None

    def changed(self, path: Path) -> None:
        """A settled change the watcher saw: recorded with the next batch."""
        if self.journal is not None:
            self._pending.add(path)
            self._ready.set()

    def trees_seen(self, roots: list[Path]) -> None:
        """The trees a rescan found: a new one gets its baseline."""
        if self.journal is not None and set(roots) - self._journaled_roots:
            self.spawn(self.baseline())

    async def baseline(self) -> None:
        """Record every tree not yet journaled by this process (at start, and new trees)."""
        if self.journal is None:
            return
        journal = self.journal
        refs = [r for r in self.trees() if r.root not in self._journaled_roots]
        if not refs:
            return
        self._journaled_roots |= {r.root for r in refs}
        try:
            await in_daemon_thread(lambda: journal.repair(time.time()))
            changes = await in_daemon_thread(lambda: journal.record(refs, None))
        except Exception as exc:
            self._journaled_roots -= {r.root for r in refs}
            log.error("journal: baseline failed: %s; retried at the next rescan", describe(exc))
            return
        recorded = sum(len(c.versions) for c in changes)
        log.info("journal: baseline of %d tree(s), %d version(s) recorded", len(refs), recorded)

    async def _record_loop(self) -> None:
        """Record settled changes; a failure (full disk) keeps them for the next attempt."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            batch, self._pending = self._pending, set()
            try:
                changes = await self._batch(batch)
            except Exception as exc:
                self._pending |= batch
                log.error("journal: %d change(s) not recorded yet: %s", len(batch), describe(exc))
                asyncio.get_running_loop().call_later(
                    self.config.settings.journal.retry_seconds, self._ready.set
                )
                continue
            if self.journal is not None:
                now = time.time()
                self.alerts().add([a for c in changes for a in self.journal.watch.observe(c, now)])

    async def _batch(self, batch: set[Path]) -> list[Any]:
        journal = self.journal
        if journal is None or not batch:
            return []
        refs = {r.root: r for r in self.trees()}
        # A tree deleted wholesale is no longer found, and soon no longer watched.
        for root in (set(self.watched_roots()) | self._journaled_roots) - set(refs):
            refs[root] = TreeRef(root, ProjectLocation())
        by_tree, locks = split_by_tree(batch, refs)
        now = time.time()
        for root in locks:
            journal.note_lock_event(root, now)
        chosen = [refs[root] for root in by_tree]
        return await in_daemon_thread(lambda: journal.record(chosen, by_tree))
