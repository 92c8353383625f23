"""A value alerts once, from memory or from a session transcript, whatever rules find it.

Memory's on-change alert raises one alert a value a file (at its first match); the state
notes where a value first alerted, and the other source then stays quiet. The note must
name the value, not only the rule of its first match: a session that pastes the same key
after ``Bearer`` (another rule) is the same secret.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from memory_audit.checks.secrets import Options
from memory_audit.config import settings as config
from memory_audit.config.settings import NotifySettings
from memory_audit.daemon.alerts import AlertCenter, alerts_for, scan_file
from memory_audit.daemon.transcript_alerts import TranscriptFollower
from memory_audit.notify import DesktopBackend, Notifier
from memory_audit.secrets.loading import secret_scanner
from memory_audit.secrets.redact import fingerprint, load_salt, value_fingerprint
from memory_audit.secrets.transcript_tail import Found
from memory_audit.store.state import State
from tests.harness import memory, write_tree

KEY = "Fk" + "Qm4Tz8Vb1Nc6Wd3Fg5Jh0Ks7Pl2Mn9Qx4Rz8Hd6"  # a look-alike
SAID = f"Fernhill API Key: {KEY}"  # generic-assignment
SENT = f"curl -H 'Authorization: Bearer {KEY}' https://x.test"  # bearer-token
NOW = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)


def _memory_alerts(tmp_path: Path, state: State, body: str) -> list[str]:
    root = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    scan = scan_file(root / "a.md", root, scanner, 1 << 20)
    assert scan is not None
    return [a.text for a in alerts_for(scan, state, scanner.false_positives) if a.kind == "secret"]


def _transcript_alerts(tmp_path: Path, state: State, text: str) -> list[str]:
    """The follower's alerts for ``text`` appended to a session's transcript."""
    (tmp_path / "config.yaml").write_text("{}\n")
    settings = config.load(tmp_path / "config.yaml")
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    notifier = Notifier(NotifySettings(timeout_seconds=0.1), DesktopBackend())
    held = len(state.held_alerts())

    async def raise_them() -> None:
        center = AlertCenter(state, notifier, 60.0, lambda: None)

        def spawn(work: Coroutine[Any, Any, Any]) -> None:
            work.close()  # the follower spawns nothing here: only its alerting is asked

        follower = TranscriptFollower(
            settings, state, lambda: NOW, lambda: scanner, lambda: center, spawn
        )
        found = tuple(Found(match, NOW) for match in scanner.scan(text))
        follower._raise(tmp_path / "projects" / "-app" / "s1.jsonl", found, scanner)

    asyncio.run(raise_them())
    return [text for *_, text in state.held_alerts()[held:]]


def test_a_value_alerted_from_memory_notes_every_rule_that_found_it_and_the_value(
    tmp_path: Path,
) -> None:
    state = State(tmp_path / "daemon")
    try:
        [alert] = _memory_alerts(tmp_path, state, f"{SAID}\n{SENT}")
        assert "credential assignment" in alert
        salt = load_salt(tmp_path / "state")
        for noted in (
            fingerprint("generic-assignment", KEY, salt),
            fingerprint("bearer-token", KEY, salt),
            value_fingerprint(KEY, salt),
        ):
            assert state.secret_source(noted) == "memory"
        # a session pasting it after "Bearer": the same secret, no second alert
        assert _transcript_alerts(tmp_path, state, SENT) == []
    finally:
        state.close()


def test_a_value_a_session_sent_alerts_no_more_from_memory_whatever_rule_finds_it(
    tmp_path: Path,
) -> None:
    state = State(tmp_path / "daemon")
    try:
        [sent] = _transcript_alerts(tmp_path, state, f"{SENT}\n{SAID}")  # one a value
        assert "bearer token" in sent
        assert _memory_alerts(tmp_path, state, SAID) == []
    finally:
        state.close()
