"""Background tasks of one component: kept referenced until done, cancelled at its stop.

asyncio holds tasks weakly; a task nobody references can vanish mid-run. Each
component gets a :class:`Background` of its own (or the daemon's ``spawn``), so stopping
a component cancels exactly the work it started.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()
