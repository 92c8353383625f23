"""Renderers: each module exposes ``render(run) -> str``; picked by name from RENDERERS."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Run
from . import json_report, markdown, text

Renderer = Callable[[Run], str]

RENDERERS: dict[str, Renderer] = {
    "text": text.render,
    "markdown": markdown.render,
    "json": json_report.render,
}
