from __future__ import annotations

import os
from pathlib import Path

from memory_audit.checks.index_budget import Options as BudgetOptions
from memory_audit.fix.actions import TOPIC_NAME, actions, answers_for
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.model.stores import AgentStore
from memory_audit.secrets.rules import bundled_rules
from memory_audit.secrets.scanner import Scanner
from memory_audit.tree.location import ProjectLocation
from tests.harness import codes, findings, index, memory, write_tree

# inline content is looked for in an index of any size (by default, from 10,000 characters)
ANY_SIZE = {"index-budget": BudgetOptions(small_index_chars=0)}


def entries(count: int, start: int = 0, hook: str = "notes about it") -> str:
    return "".join(f"- [Note {i}](n{i}.md) — {hook}\n" for i in range(start, start + count))


def test_index_budget_230_line_index_names_exactly_the_entries_past_line_200(
    tree_dir: Path,
) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\n" + entries(229)})
    found = findings(tree_dir, "index-budget")
    assert found[0].code == "over-budget"
    assert "230 lines" in found[0].message
    assert "30 entries from line 201" in found[0].message
    [invisible] = [f for f in found if f.code == "invisible-entry"]
    assert invisible.line == 201
    assert invisible.message == (
        "30 index entries are past the cut-off (from line 201 on); no session sees them:"
        " `n199.md`, `n200.md`, `n201.md`, `n202.md`, `n203.md` and 25 more"
    )
    assert invisible.fix is not None
    assert invisible.fix["lines"] == list(range(201, 231))
    assert invisible.related == tuple(f"n{i}.md" for i in range(199, 229))


def test_index_budget_the_one_fix_moves_every_hidden_entry_under_a_pointer_sessions_see(
    tree_dir: Path,
) -> None:
    # 200 lines load whole: the pointer cannot take line 201, so the last visible entry
    # moves with the hidden ones and the pointer takes its place. No pointer is deleted.
    write_tree(tree_dir, {"MEMORY.md": "# Index\n" + entries(229)})
    [invisible] = [f for f in findings(tree_dir, "index-budget") if f.code == "invisible-entry"]
    assert invisible.fix is not None
    assert (invisible.fix["action"], invisible.fix["first"], invisible.fix["last"]) == (
        "move-to-topic",
        200,
        230,
    )
    action = actions(Scanner(bundled_rules(), b"salt"))["move-to-topic"]
    action.build(Tree.open(tree_dir), invisible.fix, answers_for(action, invisible.fix)).apply()
    index = (tree_dir / "MEMORY.md").read_text().splitlines()
    assert len(index) == 200
    assert index[-1].startswith("- [More memories](more-memories.md) — ")
    moved = (tree_dir / "more-memories.md").read_text()
    assert all(f"](n{i}.md)" in moved for i in range(198, 229))
    # Recall picks the new file by its description: it names what the file holds.
    assert invisible.fix["description"] == (
        "more memories, past MEMORY.md's load limit: Note 199, Note 200, Note 201, Note 202,"
        " Note 203, Note 204, Note 205, Note 206 and 22 more"
    )
    after = findings(tree_dir, "index-budget", "descriptions", "frontmatter")
    assert {"over-budget", "invisible-entry", "long-hook", "cut-description"}.isdisjoint(
        f.code for f in after
    )


def test_index_budget_an_invisible_entry_names_its_file_however_long_its_title(
    tree_dir: Path,
) -> None:
    title = "A title that goes on " * 8
    index = "# Index\n" + entries(199) + f"- [{title}](deep/the_hidden_one.md) — about it\n"
    write_tree(tree_dir, {"MEMORY.md": index})
    [invisible] = [f for f in findings(tree_dir, "index-budget") if f.code == "invisible-entry"]
    assert invisible.line == 201
    assert "`deep/the_hidden_one.md`" in invisible.message


def test_index_budget_counts_characters_not_bytes_and_cuts_at_the_last_newline(
    tree_dir: Path,
) -> None:
    hook = "x" * 200 + " the rest of a long but valid hook"
    text = "# Index\n" + entries(101, hook=hook)
    write_tree(tree_dir, {"MEMORY.md": text})
    assert 26_000 <= len(text.encode()) < 28_000  # bytes: the em dashes count 3 each
    assert len(text) > 25_000
    first_hidden = text[: text.rfind("\n", 0, 25_001)].count("\n") + 2
    found = findings(tree_dir, "index-budget")
    [invisible] = [f for f in found if f.code == "invisible-entry"]
    assert invisible.line == first_hidden
    assert invisible.fix is not None
    assert invisible.fix["lines"] == list(range(first_hidden, 103))
    assert f"past the cut-off (from line {first_hidden} on)" in invisible.message
    assert "25,000 characters" in found[0].message


def test_index_budget_one_huge_line_is_cut_mid_line(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "- [A](a.md) — " + "y" * 100_000 + "\n- [B](b.md) — b\n"})
    found = findings(tree_dir, "index-budget")
    [invisible] = [f for f in found if f.code == "invisible-entry"]
    assert invisible.line == 1
    assert invisible.fix is not None
    assert invisible.fix["lines"] == [1, 2]
    assert "the first cut off mid-line, from line 1 on" in invisible.message


def test_index_budget_cjk_index_under_25000_characters_is_not_cut(tree_dir: Path) -> None:
    hook = "日本語のメモを読む" * 20  # 180 characters, 540 bytes
    write_tree(tree_dir, {"MEMORY.md": "# 索引\n" + entries(60, hook=hook)})
    found = findings(tree_dir, "index-budget")
    assert "over-budget" not in [f.code for f in found]  # 33 KB on disk, 11,5xx characters


def test_index_budget_warns_before_the_limit(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "# Index\n" + entries(160)})
    assert codes(findings(tree_dir, "index-budget")) == [("near-budget", "MEMORY.md", None)]


def test_index_budget_inline_content_rules_long_hooks_and_several_links(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n\nThis project bills merchants monthly. Invoices are\nimmutable once sent.\n\n"
            "## Rules\n- Always run `make lint` before pushing.\nNever deploy on Fridays.\n\n"
            "```sh\nmake deploy\n```\n"
            f"- [A](a.md) — {'a very long hook ' * 12}\n- [B](b.md) and [C](c.md) — both\n",
            "a.md": memory("a"),
            "b.md": memory("b"),
            "c.md": memory("c"),
        },
    )
    assert codes(findings(tree_dir, "index-budget", options=ANY_SIZE)) == [
        ("inline-content", "MEMORY.md", 3),
        ("rule-in-index", "MEMORY.md", 7),
        ("rule-in-index", "MEMORY.md", 8),
        ("inline-content", "MEMORY.md", 10),
        ("long-hook", "MEMORY.md", 13),
        ("several-links", "MEMORY.md", 14),
    ]
    # by default an index this small costs a session little: its rules alone are findings
    assert [code for code, _, _ in codes(findings(tree_dir, "index-budget"))] == [
        "rule-in-index",
        "rule-in-index",
        "several-links",
    ]


