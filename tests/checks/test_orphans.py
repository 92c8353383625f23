from __future__ import annotations

from pathlib import Path

from memory_audit.tree.location import ProjectLocation
from tests.harness import codes, findings, index, memory, report, write_tree


def test_orphans_file_with_no_entry_and_no_incoming_link(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a"), "lonely.md": memory("lonely")}
    )
    [finding] = findings(tree_dir, "orphans")
    assert (finding.code, finding.path, finding.judgment) == ("orphan-candidate", "lonely.md", True)


def test_orphans_reachable_through_a_relation_or_link_is_not_an_orphan(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory(
                "a",
                body="see [[by-wikilink]] and [x](by_link.md)",
                relations="[{type: supports, target: by_relation.md}]",
            ),
            "by_relation.md": memory("r"),
            "by_wikilink.md": memory("by-wikilink"),
            "by_link.md": memory("l"),
            "old.md": memory("old", superseded_by="by_successor.md"),
            "by_successor.md": memory("s"),
        },
    )
    # by_successor.md is reached only from old.md, which nothing reachable leads to
    assert codes(findings(tree_dir, "orphans")) == [
        ("orphan-candidate", "by_successor.md", None),
        ("orphan-candidate", "old.md", None),
    ]


def test_orphans_self_link_does_not_count(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "", "a.md": memory("a", body="see [[a]]")})
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "a.md", None)]


def test_orphans_sessions_and_team_files_are_never_orphans(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "",
            "sessions/2026-01-01-a.md": memory("a", type="session-recap"),
            "team/shared.md": memory("t"),
        },
    )
    assert findings(tree_dir, "orphans") == []


def test_orphans_moved_file_the_index_still_means_is_not_an_orphan(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("style.md"), "ref/style.md": memory("style")})
    assert findings(tree_dir, "orphans") == []


def test_orphans_hub_and_second_level_index_reach_their_notes(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Memory\n\n## Retros\n- [Retros](retros/index.md) — every retro\n",
            "retros/index.md": memory("retros", body="- [Sprint 1](sprint_1.md)\n- [[sprint-2]]"),
            "retros/sprint_1.md": memory("sprint-1", body="Next: [[Sprint 3 retro]]"),
            "retros/sprint_2.md": memory("sprint-2"),
            "retros/sprint_3.md": memory("s3", body="# Sprint 3 retro\n\nShipped."),
            "retros/unlinked.md": memory("unlinked"),
        },
    )
    assert codes(findings(tree_dir, "orphans", "index-drift")) == [
        ("orphan-candidate", "retros/unlinked.md", None)
    ]


def test_orphans_related_fields_reach_by_name_with_type_prefix_and_case(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a", related="[Deploy_Notes]", relates_to="feedback_style.md"),
            "project_deploy_notes.md": memory("deploy notes v2"),
            "feedback_style.md": memory("style"),
        },
    )
    assert findings(tree_dir, "orphans") == []


def test_orphans_a_file_linked_only_from_an_orphan_is_one_finding_each(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "island.md": memory("island", body="see [[reef]]"),
            "reef.md": memory("reef"),
        },
    )
    found = sorted(findings(tree_dir, "orphans", "index-drift"), key=lambda f: f.path)
    assert codes(found) == [
        ("orphan-candidate", "island.md", None),
        ("orphan-candidate", "reef.md", None),
    ]
    assert found[1].related == ("island.md",)
    assert found[0].fix is not None
    assert found[0].fix["text"] == "- [island](island.md) — About island"


def test_orphans_link_inside_code_does_not_reach(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a", body="write links as `[x](b.md)`\n\n    [[b]]\n"),
            "b.md": memory("b"),
        },
    )
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "b.md", None)]


