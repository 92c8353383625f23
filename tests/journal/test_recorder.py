from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest

from memory_audit.journal.index import Actor
from memory_audit.journal.recorder import TOO_LARGE, Recorder
from memory_audit.journal.store import Journal
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.redact import redact
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES
from tests.support.in_process_daemon import FailsOnBoom
from tests.support.unreadable import run_unprivileged

TOKEN = CASES["github-pat"][0][0][0]


def outside(rel: str, at: float, kind: str) -> Actor:
    return Actor("outside")


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    return Journal(tmp_path / "state")


def recorder(journal: Journal, tmp_path: Path, max_bytes: int = 1024 * 1024) -> Recorder:
    scanner = secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))
    return Recorder(journal.index, journal.blobs, scanner, max_bytes)


def test_recorder_baseline_then_edits_deletes_and_creations(
    tmp_path: Path, journal: Journal
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md", "b.md"), "a.md": memory("a"), "b.md": memory("b")},
    )
    rec = recorder(journal, tmp_path)
    baseline = rec.reconcile(tree, 100.0, outside)
    assert sorted((v.path, v.kind, v.actor.kind) for v in baseline) == [
        ("MEMORY.md", "baseline", "baseline"),
        ("a.md", "baseline", "baseline"),
        ("b.md", "baseline", "baseline"),
    ]
    assert rec.reconcile(tree, 101.0, outside) == []  # nothing changed: nothing recorded

    (tree / "a.md").write_text(memory("a", body="Edited."))
    (tree / "b.md").unlink()
    (tree / "c.md").write_text(memory("c"))
    changed = rec.reconcile(tree, 102.0, outside, changed={"a.md", "b.md", "c.md"})
    assert sorted((v.path, v.kind) for v in changed) == [
        ("a.md", "modified"),
        ("b.md", "deleted"),
        ("c.md", "created"),
    ]
    [edit] = [v for v in changed if v.path == "a.md"]
    assert journal.content(edit) == (tree / "a.md").read_bytes()
    [first] = [v for v in baseline if v.path == "a.md"]
    assert journal.content(first) == memory("a").encode()


def test_recorder_same_content_rewritten_is_not_a_new_version(
    tmp_path: Path, journal: Journal
) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a")})
    rec = recorder(journal, tmp_path)
    rec.reconcile(tree, 1.0, outside)
    (tree / "a.md").write_text(memory("a"))
    assert rec.reconcile(tree, 2.0, outside, changed={"a.md"}) == []


def test_recorder_masks_secrets_before_storing(tmp_path: Path, journal: Journal) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=f"token {TOKEN} here")})
    [version] = recorder(journal, tmp_path).reconcile(tree, 1.0, outside)
    stored = journal.content(version).decode()
    assert TOKEN not in stored
    assert "token ghp_" in stored
    assert stored.endswith("here\n")
    everything = b"".join(p.read_bytes() for p in (tmp_path / "state").rglob("*") if p.is_file())
    assert TOKEN.encode() not in everything


def test_recorder_too_large_is_recorded_but_not_kept(tmp_path: Path, journal: Journal) -> None:
    tree = write_tree(tmp_path / "memory", {"big.md": "x" * (5 * 1024 * 1024)})
    [version] = recorder(journal, tmp_path).reconcile(tree, 1.0, outside)
    assert (version.kept, version.note, version.size) == (False, TOO_LARGE, 5 * 1024 * 1024)
    assert list(journal.blobs.names()) == []


UNREADABLE = """
import sys
sys.path.insert(0, {src!r})
from pathlib import Path
from memory_audit.journal.index import Actor
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.scanner import Scanner
journal = Journal(Path({state!r}))
rec = Recorder(journal.index, journal.blobs, secret_scanner(ScannerConfig(state_dir={state!r})), 1 << 20)
found = rec.reconcile(Path({tree!r}), 2.0, lambda *a: Actor("outside"), changed={{"sub/b.md"}})
print(sorted((v.path, v.kind) for v in found))
"""


def run_without_read_capability(script: str) -> str:
    result = run_unprivileged([sys.executable, "-c", script])
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_recorder_unreadable_folder_is_unknown_not_deleted(
    tmp_path: Path, journal: Journal
) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a"), "sub/b.md": memory("b")})
    recorder(journal, tmp_path).reconcile(tree, 1.0, outside)
    journal.close()
    os.chmod(tree / "sub", 0)
    try:
        src = str(Path(__file__).resolve().parents[2] / "src")
        state = str(tmp_path / "state")
        printed = run_without_read_capability(
            UNREADABLE.format(src=src, state=state, tree=str(tree))
        )
    finally:
        os.chmod(tree / "sub", 0o700)
    assert printed == "[]"  # sub/b.md is not reported deleted
    (tree / "sub/b.md").unlink()
    again = Journal(tmp_path / "state")
    gone = recorder(again, tmp_path).reconcile(tree, 3.0, outside, changed={"sub/b.md"})
    assert [(v.path, v.kind) for v in gone] == [("sub/b.md", "deleted")]


