"""A superproject's memories cite its submodules' commits: those are the project's own work,
kept in the submodules' repositories, not commits rewritten away."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memory_audit.engine import audit_tree
from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import findings, load, memory, report, write_tree
from tests.support.git_repo import Repo


def at(project: Path) -> ProjectLocation:
    return ProjectLocation("-p", project, None)


def superproject(tmp_path: Path) -> tuple[Repo, str, str]:
    """A project whose ``repos/engine`` is a submodule checked out; returns it, a commit of
    the submodule's and one of its own."""
    engine = Repo(tmp_path / "engine")
    engine_commit = engine.commit("engine: retry queue", {"queue.rs": "fn retry() {}\n"})
    project = Repo(tmp_path / "p")
    own = project.commit("first", {"README.md": "meta\n"})
    project.git(
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        str(engine.path),
        "repos/engine",
    )
    project.commit("add the engine as a submodule")
    return project, engine_commit, own


BODY = "Queue landed as commit {engine}.\nThe index was bumped in commit {own}.\n"


def test_a_checked_out_submodules_commit_is_the_projects_own(tmp_path: Path) -> None:
    project, engine_commit, own = superproject(tmp_path)
    body = BODY.format(engine=engine_commit[:10], own=own[:10]) + "Hotfix in commit 4f2a91c0.\n"
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(project.path))
    # every submodule is checked out, and none has 4f2a91c0: it is still not the project's
    assert [(f.code, f.line, f.message.split("`")[1]) for f in found] == [
        ("stale-commit-reference", 8, "4f2a91c0")
    ]


def test_with_a_submodule_not_checked_out_an_absent_commit_is_skipped_and_said(
    tmp_path: Path,
) -> None:
    project, engine_commit, own = superproject(tmp_path)
    # a clone made without --recurse-submodules: the submodule's folder is there, empty
    project.git("submodule", "deinit", "-q", "--force", "repos/engine")
    body = BODY.format(engine=engine_commit[:10], own=own[:10])
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project.path))
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == [
        "1 commit reference(s) not checked — not in this repository, and its submodules"
        " repos/engine are not checked out (their commits?)"
    ]


def test_a_rebased_away_commit_of_the_superproject_is_still_stale(tmp_path: Path) -> None:
    project, engine_commit, own = superproject(tmp_path)
    project.git("submodule", "deinit", "-q", "--force", "repos/engine")
    project.git("checkout", "-qb", "topic")
    lost = project.commit("topic work", {"topic.txt": "t\n"})
    project.git("checkout", "-q", "main")
    project.git("branch", "-qD", "topic")
    body = BODY.format(engine=engine_commit[:10], own=own[:10]) + f"Topic: commit {lost[:10]}.\n"
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(project.path))
    assert [(f.code, f.line) for f in found] == [("stale-commit-reference", 8)]
    assert "no longer reachable" in found[0].message


def test_without_submodules_a_commit_the_project_lacks_is_reported(tmp_path: Path) -> None:
    project, engine_commit, own = superproject(tmp_path)
    project.git("rm", "-q", "repos/engine")
    project.commit("drop the submodule")
    (project.path / ".gitmodules").unlink(missing_ok=True)
    project.commit("drop .gitmodules")
    body = BODY.format(engine=engine_commit[:10], own=own[:10])
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(project.path))
    assert [(f.code, f.line) for f in found] == [("stale-commit-reference", 6)]


def test_only_a_gitlink_gitmodules_names_inside_the_project_is_a_submodule(
    tmp_path: Path,
) -> None:
    # .gitmodules names the engine's own clone outside the project, a file, and an entry
    # whose gitlink is gone: none is a submodule, so the commits the project lacks are its
    # stale ones, and nothing outside the project is read
    project, engine_commit, own = superproject(tmp_path)
    project.git("rm", "-q", "--cached", "repos/engine")
    shutil.rmtree(project.path / "repos/engine")
    (project.path / ".gitmodules").write_text(
        '[submodule "outside"]\n\tpath = ../engine\n\turl = ../engine\n'
        '[submodule "file"]\n\tpath = README.md\n\turl = ../engine\n'
        '[submodule "gone"]\n\tpath = repos/engine\n\turl = ../engine\n'
    )
    project.commit("drop the gitlink, keep .gitmodules")
    body = BODY.format(engine=engine_commit[:10], own=own[:10])
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project.path))
    assert [(f.code, f.line) for f in result.findings] == [("stale-commit-reference", 6)]
    assert result.skipped == ()


def test_a_secret_in_a_submodules_path_is_masked_in_the_skip(tmp_path: Path) -> None:
    # the engine's boundary is made of the tree; a name from the project's own files (here
    # .gitmodules) is masked by the check itself
    project, engine_commit, own = superproject(tmp_path)
    key = "sk-or-v1-" + "7c0e4a19d2b38f56" * 4
    project.git(
        *("-c", "protocol.file.allow=always", "submodule", "add", "-q"),
        *(str(tmp_path / "engine"), f"vendor/{key}"),
    )
    project.commit("vendor the engine again")
    project.git("submodule", "deinit", "-q", "--force", "--all")
    body = BODY.format(engine=engine_commit[:10], own=own[:10])
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project.path))
    [reason] = [s.reason for s in result.skipped]
    assert key not in reason
    assert reason.endswith("repos/engine, vendor/sk-o...8f56 are not checked out (their commits?)")


