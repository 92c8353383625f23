"""A value the note itself records as no longer valid (``old password``, ``rotated out``,
``revoked``) is a suggestion naming the place and the word; the value in use stays a
problem (the on-change alert: tests/daemon/test_retired_alerts.py)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from memory_audit.checks.secrets import Options
from tests.harness import findings, index, memory, write_tree

OLD = "Harbor-Kite-2291!"  # look-alikes
NEW = "Quill%Marsh-7743"


def _tree(tmp_path: Path, a: str, b: str = "Nothing here.") -> Path:
    return write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"Notes.\n{a}\n"),
            "b.md": memory("b", body=f"More.\n{b}\n"),
        },
    )


def _audit(tree: Path, tmp_path: Path) -> list[tuple[str, str, str]]:
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    found = findings(tree, "secrets", options=options)
    return sorted((f.path, str(f.level), f.message) for f in found)


def test_the_rotated_out_value_is_a_suggestion_the_new_one_a_problem(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        f"The shared DB password was `{OLD}` (rotated out in May).",
        f"The shared DB password is `{NEW}` now.",
    )
    (a_path, a_level, a_message), (b_path, b_level, b_message) = _audit(tree, tmp_path)
    assert (a_path, a_level) == ("a.md", "suggestion")
    assert a_message.endswith('; a.md:7 records it as no longer valid ("rotated out")')
    assert (b_path, b_level) == ("b.md", "problem")
    assert "no longer valid" not in b_message
    assert OLD not in a_message
    assert NEW not in b_message


def test_one_place_recording_the_value_as_revoked_makes_the_value_a_suggestion(
    tmp_path: Path,
) -> None:
    tree = _tree(
        tmp_path,
        f"The staging password is `{OLD}`.",
        f"Old staging password `{OLD}` — revoked after the audit.",
    )
    [(path, level, message)] = _audit(tree, tmp_path)
    assert (path, level) == ("a.md", "suggestion")
    assert "also at b.md:7" in message
    assert message.endswith('b.md:7 records it as no longer valid ("Old")')


def test_a_value_still_to_revoke_stays_a_problem(tmp_path: Path) -> None:
    tree = _tree(tmp_path, f"The staging password `{OLD}` must be revoked before launch.")
    [(_, level, _)] = _audit(tree, tmp_path)
    assert level == "problem"


def test_a_banner_retiring_the_notes_system_is_named_at_its_own_line(tmp_path: Path) -> None:
    # the note opens with a banner that retires the site it is about: its keys are the old
    # site's, and the message names the banner's line, not the value's
    banner = "> ⚠️ **[LEGACY]** Notes of the old booking site, retired in 2026/04."
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"{banner}\n\n## Keys\n- sync password: `{OLD}`\n"),
            "b.md": memory("b", body=f"The booking password is `{NEW}`.\n"),
        },
    )
    (a_path, a_level, a_message), (b_path, b_level, _) = _audit(tree, tmp_path)
    assert (a_path, a_level) == ("a.md", "suggestion")
    assert a_message.endswith('; a.md:6 records it as no longer valid ("retired")')
    assert (b_path, b_level) == ("b.md", "problem")


def _jwt(claims: dict[str, object]) -> str:
    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    return f"{part({'alg': 'RS256', 'kid': 'fern'})}.{part(claims)}.{'Kq7Xm2Lp9Rt4Vn8Bc3Hd' * 3}"


def test_a_token_whose_own_expiry_has_passed_is_a_suggestion_a_live_one_a_problem(
    tmp_path: Path,
) -> None:
    # an access token of an hour pasted in 2001, and one that runs to 2999
    gone = _jwt({"sub": "fern", "exp": 978_310_800})
    live = _jwt({"sub": "fern", "exp": 32_503_680_000})
    tree = _tree(tmp_path, f"access_token: {gone}", f"access_token: {live}")
    (a_path, a_level, a_message), (b_path, b_level, b_message) = _audit(tree, tmp_path)
    assert (a_path, a_level) == ("a.md", "suggestion")
    assert a_message.endswith("; the token expired on 2001-01-01 (its own exp claim)")
    assert (b_path, b_level) == ("b.md", "problem")
    assert "expired" not in b_message


def test_a_token_with_no_number_for_its_expiry_stays_a_problem(tmp_path: Path) -> None:
    odd = _jwt({"sub": "fern", "exp": "soon"})
    flag = _jwt({"sub": "fern", "exp": True})
    tree = _tree(tmp_path, f"access_token: {odd}", f"access_token: {flag}")
    assert [level for _, level, _ in _audit(tree, tmp_path)] == ["problem", "problem"]
