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
