"""Reading the user's dismissals without opening (or creating) the full state.

Light on purpose: the session hook uses it at every Claude Code session start,
where importing ``sqlite3`` alone costs about 10 ms (a quarter of its budget).
So the state keeps a plain copy of the dismissed fingerprints beside its
database (:data:`LIST_NAME`, written by
:func:`memory_audit.store.dismissed_list.write_dismissed_list` after each of
its commits), stamped with the database's files as they were when it was read:
their modification times and sizes. The copy is used only while the database
still has that stamp; any later commit, by anyone (another version of the tool,
the ``sqlite3`` shell), changes the stamp, and the dismissals are then read from
the database itself. The database stays the only record: the copy can be stale
or gone, never trusted when it is. A missing or unreadable database means no
dismissals, never an error.

Fingerprints name their tree (model/finding.py, ``scoped``). A database written before
they did holds the bare fingerprint and its tree's root; read here, each is scoped to
its root as :class:`memory_audit.store.state.State` migrates it on its first open
(the list's header says ``v2``: a list of bare fingerprints is never trusted).
"""

from __future__ import annotations

import os

from memory_audit.model.tree_scope import scoped, tree_identity

DB_NAME = "state.db"
LIST_NAME = "dismissed.list"
LIST_HEADER = "memory-audit dismissed fingerprints v2"
SCOPE_KEY, TREE_SCOPED = "fingerprints", "tree-scoped"  # the state's meta row once migrated


def read_dismissed(state_dir: str | os.PathLike[str]) -> frozenset[str]:
    path = os.path.join(state_dir, DB_NAME)
    stamp = database_stamp(path)
    if stamp is None:
        return frozenset()
    listed = _listed(os.path.join(state_dir, LIST_NAME), stamp)
    return listed if listed is not None else _from_database(path)


def database_stamp(path: str) -> str | None:
    """What any commit to the database at ``path`` changes, or None when there is none.

    SQLite in WAL mode appends each commit to ``-wal`` (its time and size change) and
    copies it into the database at checkpoints (the database's change). An empty or
    absent ``-wal`` holds nothing, whenever it was created or truncated."""
    try:
        database = os.stat(path)
    except OSError:
        return None
    try:
        wal = os.stat(f"{path}-wal")
        wal_time, wal_size = (wal.st_mtime_ns, wal.st_size) if wal.st_size else (0, 0)
    except FileNotFoundError:
        wal_time, wal_size = 0, 0
    return f"{database.st_mtime_ns} {database.st_size} {wal_time} {wal_size}"


def list_text(stamp: str, fingerprints: list[str]) -> str:
    """The list file: a header with the stamp and the count, then one fingerprint a line."""
    return "\n".join([f"{LIST_HEADER} {stamp} {len(fingerprints)}", *fingerprints]) + "\n"


def _listed(path: str, stamp: str) -> frozenset[str] | None:
    """The fingerprints in the list when it was written at ``stamp`` and is whole."""
    try:
        with open(path, encoding="utf-8") as handle:
            header, _, body = handle.read().partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    fingerprints = body.split()
    if header != f"{LIST_HEADER} {stamp} {len(fingerprints)}":
        return None
    return frozenset(fingerprints)


def _from_database(path: str) -> frozenset[str]:
    import sqlite3  # only when the list cannot answer: the hook stays light

    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return frozenset()
    try:
        rows = db.execute("SELECT fingerprint, root FROM dismissals").fetchall()
        migrated = db.execute("SELECT value FROM meta WHERE key = ?", (SCOPE_KEY,)).fetchone()
    except sqlite3.Error:
        return frozenset()
    finally:
        db.close()
    if migrated is not None and migrated[0] == TREE_SCOPED:
        return frozenset(str(row[0]) for row in rows)
    return frozenset(migrate_fingerprint(str(fp), root) for fp, root in rows)


def migrate_fingerprint(fingerprint: str, root: str | None) -> str:
    """A dismissal written before fingerprints named their tree, as it reads now; one
    without a tree stays bare (it hides nothing, and ``dismiss --list`` still shows it)."""
    return scoped(tree_identity(root), fingerprint) if root else fingerprint
