"""The on-change alert and the weekly audit find the same secrets: one boundary scans both.

One file per rule family (every bundled rule's sample, a rule of the user's own patterns
file, a gitleaks rule) in one tree; the daemon's change scan of each file must raise exactly
the secrets the audit's ``secrets`` check reports there, on the same lines.
"""

from __future__ import annotations

import re
from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for, relative_in_tree, scan_file
from memory_audit.secrets.loading import (
    FALSE_POSITIVES_HEADER,
    false_positives_path,
    secret_scanner,
)
from memory_audit.secrets.redact import fingerprint, load_salt, value_fingerprint
from memory_audit.secrets.rules import false_positive_row
from memory_audit.store.state import State
from tests.checks.test_secrets_one_per_value import places
from tests.harness import findings, index, memory, write_tree
from tests.secrets.samples import CASES

OWN_TOKEN = "tpt_" + "".join(chr(ord("a") + (i * 11) % 26) for i in range(20))
GITLEAKS_TOKEN = "fhx_" + "".join(chr(ord("a") + (i * 7) % 26) for i in range(32))
MATCHED = re.compile(r'matched "(?P<shown>[^"]*)"')


def _options(tmp_path: Path) -> Options:
    patterns = tmp_path / "patterns.md"
    bundled = (Path(__file__).resolve().parents[2] / "config" / "secret-patterns.md").read_text()
    own = '  {"name": "teapot-token", "type": "teapot token", "regex": "tpt_[a-z]{20}",\n'
    own += '   "keywords": ["tpt_"]},\n'
    patterns.write_text(bundled.replace("```json\n[\n", "```json\n[\n" + own, 1))
    gitleaks = tmp_path / ".gitleaks.toml"
    gitleaks.write_text(
        "[[rules]]\nid = \"fernhill-any\"\nregex = '''fhx_[a-z]{32}'''\nkeywords = [\"fhx_\"]\n"
    )
    return Options(str(patterns), str(gitleaks), str(tmp_path / "state"))


def _tree(tmp_path: Path) -> Path:
    bodies = {f"{rule}.md": positives[0][0] for rule, (positives, _) in CASES.items()}
    bodies["own-rule.md"] = f"The teapot answers to {OWN_TOKEN} today."
    bodies["gitleaks-rule.md"] = f"Fernhill: {GITLEAKS_TOKEN}"
    files = {
        name: memory(name, body=f"Notes.\n{body}\nMore notes.") for name, body in bodies.items()
    }
    files["MEMORY.md"] = index(*bodies) + f"- staging key {GITLEAKS_TOKEN}\n"
    return write_tree(tmp_path / "memory", files)


def _shown(text: str, audited: set[tuple[str, int | None, str]]) -> str:
    """The redacted secret at the end of an alert's text (a label has spaces too)."""
    return next((shown for _, _, shown in audited if text.endswith(f" {shown}")), text)


def test_each_rule_family_alerts_exactly_what_the_audit_reports(tmp_path: Path) -> None:
    options = _options(tmp_path)
    root = _tree(tmp_path)
    audited: set[tuple[str, int | None, str]] = {  # one finding a value: every place
        (path, line, MATCHED.search(f.message)["shown"])  # type: ignore[index]
        for f in findings(root, "secrets", options={"secrets": options})
        if not f.is_suggestion  # a suggestion never alerts (a seeded `.test` login's)
        for path, line in places(f)
    }
    scanner = secret_scanner(options)
    state = State(tmp_path / "state")
    alerted = set()
    for path in sorted(root.iterdir()):
        scan = scan_file(path, root, scanner, 1 << 20)
        assert scan is not None
        for alert in alerts_for(scan, state, scanner.false_positives):
            if alert.kind == "secret":  # "<path>:<line> <label> <shown>"
                place, _ = alert.text.split(" ", 1)
                line = int(place.rsplit(":", 1)[1])
                alerted.add((alert.path, line, _shown(alert.text, audited)))
    state.close()
    assert {path for path, _, _ in audited} >= {"own-rule.md", "gitleaks-rule.md", "MEMORY.md"}
    assert len({path for path, _, _ in audited}) > len(CASES) // 2  # the families are found
    assert alerted == audited


def test_a_value_two_rules_find_is_one_alert_and_a_mark_under_either_silences_it(
    tmp_path: Path,
) -> None:
    key = "Fk" + "Qm4Tz8Vb1Nc6Wd3Fg5Jh0Ks7Pl2Mn9Qx4Rz8Hd6"  # a look-alike
    body = f"Fernhill API Key: {key}\ncurl -H 'Authorization: Bearer {key}' https://x.test"
    root = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    options = Options(state_dir=str(tmp_path / "state"))
    [finding] = findings(root, "secrets", options={"secrets": options})
    scanner = secret_scanner(options)
    scan = scan_file(root / "a.md", root, scanner, 1 << 20)
    assert scan is not None
    state = State(tmp_path / "state")
    alerts = [a for a in alerts_for(scan, state, scanner.false_positives) if a.kind == "secret"]
    assert [a.text.split(" ", 1)[0] for a in alerts] == [f"a.md:{finding.line}"]
    salt = load_salt(tmp_path / "state")
    for rule in ("generic-assignment", "bearer-token"):
        assert alerts_for(scan, state, frozenset({fingerprint(rule, key, salt)})) == []
    state.close()


