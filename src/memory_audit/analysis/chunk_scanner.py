"""The shingle matches of a chunk in linear time, as the shingle patterns find them.

:data:`~memory_audit.analysis.similarity.SHINGLE` tries at each place, in order, an e-mail
address, a URL, a path, an identifier, a CJK run and a word; in a long chunk an address and
a path start only where a run of their characters starts (a look-behind). Tried at each
place, the address walks the rest of its run before it fails (``a-a-a-…``), and so does the
path, ``(?:[a-z]:)?(?:[~.\\w-]*[/\\\\])+[\\w.-]+``, even with its look-behind, which lets it start
again after each separator: 20,000 slashes took 18 s. What an attempt finds is known from
its run, so it is worked out once per run:

- an address matches from a place in a run of ``[\\w.+-]`` exactly when it matches from the
  run's start, and ends where that match ends;
- for a path, a *good separator* is one followed by a tail character (``[\\w.-]``); let G be
  the last good separator of a run of path characters (``[~.\\w-]`` and separators). An
  attempt from a place at or before G matches up to the end of the tail characters after
  G (the greedy separators run to the run's last one, then back off separator by separator
  until one is followed by a tail character); from a place after G, or in a run without
  one, it fails. With the look-behind an attempt is made only at the run's start (or two
  before it, after a drive letter ``c:``) and right after a separator.

The URL is found by its fixed prefix (it runs to the chunk's end: a chunk has none of the
characters that end it), the identifier, CJK run and word run as one pattern (linear where
they may start), and the finders are merged in the pattern's order of preference. Each
finder remembers its next candidate until the scan passes it, so nothing is searched twice.
tests/analysis/test_chunk_scanner.py compares this with the patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

FLAGS = re.UNICODE | re.IGNORECASE
PATH_CHARS = r"~.\w\-"  # a path segment's characters (the run also holds separators)
RUN = re.compile(rf"[{PATH_CHARS}/\\]+", FLAGS)
# A run's start when the run holds a good separator: lazy, so a run without one is walked once.
RUN_WITH_PATH = re.compile(rf"(?<![{PATH_CHARS}/\\])[{PATH_CHARS}/\\]*?[/\\][\w.-]", FLAGS)
LAST_GOOD_SEPARATOR = re.compile(r"(?s:.*)[/\\][\w.-]", FLAGS)  # anchored at a run's start
SEPARATOR = re.compile(r"[/\\]")
TAIL = re.compile(r"[\w.-]+", FLAGS)
DRIVE = re.compile(rf"(?<![{PATH_CHARS}])[a-z]:", FLAGS)
DRIVE_ANYWHERE = re.compile(r"[a-z]:", FLAGS)
URL_START = re.compile(r"https?://[^\s)>\]`'\"]", FLAGS)
# A run of address characters from which an address matches (the run is the named group).
ADDRESS_RUN = re.compile(r"(?<![\w.+-])(?P<run>[\w.+-]+)@[\w-]+\.[\w.-]+", FLAGS)


@dataclass(frozen=True)
class _Run:
    """A run of path characters holding a good separator: where a path may start in it."""

    start: int
    last_good: int  # G: the last separator followed by a tail character
    path_end: int  # where every path that starts in the run ends
    drive: bool  # a drive letter and ``:`` just before it: a path may start there too


class _PathStarts:
    """The places, in order, where the path alternative matches."""

    def __init__(self, chunk: str, anywhere: bool) -> None:
        self.chunk = chunk
        self.anywhere = anywhere  # no look-behind: a path may start at any place of a run
        self.run = self._run_from(0)

    def _run_from(self, position: int) -> _Run | None:
        found = RUN_WITH_PATH.search(self.chunk, position)
        if found is None:
            return None
        start = found.start()
        end = _matched(RUN.match(self.chunk, start)).end()
        last_good = _matched(LAST_GOOD_SEPARATOR.match(self.chunk, start, end)).end() - 2
        path_end = _matched(TAIL.match(self.chunk, last_good + 1)).end()
        drive = (
            start >= 2
            and self.chunk[start - 1] == ":"
            and (DRIVE_ANYWHERE if self.anywhere else DRIVE).match(self.chunk, start - 2)
            is not None
        )
        return _Run(start, last_good, path_end, drive)

    def first_from(self, position: int) -> int | None:
        while self.run is not None:
            run = self.run
            if position <= run.start:
                return run.start - 2 if run.drive and position <= run.start - 2 else run.start
            if position <= run.last_good:
                if self.anywhere or self.chunk[position - 1] in "/\\":
                    return position
                separator = _matched(SEPARATOR.search(self.chunk, position)).start()
                if separator < run.last_good:
                    return separator + 1
            self.run = self._run_from(run.path_end)
        return None


def _matched(match: re.Match[str] | None) -> re.Match[str]:
    """A match the run's shape guarantees (a run found holds what these patterns need)."""
    assert match is not None
    return match


