"""A file's frontmatter as Claude Code sees it, with what the audit must say about it.

:func:`read_frontmatter` puts together the block cut (``frontmatter_block``)
and the two-step parse (``claude_yaml``), and adds the one thing both YAML
passes hide: a plain value cut short by `` #`` (a YAML comment), whose rest
Claude Code never sees either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from memory_audit.tree.bounded_yaml import MAX_TEXT
from memory_audit.tree.claude_yaml import Parsed, QuotedLine, ReadBy, as_mapping, parse_block
from memory_audit.tree.file_problem import FileProblem
from memory_audit.tree.frontmatter_block import HEADING, Block

VALUE_LINE = re.compile(r"( *)([A-Za-z_][\w-]*):[ \t]+")
# ``  description: ...`` under ``name: ...``: a key of Claude Code's schema pushed in by
# white space, which YAML reads as the line above going on
INDENTED_KEY = re.compile(r"[ \t]+(name|description|type|metadata):(?:[ \t]|\r?$)")
# a key with its value on its line; not a block scalar's opener (``description: |``), whose
# indented lines are its text
SCALAR_LINE = re.compile(r"[A-Za-z_][\w-]*:[ \t]*(?![|>][-+0-9]*[ \t]*\r?$)\S")
TOP_KEY = re.compile(r"([A-Za-z_][\w-]*):")
NOT_PLAIN = frozenset("\"'|>[{&*!")
NO_FRONTMATTER = "Claude Code sees no frontmatter in this file"
# A top-level key starting its line (a block's next field)
KEY_START = re.compile(r"[A-Za-z_][\w-]*[ \t]*:(?:[ \t]|\r?$)")
# A list item opening with a character YAML reserves for its own syntax
RESERVED_ITEM = re.compile(r"^([ \t]*)- ([*&!@`].*)$")
# ``-评测`` under ``- product-review``: a list item with no space after its dash (not a
# ``---`` rule, nor a negative number)
UNSPACED_ITEM = re.compile(r"([ \t]*)-(?=[^\s\d-])")
# A key written with a full-width colon (``version： 1.1.1``, an input method's): YAML
# reads no key there, and a line of text at the margin after a mapping fails the block
FULL_WIDTH_KEY = re.compile(r"([A-Za-z_][\w-]*)[ \t]*：[ \t]*")
# A top-level key and a plain value on its line (no quote, block scalar or flow opener)
PLAIN_VALUE_LINE = re.compile(r"([A-Za-z_][\w-]*):[ \t]+(?=[^\s\"'|>\[{&*!#])")


@dataclass(frozen=True)
class CommentCut:
    """``key: kept #lost``: YAML keeps ``kept`` and drops the rest as a comment."""

    line: int  # 1-based file line
    key: str
    kept: str
    lost: str
    written: str  # the whole value as the author wrote it


@dataclass(frozen=True)
class Frontmatter:
    fields: Mapping[str, Any] | None  # None: Claude Code reads no fields from this file
    read_by: ReadBy | None  # None when there is no block
    problems: tuple[FileProblem, ...] = ()
    quoted: tuple[QuotedLine, ...] = ()  # lines only the fallback reads (file line numbers)
    comment_cuts: tuple[CommentCut, ...] = ()
    strict_error: str = ""  # why strict YAML rejected it (read by the fallback)

    def cut_at_comment(self, key: str) -> bool:
        """Whether ``key``'s value was cut at an unquoted `` #``: one cause, reported once
        (``value-cut-by-comment``), never again as an empty, terse or generic value."""
        return any(cut.key == key for cut in self.comment_cuts)


def read_frontmatter(block: Block) -> Frontmatter:
    if len(block.text) > MAX_TEXT:
        return Frontmatter(None, None, (_too_large(block.text),))
    parsed = parse_block(block.text)
    offset = block.first_line
    if parsed.read_by is ReadBy.NEITHER:
        return Frontmatter(None, parsed.read_by, (_neither(parsed, block.text, offset),))
    fields = as_mapping(parsed.value)
    if fields is None:
        return Frontmatter(None, parsed.read_by, (_not_mapping(parsed.value),))
    quoted = tuple(QuotedLine(q.line + offset, q.key, q.value) for q in parsed.quoted)
    cuts = tuple(comment_cuts(parsed.text, fields, offset))
    complaint = ""
    if parsed.read_by is ReadBy.FALLBACK:
        where = f", line {parsed.error_line + offset - 1}" if parsed.error_line else ""
        complaint = parsed.error.removeprefix("invalid YAML: ") + where
    return Frontmatter(fields, parsed.read_by, (), quoted, cuts, complaint)


def _too_large(text: str) -> FileProblem:
    message = (
        f"frontmatter block is {len(text) // 1024} KB, over the {MAX_TEXT // 1024} KB "
        "this audit parses; its fields are not checked"
    )
    return FileProblem("frontmatter-too-large", message, 1)


