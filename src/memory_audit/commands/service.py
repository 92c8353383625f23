"""``memory-audit service install|uninstall|status|logs [--print]``."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path
from typing import TextIO

from memory_audit.atomic import write_atomic
from memory_audit.commands.confirm import confirmed
from memory_audit.config import settings as config_module
from memory_audit.daemon import logs as daemon_logs
from memory_audit.install import backend_for_platform
from memory_audit.install.spec import MANIFEST, CommandResult, Manifest, ServiceBackend, ServiceSpec
from memory_audit.journal.store import FOLDER as JOURNAL_FOLDER
from memory_audit.journal.store import holdings
from memory_audit.store.reports import ReportStore

MARKER = "memory-audit service install"


def spec_for(config: config_module.Config, config_path: Path | None) -> ServiceSpec:
    log_dir = daemon_logs.log_dir()
    writable = [config.report_dir.parent, config.state_dir, log_dir]
    return ServiceSpec.current(config_path, list(dict.fromkeys(writable)), log_dir / "launchd.log")


def run(
    *,
    action: str,
    print_only: bool,
    config_path: Path | None,
    out: TextIO,
    inp: TextIO | None = None,
    purge: bool = False,
    yes: bool = False,
    backend: ServiceBackend | None = None,
) -> int:
    backend = backend or backend_for_platform()
    config = config_module.load(config_path)
    if action == "install":
        return install(backend, config, config_path, print_only, out)
    if action == "uninstall":
        if purge and not _purge_confirmed(config, inp, out, yes):
            out.write("Nothing was changed.\n")
            return 1
        return uninstall(backend, config, out, purge=purge)
    if action == "status":
        status = backend.status()
        state = "installed" if status.installed else "not installed"
        out.write(f"unit file: {backend.unit_path()} ({state})\n")
        out.write(f"{status.detail}\n")
        return 0
    text = backend.logs(200) or _tail(daemon_logs.log_dir() / "daemon.log", 200)
    out.write(text + "\n" if text else "No log entries yet.\n")
    return 0


def install(
    backend: ServiceBackend,
    config: config_module.Config,
    config_path: Path | None,
    print_only: bool,
    out: TextIO,
) -> int:
    spec = spec_for(config, config_path)
    text = backend.render(spec)
    if print_only:
        out.write(text)
        return 0
    manifest = Manifest.load(config.state_dir)
    for folder in spec.writable:
        manifest.created_dir(folder)
    unit = backend.unit_path()
    manifest.created_dir(unit.parent)
    if not unit.exists() or unit.read_text(encoding="utf-8") != text:
        write_atomic(unit, text, mode=0o644)
    for created in (str(unit), str(manifest.path)):
        if created not in manifest.files:
            manifest.files.append(created)
    manifest.save()
    out.write(f"wrote {unit}\n")
    code = _activate(backend, out)
    out.write("\n" + "\n".join(f"hint: {h}" for h in backend.hints()) + "\n")
    return code


def _activate(backend: ServiceBackend, out: TextIO) -> int:
    reachable, why = backend.reachable()
    if not reachable:
        out.write(
            f"{why}: the service file is in place but was not started.\n"
            "When the service manager is reachable, run:\n"
        )
        out.write("".join(f"  {command}\n" for command in backend.manual_commands()))
        return 0
    results = backend.activate()
    _show(results, out)
    if all(r.ok for r in results):
        out.write(f"{backend.name}: memory-audit is enabled and running\n")
        return 0
    return 1


def uninstall(
    backend: ServiceBackend, config: config_module.Config, out: TextIO, *, purge: bool = False
) -> int:
    manifest = Manifest.load(config.state_dir)
    unit = backend.unit_path()
    if not manifest.files and not _ours(unit):
        out.write("memory-audit service is not installed\n")
        if purge:
            purge_data(config, out)
        return 0
    reachable, _ = backend.reachable()
    if reachable and unit.exists():
        _show(backend.deactivate(), out)
    for path in dict.fromkeys([*manifest.files, str(unit) if _ours(unit) else ""]):
        if path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
                out.write(f"removed {path}\n")
    if reachable:
        _show(backend.after_removal(), out)
    if purge:
        purge_data(config, out)
    for folder in sorted(manifest.dirs, key=len, reverse=True):
        with contextlib.suppress(OSError):  # not empty (reports, state): the user's data stays
            os.rmdir(folder)
            out.write(f"removed {folder}/\n")
    return 0


def _purge_confirmed(
    config: config_module.Config, inp: TextIO | None, out: TextIO, yes: bool
) -> bool:
    """What ``--purge`` deletes, the journal apart (it may be the only copy of deleted
    memories), then the question; ``--yes`` answers it, no terminal refuses it."""
    folders = (config.report_dir, daemon_logs.log_dir(), config.state_dir)
    out.write("--purge deletes, besides the service files:\n")
    for folder in dict.fromkeys(folders):
        if folder.exists():
            out.write(f"  {folder}/\n")
    held = holdings(config.state_dir)
    if held is not None and held.versions:
        out.write(
            f"including the journal ({config.state_dir / JOURNAL_FOLDER}/): {held.versions} "
            f"versions of {held.files} memories, the only copy of {held.only_copy} deleted "
            "files. Once deleted, `memory-audit restore` cannot bring any of them back.\n"
        )
    return confirmed(
        inp or sys.stdin, out, "Delete all of this?", yes=yes, flag="--yes (with --purge)"
    )


def purge_data(config: config_module.Config, out: TextIO) -> None:
    """``--purge``: the reports, state and logs too (they are the user's data: opt-in).
    Of ``reports.dir``, only what the report store wrote goes."""
    if ReportStore(config.report_dir, config.settings.reports.keep).remove_own():
        out.write(f"removed {config.report_dir}/\n")
    for folder in dict.fromkeys([daemon_logs.log_dir(), config.state_dir]):
        if folder.exists():
            shutil.rmtree(folder)
            out.write(f"removed {folder}/\n")
    with contextlib.suppress(OSError):
        config.report_dir.parent.rmdir()  # <data dir>/memory-audit, when now empty


def _ours(unit: Path) -> bool:
    try:
        return MARKER in unit.read_text(encoding="utf-8")
    except OSError:
        return False


def _show(results: list[CommandResult], out: TextIO) -> None:
    for result in results:
        out.write(f"$ {' '.join(result.command)}\n")
        if result.output:
            out.write(f"{result.output}\n")


def _tail(path: Path, lines: int) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


__all__ = ["MANIFEST", "run"]
