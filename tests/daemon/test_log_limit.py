"""The daemon's log writes a flood of one kind of line as a few lines and a count."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_audit.daemon.log_limit import BURST, RepeatLimitedHandler, RepeatLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def logged(tmp_path: Path, clock: Clock) -> Iterator[tuple[logging.Logger, Path]]:
    """A logger writing through the limiter into a real file."""
    path = tmp_path / "daemon.log"
    target = logging.FileHandler(path)
    target.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    handler = RepeatLimitedHandler([target], RepeatLimiter(clock=clock))
    logger = logging.getLogger(f"test_log_limit.{tmp_path.name}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    yield logger, path
    logger.removeHandler(handler)
    handler.close()


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_a_repeated_failure_is_written_a_few_times_then_counted(
    logged: tuple[logging.Logger, Path], clock: Clock
) -> None:
    logger, path = logged
    for _ in range(10_000):
        logger.error("secret alerts paused: %s", "patterns file /x not found")
    assert len(lines(path)) == BURST
    clock.now += 61
    logger.info("watching %s", "/tree")  # the next line closes the window
    assert lines(path)[BURST:] == [
        "ERROR … repeated 9,980 more times in 61 s (not written); the last: "
        "secret alerts paused: patterns file /x not found",
        "INFO watching /tree",
    ]


def test_lines_of_one_kind_with_different_values_are_counted_as_like_it(
    logged: tuple[logging.Logger, Path], clock: Clock
) -> None:
    logger, path = logged
    for number in range(1_000):
        logger.warning("alert: %s", f"MEMORY.md:{number} GitHub token")
    limited = next(h for h in logger.handlers if isinstance(h, RepeatLimitedHandler))
    limited.write_summaries()  # the tick, before the window ended: nothing yet
    assert len(lines(path)) == BURST
    clock.now += 60
    limited.write_summaries()
    assert lines(path)[BURST:] == [
        "WARNING … 980 more lines like it in 60 s (not written); the last: "
        "alert: MEMORY.md:999 GitHub token"
    ]


def test_other_kinds_are_written_while_one_kind_floods(
    logged: tuple[logging.Logger, Path],
) -> None:
    logger, path = logged
    for _ in range(500):
        logger.error("scanning %d changed file(s) failed: %s", 1, "ValueError")
    logger.info("configuration reloaded from %s", "config.yaml")
    assert lines(path)[-1] == "INFO configuration reloaded from config.yaml"
    assert len(lines(path)) == BURST + 1


def test_the_count_is_written_when_the_log_is_closed(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "daemon.log"
    handler = RepeatLimitedHandler([logging.FileHandler(path)], RepeatLimiter(clock=clock))
    logger = logging.getLogger("test_log_limit.closed")
    logger.propagate = False
    logger.addHandler(handler)
    for _ in range(BURST + 5):
        logger.error("journal: change not recorded yet")
    logger.removeHandler(handler)
    handler.close()
    assert lines(path)[-1] == (
        "… repeated 5 more times in 0 s (not written); the last: journal: change not recorded yet"
    )
