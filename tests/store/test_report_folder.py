"""``reports.dir`` is a folder the tool owns: it never writes among, chmods, replaces or
prunes what it did not write."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from memory_audit.config.settings import Config, ReportSettings, Settings
from memory_audit.daemon.components import writable_store
from memory_audit.store.report_folder import MARKER, ReportsDirRefused
from memory_audit.store.reports import ReportStore
from tests.store.test_reports import sample_run
from tests.support.daemon_process import DaemonProcess, Home


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def listing(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder`` with its bytes (None for folders)."""
    return {
        str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes()
        for p in sorted(folder.rglob("*"))
    }


def test_a_new_folder_is_created_private_and_marked(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        folder = ReportStore(tmp_path / "data/reports", keep=3).write(sample_run(tmp_path), {})
    finally:
        os.umask(old)
    root = folder.parent
    assert mode(root) == 0o700
    assert mode(root / MARKER) == 0o600
    assert (root / MARKER).read_text() == "created\n"


def test_an_existing_empty_folder_is_adopted_without_changing_its_mode(tmp_path: Path) -> None:
    root = tmp_path / "shared-reports"
    root.mkdir()
    os.chmod(root, 0o750)  # noqa: S103 - a mode the tool must not change
    folder = ReportStore(root, keep=3).write(sample_run(tmp_path), {})
    assert mode(root) == 0o750
    assert (root / MARKER).read_text() == "adopted\n"
    assert mode(folder) == 0o700  # the run itself is still private


def test_an_existing_folder_with_the_users_files_is_refused_untouched(tmp_path: Path) -> None:
    root = tmp_path / "Documents"
    root.mkdir()
    os.chmod(root, 0o750)  # noqa: S103 - a mode the tool must not change
    (root / "taxes.pdf").write_bytes(b"%PDF")
    (root / "2020-01-01T000000").mkdir()
    before = listing(root)
    with pytest.raises(ReportsDirRefused, match="did not create and it is not empty"):
        ReportStore(root, keep=1).write(sample_run(tmp_path), {})
    assert listing(root) == before
    assert mode(root) == 0o750


def test_a_users_file_called_latest_is_never_replaced(tmp_path: Path) -> None:
    root = tmp_path / "reports"
    store = ReportStore(root, keep=3)
    store.write(sample_run(tmp_path), {})
    (root / "latest").unlink()
    (root / "latest").write_text("my notes")
    store.write(sample_run(tmp_path), {})
    assert (root / "latest").read_text() == "my notes"


def test_a_users_symlink_called_latest_is_never_replaced(tmp_path: Path) -> None:
    root = tmp_path / "reports"
    store = ReportStore(root, keep=3)
    store.write(sample_run(tmp_path), {})
    (root / "latest").unlink()
    (root / "latest").symlink_to(tmp_path)
    store.write(sample_run(tmp_path), {})
    assert os.readlink(root / "latest") == str(tmp_path)


def test_pruning_removes_only_run_folders_the_store_wrote(tmp_path: Path) -> None:
    root = tmp_path / "reports"
    store = ReportStore(root, keep=1)
    store.write(sample_run(tmp_path), {})
    lookalike = root / "2020-01-01T000000"  # the name of a run, but no summary of ours
    lookalike.mkdir()
    (lookalike / "notes.txt").write_text("mine")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "summary.json").write_text("{}")
    (root / "2020-01-02T000000").symlink_to(elsewhere)  # a link is never a run folder
    (root / ".tmp-notes").mkdir()
    folders = [store.write(sample_run(tmp_path), {}) for _ in range(3)]
    store.clean_partial()
    assert store.runs() == folders[-1:]
    assert (lookalike / "notes.txt").read_text() == "mine"
    assert (elsewhere / "summary.json").read_text() == "{}"
    assert (root / ".tmp-notes").is_dir()


def test_a_folder_of_runs_from_a_version_without_marker_is_adopted(tmp_path: Path) -> None:
    root = tmp_path / "reports"
    store = ReportStore(root, keep=5)
    first = store.write(sample_run(tmp_path), {})
    (root / MARKER).unlink()
    second = store.write(sample_run(tmp_path), {})
    assert store.runs() == [first, second]
    assert (root / MARKER).read_text() == "adopted\n"


def test_purge_removes_what_the_store_wrote_and_keeps_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "reports"
    store = ReportStore(root, keep=3)
    store.write(sample_run(tmp_path), {})
    (root / "mine.txt").write_text("keep me")
    assert store.remove_own() is False
    assert listing(root) == {"mine.txt": b"keep me"}
    (root / "mine.txt").unlink()
    assert ReportStore(root, keep=3).remove_own() is False  # no longer marked: not ours
    assert root.is_dir()
    store.write(sample_run(tmp_path), {})
    assert store.remove_own() is True
    assert not root.exists()


def test_a_reload_to_a_refused_folder_keeps_the_old_store(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "Documents"
    root.mkdir()
    (root / "letter.txt").write_text("dear")
    config = Config(Settings(reports=ReportSettings(dir=str(root))))
    with caplog.at_level(logging.ERROR, logger="memory_audit.daemon"):
        assert writable_store(config) is None
    assert "did not create and it is not empty" in caplog.text
    assert listing(root) == {"letter.txt": b"dear"}


def test_the_daemon_refuses_to_run_with_a_users_folder_as_reports_dir(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.root.mkdir()
    root = tmp_path / "Documents"
    root.mkdir()
    os.chmod(root, 0o750)  # noqa: S103 - a mode the tool must not change
    (root / "letter.txt").write_text("dear")
    config = home.config()
    config.write_text(config.read_text() + f"reports: {{dir: {root}}}\n")
    code, _, err = DaemonProcess(home, config).start("--once").finish()
    assert code == 2
    assert f"reports.dir {root} is a folder memory-audit did not create" in err
    assert "not starting" in home.log.read_text()
    assert listing(root) == {"letter.txt": b"dear"}
    assert mode(root) == 0o750
