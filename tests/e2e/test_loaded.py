"""`memory-audit loaded`: what a session receives, as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memory_audit.checks import DIMENSIONS
from memory_audit.model.run import Run
from memory_audit.report import renderer
from tests.harness import NOW, memory, report, write_tree

TOKEN = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"


def loaded(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "loaded", *args],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )


def long_index(root: Path) -> Path:
    lines = [f"- [Note {i}](n{i}.md) — when note {i} matters" for i in range(1, 231)]
    files = {f"n{i}.md": memory(f"n{i}") for i in (1, 2, 205)}
    return write_tree(root, {"MEMORY.md": "\n".join(lines) + "\n", **files})


def test_loaded_prints_the_cut_text_with_the_warning_then_the_account(tree_dir: Path) -> None:
    long_index(tree_dir)
    result = loaded(str(tree_dir))
    assert result.returncode == 0, result.stderr
    text, account = result.stdout.split("\n\n─", 1)
    assert text.splitlines()[199] == "- [Note 200](n200.md) — when note 200 matters"
    assert text.endswith(
        "> WARNING: MEMORY.md is 230 lines (limit: 200). Only part of it was loaded: 30 of 230 "
        'lines were cut off, starting at line 201 ("- [Note 201](n201.md) — when note 201 '
        'matters"). Keep index entries to one line under ~200 chars; move detail into topic files.'
    )
    assert "Lines:      230 counted, 200 loaded (limit 200)" in account
    assert "Index entries past the cut (30):" in account
    assert "  line 201: [Note 201](n201.md)" in account
    assert "  line 205: n205.md (past the cut)" in account
    assert "  line 3: n3.md (missing)" in account


def test_loaded_json_for_tools_and_the_recall_cap(tree_dir: Path) -> None:
    files = {f"m{i:03d}.md": memory(f"m{i:03d}") for i in range(203)}
    write_tree(tree_dir, {"MEMORY.md": "- [A](m000.md) — a\n", **files})
    for i in range(203):
        os.utime(tree_dir / f"m{i:03d}.md", (1_760_000_000 + i, 1_760_000_000 + i))
    result = loaded(str(tree_dir), "--format", "json")
    data = json.loads(result.stdout)
    assert data["schema"] == "memory-audit/loaded@1"
    assert (data["cut"], data["lines"], data["chars"]) == (False, 1, 18)
    assert data["text"] == "- [A](m000.md) — a"
    assert data["recall"]["past_cap"] == ["m002.md", "m001.md", "m000.md"]
    assert data["pointers"][0]["path"] == "m000.md"


def test_loaded_shows_secrets_redacted_and_control_characters_escaped(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": f"- [A](a.md) — token {TOKEN} \x1b[31mred\n"})
    result = loaded(str(tree_dir))
    assert TOKEN not in result.stdout
    assert "token ghp_...aE7u" in result.stdout
    assert "\x1b" not in result.stdout
    assert "\\x1b[31mred" in result.stdout


def test_html_report_shows_the_cut_line_in_the_index_section(tree_dir: Path) -> None:
    long_index(tree_dir)
    html = renderer("html")(Run((report(tree_dir),), NOW, dimensions=DIMENSIONS))
    assert "line 201</td>" in html
    assert "sessions receive MEMORY.md up to line 200 and a warning" in html


def test_loaded_masks_a_secret_used_as_a_link_target_in_text_and_json(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": f"- [Old]({TOKEN}.md) — removed\n"})
    text = loaded(str(tree_dir))
    data = json.loads(loaded(str(tree_dir), "--format", "json").stdout)
    assert TOKEN not in text.stdout + json.dumps(data)
    assert "  line 1: ghp_...aE7u.md (missing)" in text.stdout
    assert data["pointers"][0]["path"] == "ghp_...aE7u.md"


def test_loaded_masks_a_secret_in_a_file_name_in_the_recall_order(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "- [A](a.md) — a\n", f"{TOKEN}.md": memory("b")})
    data = json.loads(loaded(str(tree_dir), "--format", "json").stdout)
    assert TOKEN not in json.dumps(data)
    assert "ghp_...aE7u.md" in data["recall"]["order"]


def test_loaded_says_when_the_project_imports_the_whole_index(tmp_path: Path) -> None:
    project = tmp_path / "project"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    write_tree(project, {"CLAUDE.md": "# Project\n\n@.claude/memory/MEMORY.md\n"})
    long_index(project / ".claude/memory")
    result = loaded(str(project / ".claude/memory"))
    assert result.returncode == 0, result.stderr
    assert "Loaded in full all the same: CLAUDE.md (line 3) imports it" in result.stdout
    assert "(past the cut)" not in result.stdout
    data = json.loads(loaded(str(project / ".claude/memory"), "--format", "json").stdout)
    assert data["loaded_in_full_by"] == "CLAUDE.md (line 3) imports it"
    assert data["entries_past_cut"] == []
