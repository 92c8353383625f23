from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.checks.index_drift import Options as IndexDriftOptions
from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, findings, index, memory, report, write_tree
from tests.support.git_repo import Repo


def test_index_drift_clean_tree_has_no_findings(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("a.md", "b.md"), "a.md": memory("a"), "b.md": memory("b")}
    )
    assert findings(tree_dir, "index-drift") == []


def test_index_drift_missing_index_is_the_first_finding_and_others_still_run(
    tree_dir: Path,
) -> None:
    write_tree(tree_dir, {"a.md": memory("a", type="nonsense")})
    found = findings(tree_dir, "index-drift", "frontmatter")
    assert codes(found)[0] == ("missing-index", "MEMORY.md", None)
    assert "MEMORY.md is missing" in found[0].message
    assert ("invalid-type", "a.md", 4) in codes(found)


def test_an_empty_store_needs_no_index_a_store_with_memories_does(tree_dir: Path) -> None:
    # Claude Code writes MEMORY.md with the first memory: nothing to index, nothing missing
    write_tree(tree_dir, {".gitkeep": ""})
    assert findings(tree_dir, "index-drift") == []
    write_tree(tree_dir, {"a.md": memory("a")})
    assert [f.code for f in findings(tree_dir, "index-drift")] == ["missing-index"]


def test_an_index_that_is_a_folder_is_missing_even_in_an_empty_store(tree_dir: Path) -> None:
    (tree_dir / "MEMORY.md").mkdir(parents=True)
    assert [f.code for f in findings(tree_dir, "index-drift")] == ["missing-index"]


def test_index_drift_broken_link_names_line_and_target(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md", "gone.md"), "a.md": memory("a")})
    [finding] = findings(tree_dir, "index-drift")
    assert (finding.code, finding.line) == ("broken-index-link", 3)
    assert "`gone.md`" in finding.message
    assert finding.fix == {"action": "remove-index-line", "line": 3, "target": "gone.md"}


def test_index_drift_moved_file_is_a_stale_path_not_broken_plus_missing(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("testing.md"), "feedback/testing.md": memory("t")})
    [finding] = findings(tree_dir, "index-drift")
    assert finding.code == "stale-index-path"
    assert finding.related == ("feedback/testing.md",)
    assert finding.fix is not None
    assert finding.fix["new"] == "feedback/testing.md"


def test_index_drift_two_candidates_for_a_moved_file_is_broken_not_guessed(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {"MEMORY.md": index("notes.md"), "a/notes.md": memory("x"), "b/notes.md": memory("y")},
    )
    assert sorted(codes(findings(tree_dir, "index-drift", "orphans"))) == [
        ("broken-index-link", "MEMORY.md", 2),
        ("orphan-candidate", "a/notes.md", None),
        ("orphan-candidate", "b/notes.md", None),
    ]


def hub_tree(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("archive.md"),
            "archive.md": memory("archive", body="Dormant notes:\n\n- [[old-idea]]"),
            "user_old_idea.md": memory("old-idea", description="An idea parked in 2025"),
        },
    )


def test_index_drift_file_reached_through_a_hub_needs_no_entry_by_default(tree_dir: Path) -> None:
    hub_tree(tree_dir)
    assert findings(tree_dir, "index-drift", "orphans") == []


def test_index_drift_flat_index_reports_a_hub_reached_file_once_as_judgment(
    tree_dir: Path,
) -> None:
    hub_tree(tree_dir)
    options = {"index-drift": IndexDriftOptions(flat_index=True)}
    [finding] = findings(tree_dir, "index-drift", "orphans", options=options)
    assert (finding.code, finding.path, finding.judgment) == (
        "missing-index-entry",
        "user_old_idea.md",
        True,
    )
    assert finding.fix is not None
    assert finding.fix["text"] == "- [old-idea](user_old_idea.md) — An idea parked in 2025"


def test_index_drift_sessions_and_superseded_files_need_no_entry(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("new.md"),
            "new.md": memory("new", body="", relations="[{type: supersedes, target: older.md}]"),
            "old.md": memory("old", superseded_by="new.md"),
            "older.md": memory("older"),
            "sessions/2026-01-02-x.md": memory("x", type="session-recap"),
        },
    )
    assert findings(tree_dir, "index-drift") == []


def test_index_drift_accepts_real_world_entry_variants(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Memory\n\n## Group\n"
            "- [A](./a.md) - dash separator\n"
            "* [B](b.md): colon separator\n"
            "1. [C](sub/../c.md)\n"
            "- **[D](d.md)** — bold link\n"
            "- [E](e.md#section) — anchor\n"
            "- [[f-note]] — wikilink by name\n",
            "a.md": memory("a"),
            "b.md": memory("b"),
            "c.md": memory("c"),
            "d.md": memory("d"),
            "e.md": memory("e"),
            "f.md": memory("f-note"),
        },
    )
    assert findings(tree_dir, "index-drift") == []


def test_a_wikilink_by_path_resolves_from_the_root_or_the_linking_note(tree_dir: Path) -> None:
    # An Obsidian-style vault names a note by its path, `.md` left out: in the index, in a
    # table's cell, and from a note in a subfolder. A path to no note stays broken.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Memory\n\n| Category | File |\n|---|---|\n"
            "| Decisions | [[categories/decisions]] |\n"
            "- [[runtime/logs/task-log|Task log]] — outcomes\n"
            "- [[categories/missing]] — gone\n",
            "categories/decisions.md": memory("decisions", body="See [[sub/detail]]."),
            "categories/sub/detail.md": memory("detail"),
            "runtime/logs/task-log.md": memory("task log"),
        },
    )
    broken = [f for f in findings(tree_dir, "index-drift") if f.code == "broken-index-link"]
    assert [f.line for f in broken] == [7]
    assert [f.code for f in findings(tree_dir, "relations")] == []


def test_index_drift_home_relative_link_into_the_tree_resolves(
    tree_dir: Path, isolated_home: Path
) -> None:
    root = isolated_home / ".claude/projects/-p/memory"
    write_tree(
        root, {"MEMORY.md": "- [A](~/.claude/projects/-p/memory/a.md) — a\n", "a.md": memory("a")}
    )
    assert findings(root, "index-drift") == []


