"""The secret values each file of a tree holds, kept in memory so that every file the
journal records is masked where it repeats one of them (``repeated-credential``).

A password written as ``password: <value>`` in one file and bare in a command in
another is reported by the audit in both places (:mod:`memory_audit.secrets.repeats`);
the journal masks both the same way. The values of a tree are the union of what each
of its files yields, and a daemon records on every change: each file's values are kept
by ``(size, mtime_ns)`` and read again only when those differ (or the file is named as
changed), so a change reads the changed files, and only a tree's first recording reads
every file; a file that is no memory and only grew (a chat log) is read where it grew
(:mod:`memory_audit.secrets.grown_files`). The values live in this process only, never on
disk. The daemon's on-change alert asks the same (one instance, shared with its journal):
a file that repeats a value the tree already holds alerts, as the audit reports it,
without a scan of the tree.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from memory_audit.journal.content import secret_matches, text_secret_matches, utf8_text
from memory_audit.regular_files import open_regular
from memory_audit.secrets.grown_files import Seen, rules_text_from, window
from memory_audit.secrets.repeats import RepeatSearch
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.tree.snapshot import read_limit
from memory_audit.tree.walk import read_as_other


@dataclass(frozen=True)
class OnDisk:
    """A tree file as read: its bytes (None when gone, not a regular file or too large)."""

    data: bytes | None
    size: int
    mtime_ns: int
    exists: bool


def read_tree_file(root: Path, rel: str, max_bytes: int) -> OnDisk:
    """Read one tree file safely: no symlinks followed, regular files only, size-capped."""
    try:
        handle = open_regular(root / rel, follow_links=False)
    except OSError:  # gone, a link, a pipe, a folder: nothing the journal keeps
        return OnDisk(None, 0, 0, exists=False)
    with handle:
        info = os.fstat(handle.fileno())
        if info.st_size > max_bytes:
            return OnDisk(None, info.st_size, info.st_mtime_ns, exists=True)
        data = handle.read(max_bytes + 1)
    return OnDisk(data, len(data), info.st_mtime_ns, exists=True)


@dataclass(frozen=True)
class _Known:
    size: int
    mtime_ns: int
    values: Mapping[str, SecretMatch]  # each value, with the first match that found it
    # of a file that is no memory (a log): what was read of it, so that the next read of
    # a file that only grew reads its new part (:mod:`memory_audit.secrets.grown_files`)
    seen: Seen | None = None


class TreeValues:
    """Tree root -> tree path -> the values its file yielded when it had that size and
    mtime. Built again from nothing when the scanner changes (other rules, a false
    positive recorded since). Safe to share between threads (a daemon's baseline and its
    batch of changes may record at once)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._trees: dict[str, dict[str, _Known]] = {}
        self._scanner: Scanner | None = None
        # tree root -> the values its kept versions were masked with (in this process)
        self._history: dict[str, frozenset[str]] = {}
        self._lock = threading.Lock()

    def search(
        self,
        root: Path,
        files: Iterable[str],
        names: Iterable[str],
        scanner: Scanner,
        changed: Iterable[str] = (),
    ) -> RepeatSearch:
        """The repeat search of the tree as it is now: ``files`` are its files, ``names``
        every path in it (a value the tree names things with is not searched for), and
        ``changed`` the files to read again whatever their size and mtime."""
        with self._lock:
            values = self._values(root, set(files), scanner, set(changed))
        return RepeatSearch(values, scanner, names)

    def _values(
        self, root: Path, files: set[str], scanner: Scanner, changed: set[str]
    ) -> frozenset[str]:
        if scanner is not self._scanner:
            self._trees.clear()
            self._history.clear()
            self._scanner = scanner
        known = self._trees.setdefault(str(root), {})
        for gone in set(known) - files:
            del known[gone]
        for rel in files:
            known[rel] = self._refreshed(root, rel, known.get(rel), rel in changed, scanner)
        return frozenset().union(*(entry.values for entry in known.values()))

    def first_matches(self, root: Path, values: Iterable[str]) -> dict[str, SecretMatch]:
        """Each of ``values`` with the match that first found it in the tree, by path then
        place, as the audit reports a repeat (as of the tree's last :meth:`search`)."""
        wanted = set(values)
        first: dict[str, SecretMatch] = {}
        with self._lock:
            known = self._trees.get(str(root), {})
            for rel in sorted(known):
                for value in wanted & known[rel].values.keys():
                    first.setdefault(value, known[rel].values[value])
        return first

    def history_unmasked(self, root: Path, values: frozenset[str]) -> bool:
        """Whether the tree's kept versions may hold one of ``values`` bare: this process
        has not masked them with it yet (a value said only since, or a first search)."""
        with self._lock:
            return bool(values - self._history.get(str(root), frozenset()))

    def history_masked(self, root: Path, values: frozenset[str]) -> None:
        with self._lock:
            self._history[str(root)] = self._history.get(str(root), frozenset()) | values

    def _refreshed(
        self, root: Path, rel: str, entry: _Known | None, changed: bool, scanner: Scanner
    ) -> _Known:
        # a string path: a Path built for each of a tree's files cost more than its lstat
        if entry is not None and not changed and _same(os.path.join(root, rel), entry):
            return entry
        # a file that is no memory is read as far as the audit reads it for secrets; a memory
        # no further than the journal keeps one (a memory past that is not kept, and reading
        # a large one again at each rewrite held the daemon's other alerts back)
        seen = read_tree_file(root, rel, read_limit(rel, self.max_bytes))
        text = utf8_text(seen.data) if seen.data is not None and read_as_other(rel) else None
        if text is None:
            return _Known(seen.size, seen.mtime_ns, _file_values(seen, scanner, rel))
        return _grown(seen, text, entry, scanner, rel)


def _grown(seen: OnDisk, text: str, entry: _Known | None, scanner: Scanner, rel: str) -> _Known:
    """A file that is no memory, read where it grew since ``entry`` was read (a log gets a
    record at a time): its values are those read before and those of its new part."""
    start, end, now = window(rel, text, entry.seen if entry is not None else None, scanner)
    try:
        found = text_secret_matches(rules_text_from(rel, text, start, end), scanner)
    except Exception:  # a bug on one file's text: as _file_values, the file unrecorded
        return _Known(seen.size, seen.mtime_ns, {})
    if start and entry is not None:  # what was read before keeps its first match
        found = {**found, **entry.values}
    return _Known(seen.size, seen.mtime_ns, found, now)


def _file_values(seen: OnDisk, scanner: Scanner, rel: str) -> Mapping[str, SecretMatch]:
    if seen.data is None:
        return {}
    try:
        return secret_matches(seen.data, scanner, rel)
    except Exception:  # a bug on one file's text: the same scan leaves that file unrecorded,
        return {}  # and the tree's other files are still recorded and masked


def _same(path: str, entry: _Known) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (info.st_size, info.st_mtime_ns) == (entry.size, entry.mtime_ns)
