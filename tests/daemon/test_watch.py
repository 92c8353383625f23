"""Real filesystem events through watchdog into an asyncio loop."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memory_audit.daemon.watch import TreeWatcher
from tests.support.waiting import wait_until

Fired = list[Path]


def make_watcher(
    fired: Fired, folders: list[int], debounce: float = 0.2, observer: str = "auto"
) -> TreeWatcher:
    return TreeWatcher(
        asyncio.get_running_loop(), debounce, observer, 0.2, fired.append, lambda: folders.append(1)
    )


@pytest.mark.slow
def test_many_writes_to_one_file_fire_once_after_the_quiet_period(tmp_path: Path) -> None:
    tree = tmp_path / "memory"
    (tree / "sub").mkdir(parents=True)

    async def scenario() -> Fired:
        fired: Fired = []
        watcher = make_watcher(fired, [])
        watcher.start()
        watcher.update([tree], [])
        try:
            for i in range(20):
                (tree / "sub/a.md").write_text(f"version {i}")
                await asyncio.sleep(0.01)
            await wait_until(lambda: bool(fired))
            await asyncio.sleep(0.5)
        finally:
            watcher.stop()
        return fired

    assert asyncio.run(scenario()) == [tree / "sub/a.md"]


@pytest.mark.slow
def test_a_file_written_without_pause_still_fires_every_five_quiet_periods(
    tmp_path: Path,
) -> None:
    """A log that gets a record every 0.1 s is never quiet for the 0.2 s debounce: it fired
    only once writing stopped (a token appended to a chat log alerted half a minute late).
    It now fires at the latest five quiet periods (1 s) after its first unfired write."""
    tree = tmp_path / "memory"
    tree.mkdir()
    log = tree / "chat.jsonl"

    async def scenario() -> tuple[list[float], float]:
        fired: list[float] = []
        loop = asyncio.get_running_loop()
        watcher = TreeWatcher(
            loop, 0.2, "auto", 0.2, lambda _: fired.append(loop.time()), lambda: None
        )
        watcher.start()
        watcher.update([tree], [])
        try:
            began = loop.time()
            with log.open("a") as handle:
                while loop.time() - began < 3.5:
                    handle.write("{}\n")
                    handle.flush()
                    await asyncio.sleep(0.1)
            stopped = loop.time()
            await asyncio.sleep(0.6)
        finally:
            watcher.stop()
        return [at - began for at in fired], stopped - began

    fired, stopped = asyncio.run(scenario())
    while_writing = [at for at in fired if at < stopped]
    assert len(while_writing) >= 2, fired  # about one a second
    gaps = [later - earlier for earlier, later in zip(while_writing, fired[1:], strict=False)]
    assert max(gaps) <= 1.5, fired
    assert fired[-1] > stopped  # and once more, its last write's quiet period over


def test_atomic_save_by_rename_fires_for_the_destination(tmp_path: Path) -> None:
    tree = tmp_path / "memory"
    tree.mkdir()
    (tree / "a.md").write_text("old")

    async def scenario() -> Fired:
        fired: Fired = []
        watcher = make_watcher(fired, [])
        watcher.start()
        watcher.update([tree], [])
        try:
            await asyncio.sleep(0.2)
            fired.clear()
            temp = tree / ".a.md.tmp"
            temp.write_text("new content")
            os.replace(temp, tree / "a.md")
            await wait_until(lambda: tree / "a.md" in fired)
        finally:
            watcher.stop()
        return fired

    assert tree / "a.md" in asyncio.run(scenario())


def test_new_project_folder_is_noticed_and_a_tree_can_vanish(tmp_path: Path) -> None:
    projects = tmp_path / "projects"
    old = projects / "-old" / "memory"
    old.mkdir(parents=True)

    async def scenario() -> tuple[int, dict[str, str]]:
        folders: list[int] = []
        watcher = make_watcher([], folders)
        watcher.start()
        watcher.update([old], [projects])
        try:
            (projects / "-new").mkdir()
            await wait_until(lambda: bool(folders))
            new = projects / "-new" / "memory"
            new.mkdir()
            shutil.rmtree(projects / "-old")
            watcher.update([p for p in (old, new) if p.is_dir()], [projects])
            return len(folders), watcher.observers()
        finally:
            watcher.stop()

    noticed, observers = asyncio.run(scenario())
    assert noticed >= 1
    assert observers == {str(projects / "-new" / "memory"): "inotify"}


FALLBACK = """
import asyncio, json, sys
from pathlib import Path
sys.path.insert(0, {repo!r})
from memory_audit.daemon.watch import TreeWatcher
from tests.daemon.test_watch import wait_until

async def main():
    fired = []
    watcher = TreeWatcher(asyncio.get_running_loop(), 0.1, "auto", 0.2, fired.append, lambda: None)
    watcher.start()
    watcher.update([Path(p) for p in {trees!r}], [])
    await asyncio.sleep(0.5)
    target = Path({target!r})
    target.write_text("changed")
    await wait_until(lambda: target in fired)
    print(json.dumps({{"observers": watcher.observers(), "limit": watcher.limit_hit,
                       "fired": [str(p) for p in fired]}}))
    watcher.stop()

asyncio.run(main())
"""


def run_with_inotify_limit(limit: int, code: str) -> dict[str, Any]:
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed to give this test its own inotify limit")
    script = f'echo {limit} > /proc/sys/user/max_inotify_watches && exec {sys.executable} -c "$0"'
    result = subprocess.run(
        ["unshare", "--user", "--map-root-user", "sh", "-c", script, code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


@pytest.mark.slow
def test_inotify_limit_on_subfolders_falls_back_to_polling(tmp_path: Path) -> None:
    small = tmp_path / "small"
    big = tmp_path / "big"
    small.mkdir()
    for i in range(8):
        (big / f"d{i}").mkdir(parents=True)
    target = big / "d7" / "x.md"
    code = FALLBACK.format(
        repo=str(Path(__file__).parents[2]), trees=[str(small), str(big)], target=str(target)
    )
    data = run_with_inotify_limit(4, code)
    assert data["observers"] == {str(small): "inotify", str(big): "polling"}
    assert data["limit"] is True
    assert str(target) in data["fired"]  # polling still delivers the change


@pytest.mark.slow
def test_inotify_limit_on_the_root_falls_back_to_polling(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    target = second / "x.md"
    code = FALLBACK.format(
        repo=str(Path(__file__).parents[2]), trees=[str(first), str(second)], target=str(target)
    )
    data = run_with_inotify_limit(1, code)
    assert data["observers"] == {str(first): "inotify", str(second): "polling"}
    assert str(target) in data["fired"]
