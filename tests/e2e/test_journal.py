"""The journal end to end: a real daemon, real file events, a real notification server,
and `memory-audit history` / `restore` as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.session_bus import SessionBus, session_bus

TOKEN = CASES["github-pat"][0][0][0]
CONFIG_EXTRA = "journal: {{retry_seconds: 1}}\n"


def loss_notifications(bus: SessionBus) -> list[dict[str, object]]:
    return [n for n in bus.notifications() if "memory files lost" in str(n["summary"])]


def test_journal_alert_title_names_secrets_first_then_lost_files() -> None:
    from memory_audit.daemon.alerts import Alert, title

    secret = Alert("k1", "secret", "/t", "a.md", "a.md:1 token")
    lost = Alert("k2", "mass-change", "/t", "", "t: 23 memory files deleted")
    assert title([lost]) == "memory-audit: memory files lost"
    assert title([secret, lost]) == "memory-audit: 1 possible secret in 1 file; memory files lost"


def cli(home: Home, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=home.env(),
        check=False,
    )


def consolidation_tree(home: Home) -> tuple[Path, dict[str, str]]:
    files = {f"feedback_rule_{i:02}.md": memory(f"rule-{i}", body=f"Rule {i}.") for i in range(23)}
    files["project_keep.md"] = memory("keep", body=f"Deploy key {TOKEN} (rotate it)")
    files["MEMORY.md"] = index(*sorted(files))
    return write_tree(home.projects / "-work-app" / "memory", files), files


@pytest.mark.slow
def test_journal_consolidation_deleting_23_files_alerts_once_and_restores(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    tree, files = consolidation_tree(home)
    originals = {name: (tree / name).read_bytes() for name in files}
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config()).start()
        try:
            assert daemon.wait_message("READY=1"), daemon.messages
            assert wait_for(lambda: "journal: baseline of 1 tree" in _log(home))
            assert wait_for(lambda: any("secret" in str(n["summary"]) for n in bus.notifications()))
            before = _now_text()
            lock = tree / ".consolidate-lock"
            lock.write_text(str(os.getpid()))
            for i in range(23):
                (tree / f"feedback_rule_{i:02}.md").unlink()
            assert wait_for(lambda: len(loss_notifications(bus)) == 1), bus.notifications()
            lock.unlink()
            assert not wait_for(lambda: len(loss_notifications(bus)) > 1, timeout=3)
            [alert] = loss_notifications(bus)
            assert "23 memory files deleted or emptied by Claude Code consolidation" in str(
                alert["body"]
            )
        finally:
            code, _, err = daemon.stop()
    assert code == 0, err

    timeline = cli(home, "history", str(tree))
    assert timeline.returncode == 0, timeline.stderr
    assert timeline.stdout.count("deleted") == 23
    assert timeline.stdout.count("by Claude Code consolidation (auto dream)") == 23
    assert "baseline" in timeline.stdout

    restored = cli(
        home, "restore", "--tree", str(tree), "--at", before, stdin="a\nconsolidation ate them\n"
    )
    assert restored.returncode == 0, restored.stderr + restored.stdout
    assert "23 files differ from then (23 deleted since)" in restored.stdout
    for name, content in originals.items():
        if name != "project_keep.md":  # its secret was masked in the journal; it was never lost
            assert (tree / name).read_bytes() == content, name
    after = cli(home, "history", str(tree))
    assert after.stdout.count("memory-audit restore (consolidation ate them)") == 23

    state = b"".join(p.read_bytes() for p in home.state.rglob("*") if p.is_file())
    assert TOKEN.encode() not in state


def _log(home: Home) -> str:
    return home.log.read_text() if home.log.exists() else ""


def _now_text() -> str:
    import datetime as dt

    return dt.datetime.now().astimezone().isoformat()


@pytest.mark.slow
def test_journal_a_file_rewritten_1000_times_loses_nothing_at_the_end(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = write_tree(home.projects / "-work-app" / "memory", {"MEMORY.md": index("busy.md")})
    daemon = DaemonProcess(home, home.config(debounce=0.2)).start()
    try:
        assert daemon.wait_message("READY=1"), daemon.messages
        assert wait_for(lambda: "journal: baseline of 1 tree" in _log(home))
        for i in range(1000):
            (tree / "busy.md").write_text(memory("busy", body=f"Revision {i}."))
        final = (tree / "busy.md").read_bytes()
        assert wait_for(
            lambda: f"busy.md  {len(final):,} B" in cli(home, "history", str(tree)).stdout
        )
    finally:
        code, _, err = daemon.stop()
    assert code == 0, err
    versions = cli(home, "history", str(tree / "busy.md"), "--format", "json").stdout
    import json

    recorded = json.loads(versions)
    assert 1 <= len(recorded) < 1000  # coalesced by the debounce
    newest = recorded[0]["id"]
    shown = cli(home, "history", str(tree / "busy.md"), "--diff").stdout
    assert "+Revision 999." in shown
    assert newest


@pytest.mark.slow
def test_journal_keeps_watching_and_alerting_when_its_disk_is_full(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    tree = write_tree(
        home.projects / "-work-app" / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")}
    )
    journal_dir = home.state / "journal"
    journal_dir.mkdir(parents=True)
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(journal_dir)], check=True
    )
    try:
        config = home.config()
        config.write_text(config.read_text() + "journal: {retry_seconds: 0.5}\n")
        with session_bus(tmp_path / "bus") as bus:
            home.bus_address = bus.address
            daemon = DaemonProcess(home, config).start()
            try:
                assert daemon.wait_message("READY=1"), daemon.messages
                assert wait_for(lambda: "journal: baseline of 1 tree" in _log(home))
                filler = journal_dir / "filler"
                subprocess.run(
                    ["dd", "if=/dev/zero", f"of={filler}", "bs=4k", "count=1000"],
                    capture_output=True,
                    check=False,
                )
                (tree / "a.md").write_text(memory("a", body="x" * 60_000 + f"\nkey {TOKEN}\n"))
                assert wait_for(lambda: "not recorded yet" in _log(home))
                assert wait_for(
                    lambda: any("secret" in str(n["summary"]) for n in bus.notifications())
                )
                filler.unlink()
                assert wait_for(
                    lambda: (
                        "a.md  " in cli(home, "history", str(tree / "a.md")).stdout
                        and "modified" in cli(home, "history", str(tree / "a.md")).stdout
                    )
                )
            finally:
                code, _, err = daemon.stop()
        assert code == 0, err
    finally:
        subprocess.run(["umount", str(journal_dir)], check=False)
