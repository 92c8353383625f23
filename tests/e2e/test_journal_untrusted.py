"""`memory-audit history` and `restore` against a journal that holds untrusted things: UTF-16
files with secrets, secrets in session prompts, rows edited to name paths outside the
journal, and blobs that inflate to gigabytes. The journal is recorded from real files by
the daemon's own classes; the commands run as real processes."""

from __future__ import annotations

import os
import resource
import sqlite3
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import platformdirs

from memory_audit.config.settings import JournalSettings
from memory_audit.daemon.journaling import JournalKeeper
from memory_audit.journal.index import Actor, NewVersion
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.redact import redact
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.location import ProjectLocation
from tests.harness import index, memory, write_tree
from tests.journal.test_attribution import T0, tool, user, write_transcript
from tests.secrets.samples import CASES
from tests.support.bombs import bomb

TOKEN = CASES["github-pat"][0][0][0]
SPELLINGS = ("utf-8", "utf-16-le", "utf-16-be")


def state_dir() -> Path:
    return Path(platformdirs.user_state_dir("memory-audit"))


def journal_of(tree: Path, *edits: dict[str, bytes]) -> Journal:
    """A journal with a baseline of ``tree`` and one recorded step per edit."""
    journal = Journal(state_dir())
    scanner = secret_scanner(ScannerConfig(state_dir=str(state_dir())))
    recorder = Recorder(journal.index, journal.blobs, scanner, 1 << 20)
    recorder.reconcile(tree, 1000.0, lambda *_: Actor("baseline"))
    for step, edit in enumerate(edits, start=1):
        for name, data in edit.items():
            (tree / name).write_bytes(data)
        recorder.reconcile(tree, 1000.0 + step, lambda *_: Actor("outside"), changed=set(edit))
    return journal


def cli(
    *args: str, stdin: str = "", memory_limit: int | None = None
) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if memory_limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))

    return subprocess.run(
        [sys.executable, "-m", "memory_audit", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        preexec_fn=limit,
        check=False,
    )


def stored_bytes() -> Iterator[bytes]:
    """Every file the journal keeps, blobs inflated."""
    for path in state_dir().rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            yield zlib.decompress(data) if path.parent.parent.name == "blobs" else data


def holds_token(data: bytes) -> bool:
    return any(TOKEN.encode(codec) in data for codec in SPELLINGS)


def utf16(text: str) -> bytes:
    return b"\xff\xfe" + text.encode("utf-16-le")


def test_history_diff_of_a_utf16_file_shows_decoded_text_and_the_journal_keeps_no_secret(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md")})
    (tree / "a.md").write_bytes(utf16(memory("a", body=f"Deploy key {TOKEN}\r\nFirst.")))
    journal_of(tree, {"a.md": utf16(memory("a", body=f"Deploy key {TOKEN}\r\nSecond."))}).close()
    shown = cli("history", str(tree / "a.md"), "--diff")
    assert shown.returncode == 0, shown.stderr
    assert "-First." in shown.stdout
    assert "+Second." in shown.stdout
    assert f" Deploy key {redact(TOKEN)}" in shown.stdout
    assert "\x00" not in shown.stdout
    assert not holds_token(shown.stdout.encode())
    for data in stored_bytes():
        assert not holds_token(data)


def test_history_diff_escapes_control_characters_in_file_text(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="Plain.")})
    journal_of(tree, {"a.md": memory("a", body="\x1b]0;owned\x07\x1b[2J Red.").encode()}).close()
    shown = cli("history", str(tree / "a.md"), "--diff")
    assert shown.returncode == 0, shown.stderr
    assert "+\\x1b]0;owned\\x07\\x1b[2J Red." in shown.stdout
    assert "\x1b" not in shown.stdout
    assert "\x07" not in shown.stdout


