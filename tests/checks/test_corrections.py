from __future__ import annotations

from pathlib import Path

from tests.harness import codes, findings, memory, write_tree


def chain(length: int) -> dict[str, str]:
    files = {"c0.md": memory("c0", type="feedback")}
    for i in range(1, length + 1):
        files[f"c{i}.md"] = memory(
            f"c{i}", type="feedback", relations=f"[{{type: supersedes, target: c{i - 1}.md}}]"
        )
    return files


def test_corrections_chain_at_the_limit_is_fine_deeper_is_reported(tree_dir: Path) -> None:
    write_tree(tree_dir, chain(3))
    assert findings(tree_dir, "corrections") == []
    write_tree(tree_dir, chain(4))
    [finding] = findings(tree_dir, "corrections")
    assert (finding.code, finding.path) == ("deep-correction-chain", "c4.md")
    assert "4 deep" in finding.message
    assert "`c0.md`" in (finding.suggestion or "")


def test_corrections_chain_through_superseded_by_back_pointers(tree_dir: Path) -> None:
    files = {
        f"c{i}.md": memory(f"c{i}", type="feedback", superseded_by=f"c{i + 1}.md") for i in range(4)
    }
    files["c4.md"] = memory("c4", type="feedback")
    write_tree(tree_dir, files)
    assert codes(findings(tree_dir, "corrections")) == [("deep-correction-chain", "c4.md", None)]


def test_corrections_live_contradiction_names_both(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", type="feedback", relations="[{type: contradicts, target: b.md}]"),
            "b.md": memory("b", type="feedback", relations="[{type: contradicts, target: a.md}]"),
            "c.md": memory("c", type="feedback", relations="[{type: contradicts, target: d.md}]"),
            "d.md": memory("d", type="feedback", superseded_by="e.md"),
            "e.md": memory("e", type="feedback"),
        },
    )
    [finding] = findings(tree_dir, "corrections")
    assert (finding.code, finding.path, finding.related) == (
        "live-contradiction",
        "a.md",
        ("b.md",),
    )


def test_corrections_supersession_cycle_terminates_and_is_reported(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "a.md": memory("a", type="feedback", relations="[{type: supersedes, target: b.md}]"),
            "b.md": memory("b", type="feedback", relations="[{type: supersedes, target: a.md}]"),
            "x.md": memory("x", type="project", superseded_by="y.md"),
            "y.md": memory("y", type="project", superseded_by="z.md"),
            "z.md": memory("z", type="project", superseded_by="x.md"),
        },
    )
    found = findings(tree_dir, "corrections")
    assert sorted((f.code, f.path, f.related) for f in found) == [
        ("supersession-cycle", "a.md", ("b.md",)),
        ("supersession-cycle", "x.md", ("z.md", "y.md")),
    ]


def test_corrections_wide_graph_stays_linear(tree_dir: Path) -> None:
    # 2^20 paths through this lattice: only a memoised walk finishes.
    files = {}
    for level in range(21):
        for side in "ab":
            targets = (
                ", ".join(f"{{type: supersedes, target: {s}{level - 1}.md}}" for s in "ab")
                if level
                else ""
            )
            files[f"{side}{level}.md"] = memory(
                f"{side}{level}", type="feedback", relations=f"[{targets}]" if level else None
            )
    write_tree(tree_dir, files)
    found = findings(tree_dir, "corrections")
    assert {f.path for f in found} == {"a20.md", "b20.md"}
    assert all("20 deep" in f.message for f in found)


def test_corrections_dense_supersession_graph_finds_loops_in_linear_time(tree_dir: Path) -> None:
    # every node supersedes every other: enumerating simple cycles would never end
    names = [f"n{i:02}" for i in range(16)]
    files = {}
    for name in names:
        targets = ", ".join(f"{{type: supersedes, target: {o}.md}}" for o in names if o != name)
        files[f"{name}.md"] = memory(name, type="feedback", relations=f"[{targets}]")
    write_tree(tree_dir, files)
    [finding] = findings(tree_dir, "corrections")
    assert finding.code == "supersession-cycle"
