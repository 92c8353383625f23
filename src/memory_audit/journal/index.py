"""The journal's index: one SQLite row per version of a memory file.

A version is a file's content at the moment it settled after a change (its
blob), a tombstone when it was deleted, or a note that it was too large to
keep. Each row says who made the change, as far as it can be told. Only
paths, sizes, times, blob names and shortened, masked labels are stored.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory_audit.atomic import ensure_private_dir

log = logging.getLogger("memory_audit.journal")
DB_NAME = "journal.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY, root TEXT NOT NULL, path TEXT NOT NULL, at REAL NOT NULL,
    kind TEXT NOT NULL, blob TEXT, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    actor TEXT NOT NULL, session TEXT, label TEXT NOT NULL, note TEXT NOT NULL, masked INTEGER
);
CREATE INDEX IF NOT EXISTS versions_by_file ON versions (root, path, id);
CREATE INDEX IF NOT EXISTS versions_by_time ON versions (at);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# ``masked``: how many secrets were masked in the kept content; NULL in rows recorded
# before the journal counted them (an index of an older version gains the column empty).
MASKED_COLUMN = "ALTER TABLE versions ADD COLUMN masked INTEGER"
INSERT = (
    "INSERT INTO versions (id, root, path, at, kind, blob, size, mtime_ns, actor, session, label, "
    "note, masked) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
LATEST = (
    "SELECT id, root, path, at, kind, blob, size, mtime_ns, actor, session, label, note, "
    "masked "
    "FROM versions WHERE id IN (SELECT MAX(id) FROM versions WHERE root = ? GROUP BY path)"
)
HISTORY = (
    "SELECT id, root, path, at, kind, blob, size, mtime_ns, actor, session, label, note, "
    "masked "
    "FROM versions WHERE (?1 IS NULL OR root = ?1) AND (?2 IS NULL OR path = ?2) "
    "AND (?3 IS NULL OR at >= ?3) ORDER BY id DESC LIMIT ?4"
)
BY_ID = (
    "SELECT id, root, path, at, kind, blob, size, mtime_ns, actor, session, label, note, "
    "masked "
    "FROM versions WHERE id = ?"
)
# Kinds of change. A tombstone has no blob; "too-large" is a change whose content was not kept.
BASELINE, CREATED, MODIFIED, DELETED, RESTORED = (
    "baseline",
    "created",
    "modified",
    "deleted",
    "restored",
)


@dataclass(frozen=True)
class Actor:
    """Who changed a file: best effort, and labelled as such wherever it is shown."""

    kind: str  # "session" | "consolidation" | "outside" | "baseline" | "restore"
    session: str | None = None
    label: str = ""  # a session's first prompt (shortened, masked), or the user's reason

    def describe(self) -> str:
        if self.kind == "session":
            short = (self.session or "")[:8]
            return f"Claude Code session {short}" + (f' ("{self.label}")' if self.label else "")
        return {
            "consolidation": "Claude Code consolidation (auto dream)",
            "outside": "outside Claude Code",
            "baseline": "first seen by the journal",
            "restore": "memory-audit restore" + (f" ({self.label})" if self.label else ""),
            "review": "memory-audit review",
        }.get(self.kind, self.kind)

    def by(self) -> str:
        """Who, as it reads after the change it made: "by Claude Code session …", but
        "outside Claude Code" and "first seen by the journal" as they are."""
        return self.describe() if self.kind in ("outside", "baseline") else f"by {self.describe()}"


@dataclass(frozen=True)
class NewVersion:
    """A version about to be recorded (the index assigns its id)."""

    root: str
    path: str
    at: float
    kind: str
    blob: str | None
    size: int
    mtime_ns: int
    actor: Actor
    note: str = ""
    masked: int | None = 0  # secrets masked in the kept content; None: not counted (older row)


@dataclass(frozen=True)
class Version(NewVersion):
    """A recorded version: the same fields, and the id the index gave it."""

    id: int = field(kw_only=True)

    @property
    def is_tombstone(self) -> bool:
        return self.kind == DELETED

    @property
    def kept(self) -> bool:
        return self.blob is not None


def _version(row: Sequence[object]) -> Version:
    vid, root, path, at, kind, blob, size, mtime_ns, actor, session, label, note, masked = row
    return Version(
        str(root),
        str(path),
        float(at),  # type: ignore[arg-type]
        str(kind),
        None if blob is None else str(blob),
        int(size),  # type: ignore[call-overload]
        int(mtime_ns),  # type: ignore[call-overload]
        Actor(str(actor), None if session is None else str(session), str(label)),
        str(note),
        None if masked is None else int(masked),  # type: ignore[call-overload]
        id=int(vid),  # type: ignore[call-overload]
    )


def _add_masked_column(db: sqlite3.Connection) -> None:
    columns = {str(row[1]) for row in db.execute("PRAGMA table_info(versions)")}
    if "masked" in columns:
        return
    try:
        db.execute(MASKED_COLUMN)
    except sqlite3.OperationalError as exc:  # another process added it meanwhile
        if "duplicate column" not in str(exc):
            raise


class JournalIndex:
    """Thread-safe: the daemon records from worker threads, commands read from theirs."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        ensure_private_dir(self.folder)
        path = self.folder / DB_NAME
        try:
            return self._connect(path)
        except sqlite3.DatabaseError as exc:
            aside = path.with_name(f"{DB_NAME}.corrupt-{int(time.time())}")
            with contextlib.suppress(OSError):
                os.replace(path, aside)
            log.error("journal index unreadable (%s); moved to %s and started anew", exc, aside)
            return self._connect(path)

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        db = sqlite3.connect(path, timeout=10.0, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA secure_delete=ON")  # a relabelled or dropped row leaves no trace
        db.executescript(SCHEMA)
        _add_masked_column(db)
        db.execute("SELECT COUNT(*) FROM versions").fetchone()
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            return list(self._db.execute(sql, args).fetchall())

    def add(self, versions: Iterable[NewVersion]) -> list[Version]:
        added = []
        with self._transaction() as db:
            for v in versions:
                values = (v.root, v.path, v.at, v.kind, v.blob, v.size, v.mtime_ns)
                who = (v.actor.kind, v.actor.session, v.actor.label, v.note, v.masked)
                cursor = db.execute(INSERT, (*values, *who))
                added.append(_version((cursor.lastrowid, *values, *who)))
        return added

    def latest_by_path(self, root: str) -> dict[str, Version]:
        rows = self._query(
            LATEST,
            (root,),
        )
        return {v.path: v for v in map(_version, rows)}

    def history(
        self,
        root: str | None = None,
        path: str | None = None,
        since: float | None = None,
        limit: int = 1_000_000,
    ) -> list[Version]:
        """Versions newest first, filtered by tree, file and time."""
        rows = self._query(
            HISTORY,
            (root, path, since, limit),
        )
        return [_version(r) for r in rows]

    def get(self, version_id: int) -> Version | None:
        rows = self._query(BY_ID, (version_id,))
        return _version(rows[0]) if rows else None

    def roots(self) -> list[str]:
        return [str(r[0]) for r in self._query("SELECT DISTINCT root FROM versions ORDER BY 1")]

    def referenced_blobs(self) -> set[str]:
        rows = self._query("SELECT DISTINCT blob FROM versions WHERE blob IS NOT NULL")
        return {str(r[0]) for r in rows}

    def delete(self, ids: Iterable[int]) -> int:
        chosen = [(i,) for i in ids]
        with self._transaction() as db:
            db.executemany("DELETE FROM versions WHERE id = ?", chosen)
        return len(chosen)

    def drop_blob(self, name: str, note: str = "content lost: stored copy corrupt") -> int:
        """Forget a blob found corrupt: its versions stay, marked as not kept."""
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE versions SET blob = NULL, note = ? WHERE blob = ?", (note, name)
            )
            return cursor.rowcount

    def repoint(self, root: str, old: str, new: str, masked: int) -> int:
        """Point ``root``'s versions kept as blob ``old`` at ``new``: the same content with
        ``masked`` more secrets masked (a count unknown before stays unknown)."""
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE versions SET blob = ?, masked = masked + ? WHERE root = ? AND blob = ?",
                (new, masked, root, old),
            )
            return cursor.rowcount

    def labels(self) -> list[str]:
        rows = self._query("SELECT DISTINCT label FROM versions WHERE label != ''")
        return [str(r[0]) for r in rows]

    def relabel(self, renamed: Mapping[str, str]) -> int:
        """Replace labels (old -> new) in every row, and fold the change into the database
        file at once, so the old text is gone from it and from the write-ahead log."""
        if not renamed:
            return 0
        with self._transaction() as db:
            db.executemany(
                "UPDATE versions SET label = ? WHERE label = ?",
                [(new, old) for old, new in renamed.items()],
            )
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return len(renamed)

    def oldest(self) -> float | None:
        row = self._query("SELECT MIN(at) FROM versions")
        return float(row[0][0]) if row and row[0][0] is not None else None  # type: ignore[arg-type]

    def count(self) -> int:
        count: int = self._query("SELECT COUNT(*) FROM versions")[0][0]  # type: ignore[assignment]
        return count

    def mark_running(self, now: float) -> float | None:
        """The daemon starts recording; returns when an unclean run began (None: clean)."""
        with self._transaction() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'running_since'").fetchone()
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('running_since', ?)", (now,)
            )
        return float(row[0]) if row else None

    def mark_stopped(self) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM meta WHERE key = 'running_since'")
