"""Which memory files each Claude Code session read, from its transcript.

A transcript (``~/.claude/projects/<slug>/<session>.jsonl``) holds one JSON
object per line and can be hundreds of MB. It is streamed in blocks; only
lines that contain the tree's path are parsed; in those, ``tool_use`` items
named ``Read`` give the ``file_path`` read. Broken, truncated, binary and
unknown lines are skipped. Results are cached per transcript by size and
modification time, so an unchanged transcript is never read twice.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory_audit.atomic import ensure_private_dir, write_atomic

BLOCK = 4 * 1024 * 1024
MAX_LINE = 64 * 1024 * 1024  # a longer line is dropped, not buffered
MAX_NODES = 100_000  # per parsed line
CACHE_NAME = "usage-cache.json"
CACHE_VERSION = 1


@dataclass(frozen=True)
class Session:
    transcript: Path
    mtime: float
    reads: frozenset[str]  # absolute paths, as written in the transcript


def recent_transcripts(folder: Path, count: int) -> list[Path]:
    """The ``count`` most recently modified transcripts, newest first."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.endswith(".jsonl") and entry.is_file():
                with contextlib.suppress(OSError):
                    found.append((entry.stat().st_mtime, Path(entry.path)))
    found.sort(reverse=True)
    return [path for _, path in found[:count]]


def sessions(
    transcripts: Sequence[Path], roots: Sequence[str], cache_dir: Path | None, max_bytes: int
) -> list[Session]:
    cache = UsageCache(cache_dir, roots)
    found = []
    for transcript in transcripts:
        try:
            info = transcript.stat()
        except OSError:
            continue
        reads = cache.get(transcript, info)
        if reads is None:
            reads = reads_in(transcript, roots, max_bytes)
            cache.put(transcript, info, reads)
        found.append(Session(transcript, info.st_mtime, reads))
    cache.save()
    return found


def reads_in(transcript: Path, roots: Sequence[str], max_bytes: int) -> frozenset[str]:
    """Files under ``roots`` that Read tool calls in ``transcript`` opened."""
    needles = _needles(roots)
    found: set[str] = set()
    try:
        with transcript.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > max_bytes:
                handle.seek(size - max_bytes)  # the most recent part; the first line is partial
            for chunk in _chunks(handle):
                _scan(chunk, needles, found)
    except OSError:
        return frozenset()
    prefixes = tuple(root.rstrip("/") + "/" for root in roots)
    return frozenset(p for p in found if p.startswith(prefixes))


def _needles(roots: Sequence[str]) -> list[bytes]:
    needles = []
    for root in roots:
        for form in (root, json.dumps(root)[1:-1]):
            encoded = form.encode("utf-8")
            if encoded not in needles:
                needles.append(encoded)
    return needles


def _chunks(handle: Any) -> Iterator[bytes]:
    """Blocks that end on a line boundary; an over-long line is dropped."""
    carry = b""
    while block := handle.read(BLOCK):
        data = carry + block
        cut = data.rfind(b"\n")
        if cut == -1:
            carry = data if len(data) <= MAX_LINE else b""
            continue
        carry = data[cut + 1 :]
        yield data[:cut]
    if carry:
        yield carry


def _scan(chunk: bytes, needles: Sequence[bytes], found: set[str]) -> None:
    parsed: set[int] = set()
    for needle in needles:
        start = 0
        while (hit := chunk.find(needle, start)) != -1:
            line_start = chunk.rfind(b"\n", 0, hit) + 1
            line_end = chunk.find(b"\n", hit)
            line_end = len(chunk) if line_end == -1 else line_end
            if line_start not in parsed:
                parsed.add(line_start)
                found.update(_read_paths(chunk[line_start:line_end]))
            start = line_end + 1


def _read_paths(line: bytes) -> Iterator[str]:
    try:
        record = json.loads(line)
    except ValueError:
        return  # truncated, binary or not JSON
    stack = [record]
    budget = MAX_NODES
    while stack and budget > 0:
        budget -= 1
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "tool_use" and node.get("name") == "Read":
                arguments = node.get("input")
                path = arguments.get("file_path") if isinstance(arguments, dict) else None
                if isinstance(path, str):
                    yield os.path.normpath(path)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


class UsageCache:
    """``usage-cache.json`` in the state folder: transcript -> (size, mtime, roots, reads)."""

    def __init__(self, folder: Path | None, roots: Sequence[str]) -> None:
        self._path = folder / CACHE_NAME if folder else None
        self._roots = sorted(roots)
        self._entries: dict[str, Any] = self._load()
        self._dirty = False

    def _load(self) -> dict[str, Any]:
        if self._path is None:
            return {}
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        ok = isinstance(data, dict) and data.get("version") == CACHE_VERSION
        entries = data.get("entries") if ok else None
        return entries if isinstance(entries, dict) else {}

    def get(self, transcript: Path, info: os.stat_result) -> frozenset[str] | None:
        entry = self._entries.get(str(transcript))
        if not isinstance(entry, dict) or entry.get("roots") != self._roots:
            return None
        if entry.get("size") != info.st_size or entry.get("mtime_ns") != info.st_mtime_ns:
            return None
        reads = entry.get("reads")
        return frozenset(reads) if isinstance(reads, list) else None

    def put(self, transcript: Path, info: os.stat_result, reads: frozenset[str]) -> None:
        self._entries[str(transcript)] = {
            "size": info.st_size,
            "mtime_ns": info.st_mtime_ns,
            "roots": self._roots,
            "reads": sorted(reads),
        }
        self._dirty = True

    def save(self) -> None:
        if self._path is None or not self._dirty:
            return
        with contextlib.suppress(OSError):
            ensure_private_dir(self._path.parent)
            document = {"version": CACHE_VERSION, "entries": self._entries}
            write_atomic(self._path, json.dumps(document))
