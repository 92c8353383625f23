"""The shortcuts of bloat's body scans give what the full scans give.

Each scan first asks one cheap question of the whole body (does it hold a status word, a
dated "as of", a story marker at all?) and stops there when the answer is no. These tests
prove that the answer "no" is never wrong: over every code point for the case folding,
and over generated bodies built from the very pieces the patterns look for.
"""

from __future__ import annotations

import datetime as dt
import re
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_audit.analysis import staleness
from memory_audit.analysis.staleness import (
    DONE,
    DONE_WORDS,
    OPEN,
    OPEN_WORDS,
    dated_as_current,
    finished_work,
    folded,
    not_status,
    stale_as_of,
    status_lines,
)
from memory_audit.checks.bloat import NARRATIVE, story_markers

ALL_CODE_POINTS = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
PIECES = st.sampled_from(
    [
        *("done", "DONE", "Shipped", "merged", "completed", "finished", "landed", "released"),
        *("todo", "TODO", "wip", "Next", "in progress", "pending", "blocked", "not started"),
        *("[ ]", "[x]", "[X]", "☐", "✓", "✔", "✅", "☑", "~~", "(done)", ": shipped", "— merged"),
        *("verify-done.sh", "done.md", "İn progress", "todı", "ſhipped", "\u212aept"),
        *("as of", "As at", "status", "currently", "right now", "state of play", "Status:"),
        *("ſtatus", "aſ of", "rİght now", "curren", "stat us"),
        *("2026-01-05", "2025-03", "March 2025", "12 Mar 2024", "Sep. 3, 2023", "resolved"),
        *("we found", "It turned out", "at first,", "Eventually,", "in this session", "then we"),
        *("during this session", "we tried", "it took us", "the user asked me", "I noticed"),
        *("\n", "\n\n", " ", "  ", "\t", ".", ". ", "。", "！", "?", ",", "-", "—", "(", ":"),
        *("- ", "* ", "1. ", "2) ", "```", "~~~", "| ", "> ", "# ", "<!-- ", "\u3000", "\xa0"),
        *("the", "build", "we", "found", "at", "first", "as", "of", "fails at first use"),
    ]
)
BODIES = st.lists(PIECES, max_size=40).map("".join)


def test_folding_keeps_every_character_ignorecase_takes_for_a_status_word_character() -> None:
    folded_all = folded(ALL_CODE_POINTS)
    assert len(folded_all) == len(ALL_CODE_POINTS)  # one character for one: places hold
    words = OPEN_WORDS + DONE_WORDS + staleness.CURRENT_WORDS
    for character in sorted({c for word in words for c in word}):
        for match in re.finditer(re.escape(character), ALL_CODE_POINTS, re.IGNORECASE):
            assert folded_all[match.start()] == character.lower(), hex(ord(match.group()))


def _every_status_line(body: str, pattern: re.Pattern[str]) -> set[int]:
    return {body.count("\n", 0, m.start()) for m in pattern.finditer(body)}


def _finished_work_in_full(lines: list[str], ratio: float) -> str | None:
    body = "\n".join(lines)
    listed = not_status(lines)  # table rows and code blocks list what exists: no status
    open_lines = _every_status_line(body, OPEN) - listed
    done_lines = _every_status_line(body, DONE) - open_lines - listed
    done, total = len(done_lines), len(done_lines) + len(open_lines)
    if total >= 3 and done / total >= ratio:
        return f"body is mostly finished work ({done} of {total} status lines done)"
    return None


@settings(max_examples=300, deadline=None)
@given(BODIES)
@example("- [x] ingest\n- [x] rate\n- ſhipped render\n- todı send")
@example("İn progress: a\n✓ b\n(done) c\n- [X] d")
@example("done\n~~~\ndone")  # a fence opened by tildes: its line is no status line
def test_status_lines_with_the_word_test_first_are_the_status_lines(body: str) -> None:
    words = folded(body)
    for pattern, vocabulary in ((OPEN, OPEN_WORDS), (DONE, DONE_WORDS)):
        assert status_lines(body, pattern) == _every_status_line(body, pattern)
        if not any(word in words for word in vocabulary):
            assert not _every_status_line(body, pattern)
    lines = body.split("\n")
    assert finished_work(lines, 0.7) == _finished_work_in_full(lines, 0.7)


