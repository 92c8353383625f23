"""Findings about how Claude Code reads a file's frontmatter (DESIGN §2).

Three things no YAML error message says:

- ``strict-yaml-only``: strict YAML rejects the block, Claude Code's retry
  (quoting the offending values) reads it. Claude Code is fine; GitHub, editors
  and most tools are not. Low severity; the fix writes the values quoted.
- ``value-cut-by-comment``: an unquoted `` #`` starts a YAML comment, so Claude
  Code reads only the text before it; the fix quotes the whole value.
- ``frontmatter-cut-short``: a ``---`` inside the block ends it for Claude Code;
  the fields below it are read as body text.

A block read by neither parse is a read problem of the file
(``unparseable-frontmatter``, high severity), reported with the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from memory_audit.model.finding import Finding, make_finding
from memory_audit.tree import bounded_yaml
from memory_audit.tree.claude_yaml import QuotedLine, ReadBy
from memory_audit.tree.frontmatter_block import CutShort
from memory_audit.tree.frontmatter_read import markdown_start
from memory_audit.tree.memory_file import MemoryFile

SHOWN = 60  # characters of memory text quoted in a message
TEMPLATE_PLACEHOLDER = re.compile(r"\s*\{\{[^{}\n]*\}\}\s*")
# A flow mapping's or sequence's first character: what YAML reads as a collection
FLOW_OPENERS = ("{", "[")
# The fields whose text is read: Claude Code's (name, description, type; a skill's or an
# agent's metadata) and those this audit's dimensions read (relations, review dates,
# scope and relevance, confidence, kinds, dates).
READ_FIELDS = frozenset(
    {"name", "description", "type", "metadata", "scope", "relevance", "kind"}
    | {"superseded_by", "supersedes", "relations", "related", "review_by", "expiry"}
    | {"confidence", "last_challenged", "date", "modified", "created"}
)


def reading_findings(
    dimension: str, memory: MemoryFile, *, own_loader: bool = False
) -> Iterator[Finding]:
    """``own_loader``: another agent's file (its skill) that its own loader reads: a flow
    mapping that parses alone is that loader's (its ``metadata``), not text by Claude
    Code's retry; what strict YAML trips on is then all there is to say."""
    cut_short = memory.split.block.cut_short if memory.split.block else None
    # a value a `---` line broke is what strict parsers trip on too: one cause, one finding
    inserted = cut_short is not None and _inserted(memory, cut_short)
    if memory.read.read_by is ReadBy.FALLBACK and not inserted:
        # a template's placeholder (``date: {{date}}``, filled in when a note is made from
        # it) is no flow mapping
        flows = [q for q in flow_quoted(memory) if not TEMPLATE_PLACEHOLDER.fullmatch(q.value)]
        if own_loader and all(_parses_alone(q.value) for q in flows):
            flows = []
        yield _flows_as_text(dimension, memory, flows) if flows else _strict_only(dimension, memory)
    for cut in memory.read.comment_cuts:
        read = cut.key in READ_FIELDS
        yield make_finding(
            dimension,
            "value-cut-by-comment",
            memory.path,
            cut.line,
            f"`{cut.key}` is cut at an unquoted ` #` (a YAML comment): "
            + ("Claude Code reads" if read else "a YAML reader gets")
            + f" {_quoted(cut.kept)} and loses {_quoted(cut.lost)}"
            + ("" if read else f" (neither Claude Code nor this audit reads `{cut.key}`)"),
            f"quote the value: {cut.key}: {_yaml_quoted(cut.written)}",
            key=cut.key,
            fix=_set(memory, cut.key, cut.written),
            # a field of the owner's own convention loses text only for tools that parse
            # it as YAML (an agent framework's provenance line, read as raw text): worth a
            # look, not a problem
            level=None if read else "suggestion",
        )
    if cut_short is not None and not _in_pasted_markdown(memory, cut_short):
        yield _cut_short(dimension, memory, cut_short, inserted)


def _in_pasted_markdown(memory: MemoryFile, cut: CutShort) -> bool:
    """A table's ``|---|`` line in a Markdown section pasted into a block no parse reads:
    one cause, one finding (``unparseable-frontmatter``, whose advice moves the section
    out, the ``---`` with it); "lost: these fields" would say the rest was read."""
    block = memory.split.block
    if block is None or cut.key or memory.read.read_by is not ReadBy.NEITHER:
        return False
    start = markdown_start(block.text.split("\n"))
    return start is not None and block.first_line + start < cut.line


def _parses_alone(value: str) -> bool:
    """Whether a flow mapping or sequence is well formed on its own (its braces balanced,
    its items separated): broken, it is a fault whoever reads it."""
    try:
        return isinstance(bounded_yaml.load(value), (Mapping, list))
    except bounded_yaml.YAMLProblem:
        return False


def flow_quoted(memory: MemoryFile) -> list[QuotedLine]:
    """The flow mappings and sequences (``metadata: { ... }``) Claude Code's retry quoted
    with the values strict YAML tripped on: it reads them as text, not as what they are."""
    if memory.read.read_by is not ReadBy.FALLBACK:
        return []
    return [
        q
        for q in memory.read.quoted
        if q.value.lstrip().startswith(FLOW_OPENERS) and not _tagged_text(q.value)
    ]


def _tagged_text(value: str) -> bool:
    """Text that opens with a bracketed tag (``[Subagent Context] You are ...``, ``[WIP]
    fix the login``): the brackets close and words go on after them, so no collection
    was meant; read as text by the retry, it is read as written (``strict-yaml-only``). A
    collection that parses alone is one, whatever brackets its quoted items hold."""
    text = value.strip()
    if not text or _parses_alone(text):
        return False
    opener = text[0]
    closer = "]" if opener == "[" else "}"
    depth = 0
    for at, char in enumerate(text):
        depth += (char == opener) - (char == closer)
        if depth == 0:
            rest = text[at + 1 :].lstrip()
            return bool(rest) and not rest.startswith(("#", ","))
    return False


