"""`-o FILE` never destroys what is there: devices and FIFOs are written in place."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.harness import index, memory, write_tree


def audit_to(tree: Path, output: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_audit",
            "audit",
            "--format",
            "json",
            "-o",
            str(output),
            str(tree),
        ],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
        timeout=120,
    )


@pytest.fixture
def tree(tree_dir: Path) -> Path:
    return write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", type="bad")})


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_character_device_is_written_in_place_not_replaced(tree: Path, tmp_path: Path) -> None:
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the same device as /dev/null
    null.chmod(0o666)
    result = audit_to(tree, null)
    assert result.returncode == 1, result.stderr
    info = os.stat(null)
    assert stat.S_ISCHR(info.st_mode)
    assert info.st_rdev == os.makedev(1, 3)
    assert stat.S_IMODE(info.st_mode) == 0o666


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_symlink_to_a_device_stays_a_link_to_the_device(tree: Path, tmp_path: Path) -> None:
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    link = tmp_path / "stdout"
    link.symlink_to(null)
    assert audit_to(tree, link).returncode == 1
    assert link.is_symlink()
    assert stat.S_ISCHR(os.stat(null).st_mode)


def test_a_fifo_is_written_in_place_and_its_reader_gets_the_report(
    tree: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = audit_to(tree, fifo)
    assert result.returncode == 1, result.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    reader.join(timeout=60)
    assert b'"memory-audit/run@1"' in received[0]


def test_a_folder_is_refused_with_exit_2(tree: Path, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    result = audit_to(tree, folder)
    assert result.returncode == 2
    assert f"--output: {folder} is a folder; name a file in it" in result.stderr
    assert [p.name for p in folder.iterdir()] == ["keep.txt"]


def test_a_missing_parent_folder_is_refused_with_exit_2(tree: Path, tmp_path: Path) -> None:
    result = audit_to(tree, tmp_path / "nowhere" / "report.json")
    assert result.returncode == 2
    assert f"the folder {tmp_path / 'nowhere'} does not exist" in result.stderr
    assert not (tmp_path / "nowhere").exists()


def test_a_regular_file_is_replaced_whole_and_private(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    out.write_text("old " * 10_000)
    assert audit_to(tree, out).returncode == 1
    assert out.read_text().startswith("{")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
