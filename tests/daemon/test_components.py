"""Each of the service's components built alone, with what it needs and nothing else:
the scheduler, the watcher, the journal feed and the alerter. (Together they are the
Daemon: tests/daemon/test_reload.py, test_weekly.py and tests/e2e/test_daemon*.py.)"""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
from pathlib import Path

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.config.settings import NotifySettings
from memory_audit.daemon.alerts import Alert, AlertCenter
from memory_audit.daemon.change_alerts import ChangeWatcher, scanner_of
from memory_audit.daemon.components import build_notifier, build_store
from memory_audit.daemon.journal_feed import JournalFeed
from memory_audit.daemon.tasks import Background
from memory_audit.daemon.weekly_audits import CATCH_UP_JOB, WEEKLY_JOB, WeeklyAudits
from memory_audit.store.state import State
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES
from tests.support.waiting import wait_until

TOKEN = CASES["github-pat"][0][0][0]
WEDNESDAY = dt.datetime(2026, 11, 25, 14, 0, tzinfo=dt.UTC)
NEXT_MONDAY = dt.datetime(2026, 11, 30, 7, 30, tzinfo=dt.UTC)  # Sunday 09:00 slept through
RUN_TIMEOUT = 120.0  # an audit in a child process, on a busy machine


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def configured(tmp_path: Path, extra: str = "") -> config_module.Config:
    text = (
        f"roots: ['{tmp_path}/projects/*/memory']\nstate: {{dir: {tmp_path}/state}}\n"
        f"reports: {{dir: {tmp_path}/reports}}\n"
        "schedule: {weekly: 'sun 09:00', timezone: UTC, tick_seconds: 1}\n"
        "notify: {backend: none, coalesce_seconds: 0.05}\n" + extra
    )
    return config_module.parse(text, option_types=OPTION_TYPES)


def a_tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "projects/-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )


def finished(state: State) -> list[str]:
    return [r.kind for r in state.runs() if r.status == "ok"]


def scheduler(config: config_module.Config, state: State, clock: Clock) -> WeeklyAudits:
    notifier = build_notifier(config.settings.notify)
    return WeeklyAudits(config, state, build_store(config), notifier, clock)


# ---- the scheduler ------------------------------------------------------------


def test_the_scheduler_starts_the_weekly_audit_through_apscheduler_alone(tmp_path: Path) -> None:
    """One starter: the cron job (no grace limit, coalesced) and the catch-up job, both
    through the one due check; the first catch-up is at start."""
    a_tree(tmp_path)
    config = configured(tmp_path)
    state = State(config.state_dir)

    async def scenario() -> tuple[dict[str, tuple[object, bool, int]], int]:
        audits = scheduler(config, state, Clock(WEDNESDAY))
        audits.start()
        assert audits.scheduler is not None
        jobs = {
            job.id: (job.misfire_grace_time, job.coalesce, job.max_instances)
            for job in audits.scheduler.get_jobs()
        }
        await wait_until(lambda: state.last_success() is not None, timeout=RUN_TIMEOUT)
        audits.stop()
        return jobs, len(state.runs())

    jobs, runs = asyncio.run(scenario())
    state.close()
    assert jobs == {WEEKLY_JOB: (None, True, 1), CATCH_UP_JOB: (None, True, 1)}
    assert runs == 1  # the first start: a baseline audit, at once


def test_a_sunday_slept_through_is_audited_once_soon_after_waking(tmp_path: Path) -> None:
    """A suspend: the clock jumps from Wednesday past Sunday 09:00 while the scheduler
    runs; the catch-up job sees it within a tick and the audit runs once."""
    a_tree(tmp_path)
    config = configured(tmp_path)
    state = State(config.state_dir)
    clock = Clock(WEDNESDAY)

    async def scenario() -> list[str]:
        audits = scheduler(config, state, clock)
        audits.start()
        await wait_until(lambda: state.last_success() is not None, timeout=RUN_TIMEOUT)
        clock.now = NEXT_MONDAY  # woke up
        await wait_until(lambda: len(finished(state)) == 2, timeout=RUN_TIMEOUT)
        await asyncio.sleep(2.5)  # two more ticks: nothing more is due
        audits.stop()
        return [f"{r.kind}@{r.started_at:%d}" for r in state.runs()]

    assert asyncio.run(scenario()) == ["weekly@30", "weekly@25"]
    state.close()


