"""`service install|uninstall|status` in a temporary home, with and without a real user manager."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.harness import digest, index, memory, write_tree
from tests.support.daemon_process import Home, wait_for
from tests.support.user_manager import unavailable_reason, user_manager


def cli(home: Home, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**home.env(), "PATH": os.environ["PATH"]}
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def systemctl(home: Home, *args: str) -> str:
    env = {**home.env(), "PATH": os.environ["PATH"]}
    return subprocess.run(
        ["systemctl", "--user", *args], env=env, capture_output=True, text=True, check=False
    ).stdout.strip()


def listing(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    write_tree(
        home.projects / "-work-app" / "memory", {"MEMORY.md": index("gone.md"), "a.md": memory("a")}
    )
    (home.root / "run").mkdir(mode=0o700)
    return home


def test_install_print_changes_nothing(home: Home) -> None:
    before = digest(home.root)
    result = cli(home, "service", "install", "--print")
    assert result.returncode == 0
    assert result.stdout.startswith("# memory-audit: a systemd *user* unit")
    assert f"ExecStart={sys.executable} -m memory_audit daemon" in result.stdout
    assert digest(home.root) == before


def test_install_and_uninstall_without_a_reachable_user_manager(home: Home) -> None:
    before = listing(home.root)
    first = cli(home, "service", "install")
    assert first.returncode == 0, first.stderr
    unit = home.root / ".config/systemd/user/memory-audit.service"
    assert unit.exists()
    assert "systemd user manager is not reachable" in first.stdout
    assert "systemctl --user enable --now memory-audit.service" in first.stdout
    assert "loginctl enable-linger" in first.stdout
    assert "systemctl --user import-environment DBUS_SESSION_BUS_ADDRESS DISPLAY" in first.stdout
    installed = digest(home.root)
    assert cli(home, "service", "install").returncode == 0  # idempotent
    assert digest(home.root) == installed
    removed = cli(home, "service", "uninstall")
    assert removed.returncode == 0
    assert listing(home.root) == before
    assert "memory-audit service is not installed" in cli(home, "service", "uninstall").stdout


@pytest.mark.slow
def test_install_status_and_uninstall_with_a_real_user_manager(home: Home) -> None:
    if (missing := unavailable_reason()) is not None:
        pytest.fail(f"a real systemd user manager is needed for this test: {missing}")
    env = {**home.env(), "PATH": os.environ["PATH"]}
    with user_manager(env):
        before = listing(home.root)
        installed = cli(home, "service", "install")
        assert installed.returncode == 0, installed.stdout + installed.stderr
        assert "memory-audit is enabled and running" in installed.stdout
        assert systemctl(home, "is-enabled", "memory-audit.service") == "enabled"
        assert wait_for(lambda: systemctl(home, "is-active", "memory-audit.service") == "active")
        assert wait_for((home.reports / "latest" / "summary.json").exists, timeout=30)
        assert wait_for(lambda: "Watched trees: 1 (1 inotify)" in cli(home, "status").stdout)
        status = cli(home, "status").stdout
        assert "Service: systemd unit installed, enabled; daemon running (pid" in status
        assert "(weekly: ok, first run: 2 findings in 1 trees)" in status
        assert "      2  -work-app" in status
        assert "active" in cli(home, "service", "status").stdout
        reinstall = cli(home, "service", "install")
        assert "systemctl --user restart memory-audit.service" in reinstall.stdout
        removed = cli(home, "service", "uninstall", "--purge", "--yes")
        assert removed.returncode == 0, removed.stderr
        assert systemctl(home, "is-active", "memory-audit.service") != "active"
        time.sleep(0.5)
        # $XDG_RUNTIME_DIR belongs to the user manager (its dbus and gpg sockets come and go).
        left = {p for p in listing(home.root) - before if not p.startswith("run/")}
        assert left == set()
        assert {p for p in before - listing(home.root) if not p.startswith("run/")} == set()
