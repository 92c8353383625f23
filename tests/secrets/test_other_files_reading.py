"""Files that are no memories, read for secrets alone: how the tree reads them, what the
change alert reads, and what the CLI prints. (The secrets check's own findings on them are
in ``tests/checks/test_secrets_other_files.py``.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_audit.checks.secrets import Options as SecretsOptions
from memory_audit.daemon.alerts import Alert, alerts_for, scan_file
from memory_audit.daemon.change_alerts import MAX_MATCHES_PER_FILE, _scan_all
from memory_audit.daemon.clock import local_now
from memory_audit.engine import audit_tree
from memory_audit.secrets.file_text import rules_text
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from memory_audit.tree import snapshot
from memory_audit.tree.walk import binary_at_start
from tests.checks.test_secrets_other_files import AGENT_KEY, LOG, REGISTRATION, TOKEN, _tree
from tests.harness import load


def test_a_memory_is_read_as_written_and_an_escaped_backslash_is_no_escape() -> None:
    text = f"a\\n{TOKEN}\\n\\\\n\\tb"  # the escapes as a JSON file holds them
    assert rules_text("notes.md", text) == text
    blanked = rules_text("log.jsonl", text)
    assert len(blanked) == len(text)
    assert blanked == f"a  {TOKEN}  \\\\n  b"


def test_past_the_total_read_the_rest_is_counted_as_not_scanned(
    tree_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the snapshot holds their text while the checks run: a year of logs is read up to a
    # total, the files past it counted (in path order: the log of a later day is the one left)
    monkeypatch.setattr(snapshot, "OTHER_TOTAL_BYTES", 3 * len(LOG))
    _tree(tree_dir, {f"raw/2026-11-0{day}.jsonl": LOG for day in range(1, 5)})
    tree = load(tree_dir)
    assert sorted(tree.other_texts) == [f"raw/2026-11-0{day}.jsonl" for day in (1, 2, 3)]
    assert tree.others_too_large == 1


def _audit(tree_dir: Path, home: Path, output_format: str) -> subprocess.CompletedProcess[str]:
    """The CLI's audit of the tree, a process of its own, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", str(tree_dir), "--format", output_format],
        capture_output=True,
        text=True,
        env=os.environ | {"HOME": str(home), "NO_COLOR": "1"},
        check=False,
    )


def test_no_output_holds_the_value(tree_dir: Path, isolated_home: Path) -> None:
    _tree(tree_dir, {"raw/chat.jsonl": LOG, "quillpost.json": REGISTRATION})
    for fmt in ("text", "json", "markdown", "sarif"):
        done = _audit(tree_dir, isolated_home, fmt)
        assert done.returncode == 1, done.stderr
        assert "raw/chat.jsonl" in done.stdout
        assert "quillpost.json" in done.stdout
        for value in (TOKEN, AGENT_KEY):
            assert value not in done.stdout + done.stderr
        if fmt == "json":
            assert json.loads(done.stdout)["reports"][0]["files_scanned"]["other"] == 2


def test_a_secret_in_a_hidden_folders_name_is_masked_and_found(
    tree_dir: Path, isolated_home: Path
) -> None:
    # the folder is listed nowhere else (no memory lives there): its name is read all the same
    _tree(tree_dir, {f".cache-{TOKEN}/chat.jsonl": '{"text":"hi"}\n'})
    done = _audit(tree_dir, isolated_home, "json")
    assert done.returncode == 1, done.stderr
    assert TOKEN not in done.stdout + done.stderr
    found = json.loads(done.stdout)["reports"][0]["findings"]
    assert [f["code"] for f in found] == ["secret-in-name"]


def test_the_change_alert_reads_no_file_the_walk_would_not(tmp_path: Path) -> None:
    # a folder linked out of the tree, and a hidden folder that is a link: the audit's walk
    # reads neither (it follows no link out of the tree, and none at all in hidden folders)
    root = _tree(tmp_path / "memory", {})
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "ssh.txt").write_text(f"deploy token {TOKEN}\n")
    (outside / "notes.md").write_text(f"token {TOKEN}\n")
    (root / "shared").symlink_to(outside)
    (root / ".private").symlink_to(outside)
    inside = root / "kept"
    inside.mkdir()
    (inside / "log.txt").write_text(f"deploy token {TOKEN}\n")
    (root / ".cache").mkdir()
    (root / ".cache/linked").symlink_to(inside)
    scanner = secret_scanner(SecretsOptions())
    for path in ("shared/ssh.txt", "shared/notes.md", ".private/ssh.txt", ".cache/linked/log.txt"):
        assert scan_file(root / path, root, scanner, 1 << 20) is None, path
    assert set(load(root).other_texts) == {"kept/log.txt"}
    scan = scan_file(root / "kept/log.txt", root, scanner, 1 << 20)
    assert scan is not None
    assert len(scan.matches) == 1


def test_a_tree_loaded_reads_no_other_file_until_asked(tree_dir: Path) -> None:
    # review's and --all's cross-store pass load every store at once to compare their
    # notes: none of them holds a store's logs for it
    _tree(tree_dir, {"raw/chat.jsonl": LOG})
    tree = load(tree_dir)
    assert not tree.not_memories
    assert "_others_read" not in vars(tree)
    # the audit's secret boundary asks, whatever checks run: a value the log holds is
    # masked wherever another check would quote it
    audit_tree(tree, ("orphans",))
    assert set(tree.other_texts) == {"raw/chat.jsonl"}


def test_a_binary_file_is_told_by_its_first_bytes(tmp_path: Path) -> None:
    # a database or an image among the logs is left unread, not read whole to be sniffed
    database = tmp_path / "state.sqlite3"
    database.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 64 + TOKEN.encode())
    text = tmp_path / "notes.txt"
    text.write_text(f"the token is {TOKEN}\n" * 1000)
    wide = tmp_path / "wide.txt"
    wide.write_bytes("the token is here\n".encode("utf-16"))
    assert binary_at_start(database)
    assert not binary_at_start(text)
    assert not binary_at_start(wide)  # UTF-16 text holds NULs, and is text
    assert not binary_at_start(tmp_path)  # no regular file: the read says what it is


def test_a_token_appended_to_a_log_full_of_alerted_secrets_alerts(
    tree_dir: Path, tmp_path: Path
) -> None:
    # a busy ops chat: 101 commands with a password each, all alerted; the alert checks a
    # file's first and last matches, and a log grows at its end
    lines = [
        json.dumps({"role": "user", "text": f"run: mysql -u root -pQx{i:03d}Zr7!v db{i}"})
        for i in range(101)
    ]
    _tree(tree_dir, {"raw/ops.jsonl": "\n".join(lines) + "\n"})
    scanner = secret_scanner(SecretsOptions())
    state = State(tmp_path / "state")

    def alerts() -> list[Alert]:
        found: list[Alert] = []
        for scan in _scan_all({tree_dir / "raw/ops.jsonl"}, tree_dir, scanner, 1 << 20):
            found += alerts_for(scan, state, frozenset())
        return found

    first = alerts()
    assert len(first) == MAX_MATCHES_PER_FILE
    state.record_alerts([(a.key, a.kind, a.root, a.path) for a in first], local_now())
    with (tree_dir / "raw/ops.jsonl").open("a") as log:
        log.write(json.dumps({"role": "user", "text": f"new CI token {TOKEN}"}) + "\n")
    [appended] = [a for a in alerts() if a.key not in {b.key for b in first}]
    state.close()
    assert appended.text.startswith("raw/ops.jsonl:102 ")
