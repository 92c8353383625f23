from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import pytest

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config
from memory_audit.config.settings import NotifySettings
from memory_audit.daemon.alerts import Alert, AlertCenter, alerts_for, body, scan_file
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.daemon.service import Daemon
from memory_audit.notify import DesktopBackend, Notifier
from memory_audit.resource_files import read_resource
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.rules import BUNDLED
from memory_audit.store.state import State
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES
from tests.support.in_process_daemon import FailsOnBoom, watched_tree
from tests.support.session_bus import session_bus
from tests.support.waiting import wait_until

TOKEN = CASES["github-pat"][0][0][0]


def secret(key: str, path: str) -> Alert:
    return Alert(key, "secret", "/tree", path, f"{path}:1 GitHub token ghp_R8mQ...aE7u")


@pytest.mark.slow
def test_alerts_arriving_during_a_slow_send_are_not_sent_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with session_bus(tmp_path / "bus", slow=True) as bus:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        state = State(tmp_path / "state")
        notifier = Notifier(NotifySettings(timeout_seconds=5.0), DesktopBackend())
        center = AlertCenter(state, notifier, 0.05, lambda: None)

        async def scenario() -> None:
            center.add([secret("a", "a.md")])
            await asyncio.sleep(0.4)  # the first send waits on the server
            center.add([secret("a", "a.md"), secret("b", "b.md")])  # a.md scanned again
            await wait_until(lambda: state.alert_count() == 2)  # each answered after 1 s
            await asyncio.sleep(0.3)  # room for a third notification, were one coming

        asyncio.run(scenario())
        bodies = [str(n["body"]) for n in bus.notifications()]
        assert state.alert_count() == 2  # each recorded once
        state.close()
    assert [b.splitlines()[0] for b in bodies] == [
        "a.md:1 GitHub token ghp_R8mQ...aE7u",
        "b.md:1 GitHub token ghp_R8mQ...aE7u",
    ]
    assert all(len(b.splitlines()) == 2 for b in bodies)  # one alert and the review line each


