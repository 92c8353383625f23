"""When the weekly audit is due: APScheduler's trigger plus our own catch-up.

The trigger is a ``CronTrigger`` built from day *names* (APScheduler 3 counts
day 0 as Monday, so crontab numbers would shift the day). APScheduler alone
fires only while the process is awake; the catch-up rule is ours, anacron
style: the audit is due when the trigger's most recent fire time is later
than the last successful run, or when there has never been one. The daemon
applies it at start, on a ~60 s tick and on the trigger, so a laptop that
slept through Sunday 09:00 audits soon after it wakes (asyncio timers do not
count suspended time, so the tick is what makes that prompt).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import tzlocal
from apscheduler.triggers.cron import CronTrigger

from memory_audit.config.settings import ScheduleSettings, WeeklyTime

LOOKBACK = dt.timedelta(days=8)


def timezone_for(name: str) -> dt.tzinfo:
    if name == "local":
        zone: dt.tzinfo = tzlocal.get_localzone()
        return zone
    return zoneinfo.ZoneInfo(name)


class WeeklySchedule:
    def __init__(self, weekly: WeeklyTime, zone: dt.tzinfo) -> None:
        self.zone = zone
        self.trigger = CronTrigger(
            day_of_week=weekly.day_of_week, hour=weekly.hour, minute=weekly.minute, timezone=zone
        )

    @classmethod
    def from_settings(cls, settings: ScheduleSettings) -> WeeklySchedule:
        return cls(settings.weekly_time, timezone_for(settings.timezone))

    def next_fire(self, now: dt.datetime) -> dt.datetime:
        fire: dt.datetime = self.trigger.get_next_fire_time(None, now.astimezone(self.zone))
        return fire

    def previous_fire(self, now: dt.datetime) -> dt.datetime | None:
        """The latest fire time at or before ``now``."""
        now = now.astimezone(self.zone)
        previous = None
        fire = self.trigger.get_next_fire_time(None, now - LOOKBACK)
        while fire is not None and fire <= now:
            previous = fire
            fire = self.trigger.get_next_fire_time(fire, fire + dt.timedelta(seconds=1))
        return previous

    def due(self, now: dt.datetime, last_success: dt.datetime | None) -> bool:
        if last_success is None:
            return True  # first start: a baseline audit now
        previous = self.previous_fire(now)
        return previous is not None and previous > last_success
