from __future__ import annotations

from pathlib import Path

from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import findings, memory, report, write_tree
from tests.support.transcripts import tool_call, write_session


def setup(tmp_path: Path, notes: dict[str, str]) -> tuple[Path, Path, ProjectLocation]:
    store = tmp_path / "projects" / "-app"
    root = write_tree(store / "memory", notes)
    project = tmp_path / "app"
    project.mkdir()
    return root, project, ProjectLocation("-app", project, store)


def work(store: Path, project: Path, areas: list[list[str]]) -> None:
    for number, files in enumerate(areas):
        calls = [
            tool_call("Edit", {"file_path": str(project / f)}, cwd=str(project)) for f in files
        ]
        write_session(store, number, calls, cwd=str(project))


def test_coverage_a_folder_worked_in_often_and_never_mentioned_is_a_gap(tmp_path: Path) -> None:
    root, project, location = setup(tmp_path, {"a.md": memory("a", body="About deploys.")})
    assert location.transcripts_dir is not None
    work(location.transcripts_dir, project, [["src/billing/invoice.py"]] * 6 + [["README.md"]] * 3)
    [gap] = findings(root, "coverage", location=location)
    assert (gap.code, gap.judgment) == ("coverage-gap", True)
    assert "`src/billing/` in 6 of the last 9 sessions" in gap.message


def test_coverage_a_mentioned_folder_or_file_is_covered_and_rare_ones_ignored(
    tmp_path: Path,
) -> None:
    notes = {"b.md": memory("b", body="Invoices: see invoice.py, rounding per line.")}
    root, project, location = setup(tmp_path, notes)
    assert location.transcripts_dir is not None
    work(
        location.transcripts_dir,
        project,
        [["src/billing/invoice.py"]] * 6
        + [["docs/api/intro.md"]] * 2
        + [["node_modules/x/index.js", ".git/config", "build/out.js"]] * 6,
    )
    assert findings(root, "coverage", location=location) == []


def test_coverage_needs_the_project_and_enough_sessions(tmp_path: Path) -> None:
    root, project, location = setup(tmp_path, {"a.md": memory("a")})
    assert location.transcripts_dir is not None
    work(location.transcripts_dir, project, [["src/x.py"]] * 2)
    few = report(root, "coverage", location=location)
    assert [s.reason for s in few.skipped] == ["needs 5 sessions, found 2"]
    lost = report(
        root, "coverage", location=ProjectLocation("-app", None, location.transcripts_dir)
    )
    assert [s.reason for s in lost.skipped] == ["sessions' project folder not located"]
    assert few.findings == ()


def test_coverage_a_gap_offers_a_todo_note_under_a_free_name(tmp_path: Path) -> None:
    notes = {"a.md": memory("a"), "project_src-billing.md": memory("taken", body="Deploys.")}
    root, project, location = setup(tmp_path, notes)
    assert location.transcripts_dir is not None
    work(location.transcripts_dir, project, [["src/billing/x.py", "we\nird/y.py"]] * 5)
    found = {f.message.split("`")[1]: f.fix for f in findings(root, "coverage", location=location)}
    assert found == {
        "src/billing/": {
            "action": "capture-todo-note",
            "area": "src/billing",
            "path": "project_src-billing-2.md",
        },
        "we\nird/": None,  # not written into a file name or a Markdown line
    }
