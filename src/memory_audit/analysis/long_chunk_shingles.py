"""The shingle matches of a long chunk in linear time, as the long-chunk pattern finds them.

:data:`~memory_audit.analysis.similarity.SHINGLE_IN_LONG_CHUNK` tries at each place, in
order, an e-mail address, a URL, a path, an identifier, a CJK run and a word. Its path,
``(?:[a-z]:)?(?:[~.\\w-]*[/\\\\])+[\\w.-]+``, tried where a run of ``/``, ``\\`` or ``~/``
starts again after each separator, walks the rest of the run before it fails: 20,000
slashes took 18 s. What a path attempt finds is known from its run of path characters
(``[~.\\w-]`` and separators), so it is worked out once per run:

- a *good separator* is one followed by a tail character (``[\\w.-]``); let G be the
  last good separator of the run;
- an attempt from a place at or before G matches up to the end of the tail characters
  after G (the greedy separators run to the run's last one, then back off separator by
  separator until one is followed by a tail character); from a place after G, or in a
  run without one, it fails;
- an attempt is made only where the look-behind lets it: at the run's start (or two
  before it, after a drive letter ``c:``) and right after a separator.

The other alternatives run as one pattern (each is linear where it may start), the URL is
found by its fixed prefix (it runs to the chunk's end: the chunk has none of the
characters that end it), and the three are merged in the pattern's order of preference.
Each finder remembers its next candidate until the scan passes it, so nothing is searched
twice. tests/analysis/test_long_chunk_shingles.py compares this with the pattern.
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
URL_START = re.compile(r"https?://[^\s)>\]`'\"]", FLAGS)


@dataclass(frozen=True)
class _Run:
    """A run of path characters holding a good separator: where a path may start in it."""

    start: int
    last_good: int  # G: the last separator followed by a tail character
    path_end: int  # where every path that starts in the run ends
    drive: bool  # a drive letter and ``:`` just before it: a path may start there too


class _PathStarts:
    """The places, in order, where the path alternative matches."""

    def __init__(self, chunk: str) -> None:
        self.chunk = chunk
        self.run = self._run_from(0)

    def _run_from(self, position: int) -> _Run | None:
        found = RUN_WITH_PATH.search(self.chunk, position)
        if found is None:
            return None
        start = found.start()
        end = RUN.match(self.chunk, start).end()  # type: ignore[union-attr]
        last_good = LAST_GOOD_SEPARATOR.match(self.chunk, start, end).end() - 2  # type: ignore[union-attr]
        path_end = TAIL.match(self.chunk, last_good + 1).end()  # type: ignore[union-attr]
        drive = (
            start >= 2
            and self.chunk[start - 1] == ":"
            and DRIVE.match(self.chunk, start - 2) is not None
        )
        return _Run(start, last_good, path_end, drive)

    def first_from(self, position: int) -> int | None:
        while self.run is not None:
            run = self.run
            if position <= run.start:
                return run.start - 2 if run.drive and position <= run.start - 2 else run.start
            if position <= run.last_good:
                if self.chunk[position - 1] in "/\\":
                    return position
                separator = SEPARATOR.search(self.chunk, position).start()  # type: ignore[union-attr]
                if separator < run.last_good:
                    return separator + 1
            self.run = self._run_from(run.path_end)
        return None


SEARCH_AGAIN = -1


class LongChunk:
    """The pattern's matches in one long chunk: ``others`` is its e-mail address (in a group
    named ``email``), identifier, CJK run and word; ``url`` and ``path`` are its URL and
    path, each in a group named ``entity``."""

    def __init__(self, others: re.Pattern[str], url: re.Pattern[str], path: re.Pattern[str]):
        self.others, self.url, self.path = others, url, path

    def matches(self, chunk: str) -> Iterator[re.Match[str]]:
        paths = _PathStarts(chunk)
        beyond = len(chunk) + 1  # the place of a candidate that does not exist
        other = self.others.search(chunk)
        url_at = path_at = SEARCH_AGAIN
        position = 0
        while position < len(chunk):
            # a finder searches again only once the scan has passed its candidate
            if other is not None and other.start() < position:
                other = self.others.search(chunk, position)
            if url_at < position:
                found = URL_START.search(chunk, position)
                url_at = found.start() if found else beyond
            if path_at < position:
                start = paths.first_from(position)
                path_at = beyond if start is None else start
            match = self._first(chunk, other, url_at, path_at, paths)
            if match is None:
                return
            yield match
            position = match.end()

    def _first(
        self,
        chunk: str,
        other: re.Match[str] | None,
        url_at: int,
        path_at: int,
        paths: _PathStarts,
    ) -> re.Match[str] | None:
        """The match the pattern prefers: the leftmost; at one place an e-mail address,
        then a URL, then a path, then the others."""
        other_at = other.start() if other is not None else len(chunk) + 1
        first = min(other_at, url_at, path_at)
        if first > len(chunk):
            return None
        if other is not None and other_at == first and other.group("email") is not None:
            return other
        if url_at == first:
            return self.url.match(chunk, first)
        if path_at == first:
            assert paths.run is not None
            return self.path.match(chunk, first, paths.run.path_end)
        return other
