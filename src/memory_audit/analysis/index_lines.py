"""The index line by line, as ``index-budget`` findings: what is not a pointer (inline
content: paragraphs, code blocks, tables, knowledge written into the index; behavioural
rules, "Always…", "Never…") and pointers of the wrong shape (an over-long hook, several
links on one line).

What of the index reaches a session (its cut-off, what loads it in full) is the check's
own part; it decides only whether inline content is a problem or a suggestion: ``tight``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence

from memory_audit.model.finding import Finding, make_finding
from memory_audit.tree.index_file import INDEX_NAME, LIST_ITEM, Index, IndexEntry, LineKind
from memory_audit.tree.index_names import NamedPointer

SHOWN_LINES = 12  # line numbers listed in a grouped finding
# What in a heading may point at a file: a link, a wikilink, a file's name.
NAMING_MARKS = ("](", "[[", ".md")
GROUPED = 3  # more blocks (or rules) than this in one index: one finding for them all
# The index's caption under its title: this many lines of prose at most, each this long.
CAPTION_LINES = 2
CAPTION_CHARS = 240
# What a caption says: that it is the index of the memories, how it is kept, who reads it
# (words of the index itself, not a fact that mentions sessions, memory or an index).
CAPTION_WORDS = re.compile(
    r"\bthis (?:file|index|directory|folder)\b|\b(?:memory|memories|notes?) index\b"
    r"|\bindex of\b|\bone (?:line|entry|pointer) (?:per|for each)\b|\bpersistent (?:memor|notes)"
    r"|\bacross (?:\w+ ){0,3}sessions\b|\b(?:each|every) (?:new )?session\b"
    r"|\bindice (?:delle|dei|de)\b|\bíndice de\b|\buna riga per\b|\buna l[íi]nea por\b"
    r"|\buma linha por\b|\bune ligne par\b|\bmemorie persistenti\b|\bm[ée]moires? persistantes?"
    r"|\bmemory files?\b|\b(?:each|every) entry\b|\beste (?:arquivo|archivo|índice)\b"
    r"|\barquivos? de mem[óo]ria\b|\barchivos? de memoria\b|\bquesto file\b|\bce fichier\b"
    r"|索引|此目录|本目录|本文件|此文件|此檔案|本檔案|这个文件|這個檔案|每次(?:新)?会话|跨会话"
    r"|记忆|記憶|持久化|条目|條目|このファイル|メモリ|インデックス|이 파일|메모리|인덱스",
    re.I,
)
# A file a table's cell links (``[a](./a.md)``) or names (`` `a.md` ``).
TABLE_FILE = re.compile(r"\]\(<?([^)\s>]+\.md)|`([^`\s]+\.md)`")
TABLE_RULE = re.compile(r"\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?")  # |---|:--:|
RULE_START = (
    "always ",
    "never ",
    "don't ",
    "dont ",
    "do not ",
    "must ",
    "avoid ",
    "prefer ",
    "remember to ",
    "make sure ",
    "use ",
    "stop ",
    "only ",
)


def line_findings(
    dimension: str,
    index: Index,
    *,
    tight: bool,
    max_hook_chars: int,
    named: Sequence[NamedPointer] = (),
    pointing: Collection[int] = (),
    tables: Collection[int] = (),
    hooks_cost: bool = True,
    agent_store: bool = False,
) -> Iterator[Finding]:
    """Rules, inline content, over-long hooks and lines pointing at several files.

    ``agent_store``: the index is an agent's, loaded into that agent alone as the knowledge
    it carries: its rules are its own conventions, not the project's (0 of 12 such findings
    judged right on agents' trees, tuning and held-out), and content kept in it is a
    finding only once the cut hides entries (under the budget, 0 of 3 judged right: the
    index is where the agent keeps what it must always know).

    ``hooks_cost``: whether the index is large enough for long hooks, or content kept in
    it, to cost a session anything (an index of a few kilobytes loads whole whatever its
    hooks' length, and facts kept there on purpose are in every session for little room).

    ``named``: the lines that point at a file of the tree by its name (``- `notes.md` —
    hook``): pointers, as a linked line is: never content to move, and their hooks are
    hooks. ``pointing``: every line that links or names a file of the tree. ``tables``:
    the lines of tables that are the index (``index_tables``): pointers too.
    """
    named_lines = frozenset(p.line for p in named) | frozenset(tables)
    yield from _content(
        dimension,
        index,
        tight,
        named_lines,
        frozenset(pointing),
        inline=tight or (hooks_cost and not agent_store),
        shared_rules=not agent_store,
    )
    if hooks_cost:
        yield from _long_hooks(dimension, index, named, max_hook_chars)
    if not tight:  # cut already: a line per file would hide more entries, not fewer
        yield from _several_links(dimension, index)


def _wrapped_hooks(
    lines: Sequence[str], kinds: Sequence[LineKind], named: Collection[int]
) -> frozenset[int]:
    """The lines a hook of a pointer by name wraps onto: text lines right below it, indented
    deeper than it (``status.md  — current phase,`` over ``            next pickup``). A
    line at the pointer's own depth starts something else."""
    wrapped: set[int] = set()
    for number in sorted(named):
        depth = _depth(lines[number - 1])
        below = number + 1
        while below <= len(lines) and kinds[below - 1] is LineKind.TEXT:
            if _depth(lines[below - 1]) <= depth or LIST_ITEM.match(lines[below - 1]):
                break  # a line of its own, or an item nested under the pointer: content
            wrapped.add(below)
            below += 1
    return frozenset(wrapped)


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def index_tables(
    lines: Sequence[str],
    memories: Collection[str],
    code: Collection[int] = (),
    named: Collection[int] = (),
) -> frozenset[int]:
    """The lines of each Markdown table (out of code blocks) most of whose rows link or name
    a memory of the tree: the index kept as a table, its header and rule with it. A table
    of other things that mentions a memory once is content still. ``named``: the rows led by
    a memory's name (``| notes.md | ... |``), which the index's named pointers found."""
    found: set[int] = set()
    run: list[int] = []
    for number, text in enumerate([*lines, ""], 1):
        if text.lstrip().startswith("|") and number not in code:
            run.append(number)
            continue
        rows = [n for n in run if not TABLE_RULE.fullmatch(lines[n - 1].strip())]
        pointing = sum(n in named or _names_a_memory(lines[n - 1], memories) for n in rows)
        if pointing and 2 * pointing >= len(rows) - 1:  # the header row names no file
            found.update(run)
        run = []
    return frozenset(found)


def _names_a_memory(row: str, memories: Collection[str]) -> bool:
    return any(
        _normal(match.group(1) or match.group(2)) in memories for match in TABLE_FILE.finditer(row)
    )


def _several_links(dimension: str, index: Index) -> Iterator[Finding]:
    """A line whose further links lead to memories no line of their own points at. A
    link to a file another line points at is a cross-reference (``see [b.md](b.md)``,
    b's pointer just below), a wikilink one by name, and a link out of the folder (the
    project's ``docs/``) no memory: none wants a pointer line of its own. Not asked of an
    index Claude Code cuts (two of two held-out trees' lines judged false there). An index
    that lists files several to a line does so on purpose (a catalog of 90 files, three
    or four a line): one finding for all its lines, with one decision."""
    pointed: dict[str, set[int]] = {}
    for entry in index.entries:
        pointed.setdefault(_normal(entry.target), set()).add(entry.line)
    several: list[tuple[IndexEntry, list[str]]] = []  # a line, and the files it adds
    for entry in index.entries:
        if entry.kind is LineKind.HEADING:
            continue  # a section's title that links its files: no pointer line to split
        own = _normal(entry.target)
        unpointed = [
            _normal(link.target)
            for link in entry.links[1:]
            if not link.wiki
            and _a_memory(link.target)
            and _normal(link.target) != own  # the line's own file, at an anchor
            and not pointed.get(_normal(link.target), set()) - {entry.line}
        ]
        if unpointed:
            several.append((entry, list(dict.fromkeys(unpointed))))
    if not several:
        return
    first, added = several[0]
    wanting = tuple(dict.fromkeys(t for _, targets in several for t in targets))
    if len(several) == 1:
        targets = ", ".join(f"`{target}`" for target in [first.links[0].target, *added])
        what = f"one index line points at {len(added) + 1} files: {targets}"
    else:
        lines = ", ".join(str(entry.line) for entry, _ in several[:SHOWN_LINES])
        more = f" and {len(several) - SHOWN_LINES} more" if len(several) > SHOWN_LINES else ""
        wants = (
            "1 file has no line of its own"
            if len(wanting) == 1
            else f"{len(wanting)} files have no line of their own"
        )
        what = (
            f"{len(several)} index lines point at several files each: lines {lines}{more}; {wants}"
        )
    yield make_finding(
        dimension,
        "several-links",
        INDEX_NAME,
        first.line,
        what,
        "give each file its own pointer line",
        key="several-links",  # one finding a tree, however many lines: a dismissal holds
        related=wanting,
    )


def _normal(target: str) -> str:
    return target.split("#", 1)[0].removeprefix("./")


def _a_memory(target: str) -> bool:
    """A memory file of the folder: a ``.md`` file in it, not the index itself."""
    path = _normal(target)
    inside = bool(path) and not path.startswith(("../", "/", "~")) and ":" not in path
    return inside and path.endswith(".md") and path.rsplit("/", 1)[-1] != INDEX_NAME


def _long_hooks(
    dimension: str, index: Index, named: Sequence[NamedPointer], limit: int
) -> Iterator[Finding]:
    """One finding for every over-long hook of the index: one cause, one decision."""
    pointers: list[IndexEntry | NamedPointer] = [
        e for e in index.entries if e.kind is LineKind.POINTER
    ]
    pointers += [p for p in named if not p.several]  # a list of files has no hook
    long = sorted((p for p in pointers if len(p.hook) > limit), key=lambda p: p.line)
    if not long:
        return
    first = long[0]
    if len(long) == 1:
        what = f"hook for `{first.target}` is {len(first.hook)} characters (over {limit})"
    else:
        lines = ", ".join(str(e.line) for e in long[:SHOWN_LINES])
        more = f" and {len(long) - SHOWN_LINES} more" if len(long) > SHOWN_LINES else ""
        what = f"{len(long)} hooks are over {limit} characters: lines {lines}{more}"
    yield make_finding(
        dimension,
        "long-hook",
        INDEX_NAME,
        first.line,
        what,
        "shorten each hook to one line that says when to open the file; details go in it",
        key="long-hooks",
        related=tuple(dict.fromkeys(e.target for e in long[1:])),
    )


def _content(
    dimension: str,
    index: Index,
    tight: bool,
    named: Collection[int],
    pointing: Collection[int] = frozenset(),
    *,
    inline: bool = True,
    shared_rules: bool = True,
) -> Iterator[Finding]:
    """Rules and inline content in the index. Inline content is a suggestion, past the cut
    too (``tight``: there every line of it costs room a pointer needs, and ``over-budget``
    and ``invisible-entry`` are the problems of that cause; the fix that moves a cut index's
    notes out by sections was right in 3 of 6 blind verdicts on held-out agent stores,
    rounds 105-106, and after its mends still wrong on 2 of their 3 indexes for both
    judges: where to cut sections whose headings hold pointers is a person's call); below that, a
    preamble, a legend or conventions kept on purpose are a matter of taste (near the limit
    the check's ``near-budget`` says so once), and none at all in a small
    index (``inline`` false: judged false on every index of a few kilobytes, the tuning
    trees of round 21: "41-line index, far under limits; facts deliberately inline and
    always loaded"). Past ``GROUPED`` blocks
    (or rules) the index is written that way on purpose: one finding for all of them,
    with one fix, instead of a flood (one cause, one decision).
    """
    blocks: list[list[int]] = []
    rules: list[int] = []
    block: list[int] = []
    kinds = [LineKind.POINTER if n in named else k for n, k in enumerate(index.line_kinds, 1)]
    wrapped = _wrapped_hooks(index.lines, kinds, named)
    kinds = [LineKind.POINTER if n in wrapped else k for n, k in enumerate(kinds, 1)]
    # an entry written as an item with its pointer nested in it: all of it a pointer's
    entries = _items_with_nested_pointers(index.lines, kinds, pointing)
    entries |= _introduced_points(index.lines, kinds, pointing)
    kinds = [LineKind.POINTER if n in entries else k for n, k in enumerate(kinds, 1)]
    # a sentence naming a memory (``**Batch records** in `batch_records.md`.``) is a way to
    # it, as one that links it is; a lead-in over pointers (``See the topic files:``) is
    # theirs: neither is knowledge to move out of the index
    kinds = [
        LineKind.LINKED_TEXT
        if kind is LineKind.TEXT and (n in pointing or _leads_in(index.lines, kinds, n))
        else kind
        for n, kind in enumerate(kinds, 1)
    ]
    for number, (text, kind) in enumerate(zip(index.lines, kinds, strict=True), 1):
        # an agent's rules are its own conventions (no finding of their own, no other place
        # to go): content of their section, moved with it, never left under a heading whose
        # other lines moved away
        if kind is LineKind.TEXT and shared_rules and _is_rule(text):
            blocks.append(block)
            block = []
            rules.append(number)
        elif kind in (LineKind.TEXT, LineKind.CODE):
            block.append(number)
        elif kind is not LineKind.BLANK or not block:
            blocks.append(block)
            block = []
    blocks = [b for b in [*blocks, block] if b]
    if blocks and not tight and _caption(index.lines, kinds, blocks[0]):
        blocks = blocks[1:]
    if shared_rules:
        yield from _rules(dimension, index, rules)
    if not inline:
        return
    # what the fix moves: a block, with its section's heading when nothing else is under it
    spans = [_with_heading(index.lines, kinds, b) for b in blocks]
    if len(blocks) > GROUPED:
        spans = _with_emptied_headings(index.lines, kinds, spans)
        yield _inline_grouped(dimension, index, blocks, spans)
    else:
        for one, span in zip(blocks, spans, strict=True):
            yield _inline(dimension, index, one, span)


def _caption(lines: Sequence[str], kinds: Sequence[LineKind], block: Sequence[int]) -> bool:
    """A line or two of prose right under the index's title, before anything else, that
    says what the index is (``Index of persistent memories. One line per file.``): no
    knowledge moved into it (``Sessions are stored in Redis`` is). Not a list item. Its move
    would leave the title bare."""
    title = next((n for n, kind in enumerate(kinds, 1) if kind is not LineKind.BLANK), 0)
    if not title or kinds[title - 1] is not LineKind.HEADING or len(block) > CAPTION_LINES:
        return False
    between = kinds[title : block[0] - 1]
    prose = all(kinds[n - 1] is LineKind.TEXT and len(lines[n - 1]) <= CAPTION_CHARS for n in block)
    about = all(
        CAPTION_WORDS.search(lines[n - 1]) and not LIST_ITEM.match(lines[n - 1]) for n in block
    )
    return prose and about and all(kind is LineKind.BLANK for kind in between)


def _with_heading(
    lines: Sequence[str], kinds: Sequence[LineKind], block: Sequence[int]
) -> tuple[int, int]:
    """The lines a block's move takes: the block, and the heading above it when the block
    is all its section holds (to the next heading of its level or above), so the index is
    left with no heading over nothing; then that heading's own parent, the same way. The
    index's title (its first line of text, or any ``#``) stays, and so does a heading that
    links to or names a file (a way to it the index would lose). A thematic break that
    closes the section moves with it."""
    first, last = block[0], block[-1]
    title = next((n for n, kind in enumerate(kinds, 1) if kind is not LineKind.BLANK), 0)
    while True:
        above = first - 1
        while above >= 1 and kinds[above - 1] is LineKind.BLANK:
            above -= 1
        if above in (0, title) or kinds[above - 1] is not LineKind.HEADING:
            return first, last
        heading = lines[above - 1]
        level = _heading_level(heading)
        if level < 2 or any(mark in heading for mark in NAMING_MARKS):
            return first, last
        closing = last
        for number in range(last + 1, len(lines) + 1):
            kind = kinds[number - 1]
            if kind is LineKind.HEADING and 0 < _heading_level(lines[number - 1]) <= level:
                break
            if kind is LineKind.BREAK and closing == last:
                # the rule that closes the section (``---`` before the next heading) goes
                # with it: left behind, rules would pile up where sections were
                closing = number
                continue
            if kind is not LineKind.BLANK:
                return first, last
        first, last = above, closing


def _with_emptied_headings(
    lines: Sequence[str], kinds: Sequence[LineKind], spans: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """One fix moving every block: a heading whose whole section moves (its own lines and
    its subsections', in several blocks) goes with it, then its parent the same way, so no
    heading is left over nothing (``## Summary`` over ``### Tasks`` and ``### Skips``, all
    of them moved). Rules that close its parts (``---``) go too; the title stays, and so
    does a heading that links to or names a file. The spans, merged where they touch."""
    moved = {number for first, last in spans for number in range(first, last + 1)}
    title = next((n for n, kind in enumerate(kinds, 1) if kind is not LineKind.BLANK), 0)
    headings = [
        n
        for n, kind in enumerate(kinds, 1)
        if kind is LineKind.HEADING
        and n != title
        and _heading_level(lines[n - 1]) >= 2
        and not any(mark in lines[n - 1] for mark in NAMING_MARKS)
    ]
    changed = True
    while changed:
        changed = False
        for heading in headings:
            if heading in moved:
                continue
            level = _heading_level(lines[heading - 1])
            end, body = heading, []
            for number in range(heading + 1, len(lines) + 1):
                kind = kinds[number - 1]
                if kind is LineKind.HEADING and 0 < _heading_level(lines[number - 1]) <= level:
                    break
                end = number
                if kind not in (LineKind.BLANK, LineKind.BREAK):
                    body.append(number)
            if body and all(number in moved for number in body):
                moved.update(range(heading, end + 1))
                changed = True
    runs: list[tuple[int, int]] = []
    for number in sorted(moved):
        if runs and runs[-1][1] == number - 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


def _heading_level(text: str) -> int:
    """An ATX heading's level (``## x``: 2); 0 for any other heading."""
    stripped = text.lstrip()
    return len(stripped) - len(stripped.lstrip("#"))


def _leads_in(lines: Sequence[str], kinds: Sequence[LineKind], number: int) -> bool:
    """Whether line ``number`` ends in a colon and the next line that is not blank is a
    pointer: the sentence introducing a list of entries."""
    if not lines[number - 1].rstrip().endswith((":", "：")):
        return False
    after = next(
        (n for n in range(number + 1, len(lines) + 1) if kinds[n - 1] is not LineKind.BLANK), 0
    )
    return after > 0 and kinds[after - 1] is LineKind.POINTER


def _introduced_points(
    lines: Sequence[str], kinds: Sequence[LineKind], pointing: Collection[int]
) -> set[int]:
    """The list right under a line that points at a memory and ends in a colon (``See
    `testing.md` for full patterns. Key points:`` over ``- ...`` items): the entry's points,
    as its hook. Moved away, they would leave "Key points:" over nothing."""
    found: set[int] = set()
    for start, text in enumerate(lines, 1):
        pointer = kinds[start - 1] is LineKind.POINTER or start in pointing
        if not pointer or not text.rstrip().endswith((":", "：")):
            continue
        for number in range(start + 1, len(lines) + 1):
            if kinds[number - 1] is not LineKind.TEXT or not LIST_ITEM.match(lines[number - 1]):
                break
            found.add(number)
    return found


def _items_with_nested_pointers(
    lines: Sequence[str], kinds: Sequence[LineKind], pointing: Collection[int]
) -> set[int]:
    """The lines of each list item that is an entry, with the lines nested in it: a pointer
    item's wrapped hook (``- [Plan](plan.md) — the plan,`` then ``  continued here``), and
    an item whose nested items point at a memory of the tree (``- Sprint 31 done`` over
    ``  - See: [plan](sprint31.md)``), which says what its nested pointer leads to, as a hook
    does. Moving such lines out as inline content would cut a hook mid-sentence or leave a
    pointer behind, described by nothing. Notes citing a project document (``See:
    `/docs/research.md` ``) are still knowledge written into the index."""
    found: set[int] = set()
    for start, (text, kind) in enumerate(zip(lines, kinds, strict=True), 1):
        item = LIST_ITEM.match(text)
        if kind not in (LineKind.TEXT, LineKind.POINTER) or item is None or start in found:
            continue
        indent = len(text) - len(text.lstrip())
        nested = []
        for number in range(start + 1, len(lines) + 1):
            line = lines[number - 1]
            if not line.strip() or len(line) - len(line.lstrip()) <= indent:
                break
            nested.append(number)
        if kind is LineKind.POINTER or any(number in pointing for number in nested):
            found.update([start, *nested])
    return found


def _rules(dimension: str, index: Index, rules: Sequence[int]) -> Iterator[Finding]:
    if not rules:
        return
    suggestion = (
        "move it to the project's .claude/rules/<topic>.md (~/.claude/rules/ if it holds in"
        " every project), loaded every session, and drop it from the index"
    )
    first = rules[0]
    if len(rules) <= GROUPED:
        for number in rules:
            text = index.lines[number - 1]
            yield make_finding(
                dimension,
                "rule-in-index",
                INDEX_NAME,
                number,
                f'behavioural rule in the index: "{_rule_text(text)[:80]}"',
                suggestion,
                key=text.strip(),
            )
        return
    yield make_finding(
        dimension,
        "rule-in-index",
        INDEX_NAME,
        first,
        f"{len(rules)} behavioural rules in the index: lines {_numbers(rules)}"
        f' (the first: "{_rule_text(index.lines[first - 1])[:60]}")',
        "move them to the project's .claude/rules/<topic>.md (~/.claude/rules/ for those that"
        " hold in every project), loaded every session, and drop them from the index",
        key="rules-in-index",
    )


def _numbers(lines: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in lines[:SHOWN_LINES])
    return shown + (f" and {len(lines) - SHOWN_LINES} more" if len(lines) > SHOWN_LINES else "")


def _inline(dimension: str, index: Index, block: Sequence[int], span: tuple[int, int]) -> Finding:
    first, last = block[0], block[-1]
    where = f"line {first}" if first == last else f"lines {first}–{last}"
    return make_finding(
        dimension,
        "inline-content",
        INDEX_NAME,
        first,
        f"{where}: {len(block)} line(s) of inline content, not pointers",
        "move it into a topic file and leave one `- [Title](file.md) — hook` line",
        key=index.lines[first - 1].strip()[:80],
        fix={"action": "move-to-topic", "first": span[0], "last": span[1]},
    )


def _inline_grouped(
    dimension: str,
    index: Index,
    blocks: Sequence[Sequence[int]],
    spans: Sequence[tuple[int, int]],
) -> Finding:
    starts = [f"{b[0]}–{b[-1]}" if len(b) > 1 else str(b[0]) for b in blocks]
    shown = ", ".join(starts[:SHOWN_LINES])
    more = f" and {len(starts) - SHOWN_LINES} more" if len(starts) > SHOWN_LINES else ""
    total = sum(len(b) for b in blocks)
    return make_finding(
        dimension,
        "inline-content",
        INDEX_NAME,
        blocks[0][0],
        f"{total} lines of inline content, not pointers, in {len(blocks)} blocks:"
        f" lines {shown}{more}",
        "move them into a topic file and leave one `- [Title](file.md) — hook` line",
        key="inline-content",
        fix={
            "action": "move-to-topic",
            "first": spans[0][0],
            "last": spans[0][1],
            "ranges": [list(span) for span in spans],
        },
    )


def _rule_text(text: str) -> str:
    item = LIST_ITEM.match(text)
    return (text[item.end() :] if item else text).strip().lstrip("*_>").strip()


def _is_rule(text: str) -> bool:
    return _rule_text(text).lower().startswith(RULE_START)
