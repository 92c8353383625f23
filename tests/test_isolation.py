"""One memory file never fails the audit of the others: the cases that used to (exit 3)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from memory_audit import checks, engine
from memory_audit.config.settings import Config
from memory_audit.model.finding import Finding, make_finding
from memory_audit.tree.discovery import TreeRef
from memory_audit.tree.snapshot import MemoryTree, ProjectLocation
from tests.harness import findings, index, load, memory, report, stand_in, write_tree


def audit_json(tree: Path) -> tuple[int, dict[str, Any]]:
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", "--format", "json", str(tree)],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)


def test_a_review_date_ten_thousand_years_away_is_never_due(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("far.md", "soon.md"),
            "far.md": memory("far", review_by="after 10000 years"),
            "soon.md": memory("soon", review_by="after 1 day", modified="2020-01-01"),
        },
    )
    found = report(tree_dir, "expiry")
    assert [(f.code, f.path) for f in found.findings] == [("review-due", "soon.md")]
    assert found.health.review_due == 1


def test_a_count_of_days_too_long_for_int_is_never_due(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("far.md"),
            "far.md": memory("far", review_by="in " + "9" * 5000 + " days"),
        },
    )
    assert report(tree_dir, "expiry").health.review_due == 0


def test_five_hundred_nested_folders_are_walked(tree_dir: Path) -> None:
    deep = Path(*["d"] * 500)
    write_tree(tree_dir, {"MEMORY.md": index(), str(deep / "x.md"): memory("x")})
    assert [f.path for f in findings(tree_dir, "orphans")] == [f"{deep.as_posix()}/x.md"]


@pytest.mark.parametrize("digits", ["7" * 4000, "0x" + "f" * 4000, "-" + "1" * 4299])
def test_a_huge_number_in_frontmatter_is_audited(tree_dir: Path, digits: str) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("n.md"),
            "n.md": memory("n", confidence=digits).replace("name: n", f"name: {digits}", 1),
        },
    )
    code, data = audit_json(tree_dir)
    [tree_report] = data["reports"]
    assert tree_report["errors"] == []
    assert code == 1


def test_a_check_failing_on_one_file_audits_the_others(
    tree_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fragile(tree: MemoryTree, options: object) -> Iterator[Finding]:
        for path in sorted(tree.files):
            if "boom" in tree.files[path].first_paragraph:
                raise ValueError("secret file content")
            yield make_finding("orphans", "seen", path, None, f"saw {path}")

    stand_in(
        monkeypatch, "orphans", SimpleNamespace(ID="orphans", Options=lambda: None, check=fragile)
    )
    files = {f"f{i}.md": memory(f"f{i}") for i in range(9)}
    write_tree(tree_dir, {"MEMORY.md": index(), **files, "f4.md": memory("f4", body="boom")})
    result = engine.audit_tree(load(tree_dir), ["orphans"])
    assert [f.path for f in result.findings] == [f"f{i}.md" for i in range(9) if i != 4]
    [(path, error)] = result.errors
    assert path == "f4.md"
    assert error.startswith("check 'orphans' failed on this file: ValueError at test_isolation.py:")
    assert "secret" not in error


def audit_text(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", str(tree)],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )


CLEAN = {
    "MEMORY.md": "- [Deploy](deploy.md) — read before deploying the app to production\n",
    "deploy.md": memory("deploy", description="read before deploying the app to production"),
}


def test_a_clean_tree_exits_0(tree_dir: Path) -> None:
    write_tree(tree_dir, CLEAN)
    assert audit_text(tree_dir).returncode == 0


def test_a_socket_left_unaudited_exits_1_with_the_reason(tree_dir: Path) -> None:
    write_tree(tree_dir, CLEAN)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(tree_dir / "sock.md"))
        result = audit_text(tree_dir)
    assert result.returncode == 1
    assert (
        "- sock.md: a socket (or a device without a driver), not a file; not read" in result.stdout
    )


def test_a_symlink_loop_left_unaudited_exits_1(tree_dir: Path) -> None:
    write_tree(tree_dir, CLEAN)
    (tree_dir / "loop.md").symlink_to("loop.md")
    result = audit_text(tree_dir)
    assert result.returncode == 1
    assert "loop.md" in result.stdout


def test_a_tree_whose_audit_raises_is_its_error_entry_and_the_next_tree_is_audited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_on_one_tree(tree: MemoryTree, options: object) -> Iterator[Finding]:
        for path in sorted(tree.files):
            # Not a finding: it fails past the check's own guard (ordering, redaction).
            yield (
                "not a finding"
                if tree.root.name == "bad"
                else make_finding(  # type: ignore[misc]
                    "orphans", "seen", path, None, f"saw {path}"
                )
            )

    stand_in(
        monkeypatch,
        "orphans",
        SimpleNamespace(ID="orphans", Options=lambda: None, check=broken_on_one_tree),
    )
    refs = [
        TreeRef(write_tree(tmp_path / name, {"MEMORY.md": index(), "a.md": memory("a")}), where)
        for name, where in (("bad", ProjectLocation(slug="-bad")), ("good", ProjectLocation()))
    ]
    run = engine.audit_refs(refs, Config(option_types=checks.OPTION_TYPES), ["orphans"])
    bad, good = run.reports
    assert (bad.project, bad.findings) == ("-bad", ())
    [(path, error)] = bad.errors
    assert path == "."
    assert error.startswith("the audit of this tree failed (AttributeError at ")
    assert [f.path for f in good.findings] == ["a.md"]
    assert good.errors == ()
