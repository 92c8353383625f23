"""One pathological line (1 MB) in a memory file and in MEMORY.md: the audit finishes.

Each line once took minutes (quadratic backtracking in the link pattern). The whole
CLI runs in a subprocess with a generous limit: a hang fails the test, speed is
measured in bench/ (docs/benchmarks.md), not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memory_audit.tree.bounded_yaml import MAX_TEXT
from tests.harness import memory, write_tree

SIZE = 1_000_000  # under the 1 MiB file cap, so the line is read, not skipped
LINES = {
    "link-brackets": "](" + "[" * SIZE,
    "wikilink-openers": "[[" * (SIZE // 2),
    "backticks": "x" + "`" * SIZE,  # "x" first: a line of backticks alone opens a fence
    "nested-brackets": "[" * (SIZE // 2) + "]" * (SIZE // 2),
    "image-openers": "![" * (SIZE // 2),
    "no-newline": "word/" + "x" * SIZE,
    "slash-then-word": "/`" + "a" * SIZE,
    "link-openers": "[a](" * (SIZE // 4),
}


def audit_json(tree: Path) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", "--format", "json", str(tree)],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
        timeout=60,
    )
    assert result.returncode in (0, 1), result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def codes_of(data: dict[str, Any]) -> set[tuple[str, str, int | None]]:
    [tree] = data["reports"]
    return {(f["code"], f["path"], f["line"]) for f in tree["findings"]}


@pytest.mark.parametrize("name", sorted(LINES))
def test_pathological_line_in_a_memory_file_finishes(tmp_path: Path, name: str) -> None:
    body = f"{LINES[name]}\n\nafter it: [gone](gone.md)"
    tree = write_tree(
        tmp_path / "tree",
        {"MEMORY.md": "- [A](a.md) — a\n", "a.md": memory("a", body=body)},
    )
    found = codes_of(audit_json(tree))
    assert ("broken-link", "a.md", 8) in found  # the file was still read past the line


@pytest.mark.parametrize("name", sorted(LINES))
def test_pathological_line_in_the_index_finishes(tmp_path: Path, name: str) -> None:
    text = f"- [A](a.md) — a\n{LINES[name]}\n- [Gone](gone.md) — g\n"
    tree = write_tree(tmp_path / "tree", {"MEMORY.md": text, "a.md": memory("a")})
    found = codes_of(audit_json(tree))
    assert ("broken-index-link", "MEMORY.md", 3) in found


def test_dense_brackets_are_reported_as_not_read(tmp_path: Path) -> None:
    body = LINES["link-brackets"]
    tree = write_tree(
        tmp_path / "tree",
        {"MEMORY.md": f"- [A](a.md) — a\n{body}\n", "a.md": memory("a", body=body)},
    )
    found = codes_of(audit_json(tree))
    assert ("links-not-read", "a.md", 6) in found
    assert ("index-not-read", "MEMORY.md", 2) in found
    assert ("orphan-candidate", "a.md", None) not in found  # line 1 was still read


WORD = MAX_TEXT - 100  # the largest description whose frontmatter is still parsed
WORDS = {  # one-line texts read as words: descriptions and index hooks
    "one-word": "a" * WORD,
    "dotted-word": "a." * (WORD // 2),
    "dashed-word": "a-" * (WORD // 2),
    "camel-word": "aB" * (WORD // 2),
}


@pytest.mark.parametrize("name", sorted(WORDS))
def test_pathological_description_and_hook_finish(tmp_path: Path, name: str) -> None:
    """A 30 KB word once took minutes: the path pattern walked the word again from each
    of its letters."""
    text = f"- [A](a.md) — {WORDS[name] * (SIZE // WORD)}\n- [Gone](gone.md) — g\n"
    file = f"---\nname: a\ndescription: {WORDS[name]}\ntype: user\n---\nA body.\n"
    tree = write_tree(tmp_path / "tree", {"MEMORY.md": text, "a.md": file})
    data = audit_json(tree)
    found = codes_of(data)
    assert ("broken-index-link", "MEMORY.md", 2) in found  # the index was read past the hook
    [report] = data["reports"]
    [description] = [f for f in report["findings"] if f["path"] == "a.md"]
    assert description["code"] == "terse-description"  # a blob, not a sentence
    assert f"is one {len(WORDS[name]):,}-character word" in description["message"]


def test_two_copies_of_a_long_dashed_word_finish_as_duplicates(tmp_path: Path) -> None:
    """Both files' shingles and the words a duplicate finding shows walk the 30 KB chunk."""
    body = f"Deploy notes for the billing service: {WORDS['dashed-word']}\n"
    files = {f"{name}.md": memory(name, body=body) for name in ("a", "b")}
    index = "- [A](a.md) — billing deploys\n- [B](b.md) — billing deploys again\n"
    tree = write_tree(tmp_path / "tree", {"MEMORY.md": index, **files})
    found = codes_of(audit_json(tree))
    # written milliseconds apart: equally recent, so a.md (first by path) is the survivor
    assert ("possible-duplicate", "b.md", None) in found


STATUS_BODIES = {  # a project's status lines around a long run the status patterns walk
    "blank-lines": "- [x] ingest\n- [x] rate\n" + "\n" * SIZE + "Then:\n- [x] render\n",
    "spaces-after-done": "- [x] ingest, done" + " " * SIZE + "x\n- [x] rate\n- [x] render\n",
}


@pytest.mark.parametrize("name", sorted(STATUS_BODIES))
def test_status_lines_around_a_long_run_finish(tmp_path: Path, name: str) -> None:
    """White space after "done" was walked again for each way to split it, and from each of
    1,000,000 blank lines all the blank lines after it: both quadratic."""
    body = STATUS_BODIES[name]
    tree = write_tree(
        tmp_path / "tree",
        {"MEMORY.md": "- [A](a.md) — a\n", "a.md": memory("a", body=body)},
    )
    data = audit_json(tree)
    [report] = data["reports"]
    [finished] = [f for f in report["findings"] if f["code"] == "finished-work"]
    assert "(3 of 3 status lines done)" in finished["message"]  # the last line was read


@pytest.mark.parametrize("word", ["a.", "a-"])
def test_a_long_dotted_first_paragraph_under_a_global_scope_finishes(
    tmp_path: Path, word: str
) -> None:
    """The path a broad scope is told about was sought again from each word of the run."""
    body = f"{word * (SIZE // 2)} see src/app.py"
    tree = write_tree(
        tmp_path / "tree",
        {"MEMORY.md": "- [A](a.md) — a\n", "a.md": memory("a", body=body, scope="global")},
    )
    [report] = audit_json(tree)["reports"]
    [broad] = [f for f in report["findings"] if f["code"] == "broad-scope"]
    assert "(mentions src/app.py)" in broad["message"]  # found after the run


def test_a_long_dashed_word_beside_a_path_in_a_hook_finishes(tmp_path: Path) -> None:
    """A slash anywhere in the text let the URL pattern walk the dashed word again from
    each of its words."""
    hook = "a-" * (SIZE // 2) + " see src/app.py"
    text = f"- [A](a.md) — {hook}\n- [Gone](gone.md) — g\n"
    tree = write_tree(tmp_path / "tree", {"MEMORY.md": text, "a.md": memory("a")})
    found = codes_of(audit_json(tree))
    assert ("broken-index-link", "MEMORY.md", 2) in found  # the index was read past the hook
