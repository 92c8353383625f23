"""``memory-audit hook session-start``: tell a new Claude Code session what is pending.

Claude Code runs it at session start with a JSON object on stdin (``cwd``,
``session_id``, ``source``); what it prints joins the session's context. It
reads the latest report (it never audits), prints at most ~15 lines, the most
important first, and prints nothing when nothing is pending. It must never
hold up or fail a session: any problem means silence and exit 0. It imports
only what it needs, so it answers in a few tens of milliseconds.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from memory_audit.config.paths import default_config_file, default_reports_dir, default_state_dir
from memory_audit.daemon.dismissals import read_dismissed
from memory_audit.tree.discovery import tree_for_folder

SHOWN = 10
CONTEXT_LIMIT = 10_000  # Claude Code cuts hook context longer than this
CONTEXT_BUDGET = 9_000  # ours: the limit with room to spare
LINE_LIMIT = 400  # one finding's line; a longer message is cut
SUMMARY_ROOM = 600  # for the "…and N more (by dimension)" line
CLOSING = (
    "Nothing has been changed. To fix them one decision at a time, the user can run "
    "`memory-audit review` in a terminal, or ask you to walk through them with the "
    "/memory-audit skill (propose each fix, apply only what they confirm)."
)


def run(*, event: str, inp: TextIO, out: TextIO) -> int:
    with contextlib.suppress(Exception):
        if event == "session-start":
            text = session_start(json.loads(inp.read() or "{}"))
            if text:
                out.write(text)
    return 0


def session_start(payload: Any) -> str:
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    if not isinstance(cwd, str) or not cwd:
        return ""
    root = tree_for_folder(Path(cwd))
    if root is None:
        return ""
    reports_dir, state_dir = _folders()
    summary = reports_dir / "latest" / "summary.json"
    data = json.loads(summary.read_text(encoding="utf-8"))
    report = next((r for r in data.get("reports", []) if Path(r["root"]) == root), None)
    if report is None:
        return ""
    dismissed = read_dismissed(state_dir)
    findings = [f for f in report.get("findings", []) if f.get("fingerprint") not in dismissed]
    priority = {
        str(d.get("id")): int(d.get("hook_priority", 50)) for d in data.get("dimensions", [])
    }
    return summary_text(findings, str(data.get("generated_at", "")), priority) if findings else ""


def _folders() -> tuple[Path, Path]:
    """Reports and state folders: the defaults, or ``reports.dir``/``state.dir`` from the
    config file (read without validating: the hook must stay light and never fail)."""
    reports = default_reports_dir()
    state = default_state_dir()
    config = default_config_file()
    if config.exists():
        import yaml  # only when there is a file to read

        data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
        custom_reports = (data.get("reports") or {}).get("dir")
        custom_state = (data.get("state") or {}).get("dir")
        reports = Path(custom_reports).expanduser() if custom_reports else reports
        state = Path(custom_state).expanduser() if custom_state else state
    return reports, state


def summary_text(
    findings: list[dict[str, Any]], generated_at: str, priority: dict[str, int]
) -> str:
    """``priority`` is the report's dimension table (lower first); report order breaks ties.
    The text stays under Claude Code's limit for hook context: what does not fit is
    summarised by dimension."""
    ranked = sorted(findings, key=lambda f: priority.get(str(f.get("dimension")), 1 << 30))
    when = generated_at[:16].replace("T", " ")
    head = (
        f"memory-audit: {len(findings)} finding(s) pending in this project's memory "
        f"(weekly report of {when}). Most important first:"
    )
    lines = [head]
    used = len(head) + len(CLOSING) + SUMMARY_ROOM
    for finding in ranked[:SHOWN]:
        line = _finding_line(finding)
        if used + len(line) + 1 > CONTEXT_BUDGET:
            break
        lines.append(line)
        used += len(line) + 1
    rest = ranked[len(lines) - 1 :]
    if rest:
        lines.append(_more(rest))
    lines.append(CLOSING)
    return "\n".join(lines) + "\n"


def _finding_line(finding: dict[str, Any]) -> str:
    where = f"{finding['path']}:{finding['line']}" if finding.get("line") else finding["path"]
    text = f"- [{finding['dimension']}] {where} — {finding['message']}"
    return text if len(text) <= LINE_LIMIT else text[: LINE_LIMIT - 1] + "…"


def _more(rest: list[dict[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for finding in rest:
        counts[str(finding.get("dimension"))] = counts.get(str(finding.get("dimension")), 0) + 1
    by_dimension = ", ".join(f"{d} {n}" for d, n in list(counts.items())[:20])
    return f"- …and {len(rest)} more ({by_dimension[: SUMMARY_ROOM - 40]})"


if __name__ == "__main__":  # pragma: no cover - Claude Code calls the CLI, this is for debugging
    sys.exit(run(event="session-start", inp=sys.stdin, out=sys.stdout))
