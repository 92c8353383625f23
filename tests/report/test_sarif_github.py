from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from memory_audit.checks import DIMENSIONS, REGISTRY
from memory_audit.model.run import Run
from memory_audit.report import renderer
from tests.harness import NOW, index, memory, report, write_tree
from tests.secrets.samples import CASES

SCHEMA = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text())


def drifted(tmp_path: Path) -> Run:
    token = CASES["github-pat"][0][0][0]
    tree = write_tree(
        tmp_path / "repo" / "memory",
        {
            "MEMORY.md": index("gone.md", "a.md"),
            "a.md": memory("a", body=f"token {token}"),
            "lonely.md": memory("lonely"),
        },
    )
    return Run((report(tree),), NOW, dimensions=DIMENSIONS)


def test_sarif_is_valid_against_the_2_1_0_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = drifted(tmp_path)
    monkeypatch.chdir(tmp_path / "repo")
    log = json.loads(renderer("sarif")(run))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    [sarif_run] = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(REGISTRY)
    assert rules[0]["help"]["text"] == (REGISTRY["index-drift"].__doc__ or "").strip()
    results = {r["properties"]["code"]: r for r in sarif_run["results"]}
    broken = results["broken-index-link"]
    assert broken["ruleId"] == "index-drift"
    assert broken["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "memory/MEMORY.md"},
        "region": {"startLine": 2},
    }
    finding = run.reports[0].findings[
        [f.code for f in run.reports[0].findings].index("broken-index-link")
    ]
    assert broken["partialFingerprints"] == {"memoryAuditFingerprint/v1": finding.fingerprint}
    assert results["possible-secret"]["level"] == "error"
    assert results["orphan-candidate"]["level"] == "note"
    assert CASES["github-pat"][0][0][0] not in json.dumps(log)


def test_sarif_paths_outside_the_current_folder_are_file_uris(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = drifted(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    log = json.loads(renderer("sarif")(run))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"][
        "uri"
    ]
    assert uri.startswith(f"file://{tmp_path}/repo/memory/")


def test_github_annotations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = drifted(tmp_path)
    monkeypatch.chdir(tmp_path / "repo")
    lines = renderer("github")(run).splitlines()
    assert (
        "::warning file=memory/MEMORY.md,line=2,title=memory-audit%3A MEMORY.md index drift::"
        "link target `gone.md` doesn't exist. Suggest: remove the entry, or update the path if the "
        "file was renamed." in lines
    )
    assert any(line.startswith("::error file=memory/a.md,line=6,") for line in lines)
    assert any(line.startswith("::notice file=memory/lonely.md,title=") for line in lines)
    assert len(lines) == len(run.reports[0].findings)


def test_github_escapes_newlines_percent_and_property_separators(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = write_tree(tmp_path / "m, 100%: x", {"MEMORY.md": index("gone%.md")})
    monkeypatch.chdir(tmp_path)
    [line] = renderer("github")(
        Run((report(tree, "index-drift"),), NOW, dimensions=DIMENSIONS)
    ).splitlines()
    assert line.startswith("::warning file=m%2C 100%25%3A x/MEMORY.md,line=2,")
    assert "`gone%25.md`" in line


def test_sarif_names_a_secret_s_other_places_as_related_locations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = CASES["github-pat"][0][0][0]
    tree = write_tree(
        tmp_path / "repo" / "memory",
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": memory("a", body=f"token {token}"),
            "b.md": memory("b", body=f"CI\n\nagain {token}"),
        },
    )
    monkeypatch.chdir(tmp_path / "repo")
    log = json.loads(renderer("sarif")(Run((report(tree),), NOW, dimensions=DIMENSIONS)))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    [secret] = [r for r in log["runs"][0]["results"] if r["ruleId"] == "secrets"]
    assert secret["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "memory/a.md"
    assert secret["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "memory/b.md"},
                "region": {"startLine": 8},
            },
        }
    ]
    assert token not in json.dumps(log)