def test_after_a_restart_only_a_missed_sunday_is_audited(tmp_path: Path) -> None:
    """A restart: a new scheduler on the same state runs at start only when the trigger
    fired after the last success (anacron-style), however often it is restarted."""
    a_tree(tmp_path)
    config = configured(tmp_path)
    state = State(config.state_dir)

    def settled(count: int) -> bool:
        runs = state.runs()
        return len(runs) == count and all(r.status == "ok" for r in runs)

    async def started_at(now: dt.datetime, expected: int) -> int:
        audits = scheduler(config, state, Clock(now))
        audits.start()
        await wait_until(lambda: settled(expected), timeout=RUN_TIMEOUT)
        await asyncio.sleep(1.5)  # the first catch-up and one more tick: nothing more
        audits.stop()
        return len(state.runs())

    starts = ((WEDNESDAY, 1), (WEDNESDAY + dt.timedelta(days=1), 1), (NEXT_MONDAY, 2))
    counts = [asyncio.run(started_at(now, expected)) for now, expected in (*starts, starts[-1])]
    state.close()
    assert counts == [1, 1, 2, 2]


# ---- the watcher ----------------------------------------------------------------


def test_the_watcher_alone_alerts_a_changed_file_and_hands_the_change_on(tmp_path: Path) -> None:
    tree = a_tree(tmp_path)
    config = configured(tmp_path, "watch: {debounce_seconds: 0.05}\n")
    state = State(config.state_dir)
    changed: list[Path] = []
    seen: list[list[Path]] = []

    async def scenario() -> int:
        notifier = build_notifier(config.settings.notify)
        alerts = AlertCenter(state, notifier, 0.05, lambda: None)
        background = Background()
        watcher = ChangeWatcher(
            config,
            state,
            Clock(WEDNESDAY),
            lambda: alerts,
            lambda: notifier,
            background.spawn,
            changed=changed.append,
            trees_seen=seen.append,
        )
        watcher.start()
        await asyncio.sleep(0.3)  # the sweep of what was there: nothing to say
        (tree / "leak.md").write_text(memory("leak", body=f"token {TOKEN}"))
        await wait_until(lambda: state.alert_count() > 0)
        watcher.stop()
        background.cancel()
        return state.alert_count()

    assert asyncio.run(scenario()) == 1
    state.close()
    assert tree / "leak.md" in changed
    assert seen
    assert seen[0] == [tree]


# ---- the journal feed -------------------------------------------------------------


def test_the_journal_feed_alone_takes_a_baseline_then_records_a_change(tmp_path: Path) -> None:
    tree = a_tree(tmp_path)
    config = configured(tmp_path)
    state = State(config.state_dir)

    async def scenario() -> list[str]:
        notifier = build_notifier(config.settings.notify)
        alerts = AlertCenter(state, notifier, 0.05, lambda: None)
        background = Background()
        feed = JournalFeed(
            config, lambda: scanner_of(config), lambda: alerts, lambda: [], background.spawn
        )
        assert feed.journal is not None
        index_ = feed.journal.journal.index
        feed.start()
        await wait_until(lambda: len(index_.history(str(tree))) == 2)  # MEMORY.md and a.md
        (tree / "a.md").write_text(memory("a", body=f"Now with a token {TOKEN}."))
        feed.changed(tree / "a.md")
        await wait_until(lambda: len(index_.history(str(tree), "a.md")) == 2)
        kinds = [v.kind for v in index_.history(str(tree), "a.md")]
        feed.stop()
        background.cancel()
        return kinds

    assert asyncio.run(scenario()) == ["modified", "baseline"]
    state.close()


# ---- the alerter -------------------------------------------------------------------


def test_the_alerter_stamps_alerts_with_its_clock(tmp_path: Path) -> None:
    state = State(tmp_path / "state")
    notifier = build_notifier(NotifySettings(backend="none"))
    alert = Alert("k1", "secret", "/tree", "a.md", "a.md:1 GitHub token ghp_R8mQ...aE7u")

    async def scenario() -> None:
        alerts = AlertCenter(state, notifier, 0.05, lambda: None, clock=Clock(WEDNESDAY))
        alerts.start()
        alerts.add([alert])
        await wait_until(lambda: state.alert_count() == 1)
        alerts.stop()

    asyncio.run(scenario())
    state.close()
    with sqlite3.connect(tmp_path / "state" / "state.db") as db:
        [(sent_at,)] = db.execute("SELECT sent_at FROM alerts").fetchall()
    assert sent_at.startswith("2026-11-25T14:00")


def test_a_fire_queued_before_the_scheduler_stopped_reads_no_closed_state(tmp_path: Path) -> None:
    """The daemon's shutdown closes the state right after the scheduler stops: a due check
    spawned and not yet run, or a fire APScheduler had already queued, must not read it
    then (a fresh-clone CI saw `Cannot operate on a closed database` at a daemon's stop)."""
    a_tree(tmp_path)
    config = configured(tmp_path)
    state = State(config.state_dir)

    async def scenario() -> list[BaseException]:
        audits = scheduler(config, state, Clock(WEDNESDAY))
        audits.start()
        await audits._fire()  # a due check spawned: it runs at the loop's next turn
        queued = audits._fire()  # a fire the scheduler had queued
        audits.stop()
        state.close()
        await queued
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        results = await asyncio.gather(*others, return_exceptions=True)
        return [r for r in results if isinstance(r, Exception)]

    assert asyncio.run(scenario()) == []
