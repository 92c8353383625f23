"""Values a tree writes as a document's id in a link: no secret wherever else they stand.

Feishu and Lark call a document's id its *token* (``feishu.cn/docx/<token>``), so a note
that records a sync (``飞书同步：token=<id>``) reads like a credential to a rule. When the
same tree links that document, the value is the document's name in its URL: anyone who
may open the document sees it, and it opens nothing else. Google's document, sheet and
Drive ids are read the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# A document's link, its id the first group that matched. Hosts are a vendor's own, and an
# id is long (a short path segment is a word: ``/docx/new``).
DOCUMENT_URL = re.compile(
    r"(?:feishu\.cn|larksuite\.com|larkoffice\.com|feishu\.net)/"
    r"(?:docx|docs|wiki|sheets|base|file|mindnotes|slides|drive/folder)/([A-Za-z0-9]{16,})"
    r"|docs\.google\.com/(?:document|spreadsheets|presentation|forms)/(?:u/\d+/)?d/"
    r"([A-Za-z0-9_-]{20,})"
    r"|drive\.google\.com/(?:drive/(?:u/\d+/)?folders|file/d)/([A-Za-z0-9_-]{20,})"
)
# Only texts holding one of these are searched (most hold none).
HOSTS = ("feishu.", "larksuite.", "larkoffice.", "docs.google.", "drive.google.")


def document_ids(texts: Iterable[str]) -> frozenset[str]:
    """Every id the texts write in a document's link."""
    ids: set[str] = set()
    for text in texts:
        if not any(host in text for host in HOSTS):
            continue
        for link in DOCUMENT_URL.finditer(text):
            ids.add(next(group for group in link.groups() if group))
    return frozenset(ids)
