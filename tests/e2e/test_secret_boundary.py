"""A token planted anywhere in a tree reaches no output: the redaction boundary, end to end.

One tree holds a distinct token in each place a check quotes from (a
``description``, an index hook, a ``type:`` value, a link target, a wikilink
and the body of a private key laid out like paths). Every output format, the
service's run folder and state database, the session hook and the ``review``
screen (through "view detail") are collected once, then searched for each
token and for any 13-character piece of it.
"""

from __future__ import annotations

import json
import random
import sqlite3
import string
import subprocess
import sys
from pathlib import Path

import pytest

from memory_audit.tree.discovery import slugify
from tests.harness import memory, write_tree
from tests.support.daemon_process import DaemonProcess, Home
from tests.support.github_tokens import github_token
from tests.support.terminal import Terminal

pytestmark = pytest.mark.slow  # one world built for all, in seconds

FORMATS = ("text", "markdown", "json", "html", "sarif", "github")
_rng = random.Random(1130)
ALNUM = string.ascii_letters + string.digits


def _token() -> str:
    return github_token("ghp_", "".join(_rng.choice(ALNUM) for _ in range(36)))


def _pem_line() -> str:
    # Base64 with slashes: stale-refs used to take a line like this for a missing file.
    pieces = ["".join(_rng.choice(ALNUM) for _ in range(15)) for _ in range(4)]
    return "/".join(pieces) + "Q"


TOKENS = {p: _token() for p in ("description", "hook", "type", "link", "wikilink")}
PEM_BODY = [_pem_line() for _ in range(4)]
PLANTED = {**TOKENS, "pem-body": "\n".join(PEM_BODY)}


def fragments(secret: str) -> list[str]:
    """Every line of the secret, and every 13-character piece of it (a partial leak)."""
    pieces = [line for line in secret.split("\n") if line]
    return pieces + [p[i : i + 13] for p in pieces for i in range(0, len(p) - 12, 6)]


def plant(home: Home, project: Path) -> Path:
    pem = "\n".join(["-----BEGIN RSA PRIVATE KEY-----", *PEM_BODY, "-----END RSA PRIVATE KEY-----"])
    index = (
        "# Index\n"
        f"- [Deploy](deploy.md) — deploy with {TOKENS['hook']} when CI is red\n"
        f"- [Old]({TOKENS['link']}.md) — removed\n"
        f"- [[{TOKENS['wikilink']}]] — the CI page\n"
    )
    deploy = memory(
        "deploy",
        body=f"How we deploy.\n\nSee [[{TOKENS['wikilink']}]].\n\n{pem}\n",
        description=f"deploy {TOKENS['description']}",
        type=TOKENS["type"],
    )
    tree = home.projects / slugify(project) / "memory"
    return write_tree(tree, {"MEMORY.md": index, "deploy.md": deploy})


def cli(home: Home, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=home.env(),
        timeout=120,
    )


def review_screen(home: Home, tree: Path, findings: int) -> str:
    """Every finding of the review: "view detail", then skip without remembering."""
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "review", str(tree)],
        {**home.env(), "TERM": "dumb", "EDITOR": "true"},
    )
    for _ in range(findings):
        term.expect("[q]uit: ")
        term.send("v")
        term.expect("[q]uit: ")
        term.send("s")
        term.expect("[n]o: ")
        term.send("n")
    term.expect("findings remain.")
    assert term.wait() == 0
    return term.output


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    base = tmp_path_factory.mktemp("boundary")
    home = Home(base / "home")
    project = base / "work" / "app"
    (project / "src").mkdir(parents=True)
    tree = plant(home, project)
    found: dict[str, str] = {}
    for fmt in FORMATS:
        out = base / f"report.{fmt}"
        result = cli(home, "audit", "--format", fmt, "-o", str(out), str(tree))
        assert result.returncode == 1, result.stderr
        found[f"audit {fmt}"] = result.stdout + result.stderr + out.read_text()
    code, stdout, stderr = DaemonProcess(home, home.config(timeout=1)).start("--once").finish(60)
    assert code == 0, stderr
    found["daemon output"] = stdout + stderr
    stored = (home.reports, home.state)
    for path in sorted(
        p for d in stored for p in d.rglob("*") if p.is_file() and p.suffix != ".db"
    ):
        found[f"file {path.relative_to(home.root)}"] = path.read_bytes().decode("latin-1")
    with sqlite3.connect(home.state / "state.db") as db:
        found["state .dump"] = "\n".join(db.iterdump())
    hook = cli(home, "hook", "session-start", stdin=json.dumps({"cwd": str(project / "src")}))
    found["hook"] = hook.stdout + hook.stderr
    assert "finding(s) pending" in found["hook"]
    report = json.loads((base / "report.json").read_text())
    found["review"] = review_screen(home, tree, len(report["reports"][0]["findings"]))
    return found


@pytest.mark.parametrize("where", sorted(PLANTED))
def test_a_planted_secret_reaches_no_output(outputs: dict[str, str], where: str) -> None:
    leaks = [
        (name, piece)
        for name, text in outputs.items()
        for piece in fragments(PLANTED[where])
        if piece in text
    ]
    assert leaks == []


def test_view_detail_shows_each_private_key_line_masked(outputs: dict[str, str]) -> None:
    for line in PEM_BODY:
        assert f" | {line[:4]}...{line[-4:]}\n" in outputs["review"]
