"""Where a tree belongs. Kept apart from the tree loader so that light commands
(the session hook) can locate trees without importing YAML or the checks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ProjectLocation:
    """Where a tree belongs: its slug, the located project folder, its transcripts."""

    slug: str | None = None
    project_path: Path | None = None
    transcripts_dir: Path | None = None
