"""Similarity of short notes: shingles that survive rewording, TF-IDF cosine, and a join.

Shingles (:func:`shingles`):

- runs of Chinese, Japanese or Korean characters give character bigrams
  (these scripts write words without spaces; most words are two characters);
- paths, URLs, e-mail addresses and identifiers (``user_email``,
  ``D:/work/site``) are one shingle each, kept whole and weighted ``ENTITY_WEIGHT``
  times a word: rare and exact, they name the fact;
- other words are lower-cased, lightly stemmed (``notes`` = ``note``) and
  stopwords dropped.

Each note is a TF-IDF vector over its shingles (``tf = 1 + ln(count)``,
``idf = ln((1 + n) / (1 + df)) + 1``); two notes score the cosine of their vectors.

The join (:func:`similar_pairs`) scores only candidate pairs:

- MinHash-LSH, always: one-permutation MinHash over ``BINS`` bins (empty bins
  borrow a neighbour's value), bands of ``ROWS`` bins; in trees over
  ``20 * LSH_FLOOR`` notes, shingles held by more than a twentieth of the notes
  are left out. Members of a band bucket are sorted by signature and each is
  paired with its next ``WINDOW`` neighbours and the bucket's first member
  (sorted neighbourhood), so a bucket of 500 restatements costs a few thousand
  scores, not 125,000. Over ``EXACT_LIMIT`` notes a pair must meet in two bands.
- Up to ``EXACT_LIMIT`` notes, also every pair that shares a shingle held by
  few notes (at most ``max(COMMON_FLOOR, n / 10)``): paraphrases share little,
  but what they share is rare.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from memory_audit.analysis.chunk_scanner import ChunkScanner, ShinglePatterns

TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
# Text splits into chunks at spaces and brackets; each chunk's shingles are computed once.
CHUNK = re.compile(r"[^\s()\[\]<>{}\"'`,;*|]+")
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
ENTITY = (
    r"[\w.+-]+@[\w-]+\.[\w.-]+",  # e-mail address
    r"https?://[^\s)>\]`'\"]+",  # URL
    r"(?:[a-z]:)?(?:[~.\w-]*[/\\])+[\w.-]+",  # path
    r"\w+(?:[_.]\w+)+",  # identifier, file name
)
SHINGLE = re.compile(
    rf"(?P<entity>{'|'.join(ENTITY)})|(?P<cjk>[{CJK}]+)|(?P<word>[^\W_]+)",
    re.UNICODE | re.IGNORECASE,
)
# SHINGLE tried at each place of a chunk walks the rest of a run of address or path
# characters before it fails ("a-a-a-…", "////…"): quadratic in the chunk's length. A chunk
# of more than SHORT_CHUNK characters is read by a linear scanner that finds what SHINGLE
# finds (chunk_scanner). In a long chunk, over LONG_CHUNK characters, an address
# starts only where a run of its characters starts, and a path also right after a
# separator (the look-behinds of the long-chunk pattern); this reads a few contrived joins
# ("a@x.io\\b") otherwise, so shorter chunks, all of real prose, keep SHINGLE's reading.
SHORT_CHUNK = 32
LONG_CHUNK = 256
_ALTERNATIVES = ShinglePatterns(
    address=re.compile(rf"(?P<entity>{ENTITY[0]})", re.UNICODE | re.IGNORECASE),
    url=re.compile(rf"(?P<entity>{ENTITY[1]})", re.UNICODE | re.IGNORECASE),
    path=re.compile(rf"(?P<entity>{ENTITY[2]})", re.UNICODE | re.IGNORECASE),
    others=re.compile(
        rf"(?P<entity>{ENTITY[3]})|(?P<cjk>[{CJK}]+)|(?P<word>[^\W_]+)",
        re.UNICODE | re.IGNORECASE,
    ),
)
IN_CHUNK = ChunkScanner(_ALTERNATIVES, anywhere=True)
IN_LONG_CHUNK = ChunkScanner(_ALTERNATIVES, anywhere=False)
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own same she should so
    some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours""".split()
)
# A shared address, path or identifier is strong evidence of the same fact.
ENTITY_WEIGHT = 3.0
STEM_LENGTH = 6
EXACT_LIMIT = 2000
COMMON_FLOOR = 12
LSH_FLOOR = 200
BINS = 16
ROWS = 2
WINDOW = 3
BOUND_MARGIN = 1e-9  # rounding room: a bound never drops a pair the cosine would keep


