"""No planted secret leaves its file: every output format and the state folder are grepped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import platformdirs
import pytest

from memory_audit.journal.index import Actor
from memory_audit.journal.recorder import Recorder
from memory_audit.journal.store import Journal
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES

PLANTED = [secret for positives, _ in CASES.values() for _, secret in positives]
# A short secret ("1234", a PIN) also occurs inside hex fingerprints and byte counts by
# chance (about one run in fifty): it leaks when it stands on its own.
SHORT = 8


# A line number (``"line": 1111``, ``all.md:1111``, ``line 1111``) is a place, not a value:
# a digits-only secret may be one once the planted file is that long.
LINE_NUMBER_BEFORE = re.compile(r'(?:"line": ?|\.md:|\bline )$')


def leaked(secret: str, output: str) -> bool:
    if len(secret) >= SHORT:
        return secret in output
    for found in re.finditer(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])", output):
        before = output[max(0, found.start() - 8) : found.start()]
        if not (secret.isdigit() and LINE_NUMBER_BEFORE.search(before)):
            return True
    return False


@pytest.mark.slow
def test_no_planted_secret_escapes_into_any_output(tmp_path: Path) -> None:
    # a neutral label (a rule's name, "command-line-password: ...", is a keyword of its own);
    # a table on lines of its own; a list item an item of its own, nested under its case (after
    # "case 12:" on its line, "- **X/Twitter:** ..." would be no item)
    texts = [text for positives, _ in CASES.values() for text, _ in positives]
    body = "\n".join(
        f"\n{text}\n"
        if "\n" in text
        else f"- case {n}:\n  {text}"
        if text.lstrip().startswith(("- ", "* "))
        else f"- case {n}: {text}"
        for n, text in enumerate(texts)
    )
    tree = write_tree(
        tmp_path / "memory", {"MEMORY.md": index("all.md"), "all.md": memory("all", body=body)}
    )
    outputs = []
    for fmt in ("text", "markdown", "json"):
        out = tmp_path / f"report.{fmt}"
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "memory_audit",
                "audit",
                "--format",
                fmt,
                "-o",
                str(out),
                str(tree),
            ],
            capture_output=True,
            text=True,
            check=False,
            env=os.environ.copy(),
        )
        assert result.returncode == 1, result.stderr
        outputs += [result.stdout, result.stderr, out.read_text()]
    state = Path(platformdirs.user_state_dir("memory-audit"))
    outputs += [p.read_bytes().decode("latin-1") for p in state.rglob("*") if p.is_file()]
    # one finding per value, naming every place it is: each planted secret is one place
    [report] = json.loads((tmp_path / "report.json").read_text())["reports"]
    secrets = [f for f in report["findings"] if f["code"] == "possible-secret"]
    places = [(f["fix"] or {}).get("places") or [f] for f in secrets]
    assert sum(len(listed) for listed in places) == len(PLANTED)
    for secret in PLANTED:
        for output in outputs:
            assert not leaked(secret, output)


def memory_audit(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", *args],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )
    assert result.returncode in (0, 1), result.stderr
    return result.stdout + result.stderr


def stored_text(state: Path) -> list[str]:
    """Every file of the state folder, journal blobs inflated (compressed, they hide text)."""
    texts = []
    for path in (p for p in state.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.parent.parent.name == "blobs":
            data = zlib.decompress(data)
        texts.append(data.decode("latin-1"))
    return texts


PASSWORD = "Harbor" + "07" + "!!q"  # a look-alike
BARE = f"- nas {PASSWORD} on the mgmt port"  # no rule matches it there


def _journal_recorder() -> tuple[Path, Journal, Recorder]:
    """The user's journal (the state folder the CLI reads) and a recorder writing to it."""
    state = Path(platformdirs.user_state_dir("memory-audit"))
    journal = Journal(state)
    scanner = secret_scanner(ScannerConfig(state_dir=str(state)))
    return state, journal, Recorder(journal.index, journal.blobs, scanner, 1 << 20)


@pytest.mark.slow
def test_a_value_repeated_bare_in_another_file_escapes_into_no_output(tmp_path: Path) -> None:
    """A password a rule finds in a.md, written bare in b.md: the audit reports both places,
    the journal keeps b.md masked, ``history --diff`` shows it masked."""
    tree = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"the wifi password is {PASSWORD}"),
            "b.md": memory("b", body="notes"),
        },
    )
    state, journal, recorder = _journal_recorder()
    recorder.reconcile(tree, 1.0, lambda *_: Actor("outside"))
    (tree / "b.md").write_text(memory("b", body=BARE))
    recorder.reconcile(tree, 2.0, lambda *_: Actor("outside"), changed={"b.md"})
    journal.close()
    outputs = [memory_audit("audit", "--format", f, str(tree)) for f in ("text", "json")]
    assert "also at b.md:6" in outputs[0]
    diff = memory_audit("history", str(tree / "b.md"), "--diff")
    assert "+- nas Ha...q on the mgmt port" in diff
    for output in [*outputs, diff, *stored_text(state)]:
        assert PASSWORD not in output


@pytest.mark.slow
def test_history_masks_what_was_kept_before_the_tree_said_a_value_was_a_secret(
    tmp_path: Path,
) -> None:
    """b.md kept with a value bare, and a session's prompt holding it; a.md says it is a
    password since, and no service has recorded that: ``history`` shows neither bare."""
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body="x"), "b.md": memory("b", body="notes")}
    )
    state, journal, recorder = _journal_recorder()
    recorder.reconcile(tree, 1.0, lambda *_: Actor("outside"))
    (tree / "b.md").write_text(memory("b", body=BARE))
    session = Actor("session", "5e551011", f"keep {PASSWORD} for the nas")
    recorder.reconcile(tree, 2.0, lambda *_: session, changed={"b.md"})
    journal.close()
    (tree / "a.md").write_text(memory("a", body=f"the wifi password is {PASSWORD}"))
    shown = memory_audit("history", str(tree), "--diff")
    assert "+- nas Ha...q on the mgmt port" in shown
    assert '("keep Ha...q for the nas")' in shown
    for output in [shown, *stored_text(state)]:
        assert PASSWORD not in output
