"""No planted secret leaves its file: every output format and the state folder are grepped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from tests.harness import index, memory, write_tree
from tests.secrets.samples import CASES

PLANTED = [secret for positives, _ in CASES.values() for _, secret in positives]
# A short secret ("1234", a PIN) also occurs inside hex fingerprints and byte counts by
# chance (about one run in fifty): it leaks when it stands on its own.
SHORT = 8


def leaked(secret: str, output: str) -> bool:
    if len(secret) >= SHORT:
        return secret in output
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])", output) is not None


@pytest.mark.slow
def test_no_planted_secret_escapes_into_any_output(tmp_path: Path) -> None:
    # a neutral label (a rule's name, "command-line-password: ...", is a keyword of its own);
    # a table on lines of its own
    texts = [text for positives, _ in CASES.values() for text, _ in positives]
    body = "\n".join(
        f"- case {n}: {text}" if "\n" not in text else f"\n{text}\n" for n, text in enumerate(texts)
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