def test_a_long_hook_is_a_finding_only_in_an_index_whose_size_it_costs(tree_dir: Path) -> None:
    # An index of a few kilobytes loads whole whatever its hooks' length: judged false on
    # every such index; in one of 10,000 characters or more, long hooks cost a session.
    long = "a hook that goes on and on about the file " * 5
    files = {f"n{i:02}.md": memory(f"n{i:02}") for i in range(50)}
    small = "# Index\n" + "".join(f"- [N{i}](n{i:02}.md) — {long}\n" for i in range(20))
    write_tree(tree_dir, {"MEMORY.md": small, **files})
    assert "long-hook" not in [f.code for f in findings(tree_dir, "index-budget")]
    large = "# Index\n" + "".join(f"- [N{i}](n{i:02}.md) — {long}\n" for i in range(50))
    write_tree(tree_dir, {"MEMORY.md": large, **files})
    assert "long-hook" in [f.code for f in findings(tree_dir, "index-budget")]
    # the bound itself: an index of 9,999 characters holds no finding, one of 10,000 does
    head = f"# Index\n- [N0](n00.md) — {long}\n"
    for size, expected in ((9_999, False), (10_000, True)):
        lines = (size - len(head) - 100) // 94  # 94 characters a filler line
        filler = "".join(f"- note {n:04}: {'y' * 80}\n" for n in range(lines))
        text = head + filler
        text += "- " + "z" * (size - len(text) - 2)  # the last line, to the exact size
        assert len(text) == size
        write_tree(tree_dir, {"MEMORY.md": text, **files})
        found = [f.code for f in findings(tree_dir, "index-budget")]
        assert ("long-hook" in found) is expected, size
        # the filler notes are content kept in the index: the same bound
        assert ("inline-content" in found) is expected, size


def test_several_links_counts_only_memories_no_other_line_points_at(tree_dir: Path) -> None:
    # a cross-reference to a memory indexed on its own line, a wikilink by name and a
    # project document out of the folder want no pointer line; a second memory does
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n"
            "- [A](a.md) — the retry gate. Voir [b.md](b.md)\n"
            "- [B](b.md) — the batch window\n"
            "- [C](c.md) — the cutover → voir [[a]]; plan in [doc](../../docs/plan.md)\n"
            "- [D](d.md) and [E](e.md) — both, see [E](e.md) and [setup](d.md#setup)\n"
            "- [F](f.md) — diagram [png](arch.png), [script](x.sh), [index](MEMORY.md)\n",
            **{f"{n}.md": memory(n) for n in "abcdef"},
        },
    )
    [finding] = findings(tree_dir, "index-budget")
    assert (finding.code, finding.line, finding.level) == ("several-links", 5, "suggestion")
    assert "`d.md`, `e.md`" in finding.message


def test_several_links_are_not_split_in_an_index_already_cut(tree_dir: Path) -> None:
    # Past Claude Code's cut-off, a line per file would hide more entries, not fewer.
    filler = "".join(f"- [Note {n}](n{n}.md) — when note {n} helps\n" for n in range(205))
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [D](d.md) and [E](e.md) — both halves of the cutover\n"
            + filler,
            **{f"{n}.md": memory(n) for n in "de"},
            **{f"n{n}.md": memory(f"n{n}") for n in range(205)},
        },
    )
    assert "several-links" not in [f.code for f in findings(tree_dir, "index-budget")]
    assert "over-budget" in [f.code for f in findings(tree_dir, "index-budget")]


def test_an_index_kept_as_a_table_or_under_a_long_comment_is_no_inline_content(
    tree_dir: Path,
) -> None:
    # The table is the index (its header and rule too, by link or by a file's name), and a
    # comment's lines are the comment's: moving either out would break it or lose the index.
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n"
            "<!-- One line per file: - [Title](file.md) — hook.\n"
            "     Details live in the topic files. -->\n\n"
            "| File | Name | What |\n|---|---|---|\n"
            "| `a.md` | a | the retry gate and when it trips |\n"
            "| `b.md` | b | the batch window for nightly jobs |\n\n"
            "| Link | What |\n|------|------|\n"
            "| [c.md](./c.md) | the cutover plan and its dates |\n\n"
            "| Port | Service |\n|---|---|\n| 8080 | api |\n| 9090 | see `a.md` |\n"
            "| 5432 | db |\n\n"
            "| File | What |\n|---|---|\n| **deploy_steps.md** | the deploy steps |\n",
            **{f"{n}.md": memory(n) for n in ("a", "b", "c", "deploy_steps")},
        },
    )
    inline = [
        f
        for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
        if f.code == "inline-content"
    ]
    # A table of other things that names a memory once is content still.
    assert [(f.line, f.message.split(":")[0]) for f in inline] == [(14, "lines 14–18")]


def test_index_budget_pointer_only_index_is_clean(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": "# Index\n\n## Group\n" + entries(40) + "<!-- generated -->\n"}
    )
    assert findings(tree_dir, "index-budget") == []


def test_index_budget_many_long_hooks_are_one_finding_naming_their_lines(tree_dir: Path) -> None:
    long = "a hook that goes on and on about the file " * 5
    files = {f"n{i:02}.md": memory(f"n{i:02}") for i in range(50)}
    text = "# Index\n" + "".join(f"- [N{i}](n{i:02}.md) — {long}\n" for i in range(50))
    write_tree(tree_dir, {"MEMORY.md": text, **files})
    [finding] = findings(tree_dir, "index-budget")
    assert (finding.code, finding.line) == ("long-hook", 2)
    assert finding.message.startswith("50 hooks are over 150 characters: lines 2, 3, 4,")
    assert finding.message.endswith("and 38 more")
    assert len(finding.related) == 49


def test_index_budget_inline_content_is_a_suggestion_the_cut_s_problems_are_its_own(
    tree_dir: Path,
) -> None:
    preamble = "# Index\n\nThis folder keeps what the sessions learned.\nKept by hand.\n\n"
    write_tree(tree_dir, {"MEMORY.md": preamble + entries(20)})
    [small] = findings(tree_dir, "index-budget", options=ANY_SIZE)
    assert (small.code, small.level) == ("inline-content", "suggestion")
    # near the limit, near-budget is the one problem of that cause (its fix names inline
    # content); inline content kept on purpose (an agent's conventions) stays a suggestion
    write_tree(tree_dir, {"MEMORY.md": preamble + entries(160)})
    near = {f.code: f.level for f in findings(tree_dir, "index-budget", options=ANY_SIZE)}
    assert near == {"near-budget": "problem", "inline-content": "suggestion"}
    # past the cut, over-budget and invisible-entry are the problems of that cause; where to
    # cut a cut index's notes into topic files stays a person's call (its fix right in 3 of
    # 6 blind verdicts on held-out agents' stores, rounds 105-106): a suggestion
    write_tree(tree_dir, {"MEMORY.md": preamble + entries(210)})
    over = {f.code: f.level for f in findings(tree_dir, "index-budget", options=ANY_SIZE)}
    assert over == {
        "over-budget": "problem",
        "invisible-entry": "problem",
        "inline-content": "suggestion",
    }


