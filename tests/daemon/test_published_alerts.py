"""A secret the tree's repository publishes is a suggestion in the audit, and suggestions
never notify: the on-change scan raises no alert for it, and alerts exactly the problems."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for
from memory_audit.daemon.change_alerts import MAX_MATCHES_PER_FILE, _scan_all
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from memory_audit.tree.discovery import locate
from tests.harness import findings, index, memory
from tests.secrets.samples import CASES
from tests.support.git_repo import Repo

DEMO = "Bluefin42!x"  # a look-alike seed password
GITHUB = CASES["github-pat"][0][0][0]


def _alerted(root: Path, tmp_path: Path) -> list[tuple[str, str]]:
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    scans = _scan_all({root / "a.md", root / "b.md"}, root, scanner, 1 << 20)
    state = State(tmp_path / "state")
    return sorted((a.path, a.text) for s in scans for a in alerts_for(s, state, frozenset()))


def test_a_published_demo_login_raises_no_alert_a_published_token_does(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    repo.commit(
        "seed",
        {
            "README.md": "# Shop\n",
            "memory/MEMORY.md": index("a.md", "b.md"),
            "memory/a.md": memory("a", body=f"The demo login is demo/{DEMO} here."),
            "memory/b.md": memory("b", body=f"CI uses {GITHUB}"),
        },
    )
    root = repo.path / "memory"
    assert [path for path, _ in _alerted(root, tmp_path)] == ["a.md", "b.md"]
    repo.commit("docs", {"README.md": f"# Shop\nThe demo login is demo/{DEMO}.\nCI: {GITHUB}\n"})
    alerted = _alerted(root, tmp_path)
    assert [path for path, _ in alerted] == ["b.md"]
    assert "GitHub personal access token" in alerted[0][1]
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    audited = findings(root, "secrets", options=options, location=locate(root))
    assert sorted(f.path for f in audited if not f.is_suggestion) == ["b.md"]


def test_a_published_value_on_a_live_system_alerts_as_the_audit_reports_it(
    tmp_path: Path,
) -> None:
    # a published value the note places in production, or binds to another machine than
    # the developer's, is a problem in the audit: it alerts; a demo login the README hands
    # out stays a suggestion even in production: no alert
    repo = Repo(tmp_path / "shop")
    shown = "Harbor7?quay"  # a second look-alike: the live demo's login
    readme = f"# Shop\nTry the live demo: owner@shop.demo / {shown}\nops/{DEMO}\n"
    repo.commit(
        "seed",
        {
            "README.md": readme,
            "memory/MEMORY.md": index("a.md", "b.md"),
            "memory/a.md": memory("a", body=f"- Host: 192.168.7.21\n- Login: ops/{DEMO}"),
            "memory/b.md": memory(
                "b", body=f"Deployed to production.\n- **Demo login:** owner@shop.demo / {shown}"
            ),
        },
    )
    root = repo.path / "memory"
    assert [path for path, _ in _alerted(root, tmp_path)] == ["a.md"]
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    audited = findings(root, "secrets", options=options, location=locate(root))
    assert sorted((f.path, f.level) for f in audited) == [
        ("a.md", "problem"),
        ("b.md", "suggestion"),
    ]


def _published_tree(tmp_path: Path, a: str, b: str) -> Path:
    """A repository whose seed file publishes DEMO, keeping memory ``a.md`` and ``b.md``."""
    repo = Repo(tmp_path / "shop")
    repo.commit(
        "seed",
        {
            "tools/seed.yml": f"users:\n  - login: ops\n    password: {DEMO}\n",
            "memory/MEMORY.md": index("a.md", "b.md"),
            "memory/a.md": memory("a", body=a),
            "memory/b.md": memory("b", body=b),
        },
    )
    return repo.path / "memory"


def _audited_levels(root: Path, tmp_path: Path) -> list[str | None]:
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    return [f.level for f in findings(root, "secrets", options=options, location=locate(root))]


def test_a_published_test_account_s_login_raises_no_alert_in_a_production_note(
    tmp_path: Path,
) -> None:
    # the audit's suggestion, the alert's silence: a line labelling the login a test
    # account's, in a note that speaks of production elsewhere; an operator's line alerts
    opening = "Promoted to production last week.\n\n## Accounts\n"
    root = _published_tree(
        tmp_path, opening + f"- **ops test account:** ops / {DEMO}", "Nothing here."
    )
    assert _alerted(root, tmp_path) == []
    assert _audited_levels(root, tmp_path) == ["suggestion"]
    live = _published_tree(
        tmp_path / "live", opening + f"- **ops account:** ops / {DEMO}", "Nothing here."
    )
    assert [path for path, _ in _alerted(live, tmp_path / "live")] == ["a.md"]
    assert _audited_levels(live, tmp_path / "live") == ["problem"]
    # the second reader's: the label answers production named elsewhere only; a server the
    # note binds the login to, or another note's production heading over the same value,
    # alert as the audit reports them
    hosted = _published_tree(
        tmp_path / "hosted",
        opening + f"- **ops test account:** ops / {DEMO} on https://abcd.supabase.co",
        "Nothing here.",
    )
    assert [path for path, _ in _alerted(hosted, tmp_path / "hosted")] == ["a.md"]
    assert _audited_levels(hosted, tmp_path / "hosted") == ["problem"]
    both = _published_tree(
        tmp_path / "both",
        opening + f"- **ops test account:** ops / {DEMO}",
        f"# Production\n- **ops admin:** ops / {DEMO}",
    )
    assert [path for path, _ in _alerted(both, tmp_path / "both")] == ["a.md", "b.md"]
    assert _audited_levels(both, tmp_path / "both") == ["problem"]


def test_every_place_of_a_published_value_in_a_file_is_read_at_its_own_line(
    tmp_path: Path,
) -> None:
    # the value bound to a server at its first place and written again in a local section:
    # any place that binds it makes it a problem, in the audit and the alert alike
    note = f"## GPU box\n- Host: 192.168.7.21\n- Login: ops/{DEMO}\n\n## Local\n- Login: ops/{DEMO}"
    root = _published_tree(tmp_path / "both", note, "Nothing here.")
    assert _audited_levels(root, tmp_path / "both") == ["problem"]
    assert [path for path, _ in _alerted(root, tmp_path / "both")] == ["a.md"]
    # the local place first: the server's place, read second, binds it all the same
    note = f"## Local\n- Login: ops/{DEMO}\n\n## GPU box\n- Host: 192.168.7.21\n- Login: ops/{DEMO}"
    root = _published_tree(tmp_path / "second", note, "Nothing here.")
    assert _audited_levels(root, tmp_path / "second") == ["problem"]
    assert [path for path, _ in _alerted(root, tmp_path / "second")] == ["a.md"]


def test_a_value_two_rules_find_is_decided_once_in_the_alert_as_in_the_audit(
    tmp_path: Path,
) -> None:
    # a password written once after a label in a local section, once as a variable beside its
    # server: one value, one finding; the server's place makes it a problem whatever rule
    # found it there
    note = f"password: {DEMO}\n\n## GPU box\n- Host: 192.168.7.21\n- DB_PASSWORD={DEMO}"
    root = _published_tree(tmp_path, note, "Nothing here.")
    assert _audited_levels(root, tmp_path) == ["problem"]
    assert [path for path, _ in _alerted(root, tmp_path)] == ["a.md"]


def test_a_demo_login_only_a_seed_publishes_alerts_on_a_server(tmp_path: Path) -> None:
    # only a README hands a demo login out: a seed file's demo login on a server is live
    note = f"- Host: 192.168.7.21\n- **Demo login:** ops/{DEMO}"
    root = _published_tree(tmp_path, note, "Nothing here.")
    assert _audited_levels(root, tmp_path) == ["problem"]
    assert [path for path, _ in _alerted(root, tmp_path)] == ["a.md"]


def test_a_repeat_of_a_published_value_is_read_at_its_own_line(tmp_path: Path) -> None:
    # a bare repeat in another file is read at its own line there, not at the line of the
    # value's first place: a host on that line number of the other file binds nothing
    local = f"Dev box on localhost\n- Login: ops/{DEMO}"
    repeat = f"Notes\n- Host: 192.168.7.21\n\nReset the seed to {DEMO} again"
    root = _published_tree(tmp_path, local, repeat)
    assert _audited_levels(root, tmp_path) == ["suggestion"]
    assert _alerted(root, tmp_path) == []


def test_the_warning_for_a_file_of_many_secrets_masks_a_secret_in_its_name(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text(index(f"key_{GITHUB}.md"))
    body = "\n".join(f"- **Password:** `Harb{n:04d}#quay`" for n in range(MAX_MATCHES_PER_FILE + 1))
    (root / f"key_{GITHUB}.md").write_text(memory("k", body=f"## Passwords\n{body}"))
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state")))
    with caplog.at_level(logging.WARNING):
        [scan] = _scan_all({root / f"key_{GITHUB}.md"}, root, scanner, 1 << 20)
    assert len(scan.matches) == MAX_MATCHES_PER_FILE
    assert "possible secrets; the first" in caplog.text
    assert GITHUB not in caplog.text
