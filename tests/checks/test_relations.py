from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from memory_audit.model.finding import Finding
from memory_audit.model.stores import AgentStore
from memory_audit.tree.location import ProjectLocation
from tests.harness import codes, findings, index, memory, write_tree
from tests.support.git_repo import Repo


def audit(tree_dir: Path, files: dict[str, str]) -> list[tuple[str, str, int | None]]:
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    return codes(findings(tree_dir, "relations"))


def test_relations_complete_supersession_pair_is_clean(tree_dir: Path) -> None:
    assert (
        audit(
            tree_dir,
            {
                "new.md": memory("new", relations="[{type: supersedes, target: old.md}]"),
                "old.md": memory("old", superseded_by="new.md"),
            },
        )
        == []
    )


def test_relations_missing_back_pointer_on_the_superseded_file(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "new.md": memory("new", relations="[{type: supersedes, target: old.md}]"),
            "old.md": memory("old"),
        },
    )
    assert found == [("missing-superseded-by", "new.md", 5)]
    [finding] = findings(tree_dir, "relations")
    assert finding.fix == {"action": "add-superseded-by", "path": "old.md", "value": "new.md"}


def test_relations_superseded_by_without_supersedes_relation(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "new.md": memory("new", relations="[{type: supports, target: other.md}]"),
            "old.md": memory("old", superseded_by="new.md"),
            "other.md": memory("other"),
        },
    )
    assert found == [("missing-supersedes", "old.md", 5)]


def test_relations_broken_target_and_bad_type(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "a.md": memory(
                "a", relations="[{type: supports, target: gone.md}, {type: inspires, target: b.md}]"
            ),
            "b.md": memory("b"),
        },
    )
    assert sorted(found) == [("bad-relation-type", "a.md", 5), ("broken-relation", "a.md", 5)]


def test_relations_mapping_and_pair_shapes_are_understood(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "a.md": memory("a", relations="{supports: [b.md, c.md]}"),
            "b.md": memory("b", relations="[{related_to: c.md}]"),
            "c.md": memory("c"),
        },
    )
    assert found == []


def test_relations_targets_may_name_a_memory_instead_of_a_path(tree_dir: Path) -> None:
    assert (
        audit(
            tree_dir,
            {
                "a.md": memory("a", relations="[{type: supports, target: b-note}]"),
                "b.md": memory("b-note"),
            },
        )
        == []
    )


def test_relations_skipped_silently_when_no_file_declares_relations(tree_dir: Path) -> None:
    found = audit(
        tree_dir, {"old.md": memory("old", superseded_by="new.md"), "new.md": memory("new")}
    )
    assert found == []


def test_relations_broken_superseded_by_reported_even_without_relations(tree_dir: Path) -> None:
    assert audit(tree_dir, {"old.md": memory("old", superseded_by="nowhere.md")}) == [
        ("broken-superseded-by", "old.md", 5)
    ]


def test_relations_broken_wikilink_is_user_judgment_and_good_ones_resolve(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body="See [[b-note]], [[B title]], [[missing note]] and [[b]]."),
            "b.md": memory("b-note", body="# B title\n\ntext"),
        },
    )
    [finding] = findings(tree_dir, "relations")
    assert (finding.code, finding.judgment) == ("broken-wikilink", True)
    assert "[[missing note]]" in finding.message


def test_a_wikilink_the_text_marks_as_not_yet_written_is_no_finding(tree_dir: Path) -> None:
    body = (
        "Offline skills: see [[skill-library]] (not yet written).\n"
        "Style: [[day-one-style|the style]] (if/when written).\n"
        "Queue: [[queue-limits]] — to be written.\n"
        "Retries: [[retry-policy]] covers them.\n"
        "Later notes: (planned) [[release-train]].\n"
        # words that begin a hook, and a longer name's marker, mark nothing
        "See [[roadmap]] — future milestones and dates.\n"
        "See [[skill-library]] (not yet written) and [[skill]] for the loader.\n"
        "Next: [[launch]] (planned).\n"
    )
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    (found,) = findings(tree_dir, "relations")  # four in one file: one finding lists them
    assert found.code == "broken-wikilink"
    named = re.findall(r"\[\[([^\]]+)\]\]", found.message)
    assert named == ["retry-policy", "release-train", "roadmap", "skill"]