def test_index_drift_link_out_of_the_tree_is_checked_for_existence_only(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (tmp_path / "outside.md").write_text("exists")
    write_tree(root, {"MEMORY.md": "- [Out](../outside.md) — x\n- [Gone](../gone.md) — y\n"})
    assert codes(findings(root, "index-drift")) == [("broken-index-link", "MEMORY.md", 2)]


def test_index_drift_duplicate_entry_reported_on_the_later_line(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md", "a.md"), "a.md": memory("a")})
    assert codes(findings(tree_dir, "index-drift")) == [("duplicate-index-entry", "MEMORY.md", 3)]


def test_index_drift_links_inside_code_blocks_and_urls_are_not_entries(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "- [A](a.md) — a\n```\n- [X](missing.md) — in code\n```\n"
            "- [Docs](https://example.org/x.md) — external\n",
            "a.md": memory("a"),
        },
    )
    assert findings(tree_dir, "index-drift") == []


# A sentence that mentions a file is prose, not an entry (look-alikes of real indexes).
PROSE_AND_POINTER = (
    "# Index\n"
    "The importer lives in one module. See [importer-notes.md](importer-notes.md).\n"
    "\n"
    "- [Importer notes](importer-notes.md) — how the nightly import batches rows\n"
)


def test_index_drift_prose_mentioning_an_indexed_file_is_no_duplicate(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {"MEMORY.md": PROSE_AND_POINTER, "importer-notes.md": memory("importer-notes")},
    )
    assert findings(tree_dir, "index-drift", "bloat", "descriptions", "superseded") == []


def test_index_drift_a_wrapped_sentence_starting_a_line_with_a_link_is_prose(
    tree_dir: Path,
) -> None:
    text = (
        "# Index\n"
        "- [Deploy](deploy.md) — release steps and the rollback switch\n"
        "\n"
        "The release process is described in\n"
        "[deploy.md](deploy.md) and must be followed to the letter.\n"
    )
    write_tree(tree_dir, {"MEMORY.md": text, "deploy.md": memory("deploy")})
    assert findings(tree_dir, "index-drift") == []


def test_index_drift_duplicate_pointers_keep_the_one_that_names_the_file(tree_dir: Path) -> None:
    text = (
        "# Index\n"
        "- [misc](cache-rules.md)\n"
        "- [Cache rules](cache-rules.md) — when the edge cache is purged\n"
    )
    write_tree(tree_dir, {"MEMORY.md": text, "cache-rules.md": memory("cache-rules")})
    [finding] = findings(tree_dir, "index-drift")
    assert (finding.code, finding.line) == ("duplicate-index-entry", 2)
    assert "line 3" in finding.message
    assert finding.fix == {"action": "remove-index-line", "line": 2, "target": "cache-rules.md"}


def test_index_drift_equal_duplicate_pointers_keep_the_first(tree_dir: Path) -> None:
    text = "# Index\n- [Cache](cache.md) — purge rules\n- [Cache](cache.md) — purge rules\n"
    write_tree(tree_dir, {"MEMORY.md": text, "cache.md": memory("cache")})
    [finding] = findings(tree_dir, "index-drift")
    assert (finding.code, finding.line) == ("duplicate-index-entry", 3)


def test_a_duplicate_pointer_that_says_more_is_merged_not_removed(tree_dir: Path) -> None:
    # The later line carries the newer result: deleting it would lose it.
    text = (
        "# Index\n- [Horizon experiment](horizon.md) — next step: align the horizons\n"
        "- [Horizon experiment](horizon.md) — aligned horizons beat baseline by 4 points\n"
    )
    write_tree(tree_dir, {"MEMORY.md": text, "horizon.md": memory("horizon")})
    [finding] = findings(tree_dir, "index-drift")
    assert (finding.code, finding.line) == ("duplicate-index-entry", 3)
    assert finding.suggestion == "merge what this line adds into line 2, then remove it"
    assert finding.fix is None


def test_index_drift_broken_link_in_prose_offers_no_line_removal(tree_dir: Path) -> None:
    text = "# Index\nOlder notes were folded in. See [old-notes.md](old-notes.md) for history.\n"
    write_tree(tree_dir, {"MEMORY.md": text})
    [finding] = findings(tree_dir, "index-drift")
    assert (finding.code, finding.line) == ("broken-index-link", 2)
    assert finding.fix is None  # the link is wrong; the sentence is not
    assert "sentence" in (finding.suggestion or "")


def test_index_drift_no_removal_fix_ever_targets_a_prose_line(tree_dir: Path) -> None:
    """A fix that deletes a line must be proven by that line: only pointer lines go."""
    text = (
        "# Index\n"
        "See [a.md](a.md) and [gone.md](gone.md) before touching the importer.\n"
        "- [A](a.md) — importer notes\n"
        "- [A again](a.md)\n"
        "Superseded work is in [old.md](old.md).\n"
    )
    files = {
        "MEMORY.md": text,
        "a.md": memory("a"),
        "old.md": memory("old", superseded_by="a.md"),
    }
    write_tree(tree_dir, files)
    removed = {
        f.fix["line"]
        for f in findings(tree_dir, "index-drift", "superseded", "orphans")
        if f.fix is not None and f.fix.get("action") == "remove-index-line"
    }
    assert removed == {4}


def test_index_drift_an_index_wikilink_to_a_note_above_the_tree_is_not_broken(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "vault"
    write_tree(vault, {"CLAUDE.md": "# Rules\n", "vault-map.md": "# Map\n"})
    tree = vault / "memory"
    text = "# Index\n- [[CLAUDE]] — the rules\n- [[vault-map]] — the map\n- [[gone-note]] — x\n"
    write_tree(tree, {"MEMORY.md": text})
    assert codes(findings(tree, "index-drift")) == [("broken-index-link", "MEMORY.md", 4)]


@pytest.mark.parametrize("unit", ["`a", "a\\"])
def test_a_link_title_of_many_code_spans_or_escapes_is_not_read(tree_dir: Path, unit: str) -> None:
    """markdown-it spends 4-10 µs on each backtick or backslash of a link label: 150,000 of
    them are past the index's parse budget, and the entries around them are still read
    (issue 30)."""
    text = f"- [A](a.md) — a\n- [{unit * 150_000}](b.md) — b\n- [Gone](gone.md) — g\n"
    write_tree(tree_dir, {"MEMORY.md": text, "a.md": memory("a"), "b.md": memory("b")})
    found = codes(findings(tree_dir, "index-drift"))
    assert ("index-not-read", "MEMORY.md", 2) in found
    assert ("broken-index-link", "MEMORY.md", 3) in found


def test_index_links_to_files_the_repository_ignores_are_kept_out_on_purpose(
    tmp_path: Path,
) -> None:
    # A memory folder committed with its private notes in .gitignore: this copy lacks them,
    # the owner's folder has them. A link to a file nobody ignores is still broken.
    repo = Repo(tmp_path / "project")
    repo.commit(
        "memory",
        {
            ".gitignore": "memory/private_*.md\n",
            "memory/MEMORY.md": "# Index\n- [A](a.md) — a\n- [Private](private_hosts.md) — hosts\n"
            "- [Gone](gone.md) — gone\n",
            "memory/a.md": memory("a"),
        },
    )
    result = report(repo.path / "memory", "index-drift")
    assert codes(list(result.findings)) == [("broken-index-link", "MEMORY.md", 4)]
    assert (
        "1 index link(s) to files the repository ignores (kept out of git on purpose, so absent"
        " from this copy): not reported"
    ) in [s.reason for s in result.skipped]


def test_index_links_to_template_placeholders_are_not_broken(tree_dir: Path) -> None:
    text = (
        "# Index\n- [Module](${MODULE}_notes.md) — per module\n- [Topic](notes_<topic>.md) — x\n"
        "- [Part]({part}_project.md) — y\n- [Gone](gone_{.md) — z\n"
        # a hook describing a format, its link an example: `[links](url)`
        "- [Digest format](digest.md) — emoji headers, **bold**, [links](url), no rules\n"
        # a starter template's blanks in square brackets, and a real name with brackets' ends
        "- [You](people/[your-name].md) — who you are\n- [Odd](odd]name[.md) — w\n"
    )
    write_tree(tree_dir, {"MEMORY.md": text, "digest.md": memory("digest")})
    result = report(tree_dir, "index-drift")
    assert codes(list(result.findings)) == [
        ("broken-index-link", "MEMORY.md", 5),
        ("broken-index-link", "MEMORY.md", 8),
    ]
    assert "5 index link(s) to a template placeholder: not links" in [
        s.reason for s in result.skipped
    ]


def test_a_copied_tree_s_links_out_of_its_repository_are_not_checked_here(
    tmp_path: Path, isolated_home: Path
) -> None:
    # A repository keeps a copy of ~/.claude (agents/, memory/); its index links agents as
    # they sit once installed, three folders up from ~/.claude/projects/<slug>/memory/.
    repo = Repo(tmp_path / "project")
    repo.commit(
        "config copy",
        {
            "claude-config/agents/helper.md": "---\nname: helper\n---\nHelps.\n",
            "claude-config/memory/MEMORY.md": "# Index\n"
            "- [Helper](../../../.claude/agents/helper.md) — the helper agent\n"
            "- [Gone](../gone.md) — inside the repository, and missing\n"
            "- [Lost](../../.claude/agents/lost.md) — a .claude folder the copy lacks\n"
            "- [Elsewhere](../../../../elsewhere.md) — out of the repository\n",
        },
    )
    result = report(repo.path / "claude-config/memory", "index-drift")
    assert codes(list(result.findings)) == [("broken-index-link", "MEMORY.md", 3)]
    assert any(
        s.reason.startswith("3 index link(s) out of the repository (or into a .claude folder")
        for s in result.skipped
    )
    # Claude Code's own tree is where such links resolve: there they are broken.
    root = isolated_home / ".claude/projects/-p/memory"
    text = "# Index\n- [Helper](../../../agents/helper.md) — x\n- [Out](../../../../a/b.md) — y\n"
    write_tree(root, {"MEMORY.md": text})
    assert codes(findings(root, "index-drift")) == [
        ("broken-index-link", "MEMORY.md", 2),
        ("broken-index-link", "MEMORY.md", 3),
    ]


def test_a_note_moved_to_another_memory_folder_of_the_repository_is_a_stale_path(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "project")
    repo.commit(
        "notes per client",
        {
            "memory/MEMORY.md": "# Index\n- [Shop](project_shop.md) — the shop client\n"
            "- [Twice](twice.md) — two files of this name\n- [Gone](gone.md) — none\n",
            "clients/shop.example/memory/project_shop.md": memory("shop"),
            "clients/a/memory/twice.md": memory("a"),
            "clients/b/memory/twice.md": memory("b"),
        },
    )
    found = findings(repo.path / "memory", "index-drift")
    assert codes(found) == [
        ("stale-index-path", "MEMORY.md", 2),
        ("broken-index-link", "MEMORY.md", 3),
        ("broken-index-link", "MEMORY.md", 4),
    ]
    new = "../clients/shop.example/memory/project_shop.md"
    assert found[0].fix == {
        "action": "update-index-path",
        "line": 2,
        "old": "project_shop.md",
        "new": new,
    }
    assert new in found[0].message


def test_a_copy_s_index_link_to_a_note_no_commit_ever_held_is_a_suggestion(
    tmp_path: Path,
) -> None:
    # The index came from the owner's memory folder; only some notes were committed. The
    # copy cannot tell the note is gone there: no line removal is offered. A note the
    # history held and deleted is broken for sure.
    repo = Repo(tmp_path / "project")
    repo.commit(
        "memory",
        {
            "memory/MEMORY.md": "# Index\n- [A](a.md) — a\n- [Later](later.md) — later\n"
            "- [Gone](gone.md) — gone\n",
            "memory/a.md": memory("a"),
            "memory/gone.md": memory("gone"),
        },
    )
    repo.remove("drop gone", "memory/gone.md")
    # Audited alone, nothing says the folder is its project's copy: both links are broken.
    alone = findings(repo.path / "memory", "index-drift")
    assert [(f.line, f.level) for f in alone] == [(3, "problem"), (4, "problem")]
    project = ProjectLocation("-project", repo.path, None)
    found = findings(repo.path / "memory", "index-drift", location=project)
    assert [(f.code, f.line, f.level) for f in found] == [
        ("broken-index-link", 3, "suggestion"),
        ("broken-index-link", 4, "problem"),
    ]
    assert found[0].message == (
        "link target `later.md` is not in this copy, and no commit of the repository ever held it"
    )
    assert found[0].fix is None
    assert found[1].fix is not None


def test_a_copy_s_index_link_out_of_the_tree_to_a_file_no_commit_ever_held_is_a_suggestion(
    tmp_path: Path,
) -> None:
    # The index links a document of the repository beside the memory folder; the owner
    # never committed it (a local draft): the copy cannot tell it is gone, as for a note.
    # A document the history held and deleted is broken for sure.
    repo = Repo(tmp_path / "project")
    repo.commit(
        "memory",
        {
            ".claude/memory/MEMORY.md": "# Index\n- [A](a.md) — a\n"
            "- [Plan](../../docs/Plan.md) — the rollout plan\n"
            "- [Old](../../docs/Old.md) — the old plan\n",
            ".claude/memory/a.md": memory("a"),
            "docs/Old.md": "old\n",
        },
    )
    repo.remove("drop the old plan", "docs/Old.md")
    project = ProjectLocation("-project", repo.path, None)
    found = findings(repo.path / ".claude" / "memory", "index-drift", location=project)
    assert [(f.code, f.line, f.level) for f in found] == [
        ("broken-index-link", 3, "suggestion"),
        ("broken-index-link", 4, "problem"),
    ]
    assert found[0].message == (
        "link target `../../docs/Plan.md` is not in this repository, and no commit of the"
        " repository ever held it"
    )
    assert found[0].suggestion == (
        "if the folder this copy comes from has the file, commit it; if not, remove the entry"
    )
    assert found[0].fix is None
    assert found[1].fix == {
        "action": "remove-index-line",
        "line": 4,
        "target": "../../docs/Old.md",
    }


def copy_repo(path: Path, gone: str) -> Repo:
    """A project that committed its memory folder, then deleted the note ``gone``."""
    repo = Repo(path)
    index_text = f"# Index\n- [A](a.md) — a\n- [Gone]({gone}) — gone\n"
    notes = {"memory/a.md": memory("a"), f"memory/{gone}": memory("gone")}
    repo.commit("memory", {"memory/MEMORY.md": index_text, **notes})
    repo.remove("drop it", f"memory/{gone}")
    return repo


def test_a_copy_s_link_to_a_deleted_note_whose_name_is_not_ascii_stays_broken(
    tmp_path: Path,
) -> None:
    # git quotes such a name in its plain listing ("caf\303\251.md"): read as never committed.
    repo = copy_repo(tmp_path / "project", "café.md")
    project = ProjectLocation("-project", repo.path, None)
    found = findings(repo.path / "memory", "index-drift", location=project)
    assert [(f.code, f.line, f.level) for f in found] == [("broken-index-link", 3, "problem")]
    assert found[0].fix is not None


def test_a_shallow_copy_s_link_to_a_note_missing_from_its_history_stays_broken(
    tmp_path: Path,
) -> None:
    # The clone's one commit comes after the deletion: the note was committed, out of sight.
    repo = copy_repo(tmp_path / "project", "gone.md")
    repo.commit("later", {"README.md": "r\n"})
    clone = tmp_path / "clone"
    repo.git("clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone))
    project = ProjectLocation("-clone", clone, None)
    found = findings(clone / "memory", "index-drift", location=project)
    assert [(f.code, f.line, f.level) for f in found] == [("broken-index-link", 3, "problem")]
    assert found[0].fix is not None


def test_an_index_link_written_from_the_project_s_folder_is_not_broken(tmp_path: Path) -> None:
    # memory/MEMORY.md names an agent's notes as Claude Code, running in the project's
    # folder, reads them: `.claude/agents-memory/...` from there, not from memory/.
    project = tmp_path / "project"
    write_tree(
        project,
        {
            "memory/MEMORY.md": "# Index\n- [Flow](.claude/agents-memory/payments/flow.md) — x\n"
            "- [Gone](.claude/agents-memory/payments/gone.md) — y\n",
            ".claude/agents-memory/payments/flow.md": memory("flow"),
        },
    )
    location = ProjectLocation("-project", project, None)
    found = findings(project / "memory", "index-drift", location=location)
    assert [(f.code, f.line) for f in found] == [("broken-index-link", 3)]


def test_an_index_link_into_the_tree_written_from_the_project_s_root(tmp_path: Path) -> None:
    # `.claude/memory/global.md`, as the project's CLAUDE.md names its memory: the file is
    # here, nothing moved. Without that convention in CLAUDE.md the same link is judged from
    # the folder (stale: the fix writes it from there).
    project = tmp_path / "project"
    text = (
        "# Index\n- [global.md](.claude/memory/global.md) — conventions\n"
        "- [agents/tester.md](.claude/memory/agents/tester.md) — the tester's notes\n"
    )
    files = {"MEMORY.md": text, "global.md": memory("global"), "agents/tester.md": memory("t")}
    files |= {"services/tester.md": memory("other tester")}
    tree = write_tree(project / ".claude" / "memory", files)
    location = ProjectLocation("-project", project, None)
    write_tree(project, {"CLAUDE.md": "| `.claude/memory/MEMORY.md` | Index: start here |\n"})
    assert findings(tree, "index-drift", location=location) == []
    (project / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    found = findings(tree, "index-drift", location=location)
    assert [(f.code, f.line) for f in found] == [
        ("stale-index-path", 2),
        ("stale-index-path", 3),
    ]


def test_a_copy_s_index_link_to_a_note_found_elsewhere_is_a_suggestion(tmp_path: Path) -> None:
    # A project commits the index of its live memory folder, and the notes under another
    # folder of the copy: the index names the live folder's layout, not a move.
    repo = Repo(tmp_path / "project")
    repo.commit(
        "memory",
        {
            "memory/MEMORY.md": "# Index\n- [Testing](testing.md) — how we test\n",
            "memory/feedback/testing.md": memory("testing"),
        },
    )
    alone = findings(repo.path / "memory", "index-drift")
    assert [(f.code, f.level) for f in alone] == [("stale-index-path", "problem")]
    project = ProjectLocation("-project", repo.path, None)
    found = findings(repo.path / "memory", "index-drift", location=project)
    assert [(f.code, f.level) for f in found] == [("stale-index-path", "suggestion")]


def test_a_broken_link_in_an_entry_s_hook_never_removes_the_entry(tree_dir: Path) -> None:
    # "- [Model default](model.md) — ... → [[context-fix]]": the entry's own pointer is
    # fine; only the link in its hook is broken. Removing the line would lose the entry.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [Model default](model.md) — fallback noted"
            " → [[context-fix]]\n",
            "model.md": memory("model"),
        },
    )
    [finding] = findings(tree_dir, "index-drift")
    assert (finding.code, finding.line) == ("broken-index-link", 2)
    assert finding.fix is None
    assert "keep the text" in (finding.suggestion or "")


def test_an_index_link_with_an_encoded_nul_is_broken_not_a_failed_check(tmp_path: Path) -> None:
    # `%00` decodes to a NUL, which no file name holds: os calls answer ValueError, not
    # OSError, and the link is simply broken, read from the tree or the project's folder
    project = tmp_path / "project"
    write_tree(project, {"memory/MEMORY.md": "# Index\n- [Notes](notes%00x.md) — x\n"})
    location = ProjectLocation("-project", project, None)
    found = findings(project / "memory", "index-drift", location=location)
    assert [(f.code, f.line) for f in found] == [("broken-index-link", 2)]


def test_an_encrypted_index_is_a_suggestion_to_unlock_not_to_restore(tree_dir: Path) -> None:
    # a git-crypt repository not unlocked here: its memory is ciphertext on purpose
    ciphertext = b"\x00GITCRYPT\x00" + bytes(range(256))
    write_tree(tree_dir, {"MEMORY.md": ciphertext, "a.md": ciphertext})
    [missing] = [f for f in findings(tree_dir, "index-drift") if f.code == "missing-index"]
    assert missing.level == "suggestion"
    assert (
        missing.message == "MEMORY.md is encrypted (encrypted: git-crypt) — index cannot be checked"
    )
    assert missing.suggestion == "unlock the repository (`git-crypt unlock`) and audit again"


def test_an_obsidian_vault_s_notes_are_what_the_index_s_wikilinks_name(tmp_path: Path) -> None:
    # "- [[Jim Slogar]] — ..." names the note people/Jim Slogar.md of the repository, found
    # by its name wherever it is: in a vault, and in a repository whose vault settings are
    # kept out of git (`.obsidian/` is most often ignored). A note of that name the history
    # held and deleted leaves the entry broken.
    files = {
        "people/Jim Slogar.md": "# Jim\n",
        ".claude/agent-memory/ads/MEMORY.md": "# Ads\n- [[Jim Slogar]] — runs the accounts\n",
    }
    for vault in (True, False):
        repo = Repo(tmp_path / f"vault-{vault}")
        repo.commit("notes", {**files, **({".obsidian/app.json": "{}\n"} if vault else {})})
        store = repo.path / ".claude/agent-memory/ads"
        location = ProjectLocation("-v", repo.path, None)
        assert findings(store, "index-drift", location=location) == []
        repo.remove("drop Jim", "people/Jim Slogar.md")
        found = findings(store, "index-drift", location=location)
        assert [(f.code, f.level) for f in found] == [("broken-index-link", "problem")]


def test_a_wikilink_in_a_hook_that_names_no_memory_is_a_suggestion(tree_dir: Path) -> None:
    # Cargo's [[bin]] tables named in a hook are no links; a hook's wikilink that cuts a
    # memory's name short is still a broken link worth fixing
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [Manifest](manifest.md) — [[bench]]/[[bin]] entries move"
            " with their files\n- [Model default](model_default.md) — see [[model_defa]]\n",
            "manifest.md": memory("manifest"),
            "model_default.md": memory("model_default"),
        },
    )
    found = sorted(
        (f.line, f.message.split("]]")[0], f.level) for f in findings(tree_dir, "index-drift")
    )
    assert found == [
        (2, "[[bench", "suggestion"),
        (2, "[[bin", "suggestion"),
        (3, "link target [[model_defa", "problem"),
    ]


