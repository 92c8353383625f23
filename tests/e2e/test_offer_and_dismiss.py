from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.e2e.test_cli import cli
from tests.e2e.test_review import env_for
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal


def audit_in_terminal(home: Path, tree: Path) -> Terminal:
    return Terminal([sys.executable, "-m", "memory_audit", "audit", str(tree)], env_for(home))


def test_the_weekly_service_is_offered_once_and_a_no_is_remembered(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    home = tmp_path / "home"
    first = audit_in_terminal(home, tree)
    text = first.expect("Install it now? [y/N] ")
    assert "`memory-audit service install` runs it in the background" in text
    first.send("n")
    assert first.wait() == 1
    offers = json.loads((home / ".local/state/memory-audit/offers.json").read_text())
    assert offers == {"weekly_service": "declined"}
    second = audit_in_terminal(home, tree)
    assert second.wait() == 1
    assert "Install it now" not in second.output


def test_no_offer_when_the_output_is_not_a_terminal(tmp_path: Path, isolated_home: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    result = cli("audit", str(tree))
    assert "service install" not in result.stdout + result.stderr
    assert not (isolated_home / ".local/state/memory-audit/offers.json").exists()


@pytest.mark.slow
def test_dismiss_keeps_a_finding_out_of_reports_and_counts(tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "memory", {"MEMORY.md": index("gone.md")})
    data = json.loads(cli("audit", "--format", "json", str(tree)).stdout)
    fingerprint = data["reports"][0]["findings"][0]["fingerprint"]
    assert cli("dismiss", "zz-not-hex", str(tree), "--reason", "x").returncode == 2
    assert cli("dismiss", fingerprint, str(tree), "--reason", "intentional").returncode == 0
    after = cli("audit", "--format", "json", str(tree))
    assert after.returncode == 0  # no findings left: dismissed ones do not count
    report = json.loads(after.stdout)["reports"][0]
    assert report["findings"] == []
    assert [f["fingerprint"] for f in report["dismissed"]] == [fingerprint]
    assert (
        "Dismissed (1, not counted; `memory-audit dismiss --list`):"
        in cli("audit", str(tree)).stdout
    )


@pytest.mark.slow
def test_dismiss_refuses_unknown_fingerprints_takes_the_short_one_lists_and_undoes(
    tmp_path: Path,
) -> None:
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("gone.md", "lost.md", "kept.md"), "kept.md": memory("kept")},
    )
    text = cli("audit", str(tree)).stdout
    shown = [
        line.rsplit("[", 1)[1].rstrip("]") for line in text.splitlines() if "`gone.md`" in line
    ]
    assert len(shown) == 1
    assert len(shown[0]) == 8

    unknown = cli("dismiss", "deadbeef", str(tree), "--reason", "typo")
    assert unknown.returncode == 2
    assert "no finding has the fingerprint deadbeef" in unknown.stderr
    assert cli("dismiss", "--list").stdout == "No dismissals.\n"

    done = cli("dismiss", shown[0], str(tree), "--reason", "kept on purpose")
    assert done.returncode == 0, done.stderr
    assert f"dismissed [{shown[0]}] MEMORY.md" in done.stdout
    listing = cli("dismiss", "--list").stdout
    assert listing.startswith(f"[{shown[0]}] ")
    assert f"{tree}\n    kept on purpose\n" in listing
    after = cli("audit", str(tree)).stdout
    assert "Findings: 1 total" in after
    assert f"[{shown[0]}]" in after.split("Dismissed (1")[1]

    assert cli("undismiss", "feedface").returncode == 2
    back = cli("undismiss", shown[0])
    assert back.returncode == 0, back.stderr
    assert cli("dismiss", "--list").stdout == "No dismissals.\n"
    assert "Findings: 2 total" in cli("audit", str(tree)).stdout
