"""The journal as a whole: index and blobs under ``<state dir>/journal/``."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from memory_audit.journal.blobs import (
    DEFAULT_MAX_INFLATED,
    BadBlobName,
    BlobStore,
    BlobTooLarge,
    CorruptBlob,
    valid_name,
)
from memory_audit.journal.index import JournalIndex, Version

log = logging.getLogger("memory_audit.journal")
FOLDER = "journal"
# A blob inflating past this many times the largest file the journal keeps is refused.
INFLATION_FACTOR = 4


def inflation_cap(max_file_bytes: int) -> int:
    return max(DEFAULT_MAX_INFLATED, INFLATION_FACTOR * max_file_bytes)


@dataclass(frozen=True)
class Holdings:
    """What deleting the journal would lose: its versions, of how many files, and how many
    of those files are gone from disk, the journal their only copy."""

    versions: int
    files: int
    only_copy: int


def holdings(state_dir: Path) -> Holdings | None:
    """The journal under ``state_dir`` counted without creating it (None: there is none)."""
    if not (state_dir / FOLDER / "journal.sqlite").is_file():
        return None
    journal = Journal(state_dir)
    try:
        versions = journal.index.history()
    finally:
        journal.close()
    latest: dict[tuple[str, str], Version] = {}
    for version in versions:  # newest first
        latest.setdefault((version.root, version.path), version)
    gone = [v for v in latest.values() if v.is_tombstone]
    kept = {(v.root, v.path) for v in versions if v.kept}
    return Holdings(len(versions), len(latest), sum((v.root, v.path) in kept for v in gone))


@dataclass(frozen=True)
class JournalStats:
    versions: int
    bytes_on_disk: int
    oldest: float | None


def why_unreadable(exc: CorruptBlob, max_inflated: int) -> str:
    """Why a version's content was refused, in words for the person who asked for it."""
    if isinstance(exc, BadBlobName):
        return (
            "its journal row names no content hash (the journal index is damaged or was "
            "edited), so nothing was read"
        )
    if isinstance(exc, BlobTooLarge):
        mb = max_inflated // (1024 * 1024)
        return f"its stored content inflates past {mb} MB, so it was not read"
    return "its content is damaged in the journal"


class Journal:
    def __init__(self, state_dir: Path, max_file_bytes: int = 0) -> None:
        self.folder = state_dir / FOLDER
        self.index = JournalIndex(self.folder)
        self.blobs = BlobStore(self.folder / "blobs", inflation_cap(max_file_bytes))

    def close(self) -> None:
        self.index.close()

    def content(self, version: Version) -> bytes:
        """The kept content of a version; a corrupt copy is reported and forgotten, never used.

        A row whose blob is not a content hash, or a blob that inflates past the cap, is
        refused as it is: nothing is read, and nothing is dropped or deleted on its word."""
        if version.blob is None:
            raise CorruptBlob(f"version {version.id} has no kept content")
        try:
            return self.blobs.get(version.blob)
        except (BadBlobName, BlobTooLarge):
            raise  # the caller says why, for this version
        except (CorruptBlob, OSError) as exc:
            self.index.drop_blob(version.blob)
            self.blobs.delete(version.blob)
            log.error("journal blob %s is corrupt or missing; dropped", version.blob[:12])
            raise CorruptBlob(version.blob) from exc

    def repair(self, now: float) -> int:
        """At the daemon's start: remove temporary files a crash left, forget missing blobs,
        and after an unclean stop verify every blob written since that run began."""
        self.blobs.clean_temporary()
        unclean_since = self.index.mark_running(now)
        referenced = self.index.referenced_blobs()
        suspects = {b for b in referenced if not valid_name(b) or not self._present(b)}
        if unclean_since is not None:
            recent = self.index.history(since=unclean_since)
            suspects |= {v.blob for v in recent if v.blob and not self._intact(v.blob)}
        for name in suspects:
            self._forget(name)
        return len(suspects)

    def _forget(self, name: str) -> None:
        """Mark a missing or damaged blob's versions lost; a reference that is no content
        hash names nothing in the store, so nothing is deleted for it."""
        if not valid_name(name):
            self.index.drop_blob(name, "content lost: its reference was no content hash")
            log.error("a journal row names no content hash; its versions are marked lost")
            return
        self.index.drop_blob(name)
        self.blobs.delete(name)
        log.error("journal blob %s is missing or damaged; its versions are marked lost", name[:12])

    def _present(self, name: str) -> bool:
        return self.blobs.path(name).is_file()

    def _intact(self, name: str) -> bool:
        try:
            self.blobs.get(name)
        except (CorruptBlob, OSError):
            return False
        return True

    def collect_garbage(self) -> int:
        """Delete blobs no version refers to any more."""
        referenced = self.index.referenced_blobs()
        orphans = [name for name in self.blobs.names() if name not in referenced]
        for name in orphans:
            self.blobs.delete(name)
        return len(orphans)

    def purge(self, root: str, path: str) -> int:
        """Drop every version of one file (on the user's request)."""
        ids = [v.id for v in self.index.history(root=root, path=path)]
        self.index.delete(ids)
        self.collect_garbage()
        return len(ids)

    def stats(self) -> JournalStats:
        size = sum(self.blobs.stored_size(name) for name in self.blobs.names())
        for name in ("journal.sqlite", "journal.sqlite-wal"):
            path = self.folder / name
            size += path.stat().st_size if path.exists() else 0
        return JournalStats(self.index.count(), size, self.index.oldest())
