"""Destructive commands ask (issue 26): `service uninstall --purge` and `history --purge`
say what goes, the journal apart, and ask at a terminal; `--yes` answers for scripts; with
no terminal and no `--yes` they refuse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import platformdirs

from memory_audit.journal.index import Actor
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from tests.e2e.test_review import env_for
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal


def journaled_tree(home: Path) -> tuple[Path, Path]:
    """A tree whose journal holds 3 files, one of them deleted since: (tree, state folder)."""
    state = Path(platformdirs.user_state_dir("memory-audit"))
    tree = write_tree(
        home / "memory",
        {"MEMORY.md": index("a.md", "b.md"), "a.md": memory("a"), "b.md": memory("b")},
    )
    journal = Journal(state)
    recorder = Recorder(
        journal.index, journal.blobs, secret_scanner(ScannerConfig(state_dir=str(state))), 1 << 20
    )
    recorder.reconcile(tree, 100.0, lambda *_: Actor("outside"))
    (tree / "b.md").unlink()
    recorder.reconcile(tree, 200.0, lambda *_: Actor("outside"), changed={"b.md"})
    journal.close()
    return tree, state


def command(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memory_audit", *args]


def test_purge_with_no_terminal_refuses_without_yes(isolated_home: Path) -> None:
    _, state = journaled_tree(isolated_home)
    done = subprocess.run(
        command(isolated_home, "service", "uninstall", "--purge"),
        env=env_for(isolated_home),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "refused: nobody to ask" in done.stderr
    assert "pass --yes" in done.stderr
    assert (state / "journal" / "journal.sqlite").is_file()


def test_purge_lists_the_journal_apart_and_deletes_only_on_yes(isolated_home: Path) -> None:
    _, state = journaled_tree(isolated_home)
    term = Terminal(
        command(isolated_home, "service", "uninstall", "--purge"), env_for(isolated_home)
    )
    shown = term.expect("[y]es / [n]o: ")
    assert f"  {state}/" in shown
    assert "4 versions of 3 memories, the only copy of 1 deleted files" in shown
    term.send("q")  # q is no
    assert term.wait() == 1
    assert (state / "journal" / "journal.sqlite").is_file()
    term = Terminal(
        command(isolated_home, "service", "uninstall", "--purge"), env_for(isolated_home)
    )
    term.expect("[y]es / [n]o: ")
    term.send("y")
    assert term.wait() == 0
    assert not state.exists()


def test_history_purge_shows_what_it_drops_and_asks(isolated_home: Path) -> None:
    tree, state = journaled_tree(isolated_home)
    term = Terminal(
        command(isolated_home, "history", "--purge", str(tree / "b.md")), env_for(isolated_home)
    )
    shown = term.expect("[y]es / [n]o: ")
    assert "--purge drops 2 version(s) of b.md" in shown
    assert "The file is deleted: these versions are its only copy." in shown
    term.send("n")
    assert "Nothing was dropped." in term.expect("dropped.")
    assert term.wait() == 1
    journal = Journal(state)
    assert len(journal.index.history(str(tree), "b.md")) == 2
    journal.close()
    done = subprocess.run(
        command(isolated_home, "history", "--purge", str(tree / "b.md"), "--yes"),
        env=env_for(isolated_home),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "dropped 2 version(s) of b.md" in done.stdout
