from __future__ import annotations

import json
import os
from pathlib import Path

from memory_audit.checks.usage import Options
from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, findings, memory, report, write_tree
from tests.support.transcripts import read_call


def write_sessions(folder: Path, reads: list[list[Path]], junk: bool = False) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for number, paths in enumerate(reads):
        lines = [json.dumps({"type": "user", "cwd": "/x", "message": {"content": "hi"}})]
        lines += [read_call(p) for p in paths]
        if junk:
            lines += [
                "not json at all",
                "\x00\x01\x02 binary",
                json.dumps({"type": "unknown-future-event"}),
            ]
        text = "\n".join(lines) + ("\n" + read_call(paths[0])[:40] if junk and paths else "\n")
        transcript = folder / f"session-{number:02}.jsonl"
        transcript.write_text(text)
        os.utime(transcript, (1_700_000_000 + number, 1_700_000_000 + number))


def tree_with_transcripts(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "projects" / "-p"
    root = write_tree(
        project / "memory",
        {
            "read.md": memory("read"),
            "also.md": memory("also"),
            "unread.md": memory("unread"),
            "sessions/2026-01-01-x.md": "r",
        },
    )
    return root, project


def test_usage_reports_the_unread_memory_and_not_the_read_ones(tmp_path: Path) -> None:
    root, project = tree_with_transcripts(tmp_path)
    write_sessions(
        project, [[root / "read.md"]] * 9 + [[root / "also.md", root / "read.md"]], junk=True
    )
    found = findings(root, "usage", location=ProjectLocation("-p", None, project))
    assert codes(found) == [("unread-memory", "unread.md", None)]
    assert found[0].judgment
    assert "last 10 sessions" in found[0].message


def test_usage_only_the_last_n_sessions_count(tmp_path: Path) -> None:
    root, project = tree_with_transcripts(tmp_path)
    write_sessions(project, [[root / "also.md"]] + [[root / "read.md"]] * 10)
    found = findings(root, "usage", location=ProjectLocation("-p", None, project))
    assert sorted(f.path for f in found) == ["also.md", "unread.md"]


def test_usage_reports_nothing_with_fewer_sessions(tmp_path: Path) -> None:
    root, project = tree_with_transcripts(tmp_path)
    write_sessions(project, [[root / "read.md"]] * 3)
    result = report(root, "usage", location=ProjectLocation("-p", None, project))
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == ["needs 10 sessions, found 3"]


def test_usage_cache_is_reused_and_invalidated_by_size(tmp_path: Path) -> None:
    root, project = tree_with_transcripts(tmp_path)
    write_sessions(project, [[root / "read.md"]] * 10)
    state = tmp_path / "state"
    options = {"usage": Options(state_dir=str(state))}
    location = ProjectLocation("-p", None, project)
    assert len(findings(root, "usage", options=options, location=location)) == 2
    cache = json.loads((state / "usage-cache.json").read_text())
    assert len(cache["entries"]) == 10
    assert (state / "usage-cache.json").stat().st_mode & 0o777 == 0o600
    newest = project / "session-09.jsonl"
    stamp = newest.stat().st_mtime
    newest.write_text(newest.read_text() + read_call(root / "unread.md") + "\n")
    os.utime(newest, (stamp, stamp))
    assert [f.path for f in findings(root, "usage", options=options, location=location)] == [
        "also.md"
    ]
