"""The journal masks a secret's value wherever the tree repeats it, as the audit reports it."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from memory_audit.journal.index import Actor, Version
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.secrets.loading import (
    FALSE_POSITIVES_HEADER,
    ScannerConfig,
    false_positives_path,
    secret_scanner,
)
from memory_audit.secrets.redact import fingerprint, load_salt, redact
from memory_audit.secrets.repeats import MIN_LENGTH
from memory_audit.secrets.rules import false_positive_row
from tests.harness import index, memory, write_tree

# Look-alikes built here: a rule finds the value after "password is", nothing finds it bare.
PASSWORD = "Harbor" + "07" + "!!q"
SAID = f"the wifi password is {PASSWORD}"
BARE = f"- nas {PASSWORD} on the mgmt port"  # no rule matches it here


def outside(rel: str, at: float, kind: str) -> Actor:
    return Actor("outside")


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def journal(state: Path) -> Journal:
    return Journal(state)


def recorder(journal: Journal, state: Path) -> Recorder:
    return Recorder(journal.index, journal.blobs, secret_scanner(_config(state)), 1 << 20)


def _config(state: Path) -> ScannerConfig:
    return ScannerConfig(state_dir=str(state))


def stored(journal: Journal, version: Version) -> bytes:
    """A version's blob as the store holds it on disk, inflated."""
    assert version.blob is not None
    return zlib.decompress(journal.blobs.path(version.blob).read_bytes())


def on_disk(journal: Journal) -> bytes:
    """Every blob on disk inflated, joined."""
    blobs = [p for p in journal.blobs.folder.rglob("*") if p.is_file()]
    return b"".join(zlib.decompress(p.read_bytes()) for p in blobs)


def by_path(versions: list[Version]) -> dict[str, Version]:
    return {v.path: v for v in versions}


def test_a_value_repeated_bare_in_another_file_is_not_kept(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=SAID),
            "b.md": memory("b", body=BARE),
        },
    )
    versions = by_path(recorder(journal, state).reconcile(tree, 1.0, outside))
    b = stored(journal, versions["b.md"])
    assert PASSWORD.encode() not in b
    assert b.endswith(f"- nas {redact(PASSWORD)} on the mgmt port\n".encode())
    assert versions["b.md"].masked == 1
    assert PASSWORD.encode() not in on_disk(journal)


def test_a_repeat_in_a_file_recorded_alone_is_masked_too(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    # the daemon records one changed file: the value comes from a file not read this time
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body=SAID), "b.md": memory("b", body="x")}
    )
    rec = recorder(journal, state)
    rec.reconcile(tree, 1.0, outside)
    (tree / "b.md").write_text(memory("b", body=BARE))
    [b] = rec.reconcile(tree, 2.0, outside, changed={"b.md"})
    assert PASSWORD.encode() not in stored(journal, b)
    assert b.masked == 1


def test_a_value_repeated_in_a_utf16_file_is_not_kept(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "a.md": memory("a", body=SAID),
            "b.md": b"\xff\xfe" + memory("b", body=BARE).encode("utf-16-le"),
        },
    )
    versions = by_path(recorder(journal, state).reconcile(tree, 1.0, outside))
    b = stored(journal, versions["b.md"])
    assert PASSWORD.encode("utf-16-le") not in b
    assert b[2:].decode("utf-16-le").endswith(f"- nas {redact(PASSWORD)} on the mgmt port\n")


def test_a_value_said_in_a_utf16_file_is_masked_where_another_repeats_it(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "a.md": b"\xff\xfe" + memory("a", body=SAID).encode("utf-16-le"),
            "b.md": memory("b", body=BARE),
        },
    )
    versions = by_path(recorder(journal, state).reconcile(tree, 1.0, outside))
    assert PASSWORD.encode() not in stored(journal, versions["b.md"])


def test_a_value_shorter_than_the_search_minimum_is_not_masked_elsewhere(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    short = "48" + "213"  # the audit does not search for it either: too likely ordinary text
    assert len(short) < MIN_LENGTH
    tree = write_tree(
        tmp_path / "memory",
        {
            "a.md": memory("a", body=f"door PIN: {short}\n{SAID}"),
            "b.md": memory("b", body=f"- door {short} on the left\n{BARE}"),
        },
    )
    versions = by_path(recorder(journal, state).reconcile(tree, 1.0, outside))
    assert short.encode() not in stored(journal, versions["a.md"])  # the rule still masks it
    b = stored(journal, versions["b.md"]).decode()
    assert f"- door {short} on the left\n- nas {redact(PASSWORD)} on" in b
    assert versions["b.md"].masked == 1


def test_a_recorded_false_positive_is_not_masked_where_it_is_repeated(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body=SAID), "b.md": memory("b", body=BARE)}
    )
    first = by_path(recorder(journal, state).reconcile(tree, 1.0, outside))
    assert PASSWORD.encode() not in stored(journal, first["b.md"])
    mark = fingerprint("password-phrase", PASSWORD, load_salt(state))
    row = false_positive_row(mark, "password-phrase", "a.md", "not a secret")
    false_positives_path(state).write_text(FALSE_POSITIVES_HEADER + row)
    # a new scanner (the table changed): the values are read again, the value left out
    [b] = recorder(journal, state).reconcile(tree, 2.0, outside, changed={"b.md"})
    assert stored(journal, b) == (tree / "b.md").read_bytes()
    assert b.masked == 0