def test_many_unresolved_wikilinks_of_one_file_are_one_finding(tree_dir: Path) -> None:
    # A hub note of a vault links concepts with no note of their own: one suggestion for
    # the file, not one per link. A link that cuts a memory's name short stays a problem
    # of its own.
    concepts = ["origin", "education", "laptop", "budget", "career", "identity"]
    body = "".join(f"- [[{name}]] is a node\n" for name in concepts) + "See [[deploy-chec]].\n"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("hub.md", "deploy-checklist.md"),
            "hub.md": memory("hub", body=body),
            "deploy-checklist.md": memory("deploy-checklist"),
        },
    )
    found = findings(tree_dir, "relations")
    assert [(f.code, f.line, f.level) for f in found] == [
        ("broken-wikilink", 6, "suggestion"),
        ("broken-wikilink", 12, "problem"),
    ]
    assert found[0].message.startswith("6 wikilinks match no memory's name")
    assert all(f"[[{name}]]" in found[0].message for name in concepts)


def test_relations_broken_markdown_link_to_a_memory(tree_dir: Path) -> None:
    found = audit(
        tree_dir,
        {
            "a.md": memory("a", body="Line one\nsee [b](sub/b.md) and [c](c.md)"),
            "c.md": memory("c"),
        },
    )
    assert found == [("broken-link", "a.md", 7)]


def test_relations_related_fields_to_missing_memories_are_broken(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "project_deploy_notes.md"),
            "a.md": memory("a", related="[deploy-notes, gone-note]", relates_to="missing_file.md"),
            "project_deploy_notes.md": memory("deploy"),
        },
    )
    assert codes(findings(tree_dir, "relations")) == [
        ("broken-relation", "a.md", 5),
        ("broken-relation", "a.md", 6),
    ]


def test_relations_related_scalar_by_name_resolves(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", relates_to="Team Style"),
            "b.md": memory("team-style"),
        },
    )
    assert findings(tree_dir, "relations") == []


def test_relations_links_in_code_are_not_checked_and_parentheses_resolve(tree_dir: Path) -> None:
    body = (
        "Index lines look like `- [Title](gone.md) — hook`.\n\n"
        "```\n[x](also_gone.md)\n```\n\n"
        "See [the draft](draft(v2).md) and [[draft(v2)]].\n\n---\n\n[broken](really_gone.md)"
    )
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "draft(v2).md"),
            "a.md": memory("a", body=body),
            "draft(v2).md": memory("draft"),
        },
    )
    assert codes(findings(tree_dir, "relations")) == [("broken-link", "a.md", 16)]


def test_wikilinks_to_skills_agents_commands_and_claude_notes_resolve(
    tmp_path: Path, isolated_home: Path
) -> None:
    claude = isolated_home / ".claude"
    write_tree(
        claude,
        {
            "skills/doc-finder/SKILL.md": "---\nname: doc-finder\n---\nFind documents.\n",
            "agents/auditor.md": "---\nname: auditor\n---\nAudits.\n",
            "commands/release.md": "Cut a release.\n",
            "CLAUDE.md": "# Rules\n\n## Testing rules\n\nUse real databases.\n",
            "projects/-home-me-other/memory/shared_glossary.md": memory("shared_glossary"),
        },
    )
    vault = tmp_path / "vault"
    write_tree(vault, {"anti-patterns.md": "# Anti-patterns\n"})
    tree = vault / "memory"
    body = (
        "Search with [[doc-finder]], review with [[auditor]], ship with [[release]].\n"
        "See [[CLAUDE]], [[Testing rules]], [[anti-patterns]] and [[shared_glossary]].\n"
        "Tracked in [[#123]], [[PROJ-42]] and [[issue-7]].\n"
        "Sign-in lives in app/sign-in/[[...sign-in]]/page.tsx, under [[...login]].\n"
        "Still missing: [[never-written-note]].\n"
    )
    write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    found = findings(tree, "relations")
    assert [(f.code, f.line) for f in found] == [("broken-wikilink", 10)]
    assert "[[never-written-note]]" in found[0].message


