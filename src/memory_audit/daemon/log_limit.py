"""Rate-limiting the service's log: one bad file must not rotate the log's history away.

Lines are grouped by kind (logger, level and the message's format string, so every
``alert: %s`` is one kind, and a failure repeated with the same words is one kind). Of
each kind, the first ``burst`` lines of a ``window`` are written; the rest are counted,
and when the window ends one line says how many were not written and shows the last of
them: ``… repeated 94,980 more times in 60 s (not written): secret alerts paused: …``.
The summary is written with the first line logged after the window, at the daemon's
tick, and when the log is closed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

BURST = 20
WINDOW_SECONDS = 60.0
Kind = tuple[str, int, str]


@dataclass
class _Window:
    opened: float
    closes_at: float
    written: int = 0
    held: int = 0  # lines of this kind not written in this window
    last: logging.LogRecord | None = None
    identical: bool = True  # every line held said the same as the last


class RepeatLimiter:
    """Decides, line by line, what is written: the line itself, summaries, or nothing."""

    def __init__(
        self,
        burst: int = BURST,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.window = window
        self.clock = clock
        self._windows: dict[Kind, _Window] = {}

    def admit(self, record: logging.LogRecord) -> list[logging.LogRecord]:
        now = self.clock()
        written = self.closed(now)
        kind = (record.name, record.levelno, str(record.msg))
        window = self._windows.setdefault(kind, _Window(now, now + self.window))
        if window.written < self.burst:
            window.written += 1
            written.append(record)
        else:
            message = record.getMessage()
            if window.last is not None and window.last.getMessage() != message:
                window.identical = False
            window.held += 1
            window.last = record
        return written

    def closed(self, now: float | None = None) -> list[logging.LogRecord]:
        """The summaries of the windows ended by ``now`` (all of them when None)."""
        ended = [k for k, w in self._windows.items() if now is None or now >= w.closes_at]
        summaries = []
        for kind in ended:
            window = self._windows.pop(kind)
            if window.held:
                summaries.append(_summary(window, (now or self.clock()) - window.opened))
        return summaries


def _summary(window: _Window, seconds: float) -> logging.LogRecord:
    last = window.last
    assert last is not None  # a window that held lines saw the last of them
    how = (
        f"repeated {window.held:,} more times"
        if window.identical
        else f"{window.held:,} more lines like it"
    )
    return logging.makeLogRecord(
        {
            "name": last.name,
            "levelno": last.levelno,
            "levelname": last.levelname,
            "msg": "… %s in %.0f s (not written); the last: %s",
            "args": (how, seconds, last.getMessage()),
        }
    )


class RepeatLimitedHandler(logging.Handler):
    """Hands what the limiter lets through to the real handlers (stderr, the file)."""

    def __init__(self, targets: list[logging.Handler], limiter: RepeatLimiter) -> None:
        super().__init__()
        self.targets = targets
        self.limiter = limiter

    def emit(self, record: logging.LogRecord) -> None:
        self._write(self.limiter.admit(record))

    def write_summaries(self) -> None:
        """The counts of the windows that have ended (the daemon calls this on its tick)."""
        self.acquire()
        try:
            self._write(self.limiter.closed(self.limiter.clock()))
        finally:
            self.release()

    def _write(self, records: list[logging.LogRecord]) -> None:
        for record in records:
            for target in self.targets:
                target.handle(record)

    def flush(self) -> None:
        for target in self.targets:
            target.flush()

    def close(self) -> None:
        self._write(self.limiter.closed())
        for target in self.targets:
            target.close()
        super().close()
