"""Set similarity for short texts: tokens, Jaccard, and an all-pairs join (PPJoin).

The join is a set-similarity join, not all pairs: tokens are ordered rarest
first, each set is indexed by its prefix (the first ``|A| - ⌈t·|A|⌉ + 1``
tokens, where any qualifying pair must share a token; sets already indexed are
smaller, so they need only ``|B| - ⌈2t/(1+t)·|B|⌉ + 1``), candidates are cut by
size (``|B| ≥ t·|A|``) and by position (the tokens left after the shared one must
still be able to reach ``⌈t/(1+t)·(|A|+|B|)⌉`` in common), and only the survivors
are verified.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict, deque
from collections.abc import Iterator, Sequence
from typing import Protocol, TypeVar

TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own same she should so
    some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours""".split()
)


def tokens(text: str) -> frozenset[str]:
    return frozenset(t for t in TOKEN.findall(text.lower()) if t not in STOPWORDS)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


class Keyed(Protocol):
    @property
    def path(self) -> str: ...


K = TypeVar("K", bound=Keyed)


def similar_pairs(
    records: Sequence[K], sets: dict[str, frozenset[str]], threshold: float
) -> Iterator[tuple[K, K, float]]:
    """Every pair with Jaccard ≥ threshold (PPJoin: prefix, size and positional filtering)."""
    frequency = Counter(t for r in records for t in sets[r.path])
    by_size = sorted(records, key=lambda r: (len(sets[r.path]), r.path))
    sizes = [len(sets[r.path]) for r in by_size]
    postings: dict[str, deque[tuple[int, int]]] = defaultdict(deque)
    for x, record in enumerate(by_size):
        ordered = sorted(sets[record.path], key=lambda t: (frequency[t], t))
        size = sizes[x]
        probe = size - math.ceil(threshold * size) + 1
        overlap = _prefix_overlaps(ordered[:probe], size, sizes, postings, threshold)
        for y, count in overlap.items():
            if count > 0:
                other = by_size[y]
                common = len(sets[record.path] & sets[other.path])
                score = common / (size + sizes[y] - common)
                if score >= threshold:
                    yield other, record, score
        # Later records are at least as large, so a shorter prefix suffices for the index.
        indexed = size - math.ceil(2 * threshold / (1 + threshold) * size) + 1
        for i, token in enumerate(ordered[:indexed]):
            postings[token].append((x, i))


def _prefix_overlaps(
    prefix: Sequence[str],
    size: int,
    sizes: Sequence[int],
    postings: dict[str, deque[tuple[int, int]]],
    threshold: float,
) -> dict[int, int]:
    """Candidates with their prefix overlap; 0 marks one the positional bound ruled out."""
    overlap: dict[int, int] = {}
    minimum = threshold * size
    for i, token in enumerate(prefix):
        entries = postings.get(token)
        if not entries:
            continue
        while entries and sizes[entries[0][0]] < minimum:
            entries.popleft()  # too small for this record, so for every later (larger) one
        for y, j in entries:
            seen = overlap.get(y)
            if seen == 0:
                continue
            needed = math.ceil(threshold / (1 + threshold) * (size + sizes[y]))
            bound = (seen or 0) + 1 + min(size - i - 1, sizes[y] - j - 1)
            overlap[y] = (seen or 0) + 1 if bound >= needed else 0
    return overlap
