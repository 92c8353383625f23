"""The health line's account of sessions reads as a person would say it."""

from __future__ import annotations

from memory_audit.model.health import SessionUse
from memory_audit.report.wording import sessions_part


def test_a_store_without_session_transcripts_says_so_not_zero_counts() -> None:
    assert sessions_part(SessionUse(0, 0)) == "no session transcripts yet"


def test_one_memory_surfaced_is_singular() -> None:
    assert sessions_part(SessionUse(3, 1, 0, 0, 1)) == (
        "3 sessions: 1 memory surfaced, 0 unused, 0 dead weight, 1 coverage gap"
    )
