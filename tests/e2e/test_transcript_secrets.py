"""`audit --transcripts`: secrets pasted into sessions, found in the transcripts, masked."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.transcript_scan import scan_transcripts
from tests.e2e.test_cli import cli
from tests.harness import digest
from tests.support.terminal import Terminal

TOKEN = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"


def record(text: str, at: str = "2026-11-20T14:05:09.123Z") -> str:
    message = {"role": "user", "content": text}
    return json.dumps({"type": "user", "sessionId": "s", "timestamp": at, "message": message})


def session(home: Path, slug: str, name: str, lines: list[str]) -> Path:
    folder = home / ".claude/projects" / slug
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_secret_pasted_into_a_session_is_found_masked_with_session_time_and_remedy(
    isolated_home: Path,
) -> None:
    pasted = session(
        isolated_home,
        "-work-app",
        "7f3c2a",
        [record("hello"), record(f"use {TOKEN} for the CI"), record(f"again {TOKEN}")],
    )
    session(isolated_home, "-work-site", "91be", [record("nothing here")])
    before = digest(isolated_home / ".claude/projects")
    result = cli("audit", "--transcripts")
    assert result.returncode == 1
    assert TOKEN not in result.stdout + result.stderr
    assert TOKEN[4:16] not in result.stdout + result.stderr  # no long piece of it either
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Scanned 2 session transcripts (")
    assert lines[0].endswith("): 1 possible secret(s) in 1 session(s).")
    assert "Session 7f3c2a (-work-app)" in lines
    [found] = [line for line in lines if "possible GitHub" in line]
    assert found.startswith("  line 2, 2026-11-20 14:05 UTC: possible GitHub")
    assert '"ghp_R8mQ' in found
    assert found.endswith(", in 2 records")
    assert f"  To remove it from this machine: rm {pasted}" in lines
    assert "sent to the model provider" in result.stdout
    assert digest(isolated_home / ".claude/projects") == before  # nothing written


def test_transcripts_without_secrets_exit_0(isolated_home: Path) -> None:
    session(isolated_home, "-work-app", "a", [record("hello"), "not json at all"])
    result = cli("audit", "--transcripts")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0].endswith("): no possible secret.")


def test_a_log_kept_in_a_memory_folder_is_no_session_transcript(isolated_home: Path) -> None:
    """A chat log an agent keeps under the project's memory folder is a file of the memory
    tree (the secrets check reads it there), never a session sent to the model provider:
    however the folder is named (``~/.claude`` a link to the user's dotfiles, the tree
    named by its real path)."""
    real = isolated_home / "dotfiles" / "claude"
    real.mkdir(parents=True)
    (isolated_home / ".claude").symlink_to(real)
    session(isolated_home, "-work-app", "7f3c2a", [record("hello")])
    log = real / "projects/-work-app/memory/raw"
    log.mkdir(parents=True)
    (log / "chat.jsonl").write_text(record(f"use {TOKEN} for the CI") + "\n")
    for named in ([], [str(log.parent)]):
        result = cli("audit", *named, "--transcripts")
        assert result.returncode == 0, named
        assert result.stdout.splitlines()[0].startswith("Scanned 1 session transcripts (")
        assert "sent to the model provider" not in result.stdout


def test_transcripts_dir_still_names_the_usage_folder(isolated_home: Path, tmp_path: Path) -> None:
    tree = tmp_path / "memory"
    tree.mkdir()
    (tree / "MEMORY.md").write_text("# Index\n")
    result = cli("audit", "--transcripts", str(tmp_path), str(tree))
    assert result.returncode == 0
    assert "Scanned" not in result.stdout


def test_a_transcript_growing_while_it_is_read_is_read_as_it_was_opened(
    isolated_home: Path, tmp_path: Path
) -> None:
    path = session(isolated_home, "-work-app", "live", [record(f"key {TOKEN}")])
    scanner = secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))
    stop, started = threading.Event(), threading.Event()

    def keep_writing() -> None:  # a session still writing: faster than any scan reads
        with path.open("a") as handle:
            while not stop.is_set():
                handle.write(record("more output " * 200) + "\n")
                handle.flush()
                started.set()

    writer = threading.Thread(target=keep_writing)
    writer.start()
    started.wait()
    try:
        result = scan_transcripts(scanner, [path])
    finally:
        stop.set()
        writer.join()
    assert [(s.line, s.redacted[:8]) for s in result.secrets] == [(1, "ghp_R8mQ")]
    assert result.bytes_read <= path.stat().st_size


def test_the_scan_shows_its_progress_on_a_terminal(isolated_home: Path) -> None:
    for number in range(3):
        session(isolated_home, "-work-app", f"s{number}", [record("hello")])
    env = {**os.environ, "TERM": "dumb"}
    term = Terminal([sys.executable, "-m", "memory_audit", "audit", "--transcripts"], env)
    term.expect("scanning transcripts: 0/3")
    term.expect("Scanned 3 session transcripts")
    assert term.wait() == 0


def test_a_value_two_rules_find_in_a_session_is_listed_once(isolated_home: Path) -> None:
    # one value is one finding, whatever rules find it: as in memory, so in a transcript
    key = "Fk" + "Qm4Tz8Vb1Nc6Wd3Fg5Jh0Ks7Pl2Mn9Qx4Rz8Hd6"  # a look-alike
    said = f"Fernhill API Key: {key}\ncurl -H 'Authorization: Bearer {key}' https://x.test"
    session(isolated_home, "-work-app", "7f3c2a", [record(said)])
    result = cli("audit", "--transcripts")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].endswith("): 1 possible secret(s) in 1 session(s).")
    [found] = [line for line in lines if "FkQm4Tz8" in line]
    assert found.startswith("  line 1, 2026-11-20 14:05 UTC: possible credential assignment")
    assert not found.endswith("records")  # one record holds it, twice
    assert key not in result.stdout
