"""What each Claude Code session did with memory and with the project, from its transcript.

Per transcript (one session): when it ran, its ``cwd``, which memory files reached
it, and which project paths it read, edited or ran commands in. A memory reaches a
session in three ways, each recorded in the transcript:

- a ``Read`` tool call on the memory file (``tool_use`` in an ``assistant`` record);
- an ``attachment`` record of type ``nested_memory`` (a memory or rule file injected
  into context, with its ``path``);
- an ``attachment`` record of type ``relevant_memories`` (the memories Claude Code's
  recall picked for a turn, each with a ``path``).

Transcripts are streamed in blocks searched in place; a line is decoded only when it
carries a tool call or an attachment and names the memory tree or the project (no
other line can matter), plus the first few lines for the session's id, ``cwd`` and
start time. Unknown record types among the decoded lines are counted and skipped;
results are cached per transcript by size and mtime (docs/benchmarks.md: 2 GB cold,
then warm).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

import re2

from memory_audit.atomic import ensure_private_dir, write_atomic
from memory_audit.regular_files import open_regular
from memory_audit.sources.transcripts import timestamp, tool_uses, whole_lines

CACHE_FOLDER = "sessions-cache"  # in the state folder: one file per store of transcripts
CACHE_VERSION = 1
KNOWN_RECORDS = frozenset(
    {"user", "assistant", "attachment", "system", "summary", "progress", "file-history-snapshot",
     "last-prompt", "ai-title", "mode", "permission-mode", "result"}
)  # fmt: skip
# A record that surfaces a memory or touches a project path holds one of these tokens (as
# JSON writes them: a quote inside a string is escaped, so text cannot fake them). RE2
# finds both in one linear pass, several times faster than two bytes.find scans.
MARKERS = re2.compile(rb'"(?:tool_use|attachment)"')
HEAD_LINES = 20  # the session's id, cwd and start time come from its first records
PATH_TOOLS = frozenset({"Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep"})


@dataclass
class SessionActivity:
    transcript: str
    session: str = ""
    started: float = 0.0
    cwd: str | None = None
    surfaced: set[str] = field(default_factory=set)  # absolute memory paths
    touched: set[str] = field(default_factory=set)  # absolute project paths (files or folders)
    unknown_records: int = 0

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["surfaced"], data["touched"] = sorted(self.surfaced), sorted(self.touched)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SessionActivity:
        return cls(
            str(data["transcript"]), str(data.get("session", "")), float(data.get("started", 0)),
            data.get("cwd"), set(data.get("surfaced", [])), set(data.get("touched", [])),
            int(data.get("unknown_records", 0)),
        )  # fmt: skip


def read_session(transcript: Path, needles: Sequence[str], max_bytes: int) -> SessionActivity:
    activity = SessionActivity(str(transcript))
    encoded = [n.encode("utf-8") for n in needles if n]
    head = [HEAD_LINES]  # lines left to read for the session's time, id and cwd
    try:
        with open_regular(transcript) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > max_bytes:
                handle.seek(size - max_bytes)  # the most recent part; the first line is partial
            for data, start, end in whole_lines(handle):
                if head[0] > 0:
                    _stamp_head(data, start, end, activity, head)
                if any(data.find(n, start, end) != -1 for n in encoded):
                    _take_marked(data, start, end, encoded, activity)
    except OSError:
        pass
    return activity


def _stamp_head(
    data: bytes | bytearray, start: int, end: int, activity: SessionActivity, left: list[int]
) -> None:
    """The first records give the session's id, ``cwd`` and start time."""
    while (
        left[0] > 0 and start < end and not (activity.session and activity.cwd and activity.started)
    ):
        stop = data.find(b"\n", start, end)
        stop = end if stop == -1 else stop
        record = _record(data[start:stop])
        if record is not None:
            _stamp(record, activity)
        start, left[0] = stop + 1, left[0] - 1
    if activity.session and activity.cwd and activity.started:
        left[0] = 0


def _take_marked(
    data: bytes | bytearray, start: int, end: int, needles: list[bytes], activity: SessionActivity
) -> None:
    """Decode only the lines that carry a tool call or an attachment and name a needle:
    no other record can surface a memory or touch a project path."""
    done = start  # the end of the last line taken: later markers on it are skipped
    for match in MARKERS.finditer(data, start, end):
        at = match.start()
        if at < done:
            continue
        first = data.rfind(b"\n", start, at) + 1 or start
        stop = data.find(b"\n", at, end)
        done = stop = end if stop == -1 else stop
        line = data[first:stop]
        if any(n in line for n in needles):
            _take(line, activity)


def _record(line: bytes | bytearray) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None  # truncated, binary or not JSON
    return record if isinstance(record, dict) else None


