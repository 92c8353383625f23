"""The service's budget alert follows Claude Code's own cut (tree.load_budget)."""

from __future__ import annotations

from pathlib import Path

from memory_audit.daemon.alerts import alerts_for, scan_file
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.store.state import State
from memory_audit.tree.discovery import locate
from tests.harness import findings, write_tree
from tests.support.git_repo import Repo


def index_of(count: int, hook: str) -> str:
    return "".join(f"- [N{i}](n{i}.md) — {hook}\n" for i in range(count))


def test_budget_alert_once_when_the_index_starts_being_cut(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {"MEMORY.md": index_of(230, "when it matters")})
    state = State(tmp_path / "state")
    scanner = secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))
    scan = scan_file(root / "MEMORY.md", root, scanner, 1024 * 1024)
    assert scan is not None
    [alert] = alerts_for(scan, state, frozenset())
    assert alert.kind == "budget"
    assert "MEMORY.md is 230 lines" in alert.text
    assert "sessions see only its first 200 lines" in alert.text
    assert alerts_for(scan, state, frozenset()) == []  # once per crossing


def test_no_budget_alert_for_a_cjk_index_under_25000_characters(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {"MEMORY.md": index_of(60, "日本語のメモを読む" * 20)})
    assert (root / "MEMORY.md").stat().st_size > 25_000  # bytes: the old measure alerted
    state = State(tmp_path / "state")
    scan = scan_file(
        root / "MEMORY.md",
        root,
        secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state"))),
        1 << 20,
    )
    assert scan is not None
    assert alerts_for(scan, state, frozenset()) == []


def test_no_budget_alert_for_an_index_the_project_imports_in_full(tmp_path: Path) -> None:
    """The audit reports no cut for an index the project's CLAUDE.md imports (it loads in
    full): the service agrees, and still alerts for the same index when nothing imports it."""
    repo = Repo(tmp_path / "shop")
    repo.commit("index", {"README.md": "# Shop\n", ".claude/memory/MEMORY.md": index_of(230, "x")})
    root = repo.path / ".claude" / "memory"

    def budget_alerts() -> list[str]:
        scanner = secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))
        scans = _scan_all({root / "MEMORY.md"}, root, scanner, 1 << 20)
        state = State(tmp_path / "state")
        return [a.kind for s in scans for a in alerts_for(s, state, frozenset())]

    assert budget_alerts() == ["budget"]
    (tmp_path / "state").rename(tmp_path / "state-before")  # the crossing is new again
    repo.commit("import", {"CLAUDE.md": "# Shop\n\n@.claude/memory/MEMORY.md\n"})
    assert budget_alerts() == []
    audited = findings(root, "index-budget", location=locate(root))
    assert not [f for f in audited if f.code in {"over-budget", "invisible-entry"}]


def test_no_budget_alert_for_an_index_that_tells_sessions_to_read_it_first(
    tmp_path: Path,
) -> None:
    """The audit reports no cut for an index whose own first lines say to read it at the
    start of every session: the service agrees, and alerts once the line is gone."""
    root = tmp_path / "memory"

    def budget_alerts(text: str) -> list[str]:
        write_tree(root, {"MEMORY.md": text})
        state = tmp_path / f"state-{len(text)}"  # each crossing new
        scanner = secret_scanner(ScannerConfig(state_dir=str(state)))
        scans = _scan_all({root / "MEMORY.md"}, root, scanner, 1 << 20)
        alerted = State(state)
        try:
            return [a.kind for s in scans for a in alerts_for(s, alerted, frozenset())]
        finally:
            alerted.close()

    said = "# Notes\n> Read this whole file at the start of every session.\n" + index_of(230, "x")
    assert budget_alerts(said) == []
    assert not [f for f in findings(root, "index-budget") if f.code == "over-budget"]
    assert budget_alerts(said.replace("Read this whole file", "Keep this file short")) == ["budget"]
