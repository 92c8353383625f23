"""The one error hierarchy; ``cli.main`` maps it to exit codes in one place."""

from __future__ import annotations


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
