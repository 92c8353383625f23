"""The first commands a new user types: `make test`'s package step and `make demo`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.harness import digest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "ensure-debian-packages"
STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
echo "{name} ran"
"""


def _bin_with(tmp_path: Path, stubs: tuple[str, ...], real: tuple[str, ...]) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in real:
        found = shutil.which(name)
        assert found, name
        (folder / name).symlink_to(found)
    for name in stubs:
        (folder / name).write_text(STUB.format(log=tmp_path / "calls", name=name))
        (folder / name).chmod(0o755)
    return folder


def _run_script(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [shutil.which("bash") or "/bin/bash", str(SCRIPT)],
        env={"PATH": str(folder), "HOME": os.environ["HOME"]},
        capture_output=True,
        text=True,
        check=False,
    )


def test_packages_are_named_before_installing_and_the_lock_is_waited_for(
    tmp_path: Path,
) -> None:
    sudo = () if os.getuid() == 0 else ("sudo",)
    folder = _bin_with(tmp_path, ("apt-get", *sudo), ("sort", "id", "basename"))
    result = _run_script(folder)
    assert result.returncode == 0, result.stderr
    announced = result.stdout.index("The tests need these Debian packages, missing here: ")
    assert announced < result.stdout.index("apt-get ran")
    for package in ("chromium", "dbus-daemon", "git", "systemd", "util-linux"):
        assert package in result.stdout.splitlines()[0]
    calls = (tmp_path / "calls").read_text().splitlines()
    apt_calls = [c for c in calls if c.startswith("apt-get")]
    assert apt_calls[0] == "apt-get -o DPkg::Lock::Timeout=300 update -qq"
    assert apt_calls[1].startswith("apt-get -o DPkg::Lock::Timeout=300 install -y")
    assert "up to 5 minutes" in result.stdout


def test_nothing_is_installed_when_nothing_is_missing(tmp_path: Path) -> None:
    present = ("dbus-daemon", "dbus-run-session", "systemd-analyze", "git", "chromium", "setpriv")
    folder = _bin_with(tmp_path, ("apt-get", *present), ("sort", "id", "basename"))
    result = _run_script(folder)
    assert (result.returncode, result.stdout) == (0, "")
    assert not (tmp_path / "calls").exists()


def test_the_readme_says_make_test_needs_debian_packages_and_root() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert "chromium" in setup
    assert "root or sudo" in setup


def test_make_demo_leaves_home_untouched(tmp_path: Path) -> None:
    """The demo with a fresh HOME: every byte of it hashed before and after."""
    home = tmp_path / "home"
    (home / ".local/state").mkdir(parents=True)
    (home / ".claude").mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XDG_", "CLAUDE_", "MAKE", "PYTHON"))
    }
    env.update({"HOME": str(home), "NO_COLOR": "1"})
    before = digest(home)
    demo = tmp_path / "demo"
    result = subprocess.run(
        # -o: the venv is ready; the test must not reinstall it.
        ["make", "-s", "-o", ".venv/.installed", "demo", f"DEMO_DIR={demo}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Memory audit: " in result.stdout
    assert digest(home) == before
    assert sorted(p.name for p in home.rglob("*")) == [".claude", ".local", "state"]
    assert (demo / "state/memory-audit/secret-salt").exists()
    assert (demo / "report.html").exists()


def test_the_readme_usage_section_shows_the_summary_screen() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    usage = readme.split("## Usage", 1)[1].split("\n## ", 1)[0]
    assert "Summary: " in usage
    assert "  TOTAL " in usage
    assert "Walk them one decision at a time (1. Apply  2. Skip  3. Edit  4. View detail):" in usage