def test_secret_alerts_pause_without_the_patterns_file_and_resume_when_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tree = write_tree(
        tmp_path / "projects/-app/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    patterns = tmp_path / "my-patterns.md"
    settings = config.parse(
        f"roots: ['{tmp_path}/projects/*/memory']\n"
        f"state: {{dir: {tmp_path}/state}}\nreports: {{dir: {tmp_path}/reports}}\n"
        "watch: {debounce_seconds: 0.05}\nnotify: {backend: none, coalesce_seconds: 0.05}\n"
        f"checks: {{secrets: {{patterns: {patterns}}}}}\n",
        option_types=OPTION_TYPES,
    )
    caplog.set_level(logging.INFO, "memory_audit.daemon")
    missing = f"secret alerts paused: patterns file {patterns} not found"

    async def scenario() -> tuple[int, int]:
        daemon = Daemon(None, settings)
        serving = asyncio.create_task(daemon.serve())
        # The start-up sweep finds no rules, then neither does the leak's own batch.
        assert await wait_until(lambda: caplog.text.count(missing) == 1)
        (tree / "leak.md").write_text(memory("leak", body=f"token {TOKEN}"))
        assert await wait_until(lambda: caplog.text.count(missing) == 2)
        paused = daemon.state.alert_count()
        patterns.write_text(read_resource(*BUNDLED))
        (tree / "a.md").write_text(memory("a", body="edited"))  # any later change
        await wait_until(lambda: daemon.state.alert_count() > 0)
        resumed = daemon.state.alert_count()
        daemon.stop()
        await serving
        return paused, resumed

    assert asyncio.run(scenario()) == (0, 1)  # the leak, kept from the paused batch
    assert TOKEN not in caplog.text


def test_a_secret_in_a_file_whose_name_is_not_utf8_alerts_under_the_escaped_name(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "memory", {"MEMORY.md": index()})
    bad = root / os.fsdecode(b"n\xffo.md")
    bad.write_text(memory("n", body=f"deploy key {TOKEN}"))
    scan = scan_file(
        bad, root, secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state"))), 1 << 20
    )
    assert scan is not None
    [alert] = alerts_for(scan, State(tmp_path / "state"), frozenset())
    assert alert.path == "n\\xffo.md"
    assert alert.text.startswith("n\\xffo.md:6 GitHub personal access token ghp_")


def test_a_scan_failing_on_one_changed_file_still_scans_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body="boom"),
            "b.md": memory("b", body=f"key {TOKEN}"),
        },
    )
    scanner = FailsOnBoom(secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state"))))
    with caplog.at_level(logging.ERROR, logger="memory_audit.daemon"):
        scans = _scan_all({root / "a.md", root / "b.md"}, root, scanner, 1 << 20)  # type: ignore[arg-type]
    assert [(s.rel, len(s.matches)) for s in scans] == [("b.md", 1)]
    assert f"scanning {root / 'a.md'} failed: IndexError at in_process_daemon.py:" in caplog.text


def test_a_secret_alert_names_a_file_whose_name_holds_a_secret_masked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    named = "ghp_" + "Zq8mR2vX7kL4nP9sT1wY6zB3c0EcJz282aE7"
    tree, settings = watched_tree(tmp_path, caplog)

    async def scenario() -> None:
        daemon = Daemon(None, settings)
        serving = asyncio.create_task(daemon.serve())
        assert await wait_until(lambda: "watching" in caplog.text)
        (tree / f"{named}.md").write_text(memory("leak", body=f"token {TOKEN}"))
        assert await wait_until(lambda: "notification (logged only" in caplog.text)
        daemon.stop()
        await serving

    asyncio.run(scenario())
    # The alerts table; the journal keeps the real name, which `restore` writes back.
    stored = (tmp_path / "state" / "state.db").read_bytes()
    assert "ghp_...2aE7.md:" in caplog.text
    assert named not in caplog.text
    assert named[4:17].encode() not in stored


def test_a_file_named_by_a_secret_alerts_once_with_the_name_masked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    named = "ghp_" + "Wq8mR2vX7kL4nP9sT1wY6zB3c0NkyH1q2aE7"
    tree, settings = watched_tree(tmp_path, caplog)

    async def scenario() -> int:
        daemon = Daemon(None, settings)
        serving = asyncio.create_task(daemon.serve())
        assert await wait_until(lambda: "watching" in caplog.text)
        (tree / f"{named}.md").write_text(memory("plain", body="Nothing secret in here."))
        assert await wait_until(lambda: "alert:" in caplog.text)
        (tree / f"{named}.md").write_text(memory("plain", body="Edited, still plain."))
        await asyncio.sleep(0.5)  # a second change of the same file: no second alert
        count = daemon.state.alert_count()
        daemon.stop()
        await serving
        return count

    assert asyncio.run(scenario()) == 1
    assert (
        "alert: ghp_...2aE7.md: the name holds a possible GitHub personal access token"
        in caplog.text
    )
    assert named not in caplog.text


def test_a_batched_notification_leads_with_its_most_severe_event() -> None:
    alerts = [
        Alert("k1", "budget", "/t", "MEMORY.md", "MEMORY.md is past its load budget"),
        Alert("k2", "budget", "/u", "MEMORY.md", "MEMORY.md is past its load budget"),
        Alert("k3", "mass-change", "/t", "", "12 memory files deleted at 10:02"),
        Alert("k4", "budget", "/v", "MEMORY.md", "MEMORY.md is past its load budget"),
        Alert("k5", "secret", "/t", "a.md", "a.md:6 GitHub personal access token ghp_...aE7u"),
    ]
    lines = body(alerts).splitlines()
    assert lines[0].startswith("a.md:6 GitHub personal access token")
    assert lines[1] == "12 memory files deleted at 10:02"
    assert lines[3] == "…and 2 more (2 budget alerts)"
