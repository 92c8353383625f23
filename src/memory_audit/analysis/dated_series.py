"""Dated series: notes that share a name and differ by a date stamp.

``status-2026-04-14.md``, ``status-2026-04-20.md``, … are one series: a weekly
checkpoint a scheduled task writes and a reader finds by name, or a log kept one
note a day. ``duplicates`` compares a series' notes as one; ``orphans`` judges it once.
A note named for its day (``note_day``) records that day: ``stale-refs`` reads the paths
it names as they were then, and ``duplicates`` never pairs two such records.
"""

from __future__ import annotations

import datetime
import re

# A file name is short and bounded: the look-arounds cost nothing here.
DATE_IN_NAME = re.compile(r"(?<!\d)(?:19|20)\d\d[-_.]?[01]\d[-_.]?[0-3]\d(?!\d)")
# ... and the time of day a stamp may carry after it (``c-20260309-0945``,
# ``20260703T053138Z``) or the day's count (``2026-05-01-2``): part of the stamp, not of the
# series' name, or a log kept every few hours would be a series per time slot. Never the
# start of a second date (``week-2026-05-04-2026-05-10``: its ``-2026`` is no time)
STAMP_IN_NAME = re.compile(
    DATE_IN_NAME.pattern
    + r"(?:[-_T.]?(?:[01]\d|2[0-4])[0-5]\d(?:[0-5]\d)?Z?(?!\d)(?![-_.]?[01]\d[-_.]?[0-3]\d(?!\d))"
    + r"|[-_.]\d{1,2}(?!\d))?"
)
SERIES_MINIMUM = 3  # two dated notes may be a coincidence; three are a habit
# What a dated file name says when the file is no day's note: a version's stamp or a document
# cut on that day (a plan, a release, a spec), which still claims what it names
VERSIONED_NAME = re.compile(
    r"(?i)(?:^|[-_. ])(?:v[0-9]|(?:plans?|releases?|specs?|versions?|roadmap|design)(?=$|[-_. ]))"
)


def series_key(path: str) -> str | None:
    """``notes/status-#.md`` for ``notes/status-2026-04-14.md`` (and for
    ``notes/status-20260414-0930.md``): its series, or None."""
    folder, _, name = path.rpartition("/")
    key, dated = STAMP_IN_NAME.subn("#", name.removesuffix(".md"))
    return f"{folder}/{key}" if dated and key.strip("#-_ ") else None


# A name that is a journal's entry number (``cycles/66.md``) or a number after a journal's
# word (``cycle-12.md``): an agent's numbered cycles and reports. Not ``rule-1.md``,
# ``part-2.md`` or ``adr-004.md``, numbered parts or decisions of their own (a synthetic
# tree's ``note_00042.md`` too), nor a number inside the name (``P001-smith.md``)
NUMBERED_NAME = re.compile(
    r"(?i)(?:|(?:.*[-_ ])?(?:cycles?|sessions?|runs?|entry|entries|iterations?|rounds?|days?|"
    r"logs?|reports?|episodes?|heartbeats?|ticks?|turns?)[-_ ]?)(\d{1,6})"
)


def numbered_key(path: str) -> tuple[str, int] | None:
    """``cycles/#`` and 66 for ``cycles/66.md``: the numbered series a note may be of (a
    dated name is of a dated series or a day's note, whose day ends in a number too)."""
    folder, _, name = path.rpartition("/")
    stem = name.removesuffix(".md")
    match = NUMBERED_NAME.fullmatch(stem)
    if match is None or DATE_IN_NAME.search(stem) is not None:
        return None
    return f"{folder}/{stem[: match.start(1)]}#", int(match.group(1))


def shown(key: str) -> str:
    """A series key as a reader writes it: ``notes/status-<date>.md``."""
    return key.lstrip("/").replace("#", "<date>") + ".md"


def note_day(path: str) -> str | None:
    """``2026-05-01`` for a note named for its day (``2026-05-01.md``, ``c-20260501-0915.md``,
    ``standup_2026.05.01.md``): the date its file name holds, or None. Not a version's stamp
    (``runbook-v2026.05.01.md``, ``release-plan-v5-2026-05-01.md``, a plan or a spec named
    for the day it was cut: it still claims what it names), nor a day no calendar has."""
    name = path.rpartition("/")[2].removesuffix(".md")
    match = DATE_IN_NAME.search(name)
    if match is None or VERSIONED_NAME.search(DATE_IN_NAME.sub(" ", name)) is not None:
        return None
    if match.start() > 0 and name[match.start() - 1] in "vV":
        return None
    digits = re.sub(r"[-_.]", "", match.group())
    try:
        day = datetime.date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        return None
    return day.isoformat()
