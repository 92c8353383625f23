from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_audit.journal.index import Actor, JournalIndex, NewVersion

OLD_SCHEMA = """
CREATE TABLE versions (
    id INTEGER PRIMARY KEY, root TEXT NOT NULL, path TEXT NOT NULL, at REAL NOT NULL,
    kind TEXT NOT NULL, blob TEXT, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    actor TEXT NOT NULL, session TEXT, label TEXT NOT NULL, note TEXT NOT NULL
);
"""


def test_index_of_an_older_version_gains_the_masked_count_empty_and_keeps_its_rows(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "journal"
    folder.mkdir()
    db = sqlite3.connect(folder / "journal.sqlite")
    db.executescript(OLD_SCHEMA)
    with db:
        db.execute(
            "INSERT INTO versions VALUES (1, '/t', 'a.md', 1.0, 'baseline', ?, 5, 0, "
            "'baseline', NULL, '', '')",
            ("ab" * 32,),
        )
    db.close()
    index = JournalIndex(folder)
    [old] = index.history()
    assert (old.path, old.blob, old.masked) == ("a.md", "ab" * 32, None)  # not counted then
    [new] = index.add([NewVersion("/t", "a.md", 2.0, "modified", "cd" * 32, 6, 0,
                                  Actor("outside"), "", 2)])  # fmt: skip
    assert new.masked == 2
    assert [v.masked for v in index.history()] == [2, None]
    index.close()
    assert [v.masked for v in JournalIndex(folder).history()] == [2, None]  # opened again
