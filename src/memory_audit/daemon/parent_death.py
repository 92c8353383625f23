"""A child process that dies with its parent: a daemon killed with ``kill -9`` must not
leave its audit running on, orphaned, at full CPU.

On Linux the kernel sends the child SIGKILL when its parent dies (``PR_SET_PDEATHSIG``,
set through ctypes: no dependency). SIGKILL, not SIGTERM: it also ends a child that is
stopped. The child sets it itself, after it started, so the parent may have died in
between: the child then compares its parent with the pid the parent put in its
environment, and exits if they differ. Where there is no ``prctl`` (macOS), a thread of
the child makes that comparison once a second.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time

from memory_audit.kernel_ties import die_with_parent_on_linux

log = logging.getLogger("memory_audit.daemon")
PARENT_ENV = "MEMORY_AUDIT_PARENT_PID"
CHECK_SECONDS = 1.0


def parent_environment() -> dict[str, str]:
    """What a child started by this process needs in its environment to die with it."""
    return {PARENT_ENV: str(os.getpid())}


def die_with_parent() -> None:
    """Called first thing in the child: end it when the parent that started it ends."""
    expected = int(os.environ.get(PARENT_ENV) or 0)
    if sys.platform.startswith("linux"):
        failed = die_with_parent_on_linux()
        if failed is not None:
            log.warning("cannot tie the audit to the daemon: %s", failed)
    elif expected:
        threading.Thread(target=_watch_parent, args=(expected,), daemon=True).start()
    if expected and os.getppid() != expected:  # the parent died before the request above
        os._exit(1)


def _watch_parent(expected: int) -> None:
    while os.getppid() == expected:
        time.sleep(CHECK_SECONDS)
    os._exit(1)
