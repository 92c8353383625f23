"""File names that are not UTF-8: escaped as their bytes wherever text leaves the engine."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path, PurePath
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

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


def _escaped_all_as_before(value: Any) -> Any:
    """:func:`escaped_all` before its fast path for plain values, written out."""
    found: Any = value
    if isinstance(value, str):
        found = escaped(value)
    elif isinstance(value, PurePath):
        text = str(value)
        found = value if escaped(text) is text else type(value)(escaped(text))
    elif isinstance(value, tuple | list):
        items = [_escaped_all_as_before(item) for item in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            found = type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    elif isinstance(value, dict):
        pairs = [(_escaped_all_as_before(k), _escaped_all_as_before(v)) for k, v in value.items()]
        if any(k is not o or v is not value[o] for (k, v), o in zip(pairs, value, strict=True)):
            found = dict(pairs)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for field in dataclasses.fields(value):
            new = _escaped_all_as_before(getattr(value, field.name))
            if field.init and new is not getattr(value, field.name):
                changes[field.name] = new
        found = dataclasses.replace(value, **changes) if changes else value
    return found


TEXTS = st.text(alphabet=st.sampled_from(["a", "é", NAME[3], "\udc80", "/"]), max_size=4)
PLAIN_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), TEXTS)
VALUES = st.recursive(
    PLAIN_VALUES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(TEXTS, inner, max_size=3),
    ),
    max_leaves=8,
)


@given(TEXTS, TEXTS, st.one_of(st.none(), st.integers()), VALUES, st.lists(TEXTS, max_size=3))
def test_escaping_a_finding_gives_what_the_walk_without_shortcuts_gave(
    path: str, message: str, line: int | None, fix: Any, related: list[str]
) -> None:
    finding = make_finding(
        "orphans", "orphan", path, line, message, related=tuple(related), fix={"x": fix}
    )
    for value in (finding, fix, [finding, fix], {"k": (finding, line)}, Path(path or "a")):
        new, old = escaped_all(value), _escaped_all_as_before(value)
        assert new == old
        assert (new is value) == (old is value)
