"""The daemon's on-change scan and the audit's ``secrets`` check share their rules and their
value classifier: on the same files they find the same secrets."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for, scan_file
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from tests.harness import findings, index, memory, write_tree
from tests.secrets.samples import FLAGGED_NON_SECRETS, MISSED_CREDENTIALS


def test_the_on_change_scan_and_the_audit_agree_on_credentials_as_people_write_them(
    tmp_path: Path, tree_dir: Path
) -> None:
    lines = {name: line for name, (line, _) in MISSED_CREDENTIALS.items()} | FLAGGED_NON_SECRETS
    files = {name: memory(name[:-3], body=f"Notes.\n{line}") for name, line in lines.items()}
    write_tree(tree_dir, {"MEMORY.md": index(*lines), **files})
    state_dir = tmp_path / "state"  # one salt: the same secret, the same fingerprint
    audit = findings(tree_dir, "secrets", options={"secrets": Options(state_dir=str(state_dir))})
    audited = {(f.path, f.line, (f.fix or {})["fingerprint"]) for f in audit}

    scanner = secret_scanner(Options(state_dir=str(state_dir)))  # as the daemon builds it
    state = State(tmp_path / "daemon-state")
    alerted: set[tuple[str, int, str]] = set()
    for path in sorted(tree_dir.glob("*.md")):
        scan = scan_file(path, tree_dir, scanner, 1 << 20)
        assert scan is not None
        alerts = alerts_for(scan, state, scanner.false_positives)
        assert [a.text.split(" ", 1)[0] for a in alerts] == [
            f"{scan.rel}:{m.line}" for m in scan.matches
        ]
        alerted |= {(scan.rel, m.line, m.fingerprint) for m in scan.matches}
    state.close()
    assert alerted == audited
    assert sorted(path for path, _, _ in alerted) == sorted(MISSED_CREDENTIALS)