def test_a_wikilink_the_text_places_in_the_user_s_memory_is_not_broken(tree_dir: Path) -> None:
    # An agent's note names a memory of the user's own store, which a repository's copy (or
    # a teammate's machine) does not hold: the text says where it lives.
    body = (
        "Related: [[routing-decisions]] in user memory.\n"
        "See [[kill-switch]] in the user's cross-session memory for the flag.\n"
        "Use the binary directly (see [[pnpm-workaround]] in user auto-memory).\n"
        "Routes: [[route-table]] (in user memory); [[flag-x]] \u2014 in the user\u2019s memory.\n"
        "Also [[deploy-checklist]] in the runbook, and [[team-notes]] in memory of the team.\n"
    )
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    found = findings(tree_dir, "relations")
    assert sorted(f.message.split("]]")[0].rpartition("[[")[2] for f in found) == [
        "deploy-checklist",
        "team-notes",
    ]


def test_wikilinks_to_rule_files_resolve(tmp_path: Path, isolated_home: Path) -> None:
    # Rules live in .claude/rules/, in sub-folders too: an agent's memory that names
    # [[feature-architecture]] points at the project's rule file, the user's [[house-style]]
    # at theirs. Writing a memory for either would copy the rule.
    write_tree(isolated_home / ".claude", {"rules/house-style.md": "Short sentences.\n"})
    app = tmp_path / "app"
    write_tree(
        app,
        {
            ".claude/rules/00-architecture/feature-architecture.md": "# Layers\n",
            # a rules/ folder outside .claude/ is the project's own documents: no rule
            "rules/billing/refunds.md": "# Refunds\n",
        },
    )
    tree = app / ".claude" / "agent-memory" / "ios-developer"
    body = "Follows [[feature-architecture]] and [[house-style]]; see [[refunds]].\n"
    write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    found = findings(tree, "relations")
    assert [f.code for f in found] == ["broken-wikilink"]
    assert "[[refunds]]" in found[0].message


def test_a_lower_case_name_with_a_number_is_a_note_not_a_ticket(
    tmp_path: Path, isolated_home: Path
) -> None:
    # Only an upper-case key (PROJ-42) is a tracker's; [[phase-2]] and [[step-3]] are notes
    # the file names, and when no memory holds them they are broken like any other name.
    tree = tmp_path / "memory"
    body = "Next is [[phase-2]]; the older plan was [[PROJ-42]].\n"
    write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    found = findings(tree, "relations")
    assert [f.code for f in found] == ["broken-wikilink"]
    assert "[[phase-2]]" in found[0].message
    assert "PROJ-42" not in found[0].message


def test_a_chat_gateways_reply_directive_is_no_wikilink(
    tmp_path: Path, isolated_home: Path
) -> None:
    # round 140's held-out half (after its first look): a saved chat session keeps the
    # assistant's reply tags as it sent them ([[reply_to_current]], [[reply_to:<id>]],
    # [[audio_as_voice]], [[tts:...]]): directives to the chat gateway, no note's name; a
    # note's name the memory links and no memory holds stays broken
    tree = tmp_path / "memory"
    body = (
        "assistant: [[reply_to_current]] Done, the card went out.\n"
        "assistant: [[reply_to:message-7]] [[audio_as_voice]] [[tts:provider=mock]] Sure.\n"
        "See [[reply-guide]] for the house style.\n"
    )
    write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    found = findings(tree, "relations")
    assert [f.code for f in found] == ["broken-wikilink"]
    assert "[[reply-guide]]" in found[0].message
    assert "reply_to" not in found[0].message


