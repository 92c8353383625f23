"""``descriptions``' test of whether a text shares a word with a description: it shingles
only the chunks where a description word occurs, and answers as shingling them all would."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_audit.analysis.similarity import shingles
from memory_audit.checks.descriptions import Words, content_words

# Pieces that meet the stemmer's and the shingler's corners: suffixes (`policies` ->
# `policy`), entities (paths with `\` or `/`, dotted names, addresses), CJK runs, separators.
PIECES = [
    *("policy policies deploy deploys deployed deploying notes note class classes".split()),
    *("run runs running bus buses api.v2 src\\app\\x.py src/app/x.py a.b@c.io".split()),
    *("https://x.io/a 管理 管理者 데이터 config_value CONFIG v1.2 ies y".split()),
    *(" ", "\n", "(", ")", "[", "]", "`", ",", ";", "*", "|", "'", '"', ".", "-", "_", "\\"),
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=40),
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=8),
)
def test_shares_answers_as_shingling_every_chunk_would(body: list[str], picked: list[str]) -> None:
    text = "".join(body)
    words = content_words(" ".join(picked))
    every_chunk = set(shingles(text))  # the plain definition: all of the text's shingles
    assert Words().shares(text, words) == (not words.isdisjoint(every_chunk))


def test_shares_finds_the_stem_of_a_plural_in_any_chunk() -> None:
    words = content_words("security policy")
    assert Words().shares("see (our) `policies`, then", words)
    assert not Words().shares("see (our) `politics`, then", words)
    assert Words().shares("paths like src\\Api\\Policy.py", content_words("src/api/policy.py"))
