"""Each tree's secret values, kept in memory by file size and mtime."""

from __future__ import annotations

import os
from pathlib import Path

from memory_audit.journal.tree_values import TreeValues
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.scanner import Scanner
from tests.harness import memory, write_tree

FIRST = "Harbor" + "07" + "!!q"  # look-alikes: same length, so a swap keeps the size
SECOND = "Quay" + "side4!q"


def scanner(tmp_path: Path) -> Scanner:
    return secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))


def said(value: str) -> str:
    return memory("a", body=f"the wifi password is {value}")


def swap_keeping_size_and_mtime(path: Path, text: str) -> None:
    info = path.stat()
    assert len(text.encode()) == info.st_size
    path.write_text(text)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_a_file_unchanged_in_size_and_mtime_is_not_read_again(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": said(FIRST), "b.md": memory("b")})
    values, scan = TreeValues(1 << 20), scanner(tmp_path)
    assert values.search(tree, ["a.md", "b.md"], [], scan).values == {FIRST}
    swap_keeping_size_and_mtime(tree / "a.md", said(SECOND))
    assert values.search(tree, ["a.md", "b.md"], [], scan).values == {FIRST}  # the cache
    # a file named as changed is read whatever its size and mtime say
    assert values.search(tree, ["a.md", "b.md"], [], scan, {"a.md"}).values == {SECOND}


def test_a_file_gone_from_the_tree_takes_its_values_with_it(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": said(FIRST), "b.md": memory("b")})
    values, scan = TreeValues(1 << 20), scanner(tmp_path)
    assert values.search(tree, ["a.md", "b.md"], [], scan).values == {FIRST}
    assert values.search(tree, ["b.md"], [], scan).values == frozenset()


def test_a_value_the_tree_names_a_file_with_is_not_searched_for(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"a.md": said(FIRST)})
    values = TreeValues(1 << 20)
    found = values.search(tree, ["a.md"], ["a.md", f"{FIRST}_hosts.md"], scanner(tmp_path))
    assert found.values == frozenset()
    assert not found