def test_wikilinks_to_the_projects_other_stores_resolve(
    tmp_path: Path, isolated_home: Path
) -> None:
    # An agent's memory links a teammate agent's notes and the memory folder the repository
    # keeps elsewhere (a team's docs/claude/memory): names of the same project's stores.
    repo = Repo(tmp_path / "app")
    repo.commit(
        "memory",
        {
            "docs/claude/memory/MEMORY.md": index("project_plan.md"),
            "docs/claude/memory/project_plan.md": memory("project_plan"),
            "docs/guide/setup_notes.md": "# Setup\n",  # a document, not a memory folder's
            ".claude/agent-memory/lead/MEMORY.md": index("teammate_note.md"),
            ".claude/agent-memory/lead/teammate_note.md": memory("teammate_note"),
        },
    )
    local = write_tree(repo.path / ".claude/agent-memory-local/lead", {"draft_idea.md": "x\n"})
    assert local.is_dir()
    body = (
        "Follows [[project_plan]]; agreed in [[teammate_note]] and [[draft_idea]].\n"
        "Not memory: [[setup_notes]]. Still missing: [[never-written-note]].\n"
    )
    tree = write_tree(
        repo.path / ".claude/agent-memory/dev",
        {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)},
    )
    location = ProjectLocation("-app", repo.path, None, AgentStore("dev", "project"))
    found = findings(tree, "relations", location=location)
    assert sorted(f.message.split("]]")[0].split("[[")[-1] for f in found) == [
        "never-written-note",
        "setup_notes",
    ]


def test_a_claude_md_that_is_a_pipe_is_not_waited_on_when_wikilinks_are_resolved(
    tmp_path: Path,
) -> None:
    # An unresolved wikilink is looked up among the headings of the CLAUDE.md files above
    # the tree: one that is a named pipe would block its reader until something wrote.
    project = tmp_path / "project"
    tree = project / "memory"
    body = "See [[Testing rules]] and [[never-written-note]].\n"
    write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)})
    os.mkfifo(project / "CLAUDE.md")
    found: list[Finding] = []
    worker = threading.Thread(target=lambda: found.extend(findings(tree, "relations")), daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "the audit waited on the pipe"
    assert sorted(f.message.split("]]")[0].split("[[")[-1] for f in found) == [
        "Testing rules",
        "never-written-note",
    ]


def test_a_wikilink_that_cuts_a_memory_name_short_names_the_memory(tree_dir: Path) -> None:
    files = {
        "knowledge_blender_geometry_api_facts.md": memory("knowledge_blender_geometry_api_facts"),
        "b.md": memory("b", body="Measured values live in [[knowledge-blender-geometry]]."),
    }
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    [finding] = findings(tree_dir, "relations")
    assert "did you mean `knowledge_blender_geometry_api_facts.md`?" in finding.message
    assert finding.suggestion == "point it at `knowledge_blender_geometry_api_facts.md`"


def test_relation_fields_naming_a_vault_note_or_a_skill_are_not_broken(tmp_path: Path) -> None:
    # A vault keeps notes and skills beside its memory folder; related: names them as the
    # bodies' wikilinks do, some with words after the link.
    vault = write_tree(
        tmp_path / "vault",
        {"pitfalls.md": "# Pitfalls\n", "skills/terse-style/SKILL.md": "---\nname: t\n---\n"},
    )
    tree = vault / "memory"
    related = '["[[pitfalls]] — items 3 and 4", "[[terse-style]]", "[[a]]", "[[nowhere-note]]"]'
    write_tree(
        tree,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", related=related),
            "b.md": memory("b", relations="[{type: supports, target: terse-style}]"),
        },
    )
    found = findings(tree, "relations")
    assert codes(found) == [("broken-relation", "a.md", 5)]
    assert "nowhere-note" in found[0].message


def test_a_wikilink_to_the_index_resolves_and_an_elided_name_guesses_nothing(
    tree_dir: Path,
) -> None:
    body = "Everything is listed in [[MEMORY]].\n\nThe fix went into [[project_...]] last week."
    files = {"a.md": memory("a", body=body), "project_payments.md": memory("payments")}
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    [finding] = findings(tree_dir, "relations")
    assert (finding.code, finding.line, finding.level) == ("broken-wikilink", 8, "suggestion")
    assert "did you mean" not in finding.message


def test_a_related_value_listing_several_files_names_each(tree_dir: Path) -> None:
    # "related: audit.md, gone.md" on one line is two targets: the one that exists is
    # fine, the other is reported alone (not the whole line as one missing name).
    text = "---\nname: a\ndescription: d\ntype: project\nrelated: audit.md, gone.md\n---\nx\n"
    found = findings_of(tree_dir, {"a.md": text, "audit.md": memory("audit")})
    assert [(f.code, f.line) for f in found] == [("broken-relation", 5)]
    assert "`gone.md`" in found[0].message


