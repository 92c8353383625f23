"""The daemon's journal bookkeeping: activity for the weekly report, one alert per event."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from memory_audit.checks import DIMENSIONS
from memory_audit.config.settings import JournalSettings
from memory_audit.daemon.journaling import JournalKeeper, TreeChange, split_by_tree
from memory_audit.journal.index import Actor, NewVersion, Version
from memory_audit.model.run import Run
from memory_audit.report.html import render
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.store.reports import ReportStore
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.location import ProjectLocation
from tests.harness import NOW, index, memory, report, write_tree
from tests.secrets.samples import CASES


def keeper(tmp_path: Path, **settings: float) -> JournalKeeper:
    state = tmp_path / "state"
    chosen = JournalSettings(**settings)  # type: ignore[arg-type]
    return JournalKeeper(state, chosen, lambda: secret_scanner(ScannerConfig(state_dir=str(state))))


def test_journaling_activity_since_the_last_run_reaches_the_weekly_report(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "p/memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    ref = TreeRef(tree, ProjectLocation(transcripts_dir=tmp_path / "p"))
    journal = keeper(tmp_path)
    journal.record([ref], None)
    (tree / "a.md").write_text(memory("a", body="Edited."))
    (tree / "b.md").write_text(memory("b"))
    journal.record([ref], {tree: {"a.md", "b.md"}})
    (tree / "b.md").unlink()
    journal.record([ref], {tree: {"b.md"}})
    activity = journal.activity([tree], since=0.0)[str(tree)]
    assert [(c.kind, c.path) for c in activity.changes] == [
        ("deleted", "b.md"),
        ("created", "b.md"),
        ("modified", "a.md"),
    ]
    assert activity.by_actor() == [("outside Claude Code", 3)]
    run = Run((report(tree, "index-drift"),), NOW, dimensions=DIMENSIONS)
    run = dataclasses.replace(run, activity={str(tree): activity})
    folder = ReportStore(tmp_path / "reports", keep=2).write(run, {})
    page = (folder / "p-memory.md").read_text()
    assert "## Memory changes since the last run: 1 created, 1 modified, 1 deleted" in page
    assert "- 3 outside Claude Code" in page
    assert '<ol class="timeline">' in render(run)
    assert "deleted <code>b.md</code>" in render(run)


def gone(vid: int, actor: Actor) -> Version:
    return Version("/t", f"f{vid}.md", 1.0, "deleted", None, 0, 0, actor, id=vid)


def test_journaling_mass_deletion_alerts_once_per_event_and_actor(tmp_path: Path) -> None:
    watch = keeper(tmp_path, alert_deleted=5).watch
    dream = Actor("consolidation")
    first = TreeChange(Path("/t/memory"), tuple(gone(i, dream) for i in range(4)), 1000, 900)
    assert watch.observe(first, now=100.0) == []  # 4 is not more than 5
    second = TreeChange(Path("/t/memory"), tuple(gone(i, dream) for i in range(4, 8)), 900, 800)
    [alert] = watch.observe(second, now=110.0)
    assert "8 memory files deleted or emptied by Claude Code consolidation" in alert.text
    third = TreeChange(Path("/t/memory"), tuple(gone(i, dream) for i in range(8, 20)), 800, 700)
    assert watch.observe(third, now=120.0) == []  # same event: no second alert
    later = TreeChange(Path("/t/memory"), tuple(gone(i, dream) for i in range(20, 27)), 700, 690)
    assert len(watch.observe(later, now=1000.0)) == 1  # a new event, after a quiet spell
    hand = TreeChange(Path("/u/memory"), tuple(gone(i, Actor("outside")) for i in range(6)), 9, 9)
    [by_hand] = watch.observe(hand, now=2000.0)
    assert "6 memory files deleted or emptied outside Claude Code." in by_hand.text


def test_journaling_a_tree_shrinking_past_the_limit_alerts_once(tmp_path: Path) -> None:
    watch = keeper(tmp_path, alert_shrink=0.3).watch
    root = Path("/t/memory")
    assert watch.observe(TreeChange(root, (), 10_000, 8_000), now=1.0) == []
    [alert] = watch.observe(TreeChange(root, (), 8_000, 6_000), now=2.0)
    assert "memory shrank by 40%" in alert.text
    assert watch.observe(TreeChange(root, (), 6_000, 1_000), now=3.0) == []


def test_journaling_paths_are_split_by_their_innermost_tree() -> None:
    outer, inner = Path("/h/a/memory"), Path("/h/a/memory/team")
    paths = [outer / "x.md", inner / "y.md", outer / ".consolidate-lock", Path("/elsewhere/z.md")]
    by_tree, locks = split_by_tree(paths, [outer, inner])
    assert by_tree == {outer: {"x.md", ".consolidate-lock"}, inner: {"y.md"}}
    assert locks == {outer}


def test_journaling_a_secret_in_a_label_stored_before_labels_were_masked_is_masked_at_start(
    tmp_path: Path,
) -> None:
    token = CASES["github-pat"][0][0][0]
    journal = keeper(tmp_path)
    journal.journal.index.add(
        [NewVersion("/t", f"f{i}.md", 1.0, "modified", None, 0, 0,
                    Actor("session", f"s{i}", f"deploy with {token} now {i}"))
         for i in range(50)]
    )  # fmt: skip
    journal.close()
    again = keeper(tmp_path)
    again.repair(now=2.0)
    [shown] = {v.actor.describe() for v in again.journal.index.history() if v.path == "f7.md"}
    assert shown == f'Claude Code session s7 ("deploy with {token[:4]}...{token[-4:]} now 7")'
    again.close()
    stored = b"".join(p.read_bytes() for p in (tmp_path / "state").rglob("*") if p.is_file())
    assert token.encode() not in stored
