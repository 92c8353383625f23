"""Watching memory trees with watchdog, safely handed over to the asyncio loop.

- one non-recursive watch per projects folder (a new project appears there),
  one recursive watch per tree; the tree list is refreshed on a timer and
  whenever a folder appears in a projects folder;
- events arrive on watchdog's thread and are passed to the loop with
  ``call_soon_threadsafe``; atomic saves arrive as ``moved`` events, so both
  ``src_path`` and ``dest_path`` are handed over;
- each path is debounced: it fires once, ``debounce`` seconds after its last event, and
  at the latest :data:`MAX_WAIT_DEBOUNCES` debounces after its first unfired one (a log
  written every second is never quiet that long, and its secret must still alert);
- at the inotify limit watchdog raises for a tree's root (ENOSPC/EMFILE) but
  silently skips sub-folders; both are detected (the second by counting the
  folders it actually watches) and the tree is watched by polling instead,
  said once in the log and once in a notification.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

from memory_audit.tree.walk import watches_needed

log = logging.getLogger("memory_audit.daemon")
LIMIT_ERRORS = (errno.ENOSPC, errno.EMFILE)
NATIVE = {"linux": "inotify", "darwin": "fsevents"}.get(sys.platform, "native")
MAX_WAIT_DEBOUNCES = 5  # a path written without pause fires every five debounces (10 s)


class Debouncer:
    """Calls ``fire(path)`` once per path, after ``delay`` seconds without events for it, or
    ``max_wait`` seconds after its first event since it last fired, whichever comes first."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        delay: float,
        fire: Callable[[Path], None],
        max_wait: float | None = None,
    ) -> None:
        self.loop = loop
        self.delay = delay
        self.max_wait = MAX_WAIT_DEBOUNCES * delay if max_wait is None else max_wait
        self.fire = fire
        self._timers: dict[Path, asyncio.TimerHandle] = {}
        self._first: dict[Path, float] = {}  # loop time of a path's first unfired event

    def touch(self, path: Path) -> None:
        timer = self._timers.pop(path, None)
        if timer is not None:
            timer.cancel()
        now = self.loop.time()
        first = self._first.setdefault(path, now)
        when = min(now + self.delay, first + max(self.delay, self.max_wait))
        self._timers[path] = self.loop.call_at(when, self._fire, path)

    def _fire(self, path: Path) -> None:
        self._timers.pop(path, None)
        self._first.pop(path, None)
        self.fire(path)

    @property
    def waiting(self) -> int:
        return len(self._timers)

    def cancel_all(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._first.clear()


class _Handler(FileSystemEventHandler):
    """Runs on watchdog's thread: hand every path over to the loop, nothing else."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, deliver: Callable[[Path, bool], None]
    ) -> None:
        self.loop = loop
        self.deliver = deliver

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        for raw in paths:
            if raw:
                text = os.fsdecode(raw)
                self.loop.call_soon_threadsafe(self.deliver, Path(text), event.is_directory)


class TreeWatcher:
    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        debounce: float,
        observer_kind: str,
        polling_interval: float,
        on_file: Callable[[Path], None],
        on_new_folder: Callable[[], None],
    ) -> None:
        self.loop = loop
        self.observer_kind = observer_kind
        self.on_new_folder = on_new_folder
        self.debouncer = Debouncer(loop, debounce, on_file)
        self.native: BaseObserver = Observer()
        self.polling: BaseObserver = PollingObserver(timeout=polling_interval)
        self.watches: dict[Path, tuple[str, ObservedWatch]] = {}
        self.project_folders: dict[Path, ObservedWatch] = {}
        self.limit_hit = False
        self._handler = _Handler(loop, self._deliver)
        self._folder_handler = _Handler(loop, self._deliver_folder)

    def start(self) -> None:
        self.native.start()
        self.polling.start()

    def stop(self) -> None:
        self.debouncer.cancel_all()
        for observer in (self.native, self.polling):
            observer.unschedule_all()
            observer.stop()
        for observer in (self.native, self.polling):
            observer.join(timeout=5)

    # ---- what to watch -------------------------------------------------------

    def update(self, trees: Iterable[Path], project_folders: Iterable[Path]) -> None:
        wanted = {t for t in trees if t.is_dir()}
        for root in sorted(set(self.watches) - wanted):
            kind, watch = self.watches.pop(root)
            self._unschedule(kind, watch)
            log.info("stopped watching %s", root)
        for root in sorted(wanted - set(self.watches)):
            self._watch_tree(root)
        self._watch_folders({f for f in project_folders if f.is_dir()})

    def observers(self) -> dict[str, str]:
        return {str(root): kind for root, (kind, _) in self.watches.items()}

    def _watch_tree(self, root: Path) -> None:
        if self.observer_kind != "polling":
            try:
                watch = self.native.schedule(self._handler, str(root), recursive=True)
            except OSError as exc:
                if exc.errno not in LIMIT_ERRORS:
                    log.warning("cannot watch %s: %s", root, exc.strerror)
                    return
                self._hit_limit(root, f"{exc.strerror}")
            else:
                missing = _unwatched_folders(watch, self.native, root)
                if not missing:
                    self.watches[root] = (NATIVE, watch)
                    log.info("watching %s", root)
                    return
                self.native.unschedule(watch)
                self._hit_limit(root, f"{missing} sub-folder(s) could not be watched")
        watch = self.polling.schedule(self._handler, str(root), recursive=True)
        self.watches[root] = ("polling", watch)
        log.info("watching %s by polling", root)

    def _hit_limit(self, root: Path, why: str) -> None:
        if not self.limit_hit:
            log.warning(
                "inotify limit reached (%s, at %s); watching by polling from now on. "
                "Raise fs.inotify.max_user_watches to watch natively.",
                why,
                root,
            )
        self.limit_hit = True

    def _watch_folders(self, folders: set[Path]) -> None:
        for folder in sorted(set(self.project_folders) - folders):
            self.native.unschedule(self.project_folders.pop(folder))
        for folder in sorted(folders - set(self.project_folders)):
            try:
                self.project_folders[folder] = self.native.schedule(
                    self._folder_handler, str(folder), recursive=False
                )
            except OSError as exc:
                log.warning(
                    "cannot watch %s for new projects: %s (found on rescan instead)",
                    folder,
                    exc.strerror,
                )

    def _unschedule(self, kind: str, watch: ObservedWatch) -> None:
        observer = self.polling if kind == "polling" else self.native
        with contextlib.suppress(KeyError, OSError):  # a deleted tree's watch is already gone
            observer.unschedule(watch)

    # ---- events (loop thread) ------------------------------------------------

    def _deliver(self, path: Path, is_directory: bool) -> None:
        if not is_directory:
            self.debouncer.touch(path)

    def _deliver_folder(self, path: Path, is_directory: bool) -> None:
        if is_directory:
            self.on_new_folder()


def _unwatched_folders(watch: ObservedWatch, observer: BaseObserver, root: Path) -> int:
    """How many folders under ``root`` watchdog skipped (it does so silently at the limit).

    Reads watchdog's inotify bookkeeping; when that is not available (another
    platform or version), assumes nothing was skipped.
    """
    emitter: Any = observer._emitter_for_watch.get(watch)
    group = getattr(emitter, "_inotify", None)
    watched = getattr(group, "_active_callbacks_by_path", None)
    if not isinstance(watched, dict):
        return 0
    return max(0, watches_needed(root) - len(watched))
