"""The real command, as a subprocess: exit codes, formats, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.harness import index, memory, write_tree


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=os.environ.copy(),
    )


def test_cli_clean_tree_exits_0_and_drifted_tree_exits_1(tmp_path: Path) -> None:
    clean = write_tree(tmp_path / "clean", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    drifted = write_tree(tmp_path / "drifted", {"MEMORY.md": index("gone.md")})
    assert cli("audit", str(clean)).returncode == 0
    result = cli("audit", str(drifted))
    assert result.returncode == 1
    assert "## MEMORY.md index drift (1)" in result.stdout


def test_cli_no_tree_exits_2_and_creates_nothing(tmp_path: Path, isolated_home: Path) -> None:
    result = cli("audit", str(tmp_path / "missing"))
    assert result.returncode == 2
    assert f"no memory tree found at {tmp_path / 'missing'}" in result.stderr
    assert not (tmp_path / "missing").exists()
    nothing = cli("audit")
    assert nothing.returncode == 2
    assert "no memory tree found at" in nothing.stderr
    assert not (isolated_home / ".claude").exists()


def test_cli_unknown_check_lists_valid_ids(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "t", {"MEMORY.md": ""})
    result = cli("audit", "--check", "nope", str(tree))
    assert result.returncode == 2
    assert "valid: index-drift, frontmatter" in result.stderr


def test_cli_json_output_to_a_file_is_private(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "t", {"MEMORY.md": index("gone.md")})
    out = tmp_path / "out.json"
    result = cli(
        "audit", "--format", "json", "--output", str(out), "--check", "index-drift", str(tree)
    )
    assert result.returncode == 1
    assert result.stdout == ""
    data = json.loads(out.read_text())
    assert [f["code"] for f in data["reports"][0]["findings"]] == ["broken-index-link"]
    assert out.stat().st_mode & 0o777 == 0o600


def test_cli_refuses_to_write_a_report_into_the_tree(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "t", {"MEMORY.md": ""})
    result = cli("audit", "--output", str(tree / "report.txt"), str(tree))
    assert result.returncode == 2
    assert not (tree / "report.txt").exists()


def test_cli_project_option_and_projects_listing(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    folder = isolated_home / ".claude/projects/-x-app"
    write_tree(folder / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    (folder / "t.jsonl").write_text(json.dumps({"cwd": str(project)}) + "\n")
    assert cli("audit", "--project", "-x-app").returncode == 0
    listing = json.loads(cli("projects", "--format", "json").stdout)
    assert listing == [
        {
            "root": str(folder / "memory"),
            "project": "-x-app",
            "agent": None,
            "project_path": None,
            "files": 1,
            "index_lines": 2,
            "index_bytes": len(index("a.md").encode()),
            "moved": None,
        }
    ]


def test_cli_bad_config_exits_2_naming_key_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "c.yaml"
    bad.write_text("watch:\n  debounce_seconds: -1\n")
    result = cli("config", "validate", "--config", str(bad))
    assert result.returncode == 2
    assert f"{bad}:2: watch.debounce_seconds: -1.0 is out of range" in result.stderr


def test_cli_config_init_writes_the_example_privately(isolated_home: Path) -> None:
    assert cli("config", "init").returncode == 0
    path = Path(cli("config", "path").stdout.strip())
    assert path.is_relative_to(isolated_home)
    assert path.stat().st_mode & 0o777 == 0o600
    assert cli("config", "init").returncode == 2
    assert "sun 09:00" in cli("config", "show").stdout


def test_cli_json_is_one_line_unless_asked_to_be_pretty(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    compact = cli("audit", "--format", "json", str(tree)).stdout
    assert compact.count("\n") == 1
    pretty = cli("audit", "--format", "json", "--pretty", str(tree)).stdout
    assert pretty.startswith('{\n  "schema"')
    four = tmp_path / "four.json"
    cli("audit", "--format", "json", "--indent", "4", "--output", str(four), str(tree))
    assert four.read_text().startswith('{\n    "schema"')
    assert json.loads(compact)["reports"] == json.loads(pretty)["reports"]
