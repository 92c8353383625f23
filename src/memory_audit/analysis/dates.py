"""Dates as people write them in frontmatter: YAML dates, ISO strings, "after 3 months".

Unparseable values are reported by the checks, never guessed.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

ISO_PREFIX = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?![\d])")
RELATIVE = re.compile(
    r"^\s*(?:after|in)\s+(\d+|a|an|one|two|three|four|six|twelve)\s+(day|week|month|year)s?\b", re.I
)
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "twelve": 12}
DAYS_PER = {"day": 1, "week": 7, "month": 30, "year": 365}
# More days than any date can be away from another: "after 10000 years" is never due.
NEVER = (dt.date.max - dt.date.min).days + 1


def parse_date(value: Any) -> dt.date | None:
    """A date from a YAML date/datetime or a string starting with YYYY-MM-DD."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        return None
    match = ISO_PREFIX.match(value)
    if match is None:
        return None
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def looks_like_date(value: Any) -> bool:
    return isinstance(value, str) and ISO_PREFIX.match(value) is not None


def relative_days(text: str) -> int | None:
    """Days in "after 3 months — reassess", or None when the text is not relative."""
    match = RELATIVE.match(text)
    if match is None:
        return None
    amount = match.group(1).lower()
    if not amount.isdigit():
        count = NUMBERS[amount]
    else:  # int() refuses over 4,300 digits; a count that long is "never" anyway
        count = int(amount) if len(amount) <= len(str(NEVER)) else NEVER
    return min(count * DAYS_PER[match.group(2).lower()], NEVER)


def add_days(base: dt.date, days: int) -> dt.date:
    """``base`` moved by ``days``, saturating at the first and last representable dates."""
    try:
        return base + dt.timedelta(days=days)
    except OverflowError:
        return dt.date.max if days > 0 else dt.date.min


def date_of_timestamp(seconds: float) -> dt.date:
    """The local date of a file time; a time out of range saturates instead of raising."""
    try:
        return dt.datetime.fromtimestamp(seconds).date()
    except (OverflowError, OSError, ValueError):
        return dt.date.max if seconds > 0 else dt.date.min
