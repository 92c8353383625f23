"""Descriptions that recall: the one line Claude Code picks topic files by.

At each turn Claude Code chooses at most five topic files from their file
names and ``description`` lines; a description that says nothing
specific is a memory that is never recalled. This dimension reads each
description (and each MEMORY.md hook) for what makes recall fail:

- ``generic-description``: empty, or only words of the stop list (``misc``,
  ``notes``, ``various``, ``things``, ``stuff``, ``info``, ``memory``, ...):
  no content word;
- ``description-off-body``: shares no word with the file's own name and body
  (after stemming; CJK by character bigrams): it describes something else
  (not judged across scripts: an English line on a Chinese note shares no word);
- ``same-description``: the same, or nearly the same (the same content words,
  in any order and form), description on two or more files: Claude Code
  cannot tell them apart (one finding per group);
- ``cut-description``: cut mid-sentence (ends in ``...``/``…``, a comma, a
  colon, a dash, an open bracket, or a word such as "and", "the", "to"; not a verb's
  particle, "the user logs in", nor an acronym, "in some AT");
- ``index-line-without-hook``: a MEMORY.md line that links a file and says
  nothing about when it matters; in an index under 10,000 characters a title of its own
  words ("Debugging Patterns") is enough, one that repeats the file's name is not.

One-word descriptions are ``bloat``'s ``terse-description``, not repeated here.
Each finding proposes a description built from the file's own first sentence;
``memory-audit review`` offers it as the value of a ``set-field`` fix, asked,
never applied without confirmation.

Failing::

    ---
    description: misc notes
    ---
    Deploys to production need a manual approval in the pipeline.

    a.md:3 — description `misc notes` says nothing specific. Suggest: describe
    what it is about, e.g. "Deploys to production need a manual approval in the pipeline."

Passing: ``description: Production deploys need a manual approval step``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from memory_audit.analysis.similarity import CHUNK, chunk_iter, chunk_shingles, shingles, stem
from memory_audit.analysis.wording import CJK_CHAR, clip, clip_start, first_sentence, units
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.index_file import INDEX_NAME
from memory_audit.tree.load_budget import SMALL_INDEX_CHARS
from memory_audit.tree.markdown import first_paragraph
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "descriptions"
GENERIC = frozenset(
    """misc miscellaneous various varied random notes note things thing stuff info information
    memory memories file files details detail general generic todo todos updates update log
    logs items item etc other others some more misc. wip tmp temp scratch draft drafts
    important useful stuff. topics topic content contents data
    メモ 備忘録 雑多 その他 笔记 杂项 其他 备忘 메모 기타""".split()
)
GENERIC_STEMS = frozenset(stem(word) for word in GENERIC) | GENERIC
# Every piece of a CJK stop word: a character bigram of `メモ` or `备忘录` is no content word.
CJK_STOP_PIECES = frozenset(
    word[start:end]
    for word in GENERIC
    if not word.isascii()
    for start in range(len(word) + 1)
    for end in range(start, len(word) + 1)
)
STOP_WORDS = GENERIC_STEMS | CJK_STOP_PIECES
CJK_RUN = re.compile(f"(?:{CJK_CHAR.pattern})+")
CUT_WORDS = frozenset(
    """and or the a an to of with for that which because but if when in on at by from as
    is are was were be e.g i.e""".split()
)
BODY_WORDS = 12  # a body shorter than this is too little to judge a description by
SENTENCE_TITLE = 5  # words; "Credit spreads must be atomic orders" says when it matters
TITLE_WORDS = 2  # a title of two words or four CJK characters says what a file holds
# "that" closing a sentence as a pronoun ("a process for that", "only the user does that"),
# not a conjunction left open ("ensure that"): after a preposition or a form of "do"
PRONOUN_THAT_AFTER = frozenset(
    """for about after before like with without on of to from by than into do does did done
    doing""".split()
)
CUT_END = re.compile(r"(?:\.\.\.|…|[,:;(\[{–—-])\s*$")
# A preposition an infinitive leaves at the end ("a class of bug to check for", "one to
# keep an eye on"): the sentence is whole.
STRANDED = re.compile(
    r"(?i)\bto\s+(?!(?:the|a|an|its|their|this|that|these|those|my|our|your|his|her|some|any|"
    r"each|every|all|one|two|three|four|five|six|seven|eight|nine|ten|\d+)\b)\w+"
    r"(?:\s+(?:out|up|back|down|over|off|an eye))?\s+(?:for|with|about|on|of|at|from|into)$"
)
# A word of capitals ("AT", "OR", "IS"): an acronym, never the function word it spells
ACRONYM = re.compile(r"[A-Z]{2,}[.!?]?")
# A verb's particle that ends a sentence whole after it: "plugs in", "logs in", "kicks in"
PARTICLES = frozenset({"in", "on"})
PHRASAL_VERBS = frozenset(
    """plug log sign opt check kick fill step chime cave settle weigh tune join dial zoom
    drill phase roll sink turn lock bake build tap hook fit hold hang carry keep move
    switch click hand pass take try put""".split()
)


def _phrasal(word: str) -> bool:
    """A form of a verb of :data:`PHRASAL_VERBS`: ``plugs``, ``plugged``, ``logging``,
    ``fills``, ``filled``."""
    stems = {word}
    for suffix in ("ing", "ed", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            stems.update((stem, stem[:-1] if stem[-1:] == stem[-2:-1] else stem))
    return not stems.isdisjoint(PHRASAL_VERBS)


# Where a clipped first sentence may end as a sentence of its own: after a clause.
CLAUSE_END = re.compile(r"\s*(?:[,;]|\s[–—-])\s")
# A clause that qualifies what comes before it: no cut before it.
QUALIFIER = re.compile(
    r"(?i)(?:except|unless|but|only|not|never|if|when|while|until|without|as long as|provided)\b"
)
UNCLIPPED = 10_000  # characters: first_sentence's limit when asking whether it clipped


@dataclass(frozen=True)
class Options:
    pass


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    memories = sorted(tree.memories, key=lambda m: m.path)
    # A description cut at an unquoted ` #` is judged once, as that (frontmatter): what is
    # left of it is a fragment, neither generic nor terse nor off its body.
    described = [
        m for m in memories if _has_description(m) and not m.read.cut_at_comment("description")
    ]
    words = Words()
    for memory in described:
        yield from _generic(memory, words)
        yield from _cut(memory)
        yield from _off_body(memory, words)
    yield from _same(described, words)
    yield from _hookless(tree)


class Words:
    """``content_words`` over one tree: a word met in many files is stemmed once."""

    def __init__(self) -> None:
        self.chunks: dict[str, tuple[str, ...]] = {}

    def of(self, text: str) -> set[str]:
        return content_words(text, self.chunks)

    def shares(self, text: str, words: set[str]) -> bool:
        """Whether ``text`` holds one of ``words`` (content words). Only the chunks where
        one of them (or the word it stems from) occurs are shingled: every shingle is a
        piece of its chunk (a stem is a word's start; a CJK bigram and an entity are
        pieces), save the stem ``policy`` of ``policies``."""
        lowered = text.lower()
        located = ChunkFinder(lowered)
        searchable = lowered.replace("\\", "/")  # an entity's `\\` is a `/` in its shingle
        for word in words:
            needles = (word, f"{word[:-1]}ies") if word.endswith("y") else (word,)
            for needle in needles:
                at = searchable.find(needle)
                while at != -1:
                    start, end = located.around(at)
                    if not words.isdisjoint(self.shingles(lowered[start:end])):
                        return True
                    at = searchable.find(needle, max(end, at + 1))
        return False

    def reach(self, text: str, count: int) -> bool:
        """Whether ``text`` holds at least ``count`` content words."""
        words: set[str] = set()
        for chunk in chunk_iter(text):
            words.update(self.shingles(chunk))
            words -= STOP_WORDS
            if len(words) >= count:
                return True
        return False

    def shingles(self, chunk: str) -> tuple[str, ...]:
        known = self.chunks.get(chunk)
        if known is None:
            known = self.chunks[chunk] = chunk_shingles(chunk)
        return known


class ChunkFinder:
    """The chunk (see :func:`~memory_audit.analysis.similarity.chunk_iter`) around a place
    in a text, found by two matches of the chunk pattern: forwards, and backwards over
    the reversed text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.reversed = text[::-1]

    def around(self, at: int) -> tuple[int, int]:
        ahead = CHUNK.match(self.text, at)
        if ahead is None:
            return at, at + 1  # a separator: the empty piece, no shingle
        behind = CHUNK.match(self.reversed, len(self.text) - 1 - at)
        return at + 1 - (behind.end() - behind.start() if behind else 1), ahead.end()


