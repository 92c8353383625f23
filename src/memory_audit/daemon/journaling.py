"""The daemon's side of the journal: record settled changes, baseline new trees, and
raise one alert when a session or a consolidation deletes or empties many files.

Recording runs on worker threads (reading, masking, compressing); the mass-change
bookkeeping runs on the loop thread. A full disk or an unwritable state folder is
logged and the changes are retried with the next batch: watching and alerting go on.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.config.settings import JournalSettings
from memory_audit.daemon.alerts import Alert
from memory_audit.journal.attribution import PROMPT_CHARS, Attributor, TranscriptFollower
from memory_audit.journal.index import BASELINE, DELETED, Version
from memory_audit.journal.labels import labeller, scrub, shown
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.retention import Policy, over_budget, thinned
from memory_audit.journal.store import Journal
from memory_audit.journal.tree_values import TreeValues
from memory_audit.model.changes import Activity, FileChange
from memory_audit.model.masked import shows
from memory_audit.model.run import CONSOLIDATION_LOCK
from memory_audit.model.visible import visible
from memory_audit.secrets.boundary import Boundary
from memory_audit.secrets.loading import RulesUnavailable, ScannerConfig, masking_scanner
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.consolidation_lock import lock_age
from memory_audit.tree.discovery import TreeRef

log = logging.getLogger("memory_audit.daemon")
EVENT_QUIET_SECONDS = 120.0
EMPTY_BYTES = 16  # a file rewritten this small has been emptied


@dataclass(frozen=True)
class TreeChange:
    """What one reconcile of one tree recorded, and the tree's total size around it."""

    root: Path
    versions: tuple[Version, ...]
    size_before: int
    size_after: int


@dataclass
class _Event:
    started: float
    last: float
    size_at_start: int
    losses: Counter[tuple[str, str | None]] = field(default_factory=Counter)
    labels: dict[tuple[str, str | None], str] = field(default_factory=dict)
    alerted: set[str] = field(default_factory=set)


class MassChangeWatch:
    """One alert per event (a burst of changes to one tree), per actor or for the shrink."""

    def __init__(self, settings: JournalSettings) -> None:
        self.settings = settings
        self._events: dict[Path, _Event] = {}

    def observe(self, change: TreeChange, now: float) -> list[Alert]:
        event = self._events.get(change.root)
        if event is None or now - event.last > EVENT_QUIET_SECONDS:
            event = self._events[change.root] = _Event(now, now, change.size_before)
        event.last = now
        for version in change.versions:
            if version.is_tombstone or (version.kept and version.size <= EMPTY_BYTES):
                key = (version.actor.kind, version.actor.session)
                event.losses[key] += 1
                event.labels[key] = version.actor.by()
        return self._deletion_alerts(change.root, event) + self._shrink_alert(change, event)

    def _deletion_alerts(self, root: Path, event: _Event) -> list[Alert]:
        alerts = []
        for key, count in event.losses.items():
            tag = f"{key[0]}:{key[1]}"
            if count > self.settings.alert_deleted and tag not in event.alerted:
                event.alerted.add(tag)
                text = (
                    f"{_name(root)}: {count} memory files deleted or emptied "
                    f"{event.labels[key]}. {_how_to_restore(root, event.started)}"
                )
                alerts.append(
                    Alert(_key(root, tag, event.started), "mass-change", str(root), "", text)
                )
        return alerts

    def _shrink_alert(self, change: TreeChange, event: _Event) -> list[Alert]:
        start = event.size_at_start
        if not start or "shrink" in event.alerted:
            return []
        shrink = (start - change.size_after) / start
        if shrink <= self.settings.alert_shrink:
            return []
        event.alerted.add("shrink")
        text = (
            f"{_name(change.root)}: memory shrank by {shrink:.0%} "
            f"({start:,} → {change.size_after:,} bytes). "
            f"{_how_to_restore(change.root, event.started)}"
        )
        return [
            Alert(
                _key(change.root, "shrink", event.started),
                "mass-change",
                str(change.root),
                "",
                text,
            )
        ]


def _name(root: Path) -> str:
    return root.parent.name if root.name == "memory" else root.name


def _how_to_restore(root: Path, started: float) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started - 1))
    return (
        f"See: memory-audit history {root} — restore: "
        f"memory-audit restore --tree {root} --at {stamp}"
    )


def _key(root: Path, tag: str, started: float) -> str:
    return hashlib.sha256(f"{root}\x1fmass\x1f{tag}\x1f{started}".encode()).hexdigest()[:32]