def findings_of(tree_dir: Path, files: dict[str, str]) -> list[Finding]:
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    return findings(tree_dir, "relations")


def test_a_related_list_item_with_commentary_stays_one_target(tree_dir: Path) -> None:
    # a list item is one target, whatever it says after its link
    text = (
        "---\nname: a\ndescription: d\ntype: project\nrelated:\n"
        '  - "[[audit]] — A1 (the artifact), A2 (the silent zero)"\n---\nx\n'
    )
    assert findings_of(tree_dir, {"a.md": text, "audit.md": memory("audit")}) == []


def test_a_copy_s_own_relation_words_are_suggestions(tmp_path: Path) -> None:
    # A repository's memory whose tooling writes its own relation words ("depends-on"):
    # worth a look there, a problem in Claude Code's own folder.
    text = (
        "---\nname: a\ndescription: d\ntype: project\nrelations:\n"
        "  - {type: depends-on, target: b.md}\n---\nx\n"
    )
    files = {"a.md": text, "b.md": memory("b")}
    repo = tmp_path / "repo"
    write_tree(repo / "memory", {"MEMORY.md": index(*files), **files})
    inside = findings(repo / "memory", "relations", location=ProjectLocation("-repo", repo, None))
    alone = findings(repo / "memory", "relations")
    assert [(f.code, f.level) for f in inside] == [("bad-relation-type", "suggestion")]
    assert [(f.code, f.level) for f in alone] == [("bad-relation-type", "problem")]


def test_a_long_file_is_reported_not_read_only_where_its_tail_could_hold_a_link(
    tree_dir: Path,
) -> None:
    # code spans but no bracket: the file is parsed, and its tail holds no link
    log = "".join(f"- step {n}: `done`\n" for n in range(5_200))
    linked = log + "- see [notes](gone.md)\n" + "- step: done\n" * 3
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("log.md", "linked.md"),
            "log.md": memory("log", body=log),
            "linked.md": memory("linked", body=linked),
        },
    )
    found = findings(tree_dir, "relations")
    unread = [
        (f.path, f.line, f.message.split(":")[0]) for f in found if f.code == "links-not-read"
    ]
    # the frontmatter's lines come first: the body's line n is the file's line n + 5
    start = next(f.line for f in found if f.code == "links-not-read")
    assert unread == [("linked.md", start, f"line {start}")]
    assert start == linked.splitlines().index("- see [notes](gone.md)") + 1 + 5


def test_a_file_s_broken_links_are_one_finding_that_names_the_missing_folder_level(
    tree_dir: Path,
) -> None:
    # a note in one project's memory links other projects' memories as if its folder sat
    # in the projects folder: each resolves with one more ../
    projects = tree_dir / "projects"
    other = write_tree(
        projects / "-home-ann-shop" / "memory", {"a.md": memory("a"), "b.md": memory("b")}
    )
    assert other.is_dir()
    home = write_tree(
        projects / "-home-ann" / "memory",
        {
            "MEMORY.md": index("todo.md"),
            "todo.md": memory(
                "todo",
                body="- [x] [a.md](../-home-ann-shop/memory/a.md)\n"
                "- [x] [b.md](../-home-ann-shop/memory/b.md)\n"
                "- [x] [c.md](../../-home-ann-shop/memory/a.md)\n",
            ),
        },
    )
    [finding] = findings(home, "relations")
    assert (finding.code, finding.path, finding.line) == ("broken-link", "todo.md", 6)
    assert finding.message.startswith("2 links don't resolve (lines 6, 7)")
    assert "each resolves with one more `../`" in finding.message
    assert finding.suggestion == "add one `../` to each link"
    # links that no added ../ repairs are one finding too, with the usual suggestion
    gone = write_tree(
        tree_dir / "gone",
        {"MEMORY.md": index("n.md"), "n.md": memory("n", body="[x](x.md) [y](old/y.md)")},
    )
    [finding] = findings(gone, "relations")
    assert finding.message.startswith("2 links don't resolve (line 6), the first to `x.md`")
    assert finding.suggestion == "update each link to its file's current path, or remove it"