def test_orphans_hub_named_in_a_code_span_reaches_its_notes(tree_dir: Path) -> None:
    write_tree(
        tree_dir / "notes-memory",
        {
            "MEMORY.md": index("blog.md"),
            "blog.md": memory("blog", body="Post-mortems: read `notes-memory/retros/index.md`."),
            "retros/index.md": memory("retros", body="- [First](retro_first.md)"),
            "retros/retro_first.md": memory("first"),
            "retros/retro_stray.md": memory("stray", body="`retro_first.md` says it all"),
        },
    )
    assert codes(findings(tree_dir / "notes-memory", "orphans", "relations")) == [
        ("orphan-candidate", "retros/retro_stray.md", None)
    ]


def test_orphans_index_naming_a_file_in_a_code_span_reaches_it(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Notes\n- **`market_rules.md`** — 50 tactical rules\n",
            "market_rules.md": memory("rules"),
            "unnamed.md": memory("unnamed"),
        },
    )
    assert codes(findings(tree_dir, "orphans", "index-drift")) == [
        ("orphan-candidate", "unnamed.md", None)
    ]


def test_orphans_are_not_judged_when_the_index_sits_one_folder_up(
    tmp_path: Path, isolated_home: Path
) -> None:
    # In Claude Code's own projects folder the index one level up is never read: a problem.
    project = isolated_home / ".claude/projects/-work-p"
    write_tree(project, {"MEMORY.md": "- [A](memory/a.md) — notes\n"})
    tree = write_tree(project / "memory", {"a.md": memory("a"), "b.md": memory("b")})
    result = report(tree, "orphans", "index-drift")
    [missing] = result.findings
    assert (missing.code, missing.level) == ("missing-index", "problem")
    assert "the one in the folder above is not this folder's index" in missing.message
    assert missing.suggestion == "move ../MEMORY.md into this folder, its links made relative to it"
    assert [s.reason for s in result.skipped] == [
        "the index is the MEMORY.md one folder up; what it reaches is not judged"
    ]


def test_a_repositorys_copy_indexed_one_folder_up_is_a_suggestion(tmp_path: Path) -> None:
    # A repository keeping its memory copy as MEMORY.md + memory/*.md: its own layout.
    write_tree(tmp_path, {"MEMORY.md": "- [A](memory/a.md) — notes\n"})
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a")})
    [missing] = report(tree, "orphans", "index-drift").findings
    assert (missing.code, missing.level) == ("missing-index", "suggestion")
    assert missing.suggestion == (
        "if Claude Code loads this folder, move ../MEMORY.md into this folder,"
        " its links made relative to it"
    )


def test_with_no_index_at_all_the_missing_index_is_the_one_finding(tree_dir: Path) -> None:
    # One cause, one finding: not an orphan per memory beside "MEMORY.md is missing".
    write_tree(tree_dir, {"a.md": memory("a"), "b_notes.md": memory("b", description=None)})
    result = report(tree_dir, "orphans", "index-drift")
    [missing] = result.findings
    assert missing.code == "missing-index"
    assert "there is no MEMORY.md, so nothing is reachable (`missing-index`)" in [
        s.reason for s in result.skipped
    ]
    # Its fix writes the index those orphans' fixes would have added line by line.
    assert missing.fix == {
        "action": "create-index",
        "path": "MEMORY.md",
        "text": "# Memory index\n\n- [a](a.md) — About a\n- [b](b_notes.md)\n",
    }


def test_a_note_without_a_description_is_indexed_by_its_first_heading(isolated_home: Path) -> None:
    # No frontmatter: the new index's line says what the note is about from its heading,
    # not a bare link a session learns nothing from. (In Claude Code's own folder: a folder
    # elsewhere with no index and no block is another program's, given no index advice.)
    tree_dir = write_tree(
        isolated_home / ".claude/projects/-work-k8s/memory",
        {"mm.md": "# K8s commands at a glance\n\n## Pods\n```bash\nkubectl get pods\n```\n"},
    )
    [missing] = report(tree_dir, "orphans", "index-drift").findings
    assert missing.fix is not None
    assert missing.fix["text"] == "# Memory index\n\n- [mm](mm.md) — K8s commands at a glance\n"


