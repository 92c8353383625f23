"""The real daemon finds, audits, watches and journals agents' memory in every scope (issue 29)."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from memory_audit.tree.discovery import slugify
from tests.e2e.test_agent_memory import project_with_agents
from tests.harness import memory
from tests.install.test_service_command import cli
from tests.secrets.samples import ALNUM, rnd
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.session_bus import session_bus
from tests.support.terminal import Terminal


def logged(home: Home, text: str) -> bool:
    return home.log.exists() and text in home.log.read_text()


def watched(home: Home) -> set[str]:
    with sqlite3.connect(home.state / "state.db") as db:
        return {str(r[0]) for r in db.execute("SELECT root FROM watched")}


def versions(home: Home, path: Path) -> list[dict[str, object]]:
    shown = cli(home, "history", str(path), "--format", "json").stdout
    return list(json.loads(shown)) if shown.strip().startswith("[") else []


@pytest.mark.slow
def test_agent_stores_of_each_scope_are_audited_watched_alerted_and_restored(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    repo = project_with_agents(home.root, tmp_path)
    stores = {
        "user": home.root / ".claude/agent-memory/plugin-reviewer",
        "project": repo.path / ".claude/agent-memory/release-helper",
        "local": repo.path / ".claude/agent-memory-local/release-helper",
    }
    tokens = {scope: github_token("ghp_", rnd(ALNUM, 36)) for scope in stores}
    lost = stores["local"] / "a.md"
    original = lost.read_bytes()
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        daemon = DaemonProcess(home, home.config()).start()
        try:
            assert daemon.wait_message("READY=1")
            assert wait_for(lambda: logged(home, "weekly audit:"), timeout=60)
            assert wait_for(lambda: {str(s) for s in stores.values()} <= watched(home))
            for scope, store in stores.items():
                (store / f"leak-{scope}.md").write_text(
                    memory(f"leak-{scope}", body=f"key {tokens[scope]}")
                )
            for scope in stores:
                assert wait_for(lambda scope=scope: logged(home, f"alert: leak-{scope}.md:"))
            # the alerts are coalesced for a moment before they are sent: wait for the send
            assert wait_for(lambda: all(f"leak-{s}.md" in notified(bus) for s in stores))
            assert len(versions(home, lost)) == 1  # the baseline
            lost.unlink()
            assert wait_for(lambda: len(versions(home, lost)) == 2)
        finally:
            code, _, err = daemon.stop()
        assert code == 0, err
    # audited, in a section of their own in the weekly reports
    latest = home.reports / "latest"
    summary = (latest / "summary.md").read_text()
    agents = summary[summary.index("## Agent memory") :]
    for label in (
        "agent plugin-reviewer (user)",
        "agent release-helper (project)",
        "agent release-helper (local)",
    ):
        assert f"| {label} |" in agents
    assert "Agent memory" in (latest / "index.html").read_text()
    assert str(repo.path) not in agents.split("\n")[2]  # the project table holds no agent row
    assert slugify(repo.path) not in agents
    # alerted once each, the secrets masked
    text = notified(bus)
    for scope, token in tokens.items():
        assert f"leak-{scope}.md" in text
        assert token not in text
        assert token not in home.log.read_text()
    # restored from the journal
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "restore", str(lost)],
        {**home.env(), "TERM": "xterm"},
    )
    assert "a.md: the file was deleted" in term.expect("Restore this version?")
    term.send("y")
    term.expect("Why restore?")
    term.send("deleted by mistake")
    assert term.wait() == 0
    assert lost.read_bytes() == original


def notified(bus: Any) -> str:
    return " ".join(str(n["body"]) for n in bus.notifications())
