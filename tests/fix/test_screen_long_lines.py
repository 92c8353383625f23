"""Review shows a long line (a raw log's record) around what matters, masked whole."""

from __future__ import annotations

from memory_audit.fix.screen import LONG_LINE, cut
from memory_audit.secrets.boundary import Boundary

SECRET = "Qm7kLpX2rzW9aB3cD4eF5gH6jK8mN0pR"


def test_a_short_line_is_only_masked() -> None:
    line = f"token {SECRET} here"
    assert cut(Boundary([SECRET]), line) == Boundary([SECRET]).text(line)


def test_a_long_line_is_shown_around_its_first_secret_with_the_rest_counted() -> None:
    line = "x" * 3000 + f" token {SECRET} " + "y" * 3000
    shown = cut(Boundary([SECRET]), line)
    assert SECRET not in shown
    assert "token Qm7k...N0pR" in shown
    assert shown.startswith("…(2,927 characters) ")  # 80 before the secret at 3,007
    assert shown.endswith(" …(2,873 characters)")
    assert len(shown) < LONG_LINE + 60


def test_a_window_never_cuts_a_secret_in_two() -> None:
    # the window would end inside the secret: widened to hold it, the whole secret masked
    # (a cut half would be no known value, and shown as written)
    line = "a" * 1000 + SECRET + "b" * 1000
    shown = cut(Boundary([SECRET]), line, at=1000 - 150)
    assert SECRET[:12] not in shown
    assert SECRET[-12:] not in shown
    assert "Qm7k...N0pR" in shown


def test_a_change_is_shown_where_it_is() -> None:
    line = "z" * 5000 + "CHANGED" + "z" * 5000
    shown = cut(Boundary([]), line, at=5000)
    assert "CHANGED" in shown
    assert shown.startswith("…(4,920 characters) ")
