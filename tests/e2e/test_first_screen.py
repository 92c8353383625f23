"""What `memory-audit audit` shows first: its scope, the summary screen, colour, the ending."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from memory_audit.commands.progress import Progress
from memory_audit.tree.discovery import TreeRef, slugify
from memory_audit.tree.location import ProjectLocation
from tests.e2e.test_cli import cli
from tests.e2e.test_review import env_for
from tests.harness import index, memory, write_tree
from tests.secrets.samples import ALNUM, rnd
from tests.support.github_tokens import github_token
from tests.support.terminal import Terminal

SECRET_STYLE = "\033[1;97;41m"


def two_projects(home: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Two project folders, each with a memory tree where Claude Code keeps it."""
    app, site = tmp_path / "work" / "app", tmp_path / "work" / "site"
    for project, files in (
        (app, {"MEMORY.md": index("gone.md", "a.md"), "a.md": memory("a")}),
        (site, {"MEMORY.md": index("b.md"), "b.md": memory("b", body=_token_line())}),
    ):
        (project / "src").mkdir(parents=True)
        write_tree(home / ".claude/projects" / slugify(project) / "memory", files)
    return app, site


def _token_line() -> str:
    return f"The sandbox token is {github_token('ghp_', rnd(ALNUM, 36))} for now."


@pytest.mark.slow
def test_inside_a_project_audit_takes_that_project_and_all_takes_every_tree(
    tmp_path: Path, isolated_home: Path
) -> None:
    app, site = two_projects(isolated_home, tmp_path)
    inside = cli("audit", cwd=app / "src")
    assert inside.stdout.startswith(f"Memory audit: ~/.claude/projects/{slugify(app)}/memory/")
    assert slugify(site) not in inside.stdout
    assert "  memory-audit review\n" in inside.stdout  # already in the project: no --project

    dot = cli("audit", "--project", ".", cwd=app / "src")
    assert dot.returncode == 1, dot.stderr
    assert dot.stdout == inside.stdout

    every = cli("audit", "--all", cwd=app / "src").stdout
    assert every.startswith("Summary: 2 findings in 2 of 2 memory trees")
    assert f"  memory-audit review --project={slugify(site)}\n" in every

    outside = cli("audit", cwd=tmp_path)
    first = outside.stdout.splitlines()[0]
    assert first == (
        "Not inside a project with memory: every tree (2); --project or a path chooses one."
    )
    assert f"memory-audit review --project={slugify(app)}" in outside.stdout


def test_several_trees_show_one_summary_screen_first_then_details(
    tmp_path: Path, isolated_home: Path
) -> None:
    app, site = two_projects(isolated_home, tmp_path)
    lines = cli("audit", "--all", cwd=tmp_path).stdout.splitlines()
    assert lines[0] == "Summary: 2 findings in 2 of 2 memory trees — 1 possible secret(s)"
    app_row = next(line for line in lines[:6] if slugify(app) in line)
    site_row = next(line for line in lines[:6] if slugify(site) in line)
    assert app_row.split()[1:] == ["1", "B", "index-drift", "1"]  # count, grade, dimensions
    assert site_row.split()[1:] == ["1", "C", "secrets", "1"]  # a possible secret caps it at C
    assert any(line.split() == ["TOTAL", "2"] for line in lines[:6])
    first_detail = next(i for i, line in enumerate(lines) if line.startswith("Memory audit: "))
    assert first_detail > 3

    quiet = cli("audit", "--all", "-q", cwd=tmp_path).stdout
    assert "Memory audit: " not in quiet
    assert quiet.splitlines()[0] == lines[0]
    assert "memory-audit review --project=" in quiet


@pytest.mark.slow
def test_verbose_says_what_was_skipped_and_why(tmp_path: Path) -> None:
    body = "The entry point is `src/app/main.py`."  # relative: needs the project, not located
    tree = write_tree(
        tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a", body=body)}
    )
    normal = cli("audit", str(tree)).stdout
    assert "could not run (-v: why)" in normal
    verbose = cli("audit", str(tree), "-v").stdout
    assert "\nSkipped:\n- Stale references: 1 relative path(s) not checked" in verbose
    assert "(-v: why)" not in verbose
    assert cli("audit", str(tree), "-q", "-v").returncode == 2


