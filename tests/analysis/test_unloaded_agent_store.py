"""An agent's store that its project's agent file no longer keeps: loaded by no session."""

from __future__ import annotations

from pathlib import Path

from memory_audit.model.run import Run
from memory_audit.model.stores import AgentStore
from memory_audit.report.text import render_tree
from memory_audit.tree.location import ProjectLocation
from tests.harness import report, write_tree

AGENT = "---\nname: code-reviewer\ndescription: Reviews diffs\n{memory}---\nYou review code.\n"
# a description a ` #` cuts (a frontmatter problem in a loaded store) and a pasted password
NOTE = (
    "---\nname: conventions\ndescription: Use tabs #always in Go files\ntype: feedback\n---\n"
    "Staging admin password: Quarry7Fen!\n"
)


def store(tmp_path: Path) -> tuple[Path, ProjectLocation, Path]:
    repo = tmp_path / "repo"
    root = write_tree(
        repo / ".claude/agent-memory/code-reviewer",
        {"MEMORY.md": "- [Conventions](conventions.md) — tabs in Go\n", "conventions.md": NOTE},
    )
    location = ProjectLocation("-repo", repo, None, AgentStore("code-reviewer", "project"))
    return root, location, repo / ".claude/agents"


def levels(root: Path, location: ProjectLocation) -> tuple[str | None, dict[str, str | None]]:
    found = report(root, "frontmatter", "secrets", location=location)
    return found.frozen, {f.dimension: f.level for f in found.findings}


def test_a_store_its_agent_keeps_elsewhere_is_frozen_and_only_its_secrets_are_problems(
    tmp_path: Path,
) -> None:
    root, location, agents = store(tmp_path)
    agents.mkdir(parents=True)
    # the project's agent of that name keeps no memory: a project's agent wins over a
    # user's of its name, so no session loads this store
    (agents / "code-reviewer.md").write_text(AGENT.format(memory=""))
    frozen, found = levels(root, location)
    assert frozen is not None
    assert "agent `code-reviewer` (.claude/agents)" in frozen
    assert "no `memory:`" in frozen
    assert found == {"frontmatter": "suggestion", "secrets": "problem"}
    # the same for an agent that moved its memory to the user's folder
    (agents / "code-reviewer.md").write_text(AGENT.format(memory="memory: user\n"))
    frozen, found = levels(root, location)
    assert frozen is not None
    assert "keeps its memory in another scope" in frozen
    assert found == {"frontmatter": "suggestion", "secrets": "problem"}
    shown = report(root, "frontmatter", location=location)
    assert "Frozen: the project's agent `code-reviewer`" in render_tree(shown, Run((shown,)))


def test_a_store_its_agent_keeps_or_no_project_agent_names_stays_live(tmp_path: Path) -> None:
    root, location, agents = store(tmp_path)
    # no agent file of that name: a user's own agent may keep it
    assert levels(root, location) == (None, {"frontmatter": "problem", "secrets": "problem"})
    agents.mkdir(parents=True)
    (agents / "planner.md").write_text(AGENT.replace("code-reviewer", "planner").format(memory=""))
    assert levels(root, location) == (None, {"frontmatter": "problem", "secrets": "problem"})
    # two files name the agent, one keeping project memory: that one is loaded
    (agents / "code-reviewer.md").write_text(AGENT.format(memory=""))
    (agents / "reviewer-v2.md").write_text(AGENT.format(memory="memory: project\n"))
    assert levels(root, location) == (None, {"frontmatter": "problem", "secrets": "problem"})


def test_the_frozen_reason_repeats_nothing_from_outside_the_tree(tmp_path: Path) -> None:
    # The agent file is outside the tree: neither its `memory:` value (here a pasted
    # token) nor its name reaches the report; a store named by a token is masked there
    # as the tree's path is.
    token = "ghp_" + "Zq7RkP2mXv9LwT4nB6yd8Gw3H2Gh394M0Ef7"
    repo = tmp_path / "repo"
    root = write_tree(repo / ".claude/agent-memory" / token, {"MEMORY.md": "- [A](a.md) — a\n"})
    location = ProjectLocation("-repo", repo, None, AgentStore(token, "project"))
    agents = repo / ".claude/agents"
    agents.mkdir(parents=True)
    (agents / f"{token}.md").write_text(
        AGENT.replace("code-reviewer", token).format(memory=f"memory: {token}\n")
    )
    found = report(root, "index-drift", location=location)
    assert found.frozen is not None
    assert token not in found.frozen
    assert token not in str(found.root)
    assert found.agent is not None
    assert token not in found.agent.name  # the report's title names the agent
