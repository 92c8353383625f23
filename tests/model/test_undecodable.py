"""File names that are not UTF-8: escaped as their bytes wherever text leaves the engine."""

from __future__ import annotations

import os
from pathlib import Path

from memory_audit.atomic import utf8, write_output
from memory_audit.model.finding import fingerprint, make_finding
from memory_audit.model.undecodable import escaped, escaped_all, printable
from memory_audit.model.visible import visible

NAME = os.fsdecode(b"caf\xe9.md")  # Latin-1 bytes: 0xe9 alone is not UTF-8


def test_an_undecodable_byte_is_shown_as_its_escape() -> None:
    assert escaped(NAME) == "caf\\xe9.md"
    assert visible(NAME) == "caf\\xe9.md"
    assert escaped("café.md") == "café.md"


def test_a_finding_on_an_undecodable_name_has_a_stable_distinct_fingerprint() -> None:
    assert fingerprint("orphans", "orphan", NAME) == fingerprint("orphans", "orphan", NAME)
    assert fingerprint("orphans", "orphan", NAME) != fingerprint("orphans", "orphan", "caf?.md")


def test_every_string_of_a_finding_is_escaped_and_clean_ones_are_not_copied() -> None:
    finding = make_finding(
        "orphans", "orphan", NAME, None, f"{NAME} is lost", related=(NAME,), fix={"path": NAME}
    )
    shown = escaped_all(finding)
    assert (shown.path, shown.message, shown.related, shown.fix) == (
        "caf\\xe9.md",
        "caf\\xe9.md is lost",
        ("caf\\xe9.md",),
        {"path": "caf\\xe9.md"},
    )
    assert shown.fingerprint == finding.fingerprint
    clean = make_finding("orphans", "orphan", "a.md", None, "a.md is lost")
    assert escaped_all(clean) is clean
    assert escaped_all(Path(NAME)) == Path("caf\\xe9.md")


def test_writers_escape_a_lone_surrogate_instead_of_failing(tmp_path: Path) -> None:
    assert utf8(f"{NAME} \ud800") == b"caf\\xe9.md \\ud800"
    write_output(tmp_path / "report.txt", f"- {NAME}\n")
    assert (tmp_path / "report.txt").read_bytes() == b"- caf\\xe9.md\n"


def test_a_finding_whose_fix_would_write_an_escaped_name_proposes_none() -> None:
    fix = {"action": "add-index-line", "path": NAME}
    finding = make_finding("orphans", "orphan", NAME, None, "lost", fix=fix)
    shown = printable(finding)
    assert (shown.path, shown.fix, shown.judgment) == ("caf\\xe9.md", None, True)
    clean = make_finding("orphans", "orphan", "a.md", None, "lost", fix={"path": "a.md"})
    assert printable(clean) is clean