def test_an_index_written_as_notes_is_one_finding_per_code_not_a_flood(tree_dir: Path) -> None:
    # Six paragraphs between headings and five rules: the index is kept that way on
    # purpose; one decision each, not eleven questions.
    sections = "".join(
        f"## Topic {i}\nSome knowledge about topic {i}.\nMore of it.\n- Always check {i} first.\n"
        for i in range(5)
    )
    text = "# Index\n\n" + sections + "## Last\nA closing note.\n" + entries(160)
    write_tree(tree_dir, {"MEMORY.md": text})
    found = {f.code: f for f in findings(tree_dir, "index-budget", options=ANY_SIZE)}
    assert sorted(found) == ["inline-content", "near-budget", "rule-in-index"]
    inline, rules = found["inline-content"], found["rule-in-index"]
    assert inline.message == (
        "11 lines of inline content, not pointers, in 6 blocks: lines 4–5, 8–9, 12–13,"
        " 16–17, 20–21, 24"
    )
    assert (inline.line, inline.level) == (4, "suggestion")  # near the limit, not past it
    assert inline.fix is not None
    assert inline.fix["ranges"] == [[4, 5], [8, 9], [12, 13], [16, 17], [20, 21], [24, 24]]
    assert rules.message == (
        '5 behavioural rules in the index: lines 6, 10, 14, 18, 22 (the first: "Always check'
        ' 0 first.")'
    )
    # Project rules first: a project's rule moved to ~/.claude/rules would load everywhere.
    assert rules.suggestion is not None
    assert rules.suggestion.startswith("move them to the project's .claude/rules/<topic>.md")


def test_moving_inline_content_takes_the_headings_it_leaves_empty(tree_dir: Path) -> None:
    # Sections that hold nothing but knowledge move whole, their headings with them: the
    # index is left with no heading over nothing. A section with pointers keeps its
    # heading (only its paragraph moves), and so does the index's own title.
    text = (
        "# Index\nInvoices lock once sent.\n\n"
        "## Build\nMake builds it.\nCI runs on main.\n\n"
        "## Deploy\n\nTag, then push.\n\n"
        "## Notes\nSome prose first.\n" + entries(3) + "### Old\nThe last of the knowledge.\n"
    )
    write_tree(tree_dir, {"MEMORY.md": text})
    [inline] = [
        f
        for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
        if f.code == "inline-content"
    ]
    assert inline.fix is not None
    # the message still counts the knowledge; the fix's ranges take the emptied headings
    assert inline.message.startswith("6 lines of inline content, not pointers, in 5 blocks:")
    assert inline.fix["ranges"] == [[2, 2], [4, 6], [8, 10], [13, 13], [17, 18]]
    action = actions(Scanner(bundled_rules(), b"salt"))["move-to-topic"]
    action.build(Tree.open(tree_dir), inline.fix, answers_for(action, inline.fix)).apply()
    kept = (tree_dir / "MEMORY.md").read_text().splitlines()
    assert kept[0] == "# Index"
    assert [line for line in kept if line.startswith("#")] == ["# Index", "## Notes"]
    assert sum(line.startswith("- [Note ") for line in kept) == 3
    topic = (tree_dir / TOPIC_NAME).read_text()
    assert all(h in topic for h in ("## Build", "## Deploy", "### Old", "Tag, then push."))


def inline_fix_span(tree_dir: Path, text: str) -> tuple[int, int]:
    write_tree(tree_dir, {"MEMORY.md": text})
    [inline] = [
        f
        for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
        if f.code == "inline-content"
    ]
    assert inline.fix is not None
    return inline.fix["first"], inline.fix["last"]


def test_a_heading_that_is_a_way_to_a_file_or_the_title_stays_where_it_is(
    tree_dir: Path,
) -> None:
    pointers = "- [Note 0](n0.md) — a\n- [Note 1](n1.md) — b\n"
    # a heading that links to or names a memory is a way to it: the index keeps it
    for heading in ("## [Build notes](n2.md)", "## `n2.md`", "## [[n2]]"):
        text = f"# Index\n{pointers}{heading}\nMake builds it.\n"
        assert inline_fix_span(tree_dir, text) == (5, 5), heading
    # the index's title, whatever its level, stays
    text = "## Memory index\nInvoices lock once sent.\n\n## Build\n" + pointers
    assert inline_fix_span(tree_dir, text) == (2, 2)
    # a child heading that is all its parent holds takes the parent along
    text = f"# Index\n{pointers}## Parent\n### Child\nKnowledge.\n"
    assert inline_fix_span(tree_dir, text) == (4, 6)


def test_a_few_rules_and_blocks_keep_a_finding_each(tree_dir: Path) -> None:
    text = "# Index\nA note.\n- Always check a.\n\n## B\nB note.\n- Never skip b.\n" + entries(3)
    write_tree(tree_dir, {"MEMORY.md": text})
    assert codes(findings(tree_dir, "index-budget", options=ANY_SIZE)) == [
        ("inline-content", "MEMORY.md", 2),
        ("rule-in-index", "MEMORY.md", 3),
        ("inline-content", "MEMORY.md", 6),
        ("rule-in-index", "MEMORY.md", 7),
    ]


# The project loads its index itself (issue #25): a 300-line index, a CLAUDE.md that loads it.


def project_with_index(tmp_path: Path, tree: str, instructions: dict[str, str]) -> list[Finding]:
    """A project holding ``instructions`` and a 300-line index in its folder ``tree``."""
    project = tmp_path / "project"
    write_tree(project, instructions)
    write_tree(project / tree, {"MEMORY.md": "# Index\n" + entries(299)})
    location = ProjectLocation("-project", project, None)
    return findings(project / tree, "index-budget", location=location)


def budget_codes(found: list[Finding]) -> list[str]:
    return sorted({f.code for f in found if f.code in ("over-budget", "invisible-entry")})


