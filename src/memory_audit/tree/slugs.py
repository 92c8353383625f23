"""Project slugs and the tree of a folder, on strings (``os`` only: no ``re``).

A tree lives at ``<claude home>/projects/<slug>/memory/``; the slug is the
project path with every character outside ``[A-Za-z0-9]`` replaced by ``-``.
Slugs longer than 200 characters carry a hash suffix we cannot recompute:
those are matched by prefix. Light on purpose: the session hook imports it
(``re`` alone would cost it about 12 ms).
"""

from __future__ import annotations

import os

from memory_audit.config.user_dirs import claude_home

SLUG_LIMIT = 200


def slugify(path: str | os.PathLike[str]) -> str:
    """Every character but ``[A-Za-z0-9]`` (ASCII letters and digits) made ``-``."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in os.fspath(path))


def slug_matches(candidate: str, slug: str) -> bool:
    if len(slug) <= SLUG_LIMIT:
        return candidate == slug
    return len(candidate) > SLUG_LIMIT and candidate[:SLUG_LIMIT] == slug[:SLUG_LIMIT]


def auto_memory_projects(tree: str | os.PathLike[str]) -> str | None:
    """The ``projects`` folder holding ``tree`` when the tree is laid out as Claude Code
    lays out auto memory, ``<its folder>/projects/<slug>/memory``, the slug a path made a
    name (``-home-ann-shop``, ``C--Users-ann-shop`` on Windows); else None."""
    path = os.fspath(tree)
    project = os.path.dirname(path)
    projects = os.path.dirname(project)
    if os.path.basename(path) != "memory" or os.path.basename(projects) != "projects":
        return None
    slug = os.path.basename(project)
    drive = len(slug) > 2 and slug[0].isascii() and slug[0].isalpha() and slug[1:3] == "--"
    if not (slug.startswith("-") or drive):
        return None
    return projects if all(c.isalnum() or c in "-._" for c in slug) else None


def tree_root_for_folder(folder: str) -> str | None:
    """The memory tree of the project ``folder`` (absolute) is in: the project or a sub-folder."""
    base = os.path.join(claude_home(), "projects")
    for candidate in _self_and_parents(folder):
        slug = slugify(candidate)
        if len(slug) <= SLUG_LIMIT:
            if os.path.isdir(os.path.join(base, slug, "memory")):
                return os.path.join(base, slug, "memory")
        elif os.path.isdir(base):  # cut at 200 and hashed: never on disk as such, match by prefix
            for name in sorted(os.listdir(base)):
                if slug_matches(slug, name) and os.path.isdir(os.path.join(base, name, "memory")):
                    return os.path.join(base, name, "memory")
    return None


def _self_and_parents(folder: str) -> list[str]:
    chain = [folder]
    while (parent := os.path.dirname(chain[-1])) != chain[-1]:
        chain.append(parent)
    return chain
