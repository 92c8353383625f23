"""The review's terminal: printing that survives a closed terminal, questions answered by
word, letter or number ("1. Apply  2. Skip  3. Edit  4. View detail"), and Ctrl-C held
while files are written."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator
from typing import TextIO

from memory_audit.model.visible import visible, visible_lines


class Console:
    def __init__(self, inp: TextIO, out: TextIO, mask: Callable[[str], str] | None = None) -> None:
        self.inp = inp
        self.out = out
        # What masks a secret in the names the session shows (file, folder, project).
        self.mask = mask or (lambda text: text)

    def say(self, text: str = "") -> None:
        with contextlib.suppress(OSError):  # a closed terminal must not stop the bookkeeping
            # No escape sequence from a file reaches the terminal, whatever the caller passed.
            self.out.write(visible_lines(self.mask(text)) + "\n")
            self.out.flush()

    def ask(self, prompt: str, default: str = "") -> str:
        shown = visible(self.mask(f"{prompt} [{default}]: " if default else f"{prompt}: "))
        try:
            self.out.write(shown)
            self.out.flush()
            line = self.inp.readline()
        except OSError:
            raise EOFError from None  # the terminal went away
        if not line:
            raise EOFError
        return line.rstrip("\n").strip() or default

    def choose(self, prompt: str, choices: dict[str, str], numbered: bool = False) -> str:
        """A choice by its word, its first letter or (``numbered``) its number. Every
        question takes ``q``: a menu without its own quit raises :class:`Quit`."""
        numbers = {str(n): key for n, key in enumerate(choices, 1) if key != "q"}
        if not numbered:
            numbers = {}  # the numbers accepted are the numbers shown
        labels = [_label(key, word, numbers, numbered) for key, word in choices.items()]
        menu = ("  " if numbered else " / ").join(labels)
        while True:
            answer = self.ask(f"{prompt} {menu}").lower()
            if answer in numbers:
                return numbers[answer]
            for key, word in choices.items():
                if answer in (key, word.lower()):
                    return key
            if answer in ("q", "quit"):
                raise Quit
            self.say(f"  Please answer one of: {', '.join(dict.fromkeys([*numbers, *choices]))}")


class Quit(EOFError):
    """``q`` at a question that has no quit of its own: the caller stops, as it would at
    the menu's quit (a caller that knows only end-of-input stops as it does there)."""


def _label(key: str, word: str, numbers: dict[str, str], numbered: bool) -> str:
    text = f"[{key}]{word[1:]}" if word.lower().startswith(key) else f"{word} [{key}]"
    number = next((n for n, k in numbers.items() if k == key), None)
    return f"{number}. {text}" if numbered and number else text


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C while files are written; it takes effect right after."""
    pending: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: pending.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if pending:
            raise KeyboardInterrupt
