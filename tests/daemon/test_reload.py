"""SIGHUP builds the changed components anew; work in progress carries over."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config
from memory_audit.config.settings import NotifySettings
from memory_audit.daemon.alerts import Alert, AlertCenter
from memory_audit.daemon.components import build_notifier
from memory_audit.daemon.service import Daemon
from memory_audit.store.state import State
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES
from tests.support.waiting import wait_until

TOKEN = CASES["github-pat"][0][0][0]


def test_watching_switched_on_by_a_reload_catches_what_landed_before_it(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "projects/-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    path = tmp_path / "config.yaml"
    text = (
        f"roots: ['{tmp_path}/projects/*/memory']\nstate: {{dir: {tmp_path}/state}}\n"
        f"reports: {{dir: {tmp_path}/reports}}\nnotify: {{backend: none, coalesce_seconds: 0.05}}\n"
    )
    path.write_text(text + "watch: {enabled: false}\n")

    async def scenario() -> tuple[int, int, bool]:
        daemon = Daemon(path, config.load(path, OPTION_TYPES))
        serving = asyncio.create_task(daemon.serve())
        await wait_until(lambda: daemon.state.last_success() is not None)
        (tree / "leak.md").write_text(memory("leak", body=f"token {TOKEN}"))
        await asyncio.sleep(0.3)
        unwatched = daemon.state.alert_count()
        path.write_text(text + "watch: {enabled: true, debounce_seconds: 0.05}\n")
        daemon.reload()
        await wait_until(lambda: daemon.state.alert_count() > 0)
        watched = daemon.state.alert_count()
        daemon.stop()
        await serving
        return unwatched, watched, daemon.watcher is not None

    assert asyncio.run(scenario()) == (0, 1, True)


def alert(key: str) -> Alert:
    return Alert(key, "secret", "/tree", f"{key}.md", f"{key}.md:1 GitHub token ghp_R8mQ...aE7u")


def test_alerts_waiting_in_the_old_queue_are_sent_once_by_the_new_one(tmp_path: Path) -> None:
    state = State(tmp_path / "state")
    old_notifier = build_notifier(NotifySettings(backend="none"))
    old = AlertCenter(state, old_notifier, 600.0, lambda: None)  # would wait ten minutes
    new_notifier = build_notifier(NotifySettings(backend="none", coalesce_seconds=0.05))

    async def scenario() -> int:
        old.add([alert("a"), alert("b")])
        new = AlertCenter(state, new_notifier, 0.05, lambda: None)
        new.take_over(old)
        await wait_until(lambda: state.alert_count() == 2, timeout=5)
        await old.flush()  # nothing left there to send a second time
        return state.alert_count()

    assert asyncio.run(scenario()) == 2
    state.close()


def test_a_rebuilt_notifier_counts_the_hours_notifications_already_sent() -> None:
    settings = NotifySettings(backend="none", max_per_hour=1)
    first = build_notifier(settings)

    async def scenario() -> tuple[bool | None, bool | None, bool | None]:
        sent = await first.send("t", "m")
        rebuilt = build_notifier(settings, previous=first)
        fresh = build_notifier(settings)
        return sent, await rebuilt.send("t", "m"), await fresh.send("t", "m")

    # True: accepted (the log backend's line is its delivery); None: held back.
    assert asyncio.run(scenario()) == (True, None, True)


def test_a_reports_dir_it_cannot_create_is_refused_and_the_reports_stay_put(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write_tree(tmp_path / "projects/-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    path = tmp_path / "config.yaml"
    text = f"roots: ['{tmp_path}/projects/*/memory']\nstate: {{dir: {tmp_path}/state}}\n"
    path.write_text(text + f"reports: {{dir: {tmp_path}/reports}}\nnotify: {{backend: none}}\n")
    daemon = Daemon(path, config.load(path, OPTION_TYPES))
    path.write_text(text + f"reports: {{dir: {blocker}/reports}}\nnotify: {{backend: none}}\n")
    caplog.set_level(logging.INFO, "memory_audit.daemon")
    daemon.reload()
    asyncio.run(daemon.weekly())
    daemon.state.close()
    assert f"reports.dir {blocker}/reports is not writable (Not a directory)" in caplog.text
    assert "rebuilt: nothing" in caplog.text
    assert (tmp_path / "reports" / "latest" / "summary.json").exists()
    assert daemon.config.report_dir == tmp_path / "reports"