def test_memories_in_an_archive_folder_are_kept_out_of_the_index_on_purpose(
    tree_dir: Path,
) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "retired/2026-05-27-prune/old_rule.md": memory("old-rule"),
            "archive/old_plan.md": memory("old-plan"),
            "notes/archive/2026/old_note.md": memory("old-note"),
            "notes/loose.md": memory("loose"),
        },
    )
    result = report(tree_dir, "orphans")
    assert codes(list(result.findings)) == [("orphan-candidate", "notes/loose.md", None)]
    assert "3 memories in archive folders, kept out of the index: not judged" in [
        s.reason for s in result.skipped
    ]


def test_a_memory_the_project_claude_md_names_is_reachable(tmp_path: Path) -> None:
    # The repository's CLAUDE.md lists key files by path; one is a memory the index omits.
    project = write_tree(
        tmp_path / "project",
        {
            "CLAUDE.md": "# Project\n\n| File | Role |\n|---|---|\n"
            "| `memory/plan-long-term.md` | Long-horizon plans |\n\nSee [the log](memory/log.md).\n",
            "AGENTS.md": "Agents keep `memory/agents-notes.md` current.\n",
        },
    )
    tree = write_tree(
        project / "memory",
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "plan-long-term.md": memory("plan"),
            "log.md": memory("log", body="Follows [the detail](log-detail.md)."),
            "log-detail.md": memory("detail"),
            "agents-notes.md": memory("agents"),
            "forgotten.md": memory("forgotten"),
        },
    )
    location = ProjectLocation(project_path=project)
    assert codes(findings(tree, "orphans", location=location)) == [
        ("orphan-candidate", "forgotten.md", None)
    ]


def test_a_memory_the_project_claude_md_imports_is_reachable(tmp_path: Path) -> None:
    # "- @.claude/memory/active_plan.md — the blueprint": Claude Code loads it into every
    # session. An import in a code block is text, and so is an address.
    project = write_tree(
        tmp_path / "project",
        {
            "CLAUDE.md": "# Project\n\n- @.claude/memory/MEMORY.md — learnings\n"
            "- @.claude/memory/active_plan.md — the refactoring blueprint\n"
            "Ledger: @.claude/memory/changelog.md.\n"
            "```\n@.claude/memory/sample.md\n```\nMail ops@example.md for access.\n"
            "Never import `@.claude/memory/scratch.md`; the log (@.claude/memory/log.md).\n",
        },
    )
    tree = write_tree(
        project / ".claude" / "memory",
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "active_plan.md": memory("plan"),
            "changelog.md": memory("changelog"),
            "sample.md": memory("sample"),
            "scratch.md": memory("scratch"),
            "log.md": memory("log"),
        },
    )
    location = ProjectLocation(project_path=project)
    # a path in a code span names the file for a reader; "(@x.md)" imports nothing
    assert codes(findings(tree, "orphans", location=location)) == [
        ("orphan-candidate", "log.md", None),
        ("orphan-candidate", "sample.md", None),
    ]


def test_an_agents_working_file_named_by_path_in_its_spec_is_reachable(tmp_path: Path) -> None:
    # A repository keeps a copy of ~/.claude: agents/ beside memory/. MEMORY.md links the
    # agent as installed (three folders up from ~/.claude/projects/<slug>/memory/), and the
    # agent's spec names its working file at its installed path.
    repo = tmp_path / "repo"
    copy = write_tree(
        repo / "claude-config",
        {
            "agents/coach.md": "---\nname: coach\n---\n"
            "Keep the profile in `/home/someone/.claude/projects/-home-someone/memory/coach_profile.md`.\n",
            "agents/unlinked.md": "Writes `~/.claude/projects/-x/memory/unlinked_notes.md`.\n",
        },
    )
    tree = write_tree(
        copy / "memory",
        {
            "MEMORY.md": "# Index\n- [Coach](../../../.claude/agents/coach.md) — the coach agent\n",
            "coach_profile.md": memory("coach profile"),
            "unlinked_notes.md": memory("unlinked"),
        },
    )
    location = ProjectLocation(project_path=repo)
    assert codes(findings(tree, "orphans", location=location)) == [
        ("orphan-candidate", "unlinked_notes.md", None)
    ]


