"""``memory-audit dismiss FINGERPRINT --reason …`` and ``memory-audit changelog``."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from memory_audit.commands.targets import resolve_targets
from memory_audit.config import settings as config_module
from memory_audit.daemon.state import State
from memory_audit.errors import UsageError
from memory_audit.fix.changelog import changelog_path

FINGERPRINT = re.compile(r"^[0-9a-f]{8,64}$")


def dismiss(*, fingerprint: str, reason: str, config_path: Path | None, out: TextIO) -> int:
    if not FINGERPRINT.match(fingerprint):
        raise UsageError(
            f"{fingerprint!r} is not a finding fingerprint (hex, from the JSON report)"
        )
    config = config_module.load(config_path)
    state = State(config.state_dir)
    try:
        state.dismiss(fingerprint, None, reason, dt.datetime.now().astimezone())
    finally:
        state.close()
    out.write(
        f"dismissed {fingerprint}: it stays out of notifications and is listed apart in reports\n"
    )
    return 0


def show_changelog(
    *, paths: Sequence[str], project: str | None, config_path: Path | None, out: TextIO
) -> int:
    config = config_module.load(config_path)
    refs = resolve_targets(paths, project, config)
    for ref in refs:
        path = changelog_path(config.changelog_dir, ref.location.slug or ref.root.name)
        if path.exists():
            out.write(path.read_text(encoding="utf-8"))
        else:
            out.write(
                f"No changelog yet for {ref.label} (review sessions that apply fixes add to it).\n"
            )
    return 0
