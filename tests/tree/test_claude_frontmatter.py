"""Frontmatter read the way Claude Code 2.1.328 reads it (DESIGN §2): block, strict, retry."""

from __future__ import annotations

import pytest

from memory_audit.tree.claude_yaml import (
    ReadBy,
    fallback_pair,
    fallback_text,
    needs_quotes,
    parse_block,
)
from memory_audit.tree.frontmatter_block import split_block
from memory_audit.tree.memory_file import FileKind, MemoryFile, parse_memory_file


def read(text: str) -> MemoryFile:
    return parse_memory_file("a.md", FileKind.MEMORY, text, len(text), 0.0)


# ---- which values the retry quotes: the exact character set -----------------------------

TRIGGERS = ["{", "}", "[", "]", "*", "&", "#", "!", "|", ">", "%", "@", "`"]
NOT_TRIGGERS = [
    ",",
    "-",
    "?",
    ":",
    "'",
    '"',
    "=",
    "$",
    "~",
    "+",
    "^",
    "(",
    ")",
    "/",
    "\\",
    ";",
    "<",
]


@pytest.mark.parametrize("char", TRIGGERS)
def test_needs_quotes_every_trigger_character_anywhere_in_the_value(char: str) -> None:
    assert needs_quotes(f"see{char}this")
    assert needs_quotes(f"{char} at the start")


@pytest.mark.parametrize("char", NOT_TRIGGERS)
def test_needs_quotes_other_punctuation_alone_does_not(char: str) -> None:
    assert not needs_quotes(f"see{char}this")


@pytest.mark.parametrize(
    ("value", "quoted"),
    [
        ("Standards: NYC, 1 page", True),  # ": " triggers
        ("http://example.com:8080/x", False),  # ":" without a space does not
        ('"already: quoted"', False),
        ("'single: quoted'", False),
        ('"half quoted: no', True),
        ("[a, b]", False),  # a valid list is left alone
        ("[a, b", True),  # an invalid one is quoted
        ("[a] and [b]", True),  # starts with [ and ends with ], but is not one valid list
    ],
)
def test_needs_quotes_exceptions_for_quoted_values_and_valid_lists(
    value: str, quoted: bool
) -> None:
    assert needs_quotes(value) is quoted


def test_fallback_only_top_level_key_lines_are_rewritten_and_escaped() -> None:
    text = 'description: say "hi": now \\ then\n  nested: a: b\n- item: x: y\nk2: v'
    rewritten, quoted = fallback_text(text)
    assert rewritten.split("\n") == [
        'description: "say \\"hi\\": now \\\\ then"',
        "  nested: a: b",
        "- item: x: y",
        "k2: v",
    ]
    assert [(q.line, q.key) for q in quoted] == [(0, "description")]


@pytest.mark.parametrize(
    ("line", "pair"),
    [
        ("key: value", ("key", "value")),
        ("snake_key-dash: v", ("snake_key-dash", "v")),
        ("key:value", None),  # \s+ needs a space
        ("key2: v", None),  # digits are not in [a-zA-Z_-]
        ("  key: v", None),  # indented: not top level
        ("key:   ", None),  # only white space: never quoted anyway
        ("key:\tv", ("key", "v")),
    ],
)
def test_fallback_pair_matches_claude_codes_line_pattern(
    line: str, pair: tuple[str, str] | None
) -> None:
    assert fallback_pair(line) == pair


def test_fallback_turns_leading_tabs_into_spaces() -> None:
    rewritten, _ = fallback_text("metadata:\n\ttype: user\n\t\tdeep: x")
    assert rewritten == "metadata:\n  type: user\n    deep: x"


# ---- the three cases -----------------------------------------------------------------------


def test_parse_block_strict_yaml_reads_it() -> None:
    parsed = parse_block("name: a\ndescription: plain text\ntype: user")
    assert parsed.read_by is ReadBy.STRICT
    assert parsed.value == {"name": "a", "description": "plain text", "type": "user"}


def test_parse_block_unquoted_colon_is_read_only_by_the_fallback() -> None:
    parsed = parse_block("name: a\ndescription: Standards: NYC, 1 page\ntype: user")
    assert parsed.read_by is ReadBy.FALLBACK
    assert parsed.value["description"] == "Standards: NYC, 1 page"
    assert parsed.error_line == 2


def test_parse_block_unbalanced_quote_is_read_by_neither() -> None:
    parsed = parse_block('name: "plan:" prefix means propose\ntype: feedback')
    assert parsed.read_by is ReadBy.NEITHER
    assert parsed.value is None
    assert parsed.error_line == 1


# ---- the block: first `---` anywhere ends it -----------------------------------------------


def test_split_block_dashes_inside_a_value_cut_the_block_short() -> None:
    lines = [
        "---",
        "name: a",
        "description: before --- after",
        "type: user",
        "scope: x",
        "---",
        "body",
    ]
    block = split_block(lines).block
    assert block is not None
    assert block.text == "name: a\ndescription: before "
    assert block.body_start == 7
    assert block.cut_short is not None
    assert (block.cut_short.line, block.cut_short.key) == (3, "description")
    assert block.cut_short.lost_fields == ("type", "scope")
    assert block.cut_short.lost_text == "after"


