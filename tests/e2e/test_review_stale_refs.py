"""`memory-audit review` offers a renamed path's new name as the fix, through a real terminal."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.e2e.test_review import env_for
from tests.harness import index, memory, write_tree
from tests.support.git_repo import Repo
from tests.support.terminal import Terminal


def test_review_offers_the_new_path_of_a_renamed_file(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "ledgerly")
    repo.commit("first", {"src/retry.py": "r\n"})
    moved = repo.move("rename retry", "src/retry.py", "src/retries.py")
    tree = write_tree(
        repo.path / "memory",
        {
            "MEMORY.md": index("a.md"),
            "a.md": memory("a", body="Retry logic lives in `src/retry.py`."),
        },
    )
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "review", str(tree)], env_for(tmp_path / "home")
    )
    proposal = term.expect("[q]uit: ")
    assert f"`src/retry.py` was renamed to `src/retries.py` in {moved[:7]}" in proposal
    assert "Apply makes one change: a.md: `src/retry.py` → `src/retries.py` (line 6)" in proposal
    term.send("1")
    term.expect("Applied:")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    assert (tree / "a.md").read_text().endswith("Retry logic lives in `src/retries.py`.\n")
