from __future__ import annotations

import subprocess
from pathlib import Path

from memory_audit.checks.stale_refs import DesignDoc, Options
from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, digest, findings, index, memory, report, write_tree


def git(repo: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=True,
        env={
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@x",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@x",
            "HOME": str(repo),
            "PATH": "/usr/bin:/bin",
        },
    )
    return result.stdout.strip()


def make_repo(path: Path) -> str:
    write_tree(
        path, {"src/billing/rate.py": "x = 1\n", "docs/plan.md": "ADR-7 retries\nADR-9 discounts\n"}
    )
    git(path, "init", "-q")
    git(path, "add", ".")
    git(path, "commit", "-qm", "first")
    return git(path, "rev-parse", "HEAD")


def test_stale_refs_paths_and_commits_against_a_real_repository(tmp_path: Path) -> None:
    project = tmp_path / "ledgerly"
    head = make_repo(project)
    body = (
        f"Rates live in `src/billing/rate.py` since commit {head[:9]}.\n"
        "Retries were in src/billing/retry.py (4f2a91c0).\n"
        "Old notes: `docs/old-plan.md`, see also `/api/v1/invoices` and and/or CI/CD.\n"
    )
    tree = write_tree(
        tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)}
    )
    before = digest(project)
    found = findings(tree, "stale-refs", location=ProjectLocation("-p", project, None))
    assert codes(found) == [
        ("missing-file-reference", "a.md", 7),
        ("stale-commit-reference", "a.md", 7),
        ("missing-file-reference", "a.md", 8),
    ]
    assert "`src/billing/retry.py`" in found[0].message
    assert "`4f2a91c0`" in found[1].message
    assert "`docs/old-plan.md`" in found[2].message
    assert digest(project) == before


def test_stale_refs_without_a_project_skip_instead_of_failing(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body="See `src/x.py` (commit 4f2a91c0).")}
    )
    result = report(tree, "stale-refs")
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == [
        "1 relative path(s) not checked — project root not located",
        "git checks skipped — repo not located",
    ]


def test_stale_refs_home_and_tree_paths_are_checked_without_a_project(
    tmp_path: Path, isolated_home: Path
) -> None:
    (isolated_home / ".claude/rules").mkdir(parents=True)
    (isolated_home / ".claude/rules/testing.md").write_text("rule")
    body = (
        "Rules in `~/.claude/rules/testing.md` and `~/.claude/rules/gone.md`; see `feedback/x.md`."
    )
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body=body), "feedback/x.md": memory("x")}
    )
    assert [f.message.split(",")[0] for f in findings(tree, "stale-refs")] == [
        "references `~/.claude/rules/gone.md`"
    ]


def test_stale_refs_design_doc_ids(tmp_path: Path) -> None:
    project = tmp_path / "p"
    make_repo(project)
    tree = write_tree(
        tmp_path / "memory", {"a.md": memory("a", body="Per ADR-7 and ADR-12 we retry.")}
    )
    options = {"stale-refs": Options(design_docs=(DesignDoc(r"ADR-\d+", "docs/plan.md"),))}
    found = findings(
        tree, "stale-refs", options=options, location=ProjectLocation("-p", project, None)
    )
    assert [(f.code, f.message) for f in found] == [
        ("outdated-reference", "cites `ADR-12`, which docs/plan.md no longer mentions")
    ]


def test_stale_refs_project_that_is_not_a_repository(tmp_path: Path) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="Fixed in commit 4f2a91c0.")})
    result = report(tree, "stale-refs", location=ProjectLocation("-p", project, None))
    assert [s.reason for s in result.skipped] == ["git checks skipped — repo not located"]


def test_stale_refs_session_recaps_are_exempt(tmp_path: Path) -> None:
    project = tmp_path / "p"
    make_repo(project)
    tree = write_tree(
        tmp_path / "memory",
        {
            "sessions/2026-01-01-x.md": memory(
                "x", type="session-recap", body="`src/gone.py` commit 4f2a91c0"
            )
        },
    )
    assert findings(tree, "stale-refs", location=ProjectLocation("-p", project, None)) == []
