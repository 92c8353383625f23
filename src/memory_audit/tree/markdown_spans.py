"""markdown-it's code spans, without markdown-it, for inline text that holds no ``[``.

Without ``[`` there is no link, image or wikilink, and without ``\\`` no escape: a
backtick run then always reaches markdown-it's ``backticks`` rule, which
:func:`code_spans` follows (markdown-it 4: the closer is the next run of the same
length; a run with no closer is text). tests/tree/test_markdown_fast_paths.py
compares both.
"""

from __future__ import annotations

from collections.abc import Iterator


def plain_code_text(text: str) -> bool:
    """True when :func:`code_spans` reads ``text`` as markdown-it does."""
    return "[" not in text and "\\" not in text


def code_spans(text: str) -> Iterator[tuple[int, int, str]]:
    """``(start, end, content)`` of each code span, as markdown-it's ``code_inline``."""
    runs = last_runs(text)
    pos = 0
    while (start := text.find("`", pos)) != -1:
        span = closing_run(text, start, runs)
        if span is not None:
            yield span
        pos = span[1] if span is not None else run_end(text, start)


def closing_run(text: str, start: int, runs: dict[int, int]) -> tuple[int, int, str] | None:
    """The code span opened by the backtick run at ``start``, or None (the run is text).

    ``runs``: :func:`last_runs` of ``text``."""
    opener_end = run_end(text, start)
    length = opener_end - start
    if runs.get(length, -1) < opener_end:
        return None  # no closer anywhere after: the run is text
    closer = opener_end
    while (closer := text.find("`", closer)) != -1:
        closer_end = run_end(text, closer)
        if closer_end - closer == length:
            return start, closer_end, _content(text[opener_end:closer])
        closer = closer_end
    return None


def run_end(text: str, start: int) -> int:
    end = start + 1
    while end < len(text) and text[end] == "`":
        end += 1
    return end


def last_runs(text: str) -> dict[int, int]:
    """Where the last run of each length starts (markdown-it's ``_build_last_runs``)."""
    runs: dict[int, int] = {}
    pos = 0
    while (start := text.find("`", pos)) != -1:
        pos = run_end(text, start)
        runs[pos - start] = start
    return runs


def _content(raw: str) -> str:
    content = raw.replace("\n", " ")
    if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
        return content[1:-1]
    return content


def without_code_spans(line: str) -> str:
    """``line`` with its code spans taken out (a space where each was)."""
    if "`" not in line:
        return line
    kept: list[str] = []
    at = 0
    for start, end, _ in code_spans(line):
        kept.append(line[at:start])
        at = end
    kept.append(line[at:])
    return " ".join(kept)
