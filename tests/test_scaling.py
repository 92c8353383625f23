"""The whole audit's time grows linearly with a pathological run, wherever it stands (issue 30).

A fast subset of ``bench/pathological_scaling.py``: each case writes a run of a shape of N
and 2N characters into one place of a small tree and audits it (every dimension) a few
times; the least CPU time counts. N is where the shapes that were quadratic took a few
tenths of a second, so that a quadratic cost shows a ratio near 4 over the audit's fixed
cost, while a linear one shows about 2. The bound, 3.2, leaves room for a loaded machine.
The probe covers every shape in every place (docs/benchmarks.md, "Linear time everywhere").
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from bench.pathological_scaling import PLACES, SHAPES, cpu_seconds, write_tree

from memory_audit.secrets.repeats import ALTERNATION_LIMIT, _Search
from memory_audit.tree.snapshot import ProjectLocation
from tests import harness
from tests.support.git_repo import Repo

REPEATS = 3
BOUND = 3.2
# N's time is counted as at least this: a linear case takes a few milliseconds, where the
# noise of a loaded machine could make any ratio; a quadratic one takes a tenth or more.
FLOOR = 0.05
ROUNDS = 3
CASES = [
    # the path pattern of similarity shingles: separators only (18 s for 20,000 slashes)
    ("/", "body", 2500),
    ("\\", "body", 2500),
    ("~/", "body", 3000),
    ("/", "description", 2000),
    ("~/", "description", 3000),
    ("~/", "index-title", 3000),
    # the secret scanner's bookkeeping per hit, in a text that is not ASCII
    ("password-é-placeholder", "index-plain", 200_000),
    ("eyJ-é-placeholder", "index-plain", 300_000),
    # Markdown blocks the fast reader leaves to markdown-it, and names
    ("list-markers", "index-plain", 100_000),
    ("setext-=", "body", 100_000),
    ("\\", "file-names", 20_000),
    # a table's separator row again and again: 3.4 s for 19 KB, 13.9 s for 38 KB
    ("password-table", "body", 6_000),
    ("a-", "folder-names", 20_000),
    # a line of labelled hashes, each asked whether a session's id precedes it: 1.4 s for
    # 40 KB, 22 s for 160 KB while the question read the whole line before each
    ("commit-hex", "body", 40_000),
]


def _least_cpu_seconds(root: Path, shape: str, place: str, n: int) -> float:
    write_tree(root, PLACES[place](SHAPES[shape](n)))
    return min(cpu_seconds(root) for _ in range(REPEATS))


@pytest.mark.parametrize(("shape", "place", "n"), CASES, ids=[f"{s}-{p}" for s, p, _ in CASES])
def test_audit_time_grows_linearly(tmp_path: Path, shape: str, place: str, n: int) -> None:
    ratios = []
    # A quadratic shape grows about 4x in every round; a linear one can look superlinear in
    # one round of a loaded machine (a collection, another process on the core), not in all.
    for attempt in range(ROUNDS):
        small = _least_cpu_seconds(tmp_path / f"n-{attempt}", shape, place, n)
        large = _least_cpu_seconds(tmp_path / f"2n-{attempt}", shape, place, 2 * n)
        ratios.append((large / max(small, FLOOR), large, small))
        if ratios[-1][0] <= BOUND:
            return
    ratio, large, small = min(ratios)
    raise AssertionError(f"{large:.3f} s at 2N against {small:.3f} s at N ({ratio:.2f}x)")


def _search_cpu_seconds(lengths: int) -> float:
    """CPU seconds of searching, for ``lengths`` values of as many lengths sharing their
    first characters, a text of that start again and again (twice as long for twice as
    many lengths): a cost per place and per length is quadratic here."""
    values = [f"Zq7#x!{k:05d}{'x' * k}" for k in range(lengths)]
    search = _Search(values)
    text = "Zq7#x! " * (2 * lengths)
    start = time.process_time()
    search.hits(text)
    return time.process_time() - start


def test_searching_many_values_grows_linearly_with_their_lengths() -> None:
    # beyond ALTERNATION_LIMIT values, each place tried every length (8.45 s for 1,200)
    n = ALTERNATION_LIMIT + 100
    ratios = []
    for _ in range(ROUNDS):
        small = min(_search_cpu_seconds(n) for _ in range(REPEATS))
        large = min(_search_cpu_seconds(2 * n) for _ in range(REPEATS))
        ratios.append((large / max(small, FLOOR), large, small))
        if ratios[-1][0] <= BOUND:
            return
    ratio, large, small = min(ratios)
    raise AssertionError(f"{large:.3f} s at 2N against {small:.3f} s at N ({ratio:.2f}x)")


STALE_PATHS = 1000  # at 2N the per-path reading of the whole line took seconds


def _stale_line_cpu_seconds(root: Path, project: Path, n: int) -> float:
    """CPU seconds of stale-refs on one memory line that names n paths the history deleted,
    each in its own sentence (the history already read and cached by a first audit)."""
    line = " ".join(f"run `src/gone{i}.py`." for i in range(n))
    tree = harness.write_tree(root, {"a.md": harness.memory("a", body=line)})
    location = ProjectLocation("-p", project, None)
    assert harness.findings(tree, "stale-refs", location=location)  # the paths were judged
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        harness.findings(tree, "stale-refs", location=location)
        times.append(time.process_time() - start)
    return min(times)


def test_stale_refs_time_grows_linearly_with_the_removed_paths_of_one_line(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("first", {f"src/gone{i}.py": f"{i}\n" for i in range(2 * STALE_PATHS)})
    repo.git("rm", "-q", "-r", "src")
    repo.git("commit", "-qm", "drop")
    ratios = []
    for attempt in range(ROUNDS):
        small = _stale_line_cpu_seconds(tmp_path / f"n-{attempt}", repo.path, STALE_PATHS)
        large = _stale_line_cpu_seconds(tmp_path / f"2n-{attempt}", repo.path, 2 * STALE_PATHS)
        ratios.append((large / max(small, FLOOR), large, small))
        if ratios[-1][0] <= BOUND:
            return
    ratio, large, small = min(ratios)
    raise AssertionError(f"{large:.3f} s at 2N against {small:.3f} s at N ({ratio:.2f}x)")
