"""Masking a value in what the journal already keeps, once the tree says it is a secret.

b.md is recorded holding a value bare; later a.md says the value is a password. b.md's
kept versions held it before anything in the tree said it was a secret. When a tree's
repeat search gains a value, every version the journal keeps of that tree, content and
label, is masked again where it repeats one; a blob no version needs any more is
deleted, so the value is in no stored file.
"""

from __future__ import annotations

from memory_audit.journal.blobs import BlobStore, CorruptBlob
from memory_audit.journal.content import mask_repeats, masked_repeats
from memory_audit.journal.index import JournalIndex
from memory_audit.secrets.repeats import RepeatSearch


def mask_history(index: JournalIndex, blobs: BlobStore, root: str, repeats: RepeatSearch) -> int:
    """Mask ``repeats``' values in the tree's kept versions; how many blobs changed."""
    versions = index.history(root)
    changed = sum(
        _mask_blob(index, blobs, root, name, repeats)
        for name in sorted({v.blob for v in versions if v.blob is not None})
    )
    labels = {v.actor.label for v in versions if v.actor.label}
    renamed = {label: masked_repeats(label, repeats) for label in labels}
    index.relabel({old: new for old, new in renamed.items() if new != old})
    return changed


def _mask_blob(
    index: JournalIndex, blobs: BlobStore, root: str, name: str, repeats: RepeatSearch
) -> int:
    try:
        data = blobs.get(name)
    except (CorruptBlob, OSError):
        return 0  # damaged or missing: the journal's repair forgets it, nothing to mask
    kept = mask_repeats(data, repeats)
    if not kept.secrets:
        return 0
    index.repoint(root, name, blobs.put(kept.data), kept.secrets)
    if name not in index.referenced_blobs():  # another tree may keep the same content
        blobs.delete(name)
    return 1
