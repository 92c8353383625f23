"""The transcript follower: secrets pasted into a session, alerted while it runs.

Session transcripts (``~/.claude/projects/<slug>/*.jsonl``, subagents' below) are
watched; what a session appends is read from the offset last read
(:mod:`memory_audit.secrets.transcript_tail`) on a worker thread, one transcript at
a time each, and scanned with the memory rules (the one scanner factory). Offsets are
kept in the state, so a restart reads only what was appended meanwhile. At the very
first start, the transcripts already there are followed from their end (``audit
--transcripts`` reads the past); a transcript that appears later is read whole.

A secret alerts once per session, with its masked form, the session and the time, and
says what to do: it was sent to the model provider (revoke or rotate it), and deleting
the transcript removes it from this machine. A secret that already alerted from memory
does not alert again from a transcript, nor the other way round, whatever rules find it
(the state keeps the secret's salted fingerprints, each rule's and the value's, and where
it first alerted). Nothing is written to a
transcript.

Events come often while a session writes: each transcript is read at most every
:data:`THROTTLE_SECONDS` (a throttle, not a debounce: a session writing without pause
must still be read), and a rescan on the watch timer catches what events missed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from memory_audit.config.settings import Config
from memory_audit.daemon.alerts import Alert, AlertCenter, secret_fingerprints, shown_path
from memory_audit.daemon.clock import Clock
from memory_audit.daemon.tasks import Background
from memory_audit.daemon.tree_queues import Spawn, TreeQueues
from memory_audit.daemon.worker_thread import in_daemon_thread
from memory_audit.errors import describe
from memory_audit.secrets.loading import RulesUnavailable
from memory_audit.secrets.scanner import Scanner, marked
from memory_audit.secrets.transcript_scan import in_a_memory_tree, transcript_files
from memory_audit.secrets.transcript_tail import Found, Offset, Tail, end_of, read_appended
from memory_audit.store.state import State
from memory_audit.tree.discovery import projects_dir

log = logging.getLogger("memory_audit.daemon")
THROTTLE_SECONDS = 0.5
SUFFIX = ".jsonl"
FOLLOWING = "transcripts-followed"  # state key: set once the first start took the ends
KIND = "transcript"


class _Events(FileSystemEventHandler):
    """Runs on watchdog's thread: a transcript's path handed to the loop, nothing else."""

    def __init__(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[Path], None]) -> None:
        self.loop = loop
        self.deliver = deliver

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type in ("opened", "closed_no_write"):
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            text = os.fsdecode(raw) if raw else ""
            if text.endswith(SUFFIX) and not in_a_memory_tree(Path(text), projects_dir()):
                self.loop.call_soon_threadsafe(self.deliver, Path(text))


class TranscriptFollower:
    """The transcript follower component. Built with the configuration, the state, the
    clock, the scanner (a function: the rules may change), the alert queue (a function:
    a reload builds it anew) and a ``spawn``. :meth:`start` watches and catches up;
    :meth:`stop` ends the watching."""

    def __init__(
        self,
        config: Config,
        state: State,
        clock: Clock,
        scanner: Callable[[], Scanner],
        alerts: Callable[[], AlertCenter],
        spawn: Spawn,
    ) -> None:
        self.config = config
        self.state = state
        self.clock = clock
        self.scanner = scanner
        self.alerts = alerts
        self.reads = TreeQueues(self._read, spawn)  # one queue per transcript
        self.observer: BaseObserver | None = None
        self._offsets: dict[str, Offset] = {}
        self._due: set[Path] = set()
        self._background = Background()

    def start(self) -> None:
        watch = self.config.settings.watch
        if not watch.enabled:
            return
        self._offsets = {k: Offset(*v) for k, v in self.state.transcript_offsets().items()}
        self._watch()
        self._background.spawn(self._catch_up())
        self._background.spawn(self._rescan_loop())

    def stop(self) -> None:
        self._background.cancel()
        if self.observer is not None:
            self.observer.unschedule_all()
            self.observer.stop()
            self.observer.join(timeout=5)
            self.observer = None

    def reconfigure(self, config: Config) -> None:
        """A reload: watching starts again when the watch settings changed."""
        old, self.config = self.config, config
        if config.settings.watch != old.settings.watch:
            self.stop()
            self.start()

    def _watch(self) -> None:
        folder = projects_dir()
        watch = self.config.settings.watch
        if watch.observer == "polling":
            self.observer = PollingObserver(timeout=watch.polling_interval_seconds)
        else:
            self.observer = Observer()
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            handler = _Events(asyncio.get_running_loop(), self._changed)
            self.observer.schedule(handler, str(folder), recursive=True)
        except OSError as exc:
            log.warning("cannot watch session transcripts in %s: %s", folder, exc.strerror)
        self.observer.start()

    async def _rescan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.settings.watch.rescan_seconds)
            await self._rescan()

    async def _catch_up(self) -> None:
        """At start: what was appended while the daemon was not running. The very first
        start follows every transcript from its end."""
        files = await in_daemon_thread(lambda: transcript_files([projects_dir()]))
        if self.state.get(FOLLOWING) is None:
            ends = await in_daemon_thread(lambda: _ends(files))
            self._offsets.update(ends)
            self.state.set_transcript_offsets(_rows(ends))
            self.state.put(FOLLOWING, "1")
            log.info("following %d session transcript(s) from their end", len(ends))
            return
        for path in files:
            self.reads.add(path, [path])

    async def _rescan(self) -> None:
        """What events missed: transcripts whose size is not the offset read."""
        files = await in_daemon_thread(lambda: _sizes(transcript_files([projects_dir()])))
        for path, size in files.items():
            held = self._offsets.get(key_of(path))
            if held is None or held.offset != size:
                self.reads.add(path, [path])

    # ---- a transcript grew ----------------------------------------------------

    def _changed(self, path: Path) -> None:
        if path not in self._due:
            self._due.add(path)
            asyncio.get_running_loop().call_later(THROTTLE_SECONDS, self._read_soon, path)

    def _read_soon(self, path: Path) -> None:
        self._due.discard(path)
        self.reads.add(path, [path])

    async def _read(self, path: Path, _: set[Path]) -> set[Path]:
        key = key_of(path)
        try:
            scanner = self.scanner()
            tail = await in_daemon_thread(
                partial(read_appended, scanner, path, self._offsets.get(key))
            )
        except RulesUnavailable as exc:
            log.error("transcript secret alerts paused: %s", exc)
            return {path}
        except Exception as exc:
            log.error("reading a session transcript failed: %s", describe(exc))
            return set()
        self._keep(key, path, tail)
        self._raise(path, tail.found, scanner)
        if tail.more:
            self.reads.add(path, [path])  # the next chunk, after what waits elsewhere
        return set()

    def _keep(self, key: str, path: Path, tail: Tail) -> None:
        if tail.skipped:
            log.warning(
                "%s grew by %d bytes while not followed; the first %d were not read "
                "(`memory-audit audit --transcripts` reads them)",
                self._shown(path),
                tail.skipped + tail.read,
                tail.skipped,
            )
        if tail.restarted:
            log.info("%s was replaced or truncated; read from its start", self._shown(path))
        if tail.offset is None:
            if self._offsets.pop(key, None) is not None:
                self.state.set_transcript_offsets({}, [key])
            return
        if self._offsets.get(key) != tail.offset:
            self._offsets[key] = tail.offset
            self.state.set_transcript_offsets(_rows({key: tail.offset}))

    def _raise(self, path: Path, found: tuple[Found, ...], scanner: Scanner) -> None:
        if not found:
            return
        ignored = self.state.dismissed()
        session = path.stem
        fresh: dict[str, Alert] = {}
        values: set[str] = set()  # one alert a value, whatever rules find it
        for item in found:
            fingerprint = item.match.fingerprint
            known = secret_fingerprints([item.match])  # as memory's alerts note them
            if marked(item.match, ignored) or item.match.value_fingerprint in values:
                continue
            if any(self.state.secret_source(f) == "memory" for f in known):
                continue
            values.add(item.match.value_fingerprint)
            key = hashlib.sha256(f"{KIND}\x1f{session}\x1f{fingerprint}".encode()).hexdigest()[:32]
            if key in fresh or self.state.alerted(key):
                continue
            fresh[key] = self._alert(key, path, item, scanner)
        if fresh:
            fingerprints = secret_fingerprints([item.match for item in found])
            self.state.note_secrets(fingerprints, KIND, self.clock())
            self.alerts().add(list(fresh.values()))

    def _alert(self, key: str, path: Path, item: Found, scanner: Scanner) -> Alert:
        shown = shown_path(scanner, str(path))
        project = shown_path(scanner, project_of(path))
        when = item.at.strftime("%Y-%m-%d %H:%M UTC") if item.at else "time unknown"
        text = (
            f"session {path.stem} ({project}), {when}: possible {item.match.label} "
            f"{item.match.redacted}, sent to the model provider: revoke or rotate it; "
            f"rm {shown} removes it from this machine"
        )
        return Alert(key, KIND, project, shown, text)

    def _shown(self, path: Path) -> str:
        try:
            return shown_path(self.scanner(), str(path))
        except RulesUnavailable:
            return path.name


def key_of(path: Path) -> str:
    """A transcript's key in the state: a hash of its path (a path may name a secret)."""
    return hashlib.sha256(os.fsencode(path)).hexdigest()[:32]


def project_of(path: Path) -> str:
    """The project folder (slug) a transcript belongs to, subagents' included."""
    try:
        return path.relative_to(projects_dir()).parts[0]
    except (ValueError, IndexError):
        return path.parent.name


def _rows(offsets: dict[str, Offset]) -> dict[str, tuple[int, int, int, str]]:
    return {k: (o.device, o.inode, o.offset, o.seam) for k, o in offsets.items()}


def _sizes(paths: list[Path]) -> dict[Path, int]:
    sizes = {}
    for path in paths:
        end = end_of(path)
        if end is not None:
            sizes[path] = end.offset
    return sizes


def _ends(paths: list[Path]) -> dict[str, Offset]:
    return {key_of(p): end for p in paths if (end := end_of(p)) is not None}
