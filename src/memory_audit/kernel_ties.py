"""Asking the kernel to end this process when its parent ends (Linux ``PR_SET_PDEATHSIG``,
through ctypes: no dependency).

Shared by the daemon's audit child (:mod:`memory_audit.daemon.parent_death`) and the
secret sweep's forked worker (:mod:`memory_audit.secrets.sweep`): a fork does not inherit
the request, so each process asks for itself. SIGKILL, not SIGTERM: it also ends a process
that is stopped.
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent_on_linux() -> str | None:
    """Ask for SIGKILL when the parent ends. None when asked; else why not (not Linux, or
    the call failed), for the caller to log or to fall back on its own watch."""
    if not sys.platform.startswith("linux"):
        return "not Linux"
    import ctypes  # here, not at import: every audit imports the sweep, few processes ask

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
        return os.strerror(ctypes.get_errno())
    return None