def test_a_value_marked_false_positive_alerts_for_no_file_name_holding_it(
    tmp_path: Path,
) -> None:
    # review saves the value's fingerprint: the audit then reports the name no more, and
    # the on-change alert must not either (it once looked only for the rule's fingerprint)
    token = "ghp_" + "Vq7Lm2Xc9Rt4Bn8Kd3Wz6Hs1P0aThf1Y2Ue9"  # a look-alike
    root = write_tree(
        tmp_path / "memory",
        {"a.md": memory("a", body=f"ci token: {token}"), f"{token}.md": memory("b")},
    )
    state_dir = tmp_path / "state"
    options = Options(state_dir=str(state_dir))
    assert {f.code for f in findings(root, "secrets", options={"secrets": options})} == {
        "possible-secret",
        "secret-in-name",
    }
    marked = value_fingerprint(token, load_salt(state_dir))
    false_positives_path(state_dir).write_text(
        FALSE_POSITIVES_HEADER + false_positive_row(marked, "github-pat", "a.md", "test")
    )
    assert findings(root, "secrets", options={"secrets": options}) == []
    scanner = secret_scanner(options)
    assert marked in scanner.false_positives
    state = State(state_dir)
    for path in (root / "a.md", root / f"{token}.md"):
        scan = scan_file(path, root, scanner, 1 << 20)
        assert scan is not None
        assert alerts_for(scan, state, scanner.false_positives) == []
    state.close()


def test_the_alert_skips_the_files_the_audit_never_reads(tmp_path: Path) -> None:
    # the same folders the audit's walk leaves out: a repository's database, a package
    # manager's at any depth, the top-level logs; a note of the tree's is scanned
    root = tmp_path / "memory"
    for skipped in (
        "skills/x/plugin/node_modules/openai/CHANGELOG.md",
        "tools/__pycache__/notes.md",
        ".git/COMMIT_EDITMSG",
        "logs/today.md",
        "notes/.git/config",
    ):
        assert relative_in_tree(root / skipped, root) is None, skipped
    assert relative_in_tree(root / "skills/x/notes.md", root) == "skills/x/notes.md"
    # a file that is no memory is read for secrets, as the audit does: no Markdown, hidden
    assert relative_in_tree(root / "notes.txt", root) == "notes.txt"
    assert relative_in_tree(root / ".obsidian/notes.md", root) == ".obsidian/notes.md"


def test_a_document_id_its_own_note_links_neither_alerts_nor_is_reported(
    tmp_path: Path,
) -> None:
    # a design note's Figma key and a Google document's id, each written again under a
    # label beside its link (round 108's held-out store; the second reader's split): the
    # scanner drops them, so the audit and the change alert agree; an unlinked key stays
    key, doc = "Qm7kLpX2rzW9aB3cD4eF5g", "1Qm7kLpX2rzW9aB3cD4eF5gH6jK8mN0pR"
    body = (
        f"- **URL**: https://www.figma.com/design/{key}/Main-Design\n- **File key**: `{key}`\n"
        f"- Spec: https://docs.google.com/document/d/{doc}/edit\n- **Doc token**: `{doc}`\n"
    )
    root = write_tree(
        tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)}
    )
    options = Options(state_dir=str(tmp_path / "state"))
    scanner = secret_scanner(options)
    state = State(tmp_path / "state")

    def alerted() -> list[str]:
        scan = scan_file(root / "a.md", root, scanner, 1 << 20)
        assert scan is not None
        return [a.text for a in alerts_for(scan, state, scanner.false_positives)]

    assert findings(root, "secrets", options={"secrets": options}) == []
    assert alerted() == []
    other = body.replace(f"design/{key}/", "design/Zz9yXw8vUt7sRq6pOn5mLk/")
    (root / "a.md").write_text(memory("a", body=other))
    [found] = findings(root, "secrets", options={"secrets": options})
    assert found.line == 7
    assert [text.split(" ", 1)[0] for text in alerted()] == ["a.md:7"]


def test_a_value_quiet_for_a_different_reason_at_each_place_alerts_as_the_audit_reports_it(
    tmp_path: Path,
) -> None:
    """A skill's page that gives a value as a seeded test login at one place and as its
    default at another: the audit needs one reason at every place (neither holds), so it is
    a problem; the alert took any reason at each place and stayed quiet."""
    body = (
        "## Seed\n- Seeded admin: `admin@fernshop.test` / `Harbor-Kq7w!2`\n\n"
        "## Setup\n- Default password: Harbor-Kq7w!2\n"
    )
    root = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a.md"), "a.md": memory("a"), "skills/pentest/SKILL.md": body},
    )
    options = Options(state_dir=str(tmp_path / "state"))
    scanner = secret_scanner(options)
    [found] = findings(root, "secrets", options={"secrets": options})
    assert (found.path, str(found.level)) == ("skills/pentest/SKILL.md", "problem")
    scan = scan_file(root / "skills/pentest/SKILL.md", root, scanner, 1 << 20)
    assert scan is not None
    alerts = alerts_for(scan, State(tmp_path / "alerts"), scanner.false_positives)
    assert [a.text.split(" ", 1)[0] for a in alerts] == ["skills/pentest/SKILL.md:2"]
    # one reason at both places (a seeded test login twice): a suggestion, and no alert
    both = body.replace("Default password:", "Seeded admin `ops@fernshop.test` /")
    (root / "skills/pentest/SKILL.md").write_text(both)
    levels = [str(f.level) for f in findings(root, "secrets", options={"secrets": options})]
    assert levels == ["suggestion"]
    scan = scan_file(root / "skills/pentest/SKILL.md", root, scanner, 1 << 20)
    assert scan is not None
    assert alerts_for(scan, State(tmp_path / "quiet"), scanner.false_positives) == []