def test_split_block_value_that_is_exactly_dashes() -> None:
    memory = read("---\nname: a\ndescription: ---\ntype: user\n---\nbody\n")
    assert memory.frontmatter == {"name": "a", "description": None}
    assert list(memory.body_lines) == ["body"]


def test_split_block_frontmatter_of_only_dash_lines_is_an_empty_block() -> None:
    memory = read("---\n---\n---\n---\n")
    assert memory.frontmatter == {}
    assert memory.read.read_by is ReadBy.STRICT


def test_split_block_trailing_space_on_marks_and_no_close() -> None:
    assert split_block(["--- ", "a: b", "---\t", "x"]).block is not None
    unclosed = read("---\nname: a\n")
    assert unclosed.frontmatter is None
    assert [p.code for p in unclosed.problems] == ["unclosed-frontmatter"]
    assert split_block(["----", "a: b", "---"]).block is None  # four dashes never open


def test_split_block_dots_line_does_not_close_the_block() -> None:
    memory = read("---\nname: a\n...\ntype: user\n---\nbody\n")
    assert list(memory.body_lines) == ["body"]  # the block ran to the `---`, as in Claude Code


# ---- comments cut values -----------------------------------------------------------------


def test_comment_cut_names_kept_and_lost_text() -> None:
    memory = read(
        "---\nname: a\ndescription: Fixed the gate (see #1204) and more\ntype: user\n---\n"
    )
    [cut] = memory.read.comment_cuts
    assert (cut.line, cut.key, cut.kept, cut.lost) == (
        3,
        "description",
        "Fixed the gate (see",
        "#1204) and more",
    )
    assert memory.description == "Fixed the gate (see"


def test_comment_cut_value_that_is_only_a_hash() -> None:
    memory = read("---\nname: a\ndescription: #\ntype: user\n---\n")
    [cut] = memory.read.comment_cuts
    assert (cut.kept, cut.lost) == ("", "#")


def test_comment_cut_not_reported_for_quoted_values_or_hash_without_space() -> None:
    memory = read('---\nname: a\ndescription: "see #12"\ncolor: x#fff\nurl: a.com/#frag\n---\n')
    assert memory.read.comment_cuts == ()


def test_comment_cut_in_a_fallback_read_file_is_quoted_away() -> None:
    # The retry quotes every line holding `#`: Claude Code then keeps the whole value.
    memory = read("---\nname: a\ndescription: Rule: see #12\n---\n")
    assert memory.read.read_by is ReadBy.FALLBACK
    assert memory.description == "Rule: see #12"
    assert memory.read.comment_cuts == ()


def test_comment_cut_nested_under_metadata() -> None:
    memory = read("---\nname: a\nmetadata:\n  type: user #old\n---\n")
    [cut] = memory.read.comment_cuts
    assert (cut.line, cut.key, cut.kept) == (4, "type", "user")


# ---- laziness ----------------------------------------------------------------------------


def test_memory_file_parses_nothing_until_asked() -> None:
    memory = read("---\nname: a\ndescription: b: c\n---\nbody\n")
    assert "read" not in memory.__dict__
    assert memory.lines[-1] == "body"
    assert "read" not in memory.__dict__
    assert memory.name == "a"
    assert "read" in memory.__dict__


def test_split_block_a_rule_then_a_heading_is_a_block_cut_where_claude_code_cuts_it() -> None:
    # Claude Code cuts there (the load budget counts from the cut), but no author wrote it
    # as frontmatter: the split says so, and a memory file reads it as none
    ruled = split_block(["---", "", "# Title", "", "Prose:", "* item", "---", "x"])
    assert ruled.block is not None
    assert ruled.block.body_start == 8
    assert (ruled.opened, ruled.ruled) == (True, True)
    unclosed = split_block(["---", "", "# Title", "", "Prose"])
    assert (unclosed.block, unclosed.ruled) == (None, True)
    # a comment line before real keys is still a block, and no document's
    keyed = split_block(["---", "# generated", "name: a", "---"])
    assert keyed.block is not None
    assert not keyed.ruled
    # a block of a scalar stays a block (its own finding: not key: value pairs)
    assert split_block(["---", "just text", "---"]).block is not None
    # a daily log's entry between two rules: a heading, then a list, no key at all
    entry = ["---", "## 2026-04-24 (3:49 PM)", "- **Post 68 published**", "- link: x", "---"]
    assert split_block(entry).ruled
    # a block's fields written as list items stay a block (a list: its own finding)
    listed = ["---", "# Deploy notes", "- name: deploy", "- description: how", "---"]
    assert not split_block(listed).ruled
    # a heading (a comment to YAML) above a key and its list is a block
    tagged = split_block(["---", "# generated", "tags:", "- a", "---"])
    assert tagged.block is not None
    assert not tagged.ruled
