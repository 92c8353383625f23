"""Building trees from dicts and auditing them: a test case is a few lines."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from memory_audit import checks
from memory_audit.checks import REGISTRY
from memory_audit.engine import audit_tree
from memory_audit.model.finding import Finding
from memory_audit.model.run import TreeReport
from memory_audit.tree.snapshot import MemoryTree, ProjectLocation, load_tree

NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def memory(name: str, body: str | None = None, **fields: object) -> str:
    """A memory file in the old layout; ``fields`` become frontmatter lines (None drops one).

    The default body is ``Body text`` and words drawn from the name's hash: two default
    memories do not say the same thing, so ``duplicates`` stays quiet on test trees."""
    if body is None:
        digest = hashlib.sha256(name.encode()).hexdigest()
        body = "Body text " + " ".join(f"w{digest[i : i + 6]}" for i in range(0, 24, 6)) + "."
    values: dict[str, object] = {"name": name, "description": f"About {name}", "type": "project"}
    values.update(fields)
    lines = [f"{k}: {v}" for k, v in values.items() if v is not None]
    return "---\n" + "\n".join(lines) + "\n---\n" + body + "\n"


def index(*targets: str) -> str:
    return "# Index\n" + "".join(f"- [{t}]({t}) — notes about {t}\n" for t in targets)


def load(
    root: Path,
    *,
    profile: str = "auto",
    location: ProjectLocation | None = None,
    now: dt.datetime = NOW,
) -> MemoryTree:
    return load_tree(root, profile=profile, location=location, now=now)


def report(
    root: Path,
    *checks: str,
    options: Mapping[str, object] | None = None,
    profile: str = "auto",
    location: ProjectLocation | None = None,
    now: dt.datetime = NOW,
) -> TreeReport:
    tree = load(root, profile=profile, location=location, now=now)
    found = audit_tree(tree, checks or tuple(REGISTRY), options)
    failed = [error for path, error in found.errors if error.startswith("check ")]
    # A check that raised yields no findings: without this, every `== []` passes.
    assert not failed, f"the engine recorded check errors: {failed}"
    return found


def findings(
    root: Path,
    *checks: str,
    options: Mapping[str, object] | None = None,
    profile: str = "auto",
    location: ProjectLocation | None = None,
    now: dt.datetime = NOW,
) -> list[Finding]:
    found = report(root, *checks, options=options, profile=profile, location=location, now=now)
    return list(found.findings)


def codes(found: list[Finding]) -> list[tuple[str, str, int | None]]:
    return [(f.code, f.path, f.line) for f in found]


def digest(root: Path) -> str:
    """Every entry's path, type, mode, size, mtime and content: any write changes it."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            info = path.lstat()
            h.update(
                f"{path.relative_to(root)}|{info.st_mode}|{info.st_size}|{info.st_mtime_ns}".encode()
            )
            if path.is_file() and not path.is_symlink() and os.access(path, os.R_OK):
                h.update(path.read_bytes())
    return h.hexdigest()


def stand_in(monkeypatch: pytest.MonkeyPatch, dimension: str, check: object) -> None:
    """The registry hands out ``check`` for ``dimension`` for this test (its other
    modules as they are): the module lookup is replaced, the registry itself is read-only."""
    real = checks.check_module
    monkeypatch.setattr(checks, "check_module", lambda d: check if d == dimension else real(d))
