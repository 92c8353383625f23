"""The service's memory: SQLite under ``user_state_dir("memory-audit")``.

Runs, the history of every finding (first seen, last seen, resolved), alerts
already sent and alerts no notification server has accepted yet, dismissals,
and which trees are watched how. Only fingerprints, paths and redacted
messages are stored, never a secret. A database that
SQLite cannot read is moved aside and recreated, with a log line.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_audit.atomic import ensure_private_dir
from memory_audit.model.changes import Changes, Resolved, TrendPoint, is_baseline
from memory_audit.model.run import Run, TreeReport
from memory_audit.store.dismissals import DB_NAME, SCOPE_KEY, TREE_SCOPED, migrate_fingerprint
from memory_audit.store.dismissed_list import write_dismissed_list

log = logging.getLogger("memory_audit.daemon")
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,
    status TEXT NOT NULL, folder TEXT, trees INTEGER, findings INTEGER, new INTEGER,
    resolved INTEGER
);
CREATE TABLE IF NOT EXISTS run_counts (
    run_id INTEGER NOT NULL, root TEXT NOT NULL, project TEXT, dimension TEXT NOT NULL,
    count INTEGER NOT NULL, index_lines INTEGER NOT NULL, index_bytes INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS findings (
    root TEXT NOT NULL, fingerprint TEXT NOT NULL, dimension TEXT NOT NULL, code TEXT NOT NULL,
    path TEXT NOT NULL, message TEXT NOT NULL, first_seen TEXT NOT NULL, last_seen TEXT NOT NULL,
    resolved_at TEXT, PRIMARY KEY (root, fingerprint)
);
CREATE TABLE IF NOT EXISTS alerts (
    key TEXT PRIMARY KEY, kind TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pending_alerts (
    key TEXT PRIMARY KEY, kind TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL,
    text TEXT NOT NULL, raised_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS budget (root TEXT PRIMARY KEY, over INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS dismissals (
    fingerprint TEXT PRIMARY KEY, root TEXT, reason TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS watched (
    root TEXT PRIMARY KEY, observer TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS secrets_alerted (
    fingerprint TEXT PRIMARY KEY, source TEXT NOT NULL, raised_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS transcript_offsets (
    key TEXT PRIMARY KEY, device INTEGER NOT NULL, inode INTEGER NOT NULL,
    offset INTEGER NOT NULL, seam TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class RunRecord:
    id: int
    kind: str
    started_at: dt.datetime
    finished_at: dt.datetime | None
    status: str
    folder: str | None
    trees: int
    findings: int
    new: int | None  # None: the first run, a baseline
    resolved: int


def now_text(when: dt.datetime) -> str:
    return when.astimezone().isoformat(timespec="seconds")


def parse_time(text: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(text) if text else None


class State:
    def __init__(self, folder: Path) -> None:
        ensure_private_dir(folder)
        self.path = folder / DB_NAME
        self.db = self._open()
        self._scope_fingerprints()
        self._copy_dismissals()

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_name(f"{DB_NAME}.corrupt-{dt.datetime.now():%Y%m%dT%H%M%S}")
            log.error(
                "state database %s unreadable (%s); moved to %s and recreated",
                self.path,
                exc,
                aside.name,
            )
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{self.path}{suffix}")
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        fresh = not self.path.exists()
        if fresh:
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        db = sqlite3.connect(self.path, timeout=10)
        try:
            db.execute("PRAGMA busy_timeout = 10000")
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            db.execute("PRAGMA journal_mode = WAL")
            db.executescript(SCHEMA)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        os.chmod(self.path, 0o600)
        return db

    def close(self) -> None:
        """Closing the last connection checkpoints the WAL into the database, which would
        make the hook's copy of the dismissals stale: the WAL is emptied first (waiting
        half a second at most for a writer) and the copy written after it."""
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA busy_timeout = 500")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        self._copy_dismissals()
        self.db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self.db:
            yield self.db
        self._copy_dismissals()

    def _copy_dismissals(self) -> None:
        """The plain copy of the dismissals the session hook reads (store/dismissals.py).
        Not written, it is not trusted either: the hook then reads this database."""
        with contextlib.suppress(OSError, sqlite3.Error):
            write_dismissed_list(self.db, self.path.parent)

    def _scope_fingerprints(self) -> None:
        """Once: the dismissals and finding history written before fingerprints named
        their tree, scoped to the tree each row names. A dismissal without a tree is
        scoped to every tree whose history has that fingerprint (where it was seen)."""
        if self.get(SCOPE_KEY) == TREE_SCOPED:
            return
        with self.transaction() as db:
            seen = db.execute("SELECT root, fingerprint FROM findings").fetchall()
            dismissals = db.execute(
                "SELECT fingerprint, root, reason, created_at FROM dismissals"
            ).fetchall()
            db.execute("DELETE FROM dismissals")
            for fingerprint, root, reason, created in dismissals:
                roots = [root] if root else [r for r, f in seen if f == fingerprint] or [None]
                for each in roots:
                    db.execute(
                        "INSERT OR REPLACE INTO dismissals VALUES (?, ?, ?, ?)",
                        (migrate_fingerprint(fingerprint, each), each, reason, created),
                    )
            for root, fingerprint in seen:
                db.execute(
                    "UPDATE findings SET fingerprint = ? WHERE root = ? AND fingerprint = ?",
                    (migrate_fingerprint(fingerprint, root), root, fingerprint),
                )
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (SCOPE_KEY, TREE_SCOPED))

    # ---- meta ---------------------------------------------------------------

    def get(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def put(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def last_success(self) -> dt.datetime | None:
        return parse_time(self.get("last_success"))

    # ---- runs ---------------------------------------------------------------

    def mark_interrupted(self) -> int:
        """Runs still ``running`` when no daemon runs were cut short (killed, power lost)."""
        with self.transaction() as db:
            cursor = db.execute("UPDATE runs SET status = 'interrupted' WHERE status = 'running'")
        return cursor.rowcount

    def begin_run(self, kind: str, started: dt.datetime) -> int:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO runs (kind, started_at, status) VALUES (?, ?, 'running')",
                (kind, now_text(started)),
            )
        return int(cursor.lastrowid or 0)

    def interrupt_run(self, run_id: int, stopped: dt.datetime) -> None:
        """A run the daemon cut short when told to stop (SIGTERM)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE runs SET status = 'interrupted', finished_at = ? "
                "WHERE id = ? AND status = 'running'",
                (now_text(stopped), run_id),
            )

    def fail_run(self, run_id: int, finished: dt.datetime) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE runs SET status = 'failed', finished_at = ? WHERE id = ?",
                (now_text(finished), run_id),
            )

    def changes(self, run: Run, dismissed: frozenset[str]) -> dict[str, Changes]:
        """New and resolved findings per tree, against what is open in the state; on the
        first run, a baseline (nothing is new when there was no last run)."""
        first = self.last_success() is None
        result = {}
        for report in run.reports:
            if not report.audited:
                continue  # nothing new, nothing resolved: its history stays as it was
            root = str(report.root)
            open_rows = {
                row[0]: row[1:]
                for row in self.db.execute(
                    "SELECT fingerprint, dimension, code, path, message FROM findings "
                    "WHERE root = ? AND resolved_at IS NULL",
                    (root,),
                )
            }
            current = {f.fingerprint for f in report.findings}
            new = tuple(
                f
                for f in report.findings
                if f.fingerprint not in open_rows and f.fingerprint not in dismissed
            )
            resolved = tuple(Resolved(*v) for k, v in sorted(open_rows.items()) if k not in current)
            result[root] = Changes(baseline=True) if first else Changes(new, resolved)
        return result

    def finish_run(
        self,
        run_id: int,
        run: Run,
        folder: Path,
        changes: dict[str, Changes],
        finished: dt.datetime,
    ) -> None:
        """Record the run, the findings history and success: one transaction, after the
        reports are written."""
        stamp = now_text(finished)
        with self.transaction() as db:
            for report in run.reports:
                self._record_tree(db, run_id, report, stamp)
            new = None if is_baseline(changes) else sum(len(c.new) for c in changes.values())
            resolved = sum(len(c.resolved) for c in changes.values())
            db.execute(
                "UPDATE runs SET status = 'ok', finished_at = ?, folder = ?, trees = ?, "
                "findings = ?, new = ?, resolved = ? WHERE id = ?",
                (stamp, str(folder), len(run.reports), run.total, new, resolved, run_id),
            )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('last_success', ?)", (stamp,))

    def _record_tree(
        self, db: sqlite3.Connection, run_id: int, report: TreeReport, stamp: str
    ) -> None:
        if not report.audited:
            return  # not audited this time: its history stays as it was
        root = str(report.root)
        current = {f.fingerprint for f in report.findings}
        for finding in report.findings:
            db.execute(
                "INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL) "
                "ON CONFLICT (root, fingerprint) DO UPDATE SET last_seen = excluded.last_seen, "
                "message = excluded.message, path = excluded.path, resolved_at = NULL",
                (
                    root,
                    finding.fingerprint,
                    finding.dimension,
                    finding.code,
                    finding.path,
                    finding.message,
                    stamp,
                    stamp,
                ),
            )
        for (fingerprint,) in db.execute(
            "SELECT fingerprint FROM findings WHERE root = ? AND resolved_at IS NULL", (root,)
        ).fetchall():
            if fingerprint not in current:
                db.execute(
                    "UPDATE findings SET resolved_at = ? WHERE root = ? AND fingerprint = ?",
                    (stamp, root, fingerprint),
                )
        for dimension, count in report.counts.items():
            db.execute(
                "INSERT INTO run_counts VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    root,
                    report.project,
                    dimension,
                    count,
                    report.health.index_lines,
                    report.health.index_bytes,
                ),
            )
        if not report.counts:
            db.execute(
                "INSERT INTO run_counts VALUES (?, ?, ?, '', 0, ?, ?)",
                (
                    run_id,
                    root,
                    report.project,
                    report.health.index_lines,
                    report.health.index_bytes,
                ),
            )

    def runs(self, limit: int = 50) -> list[RunRecord]:
        rows = self.db.execute(
            "SELECT id, kind, started_at, finished_at, status, folder, trees, findings, new, "
            "resolved FROM runs ORDER BY id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [
            RunRecord(
                r[0],
                r[1],
                dt.datetime.fromisoformat(r[2]),
                parse_time(r[3]),
                r[4],
                r[5],
                r[6] or 0,
                r[7] or 0,
                r[8],  # None: the first run, a baseline
                r[9] or 0,
            )
            for r in rows
        ]

    def open_findings(self) -> dict[str, int]:
        """Root -> findings currently open (not resolved, not dismissed)."""
        rows = self.db.execute(
            "SELECT root, COUNT(*) FROM findings WHERE resolved_at IS NULL AND fingerprint NOT IN "
            "(SELECT fingerprint FROM dismissals) GROUP BY root"
        ).fetchall()
        return {str(root): int(count) for root, count in rows}

    def trend(self, limit_runs: int = 26) -> tuple[TrendPoint, ...]:
        """Each earlier successful run's counts per tree and dimension, oldest first."""
        rows = self.db.execute(
            "SELECT r.id, r.finished_at, c.root, c.dimension, c.count, c.index_lines, "
            "c.index_bytes FROM run_counts c JOIN runs r ON r.id = c.run_id "
            "WHERE r.status = 'ok' AND r.id IN "
            "(SELECT id FROM runs WHERE status = 'ok' ORDER BY id DESC LIMIT ?) ORDER BY r.id",
            (limit_runs,),
        ).fetchall()
        return tuple(TrendPoint(*row) for row in rows)

    # ---- alerts, budget, dismissals, watched --------------------------------

    def alerted(self, key: str) -> bool:
        return self.db.execute("SELECT 1 FROM alerts WHERE key = ?", (key,)).fetchone() is not None

    def record_alerts(self, alerts: Iterable[tuple[str, str, str, str]], when: dt.datetime) -> None:
        """Alerts a notification server accepted: never sent again, no longer pending."""
        rows = list(alerts)
        with self.transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO alerts VALUES (?, ?, ?, ?, ?)",
                [(*alert, now_text(when)) for alert in rows],
            )
            db.executemany("DELETE FROM pending_alerts WHERE key = ?", [(r[0],) for r in rows])

    def hold_alerts(
        self, alerts: Iterable[tuple[str, str, str, str, str]], when: dt.datetime
    ) -> None:
        """Alerts raised but not accepted yet (key, kind, root, path, redacted text): a
        restart sends them again."""
        with self.transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO pending_alerts VALUES (?, ?, ?, ?, ?, ?)",
                [(*alert, now_text(when)) for alert in alerts],
            )

    def held_alerts(self) -> list[tuple[str, str, str, str, str]]:
        """Pending alerts, oldest first."""
        rows = self.db.execute(
            "SELECT key, kind, root, path, text FROM pending_alerts ORDER BY raised_at, rowid"
        )
        return [(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]

    def alert_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM alerts").fetchone()[0])

    def over_budget(self, root: str) -> bool:
        row = self.db.execute("SELECT over FROM budget WHERE root = ?", (root,)).fetchone()
        return bool(row and row[0])

    def set_over_budget(self, root: str, over: bool) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO budget VALUES (?, ?)", (root, int(over)))

    def dismiss(self, fingerprint: str, root: str | None, reason: str, when: dt.datetime) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO dismissals VALUES (?, ?, ?, ?)",
                (fingerprint, root, reason, now_text(when)),
            )

    def dismissed(self) -> frozenset[str]:
        return frozenset(r[0] for r in self.db.execute("SELECT fingerprint FROM dismissals"))

    def dismissals(self) -> list[tuple[str, str | None, str, str]]:
        """(fingerprint, tree root or None, reason, when), oldest first."""
        return [
            (str(r[0]), r[1], str(r[2]), str(r[3]))
            for r in self.db.execute(
                "SELECT fingerprint, root, reason, created_at FROM dismissals "
                "ORDER BY created_at, fingerprint"
            )
        ]

    def undismiss(self, fingerprint: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM dismissals WHERE fingerprint = ?", (fingerprint,))

    def set_watched(self, observers: dict[str, str], when: dt.datetime) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM watched")
            db.executemany(
                "INSERT INTO watched VALUES (?, ?, ?)",
                [(root, kind, now_text(when)) for root, kind in sorted(observers.items())],
            )

    def watched(self) -> dict[str, str]:
        return {str(r[0]): str(r[1]) for r in self.db.execute("SELECT root, observer FROM watched")}

    # ---- secrets alerted, from memory or a transcript ------------------------

    def secret_source(self, fingerprint: str) -> str | None:
        """Where a secret (its salted fingerprint) first alerted: "memory", "transcript"."""
        row = self.db.execute(
            "SELECT source FROM secrets_alerted WHERE fingerprint = ?", (fingerprint,)
        ).fetchone()
        return str(row[0]) if row else None

    def note_secrets(self, fingerprints: Iterable[str], source: str, when: dt.datetime) -> None:
        """The first source to alert for a secret keeps it (the other then stays quiet)."""
        with self.transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO secrets_alerted VALUES (?, ?, ?)",
                [(f, source, now_text(when)) for f in fingerprints],
            )

    # ---- how far each session transcript was read ----------------------------

    def transcript_offsets(self) -> dict[str, tuple[int, int, int, str]]:
        """(device, inode, offset, seam) by the transcript's key (a hash of its path)."""
        rows = self.db.execute("SELECT key, device, inode, offset, seam FROM transcript_offsets")
        return {str(r[0]): (int(r[1]), int(r[2]), int(r[3]), str(r[4])) for r in rows}

    def set_transcript_offsets(
        self, held: dict[str, tuple[int, int, int, str]], gone: Iterable[str] = ()
    ) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO transcript_offsets VALUES (?, ?, ?, ?, ?)",
                [(key, *where) for key, where in held.items()],
            )
            db.executemany("DELETE FROM transcript_offsets WHERE key = ?", [(k,) for k in gone])
