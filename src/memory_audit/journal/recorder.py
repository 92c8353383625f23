"""Turning what is on disk into journal versions: read, mask secrets, store, index.

A tree is reconciled against the journal's latest version of each file: a
file whose content differs gets a new version, a file the journal knows but
the tree no longer has gets a tombstone. Reading happens off the daemon's
event loop; nothing here touches the tree except to read it.

Secret spans are masked (``<head>...<tail>``) before anything is stored, in
the encoding the file was written in (:mod:`.content`), so the journal never
holds a secret; a restored file holds the masked form, and the version says how
many secrets were masked so that a restore can say so. Labels (a session's first
prompt) are masked where they are made (:mod:`.labels`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memory_audit.errors import describe
from memory_audit.journal.blobs import BlobStore
from memory_audit.journal.content import mask
from memory_audit.journal.index import (
    BASELINE,
    CREATED,
    DELETED,
    MODIFIED,
    Actor,
    JournalIndex,
    NewVersion,
    Version,
)
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.walk import list_tree

TOO_LARGE = "too large, not kept"
# Who changed ``path`` (tree-relative) at ``when`` (epoch seconds), given what kind of change.
Attribute = Callable[[str, float, str], Actor]


@dataclass(frozen=True)
class Observed:
    """A file as it is now: masked content (None when gone or too large), size, mtime,
    and how many secrets were masked in it."""

    path: str
    data: bytes | None
    size: int
    mtime_ns: int
    exists: bool
    masked: int = 0


def observe(root: Path, rel: str, scanner: Scanner, max_bytes: int) -> Observed:
    """Read one tree file safely: no symlinks followed, regular files only, size-capped."""
    try:
        fd = os.open(root / rel, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return Observed(rel, None, 0, 0, exists=False)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return Observed(rel, None, 0, 0, exists=False)
        if info.st_size > max_bytes:
            return Observed(rel, None, info.st_size, info.st_mtime_ns, exists=True)
        data = handle.read(max_bytes + 1)
    kept = mask(data, scanner)
    return Observed(rel, kept.data, len(data), info.st_mtime_ns, True, kept.secrets)


@dataclass(frozen=True)
class TreeFiles:
    """The files the journal keeps (the index and every memory file the audit lists), and
    the folders that could not be read: what was in them is unknown, not deleted."""

    present: frozenset[str]
    unreadable: tuple[str, ...] = ()
    unstorable: tuple[str, ...] = ()  # names that are not UTF-8: the index cannot hold them

    def unknown(self, rel: str) -> bool:
        return any(
            folder in (".", rel) or rel.startswith(folder + "/") for folder in self.unreadable
        )


def tree_files(root: Path) -> TreeFiles:
    if not os.path.lexists(root):
        return TreeFiles(frozenset())  # the whole tree is gone: every file was deleted
    listing = list_tree(root)
    files = {c.path for c in listing.candidates}
    if listing.index is not None:
        files.add(listing.index.path)
    storable = frozenset(p for p in files if _storable(p))
    unreadable = tuple(e.path for e in listing.errors)
    return TreeFiles(storable, unreadable, tuple(sorted(files - storable)))


def _storable(rel: str) -> bool:
    """SQLite takes UTF-8 text only: a name holding undecodable bytes is left out (one
    file unjournaled, with a log line), never the reason the tree's other files are not."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Recorder:
    def __init__(self, index: JournalIndex, blobs: BlobStore, scanner: Scanner, max_bytes: int):
        self.index = index
        self.blobs = blobs
        self.scanner = scanner
        self.max_bytes = max_bytes
        # (tree root, tree path) -> why that file was not recorded, for the daemon's log
        self.not_recorded: dict[tuple[str, str], str] = {}

    def reconcile(
        self,
        root: Path,
        when: float,
        attribute: Attribute,
        changed: Iterable[str] | None = None,
    ) -> list[Version]:
        """Record what differs between the tree and the journal.

        ``changed`` names files known to have changed (they are read even when size
        and mtime look the same); None reconciles the whole tree, reading only files
        whose size or mtime differ from their last version (the baseline case).
        """
        latest = self.index.latest_by_path(str(root))
        listing = tree_files(root)
        present = set(listing.present)
        suspects = set(changed or ()) | (present - set(latest))
        if changed is None:
            suspects |= present
        new: list[NewVersion] = []
        for rel in listing.unstorable:
            self.not_recorded[(str(root), rel)] = "its name is not UTF-8"
        for rel in sorted(suspects & present):
            try:
                version = self._version_of(root, rel, latest.get(rel), when, attribute, changed)
            except OSError:
                raise  # the journal's disk (full, unwritable): the batch is retried whole
            except Exception as exc:  # a bug on one file: the tree's other files are kept
                self.not_recorded[(str(root), rel)] = describe(exc)
                continue
            if version is not None:
                new.append(version)
        for rel in sorted(set(latest) - present):
            if not latest[rel].is_tombstone and not listing.unknown(rel):
                new.append(self._tombstone(root, latest[rel], when, attribute))
        return self.index.add(new)

    def _version_of(
        self,
        root: Path,
        rel: str,
        last: Version | None,
        when: float,
        attribute: Attribute,
        changed: Iterable[str] | None,
    ) -> NewVersion | None:
        if changed is None and last is not None and not last.is_tombstone:
            try:
                info = os.lstat(root / rel)
            except OSError:
                return None
            if info.st_size == last.size and info.st_mtime_ns == last.mtime_ns:
                return None  # unchanged since it was last recorded: not even read
        seen = observe(root, rel, self.scanner, self.max_bytes)
        if not seen.exists:
            return None
        blob = self.blobs.put(seen.data) if seen.data is not None else None
        if last is not None and not last.is_tombstone and blob is not None and blob == last.blob:
            return None
        kind = _kind(last, changed)
        actor = Actor("baseline") if kind == BASELINE else attribute(rel, seen.mtime_ns / 1e9, kind)
        note = TOO_LARGE if seen.data is None else ""
        return NewVersion(
            str(root), rel, when, kind, blob, seen.size, seen.mtime_ns, actor, note, seen.masked
        )

    @staticmethod
    def _tombstone(root: Path, last: Version, when: float, attribute: Attribute) -> NewVersion:
        actor = attribute(last.path, when, DELETED)
        return NewVersion(str(root), last.path, when, DELETED, None, 0, 0, actor)


def _kind(last: Version | None, changed: Iterable[str] | None) -> str:
    if last is None:
        return BASELINE if changed is None else CREATED
    return CREATED if last.is_tombstone else MODIFIED
