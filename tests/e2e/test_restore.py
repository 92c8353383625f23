"""`memory-audit restore` on a real pseudo-terminal, against a journal recorded from real files."""

from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

import platformdirs

from memory_audit.journal.index import Actor
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal


def journal_of(tree: Path, *edits: dict[str, str | None]) -> Journal:
    """A journal with a baseline of ``tree`` and one recorded step per edit (None deletes)."""
    state = Path(platformdirs.user_state_dir("memory-audit"))
    journal = Journal(state)
    recorder = Recorder(
        journal.index, journal.blobs, secret_scanner(ScannerConfig(state_dir=str(state))), 1 << 20
    )
    recorder.reconcile(tree, 1000.0, lambda *_: Actor("baseline"))
    for step, edit in enumerate(edits, start=1):
        for name, text in edit.items():
            if text is None:
                (tree / name).unlink()
            else:
                (tree / name).write_text(text)
        recorder.reconcile(tree, 1000.0 + step, lambda *_: Actor("outside"), changed=set(edit))
    return journal


def restore(*args: str) -> Terminal:
    return Terminal([sys.executable, "-m", "memory_audit", "restore", *args], dict(os.environ))


def test_restore_a_deleted_file_shows_it_asks_and_brings_it_back(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    original = (tree / "a.md").read_bytes()
    journal_of(tree, {"a.md": None, "MEMORY.md": "# Index\n"}).close()
    term = restore(str(tree / "a.md"))
    shown = term.expect("Restore this version?")
    assert "a.md: the file was deleted" in shown
    assert "+description: About a" in shown
    term.send("y")
    assert "MEMORY.md no longer lists:" in term.expect("Add these lines back to MEMORY.md?")
    term.send("y")
    term.expect("Why restore?")
    term.send("deleted by mistake")
    assert term.wait() == 0
    assert (tree / "a.md").read_bytes() == original
    assert (tree / "MEMORY.md").read_text() == "# Index\n- [a.md](a.md) — notes about a.md\n"


def test_restore_refuses_a_file_changed_after_the_diff_was_shown_and_shows_it_again(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="First.")})
    journal_of(tree, {"a.md": memory("a", body="Second.")}).close()
    term = restore(str(tree / "a.md"))
    assert "-Second." in term.expect("Restore this version?")
    (tree / "a.md").write_text(memory("a", body="Someone else wrote this meanwhile."))
    term.send("y")
    again = term.expect("Restore this version?")
    assert "changed since it was shown" in again
    assert "-Someone else wrote this meanwhile." in again
    term.send("n")
    term.wait()
    assert "Someone else wrote this meanwhile." in (tree / "a.md").read_text()


def test_restore_never_writes_a_corrupt_version(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="Kept.")})
    journal = journal_of(tree, {"a.md": memory("a", body="Changed.")})
    [first] = [v for v in journal.index.history(str(tree), "a.md") if v.kind == "baseline"]
    assert first.blob is not None
    journal.blobs.path(first.blob).write_bytes(zlib.compress(b"tampered"))
    journal.close()
    term = restore(str(tree / "a.md"), "--version", str(first.id))
    term.expect("damaged in the journal; not restored")
    assert term.wait() == 2
    assert "Changed." in (tree / "a.md").read_text()


def test_restore_never_writes_through_a_symlinked_folder(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    tree = write_tree(tmp_path / "memory", {"sub/a.md": memory("a")})
    journal_of(tree, {"sub/a.md": None}).close()
    (tree / "sub").rmdir()
    (tree / "sub").symlink_to(outside)
    term = restore(str(tree / "sub/a.md"))
    term.expect("sub/a.md is reached through a symlink")
    assert term.wait() == 2
    assert list(outside.iterdir()) == []


def test_restore_a_tree_deleted_wholesale_comes_back_file_by_file_or_all(tmp_path: Path) -> None:
    files = {"MEMORY.md": index("a.md", "b.md"), "a.md": memory("a"), "deep/b.md": memory("b")}
    tree = write_tree(tmp_path / "memory", files)
    originals = {name: (tree / name).read_bytes() for name in files}
    journal_of(tree, dict.fromkeys(files)).close()
    (tree / "deep").rmdir()
    tree.rmdir()
    term = restore("--tree", str(tree), "--at", "1970-01-01T00:16:40+00:00")
    assert "3 files differ from then (3 deleted since)" in term.expect("Restore")
    term.send("a")
    term.expect("Why restore?")
    term.send("")
    assert term.wait() == 0
    assert {name: (tree / name).read_bytes() for name in files} == originals


def test_restore_masks_what_only_a_gitleaks_rule_matches(tmp_path: Path) -> None:
    """restore builds its scanner where every other part does: with the gitleaks rules."""
    token = "fhx_" + "".join(chr(ord("a") + (i * 7) % 26) for i in range(32))
    rules = tmp_path / ".gitleaks.toml"
    rules.write_text(
        "[[rules]]\nid = \"fernhill-any\"\nregex = '''fhx_[a-z]{32}'''\nkeywords = [\"fhx_\"]\n"
    )
    config = tmp_path / "config.yaml"
    config.write_text(f"checks:\n  secrets:\n    gitleaks_config: {rules}\n")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="Old notes.")})
    journal_of(tree, {"a.md": memory("a", body=f"The key is {token} for now.")}).close()
    term = restore(str(tree / "a.md"), "--config", str(config))
    shown = term.expect("Restore this version?")
    term.send("n")
    term.wait()
    assert "-The key is" in shown
    assert token not in shown


def test_restore_masks_a_value_the_tree_says_elsewhere_in_the_file_shown(tmp_path: Path) -> None:
    """The file as it is now is shown as the journal keeps it: a password a rule finds in
    a.md is masked where b.md repeats it bare, in the diff and in the comparison."""
    password = "Harbor" + "07" + "!!q"  # a look-alike
    bare = memory("b", body=f"- nas {password} on the mgmt port")
    tree = write_tree(
        tmp_path / "memory",
        {"a.md": memory("a", body=f"the wifi password is {password}"), "b.md": "Old notes.\n"},
    )
    journal_of(tree, {"b.md": bare}).close()  # versions: 1 a.md, 2 b.md, 3 b.md (bare)
    shown = ""
    for version in ("2", "3"):
        term = restore(str(tree / "b.md"), "--version", version)
        shown += term.expect("Restore this version?")
        term.send("n")
        term.wait()
    assert "-- nas Ha...q on the mgmt port\n+Old notes." in shown
    assert "b.md: already identical to version 3" in shown
    assert password not in shown


def test_restore_masks_a_version_kept_before_the_tree_said_its_value_was_a_secret(
    tmp_path: Path,
) -> None:
    """b.md kept with a value bare; a.md says it is a password since, and no service has
    recorded that: restore masks the kept version before it shows or writes it."""
    password = "Harbor" + "07" + "!!q"  # a look-alike
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="x"), "b.md": "Old.\n"})
    journal_of(tree, {"b.md": memory("b", body=f"- nas {password} on the mgmt port")}).close()
    (tree / "a.md").write_text(memory("a", body=f"the wifi password is {password}"))
    (tree / "b.md").write_text("New.\n")
    term = restore(str(tree / "b.md"), "--version", "3")
    shown = term.expect("Restore this version?")
    term.send("y")
    term.expect("Why restore?")
    term.send("")
    assert term.wait() == 0
    assert "+- nas Ha...q on the mgmt port" in shown
    assert password not in shown
    assert password not in (tree / "b.md").read_text()
