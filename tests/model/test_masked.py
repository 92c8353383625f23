from __future__ import annotations

from memory_audit.model.masked import shows

REAL = "/home/me/.claude/projects/-work-xoxb-1234-5678-abcdefghijklmnop/memory"


def test_a_path_shows_itself_and_its_masked_form() -> None:
    assert shows(REAL, REAL)
    assert shows("/home/me/.claude/projects/-work-xoxb...mnop/memory", REAL)


def test_a_masked_path_does_not_show_another_path() -> None:
    assert not shows("/home/me/.claude/projects/-work-xoxb...mnoq/memory", REAL)
    assert not shows("/home/you/.claude/projects/-work-xoxb...mnop/memory", REAL)
    assert not shows("/home/me/.claude/projects/-work-xoxb...mnop/memory", "/elsewhere")


def test_each_mask_stands_for_at_least_one_character() -> None:
    assert not shows("ab...cd", "abcd")
    assert shows("ab...cd", "abXcd")
    assert shows("ab...cd...ef", "abXcdYef")
    assert not shows("ab...cd...ef", "abXcdef")