def test_index_budget_an_index_imported_by_claude_md_hides_nothing(tmp_path: Path) -> None:
    claude = "# Project\n\nMemory index:\n@.claude/memory/MEMORY.md\n"
    found = project_with_index(tmp_path, ".claude/memory", {"CLAUDE.md": claude})
    assert budget_codes(found) == []


def test_index_budget_an_import_in_code_is_no_import(tmp_path: Path) -> None:
    fenced = "# Project\n\n```\n@.claude/memory/MEMORY.md\n```\n"
    span = "# Project\n\nWrite `@.claude/memory/MEMORY.md` to import it.\n"
    prose = "# Project\n\nThe index: @.claude/memory/MEMORY.md (in full).\n"
    cut = ["invisible-entry", "over-budget"]
    for claude, expected in ((fenced, cut), (span, cut), (prose, [])):
        found = project_with_index(tmp_path, ".claude/memory", {"CLAUDE.md": claude})
        assert budget_codes(found) == expected, claude


def test_index_budget_an_import_resolves_from_the_importing_file(tmp_path: Path) -> None:
    chained = {
        "CLAUDE.md": "See @docs/context.md for context.\n",
        "docs/context.md": "# Context\n@../notes/memory/MEMORY.md\n",
    }
    assert budget_codes(project_with_index(tmp_path, "notes/memory", chained)) == []
    # from the project root instead of docs/, the same path leads nowhere
    wrong = {"CLAUDE.md": "See @docs/context.md.\n", "docs/context.md": "@notes/memory/MEMORY.md\n"}
    found = project_with_index(tmp_path, "notes/memory", wrong)
    assert budget_codes(found) == ["invisible-entry", "over-budget"]


def test_index_budget_imports_are_followed_five_files_deep(tmp_path: Path) -> None:
    def chain(hops: int) -> dict[str, str]:
        files = {"CLAUDE.md": "@d1.md\n"}
        files |= {f"d{i}.md": f"@d{i + 1}.md\n" for i in range(1, hops)}
        files[f"d{hops}.md"] = "@mem/MEMORY.md\n"
        return files

    assert budget_codes(project_with_index(tmp_path / "a", "mem", chain(4))) == []
    found = project_with_index(tmp_path / "b", "mem", chain(5))
    assert budget_codes(found) == ["invisible-entry", "over-budget"]


def test_index_budget_a_large_imported_index_is_one_suggestion_naming_its_loader(
    tmp_path: Path,
) -> None:
    claude = "# Project\n\n@.claude/memory/MEMORY.md\n"
    project = tmp_path / "project"
    write_tree(project, {"CLAUDE.md": claude})
    long_hook = "notes about it, " * 10
    write_tree(
        project / ".claude/memory", {"MEMORY.md": "# Index\n" + entries(299, hook=long_hook)}
    )
    location = ProjectLocation("-project", project, None)
    found = findings(project / ".claude/memory", "index-budget", location=location)
    [near] = [f for f in found if f.code in ("near-budget", "over-budget", "invisible-entry")]
    assert near.code == "near-budget"
    assert near.level == "suggestion"
    assert "CLAUDE.md (line 3) imports it" in near.message


def test_index_budget_an_instruction_to_read_the_index_hides_nothing(tmp_path: Path) -> None:
    english = "# Project\n\n> Read `.claude/MEMORY.md` at the start of every session.\n"
    chinese = "# 專案\n\n> 偏好記錄在 `.claude/MEMORY.md`，每次開始前先讀一遍。\n"
    russian = "# Проект\n\nПрочитай `.claude/MEMORY.md` в начале сессии.\n"
    vietnamese = "# Dự án\n\nHãy đọc .claude/MEMORY.md khi bắt đầu.\n"
    for claude in (english, chinese, russian, vietnamese):
        found = project_with_index(tmp_path, ".claude", {"CLAUDE.md": claude})
        assert budget_codes(found) == [], claude


def test_index_budget_an_instruction_must_name_this_index_and_say_read(tmp_path: Path) -> None:
    cut = ["invisible-entry", "over-budget"]
    cases: tuple[tuple[str, list[str]], ...] = (
        ("Read `.claude/MEMORY.md` at the start of every session.\n", cut),  # another index
        ("The index is `.claude/memory/MEMORY.md`.\n", cut),  # no reading verb
        ("Load .claude/memory/MEMORY.md first.\n", []),
    )
    for claude, expected in cases:
        found = project_with_index(tmp_path, ".claude/memory", {"CLAUDE.md": claude})
        assert budget_codes(found) == expected, claude


