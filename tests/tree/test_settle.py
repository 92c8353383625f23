"""Settling a snapshot: a reader that raises on one file is that file's error entry.

The reader bugs met so far are fixed; these tests stand for the next one. A file
(or an index) whose parse raises is built here as a subclass whose parse raises,
put into a snapshot read from real files: the rest of the snapshot is the project's.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from pathlib import Path

from memory_audit import engine
from memory_audit.analysis.loaded_view import loaded_account
from memory_audit.commands.loaded import render_text
from memory_audit.tree.index_file import Index
from memory_audit.tree.markdown import Document
from memory_audit.tree.memory_file import FileKind, MemoryFile
from memory_audit.tree.settle import settled
from memory_audit.tree.snapshot import MemoryTree, load_tree
from memory_audit.tree.walk import Candidate
from tests.harness import index, load, memory, write_tree


class UnparseableBody(MemoryFile):
    @cached_property
    def markdown(self) -> Document:
        raise IndexError("tuple index out of range, and the file's secret text")


class UnparseableIndex(Index):
    @cached_property
    def markdown(self) -> Document:
        raise IndexError("tuple index out of range")


def with_bad_file(tree_dir: Path) -> MemoryTree:
    write_tree(
        tree_dir,
        {"MEMORY.md": index("a.md", "b.md"), "a.md": memory("a"), "b.md": memory("b")},
    )
    tree = load(tree_dir)
    good = tree.files["b.md"]
    bad = UnparseableBody(good.path, good.listed_kind, good.size, good.mtime, good.text)
    return dataclasses.replace(tree, files={**tree.files, "b.md": bad})


def with_bad_index(tree_dir: Path) -> MemoryTree:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a"), "b.md": memory("b")})
    tree = load(tree_dir)
    assert tree.index is not None
    bad = UnparseableIndex(*(getattr(tree.index, f.name) for f in dataclasses.fields(Index)))
    return dataclasses.replace(tree, index=bad)


def test_a_file_whose_parse_raises_is_left_out_with_an_error_entry(tree_dir: Path) -> None:
    tree = settled(with_bad_file(tree_dir))
    assert sorted(tree.files) == ["a.md"]
    [error] = tree.errors
    assert error.path == "b.md"
    assert error.error.startswith("could not be read (IndexError at test_settle.py:")
    assert "secret" not in error.error


def test_an_index_whose_parse_raises_reads_as_an_unreadable_index(tree_dir: Path) -> None:
    tree = settled(with_bad_index(tree_dir))
    assert tree.index is None
    assert tree.index_unreadable
    assert [(e.path, e.error.split(" at ")[0]) for e in tree.errors] == [
        ("MEMORY.md", "could not be read (IndexError")
    ]


def test_a_secrets_only_run_reads_text_and_never_starts_the_parser(tree_dir: Path) -> None:
    tree = with_bad_file(tree_dir)
    assert settled(tree, parse=False) is tree


def test_the_audit_of_the_other_files_goes_on(tree_dir: Path) -> None:
    report = engine.audit_tree(with_bad_file(tree_dir), ["index-drift", "orphans", "frontmatter"])
    assert [(path, error.split(" at ")[0]) for path, error in report.errors] == [
        ("b.md", "could not be read (IndexError")
    ]
    assert report.memory_files == 1
    # b.md is not read, so it is neither an orphan nor indexed-but-missing.
    assert report.findings == ()


def test_an_index_that_raises_reports_no_file_as_unindexed(tree_dir: Path) -> None:
    report = engine.audit_tree(with_bad_index(tree_dir), ["index-drift", "orphans"])
    assert ("MEMORY.md", "could not be read (IndexError") in [
        (path, error.split(" at ")[0]) for path, error in report.errors
    ]
    # b.md is not in the index, but what the index lists is unknown: no orphan is reported.
    [finding] = report.findings
    assert (finding.code, finding.path) == ("missing-index", "MEMORY.md")
    assert "MEMORY.md cannot be read" in finding.message


def test_loaded_names_an_index_that_raises_and_lists_no_pointer(tree_dir: Path) -> None:
    account = loaded_account(settled(with_bad_index(tree_dir)), str)
    assert account.pointers == ()
    assert [(path, error.split(" at ")[0]) for path, error in account.errors] == [
        ("MEMORY.md", "could not be read (IndexError")
    ]
    assert account.to_json()["errors"][0]["path"] == "MEMORY.md"
    assert "Not read (1):\n  MEMORY.md: could not be read (IndexError at " in render_text(account)


def test_a_file_whose_reading_raises_is_an_error_entry_and_the_next_file_is_read(
    tree_dir: Path,
) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    broken = Candidate("b.md", None, FileKind.MEMORY)  # type: ignore[arg-type]
    listed = [broken, Candidate("a.md", tree_dir / "a.md", FileKind.MEMORY)]
    tree = load_tree(tree_dir, candidates=listed)
    assert sorted(tree.files) == ["a.md"]
    assert [(e.path, e.error.split(" at ")[0]) for e in tree.errors] == [
        ("b.md", "could not be read (TypeError")
    ]