def test_a_path_out_of_claude_codes_folder_to_no_file_is_corrected_not_removed(
    isolated_home: Path,
) -> None:
    # Entries written from the project's folder, one `../` too few, or with a hidden
    # folder's dot dropped: the documents are in place, the paths reach nothing. The path
    # is wrong, not the entry: no fix deletes it. A missing note of the tree is gone.
    tree = write_tree(
        isolated_home / ".claude/projects/-home-ann--tools-work-shop/memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — a\n"
            "- [Spec](../../../work/shop/specs/spec.md) — the launch spec\n"
            "- [Plan](../../tools/work/shop/plan.md) — the rollout plan\n"
            "- [Gone](gone.md) — a note since deleted\n",
            "a.md": memory("a"),
        },
    )
    found = findings(tree, "index-drift")
    assert [(f.code, f.line, f.level) for f in found] == [
        ("broken-index-link", 3, "problem"),
        ("broken-index-link", 4, "problem"),
        ("broken-index-link", 5, "problem"),
    ]
    assert [f.fix for f in found[:2]] == [None, None]
    assert found[0].suggestion == (
        "correct the path (no folder on it exists; a relative path is read from MEMORY.md's"
        " folder), or remove the entry if the document is gone"
    )
    assert found[2].fix == {"action": "remove-index-line", "line": 5, "target": "gone.md"}