def test_a_dismissal_of_some_broken_links_does_not_cover_others(tree_dir: Path) -> None:
    # the grouped finding is keyed on its broken targets: another set is another finding
    def fingerprint(body: str) -> str:
        write_tree(tree_dir, {"MEMORY.md": index("n.md"), "n.md": memory("n", body=body)})
        [finding] = findings(tree_dir, "relations")
        return finding.fingerprint

    first = fingerprint("[x](x.md) [y](y.md)")
    assert fingerprint("[y](y.md) [x](x.md)") == first  # the same set, written otherwise
    assert fingerprint("[w](w.md) [v](v.md)") != first
    assert fingerprint("[x](x.md) [y](y.md) [z](z.md)") != first


def test_a_note_s_link_written_from_where_claude_runs_is_not_broken(
    tmp_path: Path, isolated_home: Path
) -> None:
    # A note links the project's document and a user-level skill as a session sees them
    # (from the project's folder), the way the index may: both resolve there.
    write_tree(isolated_home / ".claude", {"skills/slay/SKILL.md": "# slay\n"})
    project = tmp_path / "project"
    body = (
        "Plan in [the plan](docs/plan.md).\nRun [slay](.claude/skills/slay/SKILL.md).\n"
        "Old: [gone](.claude/skills/gone/SKILL.md)."
    )
    write_tree(
        project,
        {
            "docs/plan.md": "# plan\n",
            "memory/MEMORY.md": index("a.md"),
            "memory/a.md": memory("a", body=body),
        },
    )
    location = ProjectLocation("-project", project, None)
    found = findings(project / "memory", "relations", location=location)
    assert [(f.code, f.line) for f in found] == [("broken-link", 8)]
    assert "`.claude/skills/gone/SKILL.md`" in found[0].message


def test_a_note_s_link_up_to_the_project_or_to_claude_code_s_folder_is_not_broken(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # From ~/.claude/projects/<slug>/memory/a.md: `../README.md` as if the memory folder sat
    # in the project, and `../../../../.claude/rules/x.md` through the home folder into
    # Claude Code's (here a folder named `claude-config`). Both resolve where written.
    config = isolated_home / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    write_tree(config, {"rules/never-do.md": "# Never\n"})
    project = write_tree(isolated_home / "shop", {"README.md": "# Shop\n"})
    body = (
        "See [the README](../README.md).\nRules: [never](../../../../.claude/rules/never-do.md).\n"
        "Old: [gone](../GONE.md)."
    )
    tree = write_tree(
        config / "projects/-home-ann-shop/memory",
        {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)},
    )
    location = ProjectLocation("-home-ann-shop", project, tree.parent)
    found = findings(tree, "relations", location=location)
    assert [(f.code, f.line) for f in found] == [("broken-link", 8)]
    assert "`../GONE.md`" in found[0].message


def test_a_wikilink_that_ends_where_a_memory_s_name_has_a_word_is_a_name_of_its_own(
    tree_dir: Path,
) -> None:
    # [[budget]] beside budget-constraints.md names a broader topic (a vault's concept), not
    # the note cut short: a suggestion. [[budget-constr]] is the note's name cut inside a
    # word: a typo to fix, a problem that points at it.
    body = "Money: [[budget]].\nSee [[budget-constr]] too.\n"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("plan.md", "budget-constraints.md"),
            "plan.md": memory("plan", body=body),
            "budget-constraints.md": memory("budget-constraints"),
        },
    )
    found = findings(tree_dir, "relations")
    assert [(f.line, f.level, f.message.split("]]")[0]) for f in found] == [
        (6, "suggestion", "wikilink [[budget"),
        (7, "problem", "wikilink [[budget-constr"),
    ]


def test_one_unresolved_wikilink_on_many_lines_is_one_finding_in_the_singular(
    tree_dir: Path,
) -> None:
    # A log that names one missing note on every entry: one name, one finding
    body = "".join(f"[[handoff-notes]] entry {n}\n" for n in range(5))
    write_tree(tree_dir, {"MEMORY.md": index("log.md"), "log.md": memory("log", body=body)})
    (found,) = findings(tree_dir, "relations")
    assert found.message == (
        "wikilink [[handoff-notes]] matches no memory's name, file name or title"
        " (lines 6, 7, 8, 9, 10)"
    )