def _neither(parsed: Parsed, text: str, offset: int) -> FileProblem:
    line = parsed.error_line + offset - 1 if parsed.error_line is not None else offset - 1
    where = f" (line {line})" if parsed.error_line is not None else ""
    message = f"{NO_FRONTMATTER}: {parsed.error}{where}, and its retry fails too"
    return FileProblem("unparseable-frontmatter", message, line, _repair(text, offset))


def _repair(text: str, offset: int) -> str | None:
    """The one repair that makes the block parse, named, where its cause has a shape the
    general advice (quote the failing line) would leave failing: a key pushed in by white
    space, Markdown pasted into the block, a list item with no space after its dash, a
    value run on over lines YAML cannot read as its text, a list item opening with a
    character YAML reserves (``- *.log files``: an alias), a key's full-width colon. Each is
    tried on the block and named only when the block then parses; None when none does."""
    repairs = (
        *(_outdent, _markdown_inside, _dash_spaced, _full_width_colon, _as_block_scalar),
        _items_quoted,
    )
    for repair in repairs:
        advice = repair(text, offset)
        if advice is not None:
            return advice
    return None


def _parses(lines: list[str]) -> bool:
    """The block, rewritten, is one Claude Code reads: a mapping, or empty. A block neither
    of its parses reads has no value either, and is no empty one."""
    parsed = parse_block("\n".join(lines))
    return parsed.read_by is not ReadBy.NEITHER and as_mapping(parsed.value) is not None


def markdown_start(lines: list[str]) -> int | None:
    """The index of the first Markdown heading at a line's start inside the block (YAML
    reads it as a comment, and the section's text and tables under it as YAML): a note's
    section pasted above the block's closing line. None when there is none."""
    return next((n for n, line in enumerate(lines) if HEADING.match(line)), None)


def _markdown_inside(text: str, offset: int) -> str | None:
    lines = text.split("\n")
    start = markdown_start(lines)
    if start is None or start == 0:
        return None
    end = next((n for n in range(start + 1, len(lines)) if KEY_START.match(lines[n])), len(lines))
    if not _parses(lines[:start] + lines[end:]):
        return None
    return (
        f"move the Markdown from line {start + offset} (a heading and the text under it) below"
        " the block's closing `---`: inside the block, YAML reads its text and tables as"
        " fields"
    )


def _lines_rewritten(
    text: str,
    offset: int,
    select: Callable[[list[str], int], re.Match[str] | None],
    rewrite: Callable[[re.Match[str]], str],
) -> str | None:
    """The block's lines ``select`` matches, each replaced by ``rewrite`` of its match: where
    they are (``line 4, line 9``) when the block then parses; None when none matches or it
    still fails."""
    lines = text.split("\n")
    found = [(n, match) for n in range(len(lines)) if (match := select(lines, n)) is not None]
    if not found:
        return None
    for n, match in found:
        lines[n] = rewrite(match)
    if not _parses(lines):
        return None
    return ", ".join(f"line {n + offset}" for n, _ in found)


def _dash_spaced(text: str, offset: int) -> str | None:
    where = _lines_rewritten(
        text,
        offset,
        lambda lines, n: UNSPACED_ITEM.match(lines[n]) if _unspaced_item(lines, n) else None,
        lambda match: f"{match.group(1)}- {match.string[match.end() :]}",
    )
    if where is None:
        return None
    return (
        f"put a space after the `-` on {where}: with none, YAML reads the item as the text of"
        " the line above"
    )


def _full_width_colon(text: str, offset: int) -> str | None:
    where = _lines_rewritten(
        text,
        offset,
        lambda lines, n: FULL_WIDTH_KEY.match(lines[n]),
        lambda match: f"{match.group(1)}: {match.string[match.end() :]}",
    )
    if where is None:
        return None
    return f"write `:` for the full-width `：` on {where}: YAML reads no key at a full-width colon"


def _unspaced_item(lines: list[str], n: int) -> bool:
    """A line that opens as an item does, with no space after its dash, in a list: the
    line above it is an item at its indentation (``- product-review`` then ``-评测``)."""
    match = UNSPACED_ITEM.match(lines[n])
    if match is None:
        return False
    above = next((lines[m] for m in range(n - 1, -1, -1) if lines[m].strip()), "")
    return above.startswith(f"{match.group(1)}- ")


def _items_quoted(text: str, offset: int) -> str | None:
    """List items whose text opens with a character YAML reserves (``*`` an alias, ``&``
    an anchor, ``!`` a tag, ``@`` and a backtick reserved): quoted whole, the block parses.
    The general advice, ``key: 'whole value'``, fits no item of a list."""
    where = _lines_rewritten(
        text,
        offset,
        lambda lines, n: RESERVED_ITEM.match(lines[n]),
        _quoted_item,
    )
    if where is None:
        return None
    return (
        f"quote the list item on {where} whole, as `- '...'` (any ' inside doubled): an item"
        " opening with `*`, `&`, `!`, `@` or a backtick is no text to YAML"
    )


