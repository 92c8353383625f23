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
