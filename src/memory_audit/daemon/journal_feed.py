"""Feeding the journal: a baseline of every tree, then each settled change.

Recording (reading, masking, compressing files capped in size) runs on a worker
thread; a failure (a full disk) keeps the changes for the next attempt, and
watching and alerting go on. Mass deletions raise one alert (see
:mod:`memory_audit.daemon.journaling`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory_audit.config.settings import Config
from memory_audit.daemon.alerts import AlertCenter
from memory_audit.daemon.journaling import JournalKeeper, split_by_tree
from memory_audit.daemon.watch import TreeWatcher
from memory_audit.daemon.worker_thread import in_daemon_thread
from memory_audit.errors import describe
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.location import ProjectLocation

log = logging.getLogger("memory_audit.daemon")


class JournalFeed:
    """The journal part of :class:`~memory_audit.daemon.service.Daemon`."""

    config: Config
    alerts: AlertCenter
    watcher: TreeWatcher | None
    journal: JournalKeeper | None
    _journal_pending: set[Path]
    _journal_ready: asyncio.Event
    _journaled_roots: set[Path]

    if TYPE_CHECKING:  # defined by the watching part

        def trees(self, *, locate_projects: bool = True) -> list[TreeRef]: ...

        def _scanner(self) -> Scanner: ...

    def _build_journal(self) -> JournalKeeper | None:
        settings = self.config.settings.journal
        return (
            JournalKeeper(self.config.state_dir, settings, self._scanner)
            if settings.enabled
            else None
        )

    def _rebuild_journal(self, old: Config) -> bool:
        if self.config.settings.journal == old.settings.journal:
            return False
        if self.journal is not None:
            self.journal.close()
        self.journal = self._build_journal()
        self._journaled_roots.clear()  # a journal switched back on takes a new baseline
        return True

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
            await in_daemon_thread(lambda: journal.repair(time.time()))
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