def _quoted_item(match: re.Match[str]) -> str:
    """``- *.log files`` as ``- '*.log files'`` (any ' inside doubled)."""
    item = match.group(2).rstrip().replace("'", "''")
    return f"{match.group(1)}- '{item}'"


def _as_block_scalar(text: str, offset: int) -> str | None:
    """A top-level key's plain value whose text runs on over lines that start at the
    margin (a blank line, then ``- `` items): YAML reads those as the block's own
    structure. Written as a block scalar (``key: |``, its lines indented), it parses."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        key = PLAIN_VALUE_LINE.match(line)
        if key is None:
            continue
        end = next((m for m in range(n + 1, len(lines)) if KEY_START.match(lines[m])), len(lines))
        run_on = lines[n + 1 : end]
        if not any(part.strip() for part in run_on) or any(
            part.startswith((" ", "\t")) for part in run_on
        ):
            continue
        value = line[key.end() :]
        block = [
            f"{key.group(1)}: |",
            f"  {value}",
            *(f"  {part}" if part else "" for part in run_on),
        ]
        if _parses(lines[:n] + block + lines[end:]):
            return (
                f"write `{key.group(1)}` as a block: `{key.group(1)}: |` on line {n + offset},"
                f" its text (to line {end - 1 + offset}) on the lines below, indented two"
                " spaces; run on at the margin, YAML reads its lines as the block's own"
            )
    return None


def _outdent(text: str, offset: int) -> str | None:
    """What to do when the block fails only because a key's line starts with white space
    (`` description: ...`` under ``name: ...``): quoting the value, the general advice,
    would leave it failing. None when the block has no such line, or parses no better
    without the white space."""
    lines = text.split("\n")
    places = []
    for number, line in enumerate(lines):
        key = INDENTED_KEY.match(line)
        # under a top-level key that has its value on its line: not a nested mapping's
        # (``metadata:`` then ``  type: project``)
        above = SCALAR_LINE.match(lines[number - 1]) if number else None
        if key is not None and above is not None:
            places.append(f"`{key.group(1)}:` on line {number + offset}")
            lines[number] = line.lstrip(" \t")
    if not places or not _parses(lines):
        return None
    where = ", ".join(places)
    return (
        f"remove the white space before {where}: a key that does not start its line"
        " continues the value above it"
    )


# ``name:odd``: a field written without the space YAML needs, no line of prose
KEY_WITHOUT_SPACE = re.compile(r"[A-Za-z_][\w-]*[ \t]*(?::\S|[=：])")


def _not_mapping(value: Any) -> FileProblem:
    kind = "a list" if isinstance(value, list) else f"a {type(value).__name__} scalar"
    message = f"frontmatter is {kind}, not key: value pairs"
    line = value.strip() if isinstance(value, str) else ""
    if line and "\n" not in line and KEY_WITHOUT_SPACE.match(line) is None:
        # one line of prose between the `---` lines (a commit's message, a title): no
        # fields were meant, so it is a description or no frontmatter at all
        advice = (
            "it holds text and no fields: make that text the quoted value of `description:`"
            " beside `name:` and `type:`, or delete the two `---` lines if no frontmatter was"
            " meant"
        )
        return FileProblem("frontmatter-not-mapping", message, 1, advice)
    return FileProblem("frontmatter-not-mapping", message, 1)


def comment_cuts(text: str, fields: Mapping[str, Any], offset: int) -> list[CommentCut]:
    """Plain values that YAML cut at `` #``, checked against what was actually loaded."""
    if "#" not in text:
        return []  # every cut is at a `#`: most blocks have none
    found = []
    parent: Mapping[str, Any] = {}
    for number, line in enumerate(text.split("\n")):
        top = TOP_KEY.match(line)
        if top is not None:
            nested = fields.get(top.group(1))
            parent = nested if isinstance(nested, Mapping) else {}
        match = VALUE_LINE.match(line)
        if match is None:
            continue
        indent, key, value = match.group(1), match.group(2), line[match.end() :]
        cut = _cut(value)
        loaded = fields.get(key) if not indent else parent.get(key)
        if cut is not None and _agrees(loaded, cut[0]):
            found.append(CommentCut(number + offset, key, cut[0], cut[1], value.strip()))
    return found


def _cut(value: str) -> tuple[str, str] | None:
    if not value or value[0] in NOT_PLAIN:
        return None
    if value[0] == "#":
        return "", value.strip()
    positions = [p for p in (value.find(" #"), value.find("\t#")) if p >= 0]
    if not positions:
        return None
    at = min(positions)
    return value[:at].strip(), value[at:].strip()


def _agrees(loaded: Any, kept: str) -> bool:
    if loaded is None:
        return kept in ("", "~", "null", "Null", "NULL")
    return not isinstance(loaded, Mapping | list) and str(loaded) == kept
