"""A password a skill's own documentation gives as its default is a suggestion in the
audit, and suggestions never notify: the on-change scan raises no alert for it, and alerts
a value the same page gives under no default's label."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from tests.checks.test_secrets_skill_defaults import CHOSEN, DEFAULT, PAGE
from tests.harness import write_tree


def test_no_alert_for_a_skill_s_documented_default(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "ws",
        {
            "SOUL.md": "# Soul\n",
            "TOOLS.md": "# Tools\n",
            "skills/stockmon/API.md": PAGE + DEFAULT,
            "skills/other/API.md": PAGE + CHOSEN,
        },
    )
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    files = {tree / "skills/stockmon/API.md", tree / "skills/other/API.md"}
    scans = _scan_all(files, tree, scanner, 1 << 20)
    state = State(tmp_path / "state")
    alerted = sorted(a.path for s in scans for a in alerts_for(s, state, frozenset()))
    assert alerted == ["skills/other/API.md"]
