"""After the first audit: offer the weekly service once, remember a "no".

What the user sees: README, "In Claude Code".
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TextIO

from memory_audit.atomic import ensure_private_dir, write_atomic

OFFERS = "offers.json"
COMMAND = "memory-audit service install"


def offer_weekly(
    state_dir: Path, unit_installed: bool, inp: TextIO, err: TextIO, install: object
) -> None:
    """Ask once whether to install the weekly service; a no (or no answer) is remembered."""
    path = state_dir / OFFERS
    try:
        offers = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        offers = {}
    if unit_installed or offers.get("weekly_service"):
        return
    err.write(
        f"\nWant this audit every week? `{COMMAND}` runs it in the background on Sunday "
        "at 09:00, alerts within seconds when a secret lands in a memory file, and never "
        "changes your memory.\n"
    )
    answer = "shown"
    if inp.isatty():
        err.write("Install it now? [y/N] ")
        err.flush()
        with contextlib.suppress(EOFError, KeyboardInterrupt):
            answer = "accepted" if inp.readline().strip().lower() in ("y", "yes") else "declined"
    with contextlib.suppress(OSError):
        ensure_private_dir(state_dir)
        write_atomic(path, json.dumps({**offers, "weekly_service": answer}))
    if answer == "accepted" and callable(install):
        install()