def test_index_budget_the_read_tool_holds_2000_lines_an_import_all(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_tree(project / "mem", {"MEMORY.md": "# Index\n" + entries(2000)})
    location = ProjectLocation("-project", project, None)
    cut = ["invisible-entry", "over-budget"]
    for claude, expected in (("Read mem/MEMORY.md first.\n", cut), ("@mem/MEMORY.md\n", [])):
        write_tree(project, {"CLAUDE.md": claude})
        found = findings(project / "mem", "index-budget", location=location)
        assert budget_codes(found) == expected, claude


def test_index_budget_an_index_cut_in_its_prose_says_how_many_lines_it_loses(
    tmp_path: Path,
) -> None:
    # Past line 200 only notes, no entries: "0 entries are never seen" read as nothing lost.
    text = index("a.md") + "".join(
        f"note {i}: the deploy runs on port 80{i % 10}\n" for i in range(206)
    )
    found = findings(write_tree(tmp_path / "memory", {"MEMORY.md": text}), "index-budget")
    [over] = [f for f in found if f.code == "over-budget"]
    assert (
        "its last 8 lines, from line 201 on, are never seen (no entry among them)" in over.message
    )


# The index tells sessions to read itself first (issue #25): its own line loads it.

READ_ITSELF_CHINESE = "> 约定：每个新会话开始时请先读本文件，然后再写代码。\n"
READ_ITSELF_ENGLISH = "> Read this file in full at the start of every session, before any change.\n"


def index_saying(line: str, at: int = 2, count: int = 299, hook: str = "notes") -> str:
    """A ``count + 1``-line index with inline notes, holding ``line`` at line ``at``."""
    lines = ["# Index\n", "A note kept inline.\n", *entries(count - 1, hook=hook).splitlines(True)]
    lines.insert(at - 1, line)
    return "".join(lines)


def test_index_budget_an_index_telling_sessions_to_read_itself_first_hides_nothing(
    tree_dir: Path,
) -> None:
    then_another = "Read this file when each session starts, then read `notes/todo.md`.\n"
    for line in (READ_ITSELF_CHINESE, READ_ITSELF_ENGLISH, then_another):
        write_tree(tree_dir, {"MEMORY.md": index_saying(line)})
        found = findings(tree_dir, "index-budget", options=ANY_SIZE)
        assert budget_codes(found) == [], line
        assert {f.level for f in found if f.code == "inline-content"} == {"suggestion"}, line


def test_index_budget_an_index_that_only_speaks_of_itself_is_still_cut(tree_dir: Path) -> None:
    near_misses = (
        "Keep this file short; read topic files at the start of a session.\n",
        "MEMORY.md is the index of this project's notes, kept by hand every session.\n",
        "This file is read at the start of every session.\n",  # auto memory, described
        "Claude loads this file automatically at the start of every new session.\n",
        "- [Startup](startup.md) — read this file at the start of every session\n",
        "Read `startup.md` at the start of every session: this file only lists notes.\n",
        "Read this file when you debug the deploy.\n",  # not before working
        "Keep this file lean at the start of every session.\n",
        "Claude will load this file at the start of every session.\n",
        "Do not read this file at the start of every session; open what you need.\n",
        "Read docs/MEMORY.md at the start of every session.\n",  # another index
        "本文件在每次会话开始时被读取，请保持简短。\n",  # passive: a description
        "每个新会话开始时请先读 `startup.md`，本文件只列索引。\n",
        # the budget described: lines "load", after the file named (no one told to read)
        "Keep this file short: only the first 200 lines load at session start.\n",
        "Only the first 200 lines of MEMORY.md load at the start of each session.\n",
    )
    for line in near_misses:
        write_tree(tree_dir, {"MEMORY.md": index_saying(line)})
        found = findings(tree_dir, "index-budget")
        assert budget_codes(found) == ["invisible-entry", "over-budget"], line


def test_index_budget_its_own_instruction_counts_only_where_a_session_sees_it(
    tree_dir: Path,
) -> None:
    cut = ["invisible-entry", "over-budget"]
    past_the_cut = index_saying(READ_ITSELF_ENGLISH, at=250)
    # the Read tool returns 2,000 lines: the rest of a longer index is still never read
    past_the_read_tool = index_saying(READ_ITSELF_ENGLISH, count=2_000)
    in_a_comment = index_saying(f"<!-- {READ_ITSELF_ENGLISH.strip()} -->\n")
    for text in (past_the_cut, past_the_read_tool, in_a_comment):
        write_tree(tree_dir, {"MEMORY.md": text})
        assert budget_codes(findings(tree_dir, "index-budget")) == cut


def test_index_budget_a_large_index_reading_itself_is_a_suggestion_naming_its_line(
    tree_dir: Path,
) -> None:
    text = index_saying(READ_ITSELF_ENGLISH, at=3, hook="notes about it, " * 10)
    write_tree(tree_dir, {"MEMORY.md": "---\nname: index\n---\n" + text})
    found = findings(tree_dir, "index-budget")
    [near] = [f for f in found if f.code in ("near-budget", "over-budget", "invisible-entry")]
    assert near.code == "near-budget"
    assert near.level == "suggestion"
    assert "its own line 6 tells sessions to read it first" in near.message  # file line


def test_an_openclaw_agents_workspace_gets_the_cut_as_a_suggestion(tree_dir: Path) -> None:
    # its agent injects MEMORY.md by its own rules; Claude Code's cut is worth a look only
    # if Claude Code loads the folder too
    index_text = "# Long-term memory\n" + entries(229)
    write_tree(tree_dir, {"MEMORY.md": index_text})
    assert {(f.code, f.level) for f in findings(tree_dir, "index-budget")} >= {
        ("over-budget", "problem"),
        ("invisible-entry", "problem"),
    }
    write_tree(tree_dir, {"SOUL.md": "# Soul\ncalm\n", "IDENTITY.md": "# Identity\nKit\n"})
    found = {f.code: f for f in findings(tree_dir, "index-budget")}
    assert (found["over-budget"].level, found["invisible-entry"].level) == (
        "suggestion",
        "suggestion",
    )
    assert found["over-budget"].message.endswith(
        "(this folder is an OpenClaw agent's workspace (SOUL.md, IDENTITY.md), whose agent"
        " loads it)"
    )
    assert found["over-budget"].suggestion is not None
    assert found["over-budget"].suggestion.startswith(
        "if Claude Code loads this folder as its memory: move inline content"
    )
    # one persona-free pair of common names is no workspace
    write_tree(tree_dir / "plain", {"MEMORY.md": index_text, "USER.md": "u\n", "TOOLS.md": "t\n"})
    levels = {
        f.level for f in findings(tree_dir / "plain", "index-budget") if f.code == "over-budget"
    }
    assert levels == {"problem"}


def test_an_openclaw_workspace_s_memory_folder_gets_the_cut_as_a_suggestion(
    tmp_path: Path, isolated_home: Path
) -> None:
    # <workspace>/memory/ is that agent's own folder (daily logs, notes, sometimes a
    # MEMORY.md of its own): the same agent searches it, Claude Code does not load it
    index_text = "# Long-term memory\n" + entries(229)
    workspace = tmp_path / "ws"
    write_tree(workspace, {"SOUL.md": "# Soul\ncalm\n", "AGENTS.md": "# Agents\n"})
    write_tree(workspace / "memory", {"MEMORY.md": index_text})
    found = {f.code: f for f in findings(workspace / "memory", "index-budget")}
    assert found["over-budget"].level == "suggestion"
    assert "(this folder is the memory folder of an OpenClaw agent's workspace (SOUL.md," in (
        found["over-budget"].message
    )
    # a folder of another name there, or a memory folder beside two common names only, is
    # judged as any folder is
    write_tree(workspace / "notes", {"MEMORY.md": index_text})
    plain = tmp_path / "plain"
    write_tree(plain, {"USER.md": "u\n", "TOOLS.md": "t\n"})
    write_tree(plain / "memory", {"MEMORY.md": index_text})
    for tree in (workspace / "notes", plain / "memory"):
        levels = {f.level for f in findings(tree, "index-budget") if f.code == "over-budget"}
        assert levels == {"problem"}


def test_an_entry_past_the_cut_whose_file_is_linked_above_it_is_not_invisible(
    tree_dir: Path,
) -> None:
    text = "# Index\n" + entries(229) + "- [Note 5, again](n5.md) — its second pointer\n"
    write_tree(tree_dir, {"MEMORY.md": text, "n5.md": memory("n5"), "n220.md": memory("n220")})
    found = findings(tree_dir, "index-budget")
    [over] = [f for f in found if f.code == "over-budget"]
    assert "30 entries from line 201 on are never seen" in over.message
    [invisible] = [f for f in found if f.code == "invisible-entry"]
    assert "n5.md" not in invisible.related
    assert invisible.fix is not None
    assert 231 not in invisible.fix["lines"]  # the second pointer to n5.md stays put
    assert "n220.md" in invisible.related


def test_an_item_with_its_pointer_nested_and_a_wrapped_hook_are_entries_not_inline_content(
    tree_dir: Path,
) -> None:
    # "- Sprint 31 done" with "  - See: [plan](sprint31.md)" under it: the item is the
    # pointer's description. Moved out as inline content, it would leave the pointer behind,
    # described by nothing; the notes beside the entries are still inline content.
    text = (
        "# Lead memory\n\n## State\n"
        "- Sprint 30 COMPLETE: v0.25, 2024 tests\n"
        "  - See: [sprint 30 plan](s30.md)\n"
        "  - Plan: docs/specs/sprint-30.md\n"
        "- Sprint 31 PLANNED: login v2\n"
        "  - See: [sprint 31 plan](s31.md)\n\n"
        "## Notes\nThe staging database resets on Sundays.\nDeploys go out on Tuesdays.\n"
        "- Standard queue, not FIFO: idempotent writes\n"
        "  - See: `/docs/research/queues.md`\n\n"
        "## Topics\n"
        "- [Deploys](s30.md) — how a release goes out, the checks before it,\n"
        "  the rollback and who signs it off\n"
    )
    write_tree(tree_dir, {"MEMORY.md": text, "s30.md": memory("s30"), "s31.md": memory("s31")})
    [inline] = [
        f
        for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
        if f.code == "inline-content"
    ]
    # the notes and the decision citing a project document (no memory of the tree) are
    # knowledge written into the index; a pointer's hook wrapped onto a second line is not
    assert inline.message == "lines 11–14: 4 line(s) of inline content, not pointers"
    assert inline.fix is not None
    # the "## Notes" heading above them holds nothing else: it moves with them
    assert (inline.fix["first"], inline.fix["last"]) == (10, 14)


def test_a_plain_text_index_s_names_and_their_wrapped_hooks_are_pointers(tree_dir: Path) -> None:
    # "Files:" with one name a line and its hook wrapped onto indented lines: the whole list
    # is the index, its lead-in too, none of it content to move; a note at the name's own
    # depth still is.
    text = (
        "# Index\n\nFiles:\n"
        "  status.md        — current phase, locked values,\n"
        "                     next pickup point\n"
        "  reward-design.md — terminal reward decision\n"
        "                     and its rationale\n"
        "  Results are rounded to two places.\n"
    )
    write_tree(
        tree_dir,
        {
            "MEMORY.md": text,
            "status.md": memory("status"),
            "reward-design.md": memory("reward-design"),
        },
    )
    found = findings(tree_dir, "index-budget", "orphans", options=ANY_SIZE)
    assert [f.message for f in found if f.code == "inline-content"] == [
        "line 8: 1 line(s) of inline content, not pointers",
    ]
    assert [f for f in found if f.code == "orphan-candidate"] == []


def test_a_line_past_the_cut_sending_to_a_project_document_hides_no_memory(
    tmp_path: Path,
) -> None:
    # "See `frontend/README.md`" past the cut points at the project's own document, no
    # memory: moving that line under a pointer of its own recovers nothing
    repo = tmp_path / "repo"
    (repo / "frontend").mkdir(parents=True)
    (repo / "frontend" / "README.md").write_text("# Frontend\n")
    text = "# Index\n" + entries(210) + "See `frontend/README.md` for the build.\n"
    store = write_tree(repo / "memory", {"MEMORY.md": text, "n205.md": memory("n205")})
    found = findings(store, "index-budget", location=ProjectLocation("-repo", repo, None))
    [invisible] = [f for f in found if f.code == "invisible-entry"]
    assert "n205.md" in invisible.related
    assert "frontend/README.md" not in invisible.related
    assert invisible.fix is not None
    assert 212 not in invisible.fix["lines"]


def test_a_file_named_anywhere_in_the_loaded_lines_is_seen_there(tree_dir: Path) -> None:
    # "See: `a.md`, `b.md`" names every file of its list, not only the first; a link in a
    # sentence names its file too. A session reads those lines, so those files are seen.
    text = (
        "# Index\n> Notes live in topic files. See: `n210.md`, `n211.md`, `n212.md`\n"
        "Background in [the setup note](n213.md), read first.\n" + entries(229)
    )
    notes = {f"n{n}.md": memory(f"n{n}") for n in (210, 211, 212, 213, 220)}
    write_tree(tree_dir, {"MEMORY.md": text, **notes})
    [invisible] = [f for f in findings(tree_dir, "index-budget") if f.code == "invisible-entry"]
    assert "n220.md" in invisible.related
    assert not {"n210.md", "n211.md", "n212.md", "n213.md"} & set(invisible.related)


def test_a_repository_copys_cut_is_a_suggestion_and_claude_codes_own_folder_a_problem(
    tmp_path: Path, isolated_home: Path
) -> None:
    # whether a session loads a repository's copy with the cut is what the folder cannot
    # tell (measured: a status page, a session log read in full); Claude Code's own folder
    # is loaded so, always
    index_text = "# Long-term memory\n" + entries(229)
    repo = tmp_path / "repo"
    copy = write_tree(repo / "memory", {"MEMORY.md": index_text})
    found = {
        f.code: f
        for f in findings(copy, "index-budget", location=ProjectLocation("-repo", repo, None))
    }
    assert (found["over-budget"].level, found["invisible-entry"].level) == (
        "suggestion",
        "suggestion",
    )
    assert found["over-budget"].message.endswith(
        "(if a session loads this repository's copy as auto memory)"
    )
    own = write_tree(isolated_home / ".claude/projects/-work-p/memory", {"MEMORY.md": index_text})
    levels = {f.code: f.level for f in findings(own, "index-budget")}
    assert (levels["over-budget"], levels["invisible-entry"]) == ("problem", "problem")


AGENT_FILE = (
    "---\nname: {name}\ndescription: Reviews diffs\nmemory: {scope}\n---\nYou review code.\n"
)


def reviewer_store(tmp_path: Path) -> tuple[Path, ProjectLocation, Path]:
    """A project's code-reviewer store whose index runs past the cut, its location, and
    the project's (empty) agents folder."""
    repo = tmp_path / "repo"
    index_text = "# Reviewer memory\n" + entries(229)
    store = write_tree(repo / ".claude/agent-memory/code-reviewer", {"MEMORY.md": index_text})
    location = ProjectLocation("-repo", repo, None, AgentStore("code-reviewer", "project"))
    return store, location, repo / ".claude/agents"


def test_an_agents_store_its_agent_declares_is_loaded_with_the_cut_and_its_budget_a_problem(
    tmp_path: Path,
) -> None:
    # Claude Code loads a project-scope agent store (.claude/agent-memory/<agent>/) at each
    # of the agent's starts, the first 200 lines of its index in the agent's prompt, when
    # the agent's file says `memory: project`: though the repository holds it, it is live.
    store, location, agents = reviewer_store(tmp_path)

    def levels() -> tuple[str | None, str | None, bool]:
        found = {f.code: f for f in findings(store, "index-budget", location=location)}
        conditional = "if a session loads" in found["over-budget"].message
        return found["over-budget"].level, found["invisible-entry"].level, conditional

    # no agent file: nothing says anything loads it (a store left behind, a copy)
    assert levels() == ("suggestion", "suggestion", True)
    agents.mkdir(parents=True)
    # an agent of that name keeping user-scope memory, another agent keeping project scope
    (agents / "code-reviewer.md").write_text(AGENT_FILE.format(name="code-reviewer", scope="user"))
    (agents / "planner.md").write_text(AGENT_FILE.format(name="planner", scope="project"))
    (agents / "broken.md").write_text("---\nname: [code-reviewer\nmemory: project\n---\n")
    assert levels() == ("suggestion", "suggestion", True)
    # the agent's file, in a sub-folder, under another file name: its `name` decides
    (agents / "team").mkdir()
    (agents / "team" / "reviewer.md").write_text(
        AGENT_FILE.format(name="code-reviewer", scope="project")
    )
    assert levels() == ("problem", "problem", False)


def test_an_agent_file_that_is_a_pipe_or_a_link_out_declares_nothing_and_waits_for_nothing(
    tmp_path: Path,
) -> None:
    store, location, agents = reviewer_store(tmp_path)
    agents.mkdir(parents=True)
    os.mkfifo(agents / "code-reviewer.md")  # opening it to read would wait for a writer
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "reviewer.md").write_text(AGENT_FILE.format(name="code-reviewer", scope="project"))
    (agents / "linked").symlink_to(outside, target_is_directory=True)
    found = {f.code: f.level for f in findings(store, "index-budget", location=location)}
    assert found["over-budget"] == "suggestion"


