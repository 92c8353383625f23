from __future__ import annotations

from pathlib import Path

from memory_audit.secrets.redact import fingerprint, load_salt, redact
from tests.secrets.samples import CASES

PLANTED = [secret for positives, _ in CASES.values() for _, secret in positives]


def test_salt_is_private_random_and_stable(tmp_path: Path) -> None:
    first = load_salt(tmp_path / "state")
    assert load_salt(tmp_path / "state") == first
    assert load_salt(tmp_path / "other") != first
    assert (tmp_path / "state/secret-salt").stat().st_mode & 0o777 == 0o600
    assert fingerprint("r", "s", first) != fingerprint("r", "s", load_salt(tmp_path / "other"))


def test_redaction_shows_at_most_40_characters_and_a_third_of_the_secret() -> None:
    for secret in PLANTED:
        shown = redact(secret)
        assert len(shown) <= 40
        visible = len(shown) - 3
        assert visible <= max(3, len(secret) // 3 + 1), (secret, shown)
        assert secret not in shown


def test_a_short_secret_shows_little_of_itself() -> None:
    # a password of four digits: three shown ("48...1") leave ten to guess, one a thousand
    assert redact("4821") == "4..."
    assert redact("fernq") == "f...q"
    assert redact("fern26") == "f...6"
    assert redact("fern2026") == "fe...6"


def test_a_recovery_phrase_shows_no_whole_word() -> None:
    # a word's first four letters name it in the BIP-39 list: two at each end name none
    phrase = "abandon ability absorb acoustic adapt badge bamboo banner cabin cactus canal dawn"
    assert redact(phrase) == "ab...wn"
    assert not any(word in redact(phrase) for word in phrase.split())


def test_a_recovery_phrase_quoted_back_is_masked_by_the_same_measure() -> None:
    # review's view of a file masks runs of known secrets: a phrase shows no whole word there
    from memory_audit.secrets.boundary import Boundary

    phrase = "abandon ability absorb acoustic adapt badge bamboo banner cabin cactus canal dawn"
    shown = Boundary([phrase]).text(f"7 | {phrase}")
    assert "ab...wn" in shown
    assert not any(word in shown for word in phrase.split())
