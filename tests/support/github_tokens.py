"""GitHub tokens that pass GitHub's checksum, for samples, tests and benchmarks.

Since 2021 a GitHub token (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``) is 30 drawn characters
and the CRC32 of them in base62, six characters. The scanner drops a token whose sum fails
(a made-up example), so every token a test plants is summed here. Written apart from the
scanner's own code on purpose: a wrong sum in one would not be hidden by the same mistake in
the other.
"""

from __future__ import annotations

import zlib

# base62 as GitHub writes it: digits, capitals, small letters
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def checksum(drawn: str) -> str:
    """The six characters that follow ``drawn`` (30 characters) in a real token."""
    number = zlib.crc32(drawn.encode("ascii"))
    places = [DIGITS[number // 62**power % 62] for power in range(5, -1, -1)]
    return "".join(places)


def github_token(kind: str, drawn: str) -> str:
    """A token of ``kind`` (``"ghp_"``) from the first 30 characters of ``drawn``: callers
    draw 36, as a token's length, so that a seeded stream draws as many as it did before the
    sum was asked."""
    body = drawn[:30]
    return kind + body + checksum(body)
