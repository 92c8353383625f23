"""Secrets in session transcripts (``~/.claude/projects/<slug>/*.jsonl``), on demand.

A transcript holds what the user typed and what tools returned, verbatim: a secret pasted
into a session is there (and was sent to the model provider) before any memory holds it.
Each record's text is scanned with the memory rules; a secret is reported once per session
whatever rules find it (its first record: line and time), as the redacted form of the
first rule that found it, never in full. Only the
bytes present when a transcript is opened are read, so a session still writing to it
cannot keep the scan going; nothing is ever written to a transcript.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_audit.regular_files import open_regular
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.sources.transcripts import MAX_NODES, timestamp, whole_lines

MAX_DEPTH = 64
MEMORY_FOLDER = "memory"  # a project's memory tree: ``projects/<slug>/memory/``


@dataclass(frozen=True)
class TranscriptSecret:
    transcript: Path
    session: str  # the transcript's session id (its file name)
    line: int  # the record's line in the transcript
    at: dt.datetime | None  # the record's timestamp
    label: str  # what the rule says the secret is
    rule: str
    redacted: str  # the rule's redacted form: never the whole secret
    fingerprint: str
    times: int = 1  # records of this session holding it


@dataclass(frozen=True)
class ScanResult:
    secrets: tuple[TranscriptSecret, ...]
    values: tuple[str, ...]  # the secrets' text: for a redaction boundary, never printed
    transcripts: int
    bytes_read: int


def transcript_files(folders: Iterable[Path]) -> list[Path]:
    """Every transcript in ``folders`` (a session's subagent transcripts included)."""
    found: set[Path] = set()
    for folder in folders:
        try:
            found.update(
                p
                for p in folder.rglob("*.jsonl")
                if not in_a_memory_tree(p, folder) and p.is_file() and not p.is_symlink()
            )
        except OSError:
            continue
    return sorted(found)


def in_a_memory_tree(path: Path, folder: Path) -> bool:
    """Whether ``path``, found in ``folder`` (the projects folder or one project's), lies in
    a project's memory folder: a ``.jsonl`` there is the tree's file (a chat log an agent
    keeps), which the secrets check reads with the tree, not a session's transcript
    (nothing there was sent to the model provider with a session). A session's own
    folders are named by its id, never ``memory``."""
    try:
        parts = path.relative_to(folder).parts
    except ValueError:
        return False
    return MEMORY_FOLDER in parts[:2] and len(parts) > parts.index(MEMORY_FOLDER) + 1


def scan_transcripts(
    scanner: Scanner, files: list[Path], progress: Callable[[int, int, Path], None] | None = None
) -> ScanResult:
    secrets: list[TranscriptSecret] = []
    values: set[str] = set()
    total = 0
    for number, path in enumerate(files):
        if progress is not None:
            progress(number, total, path)
        found, read = _scan_file(scanner, path, values)
        secrets += found
        total += read
    return ScanResult(tuple(secrets), tuple(sorted(values)), len(files), total)


def _scan_file(
    scanner: Scanner, path: Path, values: set[str]
) -> tuple[list[TranscriptSecret], int]:
    # One value is one secret, whatever rules find it (``API key: <v>``, then ``Bearer <v>``):
    # shown as its first match, counted once a record.
    by_value: dict[str, TranscriptSecret] = {}
    last_record: dict[str, int] = {}
    try:
        with open_regular(path) as handle:
            size = _size(handle)
            bounded = _Bounded(handle, size)
            for number, (text, at) in enumerate(_records(bounded), start=1):
                for match in scanner.scan(text):
                    if scanner.dismissed(match):
                        continue
                    values.add(text[match.start : match.end])
                    value = match.value_fingerprint
                    seen = by_value.get(value)
                    if seen is None:
                        by_value[value] = _first(path, number, at, match)
                    elif last_record[value] != number:
                        by_value[value] = _again(seen)
                    last_record[value] = number
    except OSError:
        return [], 0
    return list(by_value.values()), size


def _first(path: Path, line: int, at: dt.datetime | None, match: SecretMatch) -> TranscriptSecret:
    return TranscriptSecret(
        path, path.stem, line, at, match.label, match.rule, match.redacted, match.fingerprint
    )


def _again(seen: TranscriptSecret) -> TranscriptSecret:
    return TranscriptSecret(**{**seen.__dict__, "times": seen.times + 1})


def _size(handle: io.BufferedReader) -> int:
    return os.fstat(handle.fileno()).st_size


class _Bounded(io.RawIOBase):
    """The first ``limit`` bytes of ``handle``: what the file held when it was opened."""

    def __init__(self, handle: io.BufferedReader, limit: int) -> None:
        self._handle = handle
        self._left = limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._left <= 0:
            return 0
        view = memoryview(buffer)[: self._left]
        read = self._handle.readinto(view) or 0
        self._left -= read
        return read


def _records(handle: io.RawIOBase) -> Iterator[tuple[str, dt.datetime | None]]:
    """Each line's text to scan (its strings, joined) and time; every line, parsed or not,
    keeps its number (a line that is not JSON is scanned as it is)."""
    for data, start, end in whole_lines(handle):  # type: ignore[arg-type]
        for raw in bytes(data[start:end]).split(b"\n"):
            yield record_text(raw)


def record_text(raw: bytes) -> tuple[str, dt.datetime | None]:
    text = raw.decode("utf-8", errors="replace")
    try:
        record = json.loads(text)
    except ValueError:
        return text, None
    strings = list(_strings(record))
    stamp = timestamp(record.get("timestamp")) if isinstance(record, dict) else None
    at = dt.datetime.fromtimestamp(stamp, dt.UTC) if stamp is not None else None
    return "\n".join(strings), at


def _strings(value: Any) -> Iterator[str]:
    """Every string in a parsed record, depth first, within :data:`MAX_NODES` values."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    nodes = 0
    while stack and nodes < MAX_NODES:
        item, depth = stack.pop()
        nodes += 1
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict) and depth < MAX_DEPTH:
            stack += [(v, depth + 1) for v in reversed(item.values())]
        elif isinstance(item, list) and depth < MAX_DEPTH:
            stack += [(v, depth + 1) for v in reversed(item)]
