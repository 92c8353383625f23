from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_audit.analysis.similarity import (
    COMMON_FLOOR,
    ENTITY_WEIGHT,
    _lsh_candidates,
    jaccard,
    shingles,
    similar_pairs,
    tokens,
    vectors,
)

WORDS = [f"w{i}x" for i in range(300)]


def _collection(seed: int, size: int) -> list[str]:
    """Random notes; every fourth restates an earlier one with two words changed."""
    rng = random.Random(seed)
    notes: list[str] = []
    for i in range(size):
        if i % 4 == 3:
            words = notes[rng.randrange(i)].split()
            for _ in range(2):
                words[rng.randrange(len(words))] = rng.choice(WORDS)
        else:
            words = rng.sample(WORDS, 14)
        notes.append(" ".join(words))
    return notes


def _brute(notes: list[str], threshold: float) -> set[tuple[int, int]]:
    found = vectors(notes)
    return {
        (a, b)
        for a, b in itertools.combinations(range(len(notes)), 2)
        if found.cosine(a, b) >= threshold
    }


def test_join_finds_every_similar_pair_of_a_small_collection() -> None:
    notes = _collection(3, 160)
    brute = _brute(notes, 0.5)
    assert len(brute) >= 30
    assert {(a, b) for a, b, _ in similar_pairs(vectors(notes), 0.5)} == brute


def test_lsh_alone_finds_the_restatements_of_a_larger_collection() -> None:
    notes = _collection(5, 400)
    brute = _brute(notes, 0.7)
    joined = {(a, b) for a, b, _ in similar_pairs(vectors(notes), 0.7, exact_limit=0)}
    assert joined <= brute
    assert len(joined) >= 0.95 * len(brute)


NOTE_WORDS = st.sampled_from(
    ["deploy", "deploys", "approval", "the", "db", "src/app.py", "a@b.org", "日本語", "x1", "y"]
    + [f"w{i}" for i in range(12)]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(NOTE_WORDS, max_size=12).map(" ".join), min_size=2, max_size=40),
    st.floats(0.2, 0.95),
)
def test_the_bound_never_drops_a_pair_that_shares_a_rare_shingle(
    notes: list[str], threshold: float
) -> None:
    """Scoring every pair that shares a rare shingle (or meets in LSH) finds what the
    join finds: pairs left unscored by the Cauchy-Schwarz bound were all dissimilar."""
    found = vectors(notes)
    common = max(COMMON_FLOOR, len(notes) // 10)
    candidates = _lsh_candidates(found, 1) | {
        (a, b)
        for a, b in itertools.combinations(range(len(notes)), 2)
        if any(
            found.frequency[s] <= common
            for s in found.weighted[a].keys() & found.weighted[b].keys()
        )
    }
    scored = {(a, b, found.cosine(a, b)) for a, b in candidates}
    assert set(similar_pairs(found, threshold)) == {t for t in scored if t[2] >= threshold}


def test_shingles_keep_entities_whole_split_cjk_and_stem_words() -> None:
    assert shingles("Mail robin@fern.example about D:/dev/site and user_email") == [
        "mail",
        "robin@fern.example",
        "d:/dev/site",
        "user_email",
    ]
    assert shingles("构建目录") == ["构建", "建目", "目录"]
    assert shingles("The notes were merged concurrently") == ["note", "merg", "concur"]


def test_tokens_and_jaccard_for_the_seed_measure() -> None:
    assert tokens("The tests hit a real DB") == {"tests", "hit", "real", "db"}
    assert jaccard(frozenset("ab"), frozenset("bc")) == 1 / 3


def _vectors_as_before(texts: list[str]) -> tuple[list[dict[str, float]], list[float]]:
    """``vectors`` as it was when it kept every note's counts: the vectors and lengths."""
    cache: dict[str, tuple[str, ...]] = {}
    counts = [Counter(shingles(text, cache)) for text in texts]
    frequency: Counter[str] = Counter()
    for count in counts:
        frequency.update(count.keys())
    weight = {
        s: (math.log((1 + len(texts)) / (1 + df)) + 1) * (1 if s.isalnum() else ENTITY_WEIGHT)
        for s, df in frequency.items()
    }
    weighted = [
        {s: weight[s] if n == 1 else weight[s] * (1.0 + math.log(n)) for s, n in c.items()}
        for c in counts
    ]
    return weighted, [math.sqrt(sum([v * v for v in w.values()])) or 1.0 for w in weighted]


@given(
    st.lists(
        st.lists(st.sampled_from([*WORDS[:12], "src/app.py", "日本語", "the", "12"]), max_size=12),
        min_size=1,
        max_size=8,
    )
)
def test_vectors_made_without_keeping_the_counts_read_as_before(words: list[list[str]]) -> None:
    texts = [" ".join(note) for note in words]
    found = vectors(texts)
    weighted, norms = _vectors_as_before(texts)
    assert [list(w.items()) for w in found.weighted] == [list(w.items()) for w in weighted]
    assert list(found.norms) == norms
    for left, right in itertools.combinations(range(len(texts)), 2):
        both = weighted[left].keys() & weighted[right].keys()
        assert found.shared(left, right) == sorted(both, key=lambda s: (-found.weight[s], s))