def test_a_dated_series_no_index_line_reaches_is_counted_not_reported(tree_dir: Path) -> None:
    dates = ("2026-04-14", "2026-04-21", "2026-04-28")
    files = {f"checkpoint-{d}.md": memory(f"checkpoint {d}") for d in dates}
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            **files,
            "note-2026-01-02.md": memory("one dated note"),
            "note-2026-01-03.md": memory("two dated notes"),
        },
    )
    result = report(tree_dir, "orphans")
    # two dated notes are no series: each is an orphan
    assert codes(list(result.findings)) == [
        ("orphan-candidate", "note-2026-01-02.md", None),
        ("orphan-candidate", "note-2026-01-03.md", None),
    ]
    assert (
        "3 memories of 1 dated series that no index line reaches (a log or checkpoint a tool"
        " writes and finds by name): not judged"
    ) in [s.reason for s in result.skipped]


def test_the_unindexed_notes_of_an_indexed_series_are_one_finding(tree_dir: Path) -> None:
    dates = ("2026-04-14", "2026-04-21", "2026-04-28", "2026-05-05")
    files = {f"status_{d}.md": memory(f"status {d}") for d in dates}
    write_tree(
        tree_dir, {"MEMORY.md": index("status_2026-04-14.md", "status_2026-04-21.md"), **files}
    )
    [finding] = findings(tree_dir, "orphans")
    assert (finding.code, finding.path, finding.related) == (
        "orphan-candidate",
        "status_2026-05-05.md",
        ("status_2026-04-28.md",),
    )
    assert "2 of the series are indexed" in finding.message


def test_an_agent_file_outside_the_project_and_claude_s_folder_is_never_read(
    tmp_path: Path,
) -> None:
    # A memory may link anything; an agent file it links is read only inside the project,
    # the folder holding the tree, or Claude Code's folder. Elsewhere: existence only.
    elsewhere = write_tree(
        tmp_path / "elsewhere", {"agents/coach.md": "Keep `memory/coach_profile.md`.\n"}
    )
    repo = tmp_path / "repo"
    tree = write_tree(
        repo / "work" / "memory",
        {
            "MEMORY.md": f"# Index\n- [Coach]({elsewhere}/agents/coach.md) — the coach agent\n",
            "coach_profile.md": memory("coach profile"),
        },
    )
    location = ProjectLocation(project_path=repo)
    assert codes(findings(tree, "orphans", location=location)) == [
        ("orphan-candidate", "coach_profile.md", None)
    ]


def test_a_memory_the_project_s_agent_or_skill_names_is_reachable(tmp_path: Path) -> None:
    # An agent's spec tells it to read its blocklist first (at the path of the machine it
    # was written on); a skill names a second note. Claude Code reads both files when it
    # runs them, so neither note needs an index line; nothing names the third.
    project = write_tree(
        tmp_path / "project",
        {
            ".claude/agents/ideas.md": "---\nname: ideas\n---\nFirst read "
            "`/home/dev/work/project/.claude/agent-memory/idea-finder/BLOCKLIST.md`.\n",
            ".claude/skills/triage/SKILL.md": "Log each run in "
            "`.claude/agent-memory/idea-finder/runs.md`.\n",
        },
    )
    tree = write_tree(
        project / ".claude" / "agent-memory" / "idea-finder",
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "BLOCKLIST.md": "- no token pruning ideas\n",
            "runs.md": memory("runs"),
            "forgotten.md": memory("forgotten"),
        },
    )
    location = ProjectLocation(project_path=project)
    assert codes(findings(tree, "orphans", location=location)) == [
        ("orphan-candidate", "forgotten.md", None)
    ]


