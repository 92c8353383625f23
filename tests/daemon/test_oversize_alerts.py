"""The on-change alert reads the secrets of a memory too large to read whole, as the audit
does (tests/checks/test_secrets_oversize.py)."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from tests.checks.test_secrets_oversize import _log_tree


def test_the_on_change_alert_reads_a_memory_too_large_to_read_whole(tmp_path: Path) -> None:
    tree = _log_tree(tmp_path)
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    scans = _scan_all({tree / "log.md"}, tree, scanner, 1 << 20)
    state = State(tmp_path / "state")
    assert [a.path for s in scans for a in alerts_for(s, state, frozenset())] == ["log.md"]
