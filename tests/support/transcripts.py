"""Transcript lines as Claude Code writes them, for tests that read sessions."""

from __future__ import annotations

import json
from pathlib import Path


def read_call(path: Path) -> str:
    return json.dumps(
        {
            "type": "assistant",
            "sessionId": "s",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Let me check my notes."},
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Read",
                        "input": {"file_path": str(path)},
                    },
                ],
            },
        }
    )


def tool_call(name: str, given: dict[str, str], cwd: str = "/x", at: str = "") -> str:
    record: dict[str, object] = {
        "type": "assistant",
        "sessionId": "s",
        "cwd": cwd,
        "message": {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": name, "input": given}],
        },
    }
    if at:
        record["timestamp"] = at
    return json.dumps(record)


def nested_memory(path: Path) -> str:
    """How Claude Code records a memory or rule file it put into context."""
    attachment = {"type": "nested_memory", "path": str(path), "content": {"content": "…"}}
    return json.dumps({"type": "attachment", "sessionId": "s", "attachment": attachment})


def relevant_memories(*paths: Path) -> str:
    """How Claude Code records the memories its recall picked for a turn."""
    memories = [{"path": str(p), "content": "…", "mtimeMs": 1} for p in paths]
    attachment = {"type": "relevant_memories", "memories": memories}
    return json.dumps({"type": "attachment", "sessionId": "s", "attachment": attachment})


def write_session(folder: Path, number: int, lines: list[str], cwd: str = "") -> Path:
    """One transcript, older for smaller ``number`` (its mtime orders the sessions); its
    ``cwd`` is a folder that exists unless one is given."""
    import os

    folder.mkdir(parents=True, exist_ok=True)
    cwd = cwd or str(folder)
    first = json.dumps({"type": "user", "sessionId": "s", "cwd": cwd, "message": {"content": "hi"}})
    transcript = folder / f"session-{number:02}.jsonl"
    transcript.write_text("\n".join([first, *lines]) + "\n")
    os.utime(transcript, (1_700_000_000 + number, 1_700_000_000 + number))
    return transcript
