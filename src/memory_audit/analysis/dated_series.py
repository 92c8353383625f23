"""Dated series: notes that share a name and differ by a date stamp.

``status-2026-04-14.md``, ``status-2026-04-20.md``, … are one series: a weekly
checkpoint a scheduled task writes and a reader finds by name, or a log kept one
note a day. ``duplicates`` compares a series' notes as one; ``orphans`` judges it once.
"""

from __future__ import annotations

import re

# A file name is short and bounded: the look-arounds cost nothing here.
DATE_IN_NAME = re.compile(r"(?<!\d)(?:19|20)\d\d[-_.]?[01]\d[-_.]?[0-3]\d(?!\d)")
SERIES_MINIMUM = 3  # two dated notes may be a coincidence; three are a habit


def series_key(path: str) -> str | None:
    """``notes/status-#.md`` for ``notes/status-2026-04-14.md``: its series, or None."""
    folder, _, name = path.rpartition("/")
    key, dated = DATE_IN_NAME.subn("#", name.removesuffix(".md"))
    return f"{folder}/{key}" if dated and key.strip("#-_ ") else None


def shown(key: str) -> str:
    """A series key as a reader writes it: ``notes/status-<date>.md``."""
    return key.lstrip("/").replace("#", "<date>") + ".md"
