"""Writing the plain copy of the dismissed fingerprints the session hook reads.

:mod:`memory_audit.store.dismissals` says why the copy exists and when it is
trusted: only while the database keeps the stamp written in it. The stamp is
taken before and after reading the dismissals; when another process committed
in between, the two differ and nothing is written (that process writes its own
copy after its commit). A copy written late, over a newer one, carries an old
stamp, so it is never trusted: the hook then reads the database. Written without
``fsync`` (the daemon commits often): a copy cut short by a power loss has fewer
lines than its header counts, and is not trusted either.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from memory_audit.atomic import write_atomic
from memory_audit.store.dismissals import DB_NAME, LIST_NAME, database_stamp, list_text


def write_dismissed_list(db: sqlite3.Connection, folder: Path) -> bool:
    """Write the copy of ``db``'s dismissals (no transaction of ours open); True if written."""
    path = os.path.join(folder, DB_NAME)
    before = database_stamp(path)
    rows = db.execute("SELECT fingerprint FROM dismissals").fetchall()
    fingerprints = sorted(str(row[0]) for row in rows)
    if before is None or database_stamp(path) != before:
        return False  # a commit by someone else meanwhile: theirs writes the copy
    if any(fingerprint.split() != [fingerprint] for fingerprint in fingerprints):
        return False  # not one word a line: the hook will read the database
    write_atomic(folder / LIST_NAME, list_text(before, fingerprints), durable=False)
    return True
