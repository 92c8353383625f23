"""A program on a real pseudo-terminal: what it prints, what we type, Ctrl-C included.

``pty.fork`` makes the terminal the child's controlling terminal, so a typed
Ctrl-C reaches it as SIGINT through the line discipline, as at a keyboard.
"""

from __future__ import annotations

import os
import pty
import select
import time
from collections.abc import Sequence


class Terminal:
    def __init__(self, argv: Sequence[str], env: dict[str, str], cwd: str | None = None) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: become the program
            if cwd:
                os.chdir(cwd)
            os.execvpe(argv[0], list(argv), env)  # noqa: S606 - the program itself, no shell
        self.pid = pid
        self.fd = fd
        self.output = ""
        self._seen = 0
        self.status: int | None = None

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output += data.decode(errors="replace").replace("\r\n", "\n")
        return bool(data)

    def expect(self, text: str, timeout: float = 30.0) -> str:
        """Wait until ``text`` appears after what earlier expects consumed; return the stretch."""
        deadline = time.monotonic() + timeout
        while text not in self.output[self._seen :]:
            if time.monotonic() > deadline or (not self._read(0.1) and self._exited()):
                raise AssertionError(f"never saw {text!r}; output so far:\n{self.output[-3000:]}")
        end = self.output.index(text, self._seen) + len(text)
        stretch = self.output[self._seen : end]
        self._seen = end
        return stretch

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def interrupt(self) -> None:
        os.write(self.fd, b"\x03")

    def hang_up(self, timeout: float = 30.0) -> int:
        """Close the terminal, as when its window is closed; the program's exit code."""
        os.close(self.fd)
        deadline = time.monotonic() + timeout
        while not self._exited():
            if time.monotonic() > deadline:
                os.kill(self.pid, 9)
                raise AssertionError("did not exit after the terminal closed")
            time.sleep(0.05)
        assert self.status is not None
        return self.status

    def _exited(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status is not None

    def wait(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while not self._exited():
            self._read(0.1)
            if time.monotonic() > deadline:
                os.kill(self.pid, 9)
                raise AssertionError(f"did not exit; output:\n{self.output[-3000:]}")
        while self._read(0.05):
            pass
        os.close(self.fd)
        assert self.status is not None
        return self.status
