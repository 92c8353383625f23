"""Finding and streaming Claude Code's session transcripts.

A transcript (``~/.claude/projects/<slug>/<session>.jsonl``) holds one JSON
object per line and can be hundreds of MB: it is read in blocks that end on a
line boundary, and an over-long line is dropped rather than buffered. What a
session did is read from them by :mod:`memory_audit.sources.sessions`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BLOCK = 4 * 1024 * 1024
MAX_LINE = 64 * 1024 * 1024  # a longer line is dropped, not buffered
MAX_NODES = 100_000  # per parsed line
CACHE_VERSION = 1


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


def chunks(handle: Any) -> Iterator[bytes]:
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


def whole_lines(
    handle: io.BufferedIOBase, block: int = BLOCK, max_line: int = MAX_LINE
) -> Iterator[tuple[bytes | bytearray, int, int]]:
    """``(data, start, end)``: ``data[start:end]`` holds whole lines (no final newline).

    Blocks are read into one reused buffer and searched in place (``find`` with bounds)
    rather than copied and split: only a line that straddles two blocks is copied. The
    buffer is overwritten by the next step, so use it before asking for more. A line that
    spans blocks and is longer than ``max_line`` is dropped, and not buffered while it is
    skipped (``max_line`` is above ``block``: any longer line spans blocks)."""
    buffer = bytearray(block)
    view = memoryview(buffer)
    head: list[bytes] = []  # the start of a line the previous blocks did not finish
    held, skipping = 0, False
    while size := handle.readinto(view):
        first = buffer.find(b"\n", 0, size)
        if first == -1:
            if not skipping:
                head.append(bytes(buffer[:size]))
                held += size
            if held > max_line:
                head, held, skipping = [], 0, True
            continue
        if not skipping and (head or first) and held + first <= max_line:
            line = b"".join([*head, buffer[:first]])
            yield line, 0, len(line)
        last = buffer.rfind(b"\n", 0, size)
        if last > first:
            yield buffer, first + 1, last
        head, held, skipping = [bytes(buffer[last + 1 : size])], size - last - 1, False
    if head and not skipping and held:
        line = b"".join(head)
        yield line, 0, len(line)


def tool_uses(message: Any) -> list[dict[str, Any]]:
    """The ``tool_use`` items of a record's ``message`` (none when it has another shape)."""
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [c for c in content if isinstance(c, dict) and c.get("type") == "tool_use"]


def timestamp(value: Any) -> float | None:
    """A record's ISO 8601 ``timestamp`` (``Z`` or an offset) as epoch seconds."""
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None
