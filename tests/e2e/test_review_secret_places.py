"""`review` redacts one secret value wherever it is written, in one confirmed decision,
and the journal keeps what each file was before."""

from __future__ import annotations

import sys
from pathlib import Path

from memory_audit.secrets.redact import redact
from tests.e2e.test_review import env_for, review
from tests.harness import index, memory, write_tree
from tests.support.terminal import Terminal

PASSWORD = "Harbor01!!"  # a look-alike
BODIES = {
    "a.md": f"Office network: the wifi password is {PASSWORD}",
    "b.md": f"Printer setup steps.\n\nThe printer's admin password is {PASSWORD}",
    "c.md": f"nas {PASSWORD} on the mgmt port",
}


def test_one_decision_redacts_a_value_in_three_files_and_restore_brings_one_back(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    tree = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index(*BODIES), **{n: memory(n[0], body=b) for n, b in BODIES.items()}},
    )
    before = (tree / "c.md").read_text()
    term = review(home, tree)
    proposal = term.expect("[q]uit: ")
    assert "also at b.md:8 and c.md:6" in proposal
    assert "and its copies in 2 other file(s)" in proposal
    assert all(f"--- a/{name}" in proposal for name in BODIES)  # every change shown first
    term.send("a")
    term.expect("Applied:")
    summary = term.expect("findings remain.")
    assert "1 applied, 0 skipped" in summary
    term.expect("Enter to skip): ")
    term.send("")
    assert term.wait() == 0
    for name in BODIES:
        text = (tree / name).read_text()
        assert PASSWORD not in text
        assert "<REDACTED:password-phrase>" in text
    restore = Terminal(
        [sys.executable, "-m", "memory_audit", "restore", str(tree / "c.md")], env_for(home)
    )
    restore.expect("Restore this version?")
    restore.send("y")
    restore.expect("Why restore?")
    restore.send("")
    assert restore.wait() == 0
    # The version before the redaction, as the journal kept it: c.md's copy is text no
    # rule sees on its own, but a.md's rule found the value, so the journal masked it
    # there too (as the audit reports it): it comes back masked, never whole.
    assert (tree / "c.md").read_text() == before.replace(PASSWORD, redact(PASSWORD))
