"""File names, contents and reasons with control characters, through `history`, the
`restore` preview and `dismiss`: shown escaped, so a name holding a newline cannot print a line of its own and
no escape sequence reaches the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.test_cli import cli
from tests.e2e.test_restore import journal_of, restore
from tests.harness import index, memory, write_tree

FORGED = "a\nFORGED: restore done\x1b]0;owned\x07.md"
CONTROLS = ("\x1b", "\x07", "\x9b")


def history(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "memory_audit", "history", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=True,
    )
    return done.stdout


def assert_nothing_forged(shown: str) -> None:
    assert not any(line.startswith("FORGED") for line in shown.splitlines()), shown
    assert not any(c in shown for c in CONTROLS), repr(shown)


def test_history_lists_a_name_with_a_newline_and_escapes_on_one_line(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("b.md"), FORGED: memory("a")})
    journal_of(tree, {FORGED: memory("a", body="Changed.")}).close()
    shown = history(str(tree))
    assert_nothing_forged(shown)
    assert "a\\nFORGED: restore done\\x1b]0;owned\\x07.md" in shown


def test_restore_preview_of_a_deleted_file_escapes_its_name_and_its_text(tmp_path: Path) -> None:
    body = "Keep.\x1b[2J\x1b]0;owned\x07 and \x9b31m red\nFORGED: in the body\n"
    tree = write_tree(tmp_path / "memory", {FORGED: memory("a", body=body)})
    journal_of(tree, {FORGED: None}).close()
    term = restore(str(tree / FORGED))
    shown = term.expect("Restore this version?")
    assert "a\\nFORGED: restore done\\x1b]0;owned\\x07.md: the file was deleted" in shown
    assert "+Keep.\\x1b[2J\\x1b]0;owned\\x07 and \\x9b31m red" in shown
    term.send("n")
    assert term.wait() == 0
    assert_nothing_forged(term.output)


def test_restore_tree_lists_and_records_each_name_on_one_line(tmp_path: Path) -> None:
    files = {"MEMORY.md": index("b.md"), "b.md": memory("b"), FORGED: memory("a")}
    tree = write_tree(tmp_path / "memory", files)
    journal_of(tree, {"b.md": None, FORGED: None}).close()
    term = restore("--tree", str(tree), "--at", "1970-01-01T00:16:40+00:00")
    shown = term.expect("Restore")
    assert "2 files differ from then (2 deleted since)" in shown
    assert "  a\\nFORGED: restore done\\x1b]0;owned\\x07.md (deleted; version" in shown
    term.send("a")
    assert "  restored a\\nFORGED: restore done" in term.expect("Why restore?")
    term.send("")
    assert term.wait() == 0
    assert_nothing_forged(term.output)
    assert (tree / FORGED).exists()
    changelog = subprocess.run(
        [sys.executable, "-m", "memory_audit", "changelog", str(tree)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=True,
    ).stdout
    assert "a\\nFORGED: restore done" in changelog
    assert_nothing_forged(changelog)


def test_dismiss_and_its_list_show_names_and_reasons_escaped(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index(), FORGED: memory("a")})
    data = json.loads(cli("audit", "--format", "json", str(tree)).stdout)
    [finding] = [f for f in data["reports"][0]["findings"] if f["path"] == FORGED]
    reason = "kept\x1b[2J\nFORGED: by the user"
    done = cli("dismiss", finding["fingerprint"], str(tree), "--reason", reason)
    assert done.returncode == 0, done.stderr
    assert f"dismissed [{finding['fingerprint'][:8]}] a\\nFORGED: restore done" in done.stdout
    listing = cli("dismiss", "--list").stdout
    assert "    kept\\x1b[2J\\nFORGED: by the user\n" in listing
    assert_nothing_forged(done.stdout + listing)
