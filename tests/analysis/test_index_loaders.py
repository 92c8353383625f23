"""Which of the project's instruction files loads the tree's whole MEMORY.md."""

from __future__ import annotations

from pathlib import Path

from memory_audit.analysis.health import measure
from memory_audit.analysis.index_loaders import IndexLoader, index_loader
from memory_audit.tree.location import ProjectLocation
from tests.harness import index, load, write_tree


def loader_of(tree: Path, project: Path) -> IndexLoader | None:
    return index_loader(load(tree, location=ProjectLocation("-project", project, None)))


def test_index_loader_resolves_an_import_from_the_home_folder(tmp_path: Path) -> None:
    tree = write_tree(Path.home() / ".claude/projects/-project/memory", {"MEMORY.md": index()})
    project = write_tree(
        tmp_path / "project",
        {"CLAUDE.md": "# Project\n@~/.claude/projects/-project/memory/MEMORY.md\n"},
    )
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 2, imported=True)


def test_index_loader_reads_no_instruction_file_outside_the_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    tree = write_tree(project / "memory", {"MEMORY.md": index()})
    outside = write_tree(tmp_path / "outside", {"notes.md": f"@{tree / 'MEMORY.md'}\n"})
    (project / "CLAUDE.md").symlink_to(outside / "notes.md")
    write_tree(project, {".claude/CLAUDE.md": "@../../outside/notes.md\n"})
    assert loader_of(tree, project) is None
    # the same file inside the project is read
    write_tree(project, {"docs/notes.md": f"@{tree / 'MEMORY.md'}\n"})
    write_tree(project, {".claude/CLAUDE.md": "@../docs/notes.md\n"})
    assert loader_of(tree, project) == IndexLoader("docs/notes.md", 1, imported=True)


def test_index_loader_an_import_wins_over_an_instruction_before_it(tmp_path: Path) -> None:
    project = tmp_path / "project"
    tree = write_tree(project / "memory", {"MEMORY.md": index()})
    write_tree(project, {"CLAUDE.md": "Read memory/MEMORY.md first.\n\n@memory/MEMORY.md\n"})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 3, imported=True)
    write_tree(project, {"CLAUDE.md": "Read memory/MEMORY.md first.\n"})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 1, imported=False)


def test_index_loader_a_pathological_line_is_read_in_one_pass(tmp_path: Path) -> None:
    project = tmp_path / "project"
    tree = write_tree(project / "memory", {"MEMORY.md": index()})
    line = "@a " * 20_000 + "read " + "memory/MEMORY.md " * 5_000 + "x/" * 20_000 + "MEMORY.md"
    write_tree(project, {"CLAUDE.md": line + "\n"})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 1, imported=False)


def test_index_loader_a_checklist_in_a_code_block_is_an_instruction_not_an_import(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    tree = write_tree(project / "memory", {"MEMORY.md": index()})
    checklist = (
        "Start of a session:\n\n```\n@memory/MEMORY.md\n1. Read memory/MEMORY.md  # index\n```\n"
    )
    write_tree(project, {"CLAUDE.md": checklist})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 5, imported=False)


def test_index_loader_an_import_holding_a_nul_byte_names_no_file(tmp_path: Path) -> None:
    # Odd bytes in an instruction file: a path with a NUL names nothing (the system
    # refuses it), and the file's real import is still found.
    project = tmp_path / "project"
    tree = write_tree(project / "memory", {"MEMORY.md": index()})
    write_tree(project, {"CLAUDE.md": b"See @docs/a\0b.md\n@memory/MEMORY.md\n"})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 2, imported=True)


def test_index_loader_looks_at_the_first_64_imports_of_a_file(tmp_path: Path) -> None:
    # Thousands of `@` words in one file are mentions, not imports: each would cost two
    # real-path walks, so a file's first 64 are looked at (real files hold a handful).
    project = tmp_path / "project"
    tree = write_tree(project / "memory", {"MEMORY.md": index()})
    mentions = "".join(f"thanks @user{i}\n" for i in range(63))
    write_tree(project, {"CLAUDE.md": f"{mentions}@memory/MEMORY.md\n"})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 64, imported=True)
    write_tree(project, {"CLAUDE.md": f"{mentions}thanks @user63\n@memory/MEMORY.md\n"})
    assert loader_of(tree, project) is None


