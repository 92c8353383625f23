"""``memory-audit report list|show [RUN]|path [RUN]``: the service's run folders."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from memory_audit.config import settings as config_module
from memory_audit.errors import UsageError
from memory_audit.report.report_file import ReportUnreadable
from memory_audit.store.reports import ReportStore, read_summary


def run(*, action: str, run_name: str | None, config_path: Path | None, out: TextIO) -> int:
    config = config_module.load(config_path)
    store = ReportStore(config.report_dir, config.settings.reports.keep)
    if action == "path":
        out.write(f"{_folder(store, run_name) if run_name else store.root}\n")
    elif action == "list":
        out.write(_listing(store))
    else:
        out.write((_folder(store, run_name) / "summary.md").read_text(encoding="utf-8"))
    return 0


def _folder(store: ReportStore, name: str | None) -> Path:
    runs = store.runs()
    if not runs:
        raise UsageError(
            f"no reports yet in {store.root} (start the service, or run "
            "`memory-audit daemon --once`)"
        )
    if name is None or name == "latest":
        return runs[-1]
    for folder in runs:
        if folder.name == name or folder.name.startswith(name):
            return folder
    raise UsageError(f"no run {name!r} in {store.root}; `memory-audit report list` shows them")


def _listing(store: ReportStore) -> str:
    runs = store.runs()
    if not runs:
        return f"No reports yet in {store.root}.\n"
    lines = ["RUN                  TREES  FINDINGS"]
    for folder in reversed(runs):
        try:
            reports = read_summary(folder).get("reports", [])
        except (OSError, ValueError, ReportUnreadable):
            lines.append(f"{folder.name:<20} (unreadable summary.json)")
            continue
        count = sum(len(r.get("findings", [])) for r in reports) if isinstance(reports, list) else 0
        trees = len(reports) if isinstance(reports, list) else 0
        lines.append(f"{folder.name:<20} {trees:>5}  {count:>8}")
    return "\n".join(lines) + "\n"
