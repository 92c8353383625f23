"""A value a file records as no longer valid (or a test password by its own words) is a
suggestion in the audit, and suggestions never notify: the on-change scan raises no alert
for it, and alerts the value in use."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from tests.harness import findings, index, memory, write_tree

OLD = "Harbor-Kite-2291!"  # look-alikes
NEW = "Quill%Marsh-7743"


def _alerted(tree: Path, tmp_path: Path) -> list[str]:
    """The files the on-change scan of ``a.md`` and ``b.md`` alerts for."""
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    scans = _scan_all({tree / "a.md", tree / "b.md"}, tree, scanner, 1 << 20)
    state = State(tmp_path / "state")
    return sorted(a.path for s in scans for a in alerts_for(s, state, frozenset()))


def test_no_alert_for_a_value_the_file_records_as_revoked(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory(
                "a", body=f"Notes.\nThe shared DB password was `{OLD}` (rotated out).\n"
            ),
            "b.md": memory("b", body=f"More.\nThe shared DB password is `{NEW}` now.\n"),
        },
    )
    assert _alerted(tree, tmp_path) == ["b.md"]


def test_no_alert_for_a_note_whose_banner_retires_its_system(tmp_path: Path) -> None:
    # the audit's suggestion and the alert's silence agree: a note kept for the history of
    # a retired site raises nothing; a banner naming the site live does not retire it
    retired = "> ⚠️ **[LEGACY]** Notes of the old booking site, retired in 2026/04."
    live = "> **[LEGACY]** The old booking site, still live for the archive."
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"{retired}\n\nThe sync password is `{OLD}`.\n"),
            "b.md": memory("b", body=f"{live}\n\nThe sync password is `{NEW}`.\n"),
        },
    )
    assert _alerted(tree, tmp_path) == ["b.md"]


def test_no_alert_for_a_test_account_s_password_by_its_own_words(tmp_path: Path) -> None:
    # `Test1234!` for the seeded local users is a suggestion in the audit: no alert; a
    # chosen password beside the same words alerts
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body="Seeded users on localhost (all password: `Test1234!`).\n"),
            "b.md": memory("b", body=f"Seeded users on localhost (all password: `{NEW}`).\n"),
        },
    )
    assert _alerted(tree, tmp_path) == ["b.md"]


def test_no_alert_for_a_key_sent_only_to_a_server_on_this_machine(tmp_path: Path) -> None:
    # a local dev server's key, sent to 127.0.0.1 only, is a suggestion in the audit: no
    # alert; the same key sent to a deployed server too alerts, as does a chosen password
    # beside a local app's address (look-alikes)
    key = "Qm7RvT2xK9pLw4Zc8Hn3Fb6Yd1Sj5Ge0"
    local = (
        "### Local dev server\n\n```bash\ncurl http://127.0.0.1:8001/health \\\n"
        f'  -H "X-API-Key: {key}"\n```\n'
    )
    deployed = local.replace("127.0.0.1:8001", "fern-api.fly.dev")
    # a password a person chose, beside a local app's address, alerts too
    chosen = f"\n## Apps\n- Fern Ground: http://localhost:3000 (password: `{NEW}`)\n"
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=local),
            "b.md": memory("b", body=deployed.replace(key, key[::-1]) + chosen),
        },
    )
    assert _alerted(tree, tmp_path) == ["b.md", "b.md"]


def test_a_key_sent_to_this_machine_only_from_another_file_alerts(tmp_path: Path) -> None:
    # the second reader's: the audit reads every file, the alert one; a file that only
    # restates the key, never sending it to 127.0.0.1 itself, is a problem in both
    key = "Qm7RvT2xK9pLw4Zc8Hn3Fb6Yd1Sj5Ge0"
    local = (
        "### Local dev server\n\n```bash\ncurl http://127.0.0.1:8001/health \\\n"
        f'  -H "X-API-Key: {key}"\n```\n'
    )
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=local),
            "b.md": memory("b", body=f"## Rules\n- Always send `X-API-Key: {key}`\n"),
        },
    )
    assert _alerted(tree, tmp_path) == ["b.md"]
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    [found] = findings(tree, "secrets", options=options)
    assert str(found.level) == "problem"
