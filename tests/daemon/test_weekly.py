"""The real Daemon's weekly decision with an injected clock: catch-up, and a busy tree."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from pathlib import Path

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config
from memory_audit.daemon.service import Daemon
from tests.harness import index, memory, write_tree

START = dt.datetime(2026, 11, 25, 14, 0, tzinfo=dt.UTC)  # a Wednesday


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def settings(tmp_path: Path) -> config.Config:
    text = (
        f"roots: ['{tmp_path}/projects/*/memory']\nschedule: {{weekly: 'sun 09:00', timezone: UTC}}\n"
        f"notify: {{backend: none}}\nstate: {{dir: {tmp_path}/state}}\nreports: {{dir: {tmp_path}/reports}}\n"
    )
    return config.parse(text, option_types=OPTION_TYPES)


def test_baseline_then_sunday_then_nothing_until_the_next_sunday(tmp_path: Path) -> None:
    write_tree(tmp_path / "projects/-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    clock = Clock(START)

    async def scenario() -> list[str]:
        daemon = Daemon(None, settings(tmp_path), clock)
        kinds = []
        for now in (
            START,
            START + dt.timedelta(hours=1),  # baseline, then not due
            dt.datetime(2026, 11, 29, 9, 0, 30, tzinfo=dt.UTC),  # Sunday: due
            dt.datetime(2026, 12, 2, 8, 0, tzinfo=dt.UTC),
        ):  # woke Wednesday: done already
            clock.now = now
            await daemon.weekly()
            kinds.append(",".join(f"{r.kind}@{r.started_at:%d}" for r in daemon.state.runs()))
        daemon.state.close()
        return kinds

    assert asyncio.run(scenario()) == [
        "weekly@25",
        "weekly@25",
        "weekly@29,weekly@25",
        "weekly@29,weekly@25",
    ]


def test_a_tree_being_consolidated_is_waited_for_then_audited(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "projects/-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    lock = tree / ".consolidate-lock"
    lock.write_text(str(os.getpid()))  # a live process holds it
    os.utime(lock, (START.timestamp() - 60, START.timestamp() - 60))  # taken a minute ago
    clock = Clock(START)

    async def scenario() -> tuple[int, int, int]:
        daemon = Daemon(None, settings(tmp_path), clock)
        await daemon.weekly()
        busy = len(daemon.state.runs())
        lock.unlink()
        clock.now = START + dt.timedelta(minutes=2)
        await daemon.weekly()  # the retry time has not come yet
        early = len(daemon.state.runs())
        clock.now = START + dt.timedelta(minutes=6)
        await daemon.weekly()
        later = len(daemon.state.runs())
        daemon.state.close()
        return busy, early, later

    assert asyncio.run(scenario()) == (0, 0, 1)
    assert (tmp_path / "reports" / "latest" / "summary.json").exists()
