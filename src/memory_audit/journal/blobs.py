"""Content-addressed, compressed blobs: one file per distinct content.

A blob is named by the SHA-256 of its (uncompressed) content and written to a
temporary file, then renamed into place, so a crash (kill -9 in the middle of
a write) leaves at most an unreferenced temporary file, never a half-written
blob under its final name. Blobs are not fsynced one by one (that cost 5 ms a
file, 50 s for a 10,000-file baseline); instead the journal verifies, at the
next start, every blob written since the last clean stop (a power cut is the
only way to lose one), and reading always verifies the hash: a corrupt blob
raises :class:`CorruptBlob` and is never handed to a restore.

A blob's name comes back from the index, which is a file like any other: a name
that is not exactly a SHA-256 in hex (``../x``, an absolute path) is refused
before it becomes a path (:class:`BadBlobName`), so nothing outside the store is
read, written or deleted. Inflating is capped (:class:`BlobTooLarge`): a stored
blob that inflates past the cap is refused, not read into memory whole.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import zlib
from collections.abc import Iterator
from pathlib import Path

from memory_audit.atomic import PRIVATE_FILE, ensure_private_dir

TEMP_PREFIX = ".tmp-"
NAME_LENGTH = 64
HEX_DIGITS = frozenset("0123456789abcdef")
# Blobs are memory files of at most the journal's size limit (1 MB by default): a blob
# that inflates past this many bytes was never written by the journal.
DEFAULT_MAX_INFLATED = 64 * 1024 * 1024
# zlib's worst case for incompressible input: 5 bytes per 16 KB block, plus its header.
PACKED_SLACK = 1024


class CorruptBlob(Exception):
    """A stored blob whose content no longer matches its name."""


class BadBlobName(CorruptBlob):
    """A blob reference that is not a content hash: never turned into a path."""


class BlobTooLarge(CorruptBlob):
    """A stored blob that inflates (or is stored) past the store's cap."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def valid_name(name: str) -> bool:
    """Exactly a SHA-256 in lower-case hex: no separator, no dot, nothing else."""
    return len(name) == NAME_LENGTH and HEX_DIGITS.issuperset(name)


class BlobStore:
    def __init__(self, folder: Path, max_inflated: int = DEFAULT_MAX_INFLATED) -> None:
        self.folder = folder
        self.max_inflated = max_inflated
        self._made: set[Path] = set()

    def path(self, name: str) -> Path:
        if not valid_name(name):
            raise BadBlobName(name)
        return self.folder / name[:2] / name[2:]

    def put(self, data: bytes) -> str:
        """Store ``data`` once; returns its name. An existing blob is not rewritten."""
        name = digest(data)
        target = self.path(name)
        if not target.exists():
            self._write(target, zlib.compress(data, 1))
        return name

    def get(self, name: str) -> bytes:
        packed = self._read_packed(name)
        inflater = zlib.decompressobj()
        try:
            data = inflater.decompress(packed, self.max_inflated + 1)
        except zlib.error as exc:
            raise CorruptBlob(name) from exc
        if len(data) > self.max_inflated or inflater.unconsumed_tail:
            raise BlobTooLarge(name)
        if not inflater.eof or digest(data) != name:
            raise CorruptBlob(name)
        return data

    def _read_packed(self, name: str) -> bytes:
        """The stored (compressed) bytes: a regular file, no symlink, within the cap."""
        fd = os.open(self.path(name), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise CorruptBlob(name)
            limit = self.max_inflated + self.max_inflated // 1000 + PACKED_SLACK
            packed = handle.read(limit + 1)
        if len(packed) > limit:
            raise BlobTooLarge(name)
        return packed

    def delete(self, name: str) -> None:
        """Remove a blob; a name that is not a content hash names nothing here to remove."""
        if not valid_name(name):
            return
        with contextlib.suppress(FileNotFoundError):
            self.path(name).unlink()

    def names(self) -> Iterator[str]:
        if not self.folder.is_dir():
            return
        for sub in sorted(self.folder.iterdir()):
            if sub.is_dir() and len(sub.name) == 2:
                for blob in sub.iterdir():
                    if not blob.name.startswith(TEMP_PREFIX):
                        yield sub.name + blob.name

    def stored_size(self, name: str) -> int:
        try:
            return self.path(name).stat().st_size
        except (OSError, BadBlobName):
            return 0

    def clean_temporary(self) -> int:
        """Remove temporary files left by a crash; returns how many."""
        removed = 0
        for leftover in self.folder.glob(f"*/{TEMP_PREFIX}*"):
            with contextlib.suppress(OSError):
                leftover.unlink()
                removed += 1
        return removed

    def _write(self, target: Path, payload: bytes) -> None:
        for folder in (self.folder, target.parent):
            if folder not in self._made:
                ensure_private_dir(folder)
                self._made.add(folder)
        temp = target.parent / f"{TEMP_PREFIX}{os.getpid()}-{target.name}"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_FILE)
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
