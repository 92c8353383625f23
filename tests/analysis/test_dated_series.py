"""Which file names make a dated or numbered series, a day's record, or an archive."""

from __future__ import annotations

import pytest

from memory_audit.analysis.dated_series import note_day, numbered_key, series_key
from memory_audit.tree.file_kinds import in_archive


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("notes/status-2026-04-14.md", "notes/status-#"),
        # a time of day or the day's count is part of the stamp, not a series per slot
        ("cycles/c-20260309-0945.md", "cycles/c-#"),
        ("cycles/c-20260309-2215.md", "cycles/c-#"),
        ("inbox/20260703T053138Z-adapter.md", "inbox/#-adapter"),
        ("log/standup-2026-05-01-2.md", "log/standup-#"),
        # a second date is no time of day: one series of weekly ranges
        ("weekly/week-2026-05-04-2026-05-10.md", "weekly/week-#-#"),
        ("weekly/week-2026-05-11-2026-05-17.md", "weekly/week-#-#"),
        # no hour 25: the number is the name's
        ("x-20260309-2500.md", "/x-#-2500"),
        ("2026-05-01.md", None),  # a day's note alone: no series name
        ("deploy.md", None),
    ],
)
def test_series_key(path: str, key: str | None) -> None:
    assert series_key(path) == key


@pytest.mark.parametrize(
    ("path", "found"),
    [
        ("cycles/66.md", ("cycles/#", 66)),
        ("analysis/health-report-004.md", ("analysis/health-report-#", 4)),
        ("decisions/adr-004.md", None),
        ("notes/note_00042.md", None),
        ("journal/cycle-12.md", ("journal/cycle-#", 12)),
        ("sessions/Session_7.md", ("sessions/Session_#", 7)),
        # numbered parts of one topic, a person's id, a date: no journal's entries
        ("rule-1.md", None),
        ("notes/part-2.md", None),
        ("people/P001-smith.md", None),
        ("daily/2026-03-25.md", None),
    ],
)
def test_numbered_key(path: str, found: tuple[str, int] | None) -> None:
    assert numbered_key(path) == found


@pytest.mark.parametrize(
    ("path", "day"),
    [
        ("2026-05-01.md", "2026-05-01"),
        ("briefings/c-20260502-0915.md", "2026-05-02"),
        ("compactions/20260515-173703.md", "2026-05-15"),
        ("runbook-v2026.05.01.md", None),  # a version's stamp
        ("release-plan-2026-05-01.md", None),  # a plan cut that day still claims
        ("2026-02-30.md", None),  # no calendar has it
    ],
)
def test_note_day(path: str, day: str | None) -> None:
    assert note_day(path) == day


@pytest.mark.parametrize(
    ("path", "archived"),
    [
        ("archive/old.md", True),
        ("tasks/Deprecated/list.md", True),
        ("learning/archives/2026/q1.md", True),
        ("archive.md", False),  # a note named archive is no folder of them
        ("research/web_archive/wayback.md", False),  # a topic about archives
        ("projects/internet-archive/api.md", False),
    ],
)
def test_in_archive(path: str, archived: bool) -> None:
    assert in_archive(path) is archived
