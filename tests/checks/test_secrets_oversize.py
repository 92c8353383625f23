"""A memory too large to read whole (a month's chat log kept as one note) is reported as
such, and its secrets are read all the same, by the audit and by the on-change alert: a key
pasted into it is there whatever its size (round 144: a 3.4 MB monthly log whose keys and
passwords no finding named). The on-change alert's reading: tests/daemon/test_oversize_alerts.py."""

from __future__ import annotations

from pathlib import Path

from memory_audit.checks.secrets import Options
from tests.harness import codes, findings, index, memory, write_tree

KEY = "Qm7RvT2xK9pLw4Zc8Hn3Fb6Yd1Sj5Ge0"  # a look-alike
FILLER = "- 10:02 checked the build, all green; nothing to report.\n" * 22_000  # 1.2 MB


def _log_tree(tmp_path: Path) -> Path:
    body = FILLER + f"- 23:40 the gateway token is `{KEY}` (set in the service)\n"
    return write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": index("a.md", "log.md"),
            "a.md": memory("a"),
            "log.md": memory("log", body=body),
        },
    )


def test_a_secret_in_a_memory_too_large_to_read_whole_is_found(tmp_path: Path) -> None:
    tree = _log_tree(tmp_path)
    options = {"secrets": Options(state_dir=str(tmp_path / "state"))}
    found = findings(tree, "secrets", "frontmatter", options=options)
    line = 5 + FILLER.count("\n") + 1  # after the frontmatter's four lines and a blank
    assert ("file-too-large", "log.md", None) in codes(found)
    [secret] = [f for f in found if f.code == "possible-secret"]
    assert (secret.path, secret.line, str(secret.level)) == ("log.md", line, "problem")
    assert KEY not in secret.message
