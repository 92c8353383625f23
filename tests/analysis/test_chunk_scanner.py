"""The linear chunk scanners find, match for match, what the shingle patterns found."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_audit.analysis.similarity import CJK, ENTITY, IN_CHUNK, IN_LONG_CHUNK, SHINGLE

# The pattern long chunks were read with (SHINGLE with look-behinds): quadratic too.
PATTERN = re.compile(
    rf"(?P<entity>(?<![\w.+-]){ENTITY[0]}|{ENTITY[1]}|(?<![~.\w-]){ENTITY[2]}|{ENTITY[3]})"
    rf"|(?P<cjk>[{CJK}]+)|(?P<word>[^\W_]+)",
    re.UNICODE | re.IGNORECASE,
)
# Pieces that make every alternative start, fail, and meet the others (a chunk has no
# spaces, brackets or quotes: CHUNK cuts there).
PIECES = st.sampled_from(
    [
        *("/", "\\", "~", ".", "-", "_", "+", "@", ":", "a", "Z", "9", "é", "記", "ſ", "K"),
        *("c:", "C:/", "http://", "HTTPS://", "http", "a@b.io", "x.y", "~/", "./", "a_b", "!"),
    ]
)


def _found(matches: object) -> list[tuple[int, int, str | None]]:
    return [(m.start(), m.end(), m.lastgroup) for m in matches]  # type: ignore[attr-defined]


@settings(max_examples=1500, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
@example("a@b.c/d/e")
@example("/http://a/http://")
@example("/c:/x~/~/y")
@example("a@b.c//d")
def test_the_scanners_match_the_patterns(chunk: str) -> None:
    assert _found(IN_LONG_CHUNK.matches(chunk)) == _found(PATTERN.finditer(chunk))
    assert _found(IN_CHUNK.matches(chunk)) == _found(SHINGLE.finditer(chunk))


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join), st.integers(1, 60))
def test_the_scanners_match_the_patterns_on_repeated_pieces(piece: str, times: int) -> None:
    chunk = piece * times
    assert _found(IN_LONG_CHUNK.matches(chunk)) == _found(PATTERN.finditer(chunk))
    assert _found(IN_CHUNK.matches(chunk)) == _found(SHINGLE.finditer(chunk))


def test_the_matches_carry_the_pattern_groups() -> None:
    [url] = IN_CHUNK.matches("http://x.io/a")
    [path] = IN_LONG_CHUNK.matches("~/src/app.py")
    assert (url.lastgroup, url.group(0)) == ("entity", "http://x.io/a")
    assert (path.lastgroup, path.group(0)) == ("entity", "~/src/app.py")
