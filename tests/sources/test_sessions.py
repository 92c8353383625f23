from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memory_audit.sources.sessions import cache_file, read_session, session_activity
from memory_audit.sources.transcripts import whole_lines
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
            # A record type from a newer Claude Code: skipped, counted, even with a memory.
            json.dumps(
                {
                    "type": "brand-new-record",
                    "attachment": {"type": "nested_memory", "path": str(memory / "x.md")},
                }
            ),
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
        handle.truncate(1024**3)  # sparse: 1 GB of NUL bytes, no disk used
        handle.seek(0, os.SEEK_END)
        handle.write(b"\n" + read_call(memory / "late.md").encode() + b"\n")
        handle.write(read_call(memory / "cut.md").encode()[:50])  # truncated mid-line
    assert read_session(transcript, [str(memory)], 2 << 30).surfaced == {
        str(memory / "early.md"),
        str(memory / "late.md"),
    }
    # max_transcript_mb: only the newest part is read (1024 MB by default: this file is over)
    assert read_session(transcript, [str(memory)], 1 << 30).surfaced == {str(memory / "late.md")}
    bounded = read_session(transcript, [str(memory)], 1024 * 1024)
    assert bounded.surfaced == {str(memory / "late.md")}
    state = tmp_path / "state"
    [first] = session_activity([transcript], [str(memory)], state, 1 << 30)
    cache = cache_file(state, transcript.parent)
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


def reference(transcript: Path, needles: list[str]) -> tuple[object, ...]:
    """What a session did, the slow obvious way: every line decoded."""
    surfaced: set[str] = set()
    touched: set[str] = set()
    first: dict[str, object] = {}
    for raw in transcript.read_bytes().split(b"\n"):
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        for name in ("sessionId", "cwd", "timestamp"):
            first.setdefault(name, record.get(name))
        if record.get("type") == "attachment":
            attached = record["attachment"]
            paths = [attached.get("path")] + [m["path"] for m in attached.get("memories", [])]
            surfaced |= {p for p in paths if p and any(n in p for n in needles)}
        content = record.get("message", {}).get("content")
        for call in content if isinstance(content, list) else []:
            if call.get("type") != "tool_use":
                continue
            given = call["input"]
            if call["name"] == "Bash" and any(n in record["cwd"] for n in needles):
                touched.add(record["cwd"])
            path = given.get("file_path") or given.get("path")
            if path and path.startswith("/") and any(n in path for n in needles):
                touched.add(path)
                if call["name"] == "Read":
                    surfaced.add(path)
    return surfaced, touched, first["sessionId"], first["cwd"]


def test_sessions_read_fast_finds_what_decoding_every_line_finds(tmp_path: Path) -> None:
    """The bytes tests that skip lines (bench/: 2 GB of transcripts) lose nothing, on the
    benchmark's own transcripts."""
    from bench.generate import PROJECT, generate, transcript_corpus

    store = tmp_path / "projects/-bench"
    tree = generate(store / "memory", 40)
    transcript_corpus(store, tree, count=2, megabytes=5)  # lines straddle 4 MB blocks
    needles = [str(tree), PROJECT]
    for transcript in sorted(store.glob("*.jsonl")):
        activity = read_session(transcript, needles, 1 << 30)
        got = (activity.surfaced, activity.touched, activity.session, activity.cwd)
        assert got == reference(transcript, needles)
        assert activity.surfaced  # the corpus has both
        assert activity.touched


@pytest.mark.parametrize("block", [1, 7, 16, 50])
def test_transcripts_whole_lines_at_any_block_size(tmp_path: Path, block: int) -> None:
    lines = [b"", b"short", b"x" * 100, b"", b"a line at the end, cut mid-way"]
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(lines))
    with path.open("rb") as handle:
        got = [bytes(data[start:end]) for data, start, end in whole_lines(handle, block, 50)]
    found = b"\n".join(got).split(b"\n")
    # The 100-byte line is over the limit of 50: dropped whole, nothing else lost.
    assert [line for line in found if line] == [b"short", b"a line at the end, cut mid-way"]


def test_sessions_cache_is_one_file_per_store_without_gone_transcripts(tmp_path: Path) -> None:
    state = tmp_path / "state"
    one = [write_session(tmp_path / "one", n, []) for n in range(2)]
    other = write_session(tmp_path / "other", 0, [])
    session_activity(one, ["/x"], state, 1 << 30)
    session_activity([other], ["/x"], state, 1 << 30)
    assert cache_file(state, tmp_path / "one") != cache_file(state, tmp_path / "other")

    def cached(store: str) -> list[str]:
        return sorted(json.loads(cache_file(state, tmp_path / store).read_text())["entries"])

    assert cached("one") == [str(t) for t in one]
    assert cached("other") == [str(other)]
    one[0].unlink()
    newer = write_session(tmp_path / "one", 5, [])
    session_activity([newer, one[1]], ["/x"], state, 1 << 30)
    assert cached("one") == [str(one[1]), str(newer)]  # the deleted transcript's entry: gone
