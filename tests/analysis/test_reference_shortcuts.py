"""Path candidates and their cleaning, with the shortcuts taken, are what the plain code gave.

The plain versions below are the code before the shortcuts (issue 19): every word split at
backticks, every token cleaned through every pattern. Generated lines and tokens are made
of the characters each step looks at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_audit.analysis import references as refs
from memory_audit.analysis.references import BACKTICKED, clean_path
from memory_audit.tree.markdown import Link, parse_markdown, prose_lines

COMPONENT = re.compile(r"^[\w.@+~-]*$")
PIECES = st.sampled_from(
    [
        *("src", "app", "node_modules", "origin", "main", "foo", "Ab12Cd34Ef56Gh78Ij90Kl12", "a"),
        *("/", "//", "./", "../", ".", ".py", ".md", ".toml", ":12", ":3:4", "#L5", "#L5-L9", "#"),
        *("`", " ", "\t", "\n", "\u3000", "(", ")", "[", "]", ",", "“", "」", "*", "?", "<", ">"),
        *("path/to", "example.com", "~/", "-x", "@scope", "…", "...", "=", "日本", "é", "_", "1"),
    ]
)
TEXT = st.lists(PIECES, max_size=24).map("".join)


def _plain_clean_path(token: str, backticked: bool) -> str | None:
    token = refs.LINE_SUFFIX.sub("", token.lstrip(refs.EDGE_PUNCTUATION.replace(".", "")))
    token = token.rstrip(refs.EDGE_PUNCTUATION)
    if token.startswith("./"):
        token = token[2:]
    if not token or refs.NOT_A_PATH.search(token) or refs.PLACEHOLDER_TEXT.search(token):
        return None
    if "/" not in token and not (backticked and refs.has_extension(token)):
        return None
    parts = [p for p in token.split("/") if p]
    if not parts or refs._domain(parts) or not re.search(r"[A-Za-z]", token):
        return None
    if not all(COMPONENT.match(p) for p in parts) or refs._unlikely(parts, token):
        return None
    return token.rstrip("/") or None


def _plain_prose_candidates(text: str) -> Iterator[tuple[str, bool]]:
    for word in BACKTICKED.sub(" ", text).split():
        yield from ((piece, False) for piece in word.split("`") if "/" in piece)


@settings(max_examples=500, deadline=None)
@given(TEXT, st.booleans())
@example("src/app.py:12", True)
@example("app\n", True)
@example("`a.md`", True)
@example("(./src/x/)", False)
def test_cleaning_a_token_gives_what_the_plain_cleaning_gave(token: str, backticked: bool) -> None:
    assert clean_path(token, backticked) == _plain_clean_path(token, backticked)


@settings(max_examples=400, deadline=None)
@given(TEXT)
@example("see `src/a.py` and src`/b`/c.md then `x` y/z")
def test_the_candidates_of_a_line_are_what_the_plain_split_gave(text: str) -> None:
    backticked = [(t, True) for m in BACKTICKED.finditer(text) for t in m.group(1).split()]
    assert list(refs._candidates(text, ())) == backticked + list(_plain_prose_candidates(text))


SECRETISH = st.text(alphabet=st.sampled_from("abcXYZ019"), min_size=24, max_size=40).filter(
    lambda part: refs.SECRET_SHAPED.fullmatch(part) is not None
)


@given(SECRETISH)
@example("a" * 24)
@example("A" * 24)
@example("1" * 24)
@example("a1" * 12)
@example("A1" * 12)
def test_mixed_is_a_digit_and_a_capital_in_a_secret_shaped_part(part: str) -> None:
    plain = any(c.isdigit() for c in part) and any(c.isupper() for c in part)
    assert refs._mixed(part) == plain


@given(TEXT)
@settings(max_examples=300)
def test_patterns_for_long_tokens_find_what_the_stdlib_finds(token: str) -> None:
    """The RE2 side of the sized pattern, forced onto short text, agrees with ``re``."""
    for text in (token, token.replace("\n", " ")):
        long, short = refs.NOT_A_PATH.long.search(text), refs.NOT_A_PATH.short.search(text)
        assert (long is None) == (short is None)


def test_the_spelled_out_white_space_is_what_python_calls_white_space() -> None:
    every = "".join(c for c in map(chr, range(0x110000)) if c.isspace())
    assert every == refs.WHITESPACE
    assert all(refs.NOT_A_PATH.long.search(f"a/{c}b") for c in every)


def test_a_long_token_goes_through_the_long_pattern_with_the_same_result() -> None:
    long = "word/" + "x" * 10_000
    assert clean_path(long, False) == long
    assert clean_path(long + "…", False) is None
    assert clean_path("src/" + "x" * 10_000 + ":12", False) == "src/" + "x" * 10_000


def _plain_commit_references(lines: list[str]) -> Iterator[refs.Reference]:
    """The per-line version: every prose line searched for a hash, then for a label."""
    body = "\n".join(lines)
    if not any(hint in body.lower() for hint in refs.LABEL_HINTS):
        return
    for number, text in prose_lines(lines, 1):
        if not refs.HEX_RUN.search(text) or not refs.COMMIT_LABEL.search(text):
            continue
        # whose the hashes are is the same judgment in both (a repository named before or
        # after them, "ferncastle commits abc1234"); what differs is how lines are found
        said = text
        if refs.WRAPPED.search(text) and number < len(lines):
            said += " " + lines[number].strip()
        if refs._names_another_repository(said):
            continue
        seen: set[str] = set()
        for match in refs.TOKEN.finditer(text):
            value = match.group(0).rstrip(".:")
            mixed = re.search("[0-9]", value) and re.search("[a-f]", value)
            if refs.HEX_WORD.fullmatch(value) and value not in seen and mixed:
                seen.add(value)
                yield refs.Reference(number, value)


HASH_PIECES = st.sampled_from(
    [
        *("abc1234", "0a1b2c3d4e5f", "deadbee", "1234567", "abcdefa", "fixed in", "commit", "sha"),
        *(" ", " ", "\n", "\n", "```", "    ", "- ", "repo", "in the", "in nixos", "é", ":", "."),
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(HASH_PIECES, max_size=30).map("".join))
@example("commit abc1234\n\ncommit 0a1b2c3 and abc1234 again\n```\nsha abc1234\n```")
@example("abc1234.abc1234 commit```abc1234")  # a name before "commit": another repository's
def test_commit_references_are_what_the_line_by_line_search_found(body: str) -> None:
    lines = body.split("\n")
    assert list(refs.commit_references(lines, 1)) == list(_plain_commit_references(lines))


def _plain_path_references(lines: list[str]) -> Iterator[refs.Reference]:
    """The per-line version: the words around each line's paths searched on their own."""
    document = parse_markdown(lines, 1)
    links: dict[int, list[Link]] = {}
    for link in document.links:
        links.setdefault(link.line, []).append(link)
    for number, text in prose_lines(lines, 1, document):
        paths = list(dict.fromkeys(refs._paths_in(text, links.get(number, ()))))
        words = text + " " + refs._sentence_tail(lines, number - 1)
        if paths and not refs.NOT_A_CLAIM.search(refs._words_around_paths(words)):
            yield from (refs.Reference(number, path) for path in paths)


CLAIM_PIECES = st.sampled_from(
    [
        *("src/a.py", "`lib/b.ts`", "docs/c.md", "[x](d/e.py)", "renamed", "moved", "no", "longer"),
        *("e.g.", "for", "example", "->", "旧", "이름", "변경", "old", "bold", "used", "to"),
        *(" ", " ", "\n", "\n", "```", "    ", "- ", "`", "/", "a", "é"),
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(CLAIM_PIECES, max_size=30).map("".join))
@example("see src/a.py\nno docs/c.md longer\nrenamed src/a.py\n이름 src/a.py 변경")
def test_path_references_are_what_the_line_by_line_search_found(body: str) -> None:
    lines = body.split("\n")
    assert list(refs.path_references(lines, 1)) == list(_plain_path_references(lines))
