from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_audit.commands.precommit import trees_of
from memory_audit.commands.targets import resolve_scope
from memory_audit.config.settings import Config
from memory_audit.errors import UsageError
from memory_audit.tree import discovery as discover
from memory_audit.tree.agent_stores import stores_in
from memory_audit.tree.walk import list_tree
from tests.harness import memory, write_tree


def make_project(
    home: Path, project: Path, transcripts: list[dict[str, object]] | None = None
) -> Path:
    slug = discover.slugify(project)
    folder = home / ".claude/projects" / slug
    write_tree(folder / "memory", {"MEMORY.md": "- [A](a.md) — a\n", "a.md": memory("a")})
    if transcripts is not None:
        lines = [json.dumps(t) for t in transcripts]
        (folder / "0001.jsonl").write_text("not json\n" + "\n".join(lines) + "\n")
    return folder / "memory"


def test_slugify_replaces_everything_outside_alphanumerics() -> None:
    assert discover.slugify("/home/me/my.app") == "-home-me-my-app"
    assert discover.slugify("/srv/a_b c/ü") == "-srv-a-b-c--"
    # letters and digits outside ASCII (str.isalnum says yes to them) are replaced too
    assert discover.slugify("/p/ß٣Ⅻ²") == "-p-----"


@given(st.text())
def test_slugify_is_the_regex_claude_code_s_slugs_follow(path: str) -> None:
    assert discover.slugify(path) == re.sub(r"[^A-Za-z0-9]", "-", path)


