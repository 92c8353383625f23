"""The search for the values of secrets found: the same places whichever way it runs."""

from __future__ import annotations

import pytest

from memory_audit.checks.secrets import Options as SecretsOptions
from memory_audit.secrets.loading import secret_scanner
from memory_audit.secrets.repeats import (
    ALTERNATION_LIMIT,
    BATCH_BYTES,
    FIND_LIMIT,
    JOIN,
    RepeatSearch,
    _Search,
    repeat_matches,
    searched_matches,
)
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


@pytest.mark.parametrize("count", [FIND_LIMIT, ALTERNATION_LIMIT, ALTERNATION_LIMIT + 1])
def test_searching_all_texts_at_once_finds_what_each_search_finds(count: int) -> None:
    values = [f"Harbor{n:05}!!" for n in range(count)]
    # a value cut at a text's end, one ending a text, one after a text of emoji, empty texts
    texts = [*_texts(values), "", "Harbor00001", "!!", "Harbor00002!!", "😀😀 Harbor00003!! ü"]
    # texts enough for several batches, a value ending or starting each
    texts += [f"Harbor00004!! {'é' * (BATCH_BYTES // 5)} Harbor00005!!" for _ in range(9)]
    search = _Search(values)
    expected = [
        sorted((at, at + len(v), v) for v in values for at in _all(text, v)) for text in texts
    ]
    assert [sorted(found) for found in search.hits_each(texts)] == expected


def test_a_value_holding_the_joining_character_is_still_found_in_each_text() -> None:
    values = [f"Harbor{n:05}!!" for n in range(FIND_LIMIT)] + [f"Qu{JOIN}ay7!ab"]
    texts = [f"a Qu{JOIN}ay7!ab b", "Qu", "ay7!ab", "Harbor00001!! Qu"]
    assert _Search(values).hits_each(texts) == [
        [(2, 11, f"Qu{JOIN}ay7!ab")],
        [],
        [],
        [(0, 13, "Harbor00001!!")],
    ]


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


HANDLE = "kestrel8841"  # a look-alike: one person's chat handle and database password
DOC_ID = "Qm7kLp2xRzW9vT4nB8cYaaa12"  # a Feishu document's token, a look-alike


def test_the_change_alert_reports_no_repeat_at_a_handle_or_a_document_link() -> None:
    scanner = secret_scanner(SecretsOptions())
    said = f"- 管理员: ops@kestrelmail.cn / {HANDLE}\n- sync: token={DOC_ID}\n"
    first = searched_matches([(m, said[m.start : m.end]) for m in scanner.scan(said)], scanner)
    assert set(first) == {HANDLE, DOC_ID}
    search = RepeatSearch(first, scanner, [])
    text = (
        f"- @{HANDLE} asked again\n- https://acme42.feishu.cn/docx/{DOC_ID}\n"
        f"- PostgreSQL 密码 {HANDLE}\n"
    )
    repeats = repeat_matches(text, scanner.scan(text), search, first)
    assert [(m.line, text.splitlines()[m.line - 1]) for m in repeats] == [
        (3, f"- PostgreSQL 密码 {HANDLE}")
    ]