def test_a_value_no_longer_said_anywhere_is_kept_as_written(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    # Once a.md no longer says the value is a password, nothing in the tree does: the
    # audit reports b.md no more, and the journal keeps b.md as written (the same rule).
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body=SAID), "b.md": memory("b", body=BARE)}
    )
    rec = recorder(journal, state)
    first = by_path(rec.reconcile(tree, 1.0, outside))
    assert PASSWORD.encode() not in stored(journal, first["b.md"])
    (tree / "a.md").write_text(memory("a", body="the wifi password is in the vault"))
    rec.reconcile(tree, 2.0, outside, changed={"a.md"})
    (tree / "b.md").write_text(memory("b", body=BARE + " -v"))
    [b] = rec.reconcile(tree, 3.0, outside, changed={"b.md"})
    assert stored(journal, b) == (tree / "b.md").read_bytes()
    assert b.masked == 0


def test_a_value_said_since_is_masked_in_the_next_version_of_a_repeat(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body="x"), "b.md": memory("b", body=BARE)}
    )
    rec = recorder(journal, state)
    rec.reconcile(tree, 1.0, outside)
    (tree / "a.md").write_text(memory("a", body=SAID))
    rec.reconcile(tree, 2.0, outside, changed={"a.md"})
    (tree / "b.md").write_text(memory("b", body=BARE + " -v"))
    [b] = rec.reconcile(tree, 3.0, outside, changed={"b.md"})
    assert PASSWORD.encode() not in stored(journal, b)


def test_a_repeat_inside_a_name_is_the_name_and_kept(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "a.md": memory("a", body=SAID),
            "b.md": memory("b", body=f"host {PASSWORD}.local, {PASSWORD}-notes.md; {BARE}"),
        },
    )
    versions = by_path(recorder(journal, state).reconcile(tree, 1.0, outside))
    b = stored(journal, versions["b.md"]).decode()
    assert b.endswith(
        f"host {PASSWORD}.local, {PASSWORD}-notes.md; - nas {redact(PASSWORD)} on the mgmt port\n"
    )


def test_a_label_repeating_a_value_of_the_tree_is_stored_masked(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    # a session's first prompt, as the attribution reads it from a transcript
    def session(rel: str, at: float, kind: str) -> Actor:
        return Actor("session", "s1", f"put {PASSWORD} on the nas")

    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body=SAID), "b.md": memory("b", body="x")}
    )
    rec = recorder(journal, state)
    rec.reconcile(tree, 1.0, outside)
    (tree / "b.md").write_text(memory("b", body="y"))
    [changed] = rec.reconcile(tree, 2.0, session, changed={"b.md"})
    (tree / "b.md").unlink()
    [gone] = rec.reconcile(tree, 3.0, session, changed={"b.md"})
    assert changed.actor.label == gone.actor.label == f"put {redact(PASSWORD)} on the nas"
    journal.close()
    stored_rows = b"".join(p.read_bytes() for p in journal.folder.glob("journal.sqlite*"))
    assert PASSWORD.encode() not in stored_rows


def test_versions_kept_before_a_value_was_said_a_secret_are_masked_once_it_is(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    def session(rel: str, at: float, kind: str) -> Actor:
        return Actor("session", "s1", f"keep {PASSWORD} for the nas")

    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body="x"), "b.md": memory("b", body="y")}
    )
    rec = recorder(journal, state)
    rec.reconcile(tree, 1.0, outside)
    (tree / "b.md").write_text(memory("b", body=BARE))
    [bare] = rec.reconcile(tree, 2.0, session, changed={"b.md"})
    assert PASSWORD.encode() in on_disk(journal)  # nothing says it is a secret yet
    (tree / "a.md").write_text(memory("a", body=SAID))
    rec.reconcile(tree, 3.0, outside, changed={"a.md"})
    now = journal.index.get(bare.id)
    assert now is not None
    assert now.blob != bare.blob
    assert journal.content(now).endswith(f"- nas {redact(PASSWORD)} on the mgmt port\n".encode())
    assert (now.masked, now.actor.label) == (1, f"keep {redact(PASSWORD)} for the nas")
    assert PASSWORD.encode() not in on_disk(journal)
    journal.close()
    assert PASSWORD.encode() not in b"".join(
        p.read_bytes() for p in journal.folder.glob("journal.sqlite*")
    )


def test_a_repeat_saved_again_unchanged_as_its_value_is_said_gets_no_new_version(
    tmp_path: Path, journal: Journal, state: Path
) -> None:
    # b.md's kept version is masked again when a.md begins to say the value is a password;
    # b.md, saved again the same (a change event, no new content), is no change to keep.
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body="x"), "b.md": memory("b", body=BARE)}
    )
    rec = recorder(journal, state)
    rec.reconcile(tree, 1.0, outside)
    (tree / "a.md").write_text(memory("a", body=SAID))
    (tree / "b.md").write_text(memory("b", body=BARE))
    new = rec.reconcile(tree, 2.0, outside, changed={"a.md", "b.md"})
    assert [v.path for v in new] == ["a.md"]
    [b] = journal.index.history(str(tree), "b.md")
    assert PASSWORD.encode() not in stored(journal, b)