def test_a_document_gone_from_a_folder_that_is_there_or_a_wikilinked_note_can_go(
    isolated_home: Path,
) -> None:
    # The skill's folder is there without its file, and the wikilink names a note of the
    # tree: the path is right, the document is gone, so the entry can go.
    (isolated_home / ".claude/skills/deploy").mkdir(parents=True)
    tree = write_tree(
        isolated_home / ".claude/projects/-home-ann-shop/memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — a\n"
            "- [Deploy](../../../skills/deploy/SKILL.md) — the deploy skill\n"
            "- [[deploy-checklist]] — the steps before a release\n",
            "a.md": memory("a"),
        },
    )
    found = findings(tree, "index-drift")
    assert [(f.code, f.line, (f.fix or {}).get("action")) for f in found] == [
        ("broken-index-link", 3, "remove-index-line"),
        ("broken-index-link", 4, "remove-index-line"),
    ]


def test_a_note_another_projects_memory_holds_is_copied_not_removed(isolated_home: Path) -> None:
    # The home folder's index got lines copied from the ~/.claude project's index; the
    # notes are there, not here: no fix deletes the pointers.
    projects = isolated_home / ".claude/projects"
    write_tree(
        projects / "-home-ann--claude/memory",
        {"MEMORY.md": "- [Profile](user_profile.md) — who I am\n", "user_profile.md": memory("p")},
    )
    tree = write_tree(
        projects / "-home-ann/memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — a\n- [Profile](user_profile.md) — who I am\n"
            "- [Gone](gone.md) — deleted\n",
            "a.md": memory("a"),
        },
    )
    found = findings(tree, "index-drift")
    assert [(f.code, f.line, f.fix is None) for f in found] == [
        ("broken-index-link", 3, True),
        ("broken-index-link", 4, False),
    ]
    assert found[0].message == (
        "link target `user_profile.md` doesn't exist here; the memory of project"
        " `-home-ann--claude` has it (lines copied from that project's index?)"
    )


