"""Links, wikilinks and code read as CommonMark reads them."""

from __future__ import annotations

import itertools
import time

from memory_audit.tree.markdown import Link, first_paragraph, parse_markdown
from memory_audit.tree.wikilinks import find_wikilinks


def links(text: str, first_line: int = 1) -> list[tuple[int, str, bool]]:
    document = parse_markdown(text.split("\n"), first_line)
    return [(link.line, link.target, link.wiki) for link in document.links]


def test_markdown_link_in_inline_code_is_not_a_link() -> None:
    assert links("see `[Title](gone.md)` and [real](real.md)") == [(1, "real.md", False)]


def test_markdown_wikilink_in_inline_code_is_not_a_link() -> None:
    assert links("write `[[name]]` for a wikilink, like [[other-note]]") == [
        (1, "other-note", True)
    ]


def test_markdown_links_in_fenced_and_indented_code_are_not_links() -> None:
    text = "intro\n\n```\n[a](fenced.md) [[fenced]]\n```\n\n    [b](indented.md)\n\n[c](c.md)"
    assert links(text) == [(9, "c.md", False)]
    assert parse_markdown(text.split("\n")).code_lines == frozenset({3, 4, 5, 7})


def test_markdown_parentheses_in_a_file_name_are_part_of_the_target() -> None:
    assert links("[Foo](foo(bar).md) and [x](<with space.md>)") == [
        (1, "foo(bar).md", False),
        (1, "with space.md", False),
    ]


def test_markdown_targets_are_kept_as_written_not_percent_encoded() -> None:
    [link] = parse_markdown(["[日本](メモ.md)"]).links
    assert link == Link(1, "メモ.md", "日本", wiki=False)


def test_markdown_line_numbers_follow_the_source_across_multiline_code_spans() -> None:
    text = "para `code\nspanning` lines\nthen [a](a.md)\n\n- item\n  [[wiki]]"
    assert links(text, first_line=5) == [(7, "a.md", False), (10, "wiki", True)]


def test_markdown_image_is_not_a_link() -> None:
    assert links("![diagram](diagram.png) [doc](doc.md)") == [(1, "doc.md", False)]


def test_markdown_thematic_break_is_a_break_not_a_paragraph() -> None:
    document = parse_markdown(["- [a](a.md)", "", "---", "", "text"])
    assert [(b.kind, b.first) for b in document.blocks] == [
        ("paragraph", 1),
        ("break", 3),
        ("paragraph", 5),
    ]


def test_first_paragraph_skips_headings_code_and_breaks() -> None:
    body = ["# Title", "", "---", "```", "code", "```", "The rule.", "Second line.", "", "More."]
    assert first_paragraph(body) == "The rule. Second line."


def test_wikilinks_take_the_name_before_heading_and_alias() -> None:
    text = "[[a]] [[b#Part]] [[c|shown]] [[ d ]] [[]] [[x\ny]] [[[e]]]"
    assert [name for _, _, name in find_wikilinks(text)] == ["a", "b", "c", "d", "e"]


def test_markdown_md_path_in_a_code_span_is_a_mention_not_a_link() -> None:
    [link] = parse_markdown(["read `retros/index.md` first, not `a b.md` or `x.py`"]).links
    assert (link.target, link.mention) == ("retros/index.md", True)


_CALLS = itertools.count()


def _cpu_seconds_to_parse(spans: int) -> float:
    # one list item of many code spans naming a note, plain words between them; numbered,
    # since a text parsed before is answered from a cache
    line = f"- {next(_CALLS)} " + ("`a.md` " + "w" * 40) * spans
    start = time.process_time()
    document = parse_markdown([line])
    seconds = time.process_time() - start
    assert len(document.links) == spans
    return seconds


def test_a_paragraph_of_many_spans_is_read_in_linear_time() -> None:
    """Each span's line was found by counting the line breaks before it: 4,000 spans took
    0.2 s, 16,000 more than 3. Four times the spans cost about 16 times as much when
    quadratic, 4 when linear; a tenth of a second is the least N counts as (noise), and a
    loaded machine gets three tries (docs/benchmarks.md, "Linear time everywhere")."""
    ratios = []
    for _ in range(3):
        small = max(_cpu_seconds_to_parse(4_000), 0.1)
        ratios.append(_cpu_seconds_to_parse(16_000) / small)
        if ratios[-1] <= 8:
            return
    raise AssertionError(f"4N took {min(ratios):.2f}x N")
