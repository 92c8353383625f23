"""The daemon's audits run in a child process, so nothing they parse can hold up the loop.

Why a process and not a thread: while a big tree is read, the daemon's loop
must keep answering SIGTERM, sending ``WATCHDOG=1`` and raising secret alerts.
A thread shares the GIL with the loop. Pure-Python parsing hands it back every
5 ms, but a C call keeps it for its whole length (a regular expression over a
1 MB line, hashing, a long ``str`` operation): four files of 1 MB pathological
lines paused a loop sharing the GIL for up to 100 ms at a time, and one
super-linear pattern anywhere would stop it for minutes. A thread cannot be
stopped either, so SIGTERM would wait for the audit. A child has its own
interpreter: the loop only waits on a pipe, and stopping is one ``kill``. The
price, starting an interpreter (a fraction of a second), is paid once a week.

The child is this same program: the parent writes one pickled
:class:`AuditRequest` on its stdin, the child writes the pickled ``Run`` on its
stdout and exits 0; on an error it exits 1 with the error's type and place on
stderr (never its message, which may quote a file). The child writes nothing
anywhere else: it reads the trees and returns findings; the daemon writes the
reports and the state.

The child dies with the daemon, even a daemon killed with ``kill -9``
(:mod:`memory_audit.daemon.parent_death`), and runs in a process group of its own
(a Ctrl-C at the terminal reaches the daemon only); cancelling the audit kills the
whole group, ``git`` processes the audit started included.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
import pickle
import signal
import sys
from dataclasses import dataclass

from memory_audit.config.settings import Config
from memory_audit.daemon.parent_death import die_with_parent, parent_environment
from memory_audit.engine import audit_refs, select_checks
from memory_audit.errors import describe
from memory_audit.model.run import Run
from memory_audit.tree.discovery import find_trees

log = logging.getLogger("memory_audit.daemon")
CHILD = "memory_audit.daemon.audit_process"
MAX_LOGGED_LINES = 20


class AuditFailed(Exception):
    """The child process ended without a run; the message says how."""


@dataclass(frozen=True)
class AuditRequest:
    config: Config
    now: dt.datetime
    dismissed: frozenset[str]


async def audit_in_child(request: AuditRequest) -> Run:
    """The audit of every tree, run in a child; cancelling this kills the child at once."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        CHILD,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=_child_environment(),
        start_new_session=True,  # a Ctrl-C at the terminal reaches the daemon only
    )
    try:
        out, err = await process.communicate(pickle.dumps(request))
    except asyncio.CancelledError:
        if process.returncode is None:  # it writes nothing: nothing is lost by not waiting
            _kill_group(process.pid)
        await process.wait()
        raise
    _relay(err)
    if process.returncode != 0:
        raise AuditFailed(f"audit process exited with status {process.returncode}")
    run = pickle.loads(out)  # noqa: S301 - written by this program's own child, over its pipe
    if not isinstance(run, Run):
        raise AuditFailed("audit process returned no run")
    return run


def _kill_group(pid: int) -> None:
    """The child and whatever it started (its group, led by it: ``start_new_session``)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def _child_environment() -> dict[str, str]:
    """The daemon's environment, minus systemd's notify variables (only the daemon speaks
    to systemd), plus what ties the child's life to the daemon's."""
    inherited = {
        key: value
        for key, value in os.environ.items()
        if key not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")
    }
    return inherited | parent_environment()


def _relay(err: bytes) -> None:
    """The child's log lines into the daemon's log (bounded: a few lines)."""
    lines = err.decode("utf-8", "replace").splitlines()
    for line in lines[:MAX_LOGGED_LINES]:
        log.warning("audit process: %s", line)
    if len(lines) > MAX_LOGGED_LINES:
        log.warning("audit process: ...and %d more lines", len(lines) - MAX_LOGGED_LINES)


def run_request(request: AuditRequest) -> Run:
    selection = select_checks([], request.config.settings.audit.skip)
    refs = find_trees(request.config.settings.roots, every_store=True)  # agents' memory too
    return audit_refs(refs, request.config, selection, now=request.now, dismissed=request.dismissed)


def main() -> int:
    """The child: one request on stdin, one run on stdout."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the daemon decides when it stops
    result = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print() must not corrupt the pickle
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    try:
        request = pickle.load(sys.stdin.buffer)  # noqa: S301 - from the daemon that started us
        run = run_request(request)
    except Exception as exc:
        print(f"audit failed: {describe(exc)}", file=sys.stderr)
        return 1
    with result:
        pickle.dump(run, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
