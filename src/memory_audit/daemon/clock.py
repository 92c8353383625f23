"""The service's sense of time, injected into each component so tests can move it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]


def local_now() -> dt.datetime:
    return dt.datetime.now().astimezone()
