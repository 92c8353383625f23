from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from memory_audit.checks import DIMENSIONS
from memory_audit.model.run import Run
from memory_audit.report import json_report, renderer
from tests.harness import NOW, index, memory, report, write_tree


def drifted(tree_dir: Path) -> Run:
    # three descriptions cut by a YAML comment: the frontmatter dimension's list is cut
    files = {f"extra{i}.md": memory(f"extra{i}", description="done (see #4) too") for i in range(3)}
    write_tree(
        tree_dir,
        {"MEMORY.md": index("a.md", "gone.md", *files), "a.md": memory("a", type="bad"), **files},
    )
    return Run(
        (report(tree_dir, "index-drift", "frontmatter"),),
        NOW,
        max_per_dimension=2,
        dimensions=DIMENSIONS,
    )


def test_text_report_has_the_seed_shape(tree_dir: Path) -> None:
    run = drifted(tree_dir)
    fixable = sum(1 for f in run.reports[0].findings if f.fix is not None)
    assert 0 < fixable < 5
    text = renderer("text")(run)
    lines = text.splitlines()
    assert lines[0] == f"Memory audit: {tree_dir}/"
    assert lines[1] == "Files scanned: 4 memory files + 0 session-recaps + MEMORY.md"
    assert lines[2] == "Findings: 5 total · grade D"
    assert "## MEMORY.md index drift (1)" in lines
    assert "## Frontmatter validity (4)" in lines
    gone = next(f for f in run.reports[0].findings if f.path == "MEMORY.md" and f.line == 3)
    assert (
        "- MEMORY.md:3 — link target `gone.md` doesn't exist. Suggest: remove the entry, "
        f"or update the path if the file was renamed. [{gone.fingerprint[:8]}]" in lines
    )
    assert "(2 more not shown — narrow with --check frontmatter)" in lines
    assert any(
        line.startswith(
            "- a.md:4 — type `bad` is not one of user, feedback, project, reference, "
            "session-recap. Suggest: set type to one of them. ["
        )
        for line in lines
    )
    # Only the two dimensions that ran; both found something: no "Nothing material" line.
    assert not any("Nothing material" in line for line in lines)
    assert lines[-4:] == [
        "----",
        f"{fixable} of 5 findings have a proposed fix; the others need your judgment.",
        "Walk them one decision at a time (1. Apply  2. Skip  3. Edit  4. View detail):",
        f"  memory-audit review {tree_dir}",
    ]


def test_text_report_of_a_clean_tree(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    text = renderer("text")(Run((report(tree_dir),), NOW, dimensions=DIMENSIONS))
    assert "Findings: 0 total" in text
    assert text.rstrip().endswith("## All dimensions: Nothing material.")


def test_markdown_report_carries_the_same_findings(tree_dir: Path) -> None:
    text = renderer("markdown")(drifted(tree_dir))
    assert "## Frontmatter validity (4)" in text
    assert "- `a.md:4` — type `bad` is not one of" in text
    assert "(2 more not shown — narrow with --check frontmatter)" in text


def test_json_report_lists_every_finding_and_round_trips(tree_dir: Path) -> None:
    run = drifted(tree_dir)
    data = json.loads(renderer("json")(run))
    assert data["schema"] == "memory-audit/run@1"
    assert dt.datetime.fromisoformat(data["generated_at"]).utcoffset() is not None
    [tree] = data["reports"]
    assert tree["root"] == str(tree_dir)
    assert tree["files_scanned"] == {"memory": 4, "session_recaps": 0, "index": True, "other": 0}
    assert len(tree["findings"]) == 5
    assert tree["counts"] == {"index-drift": 1, "frontmatter": 4}
    assert tree["not_shown"] == {"frontmatter": 2}
    assert set(tree["health"]) == {
        "files",
        "total_lines",
        "index_lines",
        "index_bytes",
        "largest",
        "review_due",
        "unindexed",
        "index_chars",
        "index_cut_line",
        "recall_total",
        "recall_seen",
        "sessions",
    }
    assert tree["health"]["sessions"] is None  # no session check ran
    first = tree["findings"][0]
    assert set(first) == {
        "dimension",
        "code",
        "path",
        "line",
        "message",
        "suggestion",
        "judgment",
        "related",
        "fix",
        "fingerprint",
        "level",
    }
    assert first["level"] in ("problem", "suggestion")
    again = json_report.from_json(data)
    assert again.reports[0].findings == run.reports[0].findings


def two_trees(tmp_path: Path) -> Run:
    roots = [tmp_path / "one" / "memory", tmp_path / 'tw"o\\é' / "memory"]
    for root in roots:
        write_tree(root, {"MEMORY.md": index("gone.md"), "a.md": memory("a", type="bad")})
    reports = tuple(report(root, "index-drift", "frontmatter") for root in roots)
    return Run(reports, NOW, dimensions=DIMENSIONS)


def test_json_is_compact_and_streamed_exactly_as_one_dump(tmp_path: Path) -> None:
    run = two_trees(tmp_path)
    text = json_report.render(run)
    assert text.count("\n") == 1
    assert text.endswith("}\n")
    compact = json.dumps(json_report.to_json(run), separators=(",", ":"), ensure_ascii=False)
    assert text == compact + "\n"
    assert json.loads(text)["reports"][1]["root"] == str(tmp_path / 'tw"o\\é' / "memory")


def test_json_indent_is_for_people(tmp_path: Path) -> None:
    run = two_trees(tmp_path)
    pretty = json_report.render(run, indent=2)
    assert pretty.startswith('{\n  "schema": "memory-audit/run@1",\n')
    assert json.loads(pretty) == json.loads(json_report.render(run))
