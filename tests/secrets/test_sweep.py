"""A sweep shared with a forked process finds what a scan of each text in turn finds."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memory_audit.secrets.rules import bundled_rules
from memory_audit.secrets.scanner import Scanner
from memory_audit.secrets.sweep import Row, _may_fork, map_all, scan_all
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES

SCANNER = Scanner(bundled_rules(), b"test-salt")
TWO_CORES = len(os.sched_getaffinity(0)) > 1 if hasattr(os, "sched_getaffinity") else False


def _texts(count: int) -> list[str]:
    """Prose with every rule's true and false positives, some texts non-ASCII."""
    rng = random.Random(7)
    samples = [text for positives, negatives in CASES.values() for text, _ in positives]
    samples += [text for _, negatives in CASES.values() for text in negatives]
    texts = []
    for number in range(count):
        lines = [f"note {number}: déjà vu, 日本語" if number % 3 == 0 else f"note {number}"]
        lines += [*rng.sample(samples, 4), "plain words " * rng.randint(1, 40)]
        texts.append("\n".join(lines))
    return texts


@pytest.mark.skipif(not TWO_CORES, reason="the sweep forks only with two cores or more")
def test_a_forked_sweep_equals_scanning_each_text() -> None:
    texts = _texts(120)
    assert threading.active_count() == 1
    assert _may_fork(1, 0)  # the fork path runs
    expected = [SCANNER.scan(text) for text in texts]
    assert sum(len(found) for found in expected) > 100
    assert scan_all(SCANNER, texts, parallel_bytes=0) == expected


WORKED: list[str] = []


def _worked_so_far(text: str) -> list[int]:
    """The process that works on ``text`` and how many texts that process has worked on."""
    WORKED.append(text)
    return [os.getpid(), len(WORKED)]


def _as_rows(found: list[int]) -> list[Row]:
    row: Row = [*found]
    return [row]


def _from_rows(rows: list[Row]) -> list[int]:
    return [int(n) for n in rows[0]]


@pytest.mark.skipif(not TWO_CORES, reason="the sweep forks only with two cores or more")
def test_a_forked_sweep_works_on_its_first_sixteenth_before_it_forks() -> None:
    # The child inherits what this process built for the first sixteenth (RE2's automata):
    # its memory holds those texts as worked on already. Then the rest is cut in two.
    texts = [f"text {n:02d} " * 10 for n in range(64)]  # 64 texts of one length
    WORKED.clear()
    rows = map_all(_worked_so_far, texts, _as_rows, _from_rows, 0)
    parent = os.getpid()
    assert [pid == parent for pid, _ in rows] == [True] * 34 + [False] * 30  # 4 + 30 | 30
    assert [count for _, count in rows[:34]] == list(range(1, 35))
    assert [count for _, count in rows[34:]] == list(range(5, 35))  # 4 before the fork


def test_a_small_sweep_or_a_threaded_process_does_not_fork() -> None:
    assert not _may_fork(10, 1_000)
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert not _may_fork(10**9, 0)
        texts = _texts(5)
        assert scan_all(SCANNER, texts, parallel_bytes=0) == [SCANNER.scan(t) for t in texts]
    finally:
        stop.set()
        worker.join()


def test_a_secrets_only_audit_loads_no_markdown_parser(tmp_path: Path) -> None:
    # What --check secrets costs is what it reads: a process that parsed MEMORY.md or a
    # note's Markdown would have imported markdown-it.
    token = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"
    tree = tmp_path / "memory"
    write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"[x](b.md) {token}")})
    code = (
        "import sys\nfrom memory_audit.cli import main\n"
        f"sys.argv = ['memory-audit', 'audit', '--check', 'secrets', {str(tree)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('markdown_it' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert "ghp_R8mQ" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "False"


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not TWO_CORES, reason="the sweep forks only on two cores or more")
def test_the_forked_worker_ends_when_the_process_that_forked_it_is_killed(
    tmp_path: Path,
) -> None:
    # A daemon killed mid-audit takes its audit child with it (the kernel's tie); the
    # audit's own forked worker inherited no tie and scanned on, orphaned, at full CPU.
    pids = tmp_path / "pids"
    script = (
        "import os, time\n"
        "from memory_audit.secrets.sweep import map_all\n"
        "def work(text):\n"
        f"    with open({str(pids)!r}, 'a') as f:\n"
        "        f.write(f'{os.getpid()}\\n')\n"
        "    time.sleep(0.2)\n"
        "    return []\n"
        "map_all(work, ['x' * 10] * 200, lambda r: r, lambda r: r, parallel_bytes=1)\n"
    )
    source = str(Path(__file__).resolve().parents[2] / "src")
    process = subprocess.Popen(
        [sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": source}
    )
    try:
        deadline = time.monotonic() + 30
        workers: set[int] = set()
        while not workers and time.monotonic() < deadline:
            time.sleep(0.05)
            written = pids.read_text().split() if pids.exists() else []
            workers = {int(pid) for pid in written} - {process.pid}
        [worker] = workers
        assert _running(worker)
        process.kill()
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(worker)
    finally:
        process.kill()
        for pid in (int(p) for p in (pids.read_text().split() if pids.exists() else [])):
            if pid != process.pid and _running(pid):
                os.kill(pid, 9)
