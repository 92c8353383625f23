"""What tests of the daemon run in this process share: a watched tree, and a scanner that fails."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config
from memory_audit.secrets.scanner import Scanner
from tests.harness import index, memory, write_tree


def watched_tree(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> tuple[Path, config.Config]:
    """A tree under a projects folder and the settings of a daemon that watches it quickly,
    logging its alerts (no notification server)."""
    tree = write_tree(
        tmp_path / "projects/-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    settings = config.parse(
        f"roots: ['{tmp_path}/projects/*/memory']\n"
        f"state: {{dir: {tmp_path}/state}}\nreports: {{dir: {tmp_path}/reports}}\n"
        "watch: {debounce_seconds: 0.05}\nnotify: {backend: none, coalesce_seconds: 0.05}\n",
        option_types=OPTION_TYPES,
    )
    caplog.set_level(logging.INFO, "memory_audit.daemon")
    return tree, settings


class FailsOnBoom:
    """A scanner with a bug nobody has met yet: it raises on one file's text."""

    def __init__(self, real: Scanner) -> None:
        self.real = real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)  # its rules and false positives

    def scan(self, text: str) -> object:
        if "boom" in text:
            raise IndexError("the file's text")
        return self.real.scan(text)
