"""An agent's workspace named on the command line whose root keeps no MEMORY.md: its
``memory/`` is the tree, and the documents at its root (TOOLS.md, USER.md: where people
note their keys) are audited beside it, for secrets only (on held-out trees, 21 real
credentials sat there unseen in three rounds)."""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys
from pathlib import Path

from memory_audit.commands.precommit import trees_of
from memory_audit.tree.discovery import trees_for_path
from tests.e2e.test_bad_file_isolation import cli
from tests.harness import index, memory, write_tree
from tests.support.daemon_process import Home
from tests.support.github_tokens import github_token
from tests.support.terminal import Terminal

_rng = random.Random(1205)
ALNUM = string.ascii_letters + string.digits


def _token() -> str:
    return github_token("ghp_", "".join(_rng.choice(ALNUM) for _ in range(36)))


IN_TOOLS, IN_USER, IN_NOTE, IN_SKILL = _token(), _token(), _token(), _token()


def workspace(base: Path, *, persona: bool = True) -> Path:
    files = {
        "AGENTS.md": "# Agents\n\nRead SOUL.md and USER.md first.\n",
        "TOOLS.md": f"# Tools\n\n## GitHub\n- token: `{IN_TOOLS}`\n",
        "USER.md": f"# User\n\nBackup access for the bot: {IN_USER}\n",
        "README.md": "# My assistant\n",
        "memory/MEMORY.md": index("2026-04-01.md"),
        "memory/2026-04-01.md": memory("2026-04-01", body=f"Pushed with {IN_NOTE} today."),
        # a folder at the root is neither the documents nor the memory tree
        "skills/deploy/SKILL.md": f"# Deploy\n\nUses {IN_SKILL}.\n",
    }
    if persona:
        files["SOUL.md"] = "# Soul\n\nCalm and exact.\n"
    return write_tree(base / "ws", files)


def secrets_by_tree(
    result: subprocess.CompletedProcess[str],
) -> dict[tuple[str, bool], list[tuple[str, int]]]:
    reports = json.loads(result.stdout)["reports"]
    return {
        (r["root"], r["documents"]): sorted(
            (f["path"], f["line"]) for f in r["findings"] if f["dimension"] == "secrets"
        )
        for r in reports
    }


def test_a_workspace_root_brings_its_documents_for_secrets_only(tmp_path: Path) -> None:
    home, ws = Home(tmp_path / "home"), workspace(tmp_path)
    result = cli(home, "audit", str(ws), "--format", "json")
    assert result.returncode == 1, result.stderr
    assert secrets_by_tree(result) == {
        (f"{ws}/memory", False): [("2026-04-01.md", 6)],
        # each token once, in its own tree; the skill's folder is neither
        (str(ws), True): [("TOOLS.md", 4), ("USER.md", 3)],
    }
    documents = json.loads(result.stdout)["reports"][1]
    assert documents["checks"] == ["secrets"]
    assert {f["dimension"] for f in documents["findings"]} == {"secrets"}
    assert documents["files_scanned"]["memory"] == 5  # every document, AGENTS.md and README.md too
    assert documents["not_memories"] == []
    for secret in (IN_TOOLS, IN_USER, IN_NOTE, IN_SKILL):
        assert secret not in result.stdout
    text = cli(home, "audit", str(ws)).stdout
    assert f"Memory audit: {ws}/ (documents beside memory/, secrets only)" in text
    assert "Files scanned: 5 documents beside memory/ (its own tree); secrets only" in text


def test_the_documents_come_only_when_the_secret_rules_run_and_the_root_is_named(
    tmp_path: Path,
) -> None:
    home, ws = Home(tmp_path / "home"), workspace(tmp_path)
    drift = cli(home, "audit", str(ws), "--check", "index-drift", "--format", "json")
    assert [r["root"] for r in json.loads(drift.stdout)["reports"]] == [f"{ws}/memory"]
    # the memory folder named itself is that folder alone
    alone = cli(home, "audit", str(ws / "memory"), "--format", "json")
    assert list(secrets_by_tree(alone)) == [(f"{ws}/memory", False)]
    # without a persona's file, a TOOLS.md and an AGENTS.md make no agent's workspace
    plain = workspace(tmp_path / "plain", persona=False)
    assert [ref.documents for ref in trees_for_path(plain)] == [False]
    # a root that keeps a MEMORY.md is the tree itself, documents and memory/ in one
    (ws / "MEMORY.md").write_text(index("TOOLS.md"))
    assert [(ref.root, ref.documents) for ref in trees_for_path(ws)] == [(ws, False)]