def test_an_index_alone_in_its_folder_is_one_finding_that_removes_nothing(
    tree_dir: Path,
) -> None:
    # A scaffolded index (or a backup that kept only MEMORY.md): every hook is the only
    # record of its fact, so removing the entries one by one would empty the index.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n\n## Profile\n- [user_profile.md](user_profile.md) - 18,"
            " studies in Leeds, aims for a Kyoto university\n\n## Goals\n"
            "- [goals.md](goals.md) - enrol April 2027\n",
        },
    )
    [finding] = findings(tree_dir, "index-drift")
    assert (finding.code, finding.level, finding.line) == ("broken-index-link", "problem", 4)
    assert "none of its 2 notes" in finding.message
    assert "`user_profile.md`, `goals.md`" in finding.message
    assert finding.fix is None
    assert "write the notes" in (finding.suggestion or "")


def test_an_index_with_one_note_left_keeps_a_removal_fix_per_missing_entry(
    tree_dir: Path,
) -> None:
    write_tree(
        tree_dir,
        {"MEMORY.md": index("a.md", "gone.md", "lost.md"), "a.md": memory("a")},
    )
    found = findings(tree_dir, "index-drift")
    assert [(f.code, f.line) for f in found] == [
        ("broken-index-link", 3),
        ("broken-index-link", 4),
    ]
    assert all(f.fix is not None and f.fix["action"] == "remove-index-line" for f in found)


