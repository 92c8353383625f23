"""stale-refs on projects it cannot fully read: no crash, and a skip line says what was not checked."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import codes, memory, report, write_tree
from tests.support.git_repo import Repo


def at(project: Path) -> ProjectLocation:
    return ProjectLocation("-p", project, None)


def deleted_script_repo(path: Path) -> tuple[Repo, str]:
    repo = Repo(path)
    repo.commit("first", {"scripts/deploy.sh": "d\n", "scripts/keep.sh": "k\n"})
    gone = repo.remove("drop deploy", "scripts/deploy.sh")
    return repo, gone


BODY = "Deploy with `scripts/deploy.sh` (since commit {head})."


def test_a_shallow_clone_says_so_and_falls_back_to_existence_checks(tmp_path: Path) -> None:
    repo, gone = deleted_script_repo(tmp_path / "origin")
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)], check=True
    )
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=BODY.format(head=gone[:8]))})
    result = report(tree, "stale-refs", location=at(clone))
    assert [(f.code, f.message) for f in result.findings] == [
        (
            "missing-file-reference",
            "`scripts/deploy.sh` is not in the project (its history could not be read)",
        )
    ]
    assert [s.reason for s in result.skipped] == [
        "the project is a shallow clone: its history is missing — paths checked for existence only",
        "1 commit reference(s) not checked — shallow clone",
    ]


def test_a_bare_repository_is_read_from_its_history(tmp_path: Path) -> None:
    repo, gone = deleted_script_repo(tmp_path / "origin")
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.path), str(bare)], check=True)
    # The commit cited is the first one: citing the deleting commit records the deletion.
    first = repo.git("rev-parse", "HEAD~1")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=BODY.format(head=first[:8]))})
    result = report(tree, "stale-refs", location=at(bare))
    assert [(f.code, f.line) for f in result.findings] == [("deleted-file-reference", 6)]
    assert gone[:7] in result.findings[0].message
    assert [s.reason for s in result.skipped] == [
        "the project is a bare repository: files compared with HEAD"
    ]


def test_git_missing_from_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo, gone = deleted_script_repo(tmp_path / "p")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=BODY.format(head=gone[:8]))})
    empty = tmp_path / "no-git"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    result = report(tree, "stale-refs", location=at(repo.path))
    assert [f.code for f in result.findings] == ["missing-file-reference"]
    assert [s.reason for s in result.skipped] == [
        "history not read (git not found on PATH) — paths checked for existence only",
        "1 commit reference(s) not checked — git not found on PATH",
    ]


def test_a_project_that_is_not_a_repository(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "plain", {"scripts/keep.sh": "k\n"})
    body = "Use `scripts/keep.sh`, not `scripts/gone.sh` (commit 4f2a91c0)."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project))
    assert [f.message for f in result.findings] == [
        "`scripts/gone.sh` is not in the project (its history could not be read)"
    ]
    assert len(result.skipped) == 2
    assert "commit reference(s) not checked" in result.skipped[1].reason


def test_a_memory_folder_that_is_its_own_repository_is_not_the_project(tmp_path: Path) -> None:
    tree = tmp_path / "memory"
    repo = Repo(tree)
    repo.commit("first", {"a.md": memory("a", body="See `notes/old.md`."), "notes/old.md": "x"})
    repo.remove("drop", "notes/old.md")
    result = report(tree, "stale-refs", location=at(tree))
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == [
        "history not read — the memory folder is its own git repository, not the project's; "
        "paths checked for existence only"
    ]


def test_paths_with_dot_dot_segments_are_not_checked(tmp_path: Path) -> None:
    repo, _ = deleted_script_repo(tmp_path / "p")
    body = "Sibling: `../other/x.py` and `scripts/../scripts/deploy.sh`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(repo.path))
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == ["2 path(s) with `..` segments not checked"]


def test_a_history_with_a_newline_in_a_file_name(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "p")
    repo.commit("first", {"odd\nname.sh": "x\n", "tools/run.sh": "r\n", "tools/a.sh": "a\n"})
    repo.remove("drop", "odd\nname.sh", "tools/run.sh")
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body="Run `tools/run.sh`.")})
    result = report(tree, "stale-refs", location=at(repo.path))
    assert codes(list(result.findings)) == [("deleted-file-reference", "a.md", 6)]


def test_a_repository_with_100_000_files(tmp_path: Path) -> None:
    path = tmp_path / "big"
    subprocess.run(["git", "init", "-q", "-b", "master", str(path)], check=True)
    stream = [
        "blob\nmark :1\ndata 2\nx\n",
        "commit refs/heads/master\ncommitter t <t@x> 1777000000 +0000\ndata 5\nfirst\n",
    ]
    stream += [f"M 100644 :1 d{i // 1000}/f{i}.txt\n" for i in range(100_000)]
    stream += [
        "\ncommit refs/heads/master\ncommitter t <t@x> 1777100000 +0000\ndata 4\ndrop\n",
        "D d7/f7001.txt\n\n",
    ]
    subprocess.run(
        ["git", "-C", str(path), "fast-import", "--quiet"],
        input="".join(stream).encode(),
        check=True,
    )
    # No checkout: the files exist only in git, which is what the check must read.
    body = "Inputs: `d7/f7000.txt` and `d7/f7001.txt`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(path))
    assert [f.message.split(" in ")[0] for f in result.findings] == [
        "`d7/f7001.txt` was deleted from the project"
    ]


@pytest.mark.parametrize("name", ["notes/{token}.md", "notes/key_{token}.md", "n/{token}_v2.md"])
def test_the_history_cache_keeps_no_path_whose_name_holds_a_secret(
    tmp_path: Path, name: str
) -> None:
    # The cache is a stored file: a project's path naming a token (a file committed under
    # the token's name, or with it joined to other words by "_", which gives the token's
    # rule no word boundary) keeps the history out of it; the history is still read and used.
    from memory_audit.checks.stale_refs import Options
    from tests.secrets.samples import CASES

    token = CASES["github-pat"][0][0][0]
    repo, _ = deleted_script_repo(tmp_path / "origin")
    first = repo.git("rev-parse", "HEAD~1")  # citing the deleting commit records the deletion
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=BODY.format(head=first[:8]))})
    state = tmp_path / "state"
    options = {"stale-refs": Options(state_dir=str(state))}

    def stale_codes() -> list[str]:
        found = report(tree, "stale-refs", options=options, location=at(repo.path)).findings
        return [f.code for f in found]

    assert stale_codes() == ["deleted-file-reference"]
    [cache] = (state / "cache").glob("git-history-*.json")  # a clean project is cached
    repo.commit("notes", {name.format(token=token): "x\n"})
    assert stale_codes() == ["deleted-file-reference"]  # read again, not from the cache
    stored = [p.read_bytes() for p in state.rglob("*") if p.is_file()]
    assert not any(token.encode() in data for data in stored)
    assert not cache.exists()