def test_a_memory_named_in_a_linked_claude_md_inside_the_project_is_reachable(
    tmp_path: Path,
) -> None:
    # CLAUDE.md is a link to the project's guide, which names a note by path: Claude Code
    # reads the guide at every start, so the note needs no index line.
    project = write_tree(
        tmp_path / "project",
        {"docs/guide.md": "Before a release, read `memory/release.md`.\n"},
    )
    (project / "CLAUDE.md").symlink_to("docs/guide.md")
    tree = write_tree(
        project / "memory",
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "release.md": memory("release"),
            "forgotten.md": memory("forgotten"),
        },
    )
    location = ProjectLocation(project_path=project)
    assert codes(findings(tree, "orphans", location=location)) == [
        ("orphan-candidate", "forgotten.md", None)
    ]


def test_a_file_with_neither_frontmatter_nor_a_way_in_is_one_suggestion_with_no_fix(
    tree_dir: Path,
) -> None:
    # a hook's empty stub and an old agent prompt copied into the folder: no session saved
    # them as memories, so neither indexing them nor giving them frontmatter is the fix
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("kept.md", "bare_but_indexed.md"),
            "kept.md": memory("kept"),
            "bare_but_indexed.md": "# Steps\n\nThe assembly steps, in order.\n",
            "session-stub.md": "# Session\n\n- stop reason: unknown\n",
            "unindexed.md": memory("unindexed"),
        },
    )
    found = report(tree_dir).findings
    by_path = {(f.code, f.path): f for f in found if f.dimension in ("orphans", "frontmatter")}
    assert set(by_path) == {
        ("orphan-candidate", "session-stub.md"),
        ("orphan-candidate", "unindexed.md"),
        ("no-frontmatter", "bare_but_indexed.md"),
    }
    # asked for alone, the frontmatter dimension still says the stub has no block
    alone = {(f.code, f.path) for f in findings(tree_dir, "frontmatter")}
    assert ("no-frontmatter", "session-stub.md") in alone
    stub = by_path["orphan-candidate", "session-stub.md"]
    assert (stub.level, stub.fix) == ("suggestion", None)
    assert "no frontmatter either" in stub.message
    assert "remove it" in (stub.suggestion or "")
    # a memory a session saved but never indexed keeps its fix (a suggestion too: which
    # to index is the owner's call); an indexed file without a block stays a problem
    unindexed = by_path["orphan-candidate", "unindexed.md"]
    assert "no frontmatter" not in unindexed.message
    assert unindexed.fix is not None
    assert unindexed.fix["action"] == "add-index-line"
    bare = by_path["no-frontmatter", "bare_but_indexed.md"]
    assert bare.level != "suggestion"
    assert bare.fix == {
        "action": "add-frontmatter",
        "path": "bare_but_indexed.md",
    }


def test_an_orphan_with_a_broken_block_is_an_orphan_not_a_file_without_one(
    tree_dir: Path,
) -> None:
    # a block opened and never closed is the frontmatter dimension's problem; the orphan
    # keeps its index line to add
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a"),
            "u.md": "---\nname: u\ndescription: d\ntype: user\nBody never closed\n",
        },
    )
    found = {(f.code, f.path): f for f in report(tree_dir).findings}
    assert ("unclosed-frontmatter", "u.md") in found
    orphan = found["orphan-candidate", "u.md"]
    assert "no frontmatter" not in orphan.message
    assert orphan.fix is not None


