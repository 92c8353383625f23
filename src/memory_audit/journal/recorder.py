"""Turning what is on disk into journal versions: read, mask secrets, store, index.

A tree is reconciled against the journal's latest version of each file: a
file whose content differs gets a new version, a file the journal knows but
the tree no longer has gets a tombstone. Reading happens off the daemon's
event loop; nothing here touches the tree except to read it.

Secret spans are masked (``<head>...<tail>``) before anything is stored, in
the encoding the file was written in (:mod:`.content`), so the journal never
holds a secret; a restored file holds the masked form, and the version says how
many secrets were masked so that a restore can say so. A file is masked also where it
repeats a secret value the rules found anywhere in the tree (:mod:`.tree_values`), as
the audit reports it. Labels (a session's first prompt) are masked where they are made
(:mod:`.labels`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memory_audit.errors import describe
from memory_audit.journal.blobs import BlobStore
from memory_audit.journal.content import mask, masked_repeats
from memory_audit.journal.history_mask import mask_history
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
from memory_audit.journal.tree_values import TreeValues, read_tree_file
from memory_audit.secrets.repeats import RepeatSearch
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.walk import list_tree
from memory_audit.tree.workspace import documents_root

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


def observe(
    root: Path, rel: str, scanner: Scanner, max_bytes: int, repeats: RepeatSearch | None = None
) -> Observed:
    """Read one tree file safely (:func:`read_tree_file`) and mask its secrets."""
    seen = read_tree_file(root, rel, max_bytes)
    if seen.data is None:
        return Observed(rel, None, seen.size, seen.mtime_ns, seen.exists)
    kept = mask(seen.data, scanner, repeats)
    return Observed(rel, kept.data, seen.size, seen.mtime_ns, True, kept.secrets)


@dataclass(frozen=True)
class TreeFiles:
    """The files the journal keeps (the index and every memory file the audit lists), and
    the folders that could not be read: what was in them is unknown, not deleted."""

    present: frozenset[str]
    unreadable: tuple[str, ...] = ()
    unstorable: tuple[str, ...] = ()  # names that are not UTF-8: the index cannot hold them
    names: frozenset[str] = frozenset()  # every path in the tree, memory file or not
    # files that are no memories (a raw log, a hidden store): never kept, but the secret
    # values they hold are masked in every kept version, as the audit finds them there
    others: frozenset[str] = frozenset()

    @property
    def with_values(self) -> frozenset[str]:
        """Every file whose secret values the journal masks."""
        return self.present | self.others

    def unknown(self, rel: str) -> bool:
        return any(
            folder in (".", rel) or rel.startswith(folder + "/") for folder in self.unreadable
        )


def tree_files(root: Path) -> TreeFiles:
    if not os.path.lexists(root):
        return TreeFiles(frozenset())  # the whole tree is gone: every file was deleted
    # a workspace's documents: its root's own files (its folders are other trees or none)
    listing = list_tree(root, documents=documents_root(root))
    files = {c.path for c in listing.candidates}
    if listing.index is not None:
        files.add(listing.index.path)
    storable = frozenset(p for p in files if _storable(p))
    unreadable = tuple(e.path for e in listing.errors)
    names = frozenset(files | listing.present)
    others = frozenset(c.path for c in listing.others)
    return TreeFiles(storable, unreadable, tuple(sorted(files - storable)), names, others)


def repeat_search(root: Path, scanner: Scanner, max_bytes: int) -> RepeatSearch:
    """The tree's repeat search as it is now, read once (``restore`` masks a file's current
    text as the journal would keep it, to show it and compare it with a version)."""
    listing = tree_files(root)
    return TreeValues(max_bytes).search(root, listing.with_values, listing.names, scanner)


def masked_history(
    index: JournalIndex, blobs: BlobStore, root: Path, scanner: Scanner, max_bytes: int
) -> RepeatSearch:
    """The tree's repeat search, its kept versions masked with it first: what a command
    shows of the journal (``restore``, ``history``) holds no value the tree says is a
    secret, even when no service has recorded the tree since it began to say so."""
    repeats = repeat_search(root, scanner, max_bytes)
    if repeats:
        mask_history(index, blobs, str(root), repeats)
    return repeats


def _storable(rel: str) -> bool:
    """SQLite takes UTF-8 text only: a name holding undecodable bytes is left out (one
    file unjournaled, with a log line), never the reason the tree's other files are not."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Recorder:
    def __init__(
        self,
        index: JournalIndex,
        blobs: BlobStore,
        scanner: Scanner,
        max_bytes: int,
        values: TreeValues | None = None,
    ):
        self.index = index
        self.blobs = blobs
        self.scanner = scanner
        self.max_bytes = max_bytes
        # each tree's secret values, to mask their repeats: a daemon passes one it keeps
        self.values = values if values is not None else TreeValues(max_bytes)
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
        to_read = [
            rel for rel in sorted(suspects & present) if self._read(root, rel, latest, changed)
        ]
        gone = [
            rel
            for rel in sorted(set(latest) - present)
            if not latest[rel].is_tombstone and not listing.unknown(rel)
        ]
        repeats = self._repeats(root, listing, changed) if to_read or gone else None
        if repeats is not None and self.values.history_unmasked(root, repeats.values):
            mask_history(self.index, self.blobs, str(root), repeats)
            self.values.history_masked(root, repeats.values)
            # their blobs are masked ones now: a file saved again unchanged is no new version
            latest = self.index.latest_by_path(str(root))
        for rel in to_read:
            try:
                version = self._version_of(
                    root, rel, latest.get(rel), when, attribute, changed, repeats=repeats
                )
            except OSError:
                raise  # the journal's disk (full, unwritable): the batch is retried whole
            except Exception as exc:  # a bug on one file: the tree's other files are kept
                self.not_recorded[(str(root), rel)] = describe(exc)
                continue
            if version is not None:
                new.append(version)
        for rel in gone:
            new.append(self._tombstone(root, latest[rel], when, attribute, repeats))
        return self.index.add(new)

    @staticmethod
    def _read(
        root: Path, rel: str, latest: dict[str, Version], changed: Iterable[str] | None
    ) -> bool:
        """Whether to read a file: a baseline skips one unchanged since its last version."""
        last = latest.get(rel)
        if changed is not None or last is None or last.is_tombstone:
            return True
        try:
            info = os.lstat(root / rel)
        except OSError:
            return False
        return (info.st_size, info.st_mtime_ns) != (last.size, last.mtime_ns)

    def _repeats(
        self, root: Path, listing: TreeFiles, changed: Iterable[str] | None
    ) -> RepeatSearch:
        """The secret values of the whole tree, whose repeats are masked in every file."""
        return self.values.search(
            root, listing.with_values, listing.names, self.scanner, set(changed or ())
        )

    def _version_of(
        self,
        root: Path,
        rel: str,
        last: Version | None,
        when: float,
        attribute: Attribute,
        changed: Iterable[str] | None,
        *,
        repeats: RepeatSearch | None,
    ) -> NewVersion | None:
        seen = observe(root, rel, self.scanner, self.max_bytes, repeats)
        if not seen.exists:
            return None
        blob = self.blobs.put(seen.data) if seen.data is not None else None
        if last is not None and not last.is_tombstone and blob is not None and blob == last.blob:
            return None
        kind = _kind(last, changed)
        actor = Actor("baseline")
        if kind != BASELINE:
            actor = _labelled(attribute(rel, seen.mtime_ns / 1e9, kind), repeats)
        note = TOO_LARGE if seen.data is None else ""
        return NewVersion(
            str(root), rel, when, kind, blob, seen.size, seen.mtime_ns, actor, note, seen.masked
        )

    @staticmethod
    def _tombstone(
        root: Path, last: Version, when: float, attribute: Attribute, repeats: RepeatSearch | None
    ) -> NewVersion:
        actor = _labelled(attribute(last.path, when, DELETED), repeats)
        return NewVersion(str(root), last.path, when, DELETED, None, 0, 0, actor)


def _labelled(actor: Actor, repeats: RepeatSearch | None) -> Actor:
    """A session's first prompt, masked by the rules where it was made, masked where it
    repeats a value the tree says is a secret: a label is stored with the version."""
    if not actor.label or not repeats:
        return actor
    return dataclasses.replace(actor, label=masked_repeats(actor.label, repeats))


def _kind(last: Version | None, changed: Iterable[str] | None) -> str:
    if last is None:
        return BASELINE if changed is None else CREATED
    return CREATED if last.is_tombstone else MODIFIED
