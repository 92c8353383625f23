"""Showing and identifying a secret without revealing it.

A secret is shown as ``<head>...<tail>``: at most 40 characters, and never
more than about a third of the secret (the head usually shows the token's
prefix, ``ghp_`` or ``sk-ant-``, which is what a reader needs). Its identity across runs is an
HMAC-SHA256 under a per-user random salt, so a fingerprint in a report or
in the false-positive table says nothing about the secret to anyone else.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import math
import os
import secrets as stdlib_secrets
import threading
from collections import Counter
from pathlib import Path

MAX_SHOWN = 40
SALT_NAME = "secret-salt"


# A value this short shows its first character only; one up to PIN_LIKE, one at each end.
SHORT = 5
PIN_LIKE = 8
# A value of this many words is a phrase (a wallet's, twelve words or more): a word's first
# four letters name it in the list it comes from, so two letters at each end are shown
PHRASE_WORDS = 12


def redact(secret: str) -> str:
    if len(secret.split()) >= PHRASE_WORDS:  # a recovery phrase: its words are its digits
        return f"{secret[:2]}...{secret[-2:]}"
    if len(secret) < SHORT:  # "1111", "toor": three characters of four give it away
        return f"{secret[:1]}..."
    if len(secret) < PIN_LIKE:
        head, tail = 1, 1  # five to seven characters: two shown, the rest to guess
    elif len(secret) < 12:
        head, tail = 2, 1
    elif len(secret) < 24:
        head, tail = len(secret) // 6, 2
    else:
        head, tail = min(max(4, len(secret) // 5), 12), 4
    shown = f"{secret[:head]}...{secret[-tail:]}"
    return shown[:MAX_SHOWN]


def fingerprint(rule: str, secret: str, salt: bytes) -> str:
    return hmac.new(salt, f"{rule}\x1f{secret}".encode(), hashlib.sha256).hexdigest()[:24]


def value_fingerprint(secret: str, salt: bytes) -> str:
    """A value's identity whatever rule found it (no rule's name starts with the separator):
    one value is one finding, and one false positive mark clears it, however many rules
    match it. A finding keeps the fingerprint of its first place's rule, so that what was
    recorded under it (dismissals, alerts, marks saved before) holds."""
    return hmac.new(salt, f"\x1f{secret}".encode(), hashlib.sha256).hexdigest()[:24]


def entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    if not text:
        return 0.0
    counts = Counter(text)
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def load_salt(state_dir: Path) -> bytes:
    """The per-user salt, created (0600, in a 0700 folder) on first use.

    It appears whole or not at all (written aside, then linked into place), so a
    thread or process reading it meanwhile never takes an empty file for the salt.
    When the state folder cannot be written, a salt for this process only is
    used: fingerprints then differ between runs, but nothing is revealed.
    """
    path = state_dir / SALT_NAME
    with contextlib.suppress(OSError, ValueError):
        return _read_salt(path)
    salt = stdlib_secrets.token_bytes(32)
    with contextlib.suppress(OSError):
        state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        _publish_salt(path, salt)
    with contextlib.suppress(OSError, ValueError):
        return _read_salt(path)
    return salt


def _read_salt(path: Path) -> bytes:
    salt = bytes.fromhex(path.read_text().strip())
    if len(salt) < 16:
        raise ValueError("salt too short")
    return salt


def _publish_salt(path: Path, salt: bytes) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(salt.hex())
        with contextlib.suppress(FileExistsError):  # another writer was first: theirs wins
            os.link(temp, path)
    finally:
        temp.unlink(missing_ok=True)