def test_orphans_many_unreachable_memories_are_one_finding_without_a_fix(tree_dir: Path) -> None:
    # a short kernel index over an archive of notes it leaves out on purpose
    notes = {f"feedback_rule_{n:02d}.md": memory(f"rule {n}") for n in range(12)}
    # a file no session saved (no block) is its own finding, which keeps the frontmatter
    # dimension's no-frontmatter off it
    stub = {"zz_stub.md": "a pasted stub\n"}
    write_tree(
        tree_dir, {"MEMORY.md": index("kernel.md"), "kernel.md": memory("k"), **notes, **stub}
    )
    finding, unsaved = findings(tree_dir, "orphans")
    assert (unsaved.path, unsaved.level, unsaved.fix) == ("zz_stub.md", "suggestion", None)
    both = findings(tree_dir, "orphans", "frontmatter")
    assert [f.dimension for f in both] == ["orphans", "orphans"]
    assert (finding.code, finding.path, finding.fix) == ("orphan-candidate", "MEMORY.md", None)
    assert finding.related == tuple(sorted(notes))
    assert finding.message.startswith(
        "12 memories are not reachable from MEMORY.md, which reaches 1"
    )
    assert "and 7 more" in finding.message


def test_orphans_up_to_ten_unreachable_memories_are_one_finding_each(tree_dir: Path) -> None:
    notes = {f"note_{n:02d}.md": memory(f"note {n}") for n in range(10)}
    write_tree(tree_dir, {"MEMORY.md": index("kernel.md"), "kernel.md": memory("k"), **notes})
    found = findings(tree_dir, "orphans")
    assert [f.path for f in found] == sorted(notes)
    assert all(f.fix is not None and f.fix["action"] == "add-index-line" for f in found)


def test_orphans_a_file_a_row_of_the_index_table_names_is_indexed(tree_dir: Path) -> None:
    # A hand-kept index lists its files in a table: by bare name, in backticks or linked.
    # A name in a row's later cell is a mention, and leads nowhere on its own.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n\n| File | What |\n|---|---|\n"
            "| feedback_writing.md | style notes |\n| `feedback_legal.md` | legal rules |\n"
            "| **feedback_client.md** | the client's calls |\n"
            "| owner | see old_notes.md |\n",
            **{
                f"{n}.md": memory(n)
                for n in ("feedback_writing", "feedback_legal", "feedback_client", "old_notes")
            },
        },
    )
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "old_notes.md", None)]


def test_many_unreachable_files_no_session_saved_are_one_finding(tree_dir: Path) -> None:
    # a tool's notes kept beside the memories: no block, no index line, a dozen of them
    notes = {f"atom_{n:02d}.md": f"# Atom {n}\n\n- Scope: project\n" for n in range(12)}
    write_tree(tree_dir, {"MEMORY.md": index("kept.md"), "kept.md": memory("kept"), **notes})
    found = [f for f in report(tree_dir).findings if f.dimension in ("orphans", "frontmatter")]
    [flood] = found
    assert (flood.code, flood.path, flood.level, flood.fix) == (
        "orphan-candidate",
        "MEMORY.md",
        "suggestion",
        None,
    )
    assert flood.related == tuple(sorted(notes))
    assert flood.message.startswith("12 files are not reachable from MEMORY.md")
    assert "and 7 more" in flood.message


def test_unsaved_files_of_a_folder_of_their_own_are_the_folders_one_finding(
    tree_dir: Path,
) -> None:
    # a hook's logs in a folder of their own are the frontmatter dimension's one finding
    # for that folder: the same cause, not listed a second time
    logs = {f"episodic/run-{n:02d}.md": f"# Run {n}\n\n- stop reason: done\n" for n in range(12)}
    write_tree(tree_dir, {"MEMORY.md": index("kept.md"), "kept.md": memory("kept"), **logs})
    found = [f for f in report(tree_dir).findings if f.dimension in ("orphans", "frontmatter")]
    [folder] = found
    assert folder.code == "no-frontmatter"
    assert (folder.path, *folder.related) == tuple(sorted(logs))


