"""Field metadata the configuration schema reads, importable without YAML (check modules
declare their options with it; a secrets-only run loads no YAML parser)."""

from __future__ import annotations

INTERNAL = {"internal": True}  # field metadata: wired by the program, not set in config files
