"""The flat fast path gives exactly what YAML gives, or steps aside (returns None)."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_audit.tree import bounded_yaml
from memory_audit.tree.claude_yaml import parse_block
from memory_audit.tree.flat_yaml import load_flat

# Characters that matter to YAML, plus prose, CJK, emoji and odd white space.
TRICKY = ":#-?,[]{}&*!|>'\"%@`~=+ \t\\/.()<;\u00a0\u2028\u3000\ufeff\x85"
PROSE = "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 日本語한국어é—–…🙂"
KEYS = st.sampled_from(
    [
        "name",
        "description",
        "type",
        "scope",
        "relevance",
        "originSessionId",
        "yes",
        "null",
        "on",
        "x1",
        "snake_key",
        "kebab-key",
        "_private",
        "12",
        "true",
        "~",
    ]
)
VALUES = st.one_of(
    st.text(alphabet=PROSE + TRICKY, max_size=40),
    st.sampled_from(
        [
            "yes",
            "No",
            "null",
            "~",
            "12",
            "0x1f",
            "1e3",
            ".inf",
            "2026-01-02",
            "2026-13-45",
            "2026-01-02T10:00:00Z",
            "-",
            "- item",
            "a: b",
            "a:b",
            "a #b",
            "a#b",
            "trailing:",
            "'quoted'",
            '"dq"',
            "[a, b]",
            "{a: 1}",
            "&anchor",
            "*alias",
            "!tag",
            "|",
            ">",
            "%x",
            "@x",
            "`x`",
            "  spaced  ",
            "tab\there",
            "Fixed (see #1204)",
            "C# and F#",
        ]
    ),
)


def yaml_result(text: str) -> Any:
    try:
        return bounded_yaml.load(text)
    except bounded_yaml.YAMLProblem:
        return "<error>"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(KEYS, VALUES), max_size=8), st.booleans())
@example([("name", "a"), ("description", "Standards: NYC, 1 page")], False)
@example([("name", "yes"), ("type", "2026-01-02")], True)
def test_load_flat_equals_yaml_whenever_it_answers(
    pairs: list[tuple[str, str]], blank: bool
) -> None:
    text = ("\n\n" if blank else "\n").join(f"{k}: {v}" for k, v in pairs)
    flat = load_flat(text)
    if flat is not None:
        assert flat == yaml_result(text)


REAL_SHAPED = [
    "name: testing-policy\ndescription: Integration tests hit a real database, never mocks\ntype: feedback",
    "name: 배포 규칙\ndescription: 배포 전에 항상 스테이징에서 확인한다\ntype: feedback\noriginSessionId: 2fbf5660-08bb-4a1c-bde3-d0dbd106eeea",
    "name: project_q3_launch\ndescription: Q3 launch plan — owners, dates and the go/no-go list\ntype: project",
    "name: reference_api\ndescription: Where the API docs live (https://example.com/docs/v2)\ntype: reference",
    "name: user_role\ndescription: The user is a staff engineer who prefers terse answers\ntype: user\n",
    "name: 日本語のメモ\ndescription: ベイズネットの検証手順\ntype: project",
]


def test_load_flat_takes_real_shaped_frontmatter_and_agrees_with_yaml() -> None:
    for text in REAL_SHAPED:
        flat = load_flat(text)
        assert flat is not None, text
        assert flat == yaml_result(text)


def test_load_flat_steps_aside_for_anything_not_flat() -> None:
    for text in [
        "metadata:\n  deeper:\n    type: user",  # nested twice
        "metadata:\n  type: user\n    more: x",  # an odd indent
        "metadata:\n   type: user\n  more: x",
        "name: a\n  type: user",  # under a key that has a value
        "  type: user",  # under no key
        "metadata:\n  - user",  # a list
        "metadata:\n\ttype: user",  # a tab is no indent
        "metadata:\n  type: user\n  type: user",  # duplicate key below
        "name: a\nname: b",  # duplicate key
        "# comment\nname: a",
        "name: a #comment",
        "review_by: 2026-01-02",  # a date, not text
        "tags: [a, b]",
        "description: a: b",
    ]:
        assert load_flat(text) is None, text


def test_parse_block_uses_the_fast_path_and_yaml_alike() -> None:
    assert parse_block("name: a\ntype: user").value == {"name": "a", "type": "user"}
    assert (
        parse_block("name: a\nreview_by: 2026-01-02").value["review_by"].isoformat() == "2026-01-02"
    )


NESTED_LINE = st.one_of(
    st.tuples(st.just(0), KEYS, VALUES),
    st.tuples(st.integers(1, 4), KEYS, VALUES),
    st.tuples(st.integers(0, 4), KEYS, st.just("")),  # a key opening a mapping (or empty)
)


@settings(max_examples=600, deadline=None)
@given(st.lists(NESTED_LINE, max_size=10), st.booleans())
@example([(0, "name", "a"), (0, "description", "d"), (0, "metadata", ""), (2, "type", "user")], 0)
@example([(0, "metadata", ""), (2, "type", ""), (4, "name", "x")], False)
@example([(0, "metadata", ""), (1, "type", "a"), (1, "name", "b"), (0, "name", "c")], True)
def test_load_flat_equals_yaml_with_one_level_below(
    lines: list[tuple[int, str, str]], blank: bool
) -> None:
    text = ("\n\n" if blank else "\n").join(
        " " * depth + (f"{key}: {value}" if value else f"{key}:") for depth, key, value in lines
    )
    flat = load_flat(text)
    if flat is not None:
        assert flat == yaml_result(text)


def test_load_flat_takes_the_metadata_layout() -> None:
    text = (
        "name: testing-policy\ndescription: Tests hit a real database\nmetadata:\n"
        "  type: feedback\n  originSessionId: 2fbf5660-08bb-4a1c-bde3-d0dbd106eeea\n"
        "  node_type: memory"
    )
    flat = load_flat(text)
    assert flat is not None
    assert flat == yaml_result(text)
    assert flat["metadata"]["type"] == "feedback"
