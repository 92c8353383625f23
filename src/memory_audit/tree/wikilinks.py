"""``[[name]]``, ``[[name#heading]]`` and ``[[name|shown text]]``, found in linear time.

Not CommonMark, so not in markdown-it's tokens: a hand scanner over the text
of a paragraph. Each character is looked at a bounded number of times
whatever the input (``[[`` × 100,000 included): the position of the next
``]]`` is found once and reused until the scan passes it.
"""

from __future__ import annotations

from collections.abc import Iterator


def find_wikilinks(text: str) -> Iterator[tuple[int, int, str]]:
    """Yield ``(start, end, name)`` for each wikilink; ``name`` is stripped."""
    pos, close = 0, -1
    while (start := text.find("[[", pos)) >= 0:
        if close < start + 2:
            close = text.find("]]", start + 2)
            if close < 0:
                return
        inner = start + 2
        last_open = text.rfind("[", inner, close)
        if last_open >= 0:
            pos = last_open - 1  # a later "[[" may open right there
            continue
        name = _name(text, inner, close)
        if name:
            yield start, close + 2, name
        pos = close + 2


def _name(text: str, inner: int, close: int) -> str:
    if text.find("]", inner, close) >= 0 or text.find("\n", inner, close) >= 0:
        return ""
    end = close
    for mark in "|#":
        found = text.find(mark, inner, end)
        if found >= 0:
            end = found
    return text[inner:end].strip()
