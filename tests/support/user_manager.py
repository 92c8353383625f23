"""A real systemd user manager for tests, in a private mount namespace.

``systemd --user`` refuses to start on a machine not booted with systemd
(no ``/run/systemd/system``). Inside a private mount namespace a tmpfs over
``/run`` provides that marker without touching the host; ``systemctl --user``
then reaches the manager through ``$XDG_RUNTIME_DIR/systemd/private``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SYSTEMD = "/usr/lib/systemd/systemd"
SCRIPT = "mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system && exec {systemd} --user"


def unavailable_reason() -> str | None:
    for tool in ("unshare", "systemctl"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    return None if os.path.exists(SYSTEMD) else f"{SYSTEMD} is not installed"


@contextmanager
def user_manager(env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """Start ``systemd --user`` with ``env`` (HOME, XDG_*); stop it afterwards."""
    runtime = Path(env["XDG_RUNTIME_DIR"])
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    namespace = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        namespace[1:1] = ["--user", "--map-root-user"]
    manager = subprocess.Popen(
        [*namespace, "sh", "-c", SCRIPT.format(systemd=SYSTEMD)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not (runtime / "systemd" / "private").exists():
            if manager.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("systemd --user did not start")
            time.sleep(0.05)
        yield manager
    finally:
        manager.terminate()
        try:
            manager.wait(timeout=20)
        except subprocess.TimeoutExpired:
            manager.kill()
            manager.wait()