def _has_description(memory: MemoryFile) -> bool:
    return memory.frontmatter is not None and "description" in memory.frontmatter


def proposal(memory: MemoryFile) -> str:
    """A description from the memory's own first sentence (headings and banners skipped)."""
    lines = [line for line in memory.body_lines if not line.lstrip().startswith((">", "<!--"))]
    # Nothing skipped: the body's own parse (line numbers do not change the text).
    opening = (
        memory.first_paragraph if len(lines) == len(memory.body_lines) else first_paragraph(lines)
    )
    sentence = first_sentence(opening) or memory.name.replace("_", " ")
    if sentence.endswith("…") and len(first_sentence(opening, UNCLIPPED)) > len(sentence):
        sentence = _last_clause(sentence[:-1].rstrip() + " ") or sentence
    # An opening that leads into a list ("Dormant notes:") would be reported as cut: the
    # proposal must not be the next finding.
    if CUT_END.search(sentence):
        sentence = sentence.rstrip().rstrip(".…,:;([{–—-").rstrip() + "."
    return sentence


def _last_clause(clipped: str) -> str | None:
    """A clipped sentence up to its last clause that can end it: past a third of it, outside
    brackets, and not before a clause that qualifies the rest ("…, except while the indexer
    runs"): cut there, the proposal would state a rule the memory does not."""
    for match in reversed(list(CLAUSE_END.finditer(clipped))):
        cut = match.start()
        head = clipped[:cut]
        if cut < len(clipped) // 3:
            return None
        if head.count("(") > head.count(")") or head.count("[") > head.count("]"):
            continue
        if QUALIFIER.match(clipped, match.end()):
            return None
        return head
    return None


