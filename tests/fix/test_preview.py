"""The preview audits a private copy: never blocks on a FIFO, never follows a link out,
never writes to the tree, and names the findings a change would make."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memory_audit.checks import REGISTRY
from memory_audit.checks.secrets import Options as SecretsOptions
from memory_audit.engine import audit_tree
from memory_audit.fix import preview
from memory_audit.fix.actions import actions, set_field
from memory_audit.fix.tree_access import Tree
from memory_audit.model.finding import Finding
from memory_audit.secrets.loading import secret_scanner
from tests.harness import digest, index, load, memory, write_tree
from tests.secrets.samples import CASES


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


def test_a_log_past_a_memorys_limit_is_copied_as_far_as_the_audit_reads_it(
    tmp_path: Path,
) -> None:
    # redacting the first of a raw log's tokens must not read as "new findings" for the
    # tokens past 1 MB that a copy cut at a memory's limit would lose, then find again
    first, later, last = (text for text, _ in CASES["github-pat"][0][:3])
    filler = '{"role":"assistant","text":"%s"}\n' % ("status ok " * 60)
    log = f'{{"text":"token {first}"}}\n' + filler * 2500
    log += f'{{"text":"later {later} here"}}\n{{"text":"and {last} too"}}\n'
    root = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md"), "a.md": memory("a"), "raw/chat.jsonl": log},
    )
    found = [f for f in audit(root) if f.dimension == "secrets"]
    assert sorted(f.line or 0 for f in found) == [1, 2502, 2503]
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    with_copy = preview.Preview(root, audit, 1 << 20, parent=state)
    scanner = secret_scanner(SecretsOptions())
    [at_first] = [f for f in found if f.line == 1]
    assert at_first.fix is not None
    edit = actions(scanner)["redact-secret"].build(Tree.open(root), dict(at_first.fix), [])
    assert with_copy(edit) == []
    with_copy.close()
