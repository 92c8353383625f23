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

from collections.abc import Iterator

from memory_audit.model.finding import Finding, make_finding
from memory_audit.tree.claude_yaml import ReadBy
from memory_audit.tree.frontmatter_block import CutShort
from memory_audit.tree.memory_file import MemoryFile

SHOWN = 60  # characters of memory text quoted in a message
# The fields whose text is read: Claude Code's (name, description, type; a skill's or an
# agent's metadata) and those this audit's dimensions read (relations, review dates,
# scope and relevance, confidence, kinds, dates).
READ_FIELDS = frozenset(
    {"name", "description", "type", "metadata", "scope", "relevance", "kind"}
    | {"superseded_by", "supersedes", "relations", "related", "review_by", "expiry"}
    | {"confidence", "last_challenged", "date", "modified", "created"}
)


def reading_findings(dimension: str, memory: MemoryFile) -> Iterator[Finding]:
    cut_short = memory.split.block.cut_short if memory.split.block else None
    # a value a `---` line broke is what strict parsers trip on too: one cause, one finding
    inserted = cut_short is not None and _inserted(memory, cut_short)
    if memory.read.read_by is ReadBy.FALLBACK and not inserted:
        yield _strict_only(dimension, memory)
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
    if cut_short is not None:
        yield _cut_short(dimension, memory, cut_short, inserted)


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
        fix={
            "action": "quote-values",
            "path": memory.path,
            "values": {q.key: q.value for q in quoted},
        }
        if quoted
        else None,
    )


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