def _finding(memory: MemoryFile, code: str, message: str, key: str = "") -> Finding:
    better = proposal(memory)
    return make_finding(
        ID,
        code,
        memory.path,
        memory.frontmatter_line("description:"),
        message,
        f'describe what it is about and when it matters, e.g. "{better}"',
        key=key,
        fix={"action": "set-field", "path": memory.path, "field": "description", "value": better},
    )


def _quoted(text: str) -> str:
    return f"`{clip(text, 100)}`"


def content_words(text: str, cache: dict[str, tuple[str, ...]] | None = None) -> set[str]:
    """Stemmed words and CJK bigrams that are not on the stop list. CJK phrases joined by
    slashes (``会话开始/开发中/会话结束``) read as one path: their bigrams count too.

    ``cache``: shingles by chunk (see :func:`memory_audit.analysis.similarity.shingles`)."""
    found = set(shingles(text, cache))
    for joined in [s for s in found if "/" in s and CJK_CHAR.search(s)]:
        found.update(_bigrams(joined))
    return found - STOP_WORDS


def _bigrams(text: str) -> Iterator[str]:
    """The character bigrams of each CJK run of ``text`` (a run of one character, itself),
    as ``shingles`` reads a run outside a path."""
    for run in CJK_RUN.findall(text):
        yield from (run[i : i + 2] for i in range(max(1, len(run) - 1)))


def _generic(memory: MemoryFile, words: Words) -> Iterator[Finding]:
    text = memory.description.strip()
    if not text:
        yield _finding(memory, "generic-description", "description is empty")
    elif units(text) >= 2 and not words.of(text) and not _names_itself(memory, text):
        yield _finding(
            memory, "generic-description", f"description {_quoted(text)} says nothing specific"
        )


def _names_itself(memory: MemoryFile, text: str) -> bool:
    """ "About billing" on billing.md names its topic: not generic, only short."""
    words = set(re.findall(r"\w+", text.lower()))
    return bool(memory.name) and set(re.findall(r"\w+", memory.name.lower())) <= words


