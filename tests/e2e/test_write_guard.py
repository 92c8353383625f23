"""Nothing written outside the tree, by construction: `review` and `restore` hold the tree's
folder open from the start, refuse a tree whose folder (or a folder above it) became a
symlink, and never lose a line another program appends to MEMORY.md meanwhile."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.e2e.test_restore import journal_of, restore
from tests.e2e.test_review import hashes, make_tree, review
from tests.harness import memory, write_tree

# A second program appending to MEMORY.md as a plain writer does, through a descriptor
# it opened before: it writes a line whenever review's temporary file for MEMORY.md
# appears or the file was just replaced by a rename, the moments a rename loses a line.
APPENDER = """
import os, sys
tree, limit, stop, report = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
path = os.path.join(tree, "MEMORY.md")
fd = os.open(path, os.O_WRONLY | os.O_APPEND)
open(report, "w").write("ready")
seen, count = set(), 0
while count < limit and not os.path.exists(stop):
    temps = {n for n in os.listdir(tree) if n.startswith(".MEMORY.md.") and n.endswith(".tmp")}
    replaced = os.stat(path).st_ino != os.fstat(fd).st_ino
    if temps - seen or replaced:
        os.write(fd, f"- appended while review wrote, line {count}\\n".encode())
        count += 1
        os.close(fd)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    seen |= temps
open(report, "w").write(str(count))
"""


def wait_for(path: Path, text: str | None = None, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and (found := path.read_text()) and (text is None or found == text):
            return found
        time.sleep(0.01)
    raise AssertionError(f"{path} never said {text!r}")


def test_review_refuses_a_tree_whose_store_became_a_symlink_at_the_prompt(
    tmp_path: Path,
) -> None:
    store = tmp_path / "projects/-work-app"
    tree = make_tree(store)
    term = review(tmp_path / "home", tree)
    assert "link target `gone.md` doesn't exist" in term.expect("[q]uit: ")
    # While review waits, the folder above the tree is swapped for a link to a look-alike.
    decoy = tmp_path / "decoy"
    shutil.copytree(store, decoy)
    store.rename(tmp_path / "projects/-work-app-original")
    store.symlink_to(decoy)
    decoy_before = hashes(decoy)
    original_before = hashes(tmp_path / "projects/-work-app-original")
    term.send("1")
    refused = term.expect("Review stopped.")
    assert "is no longer the folder this session opened" in refused
    assert "Applied:" not in refused
    term.expect("findings remain.")
    assert term.wait() == 0
    assert hashes(decoy) == decoy_before
    assert hashes(tmp_path / "projects/-work-app-original") == original_before


def symlinked_tree(tmp_path: Path) -> tuple[Path, Path, int]:
    """A journaled tree, then its folder replaced by a link to another folder; the id of
    the first version of its a.md."""
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": "# Index\n", "a.md": memory("a")})
    journal = journal_of(tree, {"a.md": memory("a", body="Changed since.")})
    [first] = [v for v in journal.index.history(str(tree), "a.md") if v.kind == "baseline"]
    journal.close()
    elsewhere = write_tree(tmp_path / "elsewhere", {"a.md": "someone else's file\n"})
    shutil.rmtree(tree)
    tree.symlink_to(elsewhere)
    return tree, elsewhere, first.id


def test_restore_tree_refuses_a_tree_replaced_by_a_symlink(tmp_path: Path) -> None:
    tree, elsewhere, _ = symlinked_tree(tmp_path)
    before = hashes(elsewhere)
    term = restore("--tree", str(tree), "--at", "1970-01-01T00:16:40+00:00")
    term.expect("is a symlink (or not a folder)")
    assert term.wait() == 2
    assert hashes(elsewhere) == before


def test_restore_a_version_refuses_a_tree_replaced_by_a_symlink(tmp_path: Path) -> None:
    tree, elsewhere, first = symlinked_tree(tmp_path)
    before = hashes(elsewhere)
    term = restore(str(tree / "a.md"), "--version", str(first))
    term.expect("is a symlink (or not a folder)")
    assert term.wait() == 2
    assert hashes(elsewhere) == before


def test_review_never_loses_a_line_appended_while_it_writes_memory_md(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    term = review(tmp_path / "home", tree)
    assert "link target `gone.md` doesn't exist" in term.expect("[q]uit: ")
    stop, report = tmp_path / "stop", tmp_path / "appended"
    appender = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(tree), "3", str(stop), str(report)]
    )
    wait_for(report, "ready")
    for _ in range(6):  # the fix is offered again each time the file changed under it
        term.send("1")
        answer = term.expect("[q]uit: ")
        if "Applied: MEMORY.md: removed the index line for `gone.md`" in answer:
            break
        assert "checking this finding again" in answer
    else:
        raise AssertionError("the fix was never applied")
    stop.touch()
    assert appender.wait(timeout=30) == 0
    appended = int(report.read_text())
    term.send("q")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert appended >= 1  # the other writer did write while review wrote
    index = (tree / "MEMORY.md").read_text()
    for line in range(appended):
        assert f"- appended while review wrote, line {line}\n" in index
    assert "gone.md" not in index
    assert index.startswith("# Index\n- [A](a.md) — about a\n- [Style](style.md) — rules\n")
