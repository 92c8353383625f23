"""The real daemon follows session transcripts: a pasted secret alerts once, at once (issue 29)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import SessionBus, session_bus

SESSION = "5f0c2a9e-1111-4222-8333-444455556666"
TWO_GB = 2 * 1024**3


def token() -> str:
    return github_token("ghp_", rnd(ALNUM, 36))


def record(text: str) -> str:
    message = {"role": "user", "content": text}
    return json.dumps(
        {
            "type": "user",
            "sessionId": SESSION,
            "timestamp": "2026-12-01T16:04:00Z",
            "message": message,
        }
    )


def append(path: Path, data: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(data)


def logged(home: Home, text: str) -> bool:
    return home.log.exists() and text in home.log.read_text()


def session_alerts(bus: SessionBus) -> list[dict[str, object]]:
    return [n for n in bus.notifications() if "sent in" in str(n["summary"])]


@contextmanager
def running_daemon(
    tmp_path: Path, debounce: float = 0.2
) -> Iterator[tuple[Home, SessionBus, Path]]:
    """A daemon with one clean project; yields once its first audit is done."""
    home = Home(tmp_path / "home")
    tree = write_tree(
        home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config(debounce, coalesce=0.1)).start()
        try:
            assert daemon.wait_message("READY=1")
            assert wait_for(lambda: logged(home, "weekly audit:"))
            assert wait_for(bus.notifications)  # the weekly audit's
            yield home, bus, tree
        finally:
            code, _, err = daemon.stop()
        assert code == 0, err
        assert "Traceback" not in err
        assert "Traceback" not in home.log.read_text()


@pytest.mark.slow
def test_a_secret_pasted_into_a_session_alerts_once_while_it_runs_not_again_from_memory(
    tmp_path: Path,
) -> None:
    pasted, other = token(), token()
    with running_daemon(tmp_path) as (home, bus, tree):
        transcript = home.projects / "-app" / f"{SESSION}.jsonl"
        append(transcript, record("hello") + "\n")
        before = len(bus.notifications())
        # followed as it grows: the alert comes while the session runs (its latency is
        # measured by `bench/run.py transcript-alert`)
        append(transcript, record(f"use this token: {pasted}") + "\n")
        assert wait_for(lambda: session_alerts(bus), timeout=10)
        append(transcript, record(f"again: {pasted}") + "\n")  # once per session
        # the same secret saved to memory afterwards: no second alert (another one does)
        (tree / "leak.md").write_text(memory("leak", body=f"token {pasted}, and {other}"))
        assert wait_for(lambda: len(bus.notifications()) >= before + 2)
        time.sleep(1.0)  # a second alert for the pasted token would have arrived by now
    alerts = bus.notifications()[before:]
    assert len(alerts) == 2
    sent, saved = alerts
    assert sent["summary"] == "memory-audit: 1 possible secret sent in 1 session(s)"
    body = str(sent["body"])
    assert SESSION in body
    assert "2026-12-01 16:04 UTC" in body
    assert "sent to the model provider" in body
    assert f"rm {transcript}" in body
    assert pasted[:4] in body
    assert pasted not in body
    assert saved["summary"] == "memory-audit: 1 possible secret in 1 file"
    assert other not in str(saved["body"])
    assert "leak.md" in str(saved["body"])
    log = home.log.read_text()
    assert pasted not in log
    assert other not in log
    assert log.count("alert: leak.md:") == 1  # the pasted token raised no memory alert
    # nothing was written to the transcript
    assert transcript.read_text() == "".join(
        record(text) + "\n" for text in ("hello", f"use this token: {pasted}", f"again: {pasted}")
    )


@pytest.mark.slow
def test_a_secret_that_alerted_from_memory_first_does_not_alert_again_from_a_session(
    tmp_path: Path,
) -> None:
    saved, pasted = token(), token()
    with running_daemon(tmp_path) as (home, bus, tree):
        before = len(bus.notifications())
        (tree / "leak.md").write_text(memory("leak", body=f"token {saved}"))
        assert wait_for(lambda: len(bus.notifications()) == before + 1)
        transcript = home.projects / "-app" / f"{SESSION}.jsonl"
        append(transcript, record(f"the saved one {saved}") + "\n")
        append(transcript, record(f"and a new one {pasted}") + "\n")
        assert wait_for(lambda: session_alerts(bus))
        time.sleep(1.0)
    [alert] = session_alerts(bus)
    assert pasted[:8] in str(alert["body"])
    assert saved[:8] not in str(alert["body"])
    assert len(bus.notifications()) == before + 2


@pytest.mark.slow
def test_a_chat_log_in_the_memory_folder_alerts_as_the_tree_s_file_not_as_a_session(
    tmp_path: Path,
) -> None:
    """A ``.jsonl`` under ``projects/<slug>/memory/`` is a file of the memory tree: its
    secret alerts as the tree's (the audit's place and remedy), not as a session's."""
    pasted = token()
    # the shipped debounce (2 s): a session's transcript is read sooner than that
    with running_daemon(tmp_path, debounce=2.0) as (_, bus, tree):
        before = len(bus.notifications())
        (tree / "raw").mkdir()
        append(tree / "raw" / "chat.jsonl", record(f"the bot token: {pasted}") + "\n")
        assert wait_for(lambda: len(bus.notifications()) > before, timeout=15)
        time.sleep(1.0)  # a second alert for it would have arrived by now
    [alert] = bus.notifications()[before:]
    assert alert["summary"] == "memory-audit: 1 possible secret in 1 file"
    assert "raw/chat.jsonl" in str(alert["body"])
    assert "sent to the model provider" not in str(alert["body"])
    assert pasted not in str(alert["body"])