def test_several_links_of_a_catalog_are_one_finding(tree_dir: Path) -> None:
    # An index that lists its files three or four to a line does so on purpose: one
    # finding names the lines, not one finding a line.
    catalog = [["e1", "e2", "e3"], ["e4", "e5", "e6", "e7"], ["m1", "m2", "m3"]]
    lines = "".join(
        "- " + " | ".join(f"[{n}.md](exams/{n}.md)" for n in row) + "\n" for row in catalog
    )
    names = [n for row in catalog for n in row]
    write_tree(
        tree_dir,
        {
            "MEMORY.md": "# Index\n- [A](a.md) — the retry gate\n## Exams\n" + lines,
            "a.md": memory("a"),
            **{f"exams/{n}.md": memory(n) for n in names},
        },
    )
    [finding] = [f for f in findings(tree_dir, "index-budget") if f.code == "several-links"]
    assert finding.line == 4
    assert finding.message == (
        "3 index lines point at several files each: lines 4, 5, 6;"
        " 7 files have no line of their own"
    )
    # the files that want a line of their own, each once, as the index names them
    wanting = ("e2", "e3", "e5", "e6", "e7", "m2", "m3")
    assert finding.related == tuple(f"exams/{n}.md" for n in wanting)
    # a file two lines both add is counted once; the key is the same for any count
    lines = "- [A](a.md) and [B](./b.md#setup)\n- [C](c.md) and [B](b.md)\n"
    write_tree(
        tree_dir, {"MEMORY.md": "# Index\n" + lines, "b.md": memory("b"), "c.md": memory("c")}
    )
    [again] = [f for f in findings(tree_dir, "index-budget") if f.code == "several-links"]
    assert again.message.endswith("; 1 file has no line of its own")
    assert again.related == ("b.md",)
    write_tree(tree_dir, {"MEMORY.md": "# Index\n- [A](a.md) and [B](b.md)\n"})
    [one] = [f for f in findings(tree_dir, "index-budget") if f.code == "several-links"]
    assert one.fingerprint == again.fingerprint  # a dismissal holds as lines come and go


