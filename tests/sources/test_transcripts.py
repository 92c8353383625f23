from __future__ import annotations

import os
from pathlib import Path

from memory_audit.sources.transcripts import reads_in
from tests.support.transcripts import read_call


def test_transcript_reader_tolerates_junk_and_huge_lines(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    transcript = tmp_path / "t.jsonl"
    with transcript.open("wb") as handle:
        handle.write(b'{"truncated": "' + b"y" * (5 * 1024 * 1024) + b"\n")
        handle.write(bytes(range(256)) * 100 + b"\n")
        handle.write(read_call(root / "a.md").encode() + b"\n")
        handle.write(read_call(tmp_path / "elsewhere.md").encode() + b"\n")
        handle.write(read_call(root / "b.md").encode()[:-10])
    assert reads_in(transcript, [str(root)], 1 << 30) == {str(root / "a.md")}


def test_usage_200mb_transcript_is_streamed_and_bounded(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    transcript = tmp_path / "big.jsonl"
    with transcript.open("wb") as handle:
        handle.write(read_call(root / "early.md").encode() + b"\n")
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB of NUL bytes, no disk used
        handle.seek(0, os.SEEK_END)
        handle.write(b"\n" + read_call(root / "late.md").encode() + b"\n")
    everything = reads_in(transcript, [str(root)], 1 << 30)
    assert everything == {str(root / "early.md"), str(root / "late.md")}
    bounded = reads_in(transcript, [str(root)], 1024 * 1024)
    assert bounded == {str(root / "late.md")}
