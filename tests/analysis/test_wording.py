"""Names (code, URLs, paths, identifiers) are found as the first pattern found them.

The path pattern now starts only where a run of path characters starts, text without
a slash skips the URL and path patterns, and a URL's scheme is at most 64 characters
(issue 19: a 30 KB word took minutes). The plain pattern below is the one before; generated
texts are made of the characters it looks at.
"""

from __future__ import annotations

import re

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from memory_audit.analysis.wording import CJK_CHAR, units, without_code

PLAIN = re.compile(
    r"`[^`\n]*`"
    r"|\b[a-z][a-z0-9+.-]*://\S+"
    r"|[~.\w-]*(?:[/\\][\w.@~-]+)+/?"
    r"|\b\w+(?:[_.]\w+)+\b"
    r"|\b[a-z]+[A-Z]\w*",
    re.ASCII,
)
PIECES = st.sampled_from(
    [
        *("a", "bC", "x1", "_", ".", "-", "~", "@", "/", "\\", "`", " ", "\n", ":", "+"),
        *("http://", "getUser", "src/app.py", "é", "日本", "a.b", "--", "./", "//"),
        *("a-b-c-d-e-f-g-h-", "9", "A", "://", "git+ssh"),
    ]
)
LONG_SCHEME = re.compile(r"[a-z0-9+.-]{65}://", re.ASCII)


@settings(max_examples=1000, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
@example("a.b-c d/e")
@example("9a-b://x y-z://")
@example("a-b-c-d-e-f-g-h-" * 4 + "http://x")
@example("getUser-x/y")
@example("`x`a/b")
@example("x a-b/ c")
def test_names_are_replaced_where_the_plain_pattern_replaced_them(text: str) -> None:
    assume(not LONG_SCHEME.search(text))  # a "scheme" of 65 characters and more
    assert without_code(text) == PLAIN.sub(" code ", text)


def test_a_url_scheme_is_read_up_to_64_characters() -> None:
    assert without_code("a-" * 40 + "://x") == "a-" * 8 + " code "  # the last 64: a URL
    assert units("see " + "a-" * 20_000 + " and x/y") == 4


def test_a_long_word_is_one_unit_and_a_long_path_one_name() -> None:
    assert units("a-" * 20_000) == 1
    assert units("word " + "a-" * 20_000 + "/b") == 2


def _plain_units(text: str) -> float:
    """The count before: every whitespace-separated word with a letter or digit."""
    plain = without_code(text)
    cjk = len(CJK_CHAR.findall(plain))
    spaced = [w for w in CJK_CHAR.sub(" ", plain).split() if any(c.isalnum() for c in w)]
    return len(spaced) + cjk / 2


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "é", "1", "½", "_", "—", "->", " ", "\u3000", "\xa0", "日本", "、"]),
        max_size=30,
    ).map("".join)
)
@example("— -> ___ a_ _1 ½")
def test_units_count_the_words_with_a_letter_or_digit(text: str) -> None:
    assert units(text) == _plain_units(text)
