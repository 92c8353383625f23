"""The on-change alert sees a bare repeat of a secret the tree holds, as the audit does.

``password is <value>`` in one file, the value alone in a command in another: the audit
reports both places (``repeated-credential``), so a change that writes the second alerts
too. The values come from the journal's :class:`TreeValues`, kept between changes.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.journal.tree_values import TreeValues
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from tests.checks.test_secrets_one_per_value import places
from tests.harness import findings, index, memory, write_tree

# Look-alikes built here: a rule finds the value after "password is", nothing finds it bare.
PASSWORD = "Quay" + "58" + "!!mk"
SAID = f"the wifi password is {PASSWORD}"
BARE = f"ssh admin@nas -p {PASSWORD} --port 2222"  # no rule matches it here
NOW = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)
FILES = {
    "a.md": f"Wifi.\n{SAID}\n",
    "b.md": f"Hosts.\n{BARE}\nThen {PASSWORD} again.\n",
    # part of a name or a longer word: the name, not the password
    "c.md": f"Files.\nsee {PASSWORD}_notes.md and x{PASSWORD}y\n",
    "d.md": "Nothing secret here.\n",
}


def _tree(tree_dir: Path, files: dict[str, str]) -> Path:
    bodies = {name: memory(name[:-3], body=body) for name, body in files.items()}
    return write_tree(tree_dir, {"MEMORY.md": index(*files), **bodies})


def _audited(tree_dir: Path, state_dir: Path) -> set[tuple[str, int, str]]:
    audit = findings(tree_dir, "secrets", options={"secrets": Options(state_dir=str(state_dir))})
    return {(path, line, (f.fix or {})["fingerprint"]) for f in audit for path, line in places(f)}


def _alerted(
    tree_dir: Path, state_dir: Path, values: TreeValues, changed: list[str]
) -> tuple[set[tuple[str, int, str]], list[str]]:
    """What the daemon's scan of ``changed`` finds, and the texts of the alerts it raises."""
    scanner = secret_scanner(Options(state_dir=str(state_dir)))  # as the daemon builds it
    paths = {tree_dir / rel for rel in changed}
    scans = _scan_all(paths, tree_dir, scanner, 1 << 20, values)
    state = State(state_dir / "daemon")
    try:
        texts = [a.text for s in scans for a in alerts_for(s, state, scanner.false_positives)]
    finally:
        state.close()
    found = {(s.rel, m.line, m.fingerprint) for s in scans for m in (*s.matches, *s.repeats)}
    return found, texts


def test_a_change_repeating_a_secret_of_the_tree_alerts_at_the_places_the_audit_reports(
    tmp_path: Path, tree_dir: Path
) -> None:
    _tree(tree_dir, FILES)
    state_dir = tmp_path / "state"  # one salt: the same secret, the same fingerprint
    alerted, texts = _alerted(tree_dir, state_dir, TreeValues(1 << 20), [*FILES, "MEMORY.md"])
    audited = _audited(tree_dir, state_dir)
    assert alerted == audited
    assert {(path, line) for path, line, _ in alerted} == {("a.md", 7), ("b.md", 7), ("b.md", 8)}
    assert len({fingerprint for _, _, fingerprint in alerted}) == 1  # one value, one finding
    # one alert a value a file: b.md's second place is in the audit's finding, not a new alert
    assert [t.split(" ", 1)[0] for t in texts] == ["a.md:7", "b.md:7"]
    assert all(PASSWORD not in text for text in texts)
    assert texts[1].endswith("(repeated)")


def test_only_the_changed_file_is_scanned_and_it_alerts_for_a_value_said_elsewhere(
    tmp_path: Path, tree_dir: Path
) -> None:
    _tree(tree_dir, {"a.md": SAID, "d.md": "Nothing."})
    values = TreeValues(1 << 20)
    state_dir = tmp_path / "state"
    _alerted(tree_dir, state_dir, values, ["a.md", "d.md"])  # the sweep at start
    (tree_dir / "d.md").write_text(memory("d", body=f"Nothing.\n{BARE}"))
    alerted, texts = _alerted(tree_dir, state_dir, values, ["d.md"])
    assert {(path, line) for path, line, _ in alerted} == {("d.md", 7)}
    assert alerted <= _audited(tree_dir, state_dir)
    assert len(texts) == 1
    assert PASSWORD not in texts[0]