def test_history_shows_a_session_prompt_with_a_secret_masked_and_the_journal_stores_it_masked(
    tmp_path: Path,
) -> None:
    project = tmp_path / "p"
    tree = write_tree(project / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    keeper = JournalKeeper(
        state_dir(),
        JournalSettings(),
        lambda: secret_scanner(ScannerConfig(state_dir=str(state_dir()))),
    )
    ref = TreeRef(tree, ProjectLocation(transcripts_dir=project))
    keeper.record([ref], None)
    (tree / "a.md").write_text(memory("a", body="Deploys go through the pipeline."))
    changed = (tree / "a.md").stat().st_mtime - T0.timestamp()
    write_transcript(
        project,
        "abcd1234-session",
        [
            user("abcd1234-session", f"deploy with {TOKEN} now", at=changed - 5),
            tool("abcd1234-session", "Write", {"file_path": str(tree / "a.md")}, at=changed),
        ],
    )
    keeper.record([ref], {tree: {"a.md"}})
    keeper.close()
    shown = cli("history", str(tree))
    assert shown.returncode == 0, shown.stderr
    assert f'by Claude Code session abcd1234 ("deploy with {redact_short(TOKEN)} now")' in (
        shown.stdout
    )
    as_json = cli("history", str(tree), "--format", "json")
    for text in (shown.stdout, as_json.stdout):
        assert not holds_token(text.encode())
    for data in stored_bytes():
        assert not holds_token(data)


def redact_short(secret: str) -> str:
    """How the redaction boundary shows a secret: its first and last four characters."""
    return f"{secret[:4]}...{secret[-4:]}"


def test_history_masks_a_secret_in_a_label_stored_before_labels_were_masked(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a")})
    journal = journal_of(tree)
    journal.index.add(
        [_version_by(tree, "a.md", Actor("session", "abcd1234", f"deploy with {TOKEN} now"))]
    )
    journal.close()
    shown = cli("history", str(tree))
    assert shown.returncode == 0, shown.stderr
    assert f'("deploy with {redact_short(TOKEN)} now")' in shown.stdout
    assert not holds_token(shown.stdout.encode())


def _version_by(tree: Path, rel: str, actor: Actor) -> NewVersion:
    return NewVersion(str(tree), rel, 2000.0, "modified", None, 0, 0, actor, "too large")


def tampered(tree: Path, rel: str, blob: str) -> int:
    """The id of ``rel``'s first version, whose blob column now reads ``blob``."""
    journal = Journal(state_dir())
    [first] = [v for v in journal.index.history(str(tree), rel) if v.kind == "baseline"]
    journal.close()
    db = sqlite3.connect(state_dir() / "journal" / "journal.sqlite")
    with db:
        db.execute("UPDATE versions SET blob = ? WHERE id = ?", (blob, first.id))
    db.close()
    return first.id


def test_a_blob_column_naming_a_path_outside_the_journal_is_refused_and_nothing_is_deleted(
    tmp_path: Path,
) -> None:
    important = tmp_path / "x" / "important.txt"
    important.parent.mkdir()
    important.write_text("someone's important file\n")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="First.")})
    journal_of(tree, {"a.md": memory("a", body="Second.").encode()}).close()
    version = tampered(tree, "a.md", f"..//{important}")

    shown = cli("history", str(tree / "a.md"), "--diff")
    assert important.read_text() == "someone's important file\n"
    assert shown.returncode == 1, shown.stderr
    assert f"version #{version}: its journal row names no content hash" in shown.stdout
    assert "1 version(s) could not be shown" in shown.stdout

    restored = cli("restore", str(tree / "a.md"), "--version", str(version), stdin="y\n")
    assert important.read_text() == "someone's important file\n"
    assert restored.returncode == 2
    assert f"version {version} of a.md: its journal row names no content hash" in restored.stderr
    assert "not restored" in restored.stderr
    assert "Second." in (tree / "a.md").read_text()


def test_a_blob_that_inflates_to_gigabytes_is_refused_with_a_clear_error(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="First.")})
    journal = journal_of(tree, {"a.md": memory("a", body="Second.").encode()})
    [first] = [v for v in journal.index.history(str(tree), "a.md") if v.kind == "baseline"]
    assert first.blob is not None
    journal.blobs.path(first.blob).write_bytes(bomb(3 * 1024 * 1024 * 1024))
    journal.close()
    one_gigabyte = 1024 * 1024 * 1024  # the bomb would need three

    shown = cli("history", str(tree / "a.md"), "--diff", memory_limit=one_gigabyte)
    assert shown.returncode == 1, shown.stderr
    assert f"version #{first.id}: its stored content inflates past 64 MB, so it was not read" in (
        shown.stdout
    )
    restored = cli(
        "restore", str(tree / "a.md"), "--version", str(first.id), memory_limit=one_gigabyte
    )
    assert restored.returncode == 2, restored.stderr
    assert "inflates past 64 MB, so it was not read; not restored" in restored.stderr
    assert "Second." in (tree / "a.md").read_text()


def test_restore_of_a_utf16_version_writes_utf16_and_says_its_secret_was_masked(
    tmp_path: Path,
) -> None:
    first = memory("a", body=f"Deploy key {TOKEN}\r\nFirst.")
    tree = write_tree(tmp_path / "memory", {"a.md": utf16(first)})
    journal = journal_of(tree, {"a.md": utf16(memory("a", body="Second."))})
    [baseline] = [v for v in journal.index.history(str(tree), "a.md") if v.kind == "baseline"]
    journal.close()
    restored = cli("restore", str(tree / "a.md"), "--version", str(baseline.id), stdin="y\nundo\n")
    assert restored.returncode == 0, restored.stderr + restored.stdout
    assert f"Version {baseline.id} had 1 secret(s) masked by the journal" in restored.stdout
    assert "+First." in restored.stdout
    assert "\x00" not in restored.stdout
    assert (tree / "a.md").read_bytes() == utf16(first.replace(TOKEN, redact(TOKEN)))
    listed = cli("history", str(tree / "a.md"), "--format", "json")
    assert '"secrets_masked": 1' in listed.stdout.split("}")[0]  # the restore's own version


def test_restore_of_a_version_kept_before_secrets_were_counted_says_they_come_back_masked(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="First.")})
    journal_of(tree, {"a.md": memory("a", body="Second.").encode()}).close()
    db = sqlite3.connect(state_dir() / "journal" / "journal.sqlite")
    db.execute("ALTER TABLE versions DROP COLUMN masked")  # as an older version wrote it
    db.close()
    restored = cli("restore", str(tree / "a.md"), "--version", "1", stdin="y\n\n")
    assert restored.returncode == 0, restored.stderr + restored.stdout
    assert "Version 1 was kept before the journal counted masked secrets" in restored.stdout
    assert "First." in (tree / "a.md").read_text()
