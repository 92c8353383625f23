"""The code token a broad scope is told about is the one the first pattern found.

The path branch now starts only where a run of path characters starts (issue 19: a 30 KB
``a.a.a.`` first paragraph was quadratic). The plain pattern below is the one before;
generated paragraphs are made of the characters it looks at.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_audit.checks.frontmatter import CODE_TOKEN

PLAIN = re.compile(
    r"`[^`]+`|\b[\w.-]+/[\w./-]+|\b\w+\.(?:py|ts|tsx|js|rs|go|rb|java|sql|toml|ya?ml)\b"
)
PIECES = st.sampled_from(
    [
        *("a", "B", "1", "_", ".", "-", "/", "`", " ", "é", "日本", "..", "-/", "./", "py"),
        *("src/app.py", "x.py", ".yml", "a.b", "--", "//", "\n", ":", "٣"),
    ]
)


def _token(pattern: re.Pattern[str], paragraph: str) -> str | None:
    match = pattern.search(paragraph)
    if match is None:
        return None
    named = match.groupdict().get("path")
    return str(named or match.group(0))


@settings(max_examples=1000, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
@example("-.a/b")
@example("..-/x a-b/c")
@example("é.x/y")
@example("`a` b/c")
@example("-x.py")
def test_the_token_is_the_plain_patterns_token(paragraph: str) -> None:
    assert _token(CODE_TOKEN, paragraph) == _token(PLAIN, paragraph)
