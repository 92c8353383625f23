"""A test account's stand-in password (``demo1234``, ``Test@2031``) that a note places on the
developer's own machine (``DB local``, ``localhost``, an address at ``.local`` or ``.test``)
is a local database's fixture: a suggestion. Anywhere else it stays a problem (a test
account on the system the note is about), and so does any other password beside a local
address."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from tests.harness import findings, index, memory, write_tree


def _levels(tmp_path: Path, a: str, b: str = "Nothing here.") -> list[tuple[str, str, str]]:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"Notes.\n{a}\n"),
            "b.md": memory("b", body=f"More.\n{b}\n"),
        },
    )
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    found = findings(tree, "secrets", options=options)
    return sorted((f.path, str(f.level), f.message) for f in found)


def test_a_stand_in_password_on_a_local_database_is_a_suggestion(tmp_path: Path) -> None:
    local = "The local DB has admin `showcase@fern.local` / `demo1234` and the seed."
    other = "Test admin: **marco@fernshop.io** (password **demo1234**, reset in June)."
    [(path, level, message)] = _levels(tmp_path, local, other)
    assert (path, level) == ("a.md", "suggestion")
    assert message.endswith("; a.md:7 places it on a local development machine")


def test_other_passwords_or_no_local_machine_stay_problems(tmp_path: Path) -> None:
    cases = (
        "Test admin: **marco@fernshop.io** (password **demo1234**, reset in June).",
        "The local DB has admin `ops@fern.local` / `Harbor-Kite-2291!` for the seed.",
        "Prod admin `ops@fernshop.io` / `Test@2031` (localization team).",
    )
    for n, line in enumerate(cases):
        [(_, level, _)] = _levels(tmp_path / str(n), line)
        assert level != "suggestion", line