@pytest.mark.slow
def test_a_secret_split_across_two_appends_is_found_whole(tmp_path: Path) -> None:
    pasted = token()
    line = record(f"the key is {pasted} ok")
    cut = line.index(pasted) + 20
    with running_daemon(tmp_path) as (home, bus, _):
        transcript = home.projects / "-app" / f"{SESSION}.jsonl"
        append(transcript, line[:cut])
        time.sleep(1.0)  # the daemon reads the first half (a few times) meanwhile
        append(transcript, line[cut:] + "\n")
        assert wait_for(lambda: session_alerts(bus), timeout=10)
        time.sleep(0.5)
    assert len(session_alerts(bus)) == 1
    assert pasted[:4] in str(session_alerts(bus)[0]["body"])


@pytest.mark.slow
def test_a_transcript_rotated_truncated_or_deleted_while_followed_is_read_again_from_its_start(
    tmp_path: Path,
) -> None:
    first, rotated, truncated, recreated = token(), token(), token(), token()
    with running_daemon(tmp_path) as (home, bus, _):
        transcript = home.projects / "-app" / f"{SESSION}.jsonl"
        padding = record("x" * 2000) + "\n"
        append(transcript, padding * 5 + record(first) + "\n")  # an offset is held past 10 kB
        assert wait_for(lambda: len(session_alerts(bus)) == 1)
        # rotated: renamed aside, a shorter file in its place
        transcript.rename(transcript.with_suffix(".old"))
        transcript.write_text(record(rotated) + "\n")
        assert wait_for(lambda: len(session_alerts(bus)) == 2)
        # truncated in place, below the offset held
        os.truncate(transcript, 0)
        append(transcript, record(truncated) + "\n")
        assert wait_for(lambda: len(session_alerts(bus)) == 3)
        # deleted, then a new session file under the same name
        transcript.unlink()
        time.sleep(0.5)
        append(transcript, record(recreated) + "\n")
        assert wait_for(lambda: len(session_alerts(bus)) == 4)
    bodies = [str(n["body"]) for n in session_alerts(bus)]
    for secret, body in zip((first, rotated, truncated, recreated), bodies, strict=True):
        assert secret[:4] in body
        assert secret not in body
    assert "was replaced or truncated; read from its start" in home.log.read_text()


@pytest.mark.slow
def test_a_2_gb_sparse_transcript_growing_while_read_is_read_in_bounded_chunks(
    tmp_path: Path,
) -> None:
    """It grew by 2 GB at once: the backlog is skipped to its bounded tail, the secret at its
    end still alerts, another session is not held up, and the daemon stops at once."""
    early, late, elsewhere = token(), token(), token()
    with running_daemon(tmp_path) as (home, bus, _):
        transcript = home.projects / "-app" / f"{SESSION}.jsonl"
        append(transcript, record(early) + "\n")
        assert wait_for(lambda: len(session_alerts(bus)) == 1)
        with transcript.open("r+b") as handle:
            handle.truncate(TWO_GB)  # sparse: no disk used
            handle.seek(TWO_GB)
            handle.write(("\n" + record(late) + "\n").encode())
        other = home.projects / "-app" / "0aa0aa0a-1111-4222-8333-444455556666.jsonl"
        append(other, record(elsewhere) + "\n")
        assert wait_for(lambda: len(session_alerts(bus)) >= 3, timeout=30)
        with transcript.open("ab") as handle:  # still growing after the skip
            handle.write(b"\0" * 1_000_000)
        time.sleep(1.0)
    # running_daemon's stop fails past its timeout: the daemon stopped mid-read, exit 0
    bodies = " ".join(str(n["body"]) for n in session_alerts(bus))
    assert late[:4] in bodies
    assert elsewhere[:4] in bodies
    assert "were not read (`memory-audit audit --transcripts` reads them)" in home.log.read_text()


@pytest.mark.slow
def test_what_a_session_appended_while_the_daemon_was_stopped_alerts_at_the_next_start(
    tmp_path: Path,
) -> None:
    before, meanwhile = token(), token()
    home = Home(tmp_path / "home")
    write_tree(home.projects / "-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    transcript = home.projects / "-app" / f"{SESSION}.jsonl"
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        config = home.config(coalesce=0.1)
        daemon = DaemonProcess(home, config).start()
        try:
            assert daemon.wait_message("READY=1")
            assert wait_for(lambda: logged(home, "weekly audit:"))
            append(transcript, record(before) + "\n")
            assert wait_for(lambda: len(session_alerts(bus)) == 1)
        finally:
            assert daemon.stop()[0] == 0
        append(transcript, record(meanwhile) + "\n")
        daemon = DaemonProcess(home, config).start()
        try:
            assert daemon.wait_message("READY=1")
            assert wait_for(lambda: len(session_alerts(bus)) == 2)
            time.sleep(1.0)
        finally:
            assert daemon.stop()[0] == 0
    bodies = [str(n["body"]) for n in session_alerts(bus)]
    assert len(bodies) == 2  # the first secret, read before the stop, is not read again
    assert meanwhile[:4] in bodies[1]