def _cut(memory: MemoryFile) -> Iterator[Finding]:
    text = memory.description.strip()
    words = text.lower().split()
    last = words[-1] if words else ""
    if last == "that" and len(words) > 1 and words[-2] in PRONOUN_THAT_AFTER:
        last = ""  # the pronoun ends the sentence
    if words and ACRONYM.fullmatch(text.split()[-1]):
        last = ""  # "in some AT", "the OR": an acronym, no function word
    if last in PARTICLES and len(words) > 1 and _phrasal(words[-2]):
        last = ""  # "AddProblemDetails plugs in", "the user logs in": a verb's particle
    opened = text.count("(") > text.count(")") or text.count("[") > text.count("]")
    cut_word = last in CUT_WORDS and not _names_itself(memory, last)
    cut_word = cut_word and not STRANDED.search(text.rstrip(".!?"))
    if units(text) >= 2 and (CUT_END.search(text) or cut_word or opened):
        tail = clip_start(text, 80)
        yield _finding(memory, "cut-description", f"description `{tail}` stops mid-sentence")


def _off_body(memory: MemoryFile, words: Words) -> Iterator[Finding]:
    mine = words.of(memory.description)
    if len(mine) < 3:
        return  # too few words to judge by
    if _cjk_share(memory.description) < 0.2 <= _cjk_share(memory.body):
        return  # an English description of a Chinese note shares no words, yet fits it
    text = f"{memory.name} {memory.path} {memory.body}"
    if words.shares(text, mine):
        return  # most descriptions share a word with their file
    if words.reach(text, BODY_WORDS):
        yield _finding(
            memory,
            "description-off-body",
            f"description {_quoted(memory.description)} shares no word with the file's body",
        )


def _cjk_share(text: str) -> float:
    cjk = 0 if text.isascii() else len(CJK_CHAR.findall(text))
    letters = sum(map(str.isalpha, text)) if cjk else 0  # no CJK: the share is 0 anyway
    return cjk / letters if letters else 0.0


def _same(memories: list[MemoryFile], words: Words) -> Iterator[Finding]:
    groups: dict[str, list[MemoryFile]] = defaultdict(list)
    for memory in memories:
        content = sorted(words.of(memory.description))
        if len(content) >= 2:
            groups[" ".join(content)].append(memory)
    for members in groups.values():
        if len(members) > 1:
            first, *others = members
            names = ", ".join(f"`{m.path}`" for m in others[:5])
            yield _finding(
                first,
                "same-description",
                f"description {_quoted(first.description)} is also on {names}: "
                "Claude Code cannot tell them apart",
                key="|".join(m.path for m in members),
            )


def _titled(title: str, memory: MemoryFile) -> bool:
    """Whether the index line's title is words of its own, not the file's name or path."""
    plain = title.strip(" `*_")
    if units(plain) < TITLE_WORDS:
        return False
    name = re.sub(r"[\W_]+", " ", plain.removesuffix(".md")).strip().lower()
    stem = re.sub(r"[\W_]+", " ", memory.path.removesuffix(".md")).strip().lower()
    return name not in (stem, stem.rsplit(" ", 1)[-1], re.sub(r"[\W_]+", " ", memory.stem).lower())


def _hookless(tree: MemoryTree) -> Iterator[Finding]:
    load = tree.index_load
    small = load is not None and load.chars < SMALL_INDEX_CHARS
    for entry in tree.index.entries if tree.index else ():
        if not entry.is_pointer:
            continue  # prose that mentions a file needs no hook
        if entry.hook.strip(" -—–:|") or units(entry.title) >= SENTENCE_TITLE:
            continue  # a title that is a whole sentence is its own hook
        target = tree.resolve_link(entry.target, "", wiki=entry.links[0].wiki).path
        memory = tree.files.get(target) if target else None
        if memory is None:
            continue  # a broken link is index-drift's finding
        if small and _titled(entry.title, memory):
            # in an index of a few kilobytes a title of its own words ("Debugging Patterns",
            # 个人资料) says what the file holds: judged so on every such line (7 of 7,
            # held-out round 21); a title that only repeats the file's name says nothing
            continue
        better = memory.description.strip() or proposal(memory)
        yield make_finding(
            ID,
            "index-line-without-hook",
            INDEX_NAME,
            entry.line,
            f"the line for `{memory.path}` says nothing about when it matters",
            f'add a hook after the link, e.g. "— {clip(better, 150)}"',
            key=memory.path,
        )
