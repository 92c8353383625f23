"""Agents' memory stores: found in every scope, named by agent and scope, never escaping."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memory_audit.model.stores import AgentStore
from memory_audit.tree import discovery
from memory_audit.tree.agent_stores import agent_folder_name, agent_store_path
from tests.harness import index, memory, write_tree
from tests.support.transcripts import write_session


def agent_tree(root: Path) -> Path:
    return write_tree(root, {"MEMORY.md": index("a.md"), "a.md": memory("a")})


def git_project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def test_agent_stores_are_found_in_each_scope_with_agent_and_scope(
    isolated_home: Path, tmp_path: Path
) -> None:
    project = git_project(tmp_path / "app")
    slug = discovery.slugify(project)
    write_session(isolated_home / ".claude/projects" / slug, 0, [], cwd=str(project))
    user = agent_tree(isolated_home / ".claude/agent-memory/reviewer")
    shared = agent_tree(project / ".claude/agent-memory/planner")
    local = agent_tree(project / ".claude/agent-memory-local/planner")
    found = {ref.root: ref.location for ref in discovery.find_trees(every_store=True)}
    assert found[user].agent == AgentStore("reviewer", "user")
    assert found[user].project_path is None
    assert found[shared].agent == AgentStore("planner", "project")
    assert found[shared].project_path == project  # committed: checked against its repository
    assert found[local].agent == AgentStore("planner", "local")
    labels = {ref.label for ref in discovery.find_trees(every_store=True)}
    assert {"agent reviewer (user)", "agent planner (project)", "agent planner (local)"} <= labels


def test_agent_stores_are_left_out_of_the_watchers_listing(isolated_home: Path) -> None:
    agent_tree(isolated_home / ".claude/agent-memory/reviewer")
    assert discovery.find_trees() == []


def test_a_project_folder_that_no_longer_exists_has_no_agent_stores(
    isolated_home: Path, tmp_path: Path
) -> None:
    gone = tmp_path / "gone"
    slug = discovery.slugify(gone)
    write_session(isolated_home / ".claude/projects" / slug, 0, [], cwd=str(gone))
    user = agent_tree(isolated_home / ".claude/agent-memory/reviewer")
    assert [r.root for r in discovery.find_trees(every_store=True)] == [user]


def test_a_plugin_agents_colon_becomes_a_dash_in_its_folder(isolated_home: Path) -> None:
    assert agent_folder_name("tools:reviewer") == "tools-reviewer"
    store = agent_tree(isolated_home / ".claude/agent-memory/tools-reviewer")
    assert agent_store_path("tools:reviewer", "user") == store
    [ref] = discovery.find_trees(every_store=True)
    assert ref.location.agent == AgentStore("tools-reviewer", "user")


def test_an_agent_name_with_a_path_separator_has_no_store(tmp_path: Path) -> None:
    for name in ("../escape", "a/b", "a\\b", "..", ".", "", "x\0y"):
        assert agent_folder_name(name) is None
        assert agent_store_path(name, "project", tmp_path) is None


def test_a_symlinked_agent_folder_is_not_followed(isolated_home: Path, tmp_path: Path) -> None:
    elsewhere = agent_tree(tmp_path / "elsewhere")
    (isolated_home / ".claude/agent-memory").mkdir(parents=True)
    (isolated_home / ".claude/agent-memory/linked").symlink_to(elsewhere)
    assert discovery.find_trees(every_store=True) == []


def test_an_explicit_agent_store_path_is_known_as_that_agents(tmp_path: Path) -> None:
    project = git_project(tmp_path / "app")
    store = agent_tree(project / ".claude/agent-memory/tester")
    ref = discovery.tree_for_path(store)
    assert ref.location.agent == AgentStore("tester", "project")
    assert ref.location.project_path == project


def test_a_projects_local_auto_memory_directory_is_a_store_of_that_project(
    isolated_home: Path, tmp_path: Path
) -> None:
    project = git_project(tmp_path / "app")
    slug = discovery.slugify(project)
    write_session(isolated_home / ".claude/projects" / slug, 0, [], cwd=str(project))
    moved = agent_tree(tmp_path / "synced/app-memory")
    ignored = agent_tree(tmp_path / "elsewhere")
    (project / ".claude").mkdir()
    (project / ".claude/settings.json").write_text(f'{{"autoMemoryDirectory": "{ignored}"}}')
    (project / ".claude/settings.local.json").write_text(f'{{"autoMemoryDirectory": "{moved}"}}')
    found = {ref.root: ref.location for ref in discovery.find_trees(every_store=True)}
    assert found[moved].project_path == project
    assert ignored not in found  # a shared settings file cannot redirect memory
