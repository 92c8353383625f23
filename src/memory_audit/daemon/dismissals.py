"""Reading the user's dismissals without opening (or creating) the full state.

Light on purpose: the session hook uses it too. A missing or unreadable
database means no dismissals, never an error.
"""

from __future__ import annotations

import os

DB_NAME = "state.db"


def read_dismissed(state_dir: str | os.PathLike[str]) -> frozenset[str]:
    path = os.path.join(state_dir, DB_NAME)
    if not os.path.exists(path):
        return frozenset()
    import contextlib  # only when there is a database to read: the hook stays light
    import sqlite3

    with (
        contextlib.suppress(sqlite3.Error),
        contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)) as db,
    ):
        return frozenset(row[0] for row in db.execute("SELECT fingerprint FROM dismissals"))
    return frozenset()
