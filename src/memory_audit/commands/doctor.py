"""``memory-audit doctor [--notify-test]``: check the set-up, one line each, with the fix.

Trees, configuration, private folders, the inotify budget, the D-Bus session
bus and a notification server (``--notify-test`` sends a real one), the
service, and the clock as the schedule sees it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from dbus_fast import Message
from dbus_fast.aio import MessageBus

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.config.schedule import WeeklySchedule
from memory_audit.errors import ConfigError, UsageError
from memory_audit.install import backend_for_platform, claude
from memory_audit.install.spec import ServiceBackend
from memory_audit.journal.index import DB_NAME
from memory_audit.journal.store import FOLDER, Journal
from memory_audit.notify import (
    DesktopBackend,
    Notifier,
    OsascriptBackend,
    use_runtime_bus,
)
from memory_audit.store.instance import InstanceLock
from memory_audit.tree.discovery import TreeRef, find_trees
from memory_audit.tree.walk import watches_needed

OK, WARN, FAIL = "ok", "warn", "fail"
MARKS = {OK: "✓", WARN: "!", FAIL: "✗"}
NOTIFICATIONS = "org.freedesktop.Notifications"


@dataclass(frozen=True)
class Check:
    level: str
    text: str
    fix: str = ""

    def line(self) -> str:
        return f"{MARKS[self.level]} {self.text}" + (f"\n    fix: {self.fix}" if self.fix else "")


def run(
    *,
    config_path: Path | None,
    notify_test: bool,
    out: TextIO,
    backend: ServiceBackend | None = None,
) -> int:
    try:
        config = config_module.load(config_path, OPTION_TYPES)
    except ConfigError as exc:
        out.write(
            Check(FAIL, f"configuration invalid: {exc}", "correct the keys named above").line()
            + "\n"
        )
        config = config_module.Config()
    else:
        out.write(
            Check(OK, f"configuration valid ({config.source or 'no file: all defaults'})").line()
            + "\n"
        )
    found = find_trees(config.settings.roots, locate_projects=False)
    checks: list[Callable[[], list[Check]]] = [
        lambda: [trees(config, found)],
        lambda: folders(config),
        lambda: [inotify(found)],
        lambda: notifications(config, notify_test),
        lambda: [service(backend, InstanceLock.holder(config.state_dir))],
        claude_integration,
        lambda: [clock(config)],
        lambda: [journal(config)],
    ]
    results = [check for produce in checks for check in produce()]
    out.write("".join(check.line() + "\n" for check in results))
    return 1 if any(c.level == FAIL for c in results) else 0


def trees(config: config_module.Config, found: list[TreeRef]) -> Check:
    if not found:
        return Check(
            FAIL,
            f"no memory trees found ({', '.join(config.settings.roots)})",
            "use Claude Code with auto memory on, or set `roots:` in the configuration",
        )
    return Check(OK, f"{len(found)} memory tree(s) found")


def folders(config: config_module.Config) -> list[Check]:
    return [
        _private_folder(name, path)
        for name, path in (("state", config.state_dir), ("reports", config.report_dir))
    ]


def _private_folder(name: str, path: Path) -> Check:
    if not path.exists():
        return Check(OK, f"{name} folder {path} will be created on first run")
    mode = stat.S_IMODE(path.stat().st_mode)
    if not os.access(path, os.W_OK):
        return Check(FAIL, f"{name} folder {path} is not writable", f"chown -R $USER {path}")
    if mode & 0o077:
        return Check(
            FAIL,
            f"{name} folder {path} is readable by others (mode {mode:o})",
            f"chmod -R go-rwx {path}",
        )
    return Check(OK, f"{name} folder {path} is private and writable")


def inotify(found: list[TreeRef]) -> Check:
    limit_file = Path("/proc/sys/fs/inotify/max_user_watches")
    if not limit_file.exists():
        return Check(OK, "file watching: no inotify on this platform (native or polling)")
    limit = int(limit_file.read_text().split()[0])
    needed = sum(watches_needed(ref.root) for ref in found)
    text = (
        f"inotify: the trees need {needed} watches; the limit is {limit} "
        "(shared with other programs)"
    )
    if needed > limit // 2:
        return Check(
            WARN if needed <= limit else FAIL,
            text,
            "sudo sysctl fs.inotify.max_user_watches=524288 (and make it permanent in "
            "/etc/sysctl.d/); until then the service polls",
        )
    return Check(OK, text)


def notifications(config: config_module.Config, send_test: bool) -> list[Check]:
    found = _notification_path()
    if send_test:  # say what became of the test, whatever stood in its way
        blocked = next((c for c in found if c.level != OK), None)
        found.append(_test_notification(config) if blocked is None else _not_sent(blocked))
    return found


def _notification_path() -> list[Check]:
    """The bus and the server, one check each; the first that is not OK ends the list."""
    if sys.platform == "darwin":
        return [Check(OK, "notifications: osascript (macOS)")]
    use_runtime_bus()
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    if not address:
        return [
            Check(
                FAIL,
                "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus)",
                "run inside your desktop session, or: systemctl --user import-environment "
                "DBUS_SESSION_BUS_ADDRESS DISPLAY",
            )
        ]
    try:
        server = asyncio.run(asyncio.wait_for(_notification_server(), timeout=5))
    except Exception as exc:
        return [
            Check(
                FAIL,
                f"D-Bus session bus {address} not reachable ({type(exc).__name__})",
                "systemctl --user import-environment DBUS_SESSION_BUS_ADDRESS DISPLAY "
                "(or dbus-update-activation-environment --systemd --all)",
            )
        ]
    found = [Check(OK, f"D-Bus session bus reachable ({address})")]
    if not server:
        found.append(
            Check(
                WARN,
                "no notification server on the session bus: alerts go to the "
                "log and the reports only",
                "start your desktop's notification daemon (e.g. dunst, mako)",
            )
        )
        return found
    found.append(Check(OK, f"notification server present ({server})"))
    return found


def _not_sent(blocked: Check) -> Check:
    if blocked.text.startswith("no notification server"):
        why = "no notification server to accept it"
    else:
        why = "no session bus to send it on"
    return Check(FAIL, f"test notification not sent: {why} (see above)")


def _test_notification(config: config_module.Config) -> Check:
    backend = OsascriptBackend() if sys.platform == "darwin" else DesktopBackend()
    notifier = Notifier(config.settings.notify, backend)
    accepted = asyncio.run(
        notifier.send("memory-audit doctor", "Test notification: alerts will look like this.")
    )
    if accepted:
        return Check(OK, "test notification sent: the notification server accepted it")
    timeout = config.settings.notify.timeout_seconds
    return Check(
        FAIL,
        f"test notification not accepted: the server did not confirm it within {timeout:g} s",
        "see the notification server's own logs; `notify.timeout_seconds` sets the wait",
    )


async def _notification_server() -> str:
    bus = await MessageBus().connect()
    try:
        for member, body in (("NameHasOwner", [NOTIFICATIONS]), ("ListActivatableNames", [])):
            reply = await bus.call(
                Message(
                    destination="org.freedesktop.DBus",
                    path="/org/freedesktop/DBus",
                    interface="org.freedesktop.DBus",
                    member=member,
                    signature="s" if body else "",
                    body=body,
                )
            )
            value = reply.body[0] if reply is not None and reply.body else None
            if value is True or (isinstance(value, list) and NOTIFICATIONS in value):
                return "running" if member == "NameHasOwner" else "started on demand"
        return ""
    finally:
        bus.disconnect()


def service(backend: ServiceBackend | None, daemon_pid: int | None = None) -> Check:
    """The service as its manager sees it; a daemon holding the instance lock that no
    manager runs is one started by hand (``memory-audit daemon``), and it is running."""
    try:
        backend = backend or backend_for_platform()
    except Exception as exc:
        return Check(WARN, f"service: {exc}")
    status = backend.status()
    if daemon_pid is not None and status.active is not True:
        return _foreground(daemon_pid, status.installed)
    if not status.installed:
        return Check(
            WARN,
            "service not installed: nothing runs the weekly audit",
            "memory-audit service install",
        )
    if status.enabled is False or status.active is False:
        return Check(
            FAIL,
            f"service installed but {status.detail}",
            "memory-audit service install (re-enables it); memory-audit service logs",
        )
    if status.active is None:
        # The unit file is there, but no manager answers: `service install` cannot start it.
        return Check(
            WARN,
            f"service unit installed, but no service manager answers ({status.detail}): "
            "nothing runs the daemon",
            "run `memory-audit daemon` yourself (in the foreground, or under your own "
            "supervisor); where a user manager runs, `memory-audit service install` starts it",
        )
    return Check(OK, f"service installed and running ({status.detail})")


def _foreground(pid: int, installed: bool) -> Check:
    where = "" if pid < 0 else f" (pid {pid})"
    if installed:
        text = f"daemon running in the foreground{where}, not under the installed service unit"
        return Check(OK, text)
    return Check(
        OK,
        f"daemon running in the foreground{where}; no service unit installed, so it stops "
        "with its terminal",
    )


def claude_integration() -> list[Check]:
    """The hook and the skill run an absolute path: it must still exist after upgrades."""
    try:
        settings = claude.load_settings(claude.settings_path())
    except UsageError as exc:
        return [Check(WARN, f"Claude Code settings unreadable: {exc}")]
    programs = [("SessionStart hook", p) for p in claude.hook_programs(settings)]
    skill = claude.skill_program(claude.skill_path())
    if skill is not None:
        programs.append(("/memory-audit skill", skill))
    checks = [_program(what, program) for what, program in programs]
    if claude.outdated_hooks(settings):
        checks.append(OUTDATED_HOOK)
    return checks


OUTDATED_HOOK = Check(
    WARN,
    "Claude Code SessionStart hook has an earlier version's command (`-m memory_audit`): "
    "slower at every session start, and it would run a `memory_audit` folder in the "
    "project instead of this tool",
    "memory-audit claude install (writes the current command)",
)


def _program(what: str, program: str) -> Check:
    if program and os.access(program, os.X_OK) and Path(program).is_file():
        return Check(OK, f"Claude Code {what} runs {program}")
    return Check(
        FAIL,
        f"Claude Code {what} runs {program or '(no command)'}, which no longer exists",
        "memory-audit claude install (writes this installation's path)",
    )


def clock(config: config_module.Config) -> Check:
    schedule = WeeklySchedule.from_settings(config.settings.schedule)
    now = dt.datetime.now(schedule.zone)
    fire = schedule.next_fire(now)
    return Check(
        OK,
        f"clock: now {now:%Y-%m-%d %H:%M %Z} ({schedule.zone}); weekly audit "
        f"'{config.settings.schedule.weekly}' next at {fire:%Y-%m-%d %H:%M %Z}",
    )


def journal(config: config_module.Config) -> Check:
    """How big the journal is and how far back it goes (never created by looking)."""
    folder = config.state_dir / FOLDER
    if not (folder / DB_NAME).exists():
        return Check(OK, "journal: nothing recorded yet (the service keeps it)")
    store = Journal(config.state_dir)
    try:
        stats = store.stats()
    finally:
        store.close()
    budget = config.settings.journal.max_mb
    used = stats.bytes_on_disk / (1024 * 1024)
    since = dt.datetime.fromtimestamp(stats.oldest).date().isoformat() if stats.oldest else "-"
    text = f"journal: {stats.versions} versions, {used:.1f} of {budget} MB, oldest {since}"
    if used > 0.9 * budget:
        return Check(WARN, text, "raise journal.max_mb, or let retention drop old versions")
    return Check(OK, text)
