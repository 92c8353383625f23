"""The one error hierarchy; ``cli.main`` maps it to exit codes in one place."""

from __future__ import annotations

import traceback
from pathlib import Path


class MemoryAuditError(Exception):
    """Base of every error the tool reports to the user as a sentence."""

    exit_code = 3


class UsageError(MemoryAuditError):
    """Bad arguments, no tree where one was asked for: exit 2."""

    exit_code = 2


class ConfigError(UsageError):
    """Invalid configuration; the message names every bad key and its line."""


class AlreadyRunning(UsageError):
    """A second daemon for the same user."""


def describe(exc: BaseException) -> str:
    """``KeyError at tree.py:88``: what failed and where, never the message.

    An exception's message may quote file content (a secret), so logs, reports
    and the terminal get only its type and the line that raised it.
    """
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return type(exc).__name__
    last = frames[-1]
    return f"{type(exc).__name__} at {Path(last.filename).name}:{last.lineno}"
