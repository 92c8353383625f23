"""The secrets a tree already holds, for the on-change alert: a changed file that repeats
one bare (``password: <value>`` in a.md, then the value alone in a command in b.md) alerts,
as the audit reports it (``repeated-credential``: b.md is one of the finding's places).

The values are the journal's (:class:`~memory_audit.journal.tree_values.TreeValues`: each
file's values kept by size and time, read again only when those differ or the file is
named as changed), so a change costs a listing of its tree and a look at each file's size
and time, not a scan of the tree. Which places are repeats is the repeat search's decision
(:func:`memory_audit.secrets.repeats.repeat_matches`), the one the audit and the journal
make; a value no file of the tree says is a secret any more is no longer searched for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memory_audit.journal.recorder import tree_files
from memory_audit.journal.tree_values import TreeValues
from memory_audit.secrets.repeats import RepeatSearch, repeat_matches
from memory_audit.secrets.scanner import Scanner, SecretMatch


@dataclass(frozen=True)
class KnownSecrets:
    """A tree's repeat search as it is now, and the match that first found each value."""

    search: RepeatSearch
    first: Mapping[str, SecretMatch]

    def repeats(self, text: str, matches: Sequence[SecretMatch]) -> list[SecretMatch]:
        """Where ``text`` (whose rule matches are ``matches``) repeats one of the values."""
        return repeat_matches(text, matches, self.search, self.first)

    def original(self, text: str, repeat: SecretMatch) -> tuple[SecretMatch, str]:
        """The match that first found a repeat's value, with the value: what decides
        whether the tree's repository publishes it (a suggestion then, no alert)."""
        value = text[repeat.start : repeat.end]
        return self.first[value], value


def known_secrets(
    values: TreeValues, root: Path, changed: Iterable[str], scanner: Scanner
) -> KnownSecrets | None:
    """The tree's secrets now (``changed``: its files to read again whatever their size and
    time), or None when it holds none to search for."""
    listing = tree_files(root)
    search = values.search(root, listing.with_values, listing.names, scanner, changed)
    if not search:
        return None
    return KnownSecrets(search, values.first_matches(root, search.values))
