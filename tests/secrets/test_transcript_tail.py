"""Reading what a session appended since the last offset: never again what was read."""

from __future__ import annotations

import json
import os
from pathlib import Path

from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.scanner import Scanner
from memory_audit.secrets.transcript_tail import (
    CHUNK,
    MAX_BACKLOG,
    OVERLAP,
    end_of,
    read_appended,
)
from tests.secrets.samples import ALNUM, rnd
from tests.support.github_tokens import github_token


def scanner(tmp_path: Path) -> Scanner:
    return secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))


def token() -> str:
    return github_token("ghp_", rnd(ALNUM, 36))


def line(text: str) -> bytes:
    record = {"type": "user", "timestamp": "2026-12-01T16:04:00Z", "message": {"content": text}}
    return json.dumps(record).encode() + b"\n"


def found(tail: object) -> list[str]:
    return [f.match.redacted for f in tail.found]  # type: ignore[attr-defined]


def test_only_what_was_appended_after_the_offset_is_read(tmp_path: Path) -> None:
    old, new = token(), token()
    path = tmp_path / "s.jsonl"
    path.write_bytes(line(old))
    first = read_appended(scanner(tmp_path), path, None)
    assert len(first.found) == 1
    assert first.offset == end_of(path)
    with path.open("ab") as handle:
        handle.write(line(new))
    second = read_appended(scanner(tmp_path), path, first.offset)
    assert [f.match.redacted[:8] for f in second.found] == [new[:8]]
    assert second.read == len(line(new))
    assert second.found[0].at is not None


def test_a_record_still_being_written_waits_for_its_newline(tmp_path: Path) -> None:
    secret = token()
    whole = line(f"key {secret} end")
    cut = whole.index(secret.encode()) + 10
    path = tmp_path / "s.jsonl"
    path.write_bytes(whole[:cut])
    half = read_appended(scanner(tmp_path), path, None)
    assert half.found == ()
    assert half.offset is not None
    assert half.offset.offset == 0
    with path.open("ab") as handle:
        handle.write(whole[cut:])
    rest = read_appended(scanner(tmp_path), path, half.offset)
    assert len(rest.found) == 1
    assert rest.offset is not None
    assert rest.offset.offset == len(whole)


def test_a_line_longer_than_a_chunk_is_read_in_overlapping_parts(tmp_path: Path) -> None:
    secret = token()
    path = tmp_path / "s.jsonl"
    at = CHUNK - 20  # the secret crosses the first chunk's end
    path.write_bytes(b"a " * (at // 2) + secret.encode() + b" " + b"b " * 1000 + b"\n")
    first = read_appended(scanner(tmp_path), path, None)
    assert first.found == ()
    assert first.more
    assert first.offset is not None
    assert first.offset.offset == CHUNK - OVERLAP
    second = read_appended(scanner(tmp_path), path, first.offset)
    assert len(second.found) == 1


def test_a_transcript_replaced_truncated_or_rewritten_is_read_from_its_start(
    tmp_path: Path,
) -> None:
    one, two, three, four = token(), token(), token(), token()
    path = tmp_path / "s.jsonl"
    path.write_bytes(line("padding " * 50) + line(one))
    held = read_appended(scanner(tmp_path), path, None).offset
    # replaced: another file under the name
    path.rename(tmp_path / "old.jsonl")
    path.write_bytes(line(two))
    replaced = read_appended(scanner(tmp_path), path, held)
    assert replaced.restarted
    assert len(replaced.found) == 1
    # truncated below the offset
    os.truncate(path, 0)
    path.write_bytes(line(three))
    truncated = read_appended(scanner(tmp_path), path, replaced.offset)
    assert truncated.restarted
    assert len(truncated.found) == 1
    # truncated and written again to the same length: the bytes before the offset differ
    os.truncate(path, 0)
    path.write_bytes(line(four))
    rewritten = read_appended(scanner(tmp_path), path, truncated.offset)
    assert rewritten.restarted
    assert len(rewritten.found) == 1


def test_a_deleted_transcript_forgets_its_offset(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(line("hello"))
    held = read_appended(scanner(tmp_path), path, None).offset
    path.unlink()
    assert read_appended(scanner(tmp_path), path, held).offset is None


def test_a_2_gb_sparse_transcript_is_read_one_bounded_chunk_at_a_time(tmp_path: Path) -> None:
    secret = token()
    path = tmp_path / "s.jsonl"
    path.write_bytes(line("start"))
    held = read_appended(scanner(tmp_path), path, None).offset
    size = 2 * 1024**3
    with path.open("r+b") as handle:
        handle.truncate(size)
        handle.seek(size)
        handle.write(b"\n" + line(secret))
    tail = read_appended(scanner(tmp_path), path, held)
    assert tail.read <= CHUNK
    assert tail.skipped == path.stat().st_size - MAX_BACKLOG - len(line("start"))
    assert tail.more
    reads = 1
    while tail.more:
        tail = read_appended(scanner(tmp_path), path, tail.offset)
        reads += 1
        assert tail.read <= CHUNK
        assert reads < 2 * MAX_BACKLOG // CHUNK
    assert len(tail.found) == 1


def test_a_symlink_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_bytes(line(token()))
    link = tmp_path / "s.jsonl"
    link.symlink_to(target)
    assert read_appended(scanner(tmp_path), link, None).found == ()
    assert end_of(link) is None