def test_a_value_no_file_says_is_a_secret_any_more_alerts_no_repeat(
    tmp_path: Path, tree_dir: Path
) -> None:
    _tree(tree_dir, {"a.md": SAID, "d.md": "Nothing."})
    values = TreeValues(1 << 20)  # kept between the changes, as the daemon keeps it
    state_dir = tmp_path / "state"
    _alerted(tree_dir, state_dir, values, ["a.md", "d.md"])
    (tree_dir / "a.md").write_text(memory("a", body="The wifi is open now."))
    _alerted(tree_dir, state_dir, values, ["a.md"])
    (tree_dir / "d.md").write_text(memory("d", body=f"Nothing.\n{BARE}"))
    alerted, texts = _alerted(tree_dir, state_dir, values, ["d.md"])
    assert alerted == set() == _audited(tree_dir, state_dir)
    assert texts == []


def test_a_value_said_in_a_file_changed_without_an_event_alerts_no_repeat_once_unsaid(
    tmp_path: Path, tree_dir: Path
) -> None:
    # a.md loses the password with no event for it (the watcher missed it): the values are
    # read again from what is on disk (another size), not kept from the last event
    _tree(tree_dir, {"a.md": SAID, "d.md": "Nothing."})
    values = TreeValues(1 << 20)
    state_dir = tmp_path / "state"
    _alerted(tree_dir, state_dir, values, ["a.md", "d.md"])
    (tree_dir / "a.md").write_text(memory("a", body="The wifi is open now, no password."))
    (tree_dir / "d.md").write_text(memory("d", body=f"Nothing.\n{BARE}"))
    alerted, texts = _alerted(tree_dir, state_dir, values, ["d.md"])
    assert alerted == set() == _audited(tree_dir, state_dir)
    assert texts == []


def test_a_file_an_event_names_is_read_again_even_at_the_same_size_and_time(
    tmp_path: Path, tree_dir: Path
) -> None:
    # a coarse clock: a.md says another password of the same length, its time unchanged
    _tree(tree_dir, {"a.md": SAID, "d.md": "Nothing."})
    values = TreeValues(1 << 20)
    state_dir = tmp_path / "state"
    _alerted(tree_dir, state_dir, values, ["a.md", "d.md"])
    said = tree_dir / "a.md"
    before = said.stat()
    other = PASSWORD[::-1]
    said.write_text(said.read_text().replace(PASSWORD, other))
    os.utime(said, ns=(before.st_atime_ns, before.st_mtime_ns))
    (tree_dir / "d.md").write_text(memory("d", body=f"Nothing.\nssh -p {other} nas"))
    scanner = secret_scanner(Options(state_dir=str(state_dir)))
    paths = {said, tree_dir / "d.md"}
    scans = _scan_all(paths, tree_dir, scanner, 1 << 20, values, read_again=paths)
    assert [(s.rel, m.line) for s in scans for m in s.repeats] == [("d.md", 7)]


def test_a_file_alerted_for_a_bare_repeat_alerts_no_more_when_another_rule_finds_the_value(
    tmp_path: Path, tree_dir: Path
) -> None:
    # one value, one alert a file: the key of a file's first match of the value changes when
    # another rule finds it there later; the alert already given for the file still holds
    key = "Fk" + "Qm4Tz8Vb1Nc6Wd3Fg5Jh0Ks7Pl2Mn9Qx4Rz8Hd6"  # a look-alike
    _tree(tree_dir, {"a.md": f"Fernhill API Key: {key}", "b.md": f"deploy --with {key} now"})
    values = TreeValues(1 << 20)
    state_dir = tmp_path / "state"
    scanner = secret_scanner(Options(state_dir=str(state_dir)))
    state = State(state_dir / "daemon")
    try:
        scans = _scan_all(
            {tree_dir / "a.md", tree_dir / "b.md"}, tree_dir, scanner, 1 << 20, values
        )
        first = [a for s in scans for a in alerts_for(s, state, scanner.false_positives)]
        assert [a.text.split(" ", 1)[0] for a in first] == ["a.md:6", "b.md:6"]
        state.record_alerts([(a.key, a.kind, a.root, a.path) for a in first], NOW)
        with (tree_dir / "b.md").open("a") as more:
            more.write(f"curl -H 'Authorization: Bearer {key}' https://x.test\n")
        [scan] = _scan_all({tree_dir / "b.md"}, tree_dir, scanner, 1 << 20, values)
        assert {m.rule for m in scan.matches} == {"bearer-token"}
        assert alerts_for(scan, state, scanner.false_positives) == []
    finally:
        state.close()
    assert (
        len(findings(tree_dir, "secrets", options={"secrets": Options(state_dir=str(state_dir))}))
        == 1
    )
