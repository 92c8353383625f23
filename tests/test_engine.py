from __future__ import annotations

import ast
import gc
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType, SimpleNamespace

import pytest

from memory_audit import checks, engine
from memory_audit.config.settings import Config
from memory_audit.errors import UsageError
from memory_audit.model.dimension import Role
from memory_audit.model.finding import Finding
from memory_audit.model.stores import AgentStore
from memory_audit.tree.discovery import TreeRef, locate
from memory_audit.tree.location import ProjectLocation
from memory_audit.tree.snapshot import AGENT_STORE_APART, MemoryTree
from tests.harness import index, load, memory, report, stand_in, write_tree
from tests.support.git_repo import Repo


def test_engine_orders_by_dimension_then_most_referenced_file(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("popular.md", "quiet.md"),
            "popular.md": memory("popular", type="bad"),
            "quiet.md": memory("quiet", type="bad"),
            "a.md": memory("a", body="[[popular]]"),
            "b.md": memory("b", body="[[popular]]"),
        },
    )
    found = report(tree_dir, "frontmatter", "orphans").findings
    assert [f.dimension for f in found] == [
        "frontmatter",
        "frontmatter",
        "orphans",
        "orphans",
    ]
    assert [f.path for f in found if f.dimension == "frontmatter"] == ["popular.md", "quiet.md"]


def test_engine_isolates_a_crashing_check(tree_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(tree: MemoryTree, options: object) -> Iterator[Finding]:
        yield from ()
        raise KeyError("file content must not leak")

    crashing = SimpleNamespace(ID="orphans", Options=lambda: None, check=explode)
    stand_in(monkeypatch, "orphans", crashing)
    write_tree(tree_dir, {"MEMORY.md": index(), "a.md": memory("a", type="bad")})
    # The engine itself, not the harness: the harness fails a test on any check error.
    result = engine.audit_tree(load(tree_dir), ["orphans", "frontmatter"])
    assert [f.code for f in result.findings] == ["invalid-type"]
    [(_path, error)] = result.errors
    assert error.startswith("check 'orphans' failed: KeyError at test_engine.py:")
    assert "leak" not in error


def test_engine_caps_text_but_counts_everything(tree_dir: Path) -> None:
    files = {f"f{i:02}.md": memory(f"f{i}", type="bad") for i in range(60)}
    write_tree(tree_dir, {"MEMORY.md": index(*files), **files})
    result = report(tree_dir, "frontmatter")
    assert result.counts == {"frontmatter": 60}
    assert len(result.shown(50)) == 50
    assert result.not_shown(50) == {"frontmatter": 10}


def test_engine_dismissed_findings_are_listed_apart(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index(), "a.md": memory("a"), "b.md": memory("b")})
    tree = load(tree_dir)
    first = engine.audit_tree(tree, ["orphans"]).findings[0]
    again = engine.audit_tree(tree, ["orphans"], dismissed={first.fingerprint})
    assert first not in again.findings
    assert again.dismissed == (first,)


def test_select_checks_rejects_unknown_ids_and_lists_valid_ones() -> None:
    with pytest.raises(UsageError, match="unknown dimension 'nope'; valid: index-drift, "):
        engine.select_checks(["nope"])
    assert engine.select_checks([], skip=["orphans"]) == tuple(
        d for d in checks.REGISTRY if d != "orphans"
    )


def test_fingerprints_are_stable_when_lines_move(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("gone.md")})
    before = report(tree_dir, "index-drift").findings[0]
    write_tree(tree_dir, {"MEMORY.md": "# Title\n\nintro\n" + index("gone.md")})
    after = report(tree_dir, "index-drift").findings[0]
    assert before.line != after.line
    assert before.fingerprint == after.fingerprint


def test_the_same_problem_on_several_lines_is_several_findings_each_with_its_own_fingerprint(
    tree_dir: Path,
) -> None:
    write_tree(
        tree_dir,
        {"MEMORY.md": index("a.md", "a.md", "a.md"), "a.md": memory("a")},
    )
    duplicates = [
        f for f in report(tree_dir, "index-drift").findings if f.code == "duplicate-index-entry"
    ]
    assert [f.line for f in duplicates] == [3, 4]
    assert len({f.fingerprint for f in duplicates}) == 2

    write_tree(tree_dir, {"MEMORY.md": "# Title\n\nintro\n" + index("a.md", "a.md", "a.md")})
    moved = [
        f for f in report(tree_dir, "index-drift").findings if f.code == "duplicate-index-entry"
    ]
    assert [f.line for f in moved] == [6, 7]
    assert [f.fingerprint for f in moved] == [f.fingerprint for f in duplicates]