def test_a_caption_under_the_title_is_the_index_saying_what_it_is(tree_dir: Path) -> None:
    # A line or two under the title that speaks of the index, its memories or the sessions
    # reading them is no knowledge written into the index; one that holds knowledge is.
    captions = (
        "Indice delle memorie persistenti. Una riga per file.\n",
        "> Claude Code 每次新会话自动加载此目录下的文件。\n",
        "Notes on the Fernhill project, kept across Claude Code sessions.\n",
        "The grounding for the next session that opens Fernhill. One line per memory.\n",
    )
    for caption in captions:
        write_tree(tree_dir, {"MEMORY.md": "# Index\n\n" + caption + "\n" + entries(3)})
        assert "inline-content" not in [
            f.code for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
        ]
    not_captions = (
        "Invoices lock once sent; refunds go through credit notes.\n",  # knowledge
        "Index of memories.\nInvoices lock once sent.\n",  # one line of knowledge
        "Index of memories.\nOne line per file.\nKeep hooks short.\n",  # three lines
        # facts that mention sessions, memory or an index, a status line, a rule, an item
        "Last session (2026-04-12): finished the export; next: refunds.\n",
        "Sessions are stored in Redis with a 24 h TTL.\n",
        "Memory limit on the worker is 512 MB.\n",
        "The search index is rebuilt nightly.\n",
        "会话数据保存在 Redis 中。\n",
        "Claude must never push to main.\n",
        "- Index of memories, one line per file.\n",
    )
    for text in not_captions:
        write_tree(tree_dir, {"MEMORY.md": "# Index\n\n" + text + "\n" + entries(3)})
        found = [
            f
            for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
            if f.code == "inline-content"
        ]
        assert [f.line for f in found] == [3], text
    # a caption with no title above it, or after the first pointer, is inline content still
    write_tree(tree_dir, {"MEMORY.md": "Index of memories.\n\n" + entries(3)})
    assert "inline-content" in [
        f.code for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
    ]
    write_tree(tree_dir, {"MEMORY.md": "# Index\n" + entries(2) + "\nIndex of memories.\n"})
    assert "inline-content" in [
        f.code for f in findings(tree_dir, "index-budget", options=ANY_SIZE)
    ]


def test_inline_content_of_a_small_index_near_its_200_lines_is_still_a_finding(
    tree_dir: Path,
) -> None:
    # 193 short lines and 40 of facts: few characters, but the lines a cut counts
    facts = "".join(f"Fact {n}: the nightly job {n} runs at 0{n % 10}:00.\n" for n in range(40))
    files = {f"n{i:03}.md": memory(f"n{i:03}") for i in range(150)}
    text = (
        "# Index\n\n" + facts + "\n" + "".join(f"- [N{i}](n{i:03}.md) — n{i}\n" for i in range(150))
    )
    write_tree(tree_dir, {"MEMORY.md": text, **files})
    assert len(text.splitlines()) > 150
    assert len(text) < 10_000
    found = [f.code for f in findings(tree_dir, "index-budget")]
    assert "near-budget" in found
    assert "inline-content" in found


