from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from memory_audit.journal.blobs import BadBlobName, BlobStore, BlobTooLarge, CorruptBlob, digest
from tests.support.bombs import bomb


def test_blobs_same_content_is_stored_once_and_read_back_exactly(tmp_path: Path) -> None:
    store = BlobStore(tmp_path / "blobs")
    first = store.put(b"alpha\r\nbeta\n")
    assert store.put(b"alpha\r\nbeta\n") == first
    assert store.get(first) == b"alpha\r\nbeta\n"
    assert list(store.names()) == [first]
    assert store.path(first).stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "blobs").stat().st_mode & 0o777 == 0o700


def test_blobs_a_corrupt_blob_is_detected_by_its_hash(tmp_path: Path) -> None:
    store = BlobStore(tmp_path / "blobs")
    name = store.put(b"the real content")
    store.path(name).write_bytes(zlib.compress(b"something else"))
    with pytest.raises(CorruptBlob):
        store.get(name)
    store.path(name).write_bytes(b"not even zlib")
    with pytest.raises(CorruptBlob):
        store.get(name)


WRITER = """
import sys, os
sys.path.insert(0, {src!r})
from pathlib import Path
from memory_audit.journal.blobs import BlobStore
store = BlobStore(Path({folder!r}))
print("writing", flush=True)
n = 0
while True:
    n += 1
    store.put(os.urandom(3 * 1024 * 1024) + str(n).encode())
"""


def test_blobs_kill_9_while_writing_leaves_no_half_blob_under_a_name(tmp_path: Path) -> None:
    folder = tmp_path / "blobs"
    src = str(Path(__file__).resolve().parents[2] / "src")
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER.format(src=src, folder=str(folder))],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "writing"
    deadline = time.monotonic() + 60
    while not list(folder.glob("*/[0-9a-f]*")) and time.monotonic() < deadline:
        time.sleep(0.01)  # at least one blob whole, the next one likely half written
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    store = BlobStore(folder)
    names = list(store.names())
    assert names
    for name in names:
        assert digest(store.get(name)) == name  # every named blob is whole
    store.clean_temporary()
    assert not list(folder.glob("*/.tmp-*"))


@pytest.mark.parametrize(
    "name",
    ["..//{outside}", "{outside}", "ab/../../{leaf}", "AB" * 32, "a" * 63, "a" * 65, "g" * 64, ""],
)
def test_blobs_a_name_that_is_no_content_hash_never_becomes_a_path(
    tmp_path: Path, name: str
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    name = name.format(outside=outside, leaf=outside.name)
    store = BlobStore(tmp_path / "state" / "blobs")
    with pytest.raises(BadBlobName):
        store.path(name)
    with pytest.raises(BadBlobName):
        store.get(name)
    store.delete(name)
    assert store.stored_size(name) == 0
    assert outside.read_text() == "keep me"


def test_blobs_inflation_is_capped_so_a_bomb_is_refused_not_inflated(tmp_path: Path) -> None:
    store = BlobStore(tmp_path / "blobs", max_inflated=1024 * 1024)
    name = store.put(b"small")
    store.path(name).write_bytes(bomb(3 * 1024 * 1024 * 1024))
    with pytest.raises(BlobTooLarge):
        store.get(name)
    store.path(name).write_bytes(zlib.compress(os.urandom(2 * 1024 * 1024), 1))
    with pytest.raises(BlobTooLarge):  # stored larger than anything the cap lets in
        store.get(name)
    fits = os.urandom(1024 * 1024)
    assert store.get(store.put(fits)) == fits
