"""What the checks ask of a file again and again is computed once, and reads exactly as the
per-call code read it: the type, name and description, a parse's links and code lines;
lines are cut on demand (issue 28 item 5: the same findings, fewer walks of every line,
memory that grows with the text, not with its lines)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hypothesis import example, given
from hypothesis import strategies as st

from memory_audit.tree.markdown import Document, first_paragraph, parse_markdown
from memory_audit.tree.memory_file import FileKind, MemoryFile, parse_memory_file

FIELDS = st.sampled_from(
    ["name: a", "description: b c", "type: project", "type: ' user '", "name: [x]", "x: 1"]
)
METADATA = st.sampled_from(["metadata:", "  type: feedback", "  name: n", "  description: d"])
BODY = st.sampled_from(
    ["", "text", "# head", "```", "    code", "- [a](b.md)", "`c.md`", "[[w]]", "~~~", "---"]
)


@st.composite
def memory_texts(draw: st.DrawFn) -> str:
    head = draw(st.lists(st.one_of(FIELDS, METADATA), max_size=5))
    body = draw(st.lists(BODY, max_size=8))
    opened = draw(st.sampled_from(["---\n", ""]))
    closed = draw(st.sampled_from(["---\n", ""]))
    return opened + "".join(f"{line}\n" for line in head) + closed + "\n".join(body)


def _memory(text: str) -> MemoryFile:
    return parse_memory_file("a.md", FileKind.MEMORY, text, len(text), 0.0)


def _meta_text_as_before(frontmatter: Mapping[str, object] | None, key: str) -> str:
    """``MemoryFile.meta_text`` before it was cached, written out."""
    fm = frontmatter or {}
    value = fm.get(key)
    if key not in fm:
        metadata = fm.get("metadata")
        value = metadata.get(key) if isinstance(metadata, Mapping) else None
    if value is None or isinstance(value, Mapping | list):
        return ""
    return str(value).strip()


@given(memory_texts())
@example("---\nname: a\n---\nbody\n")
@example("---\nmetadata:\n  type: feedback\n---\n")
@example("no frontmatter\n")
def test_body_lines_and_fields_read_as_the_per_call_code(text: str) -> None:
    memory = _memory(text)
    assert memory.body_lines == memory.lines[memory.body_start - 1 :]
    assert memory.body == "\n".join(memory.lines[memory.body_start - 1 :])
    for key in ("type", "name", "description"):
        assert getattr(memory, key) == _meta_text_as_before(memory.frontmatter, key)


def test_a_files_fields_are_read_once() -> None:
    memory = _memory("---\nname: a\ntype: project\n---\none\ntwo\n")
    assert memory.body_lines == ("one", "two")
    assert (memory.type, memory.name) == ("project", "a")
    assert {"type", "name"} <= vars(memory).keys()


def _code_lines_as_before(document: Document) -> frozenset[int]:
    return frozenset(
        line
        for block in document.blocks
        if block.kind == "code"
        for line in range(block.first, block.last + 1)
    )


@given(st.lists(BODY, max_size=12), st.integers(min_value=1, max_value=9))
def test_a_documents_links_and_code_lines_read_as_the_per_call_code(
    lines: Sequence[str], first: int
) -> None:
    document = parse_markdown(lines, first)
    assert document.links == tuple(s.link for b in document.blocks for s in b.spans)
    assert document.code_lines == _code_lines_as_before(document)
    assert document.links is document.links
    assert document.code_lines is document.code_lines


@given(memory_texts())
@example("---\nname: a\n---\npara one\npara two `x.md`\n\n```\ncode\n```\n[a](b.md)\n")
def test_a_files_parse_keeps_what_its_readers_read_links_and_code(text: str) -> None:
    memory = _memory(text)
    whole = parse_markdown(memory.body_lines, memory.body_start)
    kept = memory.markdown
    assert (kept.links, kept.code_lines, kept.unread) == (
        whole.links,
        whole.code_lines,
        whole.unread,
    )
    assert [(b.kind, b.first, b.last, b.spans) for b in kept.blocks] == [
        (b.kind, b.first, b.last, b.spans) for b in whole.blocks if b.spans or b.kind == "code"
    ]
    assert all(block.text == "" for block in kept.blocks)
    assert memory.first_paragraph == first_paragraph(memory.body_lines, memory.body_start, whole)


def test_a_files_lines_are_cut_again_once_later_files_were_read() -> None:
    """Lines on demand: a tree keeps each file's text, and only the last few files' lines
    (the checks read one file after another), so its lines never all live at once."""
    first = _memory("---\nname: a\n---\none\ntwo\n")
    lines = first.lines
    assert first.lines is lines  # asked again in a row: the same cut
    assert "lines" not in vars(first)
    for number in range(8):
        assert _memory(f"other {number}\n").lines == (f"other {number}",)
    assert first.lines == lines
    assert first.lines is not lines  # cut again: the first cut was let go
