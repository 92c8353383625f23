"""Who changed a memory file: a Claude Code session, the consolidation, or someone else.

Best effort, and always labelled so. A change is a session's when that
session's transcript shows, within ``window`` seconds of the change, a
``Write``/``Edit``/``MultiEdit``/``NotebookEdit`` on the file, or a shell
command that removes or moves it (``rm``, ``mv``, ``unlink``, ``git rm``/``mv``)
naming the file or a folder above it. It is the consolidation's when
``.consolidate-lock`` was held at that moment. Otherwise: "outside Claude Code".

A session's label is its first prompt, made by the ``label`` function the
follower is given (:func:`memory_audit.journal.labels.labeller`: secrets masked,
then shortened), so no prompt is kept or stored as it was typed.

Transcripts are followed incrementally: each read takes only the bytes added
since the last one (and, the first time, at most the last ``FIRST_READ`` bytes,
so a 1 GB transcript costs no more than a small one).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_audit.journal.index import Actor
from memory_audit.regular_files import open_regular
from memory_audit.sources.transcripts import timestamp, tool_uses

FIRST_READ = 8 * 1024 * 1024
CHUNK_LIMIT = 64 * 1024 * 1024
KEPT_EVENTS = 5000
PROMPT_CHARS = 60
WRITING_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
REMOVING = re.compile(r"(?:^|[\s;&|(])(?:rm|mv|unlink|trash|git\s+rm|git\s+mv)(?=\s)")


@dataclass(frozen=True)
class ToolEvent:
    at: float
    session: str
    kind: str  # "write" | "shell"
    targets: tuple[str, ...]  # absolute paths, or words of a shell command


@dataclass
class _Followed:
    offset: int = 0
    size: int = 0


@dataclass
class TranscriptFollower:
    """The recent tool events and first prompts (as labels) of every transcript in one
    project folder."""

    folder: Path
    label: Callable[[str], str]
    events: deque[ToolEvent] = field(default_factory=lambda: deque(maxlen=KEPT_EVENTS))
    prompts: dict[str, str] = field(default_factory=dict)
    _files: dict[Path, _Followed] = field(default_factory=dict)

    def update(self) -> None:
        with contextlib.suppress(OSError):
            for path in sorted(self.folder.glob("*.jsonl")):
                self._follow(path)

    def _follow(self, path: Path) -> None:
        size = path.stat().st_size
        known = self._files.get(path)
        if known is None:
            known = self._files[path] = _Followed(offset=max(0, size - FIRST_READ))
        if size < known.offset:  # truncated or replaced: start over
            known.offset = 0
        if size == known.offset:
            return
        with open_regular(path) as handle:
            handle.seek(known.offset)
            chunk = handle.read(min(size - known.offset, CHUNK_LIMIT))
        complete = chunk.rfind(b"\n") + 1
        if known.offset and not known.size and complete:
            chunk = chunk[chunk.find(b"\n") + 1 :]  # a first read mid-file starts mid-line
        known.offset += complete
        known.size = size
        for line in chunk[:complete].splitlines():
            self._take(line)

    def _take(self, line: bytes) -> None:
        try:
            record = json.loads(line)
        except ValueError:
            return  # truncated, or not JSON: transcripts are not ours to judge
        if not isinstance(record, dict):
            return
        session = str(record.get("sessionId") or "")
        at = timestamp(record.get("timestamp"))
        if not session or at is None:
            return
        if record.get("type") == "user" and session not in self.prompts:
            prompt = _prompt_text(record.get("message"))
            if prompt.strip():
                self.prompts[session] = self.label(prompt)
        for tool in tool_uses(record.get("message")):
            event = _event(tool, at, session)
            if event is not None:
                self.events.append(event)

    def session_for(self, path: Path, at: float, window: float) -> str | None:
        best: tuple[float, str] | None = None
        for event in self.events:
            distance = abs(event.at - at)
            closer = best is None or distance < best[0]
            if distance <= window and closer and _names(event, path):
                best = (distance, event.session)
        return best[1] if best else None


def _prompt_text(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        texts = [
            c.get("text", "") for c in content if isinstance(c, dict) and c.get("type") == "text"
        ]
        content = " ".join(t for t in texts if isinstance(t, str))
    return content if isinstance(content, str) else ""


def _event(tool: dict[str, Any], at: float, session: str) -> ToolEvent | None:
    name = tool.get("name")
    raw = tool.get("input")
    given: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if name in WRITING_TOOLS:
        target = given.get("file_path") or given.get("notebook_path")
        if isinstance(target, str):
            return ToolEvent(at, session, "write", (os.path.normpath(target),))
    if name == "Bash" and isinstance(given.get("command"), str):
        command = given["command"]
        if REMOVING.search(command):
            with contextlib.suppress(ValueError):
                return ToolEvent(at, session, "shell", tuple(shlex.split(command)))
            return ToolEvent(at, session, "shell", tuple(command.split()))
    return None


def _names(event: ToolEvent, path: Path) -> bool:
    if event.kind == "write":
        return event.targets[0] == str(path)
    wanted = {str(path), path.name} | {
        str(parent) for parent in path.parents if parent != Path("/")
    }
    return any(os.path.normpath(word).rstrip("/") in wanted for word in event.targets)


class Attributor:
    """Answers "who changed this file of this tree?" for the recorder."""

    def __init__(
        self,
        root: Path,
        follower: TranscriptFollower | None,
        consolidating: Callable[[], bool],
        window: float,
    ) -> None:
        self.root = root
        self.follower = follower
        self.consolidating = consolidating
        self.window = window

    def __call__(self, rel: str, at: float, kind: str) -> Actor:
        if self.consolidating():
            return Actor("consolidation")
        if self.follower is not None:
            session = self.follower.session_for(self.root / rel, at, self.window)
            if session is not None:
                return Actor("session", session, self.follower.prompts.get(session, ""))
        return Actor("outside")
