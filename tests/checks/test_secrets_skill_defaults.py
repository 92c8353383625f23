"""A password a skill's own documentation gives as its default (``skills/<name>/...``) is a
suggestion; the same words in the user's own notes, a value the skill's page does not call
a default, or one a note of the user's memory also holds stay problems."""

from __future__ import annotations

import random
import string
from pathlib import Path

from memory_audit.checks.secrets import Options
from memory_audit.daemon.alerts import alerts_for
from memory_audit.daemon.change_alerts import _scan_all
from memory_audit.secrets.loading import secret_scanner
from memory_audit.store.state import State
from tests.harness import findings, write_tree
from tests.support.github_tokens import github_token

PAGE = "# Stock monitor\n\n- **Base URL**: `http://localhost:5000/api`\n"
DEFAULT = "- **Auth**: login required (默认密码：fernstock2024)\n"
ACCOUNT = "**默认账号**:\n- 用户名: admin\n- 密码: Kq7vT9zWm\n"
CHOSEN = "- **Auth**: login required (password: Hx4-rNp8Lw)\n"


def _found(tmp_path: Path, files: dict[str, str]) -> dict[str, tuple[str, str]]:
    tree = write_tree(tmp_path / "ws", {"SOUL.md": "# Soul\n", "TOOLS.md": "# Tools\n", **files})
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    return {f.path: (str(f.level), f.message) for f in findings(tree, "secrets", options=options)}


def test_a_skill_s_documented_default_is_a_suggestion_naming_the_skill(tmp_path: Path) -> None:
    found = _found(
        tmp_path,
        {
            "skills/stockmon/references/API.md": PAGE + DEFAULT,
            "skills/stockmon/SUMMARY.md": PAGE + ACCOUNT,
        },
    )
    assert {path: level for path, (level, _) in found.items()} == {
        "skills/stockmon/references/API.md": "suggestion",
        "skills/stockmon/SUMMARY.md": "suggestion",
    }
    said = found["skills/stockmon/SUMMARY.md"][1]
    assert said.endswith("; the documentation of the skill stockmon gives it as its default")


def test_what_is_no_skill_s_default_stays_a_problem(tmp_path: Path) -> None:
    found = _found(
        tmp_path,
        {
            # a skill's page that calls no value a default
            "skills/stockmon/references/API.md": PAGE + CHOSEN,
            # the same words in the user's own notes: the router's default, still in use
            "memory/2026-03-09.md": "# Router\n" + DEFAULT,
        },
    )
    assert {path: level for path, (level, _) in found.items()} == {
        "skills/stockmon/references/API.md": "problem",
        "memory/2026-03-09.md": "problem",
    }


def test_a_default_the_user_s_notes_hold_too_stays_a_problem(tmp_path: Path) -> None:
    found = _found(
        tmp_path,
        {
            "skills/stockmon/references/API.md": PAGE + DEFAULT,
            "memory/2026-03-09.md": "# Setup\n- stock monitor login: fernstock2024\n",
        },
    )
    assert [level for level, _ in found.values()] == ["problem"]


def test_a_key_in_a_skill_s_folder_stays_a_problem_whatever_the_words(tmp_path: Path) -> None:
    # the second reader's cases: an issuer's token is a key wherever it is, and "default"
    # that names no account (a model) calls no password the default
    deck = random.Random(20261205)
    token = github_token("ghp_", "".join(deck.choices(string.ascii_letters + string.digits, k=36)))
    found = _found(
        tmp_path,
        {
            "skills/nas/SKILL.md": f"# NAS\n\nUses the default model.\nGITHUB_TOKEN={token}\n",
            "skills/box/SKILL.md": "# Box\n\nUses the default model.\n- password: Vx7#qLm2Rt9p\n",
        },
    )
    assert {path: level for path, (level, _) in found.items()} == {
        "skills/nas/SKILL.md": "problem",
        "skills/box/SKILL.md": "problem",
    }


def test_an_alert_for_a_default_the_file_also_gives_as_a_plain_password(tmp_path: Path) -> None:
    # the audit asks every place: a value given again under another label is a problem,
    # and the on-change scan agrees (it alerted for none before)
    tree = write_tree(
        tmp_path / "ws",
        {
            "SOUL.md": "# Soul\n",
            "skills/router/SKILL.md": PAGE
            + "- Default login: admin / Rt7vQ9zWmK2p\n\n## Notes\n\nuses password: Rt7vQ9zWmK2p\n",
        },
    )
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    assert [str(f.level) for f in findings(tree, "secrets", options=options)] == ["problem"]
    scanner = secret_scanner(Options(state_dir=str(tmp_path / "state2")))
    scans = _scan_all({tree / "skills/router/SKILL.md"}, tree, scanner, 1 << 20)
    state = State(tmp_path / "state2")
    alerted = [a.path for s in scans for a in alerts_for(s, state, frozenset())]
    assert alerted == ["skills/router/SKILL.md"]
