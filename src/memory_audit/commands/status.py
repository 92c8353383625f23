"""``memory-audit status``: what the service is doing, read from its state (no daemon needed)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path
from typing import TextIO

from memory_audit.config import settings as config_module
from memory_audit.config.schedule import WeeklySchedule
from memory_audit.install import backend_for_platform
from memory_audit.install.spec import ServiceBackend
from memory_audit.store.dismissals import DB_NAME
from memory_audit.store.instance import InstanceLock
from memory_audit.store.state import RunRecord, State


def run(*, config_path: Path | None, out: TextIO, backend: ServiceBackend | None = None) -> int:
    config = config_module.load(config_path)
    now = dt.datetime.now().astimezone()
    out.write(service_line(config, backend) + "\n")
    schedule = WeeklySchedule.from_settings(config.settings.schedule)
    running = InstanceLock.holder(config.state_dir) is not None
    if not (config.state_dir / DB_NAME).exists():
        out.write(
            "No state yet: the service has not run. Start it with `memory-audit service "
            "install` (or try `memory-audit daemon --once`).\n"
        )
        out.write(_next(schedule, now, None, running) + "\n")
        out.write(NO_REPORT)
        return 0
    state = State(config.state_dir)
    try:
        out.write(_runs(state, schedule, now, running))
        out.write(_pending(state))
        out.write(_alerts(state))
        out.write(_watched(state))
    finally:
        state.close()
    return 0


def _alerts(state: State) -> str:
    waiting = len(state.held_alerts())
    line = f"Alerts sent: {state.alert_count()}"
    if waiting:
        line += f"; {waiting} waiting for a notification server (sent again later)"
    return line + "\n"


def service_line(config: config_module.Config, backend: ServiceBackend | None) -> str:
    pid = InstanceLock.holder(config.state_dir)
    running = f"running (pid {pid})" if pid else "not running"
    try:
        backend = backend or backend_for_platform()
    except Exception:
        return f"Service: {running}"
    status = backend.status()
    if pid and status.active is not True:  # it holds the lock, but no manager runs it
        running += " in the foreground (`memory-audit daemon`), not under the service manager"
    installed = "installed" if status.installed else "not installed"
    enabled = {True: ", enabled", False: ", not enabled", None: ""}[status.enabled]
    return f"Service: {backend.name} unit {installed}{enabled}; daemon {running}"


def _when(moment: dt.datetime | None) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M %Z") if moment else "never"


NO_REPORT = (
    "Pending findings: no report yet (the service's first audit writes one; "
    "`memory-audit audit` shows the findings now)\n"
)


def _next(
    schedule: WeeklySchedule, now: dt.datetime, success: dt.datetime | None, running: bool
) -> str:
    """When the next audit runs: a first one as soon as the service runs (a baseline), an
    overdue one on the running service's next tick or when it starts, else the schedule's."""
    weekly = _when(schedule.next_fire(now))
    if success is None:
        first = "on the running service's next tick" if running else "when the service starts"
        return f"First audit: {first} (a baseline); then weekly, next {weekly}"
    if not schedule.due(now, success):
        return f"Next weekly audit: {weekly}"
    if running:
        return "Next weekly audit: due now (the running service catches up within a minute)"
    return f"Next weekly audit: overdue; runs as soon as the service starts (then {weekly})"


def _runs(state: State, schedule: WeeklySchedule, now: dt.datetime, running: bool) -> str:
    last: RunRecord | None = next(iter(state.runs(limit=1)), None)
    lines = []
    if last is None:
        lines.append("Last audit: none yet")
    else:
        outcome = last.status
        if last.status == "ok" and last.new is None:
            outcome += f", first run: {last.findings} findings in {last.trees} trees"
        elif last.status == "ok":
            outcome += f", {last.findings} findings in {last.trees} trees, {last.new} new"
        lines.append(f"Last audit: {_when(last.started_at)} ({last.kind}: {outcome})")
    success = state.last_success()
    lines.append(f"Last successful audit: {_when(success)}")
    lines.append(_next(schedule, now, success, running))
    return "\n".join(lines) + "\n"


def _pending(state: State) -> str:
    if state.last_success() is None:  # "none" would read as a clean bill of health
        return NO_REPORT
    pending = state.open_findings()
    if not pending:
        return "Pending findings: none\n"
    lines = [f"Pending findings: {sum(pending.values())}"]
    for root, count in sorted(pending.items()):
        lines.append(f"  {count:>5}  {_project(root)}")
    return "\n".join(lines) + "\n"


def _project(root: str) -> str:
    path = Path(root)
    return path.parent.name if path.name == "memory" else root


def _watched(state: State) -> str:
    watched = state.watched()
    if not watched:
        return "Watched trees: none recorded (the service watches while it runs)\n"
    kinds = Counter(watched.values())
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    lines = [f"Watched trees: {len(watched)} ({summary})"]
    lines += [f"  {kind:<9} {root}" for root, kind in sorted(watched.items())]
    return "\n".join(lines) + "\n"
