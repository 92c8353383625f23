"""Index load budget: what of MEMORY.md actually reaches a session, and what wastes it.

Claude Code (DESIGN §2) removes a frontmatter block and HTML comments, trims
the text, keeps its first 200 lines, then cuts at the last newline at or before
25,000 characters *as JavaScript counts them* (UTF-16 code units: an emoji is
two, a CJK character or an em dash one) and appends a warning
(``tree.load_budget``, the one place this is computed). The rest is invisible
to every session.

- ``over-budget``: the index is cut; and one ``invisible-entry`` for the entries past
  the cut (or cut in the middle), at the first of them, naming how many and the first
  few (all their lines in its fix, the files in ``related``). Its one fix moves them,
  with whatever else is past the cut, into one topic file (``more-memories.md``) and
  leaves one pointer to it where a session still sees it (taking the place of the last
  visible entries when the cut leaves no room): nothing is deleted, one decision;
- ``near-budget``: past ``warn_lines`` (150) or ``warn_chars`` (20,000) as
  Claude Code counts them;
- when the project loads the index itself (``analysis.index_loaders``: its CLAUDE.md
  imports it with ``@path/MEMORY.md``, or tells sessions to read it, or the index's own
  loaded lines say to read this file at the start of every session, and the Read tool's
  2,000 lines hold it), the cut-off hides nothing: no ``over-budget`` and no
  ``invisible-entry``. Lines cost nothing more then, characters still do: past
  ``warn_chars`` one ``near-budget`` suggestion names what loads the index, since all of
  it is context every session pays for; inline content is a suggestion;
- ``inline-content``: lines that are not pointers (paragraphs, code blocks,
  tables, knowledge written into the index; a line led by a topic file's name,
  ``- See `notes.md` — hook`` or ``- notes.md -- hook``, is a pointer as a linked
  one is, here and for the cut-off and hooks), one finding per block (more than
  three blocks: one finding listing them, whose fix moves them all): a
  pointer-only index keeps knowledge in topic files (docs/dimensions.md,
  "The memory model"). A problem when the index is over its budget (moving it out
  brings entries back into view), a suggestion below it, and none in an index under
  ``small_index_chars`` (10,000) characters and ``warn_lines`` lines (facts kept there on
  purpose cost a session little): near the limit,
  ``near-budget`` is the finding (a preamble, a legend or conventions kept on purpose
  cost little room); a line or two of prose under the title that says what the index is
  (its caption: ``Index of persistent memories. One line per file.``) is none;
- ``rule-in-index``: a behavioural rule ("Always…", "Never…") with no pointer:
  it belongs in the project's ``.claude/rules/`` (or ``~/.claude/rules/`` when it
  holds in every project), the always-loaded rules layer (more than
  three: one finding listing their lines); not in an agent's store, whose index loads
  into that agent alone: its rules are its own, and its inline content a finding only
  once the cut hides entries;
- ``long-hook``: a hook over ``max_hook_chars`` (150), in an index of ``small_index_chars``
  (10,000) characters or more, or past ``warn_lines`` (below that, the whole index costs a
  session little whatever its hooks);
- ``several-links``: an index line pointing at more than one file (several such lines: one
  finding naming them, and the files that want a line of their own);
- ``past-recall-cap``: Claude Code's recall scan lists MEMORY.md, then memories
  newest first (a ``modified`` stamp standing in for the file time; equal
  times in path order), and stops at 200: one finding names every memory past
  the 200th, which recall never considers (``analysis.recall``), or, when the cut falls
  among files of one time (a checkout), says how many and names none;
- ``modified-not-a-date``: ``modified:`` values that are not dates (the scan
  uses the file time instead), listed in one finding.

The cut, the recall cap and inline content assume Claude Code loads the folder as auto
memory. In a repository's copy (``analysis.tree_home``) that is what the folder cannot tell
(a synced copy is cut; a status page or a log some instruction reads in full is not), and in
another agent's workspace that agent loads it: there these findings are suggestions,
worded "if Claude Code loads this folder as its memory".

Failing::

    MEMORY.md, 230 lines: 30 entries past line 200 that no session sees.
    MEMORY.md:4   Always run `make lint` before pushing.

Passing: 120 lines of ``- [Title](file.md) — hook`` pointers under headings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from memory_audit.analysis.index_lines import index_tables, line_findings
from memory_audit.analysis.index_loaders import IndexLoader, whole_index_loader
from memory_audit.analysis.index_overflow import overflow_fix
from memory_audit.analysis.recall import RECALL_CAP, recall_scan
from memory_audit.analysis.tree_home import (
    loaded_by_its_agent,
    other_agent_workspace,
    repository_copy,
)
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.tree.index_file import INDEX_NAME, Index
from memory_audit.tree.load_budget import CHAR_LIMIT, LINE_LIMIT, SMALL_INDEX_CHARS, LoadedIndex
from memory_audit.tree.snapshot import MemoryTree

ID = "index-budget"
NAMED = 20  # memories named in a message; all of them are in `related`
NAMED_ENTRIES = 5  # hidden entries named in the invisible-entry message


# The default of ``small_index_chars``. Below this many characters (two fifths of Claude
# Code's 25,000) long hooks, or content kept in the index, cost a session nothing worth a
# finding: judged so on every index of a few kilobytes (tuning trees of round 21: long hooks
# right at 13,921 and 62,280 characters, false at 3,083 and below; inline content false on
# all ten, in indexes of 41 to 87 lines).
HOOKS_COST_CHARS = SMALL_INDEX_CHARS


# A Markdown file's name in backticks, a path of the tree's (``batch_records.md``)
BACKTICKED_MEMORY = re.compile(r"`([^`\s]+\.md)`")


@dataclass(frozen=True)
class Options:
    # The limits themselves are Claude Code's (200 lines, 25,000 characters), not options.
    warn_lines: int = field(default=150, metadata={"range": (1, 100_000)})
    warn_chars: int = field(default=20_000, metadata={"range": (1, 100_000_000)})
    max_hook_chars: int = field(default=150, metadata={"range": (10, 10_000)})
    # Below this many characters an index loads whole for little room: its long hooks and
    # the content kept in it are not reported.
    small_index_chars: int = field(default=HOOKS_COST_CHARS, metadata={"range": (0, 100_000_000)})


# Codes that assume Claude Code loads the folder as its memory (the cut, the recall cap).
# In a repository's copy whether any session loads the index (with the cut, in full, or
# not at all: a status page, a session log, another tool's synced memory) is what the
# folder cannot tell, so there they are suggestions: over-budget 21 of 26, inline-content
# 22 of 32, invisible-entry 6 of 8, near-budget 5 of 6, past-recall-cap 0 of 2 held-out
# right (rounds 4-7). An agent's store its agent declares is loaded so: problems.
LOADING_CODES = frozenset(
    {"over-budget", "invisible-entry", "near-budget", "inline-content", "past-recall-cap"}
)


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    workspace = other_agent_workspace(tree)
    copy = workspace is None and repository_copy(tree) and not loaded_by_its_agent(tree)
    for found in _findings(tree, options):
        if not isinstance(found, Finding) or found.code not in LOADING_CODES:
            yield found
        elif workspace is not None:
            # its agent loads MEMORY.md by its own rules
            yield _if_loaded(found, f"this folder is {workspace}, whose agent loads it")
        elif copy:
            # a session may load it with the cut (a synced copy of auto memory), in full, or
            # never (a status page, a log): the folder cannot tell which
            yield _if_loaded(found, "if a session loads this repository's copy as auto memory")
        else:
            yield found


def _if_loaded(finding: Finding, why: str) -> Finding:
    """A suggestion worth a look only if Claude Code loads the folder as its memory."""
    return replace(
        finding,
        level="suggestion",
        message=f"{finding.message} ({why})",
        suggestion=f"if Claude Code loads this folder as its memory: {finding.suggestion}",
    )


def _findings(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    yield from _recall(tree)
    index = tree.index
    if index is None or tree.index_load is None:
        return
    load = tree.index_load
    loader = whole_index_loader(tree)
    if loader is not None:
        yield from _loaded_in_full(loader, load, options)
        tight = False  # no cut-off: inline content hides no entry
    else:
        yield from _budget(tree, index, load, options)
        # Only a cut makes inline content a problem: then moving it out brings entries back
        # into view. Near the limit, near-budget is the one finding of that cause (inline
        # content there was an agent's conventions kept on purpose: 0 of 2 held-out right).
        tight = load.cut
    named = [pointer for pointer, _ in tree.index_named]
    pointing = {line for lines in tree.index_targets.values() for line in lines}
    pointing |= _naming_lines(index, tree)
    yield from line_findings(
        ID,
        index,
        tight=tight,
        max_hook_chars=options.max_hook_chars,
        named=named,
        pointing=pointing,
        # near the 200 lines, a small index's lines cost room too
        hooks_cost=load.chars >= options.small_index_chars or load.lines > options.warn_lines,
        tables=index_tables(
            index.lines, tree.files, index.markdown.code_lines, {p.line for p in named}
        ),
        agent_store=tree.location.agent is not None,
    )


def _naming_lines(index: Index, tree: MemoryTree) -> set[int]:
    """The lines naming in backticks, anywhere, a memory no entry of the index leads to
    (``**Batch records** in `batch_records.md`.``): the index's only way to it, as a link
    is; moved out with inline content, the file would drop out of the index. A sentence
    naming a file an entry points at anyway is still the knowledge it states."""
    reached = tree.index_targets
    found: set[int] = set()
    for number, line in enumerate(index.lines, 1):
        if "`" not in line or ".md" not in line:
            continue
        names = (name.removeprefix("./") for name in BACKTICKED_MEMORY.findall(line))
        if any(name in tree.files and name not in reached for name in names):
            found.add(number)
    return found


def _budget(
    tree: MemoryTree, index: Index, loaded: LoadedIndex, options: Options
) -> Iterator[Finding]:
    shape = f"MEMORY.md is {loaded.lines} lines, {loaded.chars:,} characters as Claude Code counts"
    if loaded.first_hidden is not None:
        hidden = _hidden(tree, index, loaded.first_hidden)
        yield make_finding(
            ID,
            "over-budget",
            INDEX_NAME,
            None,
            f"{shape}; a session receives only its first {loaded.kept_lines} lines "
            f"(limits: {LINE_LIMIT} lines, {CHAR_LIMIT:,} characters), so "
            + _lost(len(hidden), loaded),
            "move inline content to topic files and merge or drop stale entries until it fits",
        )
        if hidden:
            yield _invisible(tree, index, hidden, loaded)
    elif loaded.lines > options.warn_lines or loaded.chars > options.warn_chars:
        yield make_finding(
            ID,
            "near-budget",
            INDEX_NAME,
            None,
            f"{shape}; the load limit is {LINE_LIMIT} lines / {CHAR_LIMIT:,} characters",
            "trim now: move inline content to topic files, drop superseded and stale entries",
        )


def _loaded_in_full(
    loader: IndexLoader, loaded: LoadedIndex, options: Options
) -> Iterator[Finding]:
    """The project loads the whole index itself: no line is cut off, so its line count
    matters no more, but its characters are context every session pays for."""
    if loaded.chars <= options.warn_chars:
        return
    yield make_finding(
        ID,
        "near-budget",
        INDEX_NAME,
        None,
        f"MEMORY.md is {loaded.lines} lines, {loaded.chars:,} characters; {loader.describe()},"
        f" so a session receives all of it, past auto memory's cut-off, and every character"
        " costs context in every session",
        "keep it lean: move inline content to topic files, drop superseded and stale entries",
        level="suggestion",
    )


@dataclass(frozen=True)
class _Pointer:
    """An index line past the cut: a linked entry, or a line naming its file."""

    line: int
    target: str  # as the line writes it
    title: str
    path: str | None  # the tree file it points at


def _hidden(tree: MemoryTree, index: Index, first_hidden: int) -> list[_Pointer]:
    paths = {(link.line, link.target): target.path for link, target in tree.index_links}
    linked = [
        _Pointer(e.line, e.target, e.title, paths.get((e.line, e.target)))
        for e in index.entries
        if e.line >= first_hidden
    ]
    # a line past the cut sending the reader to a project document (``See
    # `frontend/README.md` ``) hides no memory: the over-budget finding counts its line
    named = [
        _Pointer(p.line, p.target, p.target, path)
        for p, path in tree.index_named
        if p.line >= first_hidden and path is not None
    ]
    # a file the loaded lines name is seen there: by a link or a backticked name anywhere
    # in a line (an entry, a "See: `a.md`, `b.md`" list, a sentence), or by a line led by
    # its bare name: not hidden
    seen = {
        path
        for link in index.markdown.links
        if link.line < first_hidden and (path := tree.link_target(link, "")) is not None
    }
    seen |= {path for p, path in tree.index_named if p.line < first_hidden and path}
    hidden = [p for p in [*linked, *named] if p.path is None or p.path not in seen]
    return sorted(hidden, key=lambda p: p.line)


def _invisible(
    tree: MemoryTree, index: Index, hidden: Sequence[_Pointer], loaded: LoadedIndex
) -> Finding:
    """One finding for every entry past the cut: one cause, one decision (not a flood of
    one finding per entry)."""
    first = hidden[0]
    partial = first.line == loaded.first_hidden and loaded.partial
    how = "cut off mid-line" if partial else "past the cut-off"
    if len(hidden) == 1:
        # The file first: a long title, shortened in the message, must not hide which it is.
        what = f"the entry for `{first.target}` is {how}; no session sees it"
        what += f" (title `{first.title}`)" if first.title != first.target else ""
    else:
        files = list(dict.fromkeys(e.target for e in hidden))  # a file named on two lines
        named = ", ".join(f"`{target}`" for target in files[:NAMED_ENTRIES])
        more = f" and {len(files) - NAMED_ENTRIES} more" if len(files) > NAMED_ENTRIES else ""
        start = "from line" if not partial else "the first cut off mid-line, from line"
        what = (
            f"{len(hidden)} index entries are past the cut-off ({start} {first.line} on);"
            f" no session sees them: {named}{more}"
        )
    related = (e.path or e.target for e in hidden)
    return make_finding(
        ID,
        "invisible-entry",
        INDEX_NAME,
        first.line,
        what,
        "move them into one topic file with one pointer to it above the cut-off, or shrink"
        " the index",
        key="invisible-entries",
        related=tuple(dict.fromkeys(related)),
        fix=overflow_fix(
            index.lines, loaded, [(e.line, e.title) for e in hidden], index.markdown.code_lines
        ),
    )


def _recall(tree: MemoryTree) -> Iterator[Finding]:
    scan = recall_scan(tree)
    past = scan.past_cap
    if past:
        named = ", ".join(f"`{p}`" for p in past[:NAMED])
        more = f" and {len(past) - NAMED} more" if len(past) > NAMED else ""
        which = f": {named}{more}"
        if scan.tied_at_cap:
            which = (
                f"; which ones is not known here: {scan.tied_at_cap} of them share one"
                " modification time across the cut (a checkout or a copy gives files one time)"
            )
        yield make_finding(
            ID,
            "past-recall-cap",
            INDEX_NAME,
            None,
            f"recall sees {RECALL_CAP} of {len(scan.order)} memories: Claude Code lists the "
            f"{RECALL_CAP} newest, so {len(past)} are never candidates{which}",
            "merge related memories, archive or delete the stale ones, until at most "
            f"{RECALL_CAP} remain",
            related=() if scan.tied_at_cap else past,
        )
    if scan.not_dates:
        shown = ", ".join(f"`{p}` (`{v[:40]}`)" for p, v in scan.not_dates[:NAMED])
        yield make_finding(
            ID,
            "modified-not-a-date",
            INDEX_NAME,
            None,
            f"{len(scan.not_dates)} memories carry a `modified:` that is not a date, so the "
            f"recall scan orders them by file time: {shown}",
            "write `modified:` as an ISO date (2026-04-14) or remove it",
            related=tuple(p for p, _ in scan.not_dates),
            severity="note",
        )


def _lost(entries: int, loaded: LoadedIndex) -> str:
    """What the cut loses: its entries, or, when the lines past it hold none, its lines."""
    start = f"from line {loaded.first_hidden} on"
    if entries:
        noun, verb = ("entry", "is") if entries == 1 else ("entries", "are")
        return f"{entries} {noun} {start} {verb} never seen"
    lines = loaded.lines - loaded.kept_lines
    return f"its last {lines} lines, {start}, are never seen (no entry among them)"