def test_the_health_line_names_no_cut_in_an_index_the_project_imports(tmp_path: Path) -> None:
    # index-budget reports nothing cut there; the health line and the HTML report agree
    project = tmp_path / "project"
    tree = write_tree(project / "memory", {"MEMORY.md": index(*(f"n{i}.md" for i in range(230)))})
    assert measure(load(tree, location=ProjectLocation("-p", project, None))).index_cut_line
    write_tree(project, {"CLAUDE.md": "# Project\n\n@memory/MEMORY.md\n"})
    located = load(tree, location=ProjectLocation("-p", project, None))
    assert measure(located).index_cut_line is None


def test_an_index_telling_sessions_to_read_it_first_loads_itself(tmp_path: Path) -> None:
    # index-budget reports nothing cut there (no project needed); the health line agrees
    notes = index(*(f"n{i}.md" for i in range(230)))
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": notes})
    assert measure(load(tree)).index_cut_line == 201
    said = notes.replace("\n", "\n> 每次新会话开始前，先读本文件。\n", 1)
    write_tree(tree, {"MEMORY.md": said})
    assert index_loader(load(tree)) == IndexLoader("MEMORY.md", 2, imported=False, itself=True)
    assert measure(load(tree)).index_cut_line is None


def test_the_projects_own_loader_wins_over_the_index_telling_to_read_itself(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    said = "# Index\nRead this file at the start of every session.\n- [A](a.md) — a\n"
    tree = write_tree(project / "memory", {"MEMORY.md": said})
    assert loader_of(tree, project) == IndexLoader("MEMORY.md", 2, imported=False, itself=True)
    write_tree(project, {"CLAUDE.md": "# Project\n\n@memory/MEMORY.md\n"})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 3, imported=True)


def test_an_item_of_a_list_whose_heading_or_lead_in_says_to_read_it_is_an_instruction(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    tree = write_tree(project / "docs", {"MEMORY.md": index()})
    russian = "# Проект\n\n## Ключевые файлы (ПРОЧИТАЙ ПЕРВЫМИ)\n1. `docs/MEMORY.md` — память\n"
    write_tree(project, {"CLAUDE.md": russian})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 4, imported=False)
    lead_in = "Before any change, read these:\n\n- `docs/SYSTEM.md`\n- `docs/MEMORY.md`\n"
    write_tree(project, {"CLAUDE.md": lead_in})
    assert loader_of(tree, project) == IndexLoader("CLAUDE.md", 4, imported=False)
    # a list under a heading that says nothing of reading, or after another section's
    # heading, or a lead-in that is a sentence of its own: no instruction
    for text in (
        "## Key files\n1. `docs/MEMORY.md` — memory\n",
        "## Read first\n- `docs/A.md`\n\n## Layout\n- `docs/MEMORY.md` — memory\n",
        "We read the logs daily.\n- `docs/MEMORY.md` — memory\n",
    ):
        write_tree(project, {"CLAUDE.md": text})
        assert loader_of(tree, project) is None, text


def test_an_instruction_to_read_the_memory_folder_at_session_start_loads_the_index(
    tmp_path: Path,
) -> None:
    # a project whose agents read every file of the folder when a session starts, the
    # index among them (a Korean line, an English one in backticks or not)
    project = tmp_path / "project"
    tree = write_tree(project / ".claude/memory", {"MEMORY.md": index()})
    for text in (
        "## Memory\n1. 세션 시작 시 `.claude/memory/` 파일들을 읽어 컨텍스트 복원\n",
        "At the start of every session, read the files in .claude/memory/ first.\n",
    ):
        write_tree(project, {"CLAUDE.md": text})
        assert loader_of(tree, project) == IndexLoader("CLAUDE.md", text.count("\n"), False)
    # writing to the folder, reading it with no session start, reading it "automatically",
    # or another folder: no instruction
    for text in (
        "메모리 갱신 → 학습된 내용을 `.claude/memory/`에 기록\n",
        "Read `.claude/memory/` when you need the history.\n",
        "At session start the files in `.claude/memory/` are read automatically.\n",
        "At the start of every session, read the files in `.claude/` first.\n",
        "At the start of every session, read the files in `docs/memory/` first.\n",
    ):
        write_tree(project, {"CLAUDE.md": text})
        assert loader_of(tree, project) is None, text
