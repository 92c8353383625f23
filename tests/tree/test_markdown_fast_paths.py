"""The hand-written Markdown readers give exactly markdown-it's answers, or step aside.

``leaf_blocks`` (headings, paragraphs, lists, code without markdown-it) returns None
for what it does not follow; ``code_spans`` reads inline text without ``[`` or ``\\``.
Each is compared with markdown-it on generated documents made of the line shapes
that matter to CommonMark's block structure, and on documents shaped like real notes.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it.common import utils

from memory_audit.tree import markdown_blocks
from memory_audit.tree.markdown import Limits, _blocks, _parser, parse_markdown
from memory_audit.tree.markdown_blocks import leaf_blocks
from memory_audit.tree.markdown_links import simple_inline
from memory_audit.tree.markdown_spans import code_spans

FAST = Limits(skip_plain=False)
SLOW = Limits(skip_plain=False, fast=False)
MARKERS = [
    "",
    "",
    "",
    "- ",
    "* ",
    "+ ",
    "-  ",
    "-     ",
    "1. ",
    "2. ",
    "1) ",
    "10. ",
    "1234567890. ",
    "- - ",
    "1. - ",
    "-",
    "1.",
    "# ",
    "## ",
    "####### ",
    "#",
    "```",
    "```py",
    "```a`b",
    "````",
    "~~~",
    "> ",
    "<div>",
    "<!-- ",
    "---",
    "***",
    "* * *",
    "___",
    "===",
    "[a]: x.md",
    "    ",
]
WORDS = st.sampled_from(
    [
        "note",
        "See [x](a.md)",
        "[[wiki]]",
        "`code`",
        "`b.md`",
        "``a ` b``",
        "`open",
        "#",
        "# end #",
        "C#",
        "##",
        "-",
        "*",
        "1.",
        "```",
        "\\`",
        "日本語",
        "x  ",
        "",
    ]
)
LINE = st.builds(
    lambda indent, marker, words: " " * indent + marker + " ".join(words),
    st.sampled_from([0, 0, 0, 1, 2, 2, 3, 4, 5, 6, 8]),
    st.sampled_from(MARKERS),
    st.lists(WORDS, max_size=3),
)
DOCUMENT = st.lists(st.one_of(LINE, st.just("")), max_size=14)
# Only shapes the fast reader follows: long documents that stay on the fast path.
FOLLOWED = [m for m in MARKERS if m.strip()[:1] not in ("<", ">", "[", "=", "_") and m != "---"]
FOLLOWED_LINE = st.builds(
    lambda indent, marker, words: " " * indent + marker + " ".join(words),
    st.sampled_from([0, 0, 0, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8]),
    st.sampled_from(FOLLOWED),
    st.lists(WORDS, min_size=1, max_size=2),
)
LONG_DOCUMENT = st.lists(st.one_of(FOLLOWED_LINE, st.just("")), min_size=5, max_size=30)

REAL_SHAPED = [
    [
        "# Deploys",
        "",
        "Production deploys need a manual approval; see [runbook](runbook.md).",
        "Approvers rotate weekly.",
        "",
        "## Steps",
        "",
        "1. Open the pipeline and pick the release tag",
        "2. Ask for approval in `#deploys`:",
        "   - the on-call engineer approves",
        "   - a second reviewer for database changes",
        "     (lazy text continues the item)",
        "3. Watch the rollout",
        "",
        "```bash",
        "make deploy ENV=prod",
        "```",
        "",
        "- **Why:** the 2024 outage started with an unreviewed migration",
        "- Related: `rollback.md`, [[incident-notes]]",
    ],
    [
        "Prefer small PRs.",
        "  - nested under a paragraph? no: a list interrupts it",
        "",
        "- item with code:",
        "",
        "      indented code inside the item",
        "",
        "  back in the item",
        "* another list (other marker)",
        "",
        "    top-level indented code",
        "",
        "~~~",
        "unclosed fence to the end",
    ],
]


def same_block_lines(fast: list[tuple[str, int, int, str, bool]], lines: list[str]) -> bool:
    """``leaf_blocks`` keeps markdown-it's exclusive ends; ``_blocks`` turns them inclusive."""
    tokens = _parser().parse("\n".join(lines), {})
    slow = [(b.kind, b.first, b.last, b.text, b.opens_item) for b in _blocks(tokens, 1)]
    mine = [(k, s + 1, max(s, e - 1) + 1, t, o) for k, s, e, t, o in fast]
    return mine == slow