@settings(max_examples=300, deadline=None)
@given(BODIES)
@example("Status as of 2026-01-05: live\nstatus: resolved 2025-03")
@example("currently (12 Mar 2024)\nAs at\nMarch 2025")
@example("status 2025-03 status 2026-01-05")
def test_stale_as_of_after_one_search_is_a_line_by_line_answer(body: str) -> None:
    # The whole-body search finds only claims the line-by-line reading finds (it drops those
    # a newer dated status of the file supersedes), each as that reading gives it.
    lines = body.split("\n")
    today = dt.date(2026, 11, 30)
    found = stale_as_of(lines, 3, today, 60)
    if dated_as_current(lines, 3, today, 60) is None:
        assert found is None
    if found is not None:
        # a claim of that line, the line-by-line reading finds one there (maybe another:
        # two statuses on one line, the newer the one kept)
        number, message = found
        line = lines[number - 3]
        assert dated_as_current([line], number, today, 60) is not None
        assert message.split("'")[1] in line


@settings(max_examples=300, deadline=None)
@given(BODIES)
@example("- It turned out。we found it\n> we tried\n```\nthen we\n```\nAt first, x")
def test_a_body_without_a_story_marker_has_none_in_its_sentences(body: str) -> None:
    lines = body.split("\n")
    if NARRATIVE.search(body) is None:
        assert story_markers(lines, 1) == {}


def test_the_word_lists_cover_the_patterns() -> None:
    """Every status marker the patterns know is in the word lists (a marker added to a
    pattern and not to its list would be skipped by the shortcut)."""
    samples = ["- [ ] a", "☐ a", "todo a", "WIP a", "next a", "x in progress", "x pending"]
    samples += ["x blocked", "x not started"]
    for sample in samples:
        assert OPEN.search(sample)
        assert any(word in folded(sample) for word in OPEN_WORDS), sample
    for sample in ["- [x] a", "~~a~~", "✓ a", "☑ a", "✅", "a done", "a shipped.", "(merged"]:
        assert DONE.search(sample)
        assert any(word in folded(sample) for word in DONE_WORDS), sample
    assert staleness.FOLD_TO_ASCII[0][0] == "İ"  # replaced before lower() doubles it


def test_the_current_words_cover_the_pattern() -> None:
    for sample in ("as of", "AS AT", "state of play", "currently", "Status", "right now"):
        dated = f"{sample}: 2025-03"
        assert staleness.CURRENT.search(dated), dated
        assert any(word in folded(dated) for word in staleness.CURRENT_WORDS), dated


# The patterns before issue 19: their white space ran on across lines (cubic on blank lines).
OLD_DONE = re.compile(
    r"^\s*(?:[-*+]\s*)?(?:\[[xX]\]|[✓✔✅☑]|~~)"
    r"|\b(?:done|shipped|merged|completed|finished|landed|released)\b\s*[.)]?\s*$"
    r"|[(:—-]\s*(?:done|shipped|merged|completed)\b(?![.-]\w)|[✓✔✅]",
    re.I | re.M,
)
OLD_OPEN = re.compile(
    r"^\s*(?:[-*+]\s*)?(?:\[ \]|☐|todo\b|wip\b|next\b)"
    r"|\b(?:in progress|pending|blocked|not started)\b",
    re.I | re.M,
)


def _without_blank_lines(body: str) -> str:
    """No blank line, and no line that is a bare list marker: after either, the old ``\\s*``
    ran on into the next line."""
    kept = (line for line in body.split("\n") if line.strip())
    return "\n".join(line for line in kept if line.strip() not in ("-", "*", "+"))


@settings(max_examples=600, deadline=None)
@given(BODIES.map(_without_blank_lines))
@example("done\n.\n- [x] a")
@example("- \t[ ] todo\nshipped )\t\n~~b~~")
def test_status_lines_are_the_old_patterns_lines_when_no_line_is_blank(body: str) -> None:
    """Only a blank line could carry the old ``\\s*`` from one line into the next."""
    assert status_lines(body, DONE) == _every_status_line(body, OLD_DONE)
    assert status_lines(body, OPEN) == _every_status_line(body, OLD_OPEN)


def test_a_bare_list_marker_marks_nothing_on_the_next_line() -> None:
    assert status_lines("-\n[x]", DONE) == {1}  # the old pattern said {0}: the marker's line
    assert status_lines("-\ntodo", OPEN) == {1}


def test_a_marker_after_a_blank_line_is_on_its_own_line() -> None:
    body = "Plan\n\n- [x] ingest\n\n\n- [ ] rate\ndone \n\n)"
    assert status_lines(body, DONE) == {2, 6}  # the old pattern said {1, 6}: the blank line
    assert status_lines(body, OPEN) == {5}  # the old pattern said {3}