def test_an_index_link_into_claude_code_s_own_folder_is_not_broken(
    tmp_path: Path, isolated_home: Path
) -> None:
    # `.claude/skills/slay/SKILL.md`, written from a project that is the home folder (or
    # naming a user-level skill): Claude Code's folder holds it, the project does not.
    write_tree(isolated_home / ".claude", {"skills/slay/SKILL.md": "# slay\n"})
    project = tmp_path / "project"
    text = (
        "# Index\n- [Slay](.claude/skills/slay/SKILL.md) — the cleanup skill\n"
        "- [Old](.claude/skills/gone/SKILL.md) — removed\n"
    )
    write_tree(project, {"memory/MEMORY.md": text})
    location = ProjectLocation("-project", project, None)
    found = findings(project / "memory", "index-drift", location=location)
    assert [(f.code, f.line) for f in found] == [("broken-index-link", 3)]


def test_a_missing_notes_entry_that_says_something_is_reported_and_never_removed(
    tree_dir: Path,
) -> None:
    # A note never written (or lost by a copy): the entry's hook is the only record of the
    # rule, so deleting the line would lose it. An entry that only names its note, or that
    # records the note removed, keeps its removal fix.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [A](a.md) — notes about a\n"
            "- [GPU idle](feedback_gpu_idle.md) — never leave a training job idling the GPU\n"
            "- [Old plan](old_plan.md) — notes about the old plan\n"
            "- [Deploy v1](deploy_v1.md) — manual deploy; superseded by the CI pipeline\n"
            "- [API](api.md) — deprecated endpoints to avoid: v1 and v2\n",
            "a.md": memory("a"),
        },
    )
    found = findings(tree_dir, "index-drift")
    assert [(f.code, f.line, f.level, (f.fix or {}).get("action")) for f in found] == [
        ("broken-index-link", 3, "problem", None),
        ("broken-index-link", 4, "problem", "remove-index-line"),
        ("broken-index-link", 5, "problem", "remove-index-line"),
        ("broken-index-link", 6, "problem", None),  # a fact about deprecated endpoints
    ]
    assert found[0].suggestion == (
        "if the note was deleted on purpose, remove the entry; if not, restore it or write"
        " it from the entry's hook, the only record of it left here"
    )


def test_a_copy_whose_history_deleted_the_note_keeps_the_removal_fix(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "project")
    repo.commit(
        "memory",
        {
            ".claude/memory/MEMORY.md": "# Index\n- [A](a.md) — a\n"
            "- [GPU idle](gpu.md) — never leave a training job idling the GPU\n",
            ".claude/memory/a.md": memory("a"),
            ".claude/memory/gpu.md": memory("gpu"),
        },
    )
    repo.remove("drop the GPU note", ".claude/memory/gpu.md")
    project = ProjectLocation("-project", repo.path, None)
    [found] = findings(repo.path / ".claude" / "memory", "index-drift", location=project)
    assert (found.code, found.line) == ("broken-index-link", 3)
    assert found.fix == {"action": "remove-index-line", "line": 3, "target": "gpu.md"}


