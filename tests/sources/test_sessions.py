from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memory_audit.sources.sessions import read_session, session_activity
from tests.support.transcripts import (
    nested_memory,
    read_call,
    relevant_memories,
    tool_call,
    write_session,
)


def test_sessions_every_way_a_memory_reaches_a_session_is_seen(tmp_path: Path) -> None:
    memory = tmp_path / "p/memory"
    transcript = write_session(
        tmp_path / "p",
        1,
        [
            read_call(memory / "read.md"),
            nested_memory(memory / "attached.md"),
            relevant_memories(memory / "recalled.md", memory / "also.md"),
            json.dumps({"type": "brand-new-record", "path": str(memory / "x.md")}),
            "not json " + str(memory),
        ],
    )
    activity = read_session(transcript, [str(memory)], 1 << 30)
    assert activity.surfaced == {
        str(memory / n) for n in ("read.md", "attached.md", "recalled.md", "also.md")
    }
    assert activity.unknown_records == 1


def test_sessions_project_paths_read_edited_and_commands_run_in(tmp_path: Path) -> None:
    project = tmp_path / "app"
    transcript = write_session(
        tmp_path / "p",
        1,
        [
            tool_call("Edit", {"file_path": str(project / "src/billing/invoice.py")}),
            tool_call("Grep", {"pattern": "x", "path": str(project / "docs")}),
            tool_call("Bash", {"command": "make test"}, cwd=str(project / "tools")),
            tool_call("Read", {"file_path": "relative/ignored.py"}),
        ],
        cwd=str(project),
    )
    activity = read_session(transcript, [str(project)], 1 << 30)
    assert activity.touched == {
        str(project / "src/billing/invoice.py"),
        str(project / "docs"),
        str(project / "tools"),
    }
    assert activity.cwd == str(project)


@pytest.mark.slow
def test_sessions_truncated_huge_and_cached(tmp_path: Path) -> None:
    memory = tmp_path / "p/memory"
    transcript = write_session(tmp_path / "p", 1, [read_call(memory / "early.md")])
    with transcript.open("ab") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB of NUL bytes, no disk used
        handle.seek(0, os.SEEK_END)
        handle.write(b"\n" + read_call(memory / "late.md").encode() + b"\n")
        handle.write(read_call(memory / "cut.md").encode()[:50])  # truncated mid-line
    assert read_session(transcript, [str(memory)], 1 << 30).surfaced == {
        str(memory / "early.md"),
        str(memory / "late.md"),
    }
    bounded = read_session(transcript, [str(memory)], 1024 * 1024)
    assert bounded.surfaced == {str(memory / "late.md")}
    state = tmp_path / "state"
    [first] = session_activity([transcript], [str(memory)], state, 1 << 30)
    cache = state / "sessions-cache.json"
    assert cache.stat().st_mode & 0o777 == 0o600
    entry = json.loads(cache.read_text())["entries"][str(transcript)]
    entry["activity"]["surfaced"] = ["/from/the/cache.md"]
    cache.write_text(json.dumps({"version": 1, "entries": {str(transcript): entry}}))
    [again] = session_activity([transcript], [str(memory)], state, 1 << 30)
    assert again.surfaced == {"/from/the/cache.md"}  # unchanged transcript: not read again
    with transcript.open("a") as handle:
        handle.write("\n")
    [fresh] = session_activity([transcript], [str(memory)], state, 1 << 30)
    assert fresh.surfaced == first.surfaced


def test_sessions_a_relative_or_windows_cwd_names_no_folder(tmp_path: Path) -> None:
    project = tmp_path / "app"
    transcript = write_session(
        tmp_path / "p",
        1,
        [
            tool_call("Bash", {"command": "make"}, cwd="app/tools"),
            tool_call("Bash", {"command": "make"}, cwd="C:\\Users\\dev\\app"),
            tool_call("Edit", {"file_path": "C:\\Users\\dev\\app\\src\\x.py"}, cwd="C:\\"),
            tool_call("Bash", {"command": "make"}, cwd=str(project / "tools")),
        ],
        cwd="C:\\Users\\dev\\app",
    )
    activity = read_session(transcript, [str(project), "app", "C:"], 1 << 30)
    assert activity.touched == {str(project / "tools")}
    assert activity.cwd == "C:\\Users\\dev\\app"  # kept as recorded: the store's history
