"""MEMORY.md written while another program writes it: a real second process writes at the
moment the fix's rename replaces the file, and nothing it wrote is lost."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory_audit.fix.shared_write import Overtaken, replace_shared
from memory_audit.fix.tree_access import Tree
from tests.harness import write_tree

BASE = "# Index\n- [Gone](gone.md) — x\n- [A](a.md) — a\n".encode()
FIXED = "# Index\n- [A](a.md) — a\n".encode()
THEIR_LINE = "- [B](b.md) — written by the other program\n".encode()

# The other program waits, polling, until the file's name leads to a new file (the
# rename happened), then writes as told: into the file it had open before (``append``
# or ``rewrite`` it), or over the new one with what it had read before plus its line.
WRITER = """
import os, sys
path, how, data, ready = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4]
fd = os.open(path, os.O_WRONLY | (os.O_APPEND if how == "append" else 0))
before = os.fstat(fd).st_ino
open(ready, "w").write("ready")
while os.stat(path).st_ino == before:
    pass
if how == "append":
    os.write(fd, data)
elif how == "rewrite":
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)
else:
    with open(path, "wb") as plain:
        plain.write(data)
"""


def other_writer(tmp_path: Path, index: Path, how: str, data: bytes) -> subprocess.Popen[bytes]:
    ready = tmp_path / "ready"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(index), how, data.decode(), str(ready)]
    )
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert time.monotonic() < deadline, "the other writer never started"
        time.sleep(0.01)
    return writer


def test_a_line_appended_into_the_replaced_file_lands_in_the_new_one(tree_dir: Path) -> None:
    index = write_tree(tree_dir, {"MEMORY.md": BASE.decode()}) / "MEMORY.md"
    writer = other_writer(tree_dir.parent, index, "append", THEIR_LINE)
    replace_shared(Tree.open(tree_dir), "MEMORY.md", BASE, FIXED, 0o644)
    assert writer.wait(timeout=30) == 0
    assert index.read_bytes() == FIXED + THEIR_LINE


def test_a_plain_write_over_the_fix_gets_the_fix_redone_on_its_content(tree_dir: Path) -> None:
    index = write_tree(tree_dir, {"MEMORY.md": BASE.decode()}) / "MEMORY.md"
    writer = other_writer(tree_dir.parent, index, "overwrite", BASE + THEIR_LINE)
    replace_shared(Tree.open(tree_dir), "MEMORY.md", BASE, FIXED, 0o644)
    assert writer.wait(timeout=30) == 0
    assert index.read_bytes() == FIXED + THEIR_LINE


def test_a_rewrite_of_the_replaced_file_is_put_back_and_the_fix_offered_again(
    tree_dir: Path,
) -> None:
    index = write_tree(tree_dir, {"MEMORY.md": BASE.decode()}) / "MEMORY.md"
    theirs = "# Their own index\n- [A](a.md) — a\n".encode()
    writer = other_writer(tree_dir.parent, index, "rewrite", theirs)
    with pytest.raises(Overtaken, match="their version is kept"):
        replace_shared(Tree.open(tree_dir), "MEMORY.md", BASE, FIXED, 0o644)
    assert writer.wait(timeout=30) == 0
    assert index.read_bytes() == theirs
