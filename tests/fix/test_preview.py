"""The preview audits a private copy: never blocks on a FIFO, never follows a link out,
never writes to the tree, and names the findings a change would make."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memory_audit.checks import REGISTRY
from memory_audit.engine import audit_tree
from memory_audit.fix import preview
from memory_audit.fix.actions import set_field
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from tests.harness import digest, index, load, memory, write_tree


def audit(root: Path) -> list[Finding]:
    return list(audit_tree(load(root), tuple(REGISTRY)).findings)


def test_a_change_s_new_findings_from_a_copy_that_skips_fifos_and_keeps_links(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("not part of the tree\n")
    root = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md"), "a.md": memory("a", body="Invoices are dated in UTC.")},
    )
    os.mkfifo(root / "pipe.md")  # opened for reading, it would block: it is never opened
    (root / "link.md").symlink_to(outside)
    before = digest(root)
    seen: list[Path] = []

    def audited(copy: Path) -> list[Finding]:
        seen.append(copy)
        assert not (copy / "pipe.md").exists()
        assert os.readlink(copy / "link.md") == str(outside)
        assert copy.parent.stat().st_mode & 0o777 == 0o700
        return audit(copy)

    cut = set_field(
        Tree.open(root), {"path": "a.md", "field": "description"}, ["Invoice dating, and"]
    )
    previews = preview.Preview(root, audited, 1 << 20)
    made = previews(cut)
    assert [(f.code, f.path) for f in made] == [("cut-description", "a.md")]
    whole = set_field(
        Tree.open(root), {"path": "a.md", "field": "description"}, ["When invoices are dated."]
    )
    # One copy for both (the first change undone in it), audited once more for each.
    assert previews(whole) == []
    assert previews(cut) == made
    assert len(set(seen)) == 1
    assert len(seen) == 4
    previews.close()
    assert digest(root) == before
    assert not seen[0].exists()


def test_a_copy_a_killed_review_left_is_removed_and_a_live_one_kept(tmp_path: Path) -> None:
    left, live = tmp_path / f"{preview.PREFIX}left", tmp_path / f"{preview.PREFIX}live"
    for folder in (left, live):
        (folder / "memory").mkdir(parents=True)
        (folder / "memory/a.md").write_text("copied text\n")
    day_ago = time.time() - preview.LEFT_OVER - 60
    os.utime(left, (day_ago, day_ago))
    preview.remove_left_over(tmp_path, time.time())
    assert not left.exists()
    assert (live / "memory/a.md").exists()