def test_a_commit_rebased_away_in_the_submodule_is_stale(tmp_path: Path) -> None:
    project, engine_commit, own = superproject(tmp_path)
    engine = Repo.__new__(Repo)
    engine.path, engine.day = project.path / "repos/engine", 10
    engine.git("checkout", "-qb", "topic")
    lost = engine.commit("topic", {"topic.rs": "x\n"})
    engine.git("checkout", "-q", "--detach", engine_commit)
    engine.git("branch", "-qD", "topic")
    body = BODY.format(engine=engine_commit[:10], own=own[:10]) + f"Topic: commit {lost[:10]}.\n"
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    [found] = findings(tree, "stale-refs", location=at(project.path))
    assert (found.code, found.line) == ("stale-commit-reference", 8)
    assert "no longer reachable" in found.message


def test_a_dot_git_file_pointing_out_of_the_project_is_no_checked_out_submodule(
    tmp_path: Path,
) -> None:
    project, _, own = superproject(tmp_path)
    other = Repo(tmp_path / "other")
    other_commit = other.commit("other", {"o.txt": "o\n"})
    project.git("submodule", "deinit", "-q", "--force", "repos/engine")
    (project.path / "repos/engine/.git").write_text(f"gitdir: {other.path}/.git\n")
    body = f"Other work: commit {other_commit[:10]}.\nThe index: commit {own[:10]}.\n"
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project.path))
    # the other repository's object database was not read: its commit is unverifiable
    assert result.findings == ()
    assert [s.reason.split(" —")[0] for s in result.skipped] == [
        "1 commit reference(s) not checked"
    ]


@pytest.mark.parametrize("kind", ["link loop", "long name", "sealed folder"])
def test_a_submodule_folder_that_cannot_be_read_is_not_checked_out(
    tmp_path: Path, kind: str
) -> None:
    project, engine_commit, own = superproject(tmp_path)
    project.git("submodule", "deinit", "-q", "--force", "repos/engine")
    folder = project.path / "repos/engine"
    if kind == "link loop":
        folder.rmdir()
        folder.symlink_to("engine")
    elif kind == "long name":
        (project.path / ".gitmodules").write_text(
            '[submodule "x"]\n\tpath = ' + "a" * 300 + "\n\turl = ../engine\n"
        )
    else:
        (project.path / "repos").chmod(0o000)
    body = BODY.format(engine=engine_commit[:10], own=own[:10])
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    try:
        result = audit_tree(load(tree, location=at(project.path)), ("stale-refs",), None)
    finally:
        (project.path / "repos").chmod(0o755)
    assert result.errors == ()
    assert len(result.findings) + len(result.skipped) == 1  # the engine's commit, one way


def test_a_partial_clones_missing_commit_is_never_fetched(tmp_path: Path) -> None:
    # a lookup of an object a partial clone lacks would fetch it from its promisor remote,
    # running the command its configuration names: no transport, no lazy fetch
    project, _, own = superproject(tmp_path)
    marker = tmp_path / "ran"
    for git_dir in (project.path / ".git", project.path / ".git/modules/repos/engine"):
        for key, value in (
            ("core.repositoryformatversion", "1"),
            ("extensions.partialClone", "origin"),
            ("remote.origin.promisor", "true"),
            ("remote.origin.uploadpack", f"sh -c 'touch {marker}; exec git-upload-pack \"$@\"' x"),
        ):
            project.git("--git-dir", str(git_dir), "config", key, value)
    body = f"The index: commit {own[:10]}.\nHotfix in commit {'4f2a91c0' * 5}.\n"
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    found = findings(tree, "stale-refs", location=at(project.path))
    assert not marker.exists()
    assert [(f.code, f.line) for f in found] == [("stale-commit-reference", 7)]


def test_a_file_renamed_to_a_secrets_name_never_shows_it(tmp_path: Path) -> None:
    key = "sk-or-v1-" + "7c0e4a19d2b38f56" * 4
    project = Repo(tmp_path / "p")
    project.commit("first", {"scripts/deploy.sh": "echo deploy\n", "README.md": "app\n"})
    project.move("park the script", "scripts/deploy.sh", f"keys/{key}.sh")
    body = "Deploys run `scripts/deploy.sh`."
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project.path))
    shown = [f"{f.message} {f.suggestion} {f.fix}" for f in result.findings]
    shown += [s.reason for s in result.skipped]
    assert shown
    assert not any(key in text for text in shown)
    [found] = result.findings
    assert "`keys/sk-o...8f56.sh`" in found.message
    assert found.fix is None  # an edit would write the key into the memory
