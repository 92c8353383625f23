"""MEMORY.md entries and line kinds from the CommonMark token stream."""

from __future__ import annotations

from memory_audit.tree.index_file import Index, LineKind, parse_index


def parse(text: str) -> Index:
    return parse_index(text, len(text.encode()), 0.0, [])


def test_index_entries_with_each_hook_separator_and_headings_between_groups() -> None:
    text = (
        "# Memory\n\n## Work\n- [Deploy](deploy.md) — how we ship\n"
        "- **[Style](style(v2).md)** - tabs\n1. [[team-notes]]: who is who\n\n"
        "## Links\nSee [a](a.md) for more.\n"
    )
    index = parse(text)
    assert [(e.line, e.kind, e.target, e.hook) for e in index.entries] == [
        (4, LineKind.POINTER, "deploy.md", "how we ship"),
        (5, LineKind.POINTER, "style(v2).md", "tabs"),
        (6, LineKind.POINTER, "team-notes", "who is who"),
        (9, LineKind.LINKED_TEXT, "a.md", "for more."),
    ]
    assert index.line_kinds[:3] == (LineKind.HEADING, LineKind.BLANK, LineKind.HEADING)


def test_index_code_comments_and_breaks_are_not_entries() -> None:
    text = (
        "- [A](a.md) — a\n\n---\n\n<!-- [old](old.md) -->\n\n"
        "```\n- [B](b.md)\n```\n\n    - [C](c.md)\n\nUse `- [Title](file.md) — hook`.\n"
    )
    index = parse(text)
    assert [e.target for e in index.entries] == ["a.md"]
    kinds = index.line_kinds
    assert kinds[2] is LineKind.BREAK
    assert kinds[4] is LineKind.COMMENT
    assert kinds[6:9] == (LineKind.CODE,) * 3
    assert kinds[10] is LineKind.CODE
    assert kinds[12] is LineKind.TEXT


def test_index_entry_line_numbers_survive_a_multiline_paragraph() -> None:
    text = "Intro with `code\nspanning` two lines\n- [A](a.md) — a\n  continued\n- [B](b.md)\n"
    assert [(e.line, e.target) for e in parse(text).entries] == [(3, "a.md"), (5, "b.md")]


def test_a_lone_cr_is_inside_its_line_as_claude_code_splits_on_newlines_only() -> None:
    text = "# Index\n- [A](a.md)\r— about a\nplain\r text\n- [B](b.md) — about b\n"
    parsed = parse_index(text, len(text), 0.0, ())
    assert parsed.line_count == 4
    # The third line continues the item (a lazy continuation line): its hook reads on, and
    # the line is the entry's.
    assert [(e.line, e.target, e.hook) for e in parsed.entries] == [
        (2, "a.md", "about a plain text"),
        (4, "b.md", "about b"),
    ]
    assert parsed.line_kinds == (
        LineKind.HEADING,
        LineKind.POINTER,
        LineKind.POINTER,
        LineKind.POINTER,
    )


def test_a_table_row_led_by_a_files_name_points_at_it_with_its_cells_for_hook() -> None:
    text = "# Index\n\n| File | What |\n|---|---|\n| notes.md | the notes | 2026-04 |\n"
    parsed = parse_index(text, len(text), 0.0, ())
    assert [(p.line, p.target, p.hook) for p in parsed.named] == [
        (5, "notes.md", "the notes · 2026-04")
    ]


def test_a_hook_reads_on_only_within_its_list_item_and_up_to_the_next_pointer() -> None:
    text = (
        "# Index\n"
        "[Overview](overview.md) — start here.\nThis project uses Postgres.\n\n"
        "- [Runbook](runbook.md) — the old runbook, see\n"
        "  [the wiki](https://wiki.fern.dev/run) until March\n"
        "- [Deploy](deploy.md) — how staging is promoted,\nwho may approve it\n"
        "  `deploy-checklist.md` — the list\n"
    )
    parsed = parse_index(text, len(text), 0.0, ())
    assert [(e.line, e.hook) for e in parsed.entries] == [
        (2, "start here."),
        (5, "the old runbook, see [the wiki](https://wiki.fern.dev/run) until March"),
        (7, "how staging is promoted, who may approve it"),
    ]
    # Prose after a paragraph's pointer is text; an item's continuation is the entry's.
    assert parsed.line_kinds[2] is LineKind.TEXT
    assert parsed.line_kinds[5] is LineKind.POINTER
    assert parsed.line_kinds[7] is LineKind.POINTER
    assert [(p.line, p.target) for p in parsed.named] == [(9, "deploy-checklist.md")]