def tokens(text: str) -> frozenset[str]:
    """Lower-cased words without stopwords (the set measure of the seed's dimension 4)."""
    return frozenset(t for t in TOKEN.findall(text.lower()) if t not in STOPWORDS)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def shingles(text: str, cache: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """The text's shingles; ``cache`` (chunk -> shingles) pays off over a collection."""
    memo = {} if cache is None else cache
    found: list[str] = []
    for chunk in CHUNK.findall(text.lower()):
        known = memo.get(chunk)
        if known is None:
            known = memo[chunk] = tuple(_chunk_shingles(chunk))
        found += known
    return found


def chunk_iter(text: str) -> Iterator[str]:
    """The pieces :func:`shingles` cuts ``text`` into, one at a time (a reader that stops
    early cuts no more); each piece's shingles are :func:`chunk_shingles` of it."""
    return (match.group(0) for match in CHUNK.finditer(text.lower()))


def chunk_shingles(chunk: str) -> tuple[str, ...]:
    return tuple(_chunk_shingles(chunk))


def shingle_matches(text: str) -> Iterator[re.Match[str]]:
    """The matches :func:`shingles` reads in ``text``, chunk by chunk, as written."""
    for chunk in CHUNK.finditer(text):
        yield from _matches(chunk.group(0))


def _matches(chunk: str) -> Iterator[re.Match[str]]:
    if len(chunk) <= SHORT_CHUNK:
        return SHINGLE.finditer(chunk)
    return (IN_CHUNK if len(chunk) <= LONG_CHUNK else IN_LONG_CHUNK).matches(chunk)


def _chunk_shingles(chunk: str) -> Iterator[str]:
    for match in _matches(chunk):
        kind = match.lastgroup
        value = match.group(0)
        if kind == "cjk":
            yield from (value[i : i + 2] for i in range(max(1, len(value) - 1)))
        elif kind == "entity":
            yield value.rstrip(".").replace("\\", "/")
        elif value not in STOPWORDS and not value.isdigit():
            yield stem(value)


def stem(word: str) -> str:
    """A light stemmer: plural and tense suffixes off, then the first ``STEM_LENGTH`` letters.

    Truncation is crude and robust: "concurrently" meets "concurrent", "configured"
    meets "configuration", in any language written with spaces.
    """
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix, keep in (("ing", 4), ("ed", 4), ("es", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep and not word.endswith("ss"):
            return word[: -len(suffix)][:STEM_LENGTH]
    return word[:STEM_LENGTH]


@dataclass(frozen=True)
class Vectors:
    """A collection as TF-IDF vectors: one weight per shingle (its idf), each note's
    vector (its shingles, in the order the note holds them), and each note's vector length.
    The shingle counts the vectors are made of are not kept (a second dict a note)."""

    weight: Mapping[str, float]
    norms: tuple[float, ...]
    frequency: Mapping[str, int]
    weighted: tuple[Mapping[str, float], ...]  # each note's vector: weight times tf

    def cosine(self, left: int, right: int) -> float:
        a, b = self.weighted[left], self.weighted[right]
        if len(b) < len(a):
            a, b = b, a
        dot = sum([value * b[s] for s, value in a.items() if s in b])
        return dot / (self.norms[left] * self.norms[right])

    def shared(self, left: int, right: int) -> list[str]:
        """Shingles both hold, heaviest first."""
        both = self.weighted[left].keys() & self.weighted[right].keys()
        return sorted(both, key=lambda s: (-self.weight[s], s))


def _tf(count: int) -> float:
    return 1.0 if count == 1 else 1.0 + math.log(count)


def vectors(texts: Sequence[str]) -> Vectors:
    cache: dict[str, tuple[str, ...]] = {}
    counts = [Counter(shingles(text, cache)) for text in texts]
    frequency: Counter[str] = Counter()
    for count in counts:
        frequency.update(count.keys())
    total = len(texts)
    weight = {
        s: (math.log((1 + total) / (1 + df)) + 1) * (1 if s.isalnum() else ENTITY_WEIGHT)
        for s, df in frequency.items()
    }
    made: list[Mapping[str, float]] = []
    counts.reverse()  # taken from the end: each note's counts freed as its vector is made
    while counts:
        count = counts.pop()
        made.append({s: weight[s] if n == 1 else weight[s] * _tf(n) for s, n in count.items()})
    weighted = tuple(made)
    norms = tuple(math.sqrt(sum([v * v for v in w.values()])) or 1.0 for w in weighted)
    return Vectors(weight, norms, frequency, weighted)


def similar_pairs(
    found: Vectors, threshold: float, exact_limit: int = EXACT_LIMIT
) -> Iterator[tuple[int, int, float]]:
    """Pairs ``(i, j, score)``, ``i < j``, with cosine at least ``threshold``."""
    small = len(found.weighted) <= exact_limit
    # In a large collection a pair must meet in two bands: one meeting is mostly chance.
    pairs = _lsh_candidates(found, 1 if small else 2)
    if small:
        pairs |= _exact_candidates(found, threshold)
    for left, right in sorted(pairs):
        score = found.cosine(left, right)
        if score >= threshold:
            yield left, right, score


def _exact_candidates(found: Vectors, threshold: float) -> set[tuple[int, int]]:
    """Pairs that share a shingle held by few notes, and may reach ``threshold``.

    The dot product of a pair is its rare shingles' part (summed here, from the
    postings that find the pair) plus its common shingles' part, which is at most
    the product of the two notes' common-part norms (Cauchy-Schwarz): a pair whose
    bound stays under the threshold cannot be similar and is not scored.
    """
    common = max(COMMON_FLOOR, len(found.weighted) // 10)
    postings: dict[str, tuple[list[int], list[float]]] = {}
    rare: list[
        list[tuple[str, int]]
    ] = []  # each note's rare shingles, and its place in the posting
    common_norms = []
    for number, weights in enumerate(found.weighted):
        squares = 0.0
        mine = []
        for shingle, value in weights.items():
            if found.frequency[shingle] <= common:
                notes, values = postings.setdefault(shingle, ([], []))
                mine.append((shingle, len(notes)))
                notes.append(number)
                values.append(value)
            else:
                squares += value * value
        rare.append(mine)
        common_norms.append(math.sqrt(squares))
    bound = threshold * (1 - BOUND_MARGIN)
    pairs: set[tuple[int, int]] = set()
    for left, mine in enumerate(rare):
        dots = _rare_dots(mine, postings, found.weighted[left])
        room = bound * found.norms[left]
        pairs.update(
            (left, right)
            for right, dot in dots.items()
            if dot + common_norms[left] * common_norms[right] >= room * found.norms[right]
        )
    return pairs


def _rare_dots(
    mine: list[tuple[str, int]],
    postings: Mapping[str, tuple[list[int], list[float]]],
    weights: Mapping[str, float],
) -> dict[int, float]:
    """The rare part of the dot product with every later note that shares a rare shingle."""
    dots: dict[int, float] = {}
    for shingle, place in mine:
        notes, values = postings[shingle]
        value = weights[shingle]
        for right, other in zip(notes[place + 1 :], values[place + 1 :], strict=True):
            dots[right] = dots.get(right, 0.0) + value * other
    return dots


def _lsh_candidates(found: Vectors, meetings: int) -> set[tuple[int, int]]:
    common = max(LSH_FLOOR, len(found.weighted) // 20)
    hashes = {s: _hash(s) for s, df in found.frequency.items() if df <= common}
    signatures = [_signature(w, hashes) for w in found.weighted]
    met: Counter[tuple[int, int]] = Counter()
    for band in range(0, BINS, ROWS):
        buckets: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for number, signature in enumerate(signatures):
            if signature:
                buckets[signature[band : band + ROWS]].append(number)
        for members in buckets.values():
            if len(members) > 1:
                met.update(set(_neighbours(members, signatures)))
    return {pair for pair, count in met.items() if count >= meetings}


_EMPTY = 1 << 64


def _hash(shingle: str) -> int:
    return int.from_bytes(hashlib.blake2b(shingle.encode(), digest_size=8).digest(), "big")


def _signature(weights: Iterable[str], hashes: Mapping[str, int]) -> tuple[int, ...]:
    signature = [_EMPTY] * BINS
    for shingle in weights:
        value = hashes.get(shingle)
        if value is not None and value < signature[value % BINS]:
            signature[value % BINS] = value
    return _densified(signature)


def _densified(signature: list[int]) -> tuple[int, ...]:
    """Empty bins borrow the next filled bin's value, offset by the distance (rotation).

    Short notes fill few of the bins; without this, their bands would be empty.
    A note with no hashed shingle has no signature (the empty tuple).
    """
    if _EMPTY not in signature:
        return tuple(signature)
    if signature.count(_EMPTY) == BINS:
        return ()
    borrowed, distance = _EMPTY, 0
    for i in range(2 * BINS - 1, -1, -1):  # twice round, right to left, so every bin borrows
        value = signature[i % BINS]
        if value != _EMPTY:
            borrowed, distance = value, 0
        else:
            distance += 1
            if i < BINS and borrowed != _EMPTY:
                signature[i] = borrowed + distance * BINS
    return tuple(signature)


def _neighbours(
    members: list[int], signatures: Sequence[tuple[int, ...]]
) -> Iterator[tuple[int, int]]:
    if len(members) <= WINDOW + 1:
        yield from ((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
        return
    ordered = sorted(members, key=lambda m: signatures[m])
    for i, member in enumerate(ordered):
        for other in (ordered[0], *ordered[i + 1 : i + 1 + WINDOW]):
            if other != member:
                yield min(member, other), max(member, other)
