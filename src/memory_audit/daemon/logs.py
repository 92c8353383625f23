"""The service's log: stderr (journald and launchd capture it) and a rotating file."""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

import platformdirs

from memory_audit.atomic import ensure_private_dir
from memory_audit.config.paths import APP

FORMAT = "%(asctime)s %(levelname)s %(message)s"


def log_dir() -> Path:
    return Path(platformdirs.user_log_dir(APP))


def setup(level: int = logging.INFO) -> Path:
    folder = ensure_private_dir(log_dir())
    path = folder / "daemon.log"
    logger = logging.getLogger("memory_audit")
    logger.setLevel(level)
    logger.handlers.clear()
    stream = logging.StreamHandler()
    stream.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(stream)
    rotating = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3)
    rotating.setFormatter(logging.Formatter(FORMAT))
    logger.addHandler(rotating)
    os.chmod(path, 0o600)
    # desktop-notifier logs a traceback for every failed send; one line of ours is enough.
    logging.getLogger("desktop_notifier").setLevel(logging.ERROR)
    return path
