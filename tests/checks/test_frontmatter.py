from __future__ import annotations

from pathlib import Path

from memory_audit.tree.location import ProjectLocation
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


def test_frontmatter_a_folder_whose_blocks_read_as_text_is_one_suggestion(tree_dir: Path) -> None:
    # a project's own memory store writes `key:value` without a space: YAML reads each
    # block as one text. Most of the folder: its format, one finding; a lapse stays one.
    own = {
        f"note_{n}.md": f"---\nname:note {n}\ntype:fact\ncreated:2026-05-0{n}\n---\nBody.\n"
        for n in range(1, 5)
    }
    write_tree(tree_dir, own)
    [finding] = findings(tree_dir, "frontmatter")
    assert (finding.code, finding.path, finding.level) == (
        "frontmatter-not-mapping",
        "note_1.md",
        "suggestion",
    )
    assert finding.message.startswith("4 of 4 memories write their block as lines YAML reads")
    assert finding.related == ("note_2.md", "note_3.md", "note_4.md")
    lapse = tree_dir.parent / "lapse"
    write_tree(
        lapse,
        {
            "odd.md": "---\nname:odd\n---\nBody.\n",
            **{
                f"ok_{n}.md": f"---\nname: ok {n}\ndescription: d\ntype: user\n---\n"
                for n in range(3)
            },
        },
    )
    assert [(f.code, f.path, f.level) for f in findings(lapse, "frontmatter")] == [
        ("frontmatter-not-mapping", "odd.md", "problem")
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


VAULT_NOTE = (
    "---\ncreated: 2026-05-0{n}\nstatus: active\ntags: [case]\n---\n# Case {n}\n\nWhat broke.\n"
)
PLAIN_NOTE = "# Lesson {n}\n\nLoad on triggers: deploy, proxy.\n"


def test_a_tree_keeping_its_own_schema_is_one_suggestion(tree_dir: Path) -> None:
    # An Obsidian-style folder: most notes carry created/status/tags or nothing; the few in
    # Claude Code's schema are still checked one by one.
    files = {f"case_{n}.md": VAULT_NOTE.format(n=n) for n in range(3)}
    files |= {f"lesson_{n}.md": PLAIN_NOTE.format(n=n) for n in range(3)}
    files |= {"a.md": memory("a"), "b.md": memory("b", type=None)}
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    found = findings(tree_dir, "frontmatter")
    assert [(f.code, f.path, f.level) for f in found] == [
        ("missing-field", "b.md", "problem"),
        ("own-schema", "case_0.md", "suggestion"),
    ]
    own = found[1]
    assert own.message.startswith("6 of 8 memories do not follow Claude Code's frontmatter schema")
    assert "3 without frontmatter; 3 with a block of another schema (created, status, tags;" in (
        own.message
    )
    assert own.related == ("case_1.md", "case_2.md", "lesson_0.md", "lesson_1.md", "lesson_2.md")


def test_bare_notes_beside_typed_ones_are_lapses_until_another_schema_shows(
    tmp_path: Path,
) -> None:
    # Design notes saved by hand into a Claude Code folder: a majority, but no other schema
    # shows, so each is a lapse its own fix repairs. Three blocks of another schema make
    # the same folder one that keeps its own convention.
    files = {f"0{n}-design.md": PLAIN_NOTE.format(n=n) for n in range(4)}
    files |= {"a.md": memory("a"), "b.md": memory("b")}
    write_tree(tmp_path / "lapses", {"MEMORY.md": index(*files), **files})
    assert [(f.code, f.level) for f in findings(tmp_path / "lapses", "frontmatter")] == [
        ("no-frontmatter", "problem")
    ] * 4
    files |= {f"case_{n}.md": VAULT_NOTE.format(n=n) for n in range(3)}
    write_tree(tmp_path / "vault", {"MEMORY.md": index(*files), **files})
    assert [(f.code, f.level) for f in findings(tmp_path / "vault", "frontmatter")] == [
        ("own-schema", "suggestion")
    ]


def test_a_tree_of_claude_codes_own_keeps_a_finding_per_file(
    tmp_path: Path, isolated_home: Path
) -> None:
    # Claude Code reads this folder: each file without name and description is one that
    # recall cannot pick, and each has its own fix. The same files in a repository: one.
    files = {f"case_{n}.md": VAULT_NOTE.format(n=n) for n in range(3)}
    files |= {f"lesson_{n}.md": PLAIN_NOTE.format(n=n) for n in range(3)}
    files |= {f"{n}.md": memory(n) for n in "abcd"}  # Claude Code's blocks, the most
    files |= {"MEMORY.md": index(*files)}
    own = write_tree(isolated_home / ".claude/projects/-work-vault/memory", files)
    found = [(f.code, f.level) for f in findings(own, "frontmatter")]
    assert found.count(("no-frontmatter", "problem")) == 3
    assert found.count(("missing-field", "problem")) == 9  # name, description, type × 3
    copy = write_tree(tmp_path / "repo/memory", files)
    assert [f.code for f in findings(copy, "frontmatter")] == ["own-schema"]


LAYERED_NOTE = (
    "---\ntype: {layer}\ntags: [ops]\nsalience: high\ncreated: 2026-04-0{n}\n---\n"
    "# Note {n}\n\nWhat holds.\n"
)


def test_an_owners_own_memory_system_in_claude_codes_folder_is_one_suggestion(
    isolated_home: Path,
) -> None:
    # An owner's own system inside Claude Code's folder: layers as sub-folders, `type` the
    # layer, salience and tags; a script rebuilds the index from `type`. Its blocks
    # outnumber Claude Code's: one suggestion, and its own types are no typos; the files
    # in Claude Code's schema are still checked, a type of neither kept as a typo.
    files = {
        f"{layer}/note_{n}.md": LAYERED_NOTE.format(layer=layer, n=n)
        for layer in ("semantic", "procedural", "episodic")
        for n in range(2)
    }
    files |= {f"hypotheses/h{n}.md": PLAIN_NOTE.format(n=n) for n in range(2)}
    files |= {
        "procedural/shell.md": memory("shell", type="procedural"),
        "reflective/r.md": LAYERED_NOTE.format(layer="reflective", n=1),  # a layer of one
        "reflective/s.md": memory("s", type="reflective"),
        "a.md": memory("a"),
        "b.md": memory("b", type="semantc"),
    }
    files |= {"MEMORY.md": index(*files)}
    own = write_tree(isolated_home / ".claude/projects/-home-jo/memory", files)
    found = [(f.code, f.path, f.level) for f in findings(own, "frontmatter")]
    assert sorted(found) == [
        ("invalid-type", "b.md", "problem"),
        ("no-frontmatter", "hypotheses/h0.md", "suggestion"),  # a folder of another kind
        ("own-schema", "episodic/note_0.md", "suggestion"),
    ]


def test_drift_in_claude_codes_folder_is_no_system_of_the_owners(isolated_home: Path) -> None:
    # Old notes typed as Claude Code types them but with no name or description, a tie
    # between another schema's blocks and Claude Code's, one block's typo: lapses, each
    # reported on its own.
    home = isolated_home / ".claude/projects"
    drift = {
        f"old_{n}.md": f"---\ntype: feedback\nsource: chat\n---\nRule {n}.\n" for n in range(4)
    }
    drift |= {"a.md": memory("a")}
    tree = write_tree(home / "-home-ann-drift/memory", {"MEMORY.md": index(*drift), **drift})
    found = [(f.code, f.level) for f in findings(tree, "frontmatter")]
    assert found.count(("missing-field", "problem")) == 8  # name and description × 4
    tie = {
        f"{layer}/n.md": LAYERED_NOTE.format(layer=layer, n=1) for layer in ("sem", "epi", "pro")
    }
    tie |= {f"{n}.md": memory(n) for n in "abc"}
    tree = write_tree(home / "-home-ann-tie/memory", {"MEMORY.md": index(*tie), **tie})
    assert "own-schema" not in [f.code for f in findings(tree, "frontmatter")]
    typo = {
        f"{layer}/n{n}.md": LAYERED_NOTE.format(layer=layer, n=n)
        for layer in ("sem", "epi")
        for n in range(2)
    }
    typo |= {"odd.md": LAYERED_NOTE.format(layer="projet", n=1), "a.md": memory("a", type="projet")}
    tree = write_tree(home / "-home-ann-typo/memory", {"MEMORY.md": index(*typo), **typo})
    found = [(f.code, f.path) for f in findings(tree, "frontmatter")]
    assert ("own-schema", "epi/n0.md") in found
    assert ("invalid-type", "a.md") in found


def test_a_dated_series_without_frontmatter_is_one_suggestion(tree_dir: Path) -> None:
    dates = ("2026-04-14", "2026-04-21", "2026-05-03")
    files = {f"sandbox-snapshot-{d}.md": f"# Snapshot {d}\n\n- 3 jobs queued\n" for d in dates}
    files |= {"a.md": memory("a"), "b.md": memory("b"), "log.md": "# Log\n"}
    # A series with a typed member: its bare files are lapses, each reported.
    files |= {f"status-{d}.md": f"# Status {d}\n" for d in dates[:2]}
    files |= {"status-2026-05-10.md": memory("status-2026-05-10")}
    files |= {f"n{n}.md": memory(f"n{n}") for n in range(6)}
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    found = findings(tree_dir, "frontmatter")
    assert [(f.code, f.path, f.level) for f in found] == [
        ("no-frontmatter", "log.md", "problem"),
        ("no-frontmatter", "sandbox-snapshot-2026-04-14.md", "suggestion"),
        ("no-frontmatter", "status-2026-04-14.md", "problem"),
        ("no-frontmatter", "status-2026-04-21.md", "problem"),
    ]
    assert "3 files of one dated series (`sandbox-snapshot-<date>.md`)" in found[1].message
    assert found[1].related == ("sandbox-snapshot-2026-04-21.md", "sandbox-snapshot-2026-05-03.md")


def test_a_subfolder_of_documents_without_frontmatter_is_one_suggestion(tree_dir: Path) -> None:
    spec = "# {n} specification\n\n- revision: abc123\n- status: waiting\n"
    files = {f"specs/{n}.md": spec.format(n=n) for n in ("solidify", "volume")}
    files |= {"a.md": memory("a"), "b.md": memory("b"), "notes/c.md": memory("c")}
    files |= {"notes/bare.md": "# Bare\n"}
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    found = findings(tree_dir, "frontmatter")
    assert [(f.code, f.path, f.level) for f in found] == [
        ("no-frontmatter", "notes/bare.md", "problem"),
        ("no-frontmatter", "specs/solidify.md", "suggestion"),
    ]
    assert found[1].message.startswith("the 2 files in `specs/` have no frontmatter")


def test_nested_folders_of_documents_without_frontmatter_are_one_suggestion(
    tree_dir: Path,
) -> None:
    # a catalogue kept in sub-folders of one folder (exams/<board>/<exam>.md) is one folder
    # of another kind; a folder of memories with blocks keeps its bare file's own finding
    sheet = "# {n}\n\n- pattern: 3 papers\n- marks: 300\n"
    files = {f"exams/{board}/{n}.md": sheet.format(n=n) for board in "xyz" for n in ("p", "q")}
    files |= {"a.md": memory("a"), "notes/c.md": memory("c"), "notes/deep/bare.md": "# Bare\n"}
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    found = findings(tree_dir, "frontmatter")
    assert [(f.code, f.path, f.level) for f in found] == [
        ("no-frontmatter", "exams/x/p.md", "suggestion"),
        ("no-frontmatter", "notes/deep/bare.md", "suggestion"),
    ]
    assert found[0].message.startswith("the 6 files in `exams/` have no frontmatter")
    assert len(found[0].related) == 5


def test_field_lines_without_fences_are_named_as_such(tree_dir: Path) -> None:
    text = "name: WP9 check\ndescription: Costs eat the edge\n\n# WP9\n"
    assert audit(tree_dir, {"a.md": memory("a"), "wp9.md": text}) == [
        ("no-frontmatter", "wp9.md", 1)
    ]
    [finding] = findings(tree_dir, "frontmatter")
    assert finding.message == (
        "lines 1–2 hold `description`, `name` without --- fences: discovery reads no"
        " frontmatter here"
    )
    assert finding.fix == {"action": "add-frontmatter", "path": "wp9.md", "fence": 2}


def test_a_file_the_project_claude_md_imports_needs_no_frontmatter(tmp_path: Path) -> None:
    # "- @.claude/memory/active_plan.md — the blueprint": loaded whole every session, found
    # by no description. A bare file nothing imports is still a lapse.
    project = write_tree(
        tmp_path / "project",
        {"CLAUDE.md": "# Project\n\n- @.claude/memory/active_plan.md — the refactoring plan\n"},
    )
    tree = write_tree(
        project / ".claude" / "memory",
        {
            "MEMORY.md": index("a.md", "b.md", "active_plan.md", "scratch.md"),
            "a.md": memory("a"),
            "b.md": memory("b"),
            "active_plan.md": "# Plan\n\n1. Split the engine.\n",
            "scratch.md": "# Scratch\n\nIdeas.\n",
        },
    )
    location = ProjectLocation(project_path=project)
    assert codes(findings(tree, "frontmatter", location=location)) == [
        ("no-frontmatter", "scratch.md", 1)
    ]


def test_a_file_the_project_claude_md_names_by_path_needs_no_frontmatter(tmp_path: Path) -> None:
    # "Start with `.claude/memory/progress.md`": read from there. One named file does not
    # make the folder's other files found by path: scratch.md is still a lapse.
    project = write_tree(
        tmp_path / "project",
        {"CLAUDE.md": "# Project\n\n1. Read `.claude/memory/progress.md` first.\n"},
    )
    tree = write_tree(
        project / ".claude" / "memory",
        {
            "MEMORY.md": index("a.md", "progress.md", "scratch.md"),
            "a.md": memory("a"),
            "progress.md": "# Progress\n\n- 06-12 sync fixed\n",
            "scratch.md": "# Scratch\n\nIdeas.\n",
        },
    )
    location = ProjectLocation(project_path=project)
    assert codes(findings(tree, "frontmatter", location=location)) == [
        ("no-frontmatter", "scratch.md", 1)
    ]


READ_BY_PATH = {
    "MEMORY.md": index("a.md", "spec.md", "plan.md"),
    "a.md": memory("a"),
    "spec.md": "# Sync spec\n\nThe popup asks the worker.\n",
    "plan.md": "# Plan\n\n1. Split the engine.\n",
    "algorithms/one.md": "# One\n",
    "algorithms/two.md": "# Two\n",
    "algorithms/three.md": "# Three\n",
}


def test_a_copy_whose_claude_md_names_the_folder_has_no_lapses_of_frontmatter(
    tmp_path: Path,
) -> None:
    # ".claude/CLAUDE.md plus `.claude/memory/` are the canonical instructions": the folder
    # is read through its index and by path. A sub-folder of other documents is still one
    # suggestion (it names once the files no session saved).
    project = tmp_path / "project"
    write_tree(
        project / ".claude",
        {"CLAUDE.md": "# Rules\n\nThis file plus `.claude/memory/` are the instructions.\n"},
    )
    tree = write_tree(project / ".claude" / "memory", READ_BY_PATH)
    found = findings(tree, "frontmatter", location=ProjectLocation(project_path=project))
    assert [(f.code, f.path, len(f.related)) for f in found] == [
        ("no-frontmatter", "algorithms/one.md", 2)
    ]
    assert found[0].message.startswith("the 3 files in `algorithms/`")


def test_a_folder_named_inside_a_longer_path_or_address_is_not_named(tmp_path: Path) -> None:
    # `.claude/memory/plan.md` names a file (plan.md is exempt, not the folder); a web
    # address ending in the folder's name is no path of this project
    project = tmp_path / "project"
    write_tree(
        project,
        {
            "CLAUDE.md": "# Rules\n\nSee `.claude/memory/plan.md` and"
            " https://example.org/.claude/memory/ for the format.\n"
        },
    )
    tree = write_tree(project / ".claude" / "memory", READ_BY_PATH)
    found = findings(tree, "frontmatter", location=ProjectLocation(project_path=project))
    assert sorted((f.code, f.path) for f in found) == [
        ("no-frontmatter", "algorithms/one.md"),
        ("no-frontmatter", "spec.md"),
    ]


def test_a_copy_whose_claude_md_imports_the_index_is_not_asked_about_its_folder(
    tmp_path: Path,
) -> None:
    # a team's committed memory, its index imported by CLAUDE.md, none of its files with a
    # block: "is this folder written by Claude Code?" has its answer there
    files = {"conventions.md": "# Conventions\n", "known-issues.md": "# Issues\n"}
    files |= {"MEMORY.md": index(*files, "decisions.md"), "decisions.md": "# Decisions\n"}
    project = write_tree(tmp_path / "project", {"CLAUDE.md": "@.claude/memory/MEMORY.md\n"})
    tree = write_tree(project / ".claude" / "memory", files)
    assert findings(tree, "frontmatter", location=ProjectLocation(project_path=project)) == []
    # the same folder beside a project that does not import it is still asked
    alone = write_tree(tmp_path / "alone" / "memory", files)
    assert codes(findings(alone, "frontmatter")) == [("no-frontmatter", "conventions.md", 1)]


def test_a_folder_named_by_a_project_it_is_not_inside_keeps_its_lapses(tmp_path: Path) -> None:
    # read_by_instructions holds only for a repository's own copy: a tree audited beside a
    # project whose CLAUDE.md happens to name its folder is still found by description
    project = write_tree(tmp_path / "project", {"CLAUDE.md": "Notes live in `../notes/`.\n"})
    tree = write_tree(tmp_path / "notes", READ_BY_PATH)
    found = findings(tree, "frontmatter", location=ProjectLocation(project_path=project))
    assert sorted((f.code, f.path) for f in found) == [
        ("no-frontmatter", "algorithms/one.md"),
        ("no-frontmatter", "plan.md"),
        ("no-frontmatter", "spec.md"),
    ]


def test_a_folder_kept_out_by_claude_md_is_not_read_by_it(tmp_path: Path) -> None:
    # "do not commit `.claude/memory/`", "lint excludes .claude/memory/*.md": the folder is
    # named, but not as what sessions read
    for line in (
        "Do not commit `.claude/memory/`: it is git-ignored scratch.",
        "Lint excludes .claude/memory/*.md from the checks.",
    ):
        project = tmp_path / str(abs(hash(line)))
        write_tree(project, {"CLAUDE.md": f"# Rules\n\n{line}\n"})
        tree = write_tree(project / ".claude" / "memory", READ_BY_PATH)
        found = findings(tree, "frontmatter", location=ProjectLocation(project_path=project))
        assert sorted(f.path for f in found) == ["algorithms/one.md", "plan.md", "spec.md"], line


def test_a_one_file_sub_folder_of_documents_stays_one_finding_when_read_by_path(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    write_tree(project, {"CLAUDE.md": "Our memory lives in `.claude/memory/`; read it first.\n"})
    files = {k: v for k, v in READ_BY_PATH.items() if k not in {"algorithms/two.md"}}
    files = {k: v for k, v in files.items() if k != "algorithms/three.md"}
    tree = write_tree(project / ".claude" / "memory", files)
    alone = findings(tree, "frontmatter")
    found = findings(tree, "frontmatter", location=ProjectLocation(project_path=project))
    group = [f for f in alone if f.path == "algorithms/one.md"]
    assert [f.path for f in found] == [f.path for f in group]


# A document that opens with a Markdown rule and a heading, its next rule far below: the
# lines between are its body, not a block whose YAML failed (advice to quote a line of it
# would be nonsense). The file has no frontmatter; a block with a key line still fails.
RULED = """---

# ROUTINE.md

## Goal

Define how the agents should:

* start tasks
* record knowledge

---

More text.
"""


def test_frontmatter_a_leading_rule_and_heading_is_no_block(tree_dir: Path) -> None:
    found = audit(tree_dir, {"routine.md": RULED})
    assert found == [("no-frontmatter", "routine.md", 1)]
    keyed = RULED.replace("# ROUTINE.md", "name: routine\n# ROUTINE.md")
    assert audit(tree_dir, {"routine.md": keyed})[0][:2] == (
        "unparseable-frontmatter",
        "routine.md",
    )


def test_files_an_agents_definition_names_by_path_need_no_frontmatter(tmp_path: Path) -> None:
    # "Load your files from `.claude/agent-memory/builder/`: `napkin.md`, `decisions.md`":
    # the agent reads them by path, as a session reads what CLAUDE.md names; another
    # agent's definition names nothing of this store
    from memory_audit.model.stores import AgentStore

    project = tmp_path / "project"
    write_tree(
        project / ".claude" / "agents",
        {
            "builder.md": "---\nname: builder\nmemory: project\n---\nLoad your interior files"
            " from `.claude/agent-memory/builder/`: `napkin.md` and"
            " `.claude/agent-memory/builder/decisions.md`.\n",
            "planner.md": "---\nname: planner\nmemory: project\n---\nKeep notes.\n",
        },
    )
    files = {
        "MEMORY.md": index("napkin.md", "decisions.md", "log.md"),
        "napkin.md": "# Napkin\n\nQuick notes.\n",
        "decisions.md": "# Decisions\n\nStructured decision records.\n",
        "log.md": memory("log"),
    }
    for agent, expected in (("builder", []), ("planner", ["decisions.md", "napkin.md"])):
        tree = write_tree(project / ".claude" / "agent-memory" / agent, files)
        location = ProjectLocation("-p", project, None, AgentStore(agent, "project"))
        found = findings(tree, "frontmatter", location=location)
        assert sorted(f.path for f in found if f.code == "no-frontmatter") == expected, agent
    # a store none of whose files has a block: no question when the definition names them
    # all, one when a file it does not name has none either
    bare = {**files, "log.md": "# Log\n\nNewest first.\n"}
    for agent, named in (("builder", False), ("planner", True)):
        tree = write_tree(tmp_path / "bare" / ".claude" / "agent-memory" / agent, bare)
        write_tree(
            tmp_path / "bare" / ".claude" / "agents",
            {
                f"{agent}.md": f"---\nname: {agent}\n---\nRead `napkin.md`, `decisions.md`"
                + (" and `log.md`.\n" if not named else ".\n")
            },
        )
        location = ProjectLocation("-p", tmp_path / "bare", None, AgentStore(agent, "project"))
        found = findings(tree, "frontmatter", location=location)
        assert [f.code for f in found] == (["no-frontmatter"] if named else []), agent


def test_a_template_folders_blanks_are_no_fields_to_fix(tree_dir: Path) -> None:
    # a skill creator's templates: a bracketed blank reads as a YAML list, metadata as text;
    # the same block in a memory is still one to fix
    block = (
        "---\nname: [your-skill-name]\ndescription: d\ntype: reference\nmetadata: '{}'\n---\nx\n"
    )
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": block,
            "skills/maker/examples/templates/api.md": block,
            "Templates/form.md": block,
            # a folder of templates named to sort first, and a template named as one, in
            # capitals; a memory about templates, named as Claude Code names memories, is one
            "skills/_templates/SKILL-TEMPLATE.md": block,
            "notes/HANDOFF_TEMPLATE.md": block,
            "feedback_templates.md": block,
        },
    )
    found = [(c, p) for c, p, _ in codes(findings(tree_dir, "frontmatter")) if c == "invalid-field"]
    assert (
        found == [("invalid-field", "a.md")] * 2 + [("invalid-field", "feedback_templates.md")] * 2
    )


