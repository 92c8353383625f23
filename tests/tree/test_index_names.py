"""Index lines that point at a file by its name, not a link: which lines are candidates."""

from __future__ import annotations

from memory_audit.tree.index_file import Index, LineKind, parse_index
from memory_audit.tree.index_names import named_pointers
from memory_audit.tree.markdown import Block


def parse(text: str) -> Index:
    return parse_index(text, len(text.encode()), 0.0, [])


def named(text: str) -> list[tuple[int, str, str]]:
    return [(p.line, p.target, p.hook) for p in parse(text).named]


def test_index_lines_led_by_a_file_name_are_named_pointers_with_their_hooks() -> None:
    text = (
        "# Index\n\n## Deploys\n"
        "- See `deploy-notes.md` — how releases go out\n"
        "- `billing_rules.md` — invoices are immutable\n"
        "- **`team.md`** — who owns what\n"
        "- runbook.md -- what to do at 3 a.m.\n"
        "- See also: `old-plan.md`\n"
        "1. → `queue.md` (addendum) — retry limits\n\n"
        "## Tests\n\nSee `fixtures.md` for the seeding rules.\n"
    )
    assert named(text) == [
        (4, "deploy-notes.md", "how releases go out"),
        (5, "billing_rules.md", "invoices are immutable"),
        (6, "team.md", "who owns what"),
        (7, "runbook.md", "what to do at 3 a.m."),
        (8, "old-plan.md", ""),
        (9, "queue.md", "(addendum) — retry limits"),
        (13, "fixtures.md", "for the seeding rules."),
    ]
    # Still text for the index's own parse: whether the file exists is the snapshot's call.
    assert parse(text).line_kinds[3] is LineKind.TEXT


def test_a_file_named_inside_a_sentence_is_no_pointer() -> None:
    text = (
        "- Read `deploy-notes.md` before every release\n"
        "- Deploys follow runbook.md, not the wiki\n"
        "- `make deploy` — ships the site\n"
        "- CLAUDE.md는 길다\n"
        "- notes.mdの更新\n"
        "- https://example.com/guide.md — an external page\n"
        "- Seed `fixtures.md` first\n"
    )
    assert named(text) == []


def test_a_name_leading_a_wrapped_line_is_prose_unless_a_capital_see_opens_it() -> None:
    # The next line of a wrapped sentence may begin with a name; "See" starts a sentence.
    text = (
        "Invoices are immutable once sent, and the rules for credit notes live in\n"
        "`billing_rules.md` with the tax tables.\n\n"
        "Refunds go through the support queue.\nSee `refunds.md` for the limits.\n\n"
        "- [Deploys](deploy.md) — how releases go out\n  `deploy-checklist.md` — the list\n"
    )
    assert named(text) == [
        (5, "refunds.md", "for the limits."),
        (8, "deploy-checklist.md", "the list"),
    ]


def test_a_plain_text_index_with_wrapped_hooks_points_at_every_dashed_name() -> None:
    # "Files:" then one name a line, its hook wrapped onto an indented line: a dash after
    # the name is the pointer's shape wherever the line is; a wrapped sentence's line led
    # by a name goes on with words.
    text = (
        "Read this file first.\n"
        "Files:\n"
        "  status.md        — current phase, locked values,\n"
        "                     next pickup point\n"
        "  reward-design.md — terminal reward decision\n"
        "                     and rationale\n"
        "  exp-1a.md -- first results\n"
        "  The rest is kept in\n"
        "  notes.md with the old runs\n"
    )
    assert named(text) == [
        (3, "status.md", "current phase, locked values,"),
        (5, "reward-design.md", "terminal reward decision"),
        (7, "exp-1a.md", "first results"),
    ]


def test_a_line_with_a_link_is_read_as_a_link_not_a_name() -> None:
    text = "- `notes.md` and [Other](other.md) — both\n"
    assert named(text) == []
    assert [e.target for e in parse(text).entries] == ["other.md"]


def test_a_megabyte_line_of_name_like_text_is_read_in_one_pass() -> None:
    # Bounded cost on untrusted text: a 1 MB token with no end, runs of emphasis and
    # leading words the scanner skips, one name after a megabyte of markers.
    assert named("- " + "a.md" * 250_000 + "x\n") == []
    lines = ["*" * 1_000_000, "See" + " " * 1_000_000, "→" * 1_000_000, "_*" * 500_000 + "x.md"]
    found = [
        [p.target for p in named_pointers(Block("paragraph", 1, 1, line), frozenset(), frozenset())]
        for line in lines
    ]
    assert found == [[], [], [], ["x.md"]]
