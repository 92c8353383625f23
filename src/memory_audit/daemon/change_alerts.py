"""The watcher component: watching the trees, and what a changed file sets off (a secret
scan and its alerts, and the journal feed's hook).

The list of trees is refreshed on a timer and when a folder appears in a
projects folder. Changed files are scanned in batches on worker threads
(linear-time rules over files capped in size), one queue and one worker per
tree (:mod:`memory_audit.daemon.tree_queues`): a tree whose file takes seconds
to scan delays no other tree's alert. Alerts are raised on the loop. At start,
every file is scanned once: secrets that landed while the service was not
running alert too.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path

from memory_audit.analysis.index_loaders import project_index_loader
from memory_audit.config.paths import claude_home
from memory_audit.config.settings import Config
from memory_audit.daemon.alerts import (
    Alert,
    AlertCenter,
    FileScan,
    alerts_for,
    scan_file,
    shown_path,
)
from memory_audit.daemon.clock import Clock
from memory_audit.daemon.known_secrets import KnownSecrets, known_secrets
from memory_audit.daemon.tasks import Background
from memory_audit.daemon.tree_queues import Spawn, TreeQueues, tree_of
from memory_audit.daemon.watch import TreeWatcher
from memory_audit.daemon.worker_thread import in_daemon_thread
from memory_audit.engine import SECRET_RULES
from memory_audit.errors import describe
from memory_audit.journal.tree_values import TreeValues
from memory_audit.model.visible import visible
from memory_audit.notify import Notifier
from memory_audit.secrets.grown_files import GrownFiles
from memory_audit.secrets.loading import RulesUnavailable, masking_scanner, secret_scanner
from memory_audit.secrets.published import (
    forget_texts,
    handed_out_by,
    live_place,
    names_a_demo,
    published_in,
)
from memory_audit.secrets.remote_host import remote_host
from memory_audit.secrets.scanner import Scanner
from memory_audit.store.state import State
from memory_audit.tree.agent_stores import USER_FOLDER
from memory_audit.tree.discovery import TreeRef, expand_root, find_trees, glob_magic, locate
from memory_audit.tree.walk import list_tree

log = logging.getLogger("memory_audit.daemon")
RESCAN_AFTER_NEW_FOLDER = 1.0
# Of one file's possible secrets, how many one scan checks for alerts. Each costs the loop
# a state lookup (and, new, a row): 50,000 of them held it for seconds, and every tree's
# alerts with it. The weekly audit and review list them all.
MAX_MATCHES_PER_FILE = 100
# The places of one published value in one file read to tell whether the note places it on a
# live system: each reading goes through the note's text, and a value written a thousand
# times in one note is told by its first few places as well
MAX_LIVE_PLACES = 4


def _ignore(*_: object) -> None:
    return None


class ChangeWatcher:
    """The watcher component: watching the trees and what a changed file sets off.

    Built with what it uses: the configuration, the state (alerts already sent, which
    trees are watched), the clock, the alert queue and the notifier (functions: a reload
    builds them anew), a ``spawn`` for background work, and two hooks the journal feed
    listens on, ``changed(path)`` for each settled change and ``trees_seen(roots)`` after
    each rescan, and ``values``, the journal's secret values of each tree (None when the
    journal is off: the watcher keeps its own). :meth:`start` watches (when
    ``watch.enabled``), rescans on a timer and sweeps every file once; :meth:`stop` ends
    the watching and the timer.
    """

    def __init__(
        self,
        config: Config,
        state: State,
        clock: Clock,
        alerts: Callable[[], AlertCenter],
        notifier: Callable[[], Notifier],
        spawn: Spawn,
        *,
        changed: Callable[[Path], None] = _ignore,
        trees_seen: Callable[[list[Path]], None] = _ignore,
        values: Callable[[], TreeValues | None] = lambda: None,
    ) -> None:
        self.config = config
        self.state = state
        self.clock = clock
        self.alerts = alerts
        self.notifier = notifier
        self.spawn = spawn
        self.changed = changed
        self.trees_seen = trees_seen
        self.values = values
        self._own_values = TreeValues(config.settings.audit.max_file_bytes)
        # Files an event named since their last scan: their secret values are read again
        # whatever their size and time. The start sweep's files are read only when they
        # differ from what the journal read (a scan of every file, not two).
        self._named: set[Path] = set()
        self._grown = GrownFiles()  # what the scans read of each log: the next reads its growth
        self.watcher: TreeWatcher | None = None
        self.scans = TreeQueues(self._scan_tree, spawn)
        self._rescan_handle: asyncio.TimerHandle | None = None
        self._background = Background()

    # ---- lifecycle -----------------------------------------------------------

    def start(self) -> None:
        """Inside the running loop: watch, rescan on a timer, and sweep every file once
        (secrets that landed while the service was not running alert too)."""
        self._watch()
        self._background.spawn(self._rescan_loop())
        self.spawn(self.sweep())

    def stop(self) -> None:
        self._background.cancel()
        if self._rescan_handle is not None:
            self._rescan_handle.cancel()
            self._rescan_handle = None
        if self.watcher is not None:
            self.watcher.stop()  # kept: what it watched last stays readable

    def reconfigure(self, config: Config) -> bool:
        """The watch settings of ``config`` (a reload); False when they did not change."""
        old, self.config = self.config, config
        if config.settings.watch == old.settings.watch:
            return False
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        self._watch()
        if self.watcher is not None:
            self.spawn(self.sweep())  # what changed while no watcher looked
        return True

    def _watch(self) -> None:
        watch = self.config.settings.watch
        if not watch.enabled:
            return
        self.watcher = TreeWatcher(
            asyncio.get_running_loop(),
            watch.debounce_seconds,
            watch.observer,
            watch.polling_interval_seconds,
            self._file_changed,
            self._schedule_rescan,
        )
        self.watcher.start()
        self.rescan()

    async def _rescan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.settings.watch.rescan_seconds)
            self.rescan()

    # ---- the trees -----------------------------------------------------------

    def trees(self, *, locate_projects: bool = True) -> list[TreeRef]:
        return find_trees(
            self.config.settings.roots, locate_projects=locate_projects, every_store=True
        )

    def project_folders(self) -> list[Path]:
        """The folders new trees appear in: each root glob's part before its first wildcard."""
        folders = []
        for pattern in self.config.settings.roots:
            parts = Path(expand_root(pattern)).parts
            index = next((i for i, p in enumerate(parts) if glob_magic(p)), None)
            if index:
                folders.append(Path(*parts[:index]))
        return [*folders, claude_home() / USER_FOLDER]  # a new agent's memory appears there

    def watched_roots(self) -> list[Path]:
        return [Path(r) for r in (self.watcher.observers() if self.watcher else {})]

    def rescan(self) -> None:
        if self.watcher is None:
            return
        had_limit = self.watcher.limit_hit
        roots = [r.root for r in self.trees(locate_projects=False)]
        self.watcher.update(roots, self.project_folders())
        self.trees_seen(roots)
        scanner = shown_scanner_of(self.config)
        watched = self.watcher.observers().items()
        self.state.set_watched({shown_path(scanner, r): k for r, k in watched}, self.clock())
        if self.watcher.limit_hit and not had_limit:
            self.spawn(
                self.notifier().send(
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

    # ---- a change: scan, alert -----------------------------------------------

    def _file_changed(self, path: Path) -> None:
        root = tree_of(path, self.watched_roots())
        if root is not None:
            self._named.add(path)
            self.scans.add(root, [path])
        self.changed(path)

    async def _scan_tree(self, root: Path, batch: set[Path]) -> set[Path]:
        """Scan a tree's changed files on a worker thread; alert from the loop.

        A batch that fails is logged and dropped; the tree's queue, and with it every
        later alert, carries on. Without a usable patterns file the batch is held, and
        scanned with the tree's next change once the file is back.
        """
        named, self._named = batch & self._named, self._named - batch
        try:
            scanner = scanner_of(self.config)
            limit = self.config.settings.audit.max_file_bytes
            values = self.values() or self._own_values
            scan = partial(_scan_all, batch, root, scanner, limit, values, named, grown=self._grown)
            scans = await in_daemon_thread(scan)
            self._raise_alerts(scans, scanner)
            for done in scans:  # what was read is not read again: its alerts are raised
                if done.read is not None:
                    self._grown.keep(*done.read)
        except RulesUnavailable as exc:
            log.error("secret alerts paused: %s", exc)
            self._named |= named
            return batch
        except Exception as exc:
            log.error("scanning %d changed file(s) failed: %s", len(batch), describe(exc))
        return set()

    def _raise_alerts(self, scans: list[FileScan], scanner: Scanner) -> None:
        ignored = scanner.false_positives | self.state.dismissed()
        found: list[Alert] = []
        for scan in scans:
            found += alerts_for(scan, self.state, ignored)
        self.alerts().add(found)

    async def sweep(self) -> None:
        """Alert for secrets that landed while the service was not running."""
        roots = [r.root for r in self.trees(locate_projects=False)]
        files = await in_daemon_thread(lambda: {root: _tree_files(root) for root in roots})
        for root, paths in files.items():
            self.scans.add(root, paths)


def scanner_of(config: Config) -> Scanner:
    """The scanner of the configured secret rules (the factory's, as everywhere)."""
    return secret_scanner(config.check_options(SECRET_RULES))


def shown_scanner_of(config: Config) -> Scanner:
    """The rules that mask a secret in a watched tree's path or an alert's text: the
    bundled ones when the configured file is unusable (masking never turns itself off)."""
    return masking_scanner(config.check_options(SECRET_RULES))


def _scan_all(
    paths: set[Path],
    root: Path,
    scanner: Scanner,
    limit: int,
    values: TreeValues | None = None,
    read_again: set[Path] | None = None,
    *,
    grown: GrownFiles | None = None,
) -> list[FileScan]:
    """The batch's scans; ``values``: the tree's secret values kept between batches (else
    read from the whole tree), those of ``read_again`` (else of every path) read again;
    ``grown``: what earlier batches read of each file (a log is read where it grew)."""
    scans = []
    shown_root = shown_path(scanner, str(root))  # one tree a batch: masked once
    known = _known(
        values or TreeValues(limit), root, paths if read_again is None else read_again, scanner
    )
    for path in sorted(paths):
        try:
            scan = scan_file(path, root, scanner, limit, shown_root, known, grown=grown)
        except OSError:
            continue
        except Exception as exc:  # a bug on one file: the batch's other files still alert
            log.error("scanning %s failed: %s", visible(str(path)), describe(exc))
            continue
        if scan is not None:
            scans.append(_bounded(scan))
    project = cache(lambda: locate(root).project_path)  # located once, only if asked
    return _with_published(_with_index_loader(scans, root, project), root, project)


def _known(
    values: TreeValues, root: Path, paths: set[Path], scanner: Scanner
) -> KnownSecrets | None:
    """The secrets the tree holds, whose repeats in the changed files alert too; those of
    ``paths`` read again."""
    changed = {p.relative_to(root).as_posix() for p in paths if p.is_relative_to(root)}
    try:
        return known_secrets(values, root, changed, scanner)
    except Exception as exc:  # a bug there: the rules' alerts still go out
        log.error("looking up the secrets a tree holds failed: %s", describe(exc))
        return None


def _with_index_loader(
    scans: list[FileScan], root: Path, project: Callable[[], Path | None]
) -> list[FileScan]:
    """Without the budget of an index the project loads in full itself (its CLAUDE.md
    imports it, or tells sessions to read it): the audit reports no cut there, so no alert.
    Looked up only when the batch holds an index past Claude Code's cut."""
    if not any(scan.index_load is not None and scan.index_load.cut for scan in scans):
        return scans
    try:
        loader = project_index_loader(project(), root)
    except Exception as exc:  # a bug there: the budget alert still goes out
        log.error("looking up what loads the index failed: %s", describe(exc))
        return scans
    return [
        dataclasses.replace(scan, index_load=None)
        if loader is not None
        and scan.index_load is not None
        and loader.reads_all(scan.index_load.lines)
        else scan
        for scan in scans
    ]


def _with_published(
    scans: list[FileScan], root: Path, project: Callable[[], Path | None]
) -> list[FileScan]:
    """The scans with the secrets the tree's repository publishes and the audit reports as
    suggestions (one lookup a batch, only when a value could be published), and without the
    values, lines and texts looked up."""
    values = {key: value for scan in scans for key, value in scan.chosen.items()}
    published: frozenset[str] = frozenset()
    if values:
        try:
            published = _suggested(scans, values, published_in(project(), root, values))
        except Exception as exc:  # a bug there: the alerts still go out, as problems
            log.error("looking up the secrets a repository publishes failed: %s", describe(exc))
    # the batch's notes read for production (a test password's too, in scan_file) are
    # forgotten whether or not a value could be published
    forget_texts()
    return [
        dataclasses.replace(scan, chosen={}, chosen_lines={}, text="", published=published)
        for scan in scans
    ]


def _suggested(
    scans: list[FileScan], values: dict[str, str], tracked: dict[str, str]
) -> frozenset[str]:
    """The keys of the published values the audit reports as suggestions, decided per value
    as the audit decides (one value is one finding, whatever rules found it): all its
    places, under every rule's key, read together."""
    keys: dict[str, list[str]] = {}  # value -> its keys
    for key, value in values.items():
        keys.setdefault(value, []).append(key)
    suggested: set[str] = set()
    for same in keys.values():
        path = next((tracked[key] for key in same if key in tracked), None)
        if path is not None and not _live(scans, same, path):
            suggested.update(key for key in same if key in tracked)
    return frozenset(suggested)


def _live(scans: list[FileScan], keys: list[str], tracked: str) -> bool:
    """Whether the audit keeps a published value a problem (checks/secrets.py): a note places
    it in production or binds it to another machine than the developer's (a test password
    by its own words there excepted, as the scan's ``tests`` keep it quiet anyway), unless
    a README hands out the demo login a line of it names. A place whose line labels the
    value a test account's, with no production named on that line or its headings, is not
    placed in production by the rest of its note. Read at its lines in the batch's
    files, the first few of each rule's a file."""
    places = [
        (scan.text, line)
        for scan in scans
        for key in keys
        for line in scan.chosen_lines.get(key, ())[:MAX_LIVE_PLACES]
    ]
    if handed_out_by(tracked) and any(names_a_demo(text, line) for text, line in places):
        return False
    return any(
        live_place(text, line) or remote_host(text, line) is not None for text, line in places
    )


def _bounded(scan: FileScan) -> FileScan:
    if len(scan.matches) <= MAX_MATCHES_PER_FILE:
        return scan
    head = MAX_MATCHES_PER_FILE // 2
    tail = MAX_MATCHES_PER_FILE - head
    log.warning(
        "%s: %d possible secrets; the first %d and the last %d are checked for alerts, "
        "`memory-audit review` lists all",
        scan.shown_rel or scan.rel,  # a secret in a name masked, as alerts show it
        len(scan.matches),
        head,
        tail,
    )
    # the last ones too: a log grows at its end, and what was pasted last is there
    kept = scan.matches[:head] + scan.matches[-tail:]
    # the values of the matches left out raise no alert: their lines are not read either
    dropped = {m.fingerprint for m in scan.matches[head:-tail]}
    dropped -= {m.fingerprint for m in kept}
    lines = {key: at for key, at in scan.chosen_lines.items() if key not in dropped}
    return dataclasses.replace(scan, matches=kept, chosen_lines=lines)


def _tree_files(root: Path) -> list[Path]:
    """Every file the audit reads, listed safely (no symlink loops, nothing outside)."""
    listing = list_tree(root)
    files = [root / c.path for c in (*listing.candidates, *listing.others)]
    if listing.index is not None:
        files.append(root / listing.index.path)
    return files
