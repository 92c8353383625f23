"""Reading short texts in any script: length, shorthand, prose sentences, first sentences.

Chinese and Japanese write words without spaces, so length is counted in
*units*: a whitespace-separated word is one unit, a Chinese, Japanese or Korean
character half a unit (about one word per two characters). Code spans, URLs,
paths and identifiers (``user_email``, ``src/app.py``, ``getUser``) are one
unit each and never shorthand: they are names, not compression.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
NAMES = (
    r"`[^`\n]*`",  # code span
    # URL. Its scheme is at most 64 characters: unbounded, it was walked again from each word
    # of a long ``a-a-a-`` run (quadratic once the text held a slash anywhere); only a text
    # with a longer "scheme" before ``://`` is read otherwise.
    r"\b[a-z][a-z0-9+.-]{0,63}://\S+",
    # A path starts where a run of its characters starts: tried inside a run, it would
    # walk the run again from each place (quadratic in a 30 KB word), and it could only
    # match where the run's start already did.
    r"(?<![~.\w-])[~.\w-]*(?:[/\\][\w.@~-]+)+/?",
    r"\b\w+(?:[_.]\w+)+\b",  # identifier or file name
    r"\b[a-z]+[A-Z]\w*",  # camelCase
)
CODE_LIKE = re.compile("|".join(NAMES), re.ASCII)
# Without a slash there is no URL or path: the other names, found faster.
CODE_LIKE_UNSLASHED = re.compile("|".join(NAMES[:1] + NAMES[3:]), re.ASCII)
# A whitespace-separated word without a letter or digit ("—", "->", "___"): no unit. It
# starts only where a word starts, so a long run of symbols is walked once.
NO_LETTER_WORD = re.compile(r"(?<!\S)(?:[^\w\s]|_)+(?!\S)")
# Shorthand glues symbols to words ("db→real;no-mock"); prose spaces them ("ingest → rate").
# A "+" between two Latin words lists names ("Media3+SurfaceView+Ktor"), no shorthand; one
# touching a CJK character glues ("低量→爆量+堆疊").
GLUED = re.compile(r"\w(?:→|⇒|->|=>|;|&|\|)\w|[^\W\x00-\x7f]\+\w|\w\+[^\W\x00-\x7f]")
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
TABLE_OR_QUOTE = re.compile(r"^\s*(?:\||>|#|```|~~~|<)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def without_code(text: str) -> str:
    """``text`` with every code span, URL, path and identifier replaced by one placeholder."""
    slashed = "/" in text or "\\" in text
    return (CODE_LIKE if slashed else CODE_LIKE_UNSLASHED).sub(" code ", text)


def units(text: str) -> float:
    """Length in words: spaced words count one, CJK characters half, names one."""
    return _units(without_code(text))


def _units(plain: str) -> float:
    cjk = len(CJK_CHAR.findall(plain))
    spaced = CJK_CHAR.sub(" ", plain) if cjk else plain
    return len(spaced.split()) - len(NO_LETTER_WORD.findall(spaced)) + cjk / 2


def shorthand(text: str) -> bool:
    """Symbols glued between words, densely: at least three, and one per four words."""
    return units_and_shorthand(text)[1]


def units_and_shorthand(text: str) -> tuple[float, bool]:
    """:func:`units` and :func:`shorthand` of ``text``, its names replaced only once."""
    plain = without_code(text)
    length = _units(plain)
    glued = len(GLUED.findall(plain))
    return length, glued >= 3 and glued * 4 >= length


def prose_sentences(lines: Sequence[str]) -> Iterator[tuple[int, str]]:
    """``(line index, sentence)`` of prose: no headings, tables, quotes, code or comments."""
    fenced = False
    for number, text in enumerate(lines):
        stripped = text.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not stripped or TABLE_OR_QUOTE.match(text):
            continue
        prose = LIST_ITEM.sub("", text).strip()
        for sentence in SENTENCE_END.split(prose):
            if sentence.strip():
                yield number, sentence.strip()


def first_sentence(text: str, limit: int = 150) -> str:
    """The first sentence of ``text`` (markup stripped), cut at a word near ``limit``."""
    plain = re.sub(r"\*\*|__|`|^#+\s*|^\s*[-*+]\s+", "", text.strip(), flags=re.M)
    plain = " ".join(plain.split())
    sentence = SENTENCE_END.split(plain, maxsplit=1)[0] if plain else ""
    return clip(sentence, limit)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters between words, never inside one.

    A word cut in half would escape the redaction of secrets, which masks whole matches.
    """
    if len(text) <= limit:
        return text
    if text[limit].isspace():
        return text[:limit].rstrip() + "…"
    cut = text[: limit + 1]
    return (cut.rsplit(None, 1)[0] if cut.strip().count(" ") else "") + "…"


def clip_start(text: str, limit: int) -> str:
    """The last ``limit`` characters of ``text``, starting between words."""
    if len(text) <= limit:
        return text
    tail = text[-limit - 1 :]
    return "…" + (tail.split(None, 1)[1] if len(tail.split(None, 1)) > 1 else "")
