"""Through the real command: a demo login the project's README prints is a suggestion in
every format, the exit code ignores it, and no output holds the value."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.harness import index, memory
from tests.support.git_repo import Repo

DEMO = "Bluefin42!x"  # a look-alike seed password


def audit(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "memory_audit", "audit", str(tree), "--check", "secrets"]
    return subprocess.run([*command, *args], capture_output=True, text=True, check=False)


def test_a_published_demo_login_is_a_suggestion_and_no_failure(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "shop")
    repo.commit(
        "seed",
        {
            "README.md": f"# Shop\n\nTry the sandbox: the demo login is demo/{DEMO}.\n",
            "memory/MEMORY.md": index("a.md"),
            "memory/a.md": memory("a", body=f"The demo login is demo/{DEMO} here."),
        },
    )
    tree = repo.path / "memory"
    as_json = audit(tree, "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    [found] = json.loads(as_json.stdout)["reports"][0]["findings"]
    assert found["level"] == "suggestion"
    assert found["message"].endswith("README.md hands this demo login out")
    as_text = audit(tree)
    assert as_text.returncode == 0
    assert "README.md" in as_text.stdout
    assert DEMO not in as_json.stdout + as_text.stdout + as_json.stderr + as_text.stderr
