"""Values a note itself records as no longer valid: ``old password: ...``, ``... (rotated
out)``, ``... — revoked in May``, ``旧密码 ...``.

Such a value is a suggestion, not a problem: the note says it opens nothing now, and only
its owner can tell whether that is still true (a value written down as rotated is the one
a user would least expect to work). The words are read on the value's own line, right
before it (the marker, then at most three words naming the credential) or right after it
(a few words, then the marker), so that neither the new value of ``old password X, new
password Y`` nor ``X must be revoked`` (still live: it is still to do) counts. A date after
``rotated`` alone says when the value was set, not that it is gone, so ``rotated`` needs
``out``, ``away`` or a past tense (``was rotated``, ``has been rotated``).
"""

from __future__ import annotations

import re

# How far around a value the markers are looked for, on its line.
REACH = 60

_RETIRED_WORDS = (
    r"revoked|expired|deactivated|invalidated|retired|decommissioned"
    # Chinese, Japanese, Korean, Spanish, Portuguese, German, French
    r"|已(?:轮换|輪換|作废|作廢|失效|撤销|撤銷|吊销|废弃|停用|更换|过期)|失効(?:済み)?|無効化(?:済み)?"
    r"|폐기됨|만료됨|revocad[ao]s?|caducad[ao]s?|revogad[ao]s?|expirad[ao]s?"
    r"|widerrufen|abgelaufen|gesperrt|révoquée?s?|expirée?s?"
)

# Before the value: the marker, at most three words (naming the credential), an optional
# label's separator and quote. No punctuation between: ``old host, password X`` is not it.
_BEFORE = re.compile(
    r"(?:^|[^\w])(?P<marker>old|previous|prior|former|obsolete|deprecated|dead|disabled|"
    + _RETIRED_WORDS
    + r"|旧(?:的)?|以前的|舊|以前の|이전|antigu[ao]|anterior|viej[ao]|alte[sn]?|frühere[sn]?"
    r"|ancien(?:ne)?)"
    r"(?P<gap>(?:[ \t]+[\w'-]+){0,3}|(?:[^\x00-\x7f\s]{0,8}))"
    r"[ \t]*(?:[:=：][ \t]*|[ \t]+(?:is|was|were|:)[ \t]+)?[*_\"'`]*[ \t]*$",
    re.IGNORECASE,
)

# After the value: a few words without a digit or a list's separator, then the marker.
_AFTER = re.compile(
    r"^(?P<gap>[^\d;\n]{0,30}?)(?<![\w-])(?P<marker>rotated[ \t]+(?:out|away)|"
    + _RETIRED_WORDS
    + r"|no[ \t]+longer[ \t]+(?:valid|works?|working|in[ \t]+use|used|active|accepted)"
    r"|(?:was|were|has[ \t]+been|have[ \t]+been|got|is[ \t]+now|since)[ \t]+"
    r"(?:rotated|changed|replaced|reset)"
    r"|ya[ \t]+no[ \t]+(?:sirve|funciona|es[ \t]+válid[ao])|não[ \t]+funciona[ \t]+mais"
    r"|nicht[ \t]+mehr[ \t]+gültig|n'est[ \t]+plus[ \t]+valide)(?![\w-])",
    re.IGNORECASE,
)

# Words that make the value the one in use: ``rotated to X``, ``new password X``, or a
# marker that is still to happen (``must be revoked``, ``if expired``).
_LIVE_BEFORE = re.compile(
    r"(?i:\b(?:new|now|current|currently|latest|active|live|to|into)\b|->|=>|→)"
)
_STILL_TO_DO = re.compile(
    r"(?i:\b(?:to|should|must|will|shall|needs?|has[ \t]+to|have[ \t]+to|please|if|when|unless|"
    r"not|never|once|until|and|or|be|get)[ \t]*(?:be[ \t]+|get[ \t]+)?$)"
)


def retired_marker(text: str, start: int, end: int) -> str | None:
    """The word in ``text`` that records the value at ``start..end`` as no longer valid
    (``revoked``, ``old``), or None. Reads the value's line only."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end < 0:
        line_end = len(text)
    before = text[max(line_start, start - REACH) : start]
    found = _BEFORE.search(before)
    if found is not None and _names_this_value(found.group("gap")):
        return found.group("marker")
    after = text[end : min(line_end, end + REACH)]
    found = _AFTER.search(after)
    if found is not None and _follows_this_value(found.group("gap")):
        return found.group("marker")
    return None


def _names_this_value(gap: str) -> bool:
    """Whether the words between a marker and the value name the value itself: not the
    one in use (``old password X, new password Y``), nor another thing's (``old server's
    password``)."""
    return not _LIVE_BEFORE.search(gap) and not _possessive(gap)


def _follows_this_value(gap: str) -> bool:
    """Whether the words between the value and a marker make the marker the value's: not
    still to happen (``must be revoked``), nor past another value or table cell."""
    return not _STILL_TO_DO.search(gap) and gap.count("|") <= 1 and "," not in gap.strip(" ,")


def _possessive(gap: str) -> bool:
    """``old server's password``: the marker is the server's, not the password's."""
    return "'s " in f"{gap} " or "’s " in f"{gap} "
