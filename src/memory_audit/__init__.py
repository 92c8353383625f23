"""memory-audit: keep Claude Code memory trees healthy."""

from __future__ import annotations

__version__ = "0.1.0"
