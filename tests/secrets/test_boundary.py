"""The redaction boundary: fragments of a secret are masked wherever they appear."""

from __future__ import annotations

from pathlib import Path

from memory_audit.model.finding import make_finding
from memory_audit.secrets.boundary import Boundary, bound_quotes, pieces, tree_boundary
from memory_audit.secrets.loading import ScannerConfig, secret_scanner
from memory_audit.tree.location import ProjectLocation
from memory_audit.tree.snapshot import load_tree
from tests.harness import index, load, memory, write_tree
from tests.secrets.samples import CASES

TOKEN = CASES["github-pat"][0][0][0]
PEM_TEXT, PEM = CASES["private-key"][0][0]


def test_a_whole_secret_is_masked_first_four_last_four() -> None:
    assert Boundary([TOKEN]).text(f"see {TOKEN}.md") == f"see {TOKEN[:4]}...{TOKEN[-4:]}.md"


def test_a_cut_piece_of_a_secret_is_masked_too() -> None:
    shown = Boundary([TOKEN]).text(f"quote: `{TOKEN[:20]}…`")
    assert TOKEN[4:20] not in shown
    assert shown == f"quote: `{TOKEN[:4]}...{TOKEN[16:20]}…`"


def test_one_line_of_a_private_key_body_is_masked() -> None:
    body_line = PEM.split("\n")[2]
    shown = Boundary([PEM]).text(f"references `{body_line}`, which doesn't exist")
    assert body_line[4:-4] not in shown


def test_masking_twice_changes_nothing() -> None:
    boundary = Boundary([TOKEN, PEM])
    once = boundary.text(f"{TOKEN} and {PEM}")
    assert boundary.text(once) == once


def test_a_short_secret_is_masked_whole_and_other_text_is_left_alone() -> None:
    boundary = Boundary(["hunter2x9"])
    assert boundary.text("pw hunter2x9, hunter2 alone") == "pw hu...9, hunter2 alone"
    assert Boundary([]).text("nothing to hide") == "nothing to hide"


def test_a_finding_is_masked_in_every_text_field_and_its_fix() -> None:
    finding = make_finding(
        "index-drift",
        "broken-index-link",
        "MEMORY.md",
        3,
        f"link target `{TOKEN}.md` doesn't exist",
        f"remove `{TOKEN}`",
        related=(f"{TOKEN}.md",),
        fix={"action": "remove-index-line", "line": 3, "target": f"{TOKEN}.md", "x": [TOKEN]},
    )
    shown = Boundary([TOKEN]).finding(finding)
    assert TOKEN not in repr(shown.to_json())
    assert shown.fix == {
        "action": "remove-index-line",
        "line": 3,
        "target": f"{TOKEN[:4]}...{TOKEN[-4:]}.md",
        "x": [f"{TOKEN[:4]}...{TOKEN[-4:]}"],
    }
    assert shown.fingerprint == finding.fingerprint


def test_quotes_are_bounded_to_80_characters_with_an_ellipsis() -> None:
    quoted = bound_quotes(f"hook `{'x' * 200}` is long; see `a.md`")
    assert quoted == f"hook `{'x' * 79}…` is long; see `a.md`"


def test_a_long_quoted_path_keeps_its_last_parts() -> None:
    path = "/home/me/" + "deep/" * 30 + "work/ledger"
    quoted = bound_quotes(f"project `{path}` no longer exists; note `{'y ' * 60}`")
    assert (
        quoted == f"project `{path[:20]}…{path[-59:]}` no longer exists; note `{('y ' * 60)[:79]}…`"
    )
    assert quoted.startswith("project `/home/me/deep/")
    assert "/work/ledger` no longer" in quoted


def test_the_tree_boundary_knows_secrets_of_the_text_and_of_decoded_yaml(
    tree_dir: Path, tmp_path: Path
) -> None:
    hidden = 'password = \\"Zq8vKp2LmW4nRt\\"'  # escaped: the raw text shows no secret
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md") + f"- [x]({TOKEN}.md)\n",
            "a.md": memory("a", description=f'"{hidden}"', body=PEM_TEXT),
        },
    )
    scanner = secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))
    boundary = tree_boundary(load(tree_dir), scanner)
    shown = boundary.text(f"{TOKEN} Zq8vKp2LmW4nRt {PEM.split(chr(10))[1]}")
    assert TOKEN not in shown
    assert "Zq8vKp2LmW4nRt" not in shown
    assert PEM.split("\n")[1] not in shown


def test_a_finding_path_is_masked_and_keeps_its_fingerprint() -> None:
    finding = make_finding("orphans", "orphan-candidate", f"notes/{TOKEN}.md", None, "unreached")
    shown = Boundary([TOKEN]).finding(finding)
    assert shown.path == f"notes/{TOKEN[:4]}...{TOKEN[-4:]}.md"
    assert shown.fingerprint == finding.fingerprint  # keyed by the real path, a hash


def test_the_tree_boundary_knows_secrets_of_names_the_project_and_link_targets(
    tree_dir: Path, tmp_path: Path
) -> None:
    folder, target, project = (TOKEN[:-1] + c for c in "XYZ")
    outside = tmp_path / target
    outside.mkdir()
    (outside / "x.md").write_text("x\n")
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a"), f"{folder}/b.md": "b"})
    (tree_dir / f"{TOKEN}.md").write_text("plain\n")
    (tree_dir / "linked.md").symlink_to(outside / "x.md")
    location = ProjectLocation("-work-app", tmp_path / project, None)
    tree = load_tree(tree_dir, location=location)
    boundary = tree_boundary(tree, secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state"))))
    for secret in (TOKEN, folder, target, project):
        assert secret not in boundary.text(f"see {secret}/x")


def test_a_token_in_a_slug_is_masked_in_both_spellings(tmp_path: Path) -> None:
    """Claude Code's folder for a project named by a token: its "_" became "-"."""
    slug = f"-home-me-work-{TOKEN.replace('_', '-')}"
    boundary = Boundary.for_names(
        secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state"))), [f"/p/{slug}/memory"]
    )
    shown = f"/p/-home-me-work-ghp-...{TOKEN[-4:]}/memory"
    assert boundary.text(f"/p/{slug}/memory") == shown
    assert boundary.text(TOKEN) == f"{TOKEN[:4]}...{TOKEN[-4:]}"


def test_a_token_joined_into_a_name_by_underscores_is_masked(tmp_path: Path) -> None:
    """A rule that wants a word boundary (``hf_``: its prefix too short to go without one)
    finds the token in the name's "_"-cut pieces; a plain name is not cut at all."""
    hugging = CASES["huggingface-token"][0][0][0]
    scanner = secret_scanner(ScannerConfig(state_dir=str(tmp_path / "state")))
    for name in (f"notes/key_{hugging}_v2.md", f"a_b/x_{hugging}/c.md", f"{hugging}_old"):
        boundary = Boundary.for_names(scanner, [name])
        assert hugging not in boundary.text(name), name
    assert not Boundary.for_names(scanner, ["notes/feedback_testing_rules_v2.md"])
    # pieces of eight characters or more, each spanning at most three "_"
    assert pieces("feedback_testing") == ["feedback_testing", "feedback"]
    assert pieces("a_bcdefghij_k") == ["a_bcdefghij_k", "a_bcdefghij", "bcdefghij", "bcdefghij_k"]
