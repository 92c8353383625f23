"""``sd_notify`` without libsystemd: one datagram to ``$NOTIFY_SOCKET``.

``READY=1`` once serving, ``WATCHDOG=1`` at half of ``$WATCHDOG_USEC``,
``STOPPING=1`` on the way out. Without ``$NOTIFY_SOCKET`` (not under systemd)
every call is a no-op.
"""

from __future__ import annotations

import contextlib
import os
import socket


def notify(message: str) -> bool:
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # abstract namespace
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        # Never wait: a receiver that stopped reading would otherwise freeze the loop
        # once its queue (net.unix.max_dgram_qlen, 10 by default) is full.
        sock.send(message.encode(), socket.MSG_DONTWAIT)
        return True
    return False


def watchdog_interval() -> float | None:
    """Seconds between WATCHDOG=1 pings (half the configured timeout), or None."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or not usec.isdigit() or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2_000_000