class JournalKeeper:
    def __init__(
        self, state_dir: Path, settings: JournalSettings, scanner: Callable[[], Scanner]
    ) -> None:
        self.settings = settings
        self.journal = Journal(state_dir, settings.max_file_bytes)
        self.scanner = scanner
        # each tree's secret values, kept between batches: a change reads only its files
        self.tree_values = TreeValues(settings.max_file_bytes)
        self._state_dir = state_dir
        self.watch = MassChangeWatch(settings)
        self._followers: dict[Path, TranscriptFollower] = {}
        self._lock_seen: dict[Path, float] = {}
        self._not_recorded_logged: set[tuple[str, str, str]] = set()

    def close(self) -> None:
        self.journal.close()

    def repair(self, now: float) -> None:
        """At start: what a crash left (see :meth:`Journal.repair`), and labels stored
        before labels were masked, masked now."""
        self.journal.repair(now)
        relabelled = scrub(self.journal.index, self.scanner())
        if relabelled:
            log.warning("journal: masked a secret in %d stored label(s)", relabelled)

    def record(
        self, refs: Iterable[TreeRef], changed: dict[Path, set[str]] | None
    ) -> list[TreeChange]:
        """Reconcile trees with the journal: ``changed`` maps a root to its changed files;
        None records a baseline of every tree given. Runs on a worker thread."""
        recorder = Recorder(
            self.journal.index,
            self.journal.blobs,
            self.scanner(),
            self.settings.max_file_bytes,
            self.tree_values,
        )
        results = []
        now = time.time()
        for ref in refs:
            files = None if changed is None else changed.get(ref.root, set())
            if files is not None and not files:
                continue
            results.append(self._reconcile(recorder, ref, files, now))
        self._log_not_recorded(recorder.not_recorded)
        return results

    def _log_not_recorded(self, not_recorded: dict[tuple[str, str], str]) -> None:
        """Each file the journal could not keep, once per daemon (the others were kept)."""
        for (root, rel), why in sorted(not_recorded.items()):
            if (root, rel, why) not in self._not_recorded_logged:
                self._not_recorded_logged.add((root, rel, why))
                log.warning("journal: %s in %s not recorded: %s", visible(rel), visible(root), why)

    def _reconcile(
        self, recorder: Recorder, ref: TreeRef, files: set[str] | None, now: float
    ) -> TreeChange:
        before = self._tree_size(ref.root)
        attributor = Attributor(
            ref.root, self._follower(ref), lambda: self._consolidating(ref.root, now),
            self.settings.attribution_seconds,
        )  # fmt: skip
        versions = recorder.reconcile(ref.root, now, attributor, files)
        return TreeChange(ref.root, tuple(versions), before, self._tree_size(ref.root))

    def _follower(self, ref: TreeRef) -> TranscriptFollower | None:
        folder = ref.location.transcripts_dir or ref.root.parent
        follower = self._followers.get(folder)
        if follower is None:
            label = labeller(self.scanner, PROMPT_CHARS)
            follower = self._followers[folder] = TranscriptFollower(folder, label)
        follower.update()
        return follower

    def _consolidating(self, root: Path, now: float) -> bool:
        """The lock is held now, or was within the last few seconds (it is released fast)."""
        if lock_age(root, now) is not None:
            self._lock_seen[root] = now
            return True
        return now - self._lock_seen.get(root, float("-inf")) <= self.settings.attribution_seconds

    def note_lock_event(self, root: Path, now: float) -> None:
        """A ``.consolidate-lock`` event: the consolidation was running moments ago."""
        self._lock_seen[root] = now

    def _tree_size(self, root: Path) -> int:
        latest = self.journal.index.latest_by_path(str(root))
        return sum(v.size for v in latest.values() if v.kind != DELETED)

    def activity(self, roots: Iterable[Path], since: float) -> dict[str, Activity]:
        """Each tree's journaled changes since ``since`` (baselines left out), newest first.

        ``roots`` are the trees as the reports show them (a secret in a folder's name
        masked): each is the journal's tree it shows, and its paths are shown masked too."""
        journaled = self.journal.index.roots()
        found = {}
        scanner = self._masking_scanner()
        for root in roots:
            real = next((r for r in journaled if shows(str(root), r)), str(root))
            versions = [
                v
                for v in shown(self.journal.index.history(real, since=since), scanner)
                if v.kind != BASELINE
            ]
            name_of = Boundary.for_names(scanner, [v.path for v in versions]).path
            changes = tuple(
                FileChange(
                    time.strftime("%Y-%m-%d %H:%M", time.localtime(v.at)),
                    v.kind,
                    name_of(v.path),
                    v.actor.by(),
                )
                for v in versions
            )
            if changes:
                found[str(root)] = Activity(changes)
        return found

    def _masking_scanner(self) -> Scanner:
        """The configured rules, or the bundled ones when those are unusable: labels and
        names are masked whatever the patterns file's state (masking never turns itself off)."""
        try:
            return self.scanner()
        except RulesUnavailable:
            return masking_scanner(ScannerConfig(state_dir=str(self._state_dir)))

    def retain(self, now: float) -> int:
        policy = Policy(
            self.settings.keep_all_days,
            self.settings.daily_days,
            self.settings.deleted_days,
            self.settings.max_mb * 1024 * 1024,
        )
        versions = self.journal.index.history()
        dropped = thinned(versions, now, policy)
        kept = [v for v in versions if v.id not in dropped]
        budget = over_budget(kept, self.journal.blobs.stored_size, policy.max_bytes)
        if budget:
            log.warning("journal over its %d MB budget: dropped the %d oldest versions",
                        self.settings.max_mb, len(budget))  # fmt: skip
        self.journal.index.delete(sorted(dropped | set(budget)))
        self.journal.collect_garbage()
        return len(dropped) + len(budget)


def split_by_tree(
    paths: Iterable[Path], roots: Iterable[Path]
) -> tuple[dict[Path, set[str]], set[Path]]:
    """Changed paths grouped by the tree that holds them (tree-relative), and the roots whose
    consolidation lock moved."""
    ordered = sorted(roots, key=lambda r: len(r.parts), reverse=True)
    by_tree: dict[Path, set[str]] = {}
    locks: set[Path] = set()
    for path in paths:
        root = next((r for r in ordered if path == r or path.is_relative_to(r)), None)
        if root is None:
            continue
        rel = path.relative_to(root).as_posix()
        if rel == CONSOLIDATION_LOCK:
            locks.add(root)
        by_tree.setdefault(root, set()).add(rel)
    return by_tree, locks
