"""Fixtures for every test: a private home, so no test reads or writes the real one."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from memory_audit import checks


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--checks-raise",
        action="store_true",
        help="self-test of the suite: every check raises; every check test must then fail",
    )


class _RaisingCheck:
    def __init__(self, module: object) -> None:
        self._module = module

    def __getattr__(self, name: str) -> object:
        return getattr(self._module, name)

    def check(self, *_: object) -> None:
        raise RuntimeError("check disabled by --checks-raise")


_passed_with_checks_raising: list[str] = []
_failed_with_checks_raising: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--checks-raise"):
        # Every check the registry hands out raises: the module lookup itself is replaced.
        real = checks.check_module

        def raising(dimension: str) -> checks.Check:
            return cast(checks.Check, _RaisingCheck(real(dimension)))

        checks.check_module = raising


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        (_passed_with_checks_raising if report.passed else _failed_with_checks_raising).append(
            report.nodeid
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With --checks-raise the suite passes only when every test it ran failed."""
    if not session.config.getoption("--checks-raise"):
        return
    if _passed_with_checks_raising or not _failed_with_checks_raising:
        print("\nself-test FAILED: these tests pass although every check raises:")
        print("\n".join(f"  {node}" for node in _passed_with_checks_raising) or "  (no test ran)")
        session.exitstatus = 1
    else:
        print(
            f"\nself-test: all {len(_failed_with_checks_raising)} check tests fail when checks raise"
        )
        session.exitstatus = 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first: spread over xdist workers, the longest ones do not finish last."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """HOME and the XDG folders point into a fresh directory for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CACHE_HOME", ".cache"),
    ):
        monkeypatch.setenv(name, str(home / sub))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return home


@pytest.fixture
def tree_dir(tmp_path: Path) -> Path:
    return tmp_path / "memory"