class _AddressStarts:
    """The places, in order, where the e-mail address alternative matches."""

    def __init__(self, chunk: str, anywhere: bool) -> None:
        self.chunk = chunk
        self.anywhere = anywhere
        self.run: re.Match[str] | None = ADDRESS_RUN.search(chunk)

    def first_from(self, position: int) -> int | None:
        while self.run is not None:
            start, end = self.run.span("run")
            if position <= start:
                return start
            if self.anywhere and position < end:
                return position
            self.run = ADDRESS_RUN.search(self.chunk, end)
        return None


SEARCH_AGAIN = -1


@dataclass(frozen=True)
class ShinglePatterns:
    """A shingle pattern cut in its alternatives: ``address``, ``url`` and ``path`` each in a
    group named ``entity``; ``others`` the identifier (``entity``), CJK run and word."""

    address: re.Pattern[str]
    url: re.Pattern[str]
    path: re.Pattern[str]
    others: re.Pattern[str]


class ChunkScanner:
    """The matches of the pattern in one chunk: with ``anywhere`` every alternative may
    start at any place (:data:`~memory_audit.analysis.similarity.SHINGLE`), without it the
    address and the path only where their look-behinds let them (the long-chunk pattern)."""

    def __init__(self, patterns: ShinglePatterns, anywhere: bool) -> None:
        self.patterns = patterns
        self.anywhere = anywhere

    def matches(self, chunk: str) -> Iterator[re.Match[str]]:
        addresses = _AddressStarts(chunk, self.anywhere)
        paths = _PathStarts(chunk, self.anywhere)
        beyond = len(chunk) + 1  # the place of a candidate that does not exist
        other = self.patterns.others.search(chunk)
        address_at = url_at = path_at = SEARCH_AGAIN
        position = 0
        while position < len(chunk):
            # a finder searches again only once the scan has passed its candidate
            if other is not None and other.start() < position:
                other = self.patterns.others.search(chunk, position)
            if address_at < position:
                address_at = _or(addresses.first_from(position), beyond)
            if url_at < position:
                found = URL_START.search(chunk, position)
                url_at = found.start() if found else beyond
            if path_at < position:
                path_at = _or(paths.first_from(position), beyond)
            match = self._first(chunk, (address_at, url_at, path_at), other, paths)
            if match is None:
                return
            yield match
            position = match.end()

    def _first(
        self,
        chunk: str,
        starts: tuple[int, int, int],
        other: re.Match[str] | None,
        paths: _PathStarts,
    ) -> re.Match[str] | None:
        """The match the pattern prefers: the leftmost; at one place an e-mail address,
        then a URL, then a path, then the others."""
        address_at, url_at, path_at = starts
        first = min(*starts, other.start() if other is not None else len(chunk) + 1)
        if first > len(chunk):
            return None
        if address_at == first:
            return self.patterns.address.match(chunk, first)
        if url_at == first:
            return self.patterns.url.match(chunk, first)
        if path_at == first:
            assert paths.run is not None
            return self.patterns.path.match(chunk, first, paths.run.path_end)
        return other


def _or(place: int | None, beyond: int) -> int:
    return beyond if place is None else place
