"""What the daemon builds from its configuration, at start and again on SIGHUP.

A reload builds anew each component whose settings changed: the report store
(``reports.dir``, ``reports.keep``), the notifier and the alert queue in front
of it (``notify.*``), the weekly schedule (``schedule.*``) and the file
watchers (``watch.*``). Work in progress carries over: alerts waiting to be
sent move to the new queue, and notifications already sent this hour still
count against the new rate limit.

Two changes are refused, with a log line, keeping the running value:

- ``state.dir``: that folder holds the daemon's instance lock, its database
  (runs, alerts already sent, dismissals) and the salt of secret fingerprints;
  moving them under a live daemon would re-send every alert. It takes effect
  at the next start.
- a ``reports.dir`` the daemon cannot create or write (under the hardened
  systemd unit, only the folders listed when the service was installed are
  writable: ``memory-audit service install`` again adds the new one), or an
  existing folder of the user's that it did not create (see
  :mod:`memory_audit.store.report_folder`).
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

from memory_audit.config.settings import Config, NotifySettings
from memory_audit.model.run import Run
from memory_audit.notify import Notifier
from memory_audit.report import html
from memory_audit.store.report_folder import ReportsDirRefused, claim
from memory_audit.store.reports import ReportStore, write_file

log = logging.getLogger("memory_audit.daemon")


def with_section(config: Config, **sections: Any) -> Config:
    """``config`` with whole sections of its settings replaced (``reports=...``)."""
    return dataclasses.replace(config, settings=dataclasses.replace(config.settings, **sections))


def build_store(config: Config) -> ReportStore:
    """Run folders under ``reports.dir``, each with the HTML report next to the Markdown."""
    return ReportStore(config.report_dir, config.settings.reports.keep, (write_html,))


def write_html(run: Run, folder: Path) -> None:
    write_file(folder / "index.html", html.render(run))


def build_notifier(settings: NotifySettings, previous: Notifier | None = None) -> Notifier:
    notifier = Notifier(settings)
    if previous is not None:
        notifier.limit.carry_over(previous.limit)  # a reload must not reset the hourly cap
    return notifier


def keep_state_dir(running: Config, fresh: Config) -> Config:
    """``fresh``, but with the running daemon's state folder (logged when they differ)."""
    if fresh.state_dir == running.state_dir:
        return fresh
    log.warning(
        "state.dir changed to %s: a running daemon keeps its lock, database and secret salt "
        "in %s; restart the service to use the new folder",
        fresh.state_dir,
        running.state_dir,
    )
    return with_section(
        fresh, state=dataclasses.replace(fresh.settings.state, dir=str(running.state_dir))
    )


def writable_store(config: Config) -> ReportStore | None:
    """The store for ``config``, or None (logged) when its folder cannot be made or written."""
    store = build_store(config)
    try:
        claim(store.root)
        probe = store.root / ".write-test"
        probe.touch(mode=0o600)
        probe.unlink()
    except OSError as exc:
        log.error(
            "reports.dir %s is not writable (%s); the reports stay where they were",
            store.root,
            exc.strerror or type(exc).__name__,
        )
        return None
    except ReportsDirRefused as refused:
        log.error("%s; the reports stay where they were", refused)
        return None
    return store
