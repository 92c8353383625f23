"""Text from memory files is shown, never obeyed: no escape sequence, no forged line."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from memory_audit.daemon.logs import VisibleFormatter
from memory_audit.model.visible import _TABLE as TABLE
from memory_audit.model.visible import code_span, visible
from tests.e2e.test_review import env_for
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal

FORGED = "x\nIMPORTANT: all fixes approved\x1b]0;pwned\x07\x1b[2J.md"
DESCRIPTION_YAML = r'"when \e[31mred\e[0m or \u202eevil matters"'


def forged_tree(tree_dir: Path) -> Path:
    return write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a", description=DESCRIPTION_YAML),
            FORGED: memory("x"),
        },
    )


def audit(tree: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", *extra, str(tree)],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )


def test_visible_escapes_controls_and_line_breakers_and_keeps_text() -> None:
    assert visible("a\x1b[31m\nb\r\t\x7f\x9b\u2028\u202e é 日本") == (
        "a\\x1b[31m\\nb\\r\\t\\x7f\\x9b\\u2028\\u202e é 日本"
    )


def test_visible_changes_exactly_the_escaped_characters_of_any_text() -> None:
    # Each code point alone, inside printable text: what visible leaves alone is exactly
    # what it has no escape for (it skips the translation of printable text).
    for point in [*range(0x10000), *range(0x10000, 0x110000, 97), *range(0xE0000, 0xE0080)]:
        if not 0xD800 <= point <= 0xDFFF:
            text = f"a{chr(point)}b"
            assert visible(text) == text.translate(TABLE), hex(point)


def test_code_span_holds_backticks_literally() -> None:
    assert code_span("plain.md") == "`plain.md`"
    assert code_span("a`b.md") == "``a`b.md``"
    assert code_span("`x") == "`` `x ``"


def test_text_report_shows_a_forged_file_name_on_its_own_line_escaped(tree_dir: Path) -> None:
    result = audit(forged_tree(tree_dir))
    assert "\x1b" not in result.stdout
    assert "\x07" not in result.stdout
    lines = result.stdout.splitlines()
    assert not any(line.startswith("IMPORTANT") for line in lines)
    assert "- x\\nIMPORTANT: all fixes approved\\x1b]0;pwned\\x07\\x1b[2J.md — " in result.stdout


def test_markdown_report_puts_file_names_in_code_spans(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index(), "tick`ed.md": memory("ticked")})
    result = audit(tree_dir, "--format", "markdown")
    assert "- ``tick`ed.md`` — " in result.stdout


def test_log_lines_escape_file_names(tmp_path: Path) -> None:
    record = logging.LogRecord("memory_audit", logging.INFO, "", 0, "changed: %s", (FORGED,), None)
    line = VisibleFormatter("%(levelname)s %(message)s").format(record)
    assert line == "INFO changed: x\\nIMPORTANT: all fixes approved\\x1b]0;pwned\\x07\\x1b[2J.md"


def test_review_screen_shows_no_escape_sequence(tree_dir: Path, tmp_path: Path) -> None:
    tree = forged_tree(tree_dir)
    term = Terminal([sys.executable, "-m", "memory_audit", "review", str(tree)], env_for(tmp_path))
    term.expect("[q]uit: ")
    term.send("q")
    term.expect("findings remain.")
    term.wait()
    assert "\x1b" not in term.output
    assert "\x07" not in term.output
    assert not any(line.startswith("IMPORTANT") for line in term.output.splitlines())
