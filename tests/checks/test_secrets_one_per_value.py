"""One ``possible-secret`` finding per secret value per tree, naming every place it is."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from memory_audit.model.finding import Finding
from memory_audit.secrets.loading import FALSE_POSITIVES_HEADER, false_positives_path
from memory_audit.secrets.redact import fingerprint, load_salt, redact, value_fingerprint
from memory_audit.secrets.rules import false_positive_row
from tests.harness import codes, findings, index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd

PASSWORD = "Harbor01!!"  # a look-alike, matched as "the wifi password is ..."
SAID = f"the wifi password is {PASSWORD}"  # a rule matches it here
BARE = f"nas {PASSWORD} on the mgmt port"  # only its text repeats here


def places(finding: Finding) -> list[tuple[str, int]]:
    """Every place of the finding's value, from its fix (the finding's own when alone)."""
    fix = finding.fix or {}
    listed = fix.get("places") or [{"path": finding.path, "line": finding.line}]
    return [(place["path"], place["line"]) for place in listed]


def test_one_value_in_five_files_is_one_finding_at_its_first_rule_place(tree_dir: Path) -> None:
    files = {"a.md": BARE, "b.md": BARE, "c.md": SAID, "d.md": BARE, "e.md": SAID}
    write_tree(
        tree_dir,
        {"MEMORY.md": index(*files), **{n: memory(n[0], body=b) for n, b in files.items()}},
    )
    [found] = findings(tree_dir, "secrets")
    assert codes([found]) == [("possible-secret", "c.md", 6)]
    assert found.message == (
        f'possible password written in prose: matched "{redact(PASSWORD)}" '
        "(pattern: password-phrase), also at e.md:6, a.md:6, b.md:6 and 1 more place"
    )
    assert found.related == ("a.md", "b.md", "d.md", "e.md")
    assert places(found) == [("c.md", 6), ("e.md", 6), ("a.md", 6), ("b.md", 6), ("d.md", 6)]
    assert found.suggestion == (
        "review and redact (one fix redacts all 5 places), or mark as false positive"
    )
    assert PASSWORD not in repr(found)


def test_a_value_twice_in_one_file_is_one_finding_naming_both_lines(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"{SAID}\n\n{SAID}\n{BARE}")},
    )
    [found] = findings(tree_dir, "secrets")
    assert found.message.endswith("also at a.md:8 and a.md:9")
    assert found.related == ()
    assert places(found) == [("a.md", 6), ("a.md", 8), ("a.md", 9)]


def test_two_values_are_two_findings(tree_dir: Path) -> None:
    other = f"the wifi password is Quay77##x\n{SAID}"
    write_tree(
        tree_dir,
        {"MEMORY.md": index("a.md", "b.md"), "a.md": memory("a", body=other), "b.md": BARE},
    )
    found = findings(tree_dir, "secrets")
    assert codes(found) == [("possible-secret", "a.md", 6), ("possible-secret", "a.md", 7)]
    assert [places(f) for f in found] == [[("a.md", 6)], [("a.md", 7), ("b.md", 1)]]
    assert (found[0].fix or {})["places"] == [{"path": "a.md", "line": 6}]  # one place too
    assert found[0].message.endswith("(pattern: password-phrase)")


def test_a_value_s_fingerprint_stays_when_copies_come_and_go(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a", body=SAID)})
    [alone] = findings(tree_dir, "secrets")
    write_tree(tree_dir, {"b.md": memory("b", body=SAID), "c.md": memory("c", body=BARE)})
    [copied] = findings(tree_dir, "secrets")
    assert places(copied) == [("a.md", 6), ("b.md", 6), ("c.md", 6)]
    assert copied.fingerprint == alone.fingerprint
    assert (copied.fix or {})["fingerprint"] == (alone.fix or {})["fingerprint"]


def test_a_value_twice_on_one_line_is_one_place(tree_dir: Path) -> None:
    write_tree(tree_dir, {"a.md": memory("a", body=f"{SAID}; {SAID}"), "b.md": f"{BARE} {BARE}"})
    [found] = findings(tree_dir, "secrets")
    assert places(found) == [("a.md", 6), ("b.md", 1)]


# A key two rules find: after "API Key:" (generic-assignment) and after "Bearer" (bearer-token).
KEY = "Fk" + rnd(ALNUM, 38)
TWO_RULES = {
    "MEMORY.md": index("a.md", "b.md"),
    "a.md": memory("a", body=f"Fernhill API Key: {KEY}"),
    "b.md": memory("b", body=f"curl -H 'Authorization: Bearer {KEY}' https://api.fernhill.test"),
}


def test_one_value_two_rules_find_is_one_finding_at_its_first_place(tree_dir: Path) -> None:
    write_tree(tree_dir, TWO_RULES)
    [found] = findings(tree_dir, "secrets")
    assert codes([found]) == [("possible-secret", "a.md", 6)]
    assert "(pattern: generic-assignment), also at b.md:6" in found.message
    assert places(found) == [("a.md", 6), ("b.md", 6)]
    assert found.related == ("b.md",)
    assert KEY not in repr(found)


def _mark_false_positive(row_fingerprint: str, rule: str) -> None:
    state = Path(platformdirs.user_state_dir("memory-audit"))
    false_positives_path(state).write_text(
        FALSE_POSITIVES_HEADER + false_positive_row(row_fingerprint, rule, "a.md", "test")
    )


@pytest.mark.parametrize("rule", ["generic-assignment", "bearer-token"])
def test_a_mark_saved_under_either_rule_s_old_fingerprint_clears_the_value(
    tree_dir: Path, rule: str
) -> None:
    # marks saved before one value was one finding hold a rule's fingerprint of the value
    write_tree(tree_dir, TWO_RULES)
    salt = load_salt(Path(platformdirs.user_state_dir("memory-audit")))
    _mark_false_positive(fingerprint(rule, KEY, salt), rule)
    assert findings(tree_dir, "secrets") == []


def test_a_mark_under_the_value_s_fingerprint_clears_it_whatever_rule_finds_it(
    tree_dir: Path,
) -> None:
    write_tree(tree_dir, TWO_RULES)
    [found] = findings(tree_dir, "secrets")
    value = (found.fix or {})["value"]
    salt = load_salt(Path(platformdirs.user_state_dir("memory-audit")))
    assert value == value_fingerprint(KEY, salt)
    _mark_false_positive(str(value), "generic-assignment")
    assert findings(tree_dir, "secrets") == []
    # and where only the other rule finds it
    (tree_dir / "a.md").write_text(memory("a", body="the key is in the vault"))
    assert findings(tree_dir, "secrets") == []
