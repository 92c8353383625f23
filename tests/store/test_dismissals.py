"""The dismissals as the session hook reads them: the state's plain copy while it is
current, the database whenever it may not be."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_audit.store.dismissals import (
    DB_NAME,
    LIST_HEADER,
    LIST_NAME,
    database_stamp,
    list_text,
    read_dismissed,
)
from memory_audit.store.state import State
from tests.harness import NOW


def copy_header(folder: Path) -> str:
    return (folder / LIST_NAME).read_text().split("\n")[0]


def current_header(folder: Path, count: int) -> str:
    return f"{LIST_HEADER} {database_stamp(str(folder / DB_NAME))} {count}"


def test_the_state_keeps_its_copy_current_through_commits_and_close(tmp_path: Path) -> None:
    state = State(tmp_path)
    assert copy_header(tmp_path) == current_header(tmp_path, 0)
    for fingerprint in ("aaa", "bbb", "ccc"):
        state.dismiss(fingerprint, None, "ok", NOW)
    state.undismiss("bbb")
    assert copy_header(tmp_path) == current_header(tmp_path, 2)
    state.put("unrelated", "commit")  # any commit changes the stamp: the copy follows
    assert copy_header(tmp_path) == current_header(tmp_path, 2)
    state.close()  # the last connection: SQLite checkpoints its WAL
    assert copy_header(tmp_path) == current_header(tmp_path, 2)
    assert (tmp_path / LIST_NAME).read_text().split("\n")[1:] == ["aaa", "ccc", ""]
    assert (tmp_path / LIST_NAME).stat().st_mode & 0o777 == 0o600
    assert read_dismissed(tmp_path) == {"aaa", "ccc"}


def test_two_states_at_once_leave_a_current_copy(tmp_path: Path) -> None:
    """The service and a `review` in a terminal: each commit is followed by a copy."""
    service, review = State(tmp_path), State(tmp_path)
    review.dismiss("aaa", None, "ok", NOW)
    service.put("last_success", "now")
    review.dismiss("bbb", None, "ok", NOW)
    review.close()
    assert copy_header(tmp_path) == current_header(tmp_path, 2)
    service.close()
    assert copy_header(tmp_path) == current_header(tmp_path, 2)
    assert read_dismissed(tmp_path) == {"aaa", "bbb"}


def test_a_copy_is_believed_only_with_the_database_s_current_stamp(tmp_path: Path) -> None:
    state = State(tmp_path)
    state.dismiss("in-database", None, "ok", NOW)
    state.close()
    copy, stamp = tmp_path / LIST_NAME, database_stamp(str(tmp_path / DB_NAME))
    assert stamp is not None
    copy.write_text(list_text(stamp, ["only-in-copy"]))
    assert read_dismissed(tmp_path) == {"only-in-copy"}  # current: it is what the hook reads

    copy.write_text(list_text(stamp, ["only-in-copy", "cut"]).removesuffix("cut\n"))
    assert read_dismissed(tmp_path) == {"in-database"}  # fewer lines than it counts
    copy.write_text("garbage\n")
    assert read_dismissed(tmp_path) == {"in-database"}
    copy.write_bytes(b"\xff\xfe")
    assert read_dismissed(tmp_path) == {"in-database"}

    copy.write_text(list_text(stamp, ["only-in-copy"]))
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # a commit the state did not make
        db.execute("INSERT INTO dismissals VALUES ('by-shell', NULL, 'x', 'now')")
    assert read_dismissed(tmp_path) == {"in-database", "by-shell"}
    copy.unlink()
    assert read_dismissed(tmp_path) == {"in-database", "by-shell"}


def test_no_database_means_no_dismissals_whatever_a_copy_says(tmp_path: Path) -> None:
    (tmp_path / LIST_NAME).write_text(list_text("0 0 0 0", ["stale"]))
    assert read_dismissed(tmp_path) == frozenset()
    assert read_dismissed(tmp_path / "absent") == frozenset()
