"""An OpenClaw workspace audited by its folder, before it has a MEMORY.md: a key pasted into
TOOLS.md beside memory/ is found, as one pasted into a daily note is."""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
from pathlib import Path

from tests.harness import write_tree


def test_a_key_beside_a_workspace_s_memory_folder_is_found(tmp_path: Path) -> None:
    deck = random.Random(20261205)
    token = "".join(deck.choices("0123456789abcdef", k=48))
    key = "BSA" + "".join(deck.choices(string.ascii_letters + string.digits, k=28))
    workspace = write_tree(
        tmp_path / "ws",
        {
            "SOUL.md": "# Soul\n\nCalm and careful.\n",
            "TOOLS.md": f"# Tools\n\n**Auth Token:** `{token}`\n",
            "memory/2026-03-09.md": f"# 2026-03-09\n\n- Brave API key: {key}\n",
        },
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_audit",
            "audit",
            "--check",
            "secrets",
            "--format",
            "json",
            str(workspace),
        ],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    [report] = json.loads(result.stdout)["reports"]
    assert report["root"] == str(workspace)
    found = {(f["path"], f["line"]) for f in report["findings"] if f["level"] == "problem"}
    assert found == {("TOOLS.md", 3), ("memory/2026-03-09.md", 3)}
    assert token not in result.stdout
    assert key not in result.stdout
