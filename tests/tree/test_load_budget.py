"""Claude Code's truncation of MEMORY.md, pinned to the exact entry (DESIGN §2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.tree.load_budget import file_size, load_index, utf16_len
from tests.harness import load, write_tree


def entries(count: int, hook: str) -> str:
    """Index lines of equal width: ``- [E001](e001.md) — `` is 20 characters."""
    return "".join(f"- [E{i:03d}](e{i:03d}.md) — {hook}\n" for i in range(1, count + 1))


def first_hidden_entry(text: str) -> int | None:
    """The number of the first entry past the cut, read off the text a session receives."""
    loaded = load_index(text)
    if not loaded.cut:
        return None
    return loaded.text[: len(loaded.text) - len(loaded.warning)].count("- [E") + 1


# 20 + 229 units + newline = 250 a line: the newline after line 100 sits at index 24,999,
# the last one at or before 25,000, so entries 1-100 load and entry 101 is the first cut.
# Counting bytes instead (the old measure) would cut CJK and em dashes near entry 36.
CASES = [
    ("ascii", "a" * 229, 120, 101),
    ("cjk", "語" * 229, 120, 101),  # one unit each, three bytes
    ("em-dash", "—" * 229, 120, 101),  # one unit each, three bytes
    ("emoji", "🙂" * 114 + "a", 120, 101),  # two units each, four bytes
    ("200-lines-first", "x", 250, 201),
]


@pytest.mark.parametrize(("name", "hook", "count", "hidden"), CASES)
def test_load_index_cut_lands_on_the_exact_entry(
    name: str, hook: str, count: int, hidden: int
) -> None:
    text = entries(count, hook)
    assert first_hidden_entry(text) == hidden
    loaded = load_index(text)
    assert loaded.first_hidden == hidden  # file line: one entry a line
    assert loaded.kept_lines == hidden - 1


def test_load_index_char_cut_keeps_lines_whole_up_to_the_last_newline_at_25000() -> None:
    loaded = load_index(entries(120, "a" * 229))
    assert loaded.loaded_chars == 24_999
    assert loaded.text[24_999:].startswith("\n\n> WARNING:")


def test_load_index_newline_exactly_at_25000_keeps_that_line() -> None:
    text = "a" * 25_000 + "\nb"  # lastIndexOf("\n", 25000) finds index 25,000
    loaded = load_index(text)
    assert (loaded.kept_lines, loaded.loaded_chars, loaded.partial) == (1, 25_000, False)


def test_load_index_warning_text_exactly() -> None:
    text = entries(250, "x")
    loaded = load_index(text)
    assert loaded.warning == (
        "\n\n> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded: "
        '50 of 250 lines were cut off, starting at line 201 ("- [E201](e201.md) — x"). '
        "Keep index entries to one line under ~200 chars; move detail into topic files."
    )
    assert loaded.text.endswith(loaded.warning)


def test_load_index_size_warning_names_the_size_as_claude_code_writes_it() -> None:
    text = entries(120, "a" * 229)  # 29,999 units
    assert "is 29.3KB (limit: 24.4KB) — index entries are too long." in load_index(text).warning
    assert [file_size(n) for n in (812, 1024, 25_000, 3 * 1024 * 1024)] == [
        "812 bytes",
        "1KB",
        "24.4KB",
        "3MB",
    ]


def test_load_index_leading_blank_lines_are_trimmed_before_the_200_line_cut() -> None:
    text = "\n\n\n\n\n" + entries(200, "x")
    loaded = load_index(text)
    assert not loaded.cut  # 200 lines once trimmed
    assert load_index("\n\n" + entries(201, "x")).first_hidden == 203  # file line of entry 201


def test_load_index_crlf_counts_the_carriage_returns() -> None:
    lf = entries(100, "a" * 229)  # 24,999 units: fits
    assert load_index(lf).cut is False
    crlf = load_index(lf.replace("\n", "\r\n"))  # 99 more (the last is trimmed): cut
    assert crlf.cut is True
    assert crlf.first_hidden == 100


def test_load_index_single_100000_char_line_is_cut_at_25000() -> None:
    loaded = load_index("y" * 100_000)
    assert loaded.partial
    assert loaded.loaded_chars == 25_000
    assert loaded.first_hidden == 1
    assert '1 of 1 lines were cut off, starting at line 1 ("' + "y" * 80 + '")' in loaded.warning


def test_load_index_cut_may_split_a_surrogate_pair_like_javascript() -> None:
    loaded = load_index("y" * 24_999 + "🙂" * 10)
    assert loaded.loaded_chars == 25_000
    assert loaded.text[24_999] == "\ud83d"  # the high half of the emoji, as slice() leaves it


def test_load_index_unpaired_surrogates_count_one_unit() -> None:
    assert utf16_len("a\ud800b") == 3
    assert load_index("\ud800" * 30_000).loaded_chars == 25_000


def test_load_index_html_comments_and_frontmatter_are_not_counted() -> None:
    comment = "<!--\n" + "hidden note\n" * 300 + "-->\n"
    text = "---\nname: index\n---\n" + comment + entries(150, "x")
    loaded = load_index(text)
    assert (loaded.lines, loaded.cut) == (150, False)
    assert load_index(text, project=False).cut is True


def test_snapshot_reads_invalid_utf8_as_replacement_characters(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": b"- [A](a.md) \xed\xa0\x80 hook\n"})
    loaded = load(tree_dir).index_load
    assert loaded is not None
    assert loaded.chars == utf16_len("- [A](a.md) ") + 3 + len(" hook")  # one U+FFFD a byte


def test_a_leading_rule_above_a_title_is_cut_where_claude_code_cuts_it() -> None:
    # `---`, a title and a line, `---`: valid YAML to Claude Code, which strips it; the
    # audit reads it as no author's frontmatter, but the budget still counts from the cut
    text = "---\n# Project memory\nRead this first.\n---\n" + entries(200, "x")
    assert load_index(text).cut is False
    assert first_hidden_entry(text + entries(1, "y")) is not None