def test_up_to_ten_unreachable_files_no_session_saved_are_one_finding_each(
    tree_dir: Path,
) -> None:
    stubs = {f"stub_{n}.md": f"# Stub {n}\n" for n in range(10)}
    write_tree(tree_dir, {"MEMORY.md": index("kept.md"), "kept.md": memory("kept"), **stubs})
    found = [f for f in findings(tree_dir, "orphans") if f.code == "orphan-candidate"]
    assert sorted(f.path for f in found) == sorted(stubs)


def test_files_without_a_block_in_a_folder_of_their_own_are_not_orphans_too(
    tree_dir: Path,
) -> None:
    # five hook logs in their folder: the frontmatter dimension's one finding, no orphan
    # each; two loose stubs beside the index stay an orphan finding each
    logs = {f"episodic/run-{n}.md": f"# Run {n}\n\n- stop reason: done\n" for n in range(5)}
    stubs = {"stub_a.md": "# Stub a\n", "stub_b.md": "# Stub b\n"}
    write_tree(
        tree_dir, {"MEMORY.md": index("kept.md"), "kept.md": memory("kept"), **logs, **stubs}
    )
    found = [f for f in report(tree_dir).findings if f.dimension in ("orphans", "frontmatter")]
    assert sorted((f.code, f.path) for f in found) == [
        ("no-frontmatter", "episodic/run-0.md"),
        ("orphan-candidate", "stub_a.md"),
        ("orphan-candidate", "stub_b.md"),
    ]
    # without the frontmatter dimension, the orphans dimension reports them all
    alone = findings(tree_dir, "orphans")
    assert sorted(f.path for f in alone) == sorted([*logs, *stubs])


def test_a_list_of_unsaved_files_leaves_out_those_of_a_folder_of_another_kind(
    tree_dir: Path,
) -> None:
    # twelve hook logs in their folder and eleven loose stubs: the folder's one finding, and
    # one list of the eleven stubs, not of all twenty-three
    logs = {f"episodic/run-{n:02d}.md": f"# Run {n}\n\n- done\n" for n in range(12)}
    stubs = {f"stub_{n:02d}.md": f"# Stub {n}\n" for n in range(11)}
    write_tree(
        tree_dir, {"MEMORY.md": index("kept.md"), "kept.md": memory("kept"), **logs, **stubs}
    )
    found = [f for f in report(tree_dir).findings if f.dimension in ("orphans", "frontmatter")]
    assert sorted((f.code, f.path) for f in found) == [
        ("no-frontmatter", "episodic/run-00.md"),
        ("orphan-candidate", "MEMORY.md"),
    ]
    [listed] = [f for f in found if f.code == "orphan-candidate"]
    assert listed.related == tuple(sorted(stubs))
    assert listed.message.startswith("11 files are not reachable from MEMORY.md")


def test_a_memory_whose_index_heading_links_it_is_reachable(tree_dir: Path) -> None:
    # ``## [Deploy notes](deploy.md)`` over the lines that say when it helps: the section is
    # the way to the file, though no pointer line of its own
    text = "# Index\n\n## [Deploy notes](deploy.md)\nHow we ship.\n\n## Other\n- [A](a.md) — a\n"
    write_tree(tree_dir, {"MEMORY.md": text, "deploy.md": memory("deploy"), "a.md": memory("a")})
    assert findings(tree_dir, "orphans") == []
    # a heading that only names the file in words is no way to it
    write_tree(tree_dir, {"MEMORY.md": text.replace("[Deploy notes](deploy.md)", "Deploy notes")})
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "deploy.md", None)]


def test_a_name_in_brackets_with_no_link_target_is_a_pointer(tree_dir: Path) -> None:
    # ``- [notes.md] — hook``: the file's name in brackets, written without its (target)
    text = "# Index\n- [notes.md] — deploy notes\n- [draft] — not a file\n"
    write_tree(tree_dir, {"MEMORY.md": text, "notes.md": memory("notes")})
    assert findings(tree_dir, "orphans") == []
    write_tree(tree_dir, {"MEMORY.md": "# Index\n- [draft] — not a file\n"})
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "notes.md", None)]


