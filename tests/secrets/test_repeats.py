"""The search for the values of secrets found: the same places whichever way it runs."""

from __future__ import annotations

import pytest

from memory_audit.secrets.repeats import ALTERNATION_LIMIT, FIND_LIMIT, _Search
from memory_audit.secrets.sweep import map_all


def _texts(values: list[str]) -> list[str]:
    return [
        f"note {n}: déjà vu {values[n % len(values)]} and {values[(n * 7) % len(values)]}x"
        for n in range(200)
    ]


@pytest.mark.parametrize("count", [FIND_LIMIT, ALTERNATION_LIMIT, ALTERNATION_LIMIT + 1])
def test_each_way_of_searching_finds_every_place(count: int) -> None:
    values = [f"Harbor{n:05}!!" for n in range(count)]
    search = _Search(values)
    for text in _texts(values):
        expected = sorted((at, at + len(v), v) for v in values for at in _all(text, v))
        assert sorted(search.hits(text)) == expected


def test_a_forked_search_equals_searching_each_text() -> None:
    # on one core map_all does not fork: the same result, less proven
    values = [f"Harbor{n:05}!!" for n in range(40)]
    search = _Search(values)
    texts = _texts(values)
    forked = map_all(search.hits, texts, search.rows, search.from_rows, parallel_bytes=0)
    assert forked == [search.hits(text) for text in texts]


def _all(text: str, value: str) -> list[int]:
    places, at = [], text.find(value)
    while at != -1:
        places.append(at)
        at = text.find(value, at + 1)
    return places


def test_many_values_sharing_their_start_give_the_longest_at_each_place() -> None:
    # beyond ALTERNATION_LIMIT: values that are the start of others, or part away late
    values = [f"Harbor{n:05}!!" for n in range(ALTERNATION_LIMIT)]
    values += ["Quay7!", "Quay7!a", "Quay7!ab-c", "Quay7!ab-d9", "Quay7!abc", "Quay7!b"]
    search = _Search(values)
    text = "Quay7!ab-d9 Quay7!ab-d Quay7!ab-c!Quay7!abcd, Quay7! x Quay7!bQuay7!a (Harbor00007!!)"
    starts = [0, *(at + 1 for at, char in enumerate(text) if not (char.isalnum() or char == "_"))]
    expected = []
    for start in starts:
        longest = max((v for v in values if text.startswith(v, start)), key=len, default=None)
        if longest is not None:
            expected.append((start, start + len(longest), longest))
    assert search.hits(text) == expected
    assert len(expected) == 7