def test_another_agents_skills_are_its_loaders_to_read(tree_dir: Path) -> None:
    # an OpenClaw workspace's skill: `metadata` a flow mapping its loader parses, beside a
    # value strict YAML trips on (held-out judges: false as "read as text"; what strict YAML
    # rejects is still worth a look); broken braces or a stray `---` break it for any
    # reader (judged true); the same block in a memory is read by Claude Code's retry
    block = (
        "---\nname: cutter\ndescription: Cuts clips\nhomepage: `https://fern.example`\n"
        'metadata: {"openclaw": {"emoji": "x"}}\n---\nx\n'
    )
    broken = block.replace('"x"}}', '"x"}')
    stray = "---\nname: cutter\ndescription: Cuts clips\n---\nmetadata: {}\n---\nx\n"
    files = {
        "MEMORY.md": index("a.md"),
        "a.md": block,
        "skills/cutter/SKILL.md": block,
        "skills/broken/SKILL.md": broken,
        "skills/stray/SKILL.md": stray,
    }
    write_tree(tree_dir, {**files, "SOUL.md": "# Soul\n", "AGENTS.md": "# Agents\n"})
    found = {(c, p) for c, p, _ in codes(findings(tree_dir, "frontmatter"))}
    assert {p for c, p in found if c == "invalid-field"} == {"a.md", "skills/broken/SKILL.md"}
    assert ("strict-yaml-only", "skills/cutter/SKILL.md") in found
    assert ("frontmatter-cut-short", "skills/stray/SKILL.md") in found
    # in no agent's workspace, a SKILL.md among memories is read as one
    for name in ("SOUL.md", "AGENTS.md"):
        (tree_dir / name).unlink()
    found = {(c, p) for c, p, _ in codes(findings(tree_dir, "frontmatter"))}
    assert ("invalid-field", "skills/cutter/SKILL.md") in found