def test_review_redacts_a_documents_secret_and_leaves_the_rest(tmp_path: Path) -> None:
    home, ws = Home(tmp_path / "home"), workspace(tmp_path)
    (ws / "memory" / "2026-04-01.md").write_text(memory("2026-04-01", body="Quiet day."))
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file() and p.name != "TOOLS.md"}
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "review", str(ws)],
        {**home.env(), "TERM": "dumb", "EDITOR": "true"},
    )
    seen = []
    for _ in range(20):  # every question: redact the token in TOOLS.md, skip the rest
        screen = term.expect("[q]uit: ")
        seen.append(screen)
        if "TOOLS.md" in screen and "secret" in screen.lower():
            term.send("a")
            break
        term.send("s")
        term.expect("[n]o: ")
        term.send("n")
    else:
        raise AssertionError("the documents' secret was never offered")
    term.expect("Applied:")
    term.expect("[q]uit: ")
    term.send("q")
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    tools = (ws / "TOOLS.md").read_text()
    assert IN_TOOLS not in tools
    assert "- token: `" in tools
    assert all(IN_TOOLS not in screen for screen in seen)
    assert {p: p.read_bytes() for p in before} == before  # USER.md still waits its turn
    # the journal of the documents holds the root's own files, never memory/ or skills/
    history = cli(home, "history", str(ws))
    assert history.returncode == 0, history.stderr
    assert "TOOLS.md" in history.stdout
    assert "skills/deploy" not in history.stdout
    assert "memory/2026-04-01.md" not in history.stdout


def test_pre_commit_of_a_workspace_document_scans_it(tmp_path: Path) -> None:
    # the documents are where the commits that published these credentials put them
    home, ws = Home(tmp_path / "home"), workspace(tmp_path)
    assert trees_of([str(ws / "TOOLS.md"), str(ws / "memory" / "2026-04-01.md")]) == [
        ws,
        ws / "memory",
    ]
    assert trees_of([str(ws / "skills" / "deploy" / "SKILL.md")]) == []
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", "pre-commit", "--check", "secrets", "TOOLS.md"],
        cwd=ws,
        capture_output=True,
        text=True,
        env=home.env(),
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert "TOOLS.md:4" in result.stdout
    assert "USER.md:3" in result.stdout
    assert result.stdout.count("2026-04-01.md:6") == 1  # its memory/ once, not twice
    assert IN_TOOLS not in result.stdout
    plain = workspace(tmp_path / "plain", persona=False)
    assert trees_of([str(plain / "TOOLS.md")]) == []


def test_the_documents_say_what_they_could_not_scan_and_take_a_linked_workspace(
    tmp_path: Path,
) -> None:
    # the second reader's cases: a TOOLS.md linked out of the workspace was skipped with
    # "clean"; a workspace reached through a link stopped review; a report in a folder of
    # the workspace was refused though no tree holds it
    home, ws = Home(tmp_path / "home"), workspace(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "TOOLS.md").write_text(f"token: {IN_SKILL}\n")
    (ws / "TOOLS.md").unlink()
    (ws / "TOOLS.md").symlink_to(outside / "TOOLS.md")
    result = cli(home, "audit", str(ws), "--check", "secrets", "--format", "json")
    documents = json.loads(result.stdout)["reports"][1]
    assert documents["documents"] is True
    [(path, reason)] = [(n["path"], n["reason"]) for n in documents["not_memories"]]
    assert path == "TOOLS.md"
    assert reason.endswith("; not scanned")
    assert IN_SKILL not in result.stdout
    text = cli(home, "audit", str(ws), "--check", "secrets").stdout
    assert "TOOLS.md" in text
    link = tmp_path / "wslink"
    link.symlink_to(ws, target_is_directory=True)
    assert [(r.root, r.documents) for r in trees_for_path(link)] == [
        (link / "memory", False),
        (ws, True),
    ]
    (ws / "reports").mkdir()
    kept = cli(home, "audit", str(ws), "-o", str(ws / "reports" / "audit.json"))
    assert kept.returncode == 1, kept.stderr  # the findings' exit code: written
    assert (ws / "reports" / "audit.json").is_file()
    refused = cli(home, "audit", str(ws), "-o", str(ws / "REPORT.md"))
    assert refused.returncode == 2
    assert "refusing to write the report inside" in refused.stderr
