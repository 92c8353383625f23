"""Masking a file's bytes in the encoding they were written in, and decoding them to show."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_audit.journal.content import decoded, mask
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.secrets.redact import redact
from memory_audit.secrets.scanner import Scanner
from tests.harness import memory
from tests.secrets.samples import CASES

TOKEN = CASES["github-pat"][0][0][0]
SPELLINGS = ("utf-8", "utf-16-le", "utf-16-be")


@pytest.fixture
def scanner(tmp_path: Path) -> Scanner:
    return secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))


def holds(data: bytes, secret: str) -> bool:
    return any(secret.encode(codec) in data for codec in SPELLINGS)


@pytest.mark.parametrize(
    ("mark", "codec"), [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")]
)
def test_content_a_utf16_file_is_masked_as_utf16_and_written_back_as_utf16(
    scanner: Scanner, mark: bytes, codec: str
) -> None:
    text = memory("deploy", body=f"Deploy key {TOKEN} (rotate it)\r\nMore.")
    kept = mask(mark + text.encode(codec), scanner)
    assert not holds(kept.data, TOKEN)
    assert kept.secrets == 1
    assert kept.data == mark + text.replace(TOKEN, redact(TOKEN)).encode(codec)
    assert decoded(kept.data) == text.replace(TOKEN, redact(TOKEN))


def test_content_bytes_without_a_secret_are_kept_exactly(scanner: Scanner) -> None:
    odd = b"\xff\xfe" + "Notes \U0001f600 here.".encode("utf-16-le") + b"\x00\xd8" + b"\x41"
    for data in (odd, b"plain \xff\xfe invalid utf-8 \x80\n", b"\xef\xbb\xbfwith a mark\n"):
        assert mask(data, scanner).data == data
        assert mask(data, scanner).secrets == 0


def test_content_utf16_without_a_mark_at_either_alignment_is_masked(scanner: Scanner) -> None:
    for codec in ("utf-16-le", "utf-16-be"):
        for lead in (b"", b"\x07"):
            data = lead + f"key {TOKEN} end".encode(codec)
            kept = mask(data, scanner)
            assert not holds(kept.data, TOKEN), (codec, lead)
            assert kept.secrets == 1


def test_content_plain_bytes_behind_a_utf16_mark_are_masked_too(scanner: Scanner) -> None:
    data = b"\xff\xfe" + f"key {TOKEN} end".encode()  # reads as CJK, holds the token
    kept = mask(data, scanner)
    assert not holds(kept.data, TOKEN)
    assert kept.secrets == 1


def test_content_a_utf8_file_with_invalid_bytes_keeps_them_around_the_mask(
    scanner: Scanner,
) -> None:
    data = b"bad \xff byte, token " + TOKEN.encode() + b" here\n"
    kept = mask(data, scanner)
    assert kept.data == b"bad \xff byte, token " + redact(TOKEN).encode() + b" here\n"


def test_content_decoded_shows_text_as_the_walker_reads_it() -> None:
    assert decoded(b"\xff\xfe" + "caf\u00e9\n".encode("utf-16-le")) == "caf\u00e9\n"
    assert decoded(b"\xfe\xff" + "caf\u00e9\n".encode("utf-16-be")) == "caf\u00e9\n"
    assert decoded(b"\xef\xbb\xbfplain\n") == "plain\n"
    assert decoded(b"bad \xff\n") == "bad \ufffd\n"
