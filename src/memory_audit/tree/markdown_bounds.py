"""A markdown-it-py parser that runs in linear time on any input, and records offsets.

Measured on markdown-it-py 4 (a paragraph of N characters):

- ``](`` followed by N ``[``, ``[[`` × N, ``![`` × N: every unclosed ``[``
  starts a label search that walks to the end of the paragraph, O(N²).
  :func:`label_end` finds the same label ends with a memo and an explicit
  stack of open brackets: each position is walked once per paragraph.
- destinations and titles are searched to the end of the paragraph from
  every ``](``; they are bounded to :data:`DESTINATION_LIMIT` and
  :data:`TITLE_LIMIT` characters (longer ones are not links).
- emphasis (``*a`` × N), autolinks and inline HTML (``<`` × N) are
  superlinear and say nothing about links or code: switched off, their text
  stays text.

Link and code-span tokens get ``meta[OFFSET] = (start, end)``, their place in
the inline text, from which a caller computes line numbers.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from markdown_it import MarkdownIt, rules_inline
from markdown_it.helpers import parseLinkDestination, parseLinkTitle
from markdown_it.rules_inline import StateInline

from memory_audit.tree.markdown_links import OFFSET

DESTINATION_LIMIT = 4096
TITLE_LIMIT = 4096
# "inline" too: the caller parses each block's inline text itself, within a budget.
OFF_RULES = ["emphasis", "autolink", "html_inline", "entity", "inline"]
_LabelKey = tuple[int, int, bool]
_MEMOS: weakref.WeakKeyDictionary[StateInline, dict[_LabelKey, int]] = weakref.WeakKeyDictionary()
InlineRule = Callable[[StateInline, bool], bool]


class _LiteralLinks(MarkdownIt):
    """Link targets exactly as written: not percent-encoded, no scheme refused."""

    def normalizeLink(self, url: str) -> str:
        return url

    def validateLink(self, url: str) -> bool:
        return True


def bounded_parser() -> MarkdownIt:
    parser = _LiteralLinks("commonmark")
    parser.disable(OFF_RULES)
    parser.helpers = SimpleNamespace(  # type: ignore[assignment] # duck-typed by markdown-it
        parseLinkLabel=label_end,
        parseLinkDestination=_bounded_destination,
        parseLinkTitle=_bounded_title,
    )
    parser.inline.ruler.at("link", _recording_offsets(rules_inline.link))
    parser.inline.ruler.at("backticks", _recording_offsets(rules_inline.backtick))
    return parser


def _recording_offsets(rule: InlineRule) -> InlineRule:
    def run(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent:
            for token in state.tokens[count:]:
                if token.type in ("link_open", "code_inline"):
                    token.meta[OFFSET] = (start, state.pos)
                    break
        return True

    return run


def _bounded_destination(text: str, pos: int, maximum: int) -> Any:
    return parseLinkDestination(text, pos, min(maximum, pos + DESTINATION_LIMIT))


def _bounded_title(text: str, start: int, maximum: int, previous: Any = None) -> Any:
    return parseLinkTitle(text, start, min(maximum, start + TITLE_LIMIT), previous)


def label_end(state: StateInline, start: int, disable_nested: bool = False) -> int:
    """Where the link label opened by the ``[`` at ``start`` closes, or -1.

    The same answer as markdown-it's ``parseLinkLabel``: the ``]`` that brings
    the bracket level back to zero, skipping tokens (code spans) on the way, and
    failing on a nested link when ``disable_nested``. Every bracket opened on
    the way is answered too, so no later search walks the same text again.
    """
    memo = _MEMOS.setdefault(state, {})
    key = (start, state.posMax, disable_nested)
    if key not in memo:
        saved = state.pos
        _walk_labels(state, start, disable_nested, memo)
        state.pos = saved
    return memo[key]


def _walk_labels(
    state: StateInline, start: int, disable_nested: bool, memo: dict[_LabelKey, int]
) -> None:
    limit = state.posMax
    open_labels = [start]
    pos = start + 1
    while pos < limit and open_labels:
        if state.src[pos] == "]":
            memo[(open_labels.pop(), limit, disable_nested)] = pos
            pos += 1
            continue
        state.pos = pos
        state.md.inline.skipToken(state)
        if state.src[pos] == "[":
            if state.pos == pos + 1:  # a plain "[": a nested label, answered once
                known = memo.get((pos, limit, disable_nested))
                if known is None:
                    open_labels.append(pos)
                elif known < 0:
                    break
                else:
                    state.pos = known + 1
            elif disable_nested:  # a link inside a link label: no label here
                break
        pos = state.pos
    for label in open_labels:
        memo[(label, limit, disable_nested)] = -1
