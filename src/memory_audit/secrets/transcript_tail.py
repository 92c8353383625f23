"""Secrets in what a session appended to its transcript since the last read.

The daemon follows each transcript from the offset it last read (kept in its state):
the bytes before it are never read again. One read is bounded (:data:`CHUNK` bytes),
so a transcript gigabytes long, or growing while it is read, is read a chunk at a time
between which the daemon does everything else; a backlog beyond :data:`MAX_BACKLOG`
(a transcript that grew by that much while the daemon was not running) is skipped
to its last :data:`MAX_BACKLOG` bytes, with the count said in the log (``audit
--transcripts`` reads everything).

Only complete lines are scanned: a record still being written (a secret split across
two appends) waits for its newline, so it is scanned whole. A line longer than a chunk
is scanned a chunk at a time, each chunk starting :data:`OVERLAP` bytes before the
previous one ended, so a secret across the boundary is still found whole. A
transcript replaced (another inode) or truncated (shorter than the offset) is read
from its start; one deleted forgets its offset. Nothing is ever written to it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from memory_audit.regular_files import open_regular
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.secrets.transcript_scan import record_text

CHUNK = 4 * 1024 * 1024
MAX_BACKLOG = 64 * 1024 * 1024
OVERLAP = 16 * 1024  # longer than any secret a rule matches (a PEM private key included)
SEAM = 64  # bytes before the offset whose hash tells a rewritten transcript from a grown one


@dataclass(frozen=True)
class Offset:
    """How far a transcript was read: which file (device, inode) and up to which byte."""

    device: int
    inode: int
    offset: int
    seam: str = ""  # hash of the :data:`SEAM` bytes before ``offset`` (empty at 0)


@dataclass(frozen=True)
class Found:
    match: SecretMatch
    at: dt.datetime | None  # the record's timestamp


@dataclass(frozen=True)
class Tail:
    offset: Offset | None  # None: the transcript is gone (its offset is forgotten)
    found: tuple[Found, ...] = ()
    read: int = 0  # bytes read this time
    skipped: int = 0  # backlog bytes skipped, never read
    more: bool = False  # more was there than one chunk: read again soon
    restarted: bool = False  # replaced or truncated: read from its start


def end_of(path: Path) -> Offset | None:
    """The offset of a transcript's current end (where following it starts)."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    try:
        with open_regular(path) as handle:
            return _offset(handle.fileno(), info, info.st_size)
    except OSError:
        return None


def read_appended(scanner: Scanner, path: Path, held: Offset | None) -> Tail:
    """Scan what was appended to ``path`` after ``held`` (from its start when None)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return Tail(None)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return Tail(None)
        return _read(scanner, fd, info, held)
    except OSError:
        return Tail(held)  # a read error: tried again with the next change
    finally:
        os.close(fd)


def _offset(fd: int, info: os.stat_result, offset: int) -> Offset:
    return Offset(info.st_dev, info.st_ino, offset, _seam(fd, offset))


def _seam(fd: int, offset: int) -> str:
    """What identifies the bytes just before ``offset``: a transcript truncated and written
    again to the same length or longer no longer has them."""
    if offset == 0:
        return ""
    before = os.pread(fd, min(SEAM, offset), max(0, offset - SEAM))
    return hashlib.sha256(before).hexdigest()[:16]


def _continues(fd: int, info: os.stat_result, held: Offset | None) -> bool:
    """Whether ``held`` is a point of this very file, with what was read still there."""
    if held is None or (held.device, held.inode) != (info.st_dev, info.st_ino):
        return False
    return held.offset <= info.st_size and _seam(fd, held.offset) == held.seam


def _read(scanner: Scanner, fd: int, info: os.stat_result, held: Offset | None) -> Tail:
    start = held.offset if held is not None and _continues(fd, info, held) else 0
    restarted = held is not None and start == 0 and held.offset > 0
    size = info.st_size
    skipped = max(0, size - start - MAX_BACKLOG)
    start += skipped
    data = os.pread(fd, min(CHUNK, size - start), start)
    end = start + len(data)
    cut = data.rfind(b"\n") + 1
    if cut:
        found = _scan_lines(scanner, data[:cut])
        next_offset = start + cut
    elif len(data) == CHUNK:  # one line longer than a chunk: scanned in overlapping parts
        found = _scan_text(scanner, data.decode("utf-8", errors="replace"), None)
        next_offset = end - OVERLAP
    else:  # a record still being written: scanned whole once its newline is there
        found, next_offset = [], start
    offset = _offset(fd, info, next_offset)
    more = end < size
    return Tail(offset, tuple(found), len(data), skipped, more, restarted)


def _scan_lines(scanner: Scanner, data: bytes) -> list[Found]:
    found: list[Found] = []
    for raw in data.split(b"\n"):
        if raw.strip():
            text, at = record_text(raw)
            found += _scan_text(scanner, text, at)
    return found


def _scan_text(scanner: Scanner, text: str, at: dt.datetime | None) -> list[Found]:
    return [Found(match, at) for match in scanner.scan(text) if not scanner.dismissed(match)]
