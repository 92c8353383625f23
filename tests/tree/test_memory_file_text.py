"""A memory file keeps its text as read; its lines are cut on first use, exactly as the
loader cut them before, and the whole-file scans read the text without cutting it."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from memory_audit.tree.memory_file import FileKind, parse_memory_file


def _lines_cut_at_load(text: str) -> tuple[str, ...]:
    lines = tuple(text.split("\n"))
    return lines[:-1] if lines and lines[-1] == "" else lines


@given(st.text(alphabet="ab\n\r ", max_size=30))
@example("")
@example("\n")
@example("a\n\n")
@example("a")
def test_lines_and_the_joined_text_are_the_lines_cut_at_load(text: str) -> None:
    memory = parse_memory_file("a.md", FileKind.MEMORY, text, len(text), 0.0)
    assert memory.line_count == len(_lines_cut_at_load(text))  # before the lines are cut
    assert memory.lines == _lines_cut_at_load(text)
    assert memory.joined == "\n".join(memory.lines)
    assert memory.line_count == len(_lines_cut_at_load(text))