def test_no_two_findings_of_the_example_tree_share_a_fingerprint() -> None:
    example = Path(__file__).resolve().parent.parent / "examples" / "drifted-memory"
    found = report(example).findings
    assert len(found) > 20
    assert len({f.fingerprint for f in found}) == len(found)


def test_the_engine_names_no_dimension() -> None:
    """What the engine needs of a dimension (text only, session inputs, leading codes,
    options others read) is declared on its ``Dimension``: a new check needs no engine edit."""
    source = Path(engine.__file__).read_text(encoding="utf-8")
    named = sorted(
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in checks.ORDER
    )
    assert named == []


def test_a_declared_role_moves_with_its_declaration() -> None:
    """The engine reads the roles off the table: the dimension declaring one is used."""
    [secret_rules] = [d.id for d in checks.DIMENSIONS if Role.SECRET_RULES in d.roles]
    assert secret_rules == engine.SECRET_RULES
    assert {d.id for d in checks.DIMENSIONS if d.text_only} == engine.TEXT_ONLY
    assert all(len([d for d in checks.DIMENSIONS if r in d.roles]) == 1 for r in Role)


def test_a_tree_not_read_is_shown_with_a_token_in_its_folder_name_masked(tmp_path: Path) -> None:
    """A tree Claude Code is consolidating is reported, not read: its path is still shown
    as the boundary shows names."""
    token = "xoxb-408126564530-3453933633499-" + "aB3dE5gH7jK9mN1pQ3sT5vW7"
    tree = write_tree(tmp_path / f"-work-{token}" / "memory", {"MEMORY.md": index()})
    (tree / ".consolidate-lock").write_text(str(os.getpid()))  # a live holder
    config = SimpleNamespace(
        settings=SimpleNamespace(audit=SimpleNamespace(max_per_dimension=50)),
        check_options=lambda dimension: checks.REGISTRY[dimension].Options(
            **({"state_dir": str(tmp_path / "state")} if dimension == "secrets" else {})
        ),
    )
    ref = TreeRef(tree, ProjectLocation(slug=f"-work-{token}"))
    run = engine.audit_refs([ref], config, ("secrets",))  # type: ignore[arg-type]
    [shown] = run.reports
    assert not shown.audited
    assert token not in f"{shown.root} {shown.project}"
    assert "-work-xoxb...5vW7/memory" in str(shown.root)


