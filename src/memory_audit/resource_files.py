"""Data files shipped with the package: the example config, secret rules, service templates.

In the repository they live in ``config/`` and ``service-files/`` at the top
level; the package reaches them through ``resources/`` (symlinks in a
checkout, copies in a wheel).
"""

from __future__ import annotations

from importlib import resources


def read_resource(*parts: str) -> str:
    node = resources.files("memory_audit").joinpath("resources", *parts)
    return node.read_text(encoding="utf-8")
