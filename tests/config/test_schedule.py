from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest

from memory_audit.config.schedule import WeeklySchedule
from memory_audit.config.settings import parse_weekly

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
UTC = dt.UTC


def at(
    year: int,
    month: int,
    day: int,
    hour: int,
    minute: int = 0,
    second: int = 0,
    zone: dt.tzinfo = BERLIN,
) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, second, tzinfo=zone)


def weekly(text: str = "sun 09:00", zone: dt.tzinfo = BERLIN) -> WeeklySchedule:
    return WeeklySchedule(parse_weekly(text), zone)


def test_first_start_is_due_at_once() -> None:
    assert weekly().due(at(2026, 11, 25, 14), last_success=None)


def test_not_due_again_until_the_next_sunday_morning() -> None:
    schedule = weekly()
    success = at(2026, 11, 29, 9, 1)
    assert not schedule.due(at(2026, 12, 6, 8, 59), success)
    assert schedule.due(at(2026, 12, 6, 9, 0), success)


def test_laptop_asleep_through_sunday_catches_up_on_wake() -> None:
    schedule = weekly()
    success = at(2026, 11, 22, 9, 0, 30)
    woke = at(2026, 12, 1, 7, 45)  # slept from Saturday to Tuesday
    assert schedule.due(woke, success)
    assert schedule.previous_fire(woke) == at(2026, 11, 29, 9)


def test_a_baseline_run_midweek_still_leaves_sunday_due() -> None:
    schedule = weekly()
    baseline = at(2026, 11, 25, 14)  # Wednesday, first start
    assert not schedule.due(at(2026, 11, 28, 12), baseline)
    assert schedule.due(at(2026, 11, 29, 9, 5), baseline)


def test_day_names_are_used_not_crontab_numbers() -> None:
    # APScheduler 3 counts day 0 as Monday: "sun" must still mean Sunday.
    fire = weekly().next_fire(at(2026, 11, 30, 12))
    assert fire.strftime("%A %H:%M") == "Sunday 09:00"


def test_spring_forward_week_fires_at_local_nine() -> None:
    schedule = weekly()
    success = at(2026, 3, 22, 9, 0, 10)  # CET, the Sunday before the switch
    assert not schedule.due(at(2026, 3, 29, 8, 59), success)
    fire = schedule.next_fire(at(2026, 3, 28, 12))
    assert fire == at(2026, 3, 29, 9)
    assert fire.utcoffset() == dt.timedelta(hours=2)  # CEST
    previous = schedule.previous_fire(at(2026, 3, 28, 12))
    assert previous is not None
    # same local time, one real hour less: the clocks went forward
    assert fire.astimezone(UTC) - previous.astimezone(UTC) == dt.timedelta(days=7, hours=-1)


def test_fall_back_week_fires_once_at_local_nine() -> None:
    schedule = weekly()
    fire = schedule.next_fire(at(2026, 10, 24, 12))
    assert fire == at(2026, 10, 25, 9)
    assert fire.utcoffset() == dt.timedelta(hours=1)  # CET again
    after = schedule.next_fire(fire + dt.timedelta(seconds=1))
    assert after == at(2026, 11, 1, 9)


def test_a_time_that_does_not_exist_on_the_switch_day_still_fires_that_day() -> None:
    schedule = weekly("sun 02:30")
    fire = schedule.next_fire(at(2026, 3, 28, 12))
    assert fire.date() == dt.date(2026, 3, 29)
    assert not schedule.due(at(2026, 3, 29, 1, 0), at(2026, 3, 22, 3))
    assert schedule.due(fire + dt.timedelta(minutes=1), at(2026, 3, 22, 3))


def test_schedule_compares_across_time_zones() -> None:
    schedule = weekly()
    success_utc = at(2026, 11, 29, 8, 0, 30, zone=UTC)  # 09:00:30 in Berlin
    assert not schedule.due(at(2026, 11, 30, 12), success_utc)


@pytest.mark.parametrize(
    ("text", "quiet", "due"),
    [
        ("mon,thu 08:30", at(2026, 12, 3, 8, 29), at(2026, 12, 3, 8, 31)),  # next: Thursday
        ("daily 07:00", at(2026, 12, 1, 6, 59), at(2026, 12, 1, 7, 1)),  # next: Tuesday
    ],
)
def test_several_days_a_week(text: str, quiet: dt.datetime, due: dt.datetime) -> None:
    schedule = weekly(text)
    success = at(2026, 11, 30, 8, 40)  # Monday, after that day's run
    assert not schedule.due(quiet, success)
    assert schedule.due(due, success)