def test_project_path_comes_from_transcript_cwd_walking_up_to_the_slug(
    isolated_home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "my.app"
    (project / "src/deep").mkdir(parents=True)
    root = make_project(
        isolated_home, project, [{"type": "user", "cwd": str(project / "src/deep")}]
    )
    [ref] = discover.find_trees()
    assert ref.root == root
    assert ref.location.slug == discover.slugify(project)
    assert ref.location.project_path == project


def test_project_path_falls_back_to_a_filesystem_walk(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj.x" / "web-app"
    project.mkdir(parents=True)
    make_project(isolated_home, project, transcripts=None)
    [ref] = discover.find_trees()
    assert ref.location.project_path == project


def test_project_path_not_located_when_nothing_matches(isolated_home: Path) -> None:
    make_project(isolated_home, Path("/nonexistent/place/zz"), transcripts=[{"cwd": "/elsewhere"}])
    [ref] = discover.find_trees()
    assert ref.location.project_path is None


def test_long_slugs_match_by_prefix_never_recomputed(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / ("x" * 230)
    project.mkdir()
    slug = discover.slugify(project)[:200] + "-1a2b3c"
    folder = isolated_home / ".claude/projects" / slug
    write_tree(folder / "memory", {"a.md": memory("a")})
    (folder / "s.jsonl").write_text(json.dumps({"cwd": str(project)}) + "\n")
    [ref] = discover.find_trees()
    assert ref.location.project_path == project


def test_auto_memory_directory_from_settings_is_added(isolated_home: Path, tmp_path: Path) -> None:
    custom = write_tree(tmp_path / "custom-memory", {"a.md": memory("a")})
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude/settings.json").write_text(
        json.dumps({"autoMemoryDirectory": str(custom)})
    )
    assert [r.root for r in discover.find_trees()] == [custom]


def test_settings_local_wins_and_broken_settings_are_ignored(
    isolated_home: Path, tmp_path: Path
) -> None:
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude/settings.json").write_text("{not json")
    (isolated_home / ".claude/settings.local.json").write_text(
        json.dumps({"autoMemoryDirectory": "~/m"})
    )
    assert discover.settings_memory_dir() == isolated_home / "m"


def test_claude_config_dir_moves_the_projects_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    root = write_tree(tmp_path / "cc/projects/-p/memory", {"a.md": memory("a")})
    assert [r.root for r in discover.find_trees()] == [root]


def test_tree_for_path_accepts_tree_project_folder_and_project(
    isolated_home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    root = make_project(isolated_home, project, [{"cwd": str(project)}])
    assert discover.tree_for_path(root).root == root
    assert discover.tree_for_path(root.parent).root == root
    assert discover.tree_for_path(project).root == root


def test_tree_for_path_missing_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=f"no memory tree found at {tmp_path / 'nope'}"):
        discover.tree_for_path(tmp_path / "nope")
    assert not (tmp_path / "nope").exists()


def test_an_agents_empty_store_is_a_tree_an_empty_folder_is_not(tmp_path: Path) -> None:
    # Claude Code makes an agent's store before its first memory; a project commits it
    # with a .gitkeep. Audited by path, it is that agent's (empty) store.
    for scope in ("agent-memory", "agent-memory-local"):
        store = tmp_path / "app/.claude" / scope / "reviewer"
        store.mkdir(parents=True)
        (store / ".gitkeep").write_text("")
        assert discover.tree_for_path(store).root == store
    (tmp_path / "plain").mkdir()
    with pytest.raises(UsageError, match="no memory tree found"):
        discover.tree_for_path(tmp_path / "plain")
    # a folder that is only named agent-memory, outside a .claude folder, is no store
    (tmp_path / "notes/agent-memory/ideas").mkdir(parents=True)
    with pytest.raises(UsageError, match="no memory tree found"):
        discover.tree_for_path(tmp_path / "notes/agent-memory/ideas")


def test_tree_for_project_unknown_slug(isolated_home: Path) -> None:
    with pytest.raises(UsageError, match="no memory tree found at"):
        discover.tree_for_project("-does-not-exist")


def test_tree_for_project_accepts_slug_bare_slug_and_project_path(
    isolated_home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    root = make_project(isolated_home, project, [{"cwd": str(project)}])
    slug = discover.slugify(project)
    assert discover.tree_for_project(slug).root == root
    assert discover.tree_for_project(slug[1:]).root == root
    assert discover.tree_for_project(str(project)).root == root


def test_tree_for_folder_from_a_subfolder_and_for_long_hashed_slugs(
    isolated_home: Path, tmp_path: Path
) -> None:
    short = tmp_path / "app"
    (short / "src/deep").mkdir(parents=True)
    root = make_project(isolated_home, short, None)
    assert discover.tree_for_folder(short / "src/deep") == root
    long_project = tmp_path / ("y" * 230)
    (long_project / "lib").mkdir(parents=True)
    hashed = isolated_home / ".claude/projects" / (discover.slugify(long_project)[:200] + "-9f8e7d")
    write_tree(hashed / "memory", {"MEMORY.md": ""})
    assert discover.tree_for_folder(long_project / "lib") == hashed / "memory"
    assert discover.tree_for_folder(tmp_path / "unrelated") is None


def test_tree_for_project_with_a_very_long_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no memory tree found for the project"):
        discover.tree_for_project(str(tmp_path / ("z" * 300)))
    with pytest.raises(UsageError, match="no memory tree found at"):
        discover.tree_for_project("-" + "z" * 300)


def test_a_store_moved_to_trash_is_never_a_tree(isolated_home: Path) -> None:
    projects = isolated_home / ".claude/projects"
    live = write_tree(projects / "-src-app/memory", {"a.md": memory("a")})
    write_tree(projects / "-work-app/.trash/memory", {"a.md": memory("a")})
    found = discover.find_trees(("~/.claude/projects/**/memory",))
    assert [r.root for r in found] == [live]


def test_a_folder_of_agents_stores_named_on_the_command_line_brings_each_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its own tree leaves the stores' files out, so each store is a target of the same run,
    # and a file of a store with no index yet belongs to that store, not to the folder
    # above (pre-commit scanned a committed token nowhere).

    stores = tmp_path / "repo" / ".claude" / "agent-memory"
    write_tree(stores, {"MEMORY.md": "# Agents\n", "reviewer/deploy.md": "notes\n"})
    (stores / "coder").mkdir()
    (stores / "linked").symlink_to(tmp_path / "repo", target_is_directory=True)
    scope = resolve_scope([str(stores), str(stores / "coder")], None, Config())
    assert [ref.root for ref in scope.refs] == [stores, stores / "coder", stores / "reviewer"]
    assert trees_of([str(stores / "reviewer" / "deploy.md")]) == [stores / "reviewer"]
    # a symlinked store is audited by no one: its files are not the folder's, nor held apart
    assert list_tree(stores).apart == ["coder", "reviewer"]
    # the user's stores, wherever CLAUDE_CONFIG_DIR puts Claude Code's folder
    moved = tmp_path / "alt"
    write_tree(moved / "agent-memory", {"reviewer/MEMORY.md": "# R\n"})
    assert stores_in(moved / "agent-memory") == []
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(moved))
    assert stores_in(moved / "agent-memory") == ["reviewer"]
    assert stores_in(tmp_path / "repo" / ".claude") == []
