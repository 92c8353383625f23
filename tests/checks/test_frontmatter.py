from __future__ import annotations

from pathlib import Path

from tests.harness import codes, findings, index, memory, write_tree

CURRENT = """---
name: testing-policy
description: Integration tests use a real database
metadata:
  type: feedback
  node_type: memory
  originSessionId: 0b1c
  modified: 2026-10-01
---
Use a real database.
"""
OLD = "---\nname: Testing policy\ndescription: Real DB in tests\ntype: feedback\n---\nBody\n"


def audit(
    tree_dir: Path, files: dict[str, str | bytes], profile: str = "auto"
) -> list[tuple[str, str, int | None]]:
    write_tree(tree_dir, {"MEMORY.md": index(*[f for f in files if f.endswith(".md")]), **files})
    return codes(findings(tree_dir, "frontmatter", profile=profile))


def test_frontmatter_both_layouts_and_a_mix_are_clean(tree_dir: Path) -> None:
    assert audit(tree_dir, {"current.md": CURRENT, "old.md": OLD}) == []


def test_frontmatter_missing_fields_named_one_by_one(tree_dir: Path) -> None:
    found = audit(tree_dir, {"a.md": "---\nname: a\n---\nbody\n"})
    assert found == [("missing-field", "a.md", 1), ("missing-field", "a.md", 1)]
    messages = [f.message for f in findings(tree_dir, "frontmatter")]
    assert any("`description`" in m for m in messages)
    assert any("`type`" in m and "metadata" in m for m in messages)


def test_frontmatter_empty_description_is_flagged(tree_dir: Path) -> None:
    assert audit(tree_dir, {"a.md": '---\nname: a\ndescription: ""\ntype: user\n---\n'}) == [
        ("empty-field", "a.md", 3)
    ]


def test_frontmatter_invalid_type_and_kind(tree_dir: Path) -> None:
    text = "---\nname: a\ndescription: d\ntype: feedbak\nkind: rumour\n---\n"
    assert audit(tree_dir, {"a.md": text}) == [
        ("invalid-type", "a.md", 4),
        ("invalid-kind", "a.md", 5),
    ]


def test_frontmatter_conflicting_layouts_in_one_file(tree_dir: Path) -> None:
    text = "---\nname: a\ndescription: d\ntype: user\nmetadata:\n  type: project\n---\n"
    assert audit(tree_dir, {"a.md": text}) == [("conflicting-type", "a.md", 4)]


def test_frontmatter_no_frontmatter_at_all(tree_dir: Path) -> None:
    assert audit(tree_dir, {"a.md": "# Just a heading\n\ntext\n"}) == [
        ("no-frontmatter", "a.md", 1)
    ]


def test_frontmatter_parse_error_comes_first_and_other_files_are_still_checked(
    tree_dir: Path,
) -> None:
    found = audit(
        tree_dir, {"bad.md": "---\nname: x\n- stray\n---\n", "zz.md": "---\nname: z\n---\n"}
    )
    assert found[0][:2] == ("unparseable-frontmatter", "bad.md")
    assert ("missing-field", "zz.md", 1) in found


def test_frontmatter_list_and_scalar_frontmatter_are_not_mappings(tree_dir: Path) -> None:
    found = audit(
        tree_dir, {"list.md": "---\n- a\n- b\n---\n", "scalar.md": "---\njust text\n---\n"}
    )
    assert found == [
        ("frontmatter-not-mapping", "list.md", 1),
        ("frontmatter-not-mapping", "scalar.md", 1),
    ]


def test_frontmatter_governed_profile_requires_scope_and_relevance(tree_dir: Path) -> None:
    text = "---\nname: a\ndescription: d\ntype: feedback\n---\n"
    assert audit(tree_dir, {"a.md": text}, profile="governed") == [
        ("missing-field", "a.md", 1),
        ("missing-field", "a.md", 1),
    ]


def test_frontmatter_session_recap_type_is_exempt_from_relevance(tree_dir: Path) -> None:
    text = "---\nname: a\ndescription: d\ntype: session-recap\nscope: [billing]\n---\n"
    assert audit(tree_dir, {"a.md": text}, profile="governed") == []


def test_frontmatter_auto_profile_turns_governed_when_scope_is_used(tree_dir: Path) -> None:
    governed = "---\nname: g\ndescription: d\ntype: user\nscope: [x]\nrelevance: always\n---\n"
    plain = "---\nname: p\ndescription: d\ntype: user\n---\n"
    found = audit(tree_dir, {"g.md": governed, "p.md": plain})
    assert found == [("missing-field", "p.md", 1), ("missing-field", "p.md", 1)]


def test_frontmatter_empty_scope_on_specific_body_is_user_judgment(tree_dir: Path) -> None:
    specific = (
        "---\nname: a\ndescription: d\ntype: feedback\nscope: []\nrelevance: always\n---\n"
        "Run `pytest -m integration` against postgres before merging.\n"
    )
    general = (
        "---\nname: b\ndescription: d\ntype: user\nscope: []\nrelevance: always\n---\n"
        "The user likes short answers.\n"
    )
    write_tree(tree_dir, {"MEMORY.md": index("a.md", "b.md"), "a.md": specific, "b.md": general})
    [finding] = findings(tree_dir, "frontmatter")
    assert (finding.code, finding.path, finding.judgment) == ("broad-scope", "a.md", True)
    assert "pytest -m integration" in finding.message


def test_frontmatter_description_as_a_list_is_invalid(tree_dir: Path) -> None:
    assert audit(tree_dir, {"a.md": "---\nname: a\ndescription: [x, y]\ntype: user\n---\n"}) == [
        ("invalid-field", "a.md", 3)
    ]


def test_frontmatter_team_and_session_files_are_not_checked_here(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "",
            "team/notes.md": "no frontmatter\n",
            "sessions/2026-01-01-a.md": "no frontmatter\n",
        },
    )
    assert findings(tree_dir, "frontmatter") == []


def test_a_folder_where_no_file_has_frontmatter_is_one_suggestion(tree_dir: Path) -> None:
    files = {f"rule_{n}.md": f"# Rule {n}\n\nAlways answer in Spanish ({n}).\n" for n in range(4)}
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    [finding] = findings(tree_dir, "frontmatter")
    assert (finding.code, finding.path, finding.level) == (
        "no-frontmatter",
        "rule_0.md",
        "suggestion",
    )
    assert finding.message.startswith("none of the 4 files has frontmatter")
    assert finding.related == ("rule_1.md", "rule_2.md", "rule_3.md")


def test_files_without_frontmatter_among_others_are_each_a_problem(tree_dir: Path) -> None:
    files = {f"rule_{n}.md": f"# Rule {n}\n\nAlways answer in Spanish ({n}).\n" for n in range(3)}
    files["a.md"] = memory("a")
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    found = findings(tree_dir, "frontmatter")
    assert [(f.code, f.path, f.level) for f in found] == [
        ("no-frontmatter", f"rule_{n}.md", "problem") for n in range(3)
    ]
