"""The service's log: stderr (journald and launchd capture it) and a rotating file.

Both are behind one :class:`~memory_audit.daemon.log_limit.RepeatLimitedHandler`: a
flood of lines of one kind (a bad file failing at every change, thousands of alerts
from one file) is counted, not written line by line, so it cannot rotate away the
history the file holds.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from collections.abc import Callable
from pathlib import Path

import platformdirs

from memory_audit.atomic import ensure_private_dir
from memory_audit.config.paths import APP
from memory_audit.daemon.log_limit import RepeatLimitedHandler, RepeatLimiter
from memory_audit.model.visible import visible

FORMAT = "%(asctime)s %(levelname)s %(message)s"


class VisibleFormatter(logging.Formatter):
    """Log messages name memory files: a file name with a newline or an escape sequence
    must not forge a log line or drive the terminal that tails the log, and a secret in a
    file, folder or project name (``watching ~/.claude/projects/-work-xoxb-…``) is masked
    by ``mask``, the secret rules run over the line."""

    def __init__(self, fmt: str, mask: Callable[[str], str] | None = None) -> None:
        super().__init__(fmt)
        self.mask = mask

    def formatMessage(self, record: logging.LogRecord) -> str:
        message = self.mask(record.message) if self.mask is not None else record.message
        record.message = visible(message)
        return super().formatMessage(record)


def log_dir() -> Path:
    return Path(platformdirs.user_log_dir(APP))


def setup(level: int = logging.INFO, mask: Callable[[str], str] | None = None) -> Path:
    folder = ensure_private_dir(log_dir())
    path = folder / "daemon.log"
    logger = logging.getLogger("memory_audit")
    logger.setLevel(level)
    logger.handlers.clear()
    stream = logging.StreamHandler()
    stream.setFormatter(VisibleFormatter("%(levelname)s %(message)s", mask))
    rotating = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3)
    rotating.setFormatter(VisibleFormatter(FORMAT, mask))
    logger.addHandler(RepeatLimitedHandler([stream, rotating], RepeatLimiter()))
    os.chmod(path, 0o600)
    # desktop-notifier logs a traceback for every failed send; one line of ours is enough.
    logging.getLogger("desktop_notifier").setLevel(logging.ERROR)
    return path


def write_repeat_summaries() -> None:
    """Say now how many lines each ended window held back (else the next line would)."""
    for handler in logging.getLogger("memory_audit").handlers:
        if isinstance(handler, RepeatLimitedHandler):
            handler.write_summaries()
