"""Renderers: each module exposes ``render(run) -> str``; picked by name from RENDERERS."""

from __future__ import annotations

from collections.abc import Callable

from memory_audit.engine import Run
from memory_audit.report import github, html, json_report, markdown, sarif, text

Renderer = Callable[[Run], str]

RENDERERS: dict[str, Renderer] = {
    "text": text.render,
    "markdown": markdown.render,
    "json": json_report.render,
    "html": html.render,
    "sarif": sarif.render,
    "github": github.render,
}
