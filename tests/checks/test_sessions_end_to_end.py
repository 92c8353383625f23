"""Generated transcripts with known reads, edits and attachments: exactly the expected
unused, dead-weight and coverage findings, and the health line's session numbers."""

from __future__ import annotations

import json
from pathlib import Path

from memory_audit.checks import usage
from memory_audit.model.health import SessionUse
from memory_audit.model.run import Run
from memory_audit.report.html import render as render_html
from memory_audit.report.json_report import from_json
from memory_audit.report.json_report import render as render_json
from memory_audit.report.text import render_tree
from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import memory, report, write_tree
from tests.support.transcripts import (
    nested_memory,
    read_call,
    relevant_memories,
    tool_call,
    write_session,
)

RULE = "Integration tests must hit a real Postgres database started from compose, never mocks."
SHARED = "Deploys go through the pipeline on merge; production needs a manual approval step."
NOTES = {
    "read.md": memory("read", body=SHARED),  # Read in the window
    "attached.md": memory("attached"),  # nested_memory in the window
    "recalled.md": memory("recalled", body="API handlers live in src/api; keep them thin."),
    "tests.md": memory("tests", body=RULE),  # unused, CLAUDE.md says it: dead weight
    "deploys.md": memory("deploys", body=SHARED + " Yes."),  # unused, read.md says it
    "lonely.md": memory("lonely"),  # unused, unique
    "old.md": memory("old"),  # read only before the window: unused, unique
}


def build(tmp_path: Path) -> tuple[Path, ProjectLocation]:
    store = tmp_path / "projects" / "-app"
    root = write_tree(store / "memory", NOTES)
    project = tmp_path / "app"
    project.mkdir()
    (project / "CLAUDE.md").write_text(f"# Testing\n\n{RULE}\n")
    cwd = str(project)

    def edit(path: str) -> str:
        return tool_call("Edit", {"file_path": str(project / path)}, cwd=cwd)

    work = [
        edit("src/billing/invoice.py"),  # 6 sessions, named nowhere: a gap
        edit("src/api/views.py"),  # 6 sessions, recalled.md names src/api: covered
        tool_call("Bash", {"command": "make"}, cwd=str(project / "scripts")),  # a gap
        edit("node_modules/x/index.js"),  # never an area
    ]
    write_session(store, 0, [read_call(root / "old.md"), *work], cwd=cwd)
    write_session(store, 1, [*work, tool_call("Grep", {"path": str(project / "docs")})], cwd=cwd)
    write_session(store, 2, work, cwd=cwd)
    write_session(store, 3, [read_call(root / "read.md"), *work], cwd=cwd)
    write_session(store, 4, [nested_memory(root / "attached.md"), *work], cwd=cwd)
    write_session(store, 5, [relevant_memories(root / "recalled.md"), *work], cwd=cwd)
    return root, ProjectLocation("-app", project, store)


def test_sessions_give_exactly_the_expected_findings_and_health(tmp_path: Path) -> None:
    root, location = build(tmp_path)
    result = report(root, "usage", "coverage", location=location)
    found = {(f.dimension, f.code, f.path) for f in result.findings}
    assert found == {
        ("usage", "dead-weight", "tests.md"),
        ("usage", "dead-weight", "deploys.md"),
        ("usage", "unused-memories", "MEMORY.md"),
        ("coverage", "coverage-gap", "MEMORY.md"),
    }
    by_path = {f.path: f for f in result.findings if f.code == "dead-weight"}
    assert "CLAUDE.md" in by_path["tests.md"].message
    assert "`read.md`" in by_path["deploys.md"].message
    [unused] = [f for f in result.findings if f.code == "unused-memories"]
    assert set(unused.related) == {"lonely.md", "old.md"}
    gaps = sorted(f.message for f in result.findings if f.code == "coverage-gap")
    assert [g.split("`")[1] for g in gaps] == ["scripts/", "src/billing/"]
    assert all(" in 6 of the last 6 sessions" in g for g in gaps)
    assert result.health.sessions == SessionUse(
        sessions=3, surfaced=3, unused=2, dead_weight=2, coverage_gaps=2
    )


def test_sessions_numbers_in_the_text_html_and_json_reports(tmp_path: Path) -> None:
    root, location = build(tmp_path)
    result = report(root, "usage", "coverage", location=location)
    run = Run((result,))
    line = "3 sessions: 3 memories surfaced, 2 unused, 2 dead weight, 2 coverage gaps"
    assert f" · {line}" in render_tree(result, run).splitlines()[3]
    html = render_html(run)
    for row in ("Sessions", "Surfaced", "Unused", "Dead weight", "Coverage gaps"):
        assert f"<tr><th>{row}</th>" in html
    data = json.loads(render_json(run))
    assert data["reports"][0]["health"]["sessions"] == {
        "sessions": 3, "surfaced": 3, "unused": 2, "dead_weight": 2, "coverage_gaps": 2
    }  # fmt: skip
    assert from_json(data).reports[0].health.sessions == result.health.sessions


def test_sessions_counts_a_check_did_not_judge_are_left_out(tmp_path: Path) -> None:
    root, location = build(tmp_path)
    only_usage = report(root, "usage", location=location).health.sessions
    assert only_usage == SessionUse(3, 3, unused=2, dead_weight=2, coverage_gaps=None)
    few = report(root, "usage", options={"usage": usage.Options(sessions=9)}, location=location)
    assert [s.reason for s in few.skipped] == ["needs 9 sessions, found 6"]
    assert few.health.sessions == SessionUse(6, 4, None, None, None)  # old.md read too
    outside = report(root, "usage")  # no store around the tree: no session numbers
    assert outside.health.sessions is None
    assert "sessions:" not in render_tree(outside, Run((outside,)))


def test_sessions_a_store_with_no_transcripts_is_skipped_with_a_reason(tmp_path: Path) -> None:
    store = tmp_path / "projects" / "-app"
    root = write_tree(store / "memory", {"a.md": memory("a")})
    (tmp_path / "app").mkdir()
    location = ProjectLocation("-app", tmp_path / "app", store)
    result = report(root, "usage", "coverage", location=location)
    assert result.findings == ()
    assert {(s.dimension, s.reason) for s in result.skipped} == {
        (d, "no session transcripts in this store (~/.claude/projects/<slug>/*.jsonl)")
        for d in ("usage", "coverage")
    }
    assert result.health.sessions == SessionUse(0, 0, None, None, None)
