"""Names are text: a secret in a file name, a folder name, the project folder sessions ran
in (the transcripts' ``cwd``, whose slug holds the token with "_" as "-", or verbatim) or a
symlink's target reaches no output, stored file or log.

One home holds trees with each of them. Every ``audit --format``, ``loaded`` (text and
JSON), ``projects`` (text and JSON), ``audit --project`` with the slug as shown, the session
hook, ``pre-commit``, the service's ``--once`` runs (run folders, state database, log), the
running service (its log, alerts, the journal), ``review`` (viewing, and applying a fix),
``changelog``, ``restore``, ``history`` (and ``--purge``), ``status``, ``doctor``,
``dismiss --list`` and ``report list`` are collected once, with every file the service and
the commands stored, then searched for each secret and every 13-character piece of it.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import string
import subprocess
import sys
from pathlib import Path

import pytest

from memory_audit.tree.discovery import slugify
from tests.e2e.test_secret_boundary import ALNUM, FORMATS, review_screen
from tests.harness import index, memory, write_tree
from tests.support.daemon_process import DaemonProcess, Home, wait_for
from tests.support.github_tokens import github_token
from tests.support.terminal import Terminal

pytestmark = pytest.mark.slow  # one world built for all, in seconds

_rng = random.Random(1201)


def _token() -> str:
    return github_token("ghp_", "".join(_rng.choice(ALNUM) for _ in range(36)))


def _slack() -> str:
    digits = "".join(_rng.choice(string.digits) for _ in range(25))
    return f"xoxb-{digits[:12]}-{digits[12:]}-" + "".join(_rng.choice(ALNUM) for _ in range(24))


PLANTED = {where: _token() for where in ("file", "file-joined", "folder", "cwd", "symlink-target")}
# A token of letters, digits and dashes is its project's slug verbatim: the tree's own path.
PLANTED["cwd-as-slug"] = _slack()
NAMED_BODY = "The body of the note whose name holds a token."
CONTENT = _token()  # a secret in a file's text: the service alerts, naming the file


def fragments(secret: str) -> list[str]:
    """The secret, and every 13-character piece of it (a partial leak)."""
    return [secret] + [secret[i : i + 13] for i in range(0, len(secret) - 12, 6)]


def plant(base: Path, home: Home) -> tuple[Path, Path, Path]:
    project = base / "work" / PLANTED["cwd"]
    (project / "src").mkdir(parents=True)
    store = home.projects / slugify(project)
    tree = write_tree(
        store / "memory",
        {
            "MEMORY.md": index("deploy.md"),
            "deploy.md": memory("deploy"),
            f"{PLANTED['file']}.md": memory("named", body=NAMED_BODY),
            # "_" joins the token to other words: its rule finds no word boundary there
            f"reference_{PLANTED['file-joined']}_v2.md": memory("joined"),
            f"{PLANTED['folder']}/notes.md": memory("notes"),
        },
    )
    outside = base / "elsewhere" / PLANTED["symlink-target"]
    outside.mkdir(parents=True)
    (outside / "shared.md").write_text("shared\n")
    os.symlink(outside / "shared.md", tree / "shared.md")
    session = {"type": "user", "sessionId": "s1", "cwd": str(project)}
    (store / "s1.jsonl").write_text(json.dumps(session) + "\n")
    other = base / "work" / PLANTED["cwd-as-slug"]
    other.mkdir(parents=True)
    second = home.projects / slugify(other)
    named_by_slug = write_tree(second / "memory", {"MEMORY.md": index("gone.md")})
    session = {"type": "user", "sessionId": "s2", "cwd": str(other)}
    (second / "s2.jsonl").write_text(json.dumps(session) + "\n")
    return project, tree, named_by_slug


def cli(home: Home, *argv: str, stdin: str = "", cwd: Path | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=home.env(),
        cwd=cwd,
        timeout=120,
    )
    assert result.returncode in (0, 1), result.stderr
    return result.stdout + result.stderr


def stored(home: Home) -> dict[str, str]:
    found = {}
    for folder in (home.reports, home.state):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            name = str(path.relative_to(home.root))
            found[f"name {name}"] = name
            if path.suffix not in (".db", ".sqlite"):
                found[f"file {name}"] = path.read_bytes().decode("latin-1")
    for label, database in (("state", "state.db"), ("journal", "journal/journal.sqlite")):
        with sqlite3.connect(home.state / database) as db:
            found[f"{label} .dump"] = "\n".join(db.iterdump())
    return found


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    base = tmp_path_factory.mktemp("names")
    home = Home(base / "home")
    project, tree, named_by_slug = plant(base, home)
    found: dict[str, str] = {}
    for fmt in FORMATS:
        found[f"audit {fmt}"] = cli(home, "audit", "--format", fmt, str(tree))
    found["loaded"] = cli(home, "loaded", str(tree))
    found["loaded json"] = cli(home, "loaded", "--format", "json", str(tree))
    found["projects"] = cli(home, "projects")
    found["projects json"] = cli(home, "projects", "--format", "json")
    # The slug as shown (the token masked) still names its project: as reports suggest it.
    [shown_slug] = [
        p["project"] for p in json.loads(found["projects json"]) if "xoxb" in p["project"]
    ]
    found["audit --project shown"] = cli(home, "audit", "--project", shown_slug, "--format", "json")
    files = [str(p) for p in sorted(tree.rglob("*.md"))]
    found["pre-commit"] = cli(home, "pre-commit", *files)
    code, out, err = DaemonProcess(home, home.config(timeout=1)).start("--once").finish(60)
    assert code == 0, err
    found["daemon --once"] = out + err
    hook = json.dumps({"cwd": str(project / "src")})
    found["hook"] = cli(home, "hook", "session-start", stdin=hook)
    report = json.loads(found["audit json"])
    found["review"] = review_screen(home, tree, len(report["reports"][0]["findings"]))
    found["review applying"] = review_applying(home, named_by_slug)
    found["changelog"] = cli(home, "changelog", str(named_by_slug))
    found["daemon"] = live_daemon(home, tree, named_by_slug)
    # The next run's reports tell what the journal recorded since the first.
    code, out, err = DaemonProcess(home, home.config(timeout=1)).start("--once").finish(60)
    assert code == 0, err
    found["daemon --once again"] = out + err
    found["restore"] = restore_first_version(home, tree)
    found |= stored(home)
    found["history"] = cli(home, "history")
    for command in (("status",), ("doctor",), ("dismiss", "--list"), ("report", "list")):
        found[" ".join(command)] = cli(home, *command)
    named = str(tree / f"{PLANTED['file']}.md")
    found["history --purge"] = cli(home, "history", "--purge", named, "--yes")
    found["history json"] = cli(home, "history", "--format", "json")
    return found


def review_applying(home: Home, tree: Path) -> str:
    """A review that writes: the fix applied, the changelog named after the tree."""
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "review", str(tree)],
        {**home.env(), "TERM": "dumb", "EDITOR": "true"},
    )
    term.expect("[q]uit: ")
    term.send("a")
    term.expect("Why these changes?")
    term.send("the page is gone")
    term.expect("Changelog:")
    assert term.wait() == 0
    return term.output


def restore_first_version(home: Home, tree: Path) -> str:
    """``restore`` of the file named by a token, to its first journaled version."""
    versions = json.loads(cli(home, "history", "--format", "json"))
    shown = f"{PLANTED['file'][:4]}...{PLANTED['file'][-4:]}.md"
    first = min(v["id"] for v in versions if v["path"] == shown)
    named = tree / f"{PLANTED['file']}.md"
    term = Terminal(
        [sys.executable, "-m", "memory_audit", "restore", str(named), "--version", str(first)],
        {**home.env(), "TERM": "dumb"},
    )
    term.expect("Restore this version?")
    term.send("y")
    term.expect("Why restore?")
    term.send("put it back")
    term.expect("recorded in the changelog")
    assert term.wait() == 0
    assert NAMED_BODY in named.read_text()  # the real file got its version back
    return term.output


def live_daemon(home: Home, tree: Path, named_by_slug: Path) -> str:
    """The service watching the trees: its log, the journal, a secret alert on a change,
    and the alert that names the tree (its memory shrank)."""
    daemon = DaemonProcess(home, home.config(timeout=1)).start()
    try:
        assert daemon.wait_message("READY=1"), daemon.messages
        assert wait_for(lambda: "journal: baseline" in home.log.read_text())
        (tree / f"{PLANTED['file']}.md").write_text(memory("named", body=f"key {CONTENT}"))
        redacted = f"{CONTENT[:8]}...{CONTENT[-4:]}"  # the alert for the token in its text
        assert wait_for(lambda: redacted in home.log.read_text())
        (named_by_slug / "MEMORY.md").write_text("#\n")
        assert wait_for(lambda: "memory shrank" in home.log.read_text())
    finally:
        _, out, err = daemon.stop()
    return out + err


def test_the_names_are_read_and_reported(outputs: dict[str, str]) -> None:
    report = json.loads(outputs["audit json"])["reports"][0]
    codes = {(f["code"], f["path"]) for f in report["findings"]}
    file_, folder = PLANTED["file"], PLANTED["folder"]
    assert ("secret-in-name", f"{file_[:4]}...{file_[-4:]}.md") in codes
    assert ("secret-in-name", f"{folder[:4]}...{folder[-4:]}") in codes
    joined = PLANTED["file-joined"]
    assert ("secret-in-name", f"reference_{joined[:4]}...{joined[-4:]}_v2.md") in codes
    assert any(f["code"] == "symlink-outside-tree" for f in report["findings"])
    assert report["project_path"] is not None  # the transcript's cwd was read
    assert "finding(s) pending" in outputs["hook"]
    [by_shown_slug] = json.loads(outputs["audit --project shown"])["reports"]
    assert "-work-xoxb..." in by_shown_slug["project"]
    assert any("gone.md" in f["message"] for f in by_shown_slug["findings"])
    shown = f"{file_[:4]}...{file_[-4:]}.md"
    assert shown in outputs["history"]  # the journal's versions, listed under a masked name
    log = outputs["file .local/state/memory-audit/log/daemon.log"]
    assert f"alert: {shown}: the name holds a possible GitHub personal access token" in log
    assert f"alert: {shown}:6 GitHub personal access token" in log  # the token in its text
    assert "Applied: MEMORY.md: removed the index line" in outputs["review applying"]
    assert "the page is gone" in outputs["changelog"]
    assert f"\ndropped 3 version(s) of {shown} from the journal" in outputs["history --purge"]
    activity = [v for k, v in outputs.items() if k.startswith("file ") and k.endswith(".md")]
    assert any(f" modified `{shown}`" in text for text in activity)


def test_review_reads_the_real_file_behind_a_masked_name(outputs: dict[str, str]) -> None:
    assert NAMED_BODY in outputs["review"]


@pytest.mark.parametrize("where", sorted(PLANTED))
def test_a_secret_in_a_name_reaches_no_output(outputs: dict[str, str], where: str) -> None:
    pieces = fragments(PLANTED[where])
    # The journal keeps each version under the file's real path: `restore` writes it back
    # there (`history` shows it masked).
    shown = {k: v for k, v in outputs.items() if k != "journal .dump"}
    if where.startswith("cwd"):
        # The cache of what transcripts say (their cwd, the files sessions touched) is
        # kept as the transcripts hold it: coverage and usage compare those paths.
        shown = {k: v for k, v in shown.items() if "/sessions-cache/" not in k}
    leaks = [(name, piece) for name, text in shown.items() for piece in pieces if piece in text]
    assert PLANTED[where] not in "\n".join(shown)  # no stored file is named by it either
    assert leaks == []
