"""Waiting for a condition inside an asyncio loop, without blocking it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.05)
    return condition()