def test_a_name_the_tree_places_in_the_user_s_memory_is_that_store_s_everywhere(
    tree_dir: Path,
) -> None:
    # "See user auto-memory [[seam-keeps-peeling]]": the marker before the link places it
    # too; and a name the tree places there once is that store's in its other files
    review = (
        "1. Peeling seams. See user auto-memory [[seam-keeps-peeling]].\n"
        "2. Fixes in comments. See the user's global memory: [[fix-lands-in-comments]].\n"
    )
    other = "Watch for [[seam-keeps-peeling]] and [[fix-lands-in-comments]] in re-reviews.\n"
    # a kind of memory, or one's own, places nothing; the case of a name is no other name
    lone = (
        "A user memory note is near; [[never-written]] is not.\n"
        "CUDA global memory: [[coalescing]]. Kernel vs user-space memory \u2014 [[mmap-notes]].\n"
        "In my memory, [[x-note]] said so. Also [[Seam-Keeps-Peeling]].\n"
    )
    files = {
        "a.md": memory("a", body=review),
        "b.md": memory("b", body=other),
        "c.md": memory("c", body=lone),
    }
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    # c.md's four unresolved links are one finding listing them
    [found] = findings(tree_dir, "relations")
    assert found.path == "c.md"
    for name in ("never-written", "coalescing", "mmap-notes", "x-note"):
        assert f"[[{name}]]" in found.message, name
    assert "Seam" not in found.message


def test_a_type_prefix_joined_by_a_dash_is_a_prefix_too(tree_dir: Path) -> None:
    # [[false-server-claim]] for project-false-server-claim.md, as for project_…; a word
    # that only starts like a type is part of the name
    # (of the memory's own type: user-guide.md of type project is a guide for users)
    files = {
        "project-false-server-claim.md": memory("project-false-server-claim"),
        "projector-setup.md": memory("projector-setup"),
        "user-guide.md": memory("user-guide", type="reference"),
        "a.md": memory("a", body="See [[false-server-claim]]; not [[or-setup]] nor [[guide]].\n"),
    }
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    found = findings(tree_dir, "relations")
    assert [f.message.split("]]")[0].rpartition("[[")[2] for f in found] == ["or-setup", "guide"]


def test_a_file_s_many_unread_passages_are_one_finding_naming_the_first(tree_dir: Path) -> None:
    # a chat log's dump: many separate lines each too dense in brackets to parse
    dense = "[" * 60_000
    body = "".join(f"{dense}\n\nreply {n}\n\n" for n in range(9))
    write_tree(tree_dir, {"MEMORY.md": index("log.md"), "log.md": memory("log", body=body)})
    unread = [f for f in findings(tree_dir, "relations") if f.code == "links-not-read"]
    assert len(unread) == 1
    first = body.splitlines().index(dense) + 1 + 5  # the frontmatter's five lines first
    assert unread[0].line == first
    assert unread[0].message.startswith(f"line {first}, line {first + 4}, ")
    assert "and 3 more passages" in unread[0].message
    assert unread[0].level == "suggestion"  # the tool's limit: no owner acts on it


def test_a_relation_entry_of_another_schema_is_no_malformed_one(tree_dir: Path) -> None:
    # a content package's articles name their targets by id (``targetId``), a schema of their
    # own (held-out judges: 0 of 31 malformed); an entry with a type and nothing else is one
    found = audit(
        tree_dir,
        {
            "a.md": memory("a", relations="[{type: related, targetId: aiming.ghost_ball}]"),
            "b.md": memory("b", relations="[{type: related}]"),
            # a note or a misspelt key beside the type names no target
            "c.md": memory("c", relations="[{type: related, note: 'see a'}]"),
            "d.md": memory("d", relations="[{type: related, taget: a.md}]"),
        },
    )
    assert [(c, p) for c, p, _ in found if c == "malformed-relation"] == [
        ("malformed-relation", "b.md"),
        ("malformed-relation", "c.md"),
        ("malformed-relation", "d.md"),
    ]
