"""``memory-audit config path|show|validate|init``."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, TextIO

import yaml

from memory_audit.atomic import ensure_private_dir, write_atomic
from memory_audit.checks import OPTION_TYPES, REGISTRY
from memory_audit.config import settings as config_module
from memory_audit.config.paths import default_config_file
from memory_audit.config.schema import settable_fields
from memory_audit.errors import UsageError
from memory_audit.resource_files import read_resource


def run(*, action: str, config_path: Path | None, force: bool, out: TextIO) -> int:
    path = config_path or default_config_file()
    if action == "path":
        out.write(f"{path}\n")
    elif action == "validate":
        loaded = config_module.load(config_path, OPTION_TYPES)
        where = loaded.source or "(no file: all defaults)"
        out.write(f"{where}: valid\n")
    elif action == "show":
        out.write(show(config_module.load(config_path, OPTION_TYPES)))
    else:
        init(path, force)
        out.write(f"wrote {path}\n")
    return 0


def show(config: config_module.Config) -> str:
    """The effective configuration, defaults filled in, as YAML."""
    document: dict[str, Any] = _plain(dataclasses.asdict(config.settings))
    document["checks"] = {}
    for dimension, check in REGISTRY.items():
        values = dataclasses.asdict(config.check_options(dimension))
        document["checks"][dimension] = {
            name: _plain(values[name]) for name in settable_fields(check.Options)
        }
    header = f"# effective configuration (source: {config.source or 'defaults'})\n"
    return header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def init(path: Path, force: bool) -> None:
    if path.exists() and not force:
        raise UsageError(f"{path} exists; use --force to overwrite it")
    ensure_private_dir(path.parent)
    write_atomic(path, read_resource("config", "config.example.yaml"))