def _flows_as_text(dimension: str, memory: MemoryFile, flows: list[QuotedLine]) -> Finding:
    """One cause, one finding: strict YAML rejects the block for another value (an unquoted
    ``: `` in a description), Claude Code's retry quotes every value, and the flow mapping
    becomes text. The fix quotes the other values only, so the mapping stays one."""
    others = [q for q in memory.read.quoted if q not in flows]
    names = ", ".join(f"`{q.key}`" for q in flows)
    keys = ", ".join(f"`{q.key}`" for q in others)
    if others:
        advice = f"quote {keys} only, so strict YAML reads the block and {names} stay what it is"
    elif all(_parses_alone(q.value) for q in flows):
        sequence = flows[0].value.lstrip().startswith("[")
        advice = (
            f"write it as a block {'list' if sequence else 'of key: value lines'}, so it"
            " stays what it is"
        )
    else:  # its own brackets are broken (``[a [b], c]``): no reader gets a list from it
        advice = (
            "its brackets do not parse: quote the whole value, or write its items as a block list"
        )
    return make_finding(
        dimension,
        "invalid-field",
        memory.path,
        flows[0].line,
        f"{names} {'is' if len(flows) == 1 else 'are'} read as text: strict YAML rejects the"
        f" block ({memory.read.strict_error}), and Claude Code's retry quotes every value,"
        f" {'this mapping' if len(flows) == 1 else 'these'} too",
        advice,
        key=flows[0].key,
        fix=_quote_fix(memory, others),
        # a field no reader here reads (``topics`` of another tool's convention) loses
        # nothing Claude Code uses: worth a look, not a problem
        level=None if any(q.key in READ_FIELDS for q in flows) else "suggestion",
    )


def _strict_only(dimension: str, memory: MemoryFile) -> Finding:
    quoted = memory.read.quoted
    keys = ", ".join(f"`{q.key}`" for q in quoted)
    line = quoted[0].line if quoted else 1
    return make_finding(
        dimension,
        "strict-yaml-only",
        memory.path,
        line,
        f"strict YAML parsers (GitHub, most tools) reject this; Claude Code reads it "
        f"{'by quoting ' + keys if keys else 'after turning leading tabs into spaces'} "
        f"({memory.read.strict_error})",
        ("quote the value" + ("s" if len(quoted) > 1 else "") if quoted else "indent with spaces")
        + " so every parser agrees",
        severity="note",
        fix=_quote_fix(memory, list(quoted)),
    )


def _quote_fix(memory: MemoryFile, quoted: list[QuotedLine]) -> dict[str, object] | None:
    """The fix writing these values quoted, as Claude Code's retry reads them; none when
    there are none."""
    if not quoted:
        return None
    return {
        "action": "quote-values",
        "path": memory.path,
        "values": {q.key: q.value for q in quoted},
    }


# The field Claude Code adds to a memory it saves, written before the block's first `---`.
INSERTED = "originSessionId"


def _cut_short(dimension: str, memory: MemoryFile, cut: CutShort, inserted: bool) -> Finding:
    if cut.key:
        where = f"a `---` inside `{cut.key}`"
    else:
        where = "a `---` line" if cut.column == 0 else "a `---` inside the block"
    lost = [f"`{name}`" for name in cut.lost_fields]
    if cut.lost_text:
        lost.insert(0, f"the rest of line {cut.line} ({_quoted(cut.lost_text)})")
    return make_finding(
        dimension,
        "frontmatter-cut-short",
        memory.path,
        cut.line,
        f"{where} ends the frontmatter for Claude Code; lost: "
        + (", ".join(lost) or "nothing after it on that line")
        + (f" (an `{INSERTED}` line was written into a value there)" if inserted else ""),
        _cut_suggestion(cut, inserted),
        key=cut.key or str(cut.line),
        severity="error" if cut.lost_fields else None,
    )


def _cut_suggestion(cut: CutShort, inserted: bool) -> str:
    move = f"move `{INSERTED}` to a line of its own and " if inserted else ""
    if cut.column == 0 and cut.key:  # a line of its own, breaking a value in two
        return (
            f"{move}rejoin `{cut.key}` on one line without that `---` (an em dash — reads"
            " the same), so the block ends at the `---` below its fields"
        )
    if cut.column == 0:  # a line of its own between fields
        return f"{move}delete that `---` line, so the block ends at the `---` below its fields"
    return (
        "replace that `---` (an em dash — or `--` reads the same); "
        "Claude Code ends the block at the first `---` anywhere"
    )


def _inserted(memory: MemoryFile, cut: CutShort) -> bool:
    """Claude Code writes ``originSessionId:`` before the first ``---`` it finds: inside
    a value that holds one, where it breaks the value and ends the block."""
    if cut.column or cut.line < 3:
        return False
    above = memory.lines[cut.line - 2]
    return f"{INSERTED}:" in above.partition(":")[2]


def _set(memory: MemoryFile, key: str, value: str) -> dict[str, object]:
    return {"action": "quote-values", "path": memory.path, "values": {key: value}}


def _quoted(text: str) -> str:
    shown = text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"
    return f'"{shown}"'


def _yaml_quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    shown = escaped if len(escaped) <= SHOWN else escaped[: SHOWN - 1] + "…"
    return f'"{shown}"'
