"""One queue per tree: a tree whose scan does not finish holds up no other tree."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from memory_audit.daemon.tree_queues import TreeQueues, tree_of
from tests.support.waiting import wait_until

SLOW, FAST = Path("/trees/slow"), Path("/trees/fast")


class Scans:
    """The scan the queues call: records each batch; the slow tree's waits until released."""

    def __init__(self) -> None:
        self.batches: list[tuple[Path, set[Path]]] = []
        self.release = asyncio.Event()
        self.hold: set[Path] = set()  # what each scan hands back to be held
        self.tasks: set[asyncio.Task[Any]] = set()

    async def scan(self, root: Path, batch: set[Path]) -> set[Path]:
        self.batches.append((root, batch))
        if root == SLOW:
            await self.release.wait()
        return self.hold & batch

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def test_a_tree_stuck_in_its_scan_holds_up_no_other_tree() -> None:
    async def scenario() -> None:
        scans = Scans()
        queues = TreeQueues(scans.scan, scans.spawn)
        queues.add(SLOW, [SLOW / "MEMORY.md"])
        assert await wait_until(lambda: scans.batches == [(SLOW, {SLOW / "MEMORY.md"})], 2)
        queues.add(SLOW, [SLOW / "b.md"])  # arrives while the first batch is scanned
        queues.add(FAST, [FAST / "leak.md"])
        assert await wait_until(lambda: (FAST, {FAST / "leak.md"}) in scans.batches, 2)
        assert (SLOW, {SLOW / "b.md"}) not in scans.batches
        scans.release.set()
        # once free, the slow tree scans what waited, in one batch
        assert await wait_until(lambda: (SLOW, {SLOW / "b.md"}) in scans.batches, 2)
        assert await wait_until(lambda: not scans.tasks, 2)

    asyncio.run(scenario())


def test_a_held_batch_waits_for_the_trees_next_change() -> None:
    async def scenario() -> None:
        scans = Scans()
        scans.hold = {FAST / "a.md"}
        queues = TreeQueues(scans.scan, scans.spawn)
        queues.add(FAST, [FAST / "a.md"])
        assert await wait_until(lambda: not scans.tasks, 2)
        assert len(scans.batches) == 1  # held: not tried again in a loop
        scans.hold = set()
        queues.add(FAST, [FAST / "b.md"])
        assert await wait_until(lambda: len(scans.batches) == 2, 2)
        assert scans.batches[1] == (FAST, {FAST / "a.md", FAST / "b.md"})

    asyncio.run(scenario())


def test_a_file_belongs_to_the_deepest_tree_holding_it() -> None:
    outer, inner = Path("/p/memory"), Path("/p/memory/team/memory")
    assert tree_of(inner / "a.md", [outer, inner]) == inner
    assert tree_of(outer / "a.md", [inner, outer]) == outer
    assert tree_of(Path("/elsewhere/a.md"), [outer, inner]) is None
