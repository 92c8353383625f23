"""SARIF 2.1.0: one rule per dimension (its module docstring is the help), one result per finding.

Paths inside the current folder are written relative to it (what code scanning
in CI expects for a committed tree); others as absolute ``file://`` URIs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory_audit.model.dimension import Severity
from memory_audit.model.finding import Finding
from memory_audit.model.run import Run, TreeReport
from memory_audit.report import wording

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(run: Run) -> str:
    return json.dumps(to_sarif(run), indent=2, ensure_ascii=False) + "\n"


def level(run: Run, finding: Finding) -> str:
    """The finding's own severity, else its dimension's; a judgment call or a suggestion is
    never louder than a note."""
    if finding.severity is not None:
        return finding.severity
    if finding.is_suggestion:
        return "note"  # worth a look: never fails a build
    severity = next((d.severity for d in run.dimensions if d.id == finding.dimension), None)
    if severity is Severity.ERROR:
        return "error"
    return "note" if finding.judgment or severity is Severity.NOTE else "warning"


def artifact_uri(report: TreeReport, path: str) -> str:
    full = (report.root / path).absolute()
    cwd = Path.cwd()
    return full.relative_to(cwd).as_posix() if full.is_relative_to(cwd) else full.as_uri()


def _rules(run: Run) -> list[dict[str, Any]]:
    rules = []
    for dimension in run.dimensions:
        doc = dimension.doc.strip()
        summary = doc.split("\n\n", 1)[0].replace("\n", " ")
        rules.append(
            {
                "id": dimension.id,
                "name": "".join(part.capitalize() for part in dimension.id.split("-")),
                "shortDescription": {"text": dimension.title},
                "fullDescription": {"text": summary},
                "help": {"text": doc},
                "defaultConfiguration": {"level": dimension.severity.value},
            }
        )
    return rules


def _result(
    run: Run, report: TreeReport, finding: Finding, rule_index: dict[str, int]
) -> dict[str, Any]:
    result = {
        "ruleId": finding.dimension,
        "ruleIndex": rule_index[finding.dimension],
        "level": level(run, finding),
        "message": {"text": wording.sentence(finding)},
        "locations": [{"physicalLocation": _physical(report, finding.path, finding.line)}],
        "partialFingerprints": {"memoryAuditFingerprint/v1": finding.fingerprint},
        "properties": {
            "code": finding.code,
            "judgment": finding.judgment,
            "related": list(finding.related),
        },
    }
    others = _other_places(report, finding)
    return result | ({"relatedLocations": others} if others else {})


def _physical(report: TreeReport, path: str, line: int | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(report, path)}}
    if line:
        location["region"] = {"startLine": line}
    return location


def _other_places(report: TreeReport, finding: Finding) -> list[dict[str, Any]]:
    """The other places of one secret value (its fix lists them all, its own first)."""
    places = (finding.fix or {}).get("places") or []
    return [
        {"id": number, "physicalLocation": _physical(report, place["path"], place["line"])}
        for number, place in enumerate(places[1:], start=1)
    ]


def _invocation(run: Run) -> dict[str, Any]:
    """Not successful when a file could not be checked or a dimension did not run; a
    dimension that did not run is a notification naming its rule, never an empty result."""
    not_run = [
        {
            "level": "error",
            "descriptor": {"id": dimension},
            "message": {"text": line},
        }
        for report in run.reports
        for dimension, line in zip(report.not_run, wording.not_run_lines(report, run), strict=True)
    ]
    failed = not_run or any(r.errors for r in run.reports)
    return {"executionSuccessful": not failed} | (
        {"toolExecutionNotifications": not_run} if not_run else {}
    )


def to_sarif(run: Run) -> dict[str, Any]:
    rules = _rules(run)
    rule_index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = [
        _result(run, report, finding, rule_index)
        for report in run.reports
        for finding in report.findings
    ]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {"name": "memory-audit", "version": run.version, "rules": rules}
                },
                "results": results,
                "invocations": [_invocation(run)],
            }
        ],
    }
