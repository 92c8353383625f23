"""The first commands a new user types: `make test`'s package step and `make demo`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

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
    assert result.stdout.endswith("or put it on your PATH with: make install\n")  # its last word
    assert _readme_excerpt() <= _without_fingerprints(result.stdout.replace(f"{ROOT}/", ""))


FINGERPRINT = re.compile(r" \[[0-9a-f]{8}\]$", re.M)


def _without_fingerprints(text: str) -> set[str]:
    """Lines without their fingerprint: a secret's depends on the demo's own salt."""
    return {line for line in FINGERPRINT.sub("", text).splitlines() if line.strip()}


def _readme_excerpt() -> set[str]:
    """The lines README shows from `make demo` (its "..." stand for lines left out)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```\nMemory audit: examples/drifted-memory/", 1)[1].split("```", 1)[0]
    lines = _without_fingerprints("Memory audit: examples/drifted-memory/" + block)
    return lines - {"..."}


def test_the_readme_usage_section_shows_the_summary_screen() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    usage = readme.split("## Usage", 1)[1].split("\n## ", 1)[0]
    assert "Summary: " in usage
    assert "  TOTAL " in usage
    assert "Walk them one decision at a time (1. Apply  2. Skip  3. Edit  4. View detail):" in usage


def _fresh_shell(
    home: Path, command: str, path: str = "/usr/bin:/bin"
) -> subprocess.CompletedProcess[str]:
    """``command`` in a new login-less shell: nothing of this process's environment."""
    return subprocess.run(
        ["env", "-i", f"HOME={home}", f"PATH={path}", "NO_COLOR=1", "sh", "-c", command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _run_hint(home: Path) -> list[str]:
    result = _fresh_shell(home, "make -s --no-print-directory run-hint")
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()


def test_the_command_make_demo_prints_last_runs_in_a_fresh_shell(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert _fresh_shell(home, "command -v memory-audit").returncode != 0  # not on this PATH
    hint = _run_hint(home)
    assert hint[-1] == "or put it on your PATH with: make install"
    command = hint[-2].strip()
    assert command == f"{ROOT}/.venv/bin/memory-audit audit examples/drifted-memory"
    result = _fresh_shell(home, command)
    assert result.returncode == 1, result.stderr  # findings
    assert result.stdout.startswith(f"Memory audit: {ROOT}/examples/drifted-memory/")


@pytest.mark.slow  # a real pip install into a new virtualenv
def test_make_install_without_pipx_puts_memory_audit_on_the_path(tmp_path: Path) -> None:
    """No pipx here: a virtualenv of its own, linked into ~/.local/bin (a real pip install)."""
    home = tmp_path / "home"
    home.mkdir()
    assert shutil.which("pipx", path="/usr/bin:/bin") is None
    installed = _fresh_shell(home, "make -s --no-print-directory install")
    assert installed.returncode == 0, installed.stderr
    assert f"{home}/.local/bin is not on your PATH" in installed.stdout
    result = _fresh_shell(home, "memory-audit --version", path=f"{home}/.local/bin:/usr/bin:/bin")
    assert (result.returncode, result.stdout) == (0, "memory-audit 0.1.0\n"), result.stderr


def test_make_install_uses_pipx_when_there_is_one(tmp_path: Path) -> None:
    folder = _bin_with(tmp_path, ("pipx",), ("make", "sh", "basename"))
    result = subprocess.run(
        ["make", "-s", "--no-print-directory", "install"],
        cwd=ROOT,
        env={"PATH": f"{folder}:{tmp_path}/home/.local/bin", "HOME": str(tmp_path / "home")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "calls").read_text() == "pipx install --force .\n"
    assert "is not on your PATH" not in result.stdout


def test_the_readme_usage_section_starts_with_how_to_run_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    usage = readme.split("## Usage", 1)[1].split("\n## ", 1)[0]
    first_block = usage.split("```sh", 1)[1].split("```", 1)[0]
    assert "make install" in first_block
    assert ".venv/bin/memory-audit" in first_block
    assert usage.index("make install") < usage.index("\nmemory-audit audit")
