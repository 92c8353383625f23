"""The health grade: problems per 100 memories, session losses weighted, suggestions never."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks import DIMENSIONS
from memory_audit.engine import busy_report
from memory_audit.model.finding import make_finding
from memory_audit.model.grade import grade
from memory_audit.model.run import Run
from memory_audit.report import html, text
from memory_audit.report.text import TextOptions
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.location import ProjectLocation
from tests.harness import index, memory, report, write_tree


def tree_of(root: Path, memories: int, broken_links: int = 0, unparseable: int = 0) -> Path:
    names = [f"m{n}.md" for n in range(memories)]
    files: dict[str, str] = {name: memory(name.removesuffix(".md")) for name in names}
    for n in range(unparseable):
        files[names[n]] = "---\nname: x\ndescription: y\ntype: user\n- stray\n---\nbody\n"
    files["MEMORY.md"] = index(*names, *(f"gone{n}.md" for n in range(broken_links)))
    return write_tree(root, files)


def test_fixing_a_problem_raises_the_grade(tmp_path: Path) -> None:
    broken = report(tree_of(tmp_path / "a", 20, broken_links=4), "index-drift")
    fixed = report(tree_of(tmp_path / "b", 20, broken_links=1), "index-drift")
    assert broken.grade is not None
    assert fixed.grade is not None
    assert (broken.grade.letter, fixed.grade.letter) == ("C", "A")


def test_a_tree_that_grows_with_the_same_share_of_problems_keeps_its_grade(
    tmp_path: Path,
) -> None:
    small = report(tree_of(tmp_path / "a", 20, broken_links=2), "index-drift")
    grown = report(tree_of(tmp_path / "b", 40, broken_links=4), "index-drift")
    assert small.grade == grown.grade


def test_a_file_sessions_cannot_read_weighs_three_problems(tmp_path: Path) -> None:
    found = report(tree_of(tmp_path / "a", 20, unparseable=1), "frontmatter")
    assert [f.code for f in found.problems] == ["unparseable-frontmatter"]
    assert found.grade is not None
    assert found.grade.score == 15.0


def test_every_entry_a_cut_index_hides_weighs_three_problems_in_its_one_finding(
    tmp_path: Path,
) -> None:
    # 30 entries past line 200: one invisible-entry finding, 30 losses (and over-budget).
    names = [f"m{n}.md" for n in range(229)]
    root = write_tree(tmp_path / "a", {"MEMORY.md": index(*names), "m0.md": memory("m0")})
    found = report(root, "index-budget")
    assert sorted(f.code for f in found.problems) == ["invisible-entry", "over-budget"]
    assert found.grade is not None
    assert found.grade.score == 100.0 * (30 * 3 + 1) / 10


def test_suggestions_never_lower_the_grade() -> None:
    problem = make_finding("index-drift", "broken-link", "MEMORY.md", 3, "gone")
    suggestion = make_finding("duplicates", "near-duplicate", "a.md", 1, "same", level="suggestion")
    assert grade([problem] * 2, 20) == grade([problem] * 2 + [suggestion] * 30, 20)
    assert grade([], 0).letter == "A"


def test_a_possible_secret_caps_the_grade_at_c_however_large_the_tree() -> None:
    secret = make_finding("secrets", "possible-secret", "a.md", 4, "possible password")
    dismissed = make_finding(
        "secrets", "possible-secret", "b.md", 2, "published", level="suggestion"
    )
    drift = make_finding("index-drift", "broken-link", "MEMORY.md", 3, "gone")
    assert grade([drift], 700).letter == "A"
    capped = grade([secret], 700)
    assert (capped.letter, capped.score) == ("C", grade([drift], 700).score)  # score as it was
    assert grade([dismissed], 700).letter == "A"  # a suggestion caps nothing
    assert grade([secret] + [drift] * 15, 20).letter == "F"  # a worse grade stays


def test_a_tree_not_audited_has_no_grade(tmp_path: Path) -> None:
    ref = TreeRef(tree_of(tmp_path / "a", 3), ProjectLocation())
    assert busy_report(ref, 60.0).grade is None


def test_the_grade_stands_next_to_the_counts_in_the_summary_and_the_html_report(
    tmp_path: Path,
) -> None:
    reports = (
        report(tree_of(tmp_path / "a", 20, broken_links=4), "index-drift"),
        report(tree_of(tmp_path / "b", 20), "index-drift"),
    )
    run = Run(reports, dimensions=DIMENSIONS)
    summary = text.render(run, TextOptions(detail="quiet")).splitlines()
    rows = [line.split()[1:3] for line in summary if line.startswith(f"  {tmp_path}")]
    assert rows == [["4", "C"], ["0", "A"]]
    page = html.render(run)
    assert '<td class="num">4</td><td class="num">C</td>' in page
    assert "profile claude-code · grade C" in page
