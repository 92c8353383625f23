"""Problems and suggestions: a suggestion is shown, folded and counted apart, never as a problem."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memory_audit.checks import BY_ID
from memory_audit.model.dimension import Level
from tests.harness import findings, index, memory, write_tree

# Two notes that say the same thing (duplicates: every code a suggestion) and nothing else.
RULE = "Integration tests must hit a real Postgres database started from compose, never mocks."


def suggestion_only_tree(root: Path) -> Path:
    files = {
        "a.md": memory("a", description="Integration tests and the database", body=RULE),
        "b.md": memory("b", description="Tests against a real database", body=RULE),
        "c.md": memory("c", body="Deploys go through the pipeline on merge; prod needs approval."),
    }
    return write_tree(root, {"MEMORY.md": index(*files), **files})


def audit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "memory_audit", "audit", *map(str, args)]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)


def test_a_dimension_declares_which_codes_are_suggestions() -> None:
    assert BY_ID["duplicates"].level("possible-duplicate") is Level.SUGGESTION
    assert BY_ID["frontmatter"].level("strict-yaml-only") is Level.SUGGESTION
    assert BY_ID["frontmatter"].level("invalid-type") is Level.PROBLEM
    assert BY_ID["index-drift"].level("broken-index-link") is Level.PROBLEM


def test_the_engine_gives_every_finding_its_level(tree_dir: Path) -> None:
    suggestion_only_tree(tree_dir)
    (tree_dir / "MEMORY.md").write_text(index("a.md", "b.md", "c.md", "gone.md"))
    levels = {f.code: f.level for f in findings(tree_dir, "duplicates", "index-drift")}
    assert levels == {"possible-duplicate": "suggestion", "broken-index-link": "problem"}


def test_a_tree_with_suggestions_only_exits_0_and_lists_them_folded_last(tmp_path: Path) -> None:
    tree = suggestion_only_tree(tmp_path / "memory")
    result = audit(tree, "--color=never")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Findings: 0 total (+1 suggestion(s), listed last)" in out
    head, _, folded = out.partition("## Suggestions (1)")
    assert "\n## Possible duplicates" not in head  # not among the problems
    assert "say the same thing" not in head
    assert "### Possible duplicates (1)" in folded
    assert "say the same thing" in folded


def test_quiet_counts_suggestions_in_one_line(tmp_path: Path) -> None:
    tree = suggestion_only_tree(tmp_path / "memory")
    out = audit(tree, "-q", "--color=never").stdout
    assert "Summary: 0 findings in 0 of 1 memory trees" in out
    assert "Also 1 suggestion(s): worth a look, not counted" in out
    assert "say the same thing" not in out


def test_json_marks_each_finding_and_counts_both_levels(tmp_path: Path) -> None:
    tree = suggestion_only_tree(tmp_path / "memory")
    result = audit(tree, "--format", "json")
    assert result.returncode == 0
    [report] = json.loads(result.stdout)["reports"]
    assert report["levels"] == {"problem": 0, "suggestion": 1}
    assert [f["level"] for f in report["findings"]] == ["suggestion"]


def test_markdown_and_html_fold_suggestions(tmp_path: Path) -> None:
    tree = suggestion_only_tree(tmp_path / "memory")
    markdown = audit(tree, "--format", "markdown").stdout
    assert "<details>\n<summary>Suggestions (1)</summary>" in markdown
    html = audit(tree, "--format", "html").stdout
    folded = html.partition('<details class="suggestions">')[2]
    assert "say the same thing" in folded
    assert "say the same thing" not in html.partition('<details class="suggestions">')[0]


def test_sarif_never_raises_a_suggestion_above_a_note(tmp_path: Path) -> None:
    tree = suggestion_only_tree(tmp_path / "memory")
    sarif = json.loads(audit(tree, "--format", "sarif").stdout)
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["note"]