def test_a_table_of_bare_file_names_in_a_reached_memory_leads_to_them(tree_dir: Path) -> None:
    # meditations.md, indexed, keeps its own table of the reflection files by their names
    table = (
        "| # | Question | File | Status |\n|---|---|---|---|\n"
        "| 1 | What is my core job? | what-is-my-core-job.md | Active |\n"
        "| 2 | What is working? | **what-is-working.md** | Active |\n"
    )
    files = {
        "MEMORY.md": index("reflections/meditations.md"),
        "reflections/meditations.md": memory("meditations", body=table),
        "reflections/what-is-my-core-job.md": memory("core job"),
        "reflections/what-is-working.md": memory("working"),
        "reflections/unlisted.md": memory("unlisted"),
    }
    write_tree(tree_dir, files)
    assert codes(findings(tree_dir, "orphans")) == [
        ("orphan-candidate", "reflections/unlisted.md", None)
    ]
    # a name in a sentence of a cell is no list of files
    prose = table.replace("| what-is-my-core-job.md |", "| see what-is-my-core-job.md later |")
    write_tree(tree_dir, {"reflections/meditations.md": memory("meditations", body=prose)})
    assert [p for _, p, _ in codes(findings(tree_dir, "orphans"))] == [
        "reflections/unlisted.md",
        "reflections/what-is-my-core-job.md",
    ]


def test_a_table_keeps_the_underscores_of_the_names_it_lists(tree_dir: Path) -> None:
    # `_index.md` is the table's; `index.md`, listed nowhere, is the orphan
    table = "| File | What |\n|---|---|\n| _index.md | the hub's own list |\n"
    files = {
        "MEMORY.md": index("hub.md"),
        "hub.md": memory("hub", body=table),
        "_index.md": memory("underscored"),
        "index.md": memory("plain"),
    }
    write_tree(tree_dir, files)
    assert codes(findings(tree_dir, "orphans")) == [("orphan-candidate", "index.md", None)]


def test_an_orphans_index_line_carries_its_description_as_written(tree_dir: Path) -> None:
    # "description: Governance PRs (PR #68) merged": YAML cuts the value at " #"; the index
    # line the fix writes is Markdown, where the whole description is the hook (a line
    # ending "(PR" would be a broken hook written by the tool)
    files = {
        "kept.md": memory("kept"),
        "prs.md": memory("prs", description="Governance PRs (PR #68) merged after review"),
    }
    write_tree(tree_dir, {"MEMORY.md": index("kept.md"), **files})
    [orphan] = [f for f in findings(tree_dir, "orphans") if f.code == "orphan-candidate"]
    assert orphan.fix is not None
    assert orphan.fix["text"] == "- [prs](prs.md) — Governance PRs (PR #68) merged after review"


def test_an_orphan_with_an_empty_body_gets_no_index_line(tree_dir: Path) -> None:
    # a placeholder its agent never filled ("<!-- fill in on first run -->" under a title):
    # indexing it would point every session at nothing; one with a line of text keeps its fix
    files = {
        "kept.md": memory("kept"),
        "devops.md": memory(
            "devops", body="# DevOps notes\n\n<!-- Fill in on the first\nrun -->\n"
        ),
        "ops.md": memory("ops", body="# Ops\n\n<!-- kept -->\nThe runner is self-hosted.\n"),
        "tags.md": memory("tags", body="# Blockers\n#todo #deploy-blocker\n"),
    }
    write_tree(tree_dir, {"MEMORY.md": index("kept.md"), **files})
    found = {f.path: f for f in findings(tree_dir, "orphans") if f.code == "orphan-candidate"}
    assert found["devops.md"].fix is None
    assert "its body is empty" in found["devops.md"].message
    assert str(found["devops.md"].suggestion).startswith("fill it in")
    assert found["ops.md"].fix is not None
    assert found["tags.md"].fix is not None  # a line of tags is text, no heading
