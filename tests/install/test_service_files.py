"""The rendered service files, checked by the tools that read them."""

from __future__ import annotations

import os
import plistlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memory_audit.install.launchd import LABEL, LaunchdBackend
from memory_audit.install.spec import ServiceSpec
from memory_audit.install.systemd import SystemdBackend

MAX_EXPOSURE = 3.0


def analyze(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}
    return subprocess.run(
        ["systemd-analyze", "--user", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def render_unit(tmp_path: Path, python: Path, config: Path | None = None) -> Path:
    spec = ServiceSpec(
        python, config, (tmp_path / "data dir", tmp_path / "state%dir"), tmp_path / "log"
    )
    unit = tmp_path / "memory-audit.service"
    unit.write_text(SystemdBackend().render(spec))
    return unit


def test_systemd_unit_verifies_with_empty_stderr(tmp_path: Path) -> None:
    render_unit(tmp_path, Path(sys.executable))
    result = analyze(tmp_path, "verify", "memory-audit.service")
    assert result.returncode == 0
    assert result.stderr == ""


def test_systemd_unit_quotes_awkward_paths(tmp_path: Path) -> None:
    odd = tmp_path / "my venv 100%" / "bin"
    odd.mkdir(parents=True)
    (odd / "python").symlink_to(sys.executable)
    config = tmp_path / "config $HOME.yaml"
    unit = render_unit(tmp_path, odd / "python", config)
    text = unit.read_text()
    assert 'ExecStart="' + str(odd / "python").replace("%", "%%") + '"' in text
    assert '"' + str(config).replace("$", "$$") + '"' in text
    result = analyze(tmp_path, "verify", "memory-audit.service")
    assert (result.returncode, result.stderr) == (0, "")


def test_systemd_unit_has_the_promised_settings(tmp_path: Path) -> None:
    text = render_unit(tmp_path, Path(sys.executable)).read_text()
    for line in (
        "Type=notify",
        "WatchdogSec=120",
        "Restart=on-failure",
        "RestartSec=15",
        "RestartPreventExitStatus=2",
        "WantedBy=default.target",
        "PrivateUsers=yes",
        "NoNewPrivileges=yes",
        "RestrictAddressFamilies=AF_UNIX",
        "LockPersonality=yes",
        "SystemCallArchitectures=native",
        "ProtectSystem=strict",
        "ProtectHome=read-only",
    ):
        assert f"\n{line}\n" in text, line
    assert "\nPrivateNetwork" not in text
    assert f'ReadWritePaths=-"{tmp_path}/data dir" -{tmp_path}/state%%dir' in text


def test_systemd_security_exposure_is_low(tmp_path: Path) -> None:
    render_unit(tmp_path, Path(sys.executable))
    result = analyze(tmp_path, "security", "--offline=yes", "memory-audit.service")
    match = re.search(r"Overall exposure level for memory-audit.service: ([0-9.]+)", result.stdout)
    assert match, result.stdout[-500:] + result.stderr
    assert float(match.group(1)) <= MAX_EXPOSURE


def test_launchd_plist_loads_with_the_types_launchd_expects(tmp_path: Path) -> None:
    spec = ServiceSpec(
        Path("/Users/me/.local/pipx/venvs/memory audit & co/bin/python"),
        Path("/Users/me/<cfg>.yaml"),
        (),
        Path("/Users/me/Library/Logs/memory-audit/daemon.log"),
    )
    data = plistlib.loads(LaunchdBackend().render(spec).encode())
    assert data["Label"] == LABEL
    assert data["ProgramArguments"] == [
        str(spec.python),
        "-m",
        "memory_audit",
        "daemon",
        "--config",
        "/Users/me/<cfg>.yaml",
    ]
    assert all(isinstance(a, str) for a in data["ProgramArguments"])
    assert Path(data["ProgramArguments"][0]).is_absolute()
    assert data["RunAtLoad"] is True
    assert data["KeepAlive"] == {"SuccessfulExit": False}
    assert isinstance(data["ThrottleInterval"], int)
    assert not isinstance(data["ThrottleInterval"], bool)
    assert data["ProcessType"] in ("Background", "Standard", "Adaptive", "Interactive")
    for key in ("StandardOutPath", "StandardErrorPath"):
        assert isinstance(data[key], str)
        assert Path(data[key]).is_absolute()
    assert data["EnvironmentVariables"] == {"PYTHONUNBUFFERED": "1"}


@pytest.mark.parametrize("backend", [SystemdBackend(), LaunchdBackend()])
def test_every_placeholder_is_filled(
    backend: SystemdBackend | LaunchdBackend, tmp_path: Path
) -> None:
    text = backend.render(ServiceSpec(Path(sys.executable), None, (tmp_path,), tmp_path / "log"))
    assert "{{" not in text
    assert "memory-audit service install" in text