@settings(max_examples=1500, deadline=None)
@given(st.one_of(DOCUMENT, LONG_DOCUMENT))
@example(["- a", "  - b", "    - c", "      - d", "        - e"])
@example(["- a", " - b", "  - c", "   - d", "    - e"])  # markdown-it's listIndent special case
@example(["1. a", "", "   ```", "   code", "  ```", "b"])
@example(["# Title #", "#  spaced  ##  ", "# #", "#"])
@example(["para", "2. not a list here", "1. but this is", "-  x"])
def test_leaf_blocks_are_markdown_its_or_none(lines: list[str]) -> None:
    fast = leaf_blocks(lines)
    if fast is not None:
        assert same_block_lines(fast, lines)
    assert parse_markdown(lines, 3, FAST) == parse_markdown(lines, 3, SLOW)


def test_real_shaped_notes_take_the_fast_path_with_the_same_answer() -> None:
    for lines in REAL_SHAPED:
        fast = leaf_blocks(lines)
        assert fast is not None
        assert same_block_lines(fast, lines)
        document = parse_markdown(lines, 5, FAST)
        assert document == parse_markdown(lines, 5, SLOW)
    first = parse_markdown(REAL_SHAPED[0], 1, FAST)
    assert [link.target for link in first.links] == [
        "runbook.md",
        "rollback.md",
        "incident-notes",
    ]
    assert first.code_lines == frozenset({15, 16, 17})


def test_what_it_does_not_follow_goes_to_markdown_it() -> None:
    for lines in (
        ["a", "> quoted"],
        ["Title", "==="],
        ["a", "", "---"],
        ["[ref]: target.md"],
        ["<div>", "x", "</div>"],
        ["-", "  empty item"],
        ["\tx"],
    ):
        assert leaf_blocks(lines) is None
        assert parse_markdown(lines, 1, FAST) == parse_markdown(lines, 1, SLOW)


def markdown_it_code_spans(text: str) -> list[tuple[int, int, str]]:
    children: list = []  # type: ignore[type-arg]
    _parser().inline.parse(text, _parser(), {}, children)
    return [
        (*child.meta["memory_audit_offset"], child.content)
        for child in children
        if child.type == "code_inline"
    ]


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="`` ab.md/\n", max_size=40))
@example("`a` ``b`` `c``")
@example("``` a ``")
@example("` `` `")
@example("`  `")
def test_code_spans_are_markdown_its(text: str) -> None:
    assert list(code_spans(text)) == markdown_it_code_spans(text)


def test_the_trim_set_is_markdown_its() -> None:
    assert markdown_blocks.MD_TRIM_CHARS == utils.MD_TRIM_CHARS


INLINE = st.sampled_from(
    [
        *("[a](b.md)", "[see x](dir/c.md#h)", "[t](https://x.io/a)", "[[wiki]]", "[[w|shown]]"),
        *("[", "]", "(", ")", "](", "![i](j.md)", "\\[", "\\", "`", "``", "`x.md`", "` [a](b) `"),
        *("[a](b c)", "[a](<b>)", '[a](b "t")', "[a]( b)", "[a](b(c))", "[[a]](b)", "[a][b]"),
        *("[a]", "[]()", "[x [y](z) w](v)", " ", "\n", "text", "日本", "<", "&amp;", "*", "_"),
    ]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(INLINE, max_size=12).map("".join))
@example("[a](b.md) and [c](d.md)")
@example("`[a](b.md)` [c](d.md)")
@example("[x `](` y](z.md)")
@example("[a](b.md)](c)")
@example("[a](" + "x" * 4096 + ")")
@example("[a](" + "x" * 4097 + ")")
def test_inline_links_read_without_markdown_it_are_markdown_its(text: str) -> None:
    lines = ["A paragraph:", *text.split("\n")]
    assert parse_markdown(lines, 3, FAST) == parse_markdown(lines, 3, SLOW)


def test_simple_links_take_the_fast_path_and_others_step_aside() -> None:
    read = simple_inline("see [a](b.md), `c.md` and [[d]]")
    assert read is not None
    assert [(title, target) for _, _, title, target in read.links] == [("a", "b.md")]
    assert [content for _, _, content in read.code] == ["c.md"]
    for other in ("[a](b c)", "![a](b.md)", "\\[a](b)", '[a](b "t")', "[x [a](b) y](c)"):
        assert simple_inline(other) is None
