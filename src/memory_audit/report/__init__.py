"""Renderers: each module exposes ``render(run) -> str``; picked by format name.

The table names modules rather than importing them, so that the command line
can offer the format names without loading every renderer.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from memory_audit.model.run import Run

Renderer = Callable[[Run], str]

RENDERER_MODULES: dict[str, str] = {
    "text": "text",
    "markdown": "markdown",
    "json": "json_report",
    "html": "html",
    "sarif": "sarif",
    "github": "github",
}


def renderer(output_format: str) -> Renderer:
    module = importlib.import_module(f"memory_audit.report.{RENDERER_MODULES[output_format]}")
    render: Renderer = module.render
    return render
