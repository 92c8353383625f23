"""The ``memory-audit/run@1`` JSON document (DESIGN §4): every finding, no cap.

Compact by default: with ``indent`` Python's json falls back to its pure-Python
encoder, several times slower on a large run (``--pretty``/``--indent N`` is
for people). :func:`write` streams the document one tree at a time, so a run
of thousands of findings is never held as one string.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path
from typing import Any, TextIO

from memory_audit.model.dimension import Dimension
from memory_audit.model.finding import Finding, Skip
from memory_audit.model.health import Health
from memory_audit.model.run import Run, TreeReport
from memory_audit.model.stores import AgentStore, TranscriptSpan

SCHEMA = "memory-audit/run@1"


COMPACT = (",", ":")


def render(run: Run, indent: int | None = None) -> str:
    text = io.StringIO()
    write(run, text, indent)
    return text.getvalue()


def write(run: Run, out: TextIO, indent: int | None = None) -> None:
    """The document, as :func:`json.dumps` of :func:`to_json` would give it, plus a newline."""
    if indent is not None:  # for people: the whole document, nested indentation
        out.write(json.dumps(to_json(run), indent=indent, ensure_ascii=False) + "\n")
        return
    head = json.dumps(_head(run), separators=COMPACT, ensure_ascii=False)
    out.write(head[:-1] + ',"reports":[')  # "reports" is the last key of the document
    for number, report in enumerate(run.reports):
        out.write("," if number else "")
        tree = _tree(report, run.max_per_dimension)
        out.write(json.dumps(tree, separators=COMPACT, ensure_ascii=False))
    out.write("]}\n")


def to_json(run: Run) -> dict[str, Any]:
    return {
        **_head(run),
        "reports": [_tree(report, run.max_per_dimension) for report in run.reports],
    }


def _head(run: Run) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "tool": {"name": "memory-audit", "version": run.version},
        "generated_at": run.generated_at.isoformat(timespec="seconds"),
        # Beyond DESIGN §4, additive: the dimension table, so that readers of a stored
        # report (the session hook) order and title findings without importing the checks.
        "dimensions": [d.to_json() for d in run.dimensions],
    }


def _tree(report: TreeReport, cap: int) -> dict[str, Any]:
    return {
        "root": str(report.root.absolute()),
        "project": report.project,
        "project_path": str(report.project_path) if report.project_path else None,
        "profile": report.profile,
        "files_scanned": {
            "memory": report.memory_files,
            "session_recaps": report.session_recaps,
            "index": report.has_index,
            # Additive: files that are no Markdown, read by the secret rules alone.
            "other": report.other_files,
        },
        "health": report.health.to_json(),
        "findings": [f.to_json() for f in report.findings],
        "counts": report.counts,
        "levels": {"problem": len(report.problems), "suggestion": len(report.suggestions)},
        "not_shown": report.not_shown(cap),
        "skipped": [_skip(s) for s in report.skipped],
        "errors": [{"path": path, "error": error} for path, error in report.errors],
        # Additive: why no check ran over this tree (null when audited); its counts are unknown.
        "not_audited": report.not_audited_reason,
        "checks": list(report.checks),
        "dismissed": [f.to_json() for f in report.dismissed],
        "not_memories": [{"path": p, "reason": why} for p, why in report.not_memories],
        # Additive (docs/report-json.md): whose memory, frozen by settings, grade, transcripts.
        "agent": report.agent.to_json() if report.agent else None,
        "frozen": report.frozen,
        "settings_notes": list(report.settings_notes),
        "grade": report.grade.to_json() if report.grade else None,
        "transcripts": report.transcripts.to_json() if report.transcripts else None,
        # Additive: a workspace root's documents beside its memory/, audited for secrets only.
        "documents": report.documents,
    }


def _skip(skip: Skip) -> dict[str, Any]:
    """A skipped part; ``"whole": true`` (additive) when none of the dimension ran."""
    entry: dict[str, Any] = {"dimension": skip.dimension, "reason": skip.reason}
    return (entry | {"whole": True}) if skip.whole else entry


def from_json(data: dict[str, Any]) -> Run:
    """Read a run back (the daemon's ``summary.json``), for review and the session hook."""
    if data.get("schema") != SCHEMA:
        raise ValueError(f"not a {SCHEMA} document")
    reports = tuple(_tree_from(r) for r in data["reports"])
    return Run(
        reports=reports,
        generated_at=dt.datetime.fromisoformat(data["generated_at"]),
        version=str(data.get("tool", {}).get("version", "")),
        dimensions=tuple(Dimension.from_json(d) for d in data.get("dimensions", [])),
    )


def _tree_from(data: dict[str, Any]) -> TreeReport:
    scanned = data.get("files_scanned", {})
    return TreeReport(
        root=Path(data["root"]),
        project=data.get("project"),
        project_path=Path(data["project_path"]) if data.get("project_path") else None,
        profile=str(data.get("profile", "claude-code")),
        memory_files=int(scanned.get("memory", 0)),
        session_recaps=int(scanned.get("session_recaps", 0)),
        has_index=bool(scanned.get("index", False)),
        other_files=int(scanned.get("other", 0)),
        health=Health.from_json(data.get("health", {})),
        findings=tuple(Finding.from_json(f) for f in data.get("findings", [])),
        skipped=tuple(
            Skip(s["dimension"], s["reason"], bool(s.get("whole"))) for s in data.get("skipped", [])
        ),
        errors=tuple((e.get("path", ""), e.get("error", "")) for e in data.get("errors", [])),
        checks=tuple(data.get("checks", [])),
        dismissed=tuple(Finding.from_json(f) for f in data.get("dismissed", [])),
        not_memories=tuple(
            (str(n.get("path", "")), str(n.get("reason", ""))) for n in data.get("not_memories", [])
        ),
        agent=AgentStore.from_json(data.get("agent")),
        frozen=_text_or_none(data.get("frozen")),
        settings_notes=tuple(str(n) for n in data.get("settings_notes") or ()),
        transcripts=TranscriptSpan.from_json(data.get("transcripts")),
        documents=data.get("documents") is True,
    )


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)