def test_a_repository_copys_oversized_file_is_a_suggestion_and_claude_codes_own_a_problem(
    tmp_path: Path, isolated_home: Path
) -> None:
    # a workspace committed with a vendor manual's text dumps beside its notes, read by grep
    # (held-out judges: 0 of 6 worth splitting); in Claude Code's own folder a file past the
    # limit is a memory no session can read whole
    files = {"MEMORY.md": index("a.md"), "a.md": memory("a"), "manual.md": "x" * 1_100_000}
    repo = tmp_path / "repo"
    copy = write_tree(repo / "memory", files)
    location = ProjectLocation("-repo", repo, None)
    levels = {f.code: f.level for f in findings(copy, "frontmatter", location=location)}
    assert levels == {"file-too-large": "suggestion"}
    own = write_tree(isolated_home / ".claude/projects/-work-p/memory", files)
    assert {f.code: f.level for f in findings(own, "frontmatter")} == {"file-too-large": "problem"}


def test_a_block_of_one_line_of_prose_is_a_description_or_no_frontmatter(tree_dir: Path) -> None:
    # round 127 (a tuning half): a commit's message between the `---` lines of a note;
    # turning it into key: value lines says nothing of what it is
    write_tree(tree_dir, {"a.md": "---\nupdate notes with the pricing decision\n---\nBody.\n"})
    [finding] = findings(tree_dir, "frontmatter")
    assert finding.code == "frontmatter-not-mapping"
    assert finding.suggestion is not None
    assert finding.suggestion.startswith("it holds text and no fields")
    # a field written without YAML's space keeps the general advice
    lapse = tree_dir.parent / "lapse"
    write_tree(lapse, {"a.md": "---\nname:odd\n---\nBody.\n"})
    [odd] = findings(lapse, "frontmatter")
    assert odd.suggestion == "rewrite the frontmatter as key: value lines"


def test_a_field_miswritten_with_an_equals_sign_or_a_wide_colon_keeps_the_general_advice(
    tree_dir: Path,
) -> None:
    # the second reader's: `name=odd` and `name：odd` are fields written wrong, no prose
    for n, line in enumerate(("name=odd", "name：odd")):
        tree = tree_dir.parent / f"odd{n}"
        write_tree(tree, {"a.md": f"---\n{line}\n---\nBody.\n"})
        [odd] = findings(tree, "frontmatter")
        assert odd.suggestion == "rewrite the frontmatter as key: value lines"
