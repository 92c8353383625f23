"""A secret scan that could not run (its patterns file missing or unreadable) says so
wherever its result is shown: the audit in every format, the service's summary and
notification, the session hook. It never looks like a clean result."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from memory_audit.install.claude import hook_command
from memory_audit.tree.discovery import slugify
from tests.harness import index, memory, write_tree
from tests.report.test_sarif_github import SCHEMA as SARIF_SCHEMA
from tests.secrets.samples import CASES
from tests.support.daemon_process import DaemonProcess, Home
from tests.support.session_bus import session_bus

TOKEN = CASES["github-pat"][0][0][0]
PROBLEMS: dict[str, tuple[Callable[[Path], object], str]] = {
    "missing": (lambda path: None, "not found"),
    "a folder": (lambda path: path.mkdir(), "unreadable"),
    "not UTF-8": (lambda path: path.write_bytes(b"\xff\xfe# rules\n"), "unreadable"),
}


def broken_patterns(tmp_path: Path, problem: str) -> tuple[Path, str]:
    """A config whose patterns file has ``problem``, and the reason the report gives."""
    patterns = tmp_path / "my-patterns.md"
    make, why = PROBLEMS[problem]
    make(patterns)
    config = tmp_path / "config.yaml"
    config.write_text(f"checks: {{secrets: {{patterns: {patterns}}}}}\n")
    return config, f"patterns file {patterns} {why}"


def audit(config: Path, tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "memory_audit", "audit", "--config", str(config)]
    return subprocess.run([*command, str(tree), *args], capture_output=True, text=True, check=False)


def clean_tree_with_a_token(root: Path) -> Path:
    files = {"MEMORY.md": index("a.md"), "a.md": memory("a", body=f"Deploy with {TOKEN}.")}
    return write_tree(root, files)


@pytest.mark.parametrize("problem", sorted(PROBLEMS))
def test_audit_text_and_json_say_the_secret_scan_did_not_run(tmp_path: Path, problem: str) -> None:
    config, why = broken_patterns(tmp_path, problem)
    tree = clean_tree_with_a_token(tmp_path / "memory")

    text = audit(config, tree)
    assert text.returncode == 1, text.stderr  # unknown is no clean bill of health
    said = f"## Possible secrets: did not run — {why}"
    [line] = [line for line in text.stdout.splitlines() if line.startswith(said)]
    assert line.endswith(". Its result is unknown, not clean.")
    assert text.stdout.index(line) < text.stdout.index("## All other dimensions: Nothing material.")
    only = audit(config, tree, "--check", "secrets")
    assert only.returncode == 1
    assert line in only.stdout.splitlines()
    assert "Nothing material" not in only.stdout

    data = json.loads(audit(config, tree, "--format", "json").stdout)
    [report] = data["reports"]
    [skipped] = report["skipped"]
    assert skipped["dimension"] == "secrets"
    assert skipped["whole"] is True
    assert skipped["reason"].startswith(why)
    assert TOKEN not in text.stdout + only.stdout + json.dumps(data)


def test_every_other_format_says_the_secret_scan_did_not_run(tmp_path: Path) -> None:
    config, why = broken_patterns(tmp_path, "missing")
    tree = clean_tree_with_a_token(tmp_path / "memory")
    said = f"Possible secrets: did not run — {why}"
    for output_format in ("markdown", "html", "github"):
        shown = audit(config, tree, "--check", "secrets", "--format", output_format)
        assert shown.returncode == 1, output_format
        assert said in shown.stdout, output_format
        assert "othing material" not in shown.stdout, output_format
    sarif = json.loads(audit(config, tree, "--format", "sarif").stdout)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    [invocation] = sarif["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    [notification] = invocation["toolExecutionNotifications"]
    assert notification["descriptor"] == {"id": "secrets"}
    assert said in notification["message"]["text"]


def test_daemon_summary_notification_and_hook_say_the_secret_scan_did_not_run(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    project = tmp_path / "work" / "app"
    project.mkdir(parents=True)
    clean_tree_with_a_token(home.projects / slugify(project) / "memory")
    config = home.config()
    patterns = tmp_path / "gone-patterns.md"
    config.write_text(config.read_text() + f"checks: {{secrets: {{patterns: {patterns}}}}}\n")
    with session_bus(tmp_path / "bus") as bus:
        home.bus_address = bus.address
        code, _, err = DaemonProcess(home, config).start("--once").finish()
        [notification] = bus.notifications()
    assert code == 0, err
    said = (
        f"Possible secrets did not run in 1 of 1 memory trees (patterns file {patterns} not found)"
    )
    assert said in str(notification["body"])
    assert "clean." not in str(notification["body"]).replace("not clean.", "")
    summary = (home.reports / "latest" / "summary.md").read_text()
    assert said in summary

    hook = subprocess.run(
        ["/bin/sh", "-c", hook_command()],
        input=json.dumps({"cwd": str(project)}),
        capture_output=True,
        text=True,
        env=home.env(),
        check=False,
        timeout=30,
    )
    lines = hook.stdout.splitlines()
    assert lines[0].startswith("memory-audit: 0 finding(s) pending in this project's memory")
    assert lines[1] == (
        "- [secrets] DID NOT RUN in that audit, so its result is unknown (not clean): "
        + json.dumps(f"patterns file {patterns} not found")
    )
    assert "checks.secrets.patterns" in lines[-1]
    assert TOKEN not in hook.stdout + summary + str(notification["body"])