def test_no_cyclic_collection_walks_a_tree_while_it_is_audited(tmp_path: Path) -> None:
    """Issue 28 item 5: a snapshot's millions of objects live until its report is made,
    and full collections walked them all to free nothing; reference counting still frees
    the rest, and collection is on again after the tree."""
    files = {f"n{i}.md": memory(f"n{i}", body=f"see [n{i + 1}](n{i + 1}.md)") for i in range(80)}
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index(*files), **files})
    collections: list[int] = []

    def counted(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and _inside(sys._getframe(), {"load_tree", "audit_tree"}):
            collections.append(info["generation"])

    config = Config(option_types=checks.OPTION_TYPES)
    gc.callbacks.append(counted)
    try:
        run = engine.audit_refs([TreeRef(tree, ProjectLocation())], config, list(checks.REGISTRY))
    finally:
        gc.callbacks.remove(counted)
    [audited] = run.reports
    assert audited.audited
    assert audited.findings
    assert collections == []
    assert gc.isenabled()


def test_collection_stays_off_after_a_tree_where_it_was_off() -> None:
    gc.disable()
    try:
        with engine.collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def _inside(frame: FrameType | None, functions: set[str]) -> bool:
    while frame is not None:
        if frame.f_code.co_name in functions:
            return True
        frame = frame.f_back
    return False


def test_a_repository_copy_s_codes_measured_mostly_wrong_there_are_suggestions(
    tmp_path: Path, isolated_home: Path
) -> None:
    # The held-out corpus is repositories' copies of memory: there, a file without
    # frontmatter was often a document that is not a memory. In a folder Claude Code
    # writes, or a tree audited alone, it stays a problem; a secret stays one anywhere.
    files = {
        "MEMORY.md": "# Index\n- [A](a.md) — a\n- [Steps](steps.md) — the steps\n",
        "a.md": "---\nname: a\ndescription: About a\ntype: project\n---\nDB password: Harbor01!!x\n",
        "steps.md": "Scratch.\n",  # indexed, no frontmatter
        "notes.md": "---\nname: notes\ndescription: Notes\ntype: project\n---\nNotes.\n",
    }

    def levels(tree: Path, location: ProjectLocation | None) -> set[tuple[str, str]]:
        found = report(tree, "orphans", "frontmatter", "secrets", location=location).findings
        return {(f.code, str(f.level)) for f in found}

    repo = tmp_path / "repo"
    copy = write_tree(repo / "memory", files)
    assert levels(copy, ProjectLocation("-repo", repo, None)) == {
        ("orphan-candidate", "suggestion"),
        ("no-frontmatter", "suggestion"),
        ("possible-secret", "problem"),
    }
    # An agent's project-scope memory is kept inside the repository too (measured as
    # often wrong there as a copy); an agent's user-scope memory is Claude Code's folder.
    agent = write_tree(repo / ".claude" / "agent-memory" / "coder", files)
    assert levels(agent, ProjectLocation("-repo", repo, None, AgentStore("coder", "project"))) == {
        ("orphan-candidate", "suggestion"),
        ("no-frontmatter", "suggestion"),
        ("possible-secret", "problem"),
    }
    # A MEMORY.md at the repository's root makes the whole repository the tree: its
    # README, changelog and plans sit beside the index, no memories either.
    root = write_tree(tmp_path / "rooted", {**files, "CHANGELOG.md": "## 1.0\n- first\n"})
    assert levels(root, ProjectLocation("-rooted", root, None)) == {
        ("orphan-candidate", "suggestion"),
        ("no-frontmatter", "suggestion"),
        ("possible-secret", "problem"),
    }
    # Another agent's workspace audited alone holds files that are no memories too.
    workspace = write_tree(
        tmp_path / "workspace", {**files, "SOUL.md": "# Soul\n", "IDENTITY.md": "# Kit\n"}
    )
    assert levels(workspace, None) == {
        ("orphan-candidate", "suggestion"),
        ("no-frontmatter", "suggestion"),
        ("possible-secret", "problem"),
    }
    alone = write_tree(tmp_path / "alone" / "memory", files)
    own = write_tree(isolated_home / ".claude/projects/-work-p/memory", files)
    user_agent = write_tree(isolated_home / ".claude/agent-memory/coder", files)
    # (an orphan is a suggestion everywhere: which to index is the owner's call)
    for tree in (alone, own, user_agent):
        assert levels(tree, None) == {
            ("orphan-candidate", "suggestion"),
            ("no-frontmatter", "problem"),
            ("possible-secret", "problem"),
        }


def test_a_link_out_of_a_repository_s_copy_is_a_suggestion_and_a_live_folder_s_a_problem(
    tmp_path: Path, isolated_home: Path
) -> None:
    # round 126: a copy's `shared` links to the repository's own shared folder, where the
    # files are meant to stay; the audit reads nothing outside the tree either way
    files = {"MEMORY.md": "# Index\n- [A](a.md) — a\n", "a.md": memory("a")}
    repo = tmp_path / "repo"
    write_tree(repo / "shared", {"team.md": memory("team")})
    copy = write_tree(repo / "memory", files)
    (copy / "shared").symlink_to("../shared")
    live = write_tree(isolated_home / ".claude/projects/-work-p/memory", files)
    (live / "shared").symlink_to(repo / "shared")

    def linked(tree: Path, location: ProjectLocation | None) -> list[Finding]:
        found = report(tree, "frontmatter", location=location).findings
        return [f for f in found if f.code == "symlink-outside-tree"]

    [in_copy] = linked(copy, ProjectLocation("-repo", repo, None))
    [in_live] = linked(live, None)
    assert (in_copy.level, in_live.level) == ("suggestion", "problem")
    assert in_copy.suggestion is not None
    assert in_copy.suggestion.startswith("audit the link's target on its own")


def test_a_dotfiles_repository_s_copy_of_memory_is_a_copy(
    tmp_path: Path, isolated_home: Path
) -> None:
    # ~/dotfiles/claude/memory: the user's memory kept in a dotfiles repository, its index
    # written for where setup installs the notes (`memory/x.md`). No project is located
    # there; what a copy measures mostly wrong is a suggestion, as in a project's copy.
    repo = Repo(tmp_path / "dotfiles")
    repo.write(
        {
            "claude/memory/MEMORY.md": "# Index\n- [Profile](memory/profile.md) — who I am\n",
            "claude/memory/profile.md": "Owner profile.\nDB password: Harbor01!!x\n",
        }
    )
    repo.commit("dotfiles")
    tree = repo.path / "claude/memory"
    location = locate(tree)
    assert (location.project_path, location.in_config_repository) == (None, True)
    found = report(tree, "index-drift", "frontmatter", "secrets", location=location).findings
    assert {(f.code, str(f.level)) for f in found} == {
        ("stale-index-path", "suggestion"),
        ("no-frontmatter", "suggestion"),
        ("possible-secret", "problem"),
    }
    # the same folder Claude Code loads (autoMemoryDirectory) is no copy
    write_tree(
        isolated_home / ".claude", {"settings.json": json.dumps({"autoMemoryDirectory": str(tree)})}
    )
    found = report(tree, "index-drift", "frontmatter", location=locate(tree)).findings
    assert {(f.code, str(f.level)) for f in found} == {
        ("stale-index-path", "problem"),
        ("no-frontmatter", "problem"),
    }


def test_a_package_manager_s_folders_are_never_read_as_memories(tmp_path: Path) -> None:
    # a skill's plugin installed its dependencies inside the tree: their documents are no
    # memories (no orphans, no broken links, no secrets of the owner's), at any depth; a
    # memory folder of another name beside them is read
    vendored = "# Changelog\nSee [the docs](missing.md).\nAPI_KEY=Hq83kZp2xVr9Lm4Tq7Wn\n"
    files = {
        "MEMORY.md": index("a.md"),
        "a.md": memory("a"),
        "skills/x/plugin/node_modules/openai/CHANGELOG.md": vendored,
        "node_modules/left-pad/README.md": vendored,
        "tools/__pycache__/notes.md": vendored,
        "skills/x/notes.md": vendored,
    }
    tree = write_tree(tmp_path / "memory", files)
    found = report(tree, "orphans", "relations", "secrets").findings
    assert {f.path for f in found} == {"skills/x/notes.md"}
    assert {f.code for f in found} >= {"orphan-candidate", "possible-secret"}


def test_agents_stores_inside_a_folder_of_stores_are_audited_once_on_their_own(
    tmp_path: Path,
) -> None:
    # An index kept beside the agents' stores in .claude/agent-memory/: each store is a tree
    # Claude Code loads on its own, so its files' findings belong to it, not once more to
    # the folder above (there they came twice, under other codes: a store's MEMORY.md as a
    # memory without frontmatter, its broken entry as a broken link)
    stores = tmp_path / "repo" / ".claude" / "agent-memory"
    write_tree(
        stores,
        {
            "MEMORY.md": "# Agents\n- [Reviewer](reviewer/MEMORY.md) — the reviewer's notes\n",
            "reviewer/MEMORY.md": index("style.md", "gone.md"),
            "reviewer/style.md": memory("style"),
            "team-notes.md": memory("team-notes", body="See [a gone note](gone.md)."),
        },
    )
    above = report(stores)
    assert {(f.path, f.code) for f in above.findings} == {
        ("team-notes.md", "orphan-candidate"),
        ("team-notes.md", "broken-link"),
    }
    assert dict(above.not_memories) == {"reviewer/": AGENT_STORE_APART}
    store = report(stores / "reviewer")
    assert {(f.path, f.code) for f in store.findings} >= {("MEMORY.md", "broken-index-link")}
    # a folder of another name keeps its subfolders' files
    other = write_tree(tmp_path / "memory", {"MEMORY.md": index("a/b.md"), "a/b.md": memory("b")})
    assert report(other).findings == ()
