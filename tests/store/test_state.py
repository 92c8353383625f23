from __future__ import annotations

import datetime as dt
import logging
import sqlite3
from pathlib import Path

import pytest

from memory_audit.checks import DIMENSIONS
from memory_audit.engine import busy_report
from memory_audit.model.run import Run
from memory_audit.store.state import State
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.location import ProjectLocation
from tests.harness import NOW, index, memory, report, write_tree


def run_of(tree: Path) -> Run:
    return Run((report(tree, "index-drift", "orphans"),), NOW, dimensions=DIMENSIONS)


def test_state_new_and_resolved_findings_between_runs(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md", "gone.md"), "a.md": memory("a"), "b.md": memory("b")},
    )
    state = State(tmp_path / "state")
    first = run_of(tree)
    changes = state.changes(first, frozenset())
    assert changes[str(tree)].baseline  # no last run: nothing is "new"
    assert changes[str(tree)].new == ()
    state.finish_run(state.begin_run("weekly", NOW), first, tmp_path, changes, NOW)
    assert state.open_findings() == {str(tree): 2}
    assert state.last_success() == NOW

    write_tree(tree, {"MEMORY.md": index("a.md", "b.md", "gone.md", "gone2.md")})
    second = run_of(tree)
    changes = state.changes(second, frozenset())
    assert [f.message for f in changes[str(tree)].new] == ["link target `gone2.md` doesn't exist"]
    assert [r.code for r in changes[str(tree)].resolved] == ["orphan-candidate"]
    later = NOW + dt.timedelta(days=7)
    state.finish_run(state.begin_run("weekly", later), second, tmp_path, changes, later)
    assert state.open_findings() == {str(tree): 2}
    assert [(r.kind, r.status, r.new, r.resolved) for r in state.runs()] == [
        ("weekly", "ok", 1, 1),
        ("weekly", "ok", None, 0),
    ]


def test_state_dismissed_findings_are_not_new_and_not_open(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    state = State(tmp_path / "state")
    first = run_of(tree)
    fingerprint = first.reports[0].findings[0].fingerprint
    state.dismiss(fingerprint, str(tree), "known", NOW)
    assert state.changes(first, state.dismissed())[str(tree)].new == ()
    state.finish_run(state.begin_run("weekly", NOW), first, tmp_path, {}, NOW)
    assert state.open_findings() == {}


def test_state_a_tree_being_consolidated_resolves_nothing(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    state = State(tmp_path / "state")
    first = run_of(tree)
    state.finish_run(state.begin_run("weekly", NOW), first, tmp_path, {}, NOW)
    busy = Run((busy_report(TreeRef(tree, ProjectLocation()), 120.0),), NOW, dimensions=DIMENSIONS)
    assert state.changes(busy, frozenset()) == {}
    state.finish_run(state.begin_run("once", NOW), busy, tmp_path, {}, NOW)
    assert state.open_findings() == {str(tree): 1}


def test_state_corrupt_database_is_moved_aside_and_recreated(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    (folder / "state.db").write_bytes(b"this is not a sqlite database at all" * 100)
    with caplog.at_level(logging.ERROR, logger="memory_audit.daemon"):
        state = State(folder)
    assert state.last_success() is None
    assert [p.name.startswith("state.db.corrupt-") for p in folder.iterdir()].count(True) == 1
    assert "moved to state.db.corrupt-" in caplog.text
    state.put("k", "v")
    assert State(folder).get("k") == "v"


def test_state_files_are_private(tmp_path: Path) -> None:
    State(tmp_path / "state").put("k", "v")
    assert (tmp_path / "state").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "state/state.db").stat().st_mode & 0o777 == 0o600


def test_state_alerts_budget_and_watched(tmp_path: Path) -> None:
    state = State(tmp_path / "state")
    assert not state.alerted("k1")
    state.record_alerts([("k1", "secret", "/t", "a.md")], NOW)
    assert state.alerted("k1")
    assert state.alert_count() == 1
    state.set_over_budget("/t", True)
    assert state.over_budget("/t")
    assert not state.over_budget("/u")
    state.set_watched({"/t": "native", "/u": "polling"}, NOW)
    assert state.watched() == {"/t": "native", "/u": "polling"}
    with sqlite3.connect(tmp_path / "state/state.db") as db:
        assert db.execute("SELECT COUNT(*) FROM alerts").fetchone()[0] == 1


def test_state_transcript_offsets_survive_a_restart_and_a_deleted_one_is_forgotten(
    tmp_path: Path,
) -> None:
    state = State(tmp_path)
    state.set_transcript_offsets({"a": (1, 2, 300, "seam-a"), "b": (1, 3, 40, "seam-b")})
    state.set_transcript_offsets({"a": (1, 2, 350, "seam-a2")}, gone=["b"])
    state.close()
    assert State(tmp_path).transcript_offsets() == {"a": (1, 2, 350, "seam-a2")}


def test_state_the_first_source_to_alert_for_a_secret_keeps_it(tmp_path: Path) -> None:
    state = State(tmp_path)
    assert state.secret_source("fp1") is None
    state.note_secrets(["fp1"], "transcript", NOW)
    state.note_secrets(["fp1", "fp2"], "memory", NOW)
    assert state.secret_source("fp1") == "transcript"
    assert state.secret_source("fp2") == "memory"
