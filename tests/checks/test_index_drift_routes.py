"""index-drift's missing-index for a folder the repository routes sessions to."""

from __future__ import annotations

from pathlib import Path

from memory_audit.model.finding import Finding
from memory_audit.tree.location import ProjectLocation
from tests.harness import findings, memory, write_tree


def _missing_index(tree: Path, project: Path) -> Finding:
    [missing] = findings(tree, "index-drift", location=ProjectLocation(project_path=project))
    assert missing.code == "missing-index"
    return missing


def test_a_client_folder_the_projects_claude_md_routes_to_is_a_suggestion(
    tmp_path: Path,
) -> None:
    # Client folders without an index of their own, read through the root's routing table.
    repo = tmp_path / "repo"
    router = "# Router\n\n- Deliverables: `clients/[domain]/[capability]/`\n"
    write_tree(repo, {"CLAUDE.md": router + "- Client memory → `clients/[domain]/memory/`\n"})
    tree = write_tree(repo / "clients/acme.example/memory", {"client_acme.md": memory("acme")})
    missing = _missing_index(tree, repo)
    assert missing.level == "suggestion"
    assert "CLAUDE.md (line 4) routes sessions to this folder" in missing.message
    assert (missing.suggestion or "").startswith("if Claude Code should load this folder")


def test_a_folder_a_project_memory_section_links_into_is_a_suggestion(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    tree = write_tree(repo / "memory", {"user_profile.md": memory("profile", type="user")})
    # A link to the missing index itself routes nothing, nor does a folder of that name
    # somewhere else.
    write_tree(repo, {"CLAUDE.md": "Read `memory/MEMORY.md` first; see docs/memory/x.md.\n"})
    assert "routes sessions" not in _missing_index(tree, repo).message
    section = "# Course\n\n## Project memory\n- [Profile](memory/user_profile.md)\n"
    write_tree(repo, {".claude/CLAUDE.md": section})
    missing = _missing_index(tree, repo)
    assert missing.level == "suggestion"
    assert ".claude/CLAUDE.md (line 4)" in missing.message


def test_claude_codes_own_folder_without_an_index_stays_a_problem(isolated_home: Path) -> None:
    project = isolated_home / ".claude/projects/-work-p"
    write_tree(project, {"CLAUDE.md": "- [A](memory/a.md) — notes\n"})
    tree = write_tree(project / "memory", {"a.md": memory("a")})
    assert _missing_index(tree, project).level == "problem"


def test_instruction_files_too_large_or_not_text_route_nothing(tmp_path: Path) -> None:
    # Read bounded: a CLAUDE.md past 256 KiB is not read, binary bytes do not crash.
    repo = tmp_path / "repo"
    tree = write_tree(repo / "memory", {"a.md": memory("a")})
    padding = "x/" * (200 * 1024) + "\n"
    write_tree(repo, {"CLAUDE.md": padding + "- [A](memory/a.md)\n", "AGENTS.md": b"\xff\x00/"})
    assert "routes sessions" not in _missing_index(tree, repo).message
    write_tree(repo, {"CLAUDE.md": "- [A](memory/a.md)\n"})
    assert _missing_index(tree, repo).level == "suggestion"
