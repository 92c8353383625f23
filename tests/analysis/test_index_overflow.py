"""Where the one fix for the entries a cut index hides puts its pointer."""

from __future__ import annotations

from memory_audit.analysis.index_overflow import overflow_description, overflow_fix
from memory_audit.tree.load_budget import load_index


def test_a_size_cut_index_gives_the_pointer_the_place_of_earlier_entries_so_it_loads() -> None:
    # Each entry 250 characters: the cut falls close under 25,000, with no room left for
    # one more line there; the pointer replaces the last visible entries instead.
    lines = ["# Index"] + [f"- [Note {n}](n{n}.md) — " + "x" * 226 for n in range(120)]
    loaded = load_index("\n".join(lines) + "\n")
    assert loaded.first_hidden is not None
    hidden = [(n, f"Note {n - 2}") for n in range(loaded.first_hidden, 122)]
    fix = overflow_fix(lines, loaded, hidden)
    assert fix is not None
    first = int(str(fix["first"]))
    assert first < loaded.first_hidden
    assert fix["lines"] == [n for n, _ in hidden]
    pointer = f"- [More memories](more-memories.md) — {fix['description']}"
    shortened = "\n".join([*lines[: first - 1], pointer]) + "\n"
    assert not load_index(shortened).cut


def test_the_description_names_titles_and_counts_the_rest_under_the_hook_limit() -> None:
    titles = [f"Deploy step {n}" for n in range(40)]
    text = overflow_description(titles)
    assert text.startswith("more memories, past MEMORY.md's load limit: Deploy step 0, ")
    assert text.endswith(" more")
    assert len(text) <= 140
    lead = "more memories, past MEMORY.md's load limit: "
    assert overflow_description(["A" * 300]) == lead + "1 entry"
    assert overflow_description(["A" * 300, "B"]) == lead + "2 entries"


def _overflow(lines: list[str], title: str = "Testing") -> tuple[int | None, int]:
    """The first hidden line of the index ``lines``, and the line its one overflow fix's
    pointer takes (the last line's entry hidden, titled ``title``)."""
    loaded = load_index("\n".join(lines) + "\n")
    fix = overflow_fix(lines, loaded, [(len(lines), title)])
    assert fix is not None
    return loaded.first_hidden, int(str(fix["first"]))


def _section_index(section_lines: int) -> list[str]:
    """195 entries, then "## Unit test conventions" with ``section_lines`` bullets: the cut
    at line 201 falls inside that section."""
    lines = ["# Index"] + [f"- [Note {n}](n{n}.md) — area {n}" for n in range(194)]
    lines += ["## Unit test conventions", "Key patterns:"]
    lines += [f"- convention {n}" for n in range(section_lines)]
    lines += ["- [Testing](testing.md) — how the suite runs"]
    return lines


def test_the_move_takes_the_section_the_cut_falls_in_from_its_heading() -> None:
    # The cut (line 201) falls under a heading at line 196: moving from line 200 would
    # leave the heading and "Key patterns:" over nothing, their bullets moved away.
    lines = _section_index(20)
    assert _overflow(lines) == (201, 196)
    assert lines[195] == "## Unit test conventions"


def test_a_heading_far_above_the_cut_stays_and_the_move_starts_at_the_cut() -> None:
    # A section of 60 lines (its heading 51 lines above the cut): only what the cut hides
    # moves, and the last line seen, whose place the pointer takes (no room for a 201st).
    lines = ["# Index"] + [f"- [Note {n}](n{n}.md) — area {n}" for n in range(148)]
    lines += ["## Unit test conventions"] + [f"- convention {n}" for n in range(60)]
    lines += ["- [Testing](testing.md) — how the suite runs"]
    assert _overflow(lines) == (201, 200)
    assert lines[149] == "## Unit test conventions"


def test_a_code_block_in_the_section_is_no_heading_and_no_stop() -> None:
    # The section's heading is 30 lines up, a fenced shell script between whose comments
    # start with "#": the move still starts at the section's heading.
    lines = ["# Index"] + [f"- [Note {n}](n{n}.md) — area {n}" for n in range(169)]
    lines += ["## Assignment checks", "Before assigning:", "```bash", "# 1. list the members"]
    lines += [f"echo member{n}" for n in range(20)] + ["```", ""]
    lines += [f"- rule {n}" for n in range(10)]
    lines += ["- [Testing](testing.md) — how the suite runs"]
    first_hidden, start = _overflow(lines)
    assert first_hidden == 201
    assert lines[start - 1] == "## Assignment checks"


def test_a_list_the_cut_splits_moves_from_its_lead_in() -> None:
    # A long section (its heading far above), then "**Assignment rules:**" and its items
    # across line 200: the move starts at the lead-in, which would stand over nothing.
    lines = ["# Index", "## Operations"] + [f"- [Note {n}](n{n}.md) — area {n}" for n in range(194)]
    lines += ["", "**Assignment rules:**"] + [f"- rule {n}" for n in range(8)]
    lines += ["- [Testing](testing.md) — how the suite runs"]
    first_hidden, start = _overflow(lines)
    assert first_hidden == 201
    assert lines[start - 1] == "**Assignment rules:**"


def test_a_cut_between_blocks_moves_no_visible_section_or_run_of_entries() -> None:
    # The cut falls on a blank line after "## Tools" and its 29 entries: nothing is split,
    # so nothing the session sees moves but the last line, whose place the pointer takes.
    lines = ["# Index"] + [f"- [Note {n}](n{n}.md) — area {n}" for n in range(169)]
    lines += ["## Tools"] + [f"- [Tool {n}](t{n}.md) — tool {n}" for n in range(29)]
    lines += ["", "## Later"] + [f"- [Later {n}](l{n}.md) — later {n}" for n in range(10)]
    assert _overflow(lines, "Later 9") == (201, 200)
    # a run of entries after a blank line, with no lead-in over it, is split harmlessly
    run = ["# Index"] + [f"- [Note {n}](n{n}.md) — area {n}" for n in range(170)]
    run += [""] + [f"- [Tool {n}](t{n}.md) — tool {n}" for n in range(40)]
    assert _overflow(run, "Tool 39")[1] == 200