def test_an_agents_own_rules_and_knowledge_stay_in_its_index(tmp_path: Path) -> None:
    # an agent's MEMORY.md loads into that agent alone: its "Always ..." lines are its own
    # conventions, and the project's .claude/rules/ would load them into every session;
    # under the budget, the knowledge it keeps inline is what it must always know
    text = (
        "# Reviewer\n\n## Core commitments\n- Always verify line counts before edits.\n"
        "Never include today in the date range.\n\n- [A](a.md) — the house style\n"
        + "\n## Primitives\n"
        + "".join(
            f"Button variant {n} wraps the base primitive with its spacing, colour and focus tokens; never a bare HTML element in its place.\n"
            for n in range(80)
        )
    )
    repo = tmp_path / "repo"
    store = write_tree(
        repo / ".claude/agent-memory/reviewer", {"MEMORY.md": text, "a.md": memory("a")}
    )
    agent = ProjectLocation("-repo", repo, None, AgentStore("reviewer", "project"))
    assert codes(findings(store, "index-budget", location=agent)) == []
    plain = write_tree(tmp_path / "memory", {"MEMORY.md": text, "a.md": memory("a")})
    assert codes(findings(plain, "index-budget")) == [
        ("rule-in-index", "MEMORY.md", 4),
        ("rule-in-index", "MEMORY.md", 5),
        ("inline-content", "MEMORY.md", 10),
    ]


def test_an_agents_rules_move_with_their_section_not_left_under_its_heading(
    tmp_path: Path,
) -> None:
    # An agent's index past the cut, a section of notes with a rule between them: the
    # agent's rules are its own (no finding of their own), so the fix moves the section
    # whole, the rule with it, instead of leaving the heading over that one line.
    section = [
        "## Environment: build notes",
        "",
        "The sandbox has no network access, so the production build cannot fetch its fonts.",
        "",
        "Use `npx tsc --noEmit` to check the types instead.",
        "",
        "If node_modules is missing, run `npm install` first: it works offline from the cache.",
    ]
    text = "# Coder memory\n" + entries(60) + "\n".join(section) + "\n\n## More notes\n"
    text += entries(150, start=60)
    repo = tmp_path / "repo"
    store = write_tree(repo / ".claude/agent-memory/coder", {"MEMORY.md": text})
    agent = ProjectLocation("-repo", repo, None, AgentStore("coder", "project"))
    heading = text.splitlines().index(section[0]) + 1
    found = findings(store, "index-budget", location=agent)
    [inline] = [f for f in found if f.code == "inline-content"]
    assert inline.message.startswith(f"lines {heading + 2}–{heading + 6}: 3 line(s) of inline")
    assert inline.fix == {"action": "move-to-topic", "first": heading, "last": heading + 6}
    assert "rule-in-index" not in {f.code for f in found}


def test_the_fix_keeps_ways_to_memories_and_moves_sections_with_their_closing_rule(
    tree_dir: Path,
) -> None:
    # A cut index of notes: a section closed by a rule moves whole (heading, notes, "---");
    # a sentence naming the only way to a memory stays, and so do a lead-in over pointers
    # and the points a pointer line introduces ("Key points:"), which moved away would be
    # stranded from it.
    text = "\n".join(
        [
            "# Team lead memory",
            "",
            "## Known bug: the reminder loop",
            "",
            *(f"Observation {n}: the reminder keeps firing after compaction." for n in range(90)),
            "",
            "---",
            "",
            "## Records",
            "",
            *(f"Record {n}: a batch finished with its artefacts checked." for n in range(90)),
            "Batch records are in `batch_records.md`.",
            "",
            "## Details",
            "",
            "See the topic files in this folder:",
            "- `fault_tolerance.md` - lost team folders, stopped heartbeats",
            "",
            "See `testing.md` for the full patterns. Key points:",
            "- seed the store with setState, no mocks",
            "- clean up before each suite too",
            "",
        ]
    )
    write_tree(
        tree_dir,
        {
            "MEMORY.md": text,
            **{name: memory(name[:-3]) for name in ("batch_records.md", "fault_tolerance.md")},
            "testing.md": memory("testing"),
        },
    )
    lines = text.split("\n")
    fixes = [f.fix for f in findings(tree_dir, "index-budget") if f.code == "inline-content"]
    spans = [
        span for fix in fixes if fix for span in fix.get("ranges", [[fix["first"], fix["last"]]])
    ]
    moved = {n for first, last in spans for n in range(first, last + 1)}
    assert len(moved) > 150
    rule = lines.index("---") + 1
    assert {3, rule} <= moved  # the first section's heading and its closing rule
    for kept in (
        "Batch records are in `batch_records.md`.",
        "See the topic files in this folder:",
        "- seed the store with setState, no mocks",
        "- clean up before each suite too",
    ):
        assert lines.index(kept) + 1 not in moved, kept
    assert lines.index("## Records") + 1 not in moved  # a way to a memory is under it


def test_one_fix_for_every_block_moves_a_heading_whose_subsections_all_move(
    tree_dir: Path,
) -> None:
    # "## Summary" holds only "### Tasks" and "### Skips", each a block of notes: one fix
    # moves both, so "## Summary" goes too, instead of standing over nothing.
    parts = ["# Team lead memory", ""]
    for section in range(4):
        parts += [f"## Lesson {section}", ""]
        parts += [
            f"Lesson {section} note {n}: the heartbeat is no proof of life." for n in range(40)
        ]
        parts += [""]
    parts += ["## Summary", "", "### Tasks", "", "Assign one model a worker.", ""]
    parts += ["### Skips", "", "A model without weights is skipped.", ""]
    parts += ["## Details", "", "- [Faults](fault_tolerance.md) — lost folders", ""]
    text = "\n".join(parts)
    write_tree(tree_dir, {"MEMORY.md": text, "fault_tolerance.md": memory("fault_tolerance")})
    lines = text.split("\n")
    [inline] = [f for f in findings(tree_dir, "index-budget") if f.code == "inline-content"]
    assert inline.fix is not None
    assert "ranges" in inline.fix
    moved = {n for first, last in inline.fix["ranges"] for n in range(first, last + 1)}
    for heading in ("## Summary", "### Tasks", "### Skips", "## Lesson 0"):
        assert lines.index(heading) + 1 in moved, heading
    assert lines.index("## Details") + 1 not in moved
    assert lines.index("- [Faults](fault_tolerance.md) — lost folders") + 1 not in moved