def test_a_note_renamed_with_its_name_kept_is_a_stale_path_to_its_new_file(
    tree_dir: Path,
) -> None:
    # implementation-plan.md became implementation-phases.md; its `name:` still says
    # implementation-plan: the entry points at it again instead of going.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [Plan](implementation-plan.md) — the six phases, in order\n",
            "implementation-phases.md": memory("implementation-plan"),
        },
    )
    [found] = findings(tree_dir, "index-drift")
    assert found.code == "stale-index-path"
    assert found.fix == {
        "action": "update-index-path",
        "line": 2,
        "old": "implementation-plan.md",
        "new": "implementation-phases.md",
    }


def test_an_entry_whose_file_name_differs_only_in_separators_points_at_the_note(
    tree_dir: Path,
) -> None:
    # The entry says project_game-mvp.md, the note is project_game_mvp.md and nothing else
    # links it: one note by another spelling, not a note gone.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [project_game-mvp.md](project_game-mvp.md) — GDD v3, six systems\n",
            "project_game_mvp.md": memory("game design"),
        },
    )
    [found] = findings(tree_dir, "index-drift")
    assert found.code == "stale-index-path"
    assert found.fix == {
        "action": "update-index-path",
        "line": 2,
        "old": "project_game-mvp.md",
        "new": "project_game_mvp.md",
    }
    assert findings(tree_dir, "orphans") == []  # the entry reaches it: one cause, one finding


def test_a_renamed_note_indexed_already_or_two_candidates_are_not_guessed(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [Plan](plan.md) — the six phases, in order\n"
            "- [Phases](phases.md) — the six phases\n",
            "phases.md": memory("plan"),  # indexed on its own line: the dead one is a leftover
        },
    )
    [found] = findings(tree_dir, "index-drift")
    assert (found.code, found.line) == ("broken-index-link", 2)
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [Plan](plan.md) — the six phases, in order\n",
            "phases.md": memory("plan"),
            "phases-v2.md": memory("plan"),
        },
    )
    assert [f.code for f in findings(tree_dir, "index-drift")] == ["broken-index-link"]


def test_one_word_of_its_own_beyond_the_title_is_a_fact_the_entry_keeps(tree_dir: Path) -> None:
    # "Broddie" is the whole fact: the rest of the hook repeats the title.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [A](a.md) — notes about a\n"
            "- [Shop super admin](shop_super_admin.md) — Broddie is the shop's super admin\n",
            "a.md": memory("a"),
        },
    )
    [found] = findings(tree_dir, "index-drift")
    assert (found.code, found.line, found.fix) == ("broken-index-link", 3, None)


def test_a_link_up_into_claude_code_s_project_folder_is_a_path_to_correct(
    isolated_home: Path,
) -> None:
    # `../README.md` from ~/.claude/projects/<slug>/memory lands beside the transcripts,
    # where nobody keeps documents: written as if the memory folder sat in the project.
    tree = write_tree(
        isolated_home / ".claude/projects/-home-ann-shop/memory",
        {"MEMORY.md": "# Index\n## Related\n- [README](../README.md)\n- [A](a.md) — a\n"},
    )
    write_tree(tree, {"a.md": memory("a")})
    away = ProjectLocation("-home-ann-shop", None, tree.parent)
    [found] = findings(tree, "index-drift", location=away)
    assert (found.code, found.level, found.fix) == ("broken-index-link", "problem", None)
    assert "Claude Code's own folder for this project" in (found.suggestion or "")
    # the project is here and holds it: the link works where it was written
    project = write_tree(isolated_home / "shop", {"README.md": "# Shop\n"})
    here = ProjectLocation("-home-ann-shop", project, tree.parent)
    assert findings(tree, "index-drift", location=here) == []


