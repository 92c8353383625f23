"""A superproject's memories cite its submodules' commits: those are the project's own work,
kept in the submodules' repositories, not commits rewritten away."""

from __future__ import annotations

from pathlib import Path

from memory_audit.tree.snapshot import ProjectLocation
from tests.harness import findings, memory, report, write_tree
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


def test_a_submodule_path_leading_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    project, engine_commit, own = superproject(tmp_path)
    # .gitmodules naming the engine's own clone outside the project, by a path that climbs
    (project.path / ".gitmodules").write_text(
        '[submodule "outside"]\n\tpath = ../engine\n\turl = ../engine\n'
    )
    body = BODY.format(engine=engine_commit[:10], own=own[:10])
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project.path))
    assert result.findings == ()
    assert [s.reason for s in result.skipped] == [
        "1 commit reference(s) not checked — not in this repository, and its submodules"
        " ../engine are not checked out (their commits?)"
    ]


def test_a_secret_in_a_submodules_path_is_masked_in_the_skip(tmp_path: Path) -> None:
    # the engine's boundary is made of the tree; a name from the project's own files (here
    # .gitmodules) is masked by the check itself
    project, engine_commit, own = superproject(tmp_path)
    key = "sk-or-v1-" + "7c0e4a19d2b38f56" * 4
    (project.path / ".gitmodules").write_text(
        f'[submodule "keys"]\n\tpath = vendor/{key}\n\turl = ../keys\n'
    )
    body = BODY.format(engine=engine_commit[:10], own=own[:10])
    tree = write_tree(tmp_path / "memory", {"a.md": memory("a", body=body)})
    result = report(tree, "stale-refs", location=at(project.path))
    [reason] = [s.reason for s in result.skipped]
    assert key not in reason
    assert reason.endswith("vendor/sk-o...8f56 are not checked out (their commits?)")


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
