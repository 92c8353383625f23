from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from memory_audit.regular_files import FileTooLarge, NotRegularFile, read_regular_within


def read_within(path: Path, limit: int, seconds: float = 10.0) -> bytes | OSError:
    """What ``read_regular_within`` returned or raised; fails the test if it had not
    returned in time (a FIFO opened for reading with no writer would wait for good)."""
    outcome: list[bytes | OSError] = []

    def attempt() -> None:
        try:
            outcome.append(read_regular_within(path, limit))
        except OSError as exc:
            outcome.append(exc)

    reader = threading.Thread(target=attempt, daemon=True)
    reader.start()
    reader.join(seconds)
    assert outcome, f"reading {path} did not return within {seconds} s"
    return outcome[0]


def test_a_file_up_to_the_limit_is_read_whole(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"x" * 10)
    assert read_within(tmp_path / "a", 10) == b"x" * 10
    (tmp_path / "empty").write_bytes(b"")
    assert read_within(tmp_path / "empty", 0) == b""


def test_a_file_over_the_limit_is_refused_with_its_size(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"x" * 11)
    refused = read_within(tmp_path / "a", 10)
    assert isinstance(refused, FileTooLarge)
    assert (refused.size, refused.limit) == (11, 10)


def test_a_file_whose_size_says_less_than_it_holds_is_refused_once_past_the_limit() -> None:
    # /proc files say 0 bytes and hold more: as a file that grew while it was read.
    refused = read_within(Path("/proc/self/status"), 16)
    assert isinstance(refused, FileTooLarge)
    assert refused.size is None


def test_a_fifo_a_folder_and_a_device_are_refused_at_once_with_their_kind(
    tmp_path: Path,
) -> None:
    os.mkfifo(tmp_path / "pipe")
    for path, kind in ((tmp_path / "pipe", stat.S_IFIFO), (tmp_path, stat.S_IFDIR)):
        refused = read_within(path, 1024)
        assert isinstance(refused, NotRegularFile)
        assert stat.S_IFMT(refused.mode) == kind
    assert isinstance(read_within(Path("/dev/zero"), 1024), NotRegularFile)


def test_a_missing_file_is_the_usual_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_regular_within(tmp_path / "none", 10)


def test_a_link_is_read_only_when_links_may_be_followed(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_bytes(b"seed data\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    assert read_regular_within(tmp_path / "link.txt", 100) == b"seed data\n"
    with pytest.raises(OSError, match=r"[Tt]oo many|link") as refused:
        read_regular_within(tmp_path / "link.txt", 100, follow_links=False)
    assert refused.value.errno == errno.ELOOP
    assert read_regular_within(tmp_path / "real.txt", 100, follow_links=False) == b"seed data\n"
