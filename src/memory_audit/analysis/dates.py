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
    count = int(amount) if amount.isdigit() else NUMBERS[amount]
    return count * DAYS_PER[match.group(2).lower()]