def test_recorder_a_tree_deleted_wholesale_tombstones_every_file(
    tmp_path: Path, journal: Journal
) -> None:
    files = {"MEMORY.md": index("a.md"), "a.md": memory("a"), "deep/b.md": memory("b")}
    tree = write_tree(tmp_path / "memory", files)
    rec = recorder(journal, tmp_path)
    rec.reconcile(tree, 1.0, outside)
    for path in sorted(tree.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    tree.rmdir()
    gone = rec.reconcile(tree, 2.0, outside, changed={"a.md"})
    assert sorted((v.path, v.kind) for v in gone) == sorted((p, "deleted") for p in files)


def test_recorder_after_an_unclean_stop_damaged_recent_blobs_are_found_and_dropped(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a"), "b.md": memory("b")})
    journal = Journal(tmp_path / "state")
    assert journal.repair(now=0.5) == 0  # first start: clean
    versions = recorder(journal, tmp_path).reconcile(tree, 1.0, outside)
    [a] = [v for v in versions if v.path == "a.md"]
    assert a.blob is not None
    journal.blobs.path(a.blob).write_bytes(b"half a blob")  # what a power cut can leave
    journal.close()  # no mark_stopped: the daemon died
    again = Journal(tmp_path / "state")
    assert again.repair(now=2.0) == 1
    [lost] = [v for v in again.index.history(str(tree), "a.md")]
    assert (lost.kept, lost.note) == (False, "content lost: stored copy corrupt")
    again.index.mark_stopped()
    assert again.repair(now=3.0) == 0  # after a clean stop nothing is re-read


def test_recorder_masks_a_utf16_file_in_utf16_and_counts_the_secret(
    tmp_path: Path, journal: Journal
) -> None:
    text = memory("a", body=f"token {TOKEN} here")
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md")})
    (tree / "a.md").write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    [version] = [v for v in recorder(journal, tmp_path).reconcile(tree, 1.0, outside)
                 if v.path == "a.md"]  # fmt: skip
    stored = journal.content(version)
    assert stored == b"\xff\xfe" + text.replace(TOKEN, redact(TOKEN)).encode("utf-16-le")
    assert version.masked == 1
    assert [v.masked for v in journal.index.history(str(tree), "a.md")] == [1]


def test_recorder_a_row_naming_no_content_hash_is_dropped_at_repair_and_nothing_outside_is_touched(
    tmp_path: Path,
) -> None:
    important = tmp_path / "elsewhere" / "important.txt"
    important.parent.mkdir()
    important.write_text("not the journal's")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a")})
    journal = Journal(tmp_path / "state")
    journal.repair(now=0.5)
    [version] = recorder(journal, tmp_path).reconcile(tree, 1.0, outside)
    journal.close()  # no mark_stopped: the next start verifies what this run wrote
    db = sqlite3.connect(tmp_path / "state/journal/journal.sqlite")
    with db:
        db.execute("UPDATE versions SET blob = ? WHERE id = ?", (f"..//{important}", version.id))
    db.close()
    again = Journal(tmp_path / "state")
    assert again.repair(now=2.0) == 1
    assert important.read_text() == "not the journal's"
    [lost] = again.index.history(str(tree), "a.md")
    assert not lost.kept


def test_recorder_keeps_the_other_files_when_a_name_is_not_utf8(
    tmp_path: Path, journal: Journal
) -> None:
    bad = os.fsdecode(b"n\xffo.md")
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    (tree / bad).write_text(memory("n"))
    rec = recorder(journal, tmp_path)
    baseline = rec.reconcile(tree, 100.0, outside)
    assert sorted(v.path for v in baseline) == ["MEMORY.md", "a.md"]
    assert rec.not_recorded == {(str(tree), bad): "its name is not UTF-8"}
    (tree / "a.md").write_text(memory("a", body="Edited."))
    changed = rec.reconcile(tree, 101.0, outside, changed={"a.md", bad})
    assert [(v.path, v.kind) for v in changed] == [("a.md", "modified")]


def test_recorder_a_bug_on_one_file_leaves_that_file_out_and_keeps_the_others(
    tmp_path: Path, journal: Journal
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md"), "a.md": memory("a"), "b.md": memory("b", body="boom")},
    )
    scanner = FailsOnBoom(secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state"))))
    rec = Recorder(journal.index, journal.blobs, scanner, 1 << 20)  # type: ignore[arg-type]
    assert sorted(v.path for v in rec.reconcile(tree, 100.0, outside)) == ["MEMORY.md", "a.md"]
    [(where, why)] = rec.not_recorded.items()
    assert where == (str(tree), "b.md")
    assert why.startswith("IndexError at in_process_daemon.py:")