def _take(line: bytes | bytearray, activity: SessionActivity) -> None:
    record = _record(line)
    if record is None:
        return
    kind = record.get("type")
    if kind not in KNOWN_RECORDS:
        activity.unknown_records += 1
        return
    _stamp(record, activity)
    if kind == "attachment":
        activity.surfaced.update(_attached(record.get("attachment")))
    for tool in tool_uses(record.get("message")):
        _tool(tool, record, activity)


def _stamp(record: dict[str, Any], activity: SessionActivity) -> None:
    if not activity.session and isinstance(record.get("sessionId"), str):
        activity.session = record["sessionId"]
    if activity.cwd is None and isinstance(record.get("cwd"), str):
        activity.cwd = record["cwd"]
    if not activity.started:
        activity.started = timestamp(record.get("timestamp")) or 0.0


def _attached(attachment: Any) -> Iterator[str]:
    if not isinstance(attachment, dict):
        return
    if attachment.get("type") == "nested_memory" and isinstance(attachment.get("path"), str):
        yield os.path.normpath(attachment["path"])
    if attachment.get("type") == "relevant_memories":
        for memory in attachment.get("memories") or []:
            if isinstance(memory, dict) and isinstance(memory.get("path"), str):
                yield os.path.normpath(memory["path"])


def _tool(tool: dict[str, Any], record: dict[str, Any], activity: SessionActivity) -> None:
    raw = tool.get("input")
    given: dict[str, Any] = raw if isinstance(raw, dict) else {}
    name = tool.get("name")
    if name in PATH_TOOLS:
        path = given.get("file_path") or given.get("notebook_path") or given.get("path")
        if _absolute(path):
            normal = os.path.normpath(path)
            activity.touched.add(normal)
            if name == "Read":
                activity.surfaced.add(normal)
    elif name == "Bash" and _absolute(record.get("cwd")):
        activity.touched.add(os.path.normpath(record["cwd"]))


def _absolute(path: Any) -> TypeGuard[str]:
    """A POSIX absolute path: a relative ``cwd`` or one from another OS (``C:\\``) names
    no folder here."""
    return isinstance(path, str) and path.startswith("/")


class SessionCache:
    """``sessions-cache/<store>.json`` in the state folder: transcript -> its activity, kept
    while the transcript's size and mtime and the paths looked for stay the same. One file
    per store, so an audit of one tree reads only its own sessions' entries; entries of
    transcripts that are gone are dropped when the file is written."""

    def __init__(self, folder: Path | None, needles: Sequence[str], store: Path | None) -> None:
        self._path = cache_file(folder, store) if folder and store else None
        self._needles = sorted(needles)
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

    def get(self, transcript: Path, info: os.stat_result) -> SessionActivity | None:
        entry = self._entries.get(str(transcript))
        if not isinstance(entry, dict) or entry.get("needles") != self._needles:
            return None
        if entry.get("size") != info.st_size or entry.get("mtime_ns") != info.st_mtime_ns:
            return None
        with contextlib.suppress(KeyError, TypeError, ValueError):
            return SessionActivity.from_json(entry["activity"])
        return None

    def put(self, transcript: Path, info: os.stat_result, activity: SessionActivity) -> None:
        self._entries[str(transcript)] = {
            "size": info.st_size,
            "mtime_ns": info.st_mtime_ns,
            "needles": self._needles,
            "activity": activity.to_json(),
        }
        self._dirty = True

    def save(self) -> None:
        if self._path is None or not self._dirty:
            return
        kept = {path: entry for path, entry in self._entries.items() if os.path.exists(path)}
        with contextlib.suppress(OSError):
            ensure_private_dir(self._path.parent)
            document = {"version": CACHE_VERSION, "entries": kept}
            write_atomic(self._path, json.dumps(document))


def session_activity(
    transcripts: Iterable[Path], needles: Sequence[str], cache_dir: Path | None, max_bytes: int
) -> list[SessionActivity]:
    """Each transcript's activity, newest transcript first, from the cache when unchanged."""
    transcripts = list(transcripts)
    store = transcripts[0].parent if transcripts else None
    cache = SessionCache(cache_dir, needles, store)
    found = []
    for transcript in transcripts:
        try:
            info = transcript.stat()
        except OSError:
            continue
        activity = cache.get(transcript, info)
        if activity is None:
            activity = read_session(transcript, needles, max_bytes)
            cache.put(transcript, info, activity)
        if not activity.started:
            activity.started = info.st_mtime
        found.append(activity)
    cache.save()
    return found


def cache_file(state_dir: Path, store: Path) -> Path:
    """Where the activity of a store's transcripts is cached (named by a hash of its path)."""
    name = hashlib.sha256(str(store).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return state_dir / CACHE_FOLDER / f"{name}.json"
