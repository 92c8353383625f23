"""Work the daemon hands to a thread: file scans, the journal, writing reports.

These are short and bounded (each file is read up to its size cap; the secret
rules run on RE2, linear; zlib and file I/O release the GIL), so a thread is
enough for them: the loop's pauses stay in the tens of milliseconds. The audit
itself, unbounded in what it parses, runs in a child process
(:mod:`memory_audit.daemon.audit_process`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_daemon_thread(work: Callable[[], T]) -> asyncio.Future[T]:
    """Run ``work`` on a daemon thread: unlike executor threads, an exit never waits for it."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if not future.done():
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)  # type: ignore[arg-type]

    def target() -> None:
        try:
            result = work()
        except BaseException as exc:  # handed to the awaiting coroutine
            outcome: tuple[T | None, BaseException | None] = (None, exc)
        else:
            outcome = (result, None)
        if not loop.is_closed():  # the daemon may have stopped meanwhile
            loop.call_soon_threadsafe(settle, *outcome)

    threading.Thread(target=target, name="memory-audit-worker", daemon=True).start()
    return future