def test_a_link_up_to_the_home_folder_s_claude_resolves_in_claude_code_s_folder(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Claude Code's folder is a synced copy named `claude-config`: the link climbs to the
    # home folder and comes down through `.claude/`, which means that folder.
    config = isolated_home / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    write_tree(config, {"rules/never-do.md": "# Never\n"})
    tree = write_tree(
        config / "projects/-home-ann/memory",
        {
            "MEMORY.md": "# Index\n- [Never](../../../../.claude/rules/never-do.md) — AUTONOMY\n"
            "- [Gone](../../../../.claude/rules/gone.md) — old rules, removed\n",
        },
    )
    found = findings(tree, "index-drift", location=ProjectLocation("-home-ann", None, tree.parent))
    assert [(f.code, f.line) for f in found] == [("broken-index-link", 3)]


def test_a_missing_note_of_a_tree_under_a_claude_folder_is_not_looked_for_at_home(
    tmp_path: Path, isolated_home: Path
) -> None:
    # The tree is <repo>/.claude/memory: its own missing note is missing, whatever the
    # user's ~/.claude/memory holds under the same name.
    write_tree(isolated_home / ".claude", {"memory/gone.md": memory("gone")})
    tree = write_tree(
        tmp_path / "repo/.claude/memory", {"MEMORY.md": "# Index\n- [Gone](gone.md) — gone\n"}
    )
    assert [f.code for f in findings(tree, "index-drift")] == ["broken-index-link"]


def test_links_into_one_missing_folder_out_of_the_tree_are_one_finding(
    isolated_home: Path,
) -> None:
    # Plans Claude Code keeps in ~/.claude/plans/, linked from the index; the folder is not
    # there at all (moved, or not installed here): one cause, one finding, no fix.
    tree = write_tree(
        isolated_home / ".claude/projects/-home-ann-shop/memory",
        {
            "MEMORY.md": "# Index\n- [A](a.md) — a\n"
            "- [Roadmap](../../../plans/roadmap.md) — the plan for May\n"
            "- [Audit](../../../plans/2026-04-28-audit.md) — the audit plan\n"
            "- [Launch](../../../plans/launch.md) — launch steps\n"
            "- [Prompt](../../../prompts/one.md) — the one prompt kept\n",
            "a.md": memory("a"),
        },
    )
    found = findings(tree, "index-drift")
    assert [(f.code, f.line, f.fix) for f in found] == [
        ("broken-index-link", 3, None),
        ("broken-index-link", 6, None),
    ]
    assert found[0].message == (
        "3 index links lead into `../../../plans/`, a folder outside the tree that does not"
        " exist: `roadmap.md`, `2026-04-28-audit.md`, `launch.md` (lines 3, 4, 5)"
    )
    assert found[0].related == (
        "../../../plans/roadmap.md",
        "../../../plans/2026-04-28-audit.md",
        "../../../plans/launch.md",
    )


def test_an_index_named_memory_md_in_lower_case_is_never_overwritten(tree_dir: Path) -> None:
    # `memory.md` is the folder's index under another case: on a disk that ignores case a
    # new MEMORY.md would be that file. The advice is a rename, with no fix that writes one,
    # and the index is no memory owing frontmatter.
    write_tree(tree_dir, {"memory.md": "- [A](a.md) — about a\n", "a.md": memory("a")})
    found = report(tree_dir).findings
    [missing] = [f for f in found if f.code == "missing-index"]
    assert (missing.level, missing.fix) == ("suggestion", None)
    assert "rename `memory.md` to MEMORY.md" in (missing.suggestion or "")
    assert not [f for f in found if f.path == "memory.md"]
    # without it, the index is offered as a new file
    (tree_dir / "memory.md").unlink()
    [missing] = [f for f in report(tree_dir).findings if f.code == "missing-index"]
    assert missing.fix is not None
    assert missing.fix["action"] == "create-index"


def test_a_memory_named_memory_md_beside_the_index_is_a_memory(tree_dir: Path) -> None:
    # beside a MEMORY.md (on Linux a file of its own) memory.md is a memory like any other
    text = memory("memory", type="wrongtype", body="See [gone](gone.md).")
    write_tree(tree_dir, {"MEMORY.md": index("memory.md"), "memory.md": text})
    found = {(f.code, f.path) for f in report(tree_dir).findings}
    assert ("invalid-type", "memory.md") in found
    assert ("broken-link", "memory.md") in found


def test_a_copy_s_wikilink_entries_no_commit_ever_wrote_are_one_suggestion(
    tmp_path: Path,
) -> None:
    # A vault's hub index: `- [[origin]] - Origin` names concepts of a graph, no note ever
    # written for them; removing the entries would break the graph. The copy's history
    # never held a note of those names (in any folder, as a vault finds one): one
    # suggestion listing them, no fix. A wikilinked note the history held and deleted is
    # broken for sure, and its entry can go.
    concepts = ["origin", "education", "laptop", "part-time-work"]
    lines = "".join(f"- [[{name}]] - about {name}\n" for name in concepts)
    repo = Repo(tmp_path / "project")
    repo.commit(
        "memory",
        {
            "memory/MEMORY.md": "# Hub\n- [[story]] - the story\n"
            + lines
            + "- [[plans]] - plans\n",
            "memory/story.md": memory("story"),
            "memory/plans.md": memory("plans"),
        },
    )
    repo.remove("drop plans", "memory/plans.md")
    project = ProjectLocation("-project", repo.path, None)
    found = findings(repo.path / "memory", "index-drift", location=project)
    assert [(f.code, f.line, f.level) for f in found] == [
        ("broken-index-link", 3, "suggestion"),
        ("broken-index-link", 7, "problem"),
    ]
    assert all(f"[[{name}]]" in found[0].message for name in concepts)
    assert "4 wikilink entries" in found[0].message
    assert found[0].fix is None
    assert found[1].fix == {"action": "remove-index-line", "line": 7, "target": "plans"}
    # one such entry alone is one suggestion of its own, still with no fix
    repo.commit("fewer", {"memory/MEMORY.md": "# Hub\n- [[story]] - the story\n- [[origin]] - o\n"})
    (alone,) = findings(repo.path / "memory", "index-drift", location=project)
    assert (alone.line, alone.level, alone.fix) == (3, "suggestion", None)


def test_a_wikilink_entry_to_the_tree_s_deleted_note_stays_broken_beside_a_namesake(
    tmp_path: Path,
) -> None:
    # docs/architecture.md is another document of the same name: the tree's own note was
    # deleted, so its entry is broken and can go. A name only a note outside the tree has
    # is the vault's note: no finding, counted as skipped.
    repo = Repo(tmp_path / "project")
    repo.commit(
        "memory",
        {
            "memory/MEMORY.md": "# Index\n- [[architecture]] - layers\n- [[Emet-AI]] - chat\n",
            "memory/architecture.md": memory("architecture"),
            "docs/architecture.md": "# Architecture\n",
            "vault/emet-ai.md": "# Emet\n",
        },
    )
    repo.remove("drop the note", "memory/architecture.md")
    project = ProjectLocation("-project", repo.path, None)
    found = report(repo.path / "memory", "index-drift", location=project)
    assert [(f.code, f.line, f.level) for f in found.findings] == [
        ("broken-index-link", 2, "problem")
    ]
    assert found.findings[0].fix == {
        "action": "remove-index-line",
        "line": 2,
        "target": "architecture",
    }
    assert any(
        "1 wikilink entry naming a note of the repository" in s.reason for s in found.skipped
    )


def test_index_drift_a_missing_entrys_line_is_one_pointer_as_its_author_wrote_it(
    tree_dir: Path,
) -> None:
    # the description YAML cuts at " #" goes whole into the hook, and brackets in a name
    # are escaped: the line the fix writes links the file, with the whole hook
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("archive.md"),
            "archive.md": memory("archive", body="Dormant notes:\n\n- [[old-idea]]"),
            "user_old_idea.md": memory("old-idea [v2]", description="Parked (issue #41) in May"),
        },
    )
    options = {"index-drift": IndexDriftOptions(flat_index=True)}
    [finding] = findings(tree_dir, "index-drift", options=options)
    assert finding.fix is not None
    assert finding.fix["text"] == (
        "- [old-idea \\[v2\\]](user_old_idea.md) — Parked (issue #41) in May"
    )
