"""The hook's own XDG folders are the ones platformdirs gives everything else."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import pytest

from memory_audit.config.user_dirs import APP, claude_home, user_dir

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the XDG rules are Linux's")


@pytest.mark.parametrize("value", [None, "", "relative/dir", "/abs/xdg"])
def test_user_dirs_match_platformdirs(
    value: str | None, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        if value is None:
            monkeypatch.delenv(variable)
        else:
            monkeypatch.setenv(variable, value)
    assert user_dir("config") == platformdirs.user_config_dir(APP)
    assert user_dir("data") == platformdirs.user_data_dir(APP)
    assert user_dir("state") == platformdirs.user_state_dir(APP)
    assert user_dir("state").startswith("/abs/xdg/" if value == "/abs/xdg" else str(isolated_home))


def test_claude_home_follows_claude_config_dir(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert claude_home() == str(isolated_home / ".claude")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/elsewhere")
    assert claude_home() == str(isolated_home / "elsewhere")
