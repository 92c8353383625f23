"""Values a tree writes as a document's id in a link: no secret wherever else they stand.

Feishu and Lark call a document's id its *token* (``feishu.cn/docx/<token>``), so a note
that records a sync (``飞书同步：token=<id>``) reads like a credential to a rule. When the
same tree links that document, the value is the document's name in its URL: anyone who
may open the document sees it, and it opens nothing else. Google's document, sheet and
Drive ids are read the same way, and so is a Figma file's key (``figma.com/design/<key>/``),
which a design note writes again under a label ("File key").

The link is one of the value's places: the repeat search (:mod:`memory_audit.secrets.repeats`)
finds every place a tree writes a found value, so only the text right before each place is
read, never the tree's whole text again. A value its own file links is no match of the
scanner at all (:func:`linked_ids`), so the change alert, which reads the changed file
alone, agrees with the audit there.
"""

from __future__ import annotations

import functools
import re

# A document's link up to its id. Hosts are a vendor's own, whole (``notfigma.com`` is not
# Figma's), in lower case as links are written (and as :data:`HOST_WORDS` looks for them).
_LINK = (
    r"(?:(?<![A-Za-z0-9-])"
    r"(?:(?:feishu\.cn|feishu\.net|larksuite\.com|larkoffice\.com)/"
    r"(?:docx|docs|wiki|sheets|base|file|mindnotes|slides|drive/folder)"
    r"|docs\.google\.com/(?:document|spreadsheets|presentation|forms)/(?:u/\d+/)?d"
    r"|drive\.google\.com/(?:drive/(?:u/\d+/)?folders|file/d)"
    r"|figma\.com/(?:file|design|proto|board|slides|deck))/)"
)
# ... ending where the id starts (read before a place), and with the id it names
DOCUMENT_LINK = re.compile(_LINK + "$")
LINKED_ID = re.compile(_LINK + r"([A-Za-z0-9_-]{16,})")
# The hosts' words, as links are written (lower case): a text without any links no document
HOST_WORDS = ("feishu", "lark", "google", "figma")
# How far before a place its link may start (``https://<tenant>.feishu.cn/docx/``)
LINK_REACH = 64


def in_a_document_link(text: str, start: int) -> bool:
    """Whether the value at ``start`` in ``text`` is the id of a document its link names."""
    return DOCUMENT_LINK.search(text, max(0, start - LINK_REACH), start) is not None


@functools.lru_cache(maxsize=16)
def linked_ids(text: str) -> frozenset[str]:
    """The ids of the documents ``text`` links, once a text: a file's values all ask."""
    if not any(word in text for word in HOST_WORDS):
        return frozenset()
    return frozenset(LINKED_ID.findall(text))