@pytest.mark.slow
def test_colour_on_a_terminal_by_severity_secrets_loudest(tmp_path: Path) -> None:
    home = tmp_path / "home"
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("b.md", "gone.md"), "b.md": memory("b", body=_token_line())},
    )
    env = {**env_for(home), "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    argv = [sys.executable, "-m", "memory_audit", "audit", str(tree), "--check", "secrets"]
    on_terminal = Terminal([*argv, "--check", "index-drift"], env)
    on_terminal.expect("Install it now? [y/N] ")
    on_terminal.send("n")
    on_terminal.wait()
    assert f"{SECRET_STYLE}## Possible secrets (1)\033[0m" in on_terminal.output
    assert "\033[33m## MEMORY.md index drift (1)\033[0m" in on_terminal.output
    assert f"{SECRET_STYLE}b.md:" in on_terminal.output  # the secret's place stands out too

    no_color = Terminal(argv, {**env, "NO_COLOR": "1"})
    no_color.wait()
    assert "\033[" not in no_color.output.split("Want this audit")[0]

    piped = cli("audit", str(tree), "--check", "secrets")
    assert "\033[" not in piped.stdout
    forced = cli("audit", str(tree), "--check", "secrets", "--color=always")
    assert SECRET_STYLE in forced.stdout


def test_the_progress_line_appears_after_a_second_and_is_erased() -> None:
    class Screen(io.StringIO):
        def isatty(self) -> bool:
            return True

    now = [0.0]
    screen = Screen()
    transcripts = Path(__file__).parent  # any folder: its *.jsonl count (none) is read
    ref = TreeRef(Path("/t/memory"), ProjectLocation("-t", None, transcripts))
    progress = Progress(screen, 3, transcripts_per_tree=10, clock=lambda: now[0])
    progress(0, ref)
    assert screen.getvalue() == ""  # quick work shows nothing
    now[0] = 1.5
    progress(1, ref)
    assert screen.getvalue() == "\r\033[Kauditing: 1/3 trees done, 0 transcripts read (now -t)"
    progress.finish()
    assert screen.getvalue().endswith("\r\033[K")
    assert Progress.on(io.StringIO(), 3, transcripts_per_tree=None) is None  # not a terminal


@pytest.mark.slow
def test_max_per_dimension_takes_a_positive_number_or_all(tmp_path: Path) -> None:
    targets = [f"gone{i}.md" for i in range(4)]
    tree = write_tree(
        tmp_path / "memory", {"MEMORY.md": index(*targets, "kept.md"), "kept.md": memory("kept")}
    )
    for bad in ("-1", "0", "many"):
        result = cli("audit", str(tree), "--max-per-dimension", bad)
        assert result.returncode == 2
        assert "not a positive number or `all`" in result.stderr
    capped = cli("audit", str(tree), "--max-per-dimension", "2").stdout
    assert "(2 more not shown — narrow with --check index-drift)" in capped
    narrowed = cli("audit", str(tree), "--check", "index-drift", "--max-per-dimension", "2")
    assert "(2 more not shown — all of them: --max-per-dimension all)" in narrowed.stdout
    every = cli("audit", str(tree), "--max-per-dimension", "all").stdout
    assert "more not shown" not in every
    assert all(f"`{t}`" in every for t in targets)


def test_nothing_material_only_for_dimensions_that_ran(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    one = cli("audit", str(tree), "--check", "index-drift").stdout
    assert "## MEMORY.md index drift: Nothing material." in one
    assert "All" not in one
    everything = cli("audit", str(tree), "--check", "orphans", "--check", "frontmatter").stdout
    assert "## Frontmatter validity, Orphan files: Nothing material." in everything


def test_output_into_a_missing_folder_or_onto_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    missing = cli("audit", str(tree), "-o", str(tmp_path / "nowhere" / "r.txt"))
    assert missing.returncode == 2
    assert f"the folder {tmp_path / 'nowhere'} does not exist" in missing.stderr
    folder = cli("audit", str(tree), "-o", str(tmp_path))
    assert folder.returncode == 2
    assert "is a folder; name a file in it" in folder.stderr
    assert "internal error" not in missing.stderr + folder.stderr
    assert os.listdir(tmp_path) == ["memory"]
