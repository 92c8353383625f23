"""``memory-audit daemon [--config FILE] [--once]``: the service, in the foreground."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config_module
from memory_audit.daemon import logs
from memory_audit.daemon.service import Daemon
from memory_audit.engine import boundary_scanner
from memory_audit.secrets.boundary import Boundary
from memory_audit.store.report_folder import ReportsDirRefused, claim

log = logging.getLogger("memory_audit.daemon")


def run(*, config_path: Path | None, once: bool) -> int:
    # Reports, state and logs are the user's alone, whatever creates them.
    os.umask(0o077)
    # An invalid file is a ConfigError (exit 2) before any side effect.
    config = config_module.load(config_path, OPTION_TYPES)
    scanner = boundary_scanner(config.check_options("secrets"))
    log_file = logs.setup(mask=lambda line: Boundary.for_names(scanner, [line]).text(line))
    log.info(
        "memory-audit daemon starting (config: %s, log: %s)", config.source or "defaults", log_file
    )
    try:
        claim(config.report_dir)  # before anything runs: a refused folder stops the daemon
    except ReportsDirRefused as refused:
        log.error("not starting: %s", refused)
        raise
    except OSError as exc:  # each run logs it again; alerts still flow meanwhile
        log.error("reports.dir %s: %s", config.report_dir, exc.strerror or type(exc).__name__)
    return asyncio.run(_main(config_path, config, once))


async def _main(config_path: Path | None, config: config_module.Config, once: bool) -> int:
    daemon = Daemon(config_path, config)
    return await (daemon.once() if once else daemon.serve())
