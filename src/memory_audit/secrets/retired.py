"""Values a note itself records as no longer valid: ``old password: ...``, ``... (rotated
out)``, ``... — revoked in May``, ``旧密码 ...``.

Such a value is a suggestion, not a problem: the note says it opens nothing now, and only
its owner can tell whether that is still true (a value written down as rotated is the one
a user would least expect to work). The words are read on the value's own line, right
before it (the marker, then at most three words naming the credential) or right after it
(a few words, then the marker), so that neither the new value of ``old password X, new
password Y`` nor ``X must be revoked`` (still live: it is still to do) nor ``X (updated — old
one was expired)`` (another value's record) counts. A date after
``rotated`` alone says when the value was set, not that it is gone, so ``rotated`` needs
``out``, ``away`` or a past tense (``was rotated``, ``has been rotated``).

Read with string operations on the few dozen characters around each value, not with
regular expressions: a case-insensitive pattern of these words costs more to compile than
all the values of a tree cost to check. A banner opening the note is read too (its first
line after the frontmatter, as a quote, a heading or in bold): one that tags the note as
kept for history and names its system retired (``> [LEGACY] The old shop site was retired
in 2026/04``), and names nothing live, retires every value of the note. Its few patterns
run once a note, for a value no line marks.
"""

from __future__ import annotations

import re

# How far around a value the markers are looked for, on its line.
REACH = 60
# How far after the value its marker may stand (``` `X` (rotated out)``, ``X — revoked``).
AFTER_REACH = 30
# Words naming the credential between a marker before it and the value (``old DB password``).
MOST_WORDS_BETWEEN = 3

# A word of these before the value makes it the old one: ``old password: X``.
BEFORE_WORDS = frozenset(
    "old previous prior former obsolete deprecated dead disabled revoked expired deactivated"
    " invalidated retired decommissioned antigua antiguo anterior vieja viejo alte altes alten"
    " frühere früheres früheren ancien ancienne".split()
)
# ... and these in Chinese, Japanese and Korean, alone or written against the credential's
# word (``旧密码``; not ``旧金山``, a place).
BEFORE_PREFIXES = ("以前的", "以前の", "旧的", "旧", "舊", "이전")
CJK_CREDENTIAL_WORDS = ("密码", "密碼", "密钥", "密鑰", "令牌", "口令", "パスワード", "비밀번호")
# How many characters may stand between such a marker and the credential's word (``旧数据库密码``).
CJK_BETWEEN = 4
# A phrase of these after the value (``X (rotated out)``, ``X is no longer valid``).
AFTER_PHRASES = (
    "rotated out",
    "rotated away",
    "revoked",
    "expired",
    "deactivated",
    "invalidated",
    "retired",
    "decommissioned",
    "no longer valid",
    "no longer works",
    "no longer work",
    "no longer working",
    "no longer in use",
    "no longer used",
    "no longer active",
    "no longer accepted",
    "was rotated",
    "were rotated",
    "has been rotated",
    "have been rotated",
    "got rotated",
    "is now rotated",
    "was changed",
    "has been changed",
    "was replaced",
    "has been replaced",
    "was reset",
    "has been reset",
    "revocada",
    "revocado",
    "caducada",
    "caducado",
    "ya no sirve",
    "ya no funciona",
    "revogada",
    "revogado",
    "expirada",
    "expirado",
    "não funciona mais",
    "widerrufen",
    "abgelaufen",
    "gesperrt",
    "nicht mehr gültig",
    "révoqué",
    "révoquée",
    "expiré",
    "expirée",
    "n'est plus valide",
    "已轮换",
    "已輪換",
    "已作废",
    "已作廢",
    "已失效",
    "已撤销",
    "已撤銷",
    "已吊销",
    "已废弃",
    "已廢棄",
    "已停用",
    "已更换",
    "已过期",
    "失効",
    "無効化",
    "폐기됨",
    "만료됨",
)
# Words that say a thing was dropped, not that its key was revoked, when what follows names
# what it was dropped for (``ngrok authtoken: X（已废弃，改用 cloudflared）``): the key still
# opens the account
DROPPED_PHRASES = frozenset({"已废弃", "已廢棄", "已停用"})
SWITCHED_TO = ("改用", "换用", "換用")  # "use ... instead" (改为, "changed to", is a rotation's)
# What the switch names, read this far: a credential's word there makes it a new key
DROPPED_NAME_REACH = 12
NEW_CREDENTIAL = ("key", "token", "secret", "password", "密钥", "密鑰", "令牌", "密码", "密碼")
# A banner opening a note: it tags the note as kept for history (``[LEGACY]``, archived,
# for reference only), names its system retired, as whole words (not "unretired"), and
# names nothing live (not "v1 retired, v2 live"; not "how to shut down the cluster").
BANNER_STARTS = (">", "#", "**", "⚠", "[")
BANNER_TAG = re.compile(
    r"(?i:\b(?:legacy|archived?|historical|history only|reference only|obsolete)\b)"
    r"|僅供參考|仅供参考|歷史|历史|アーカイブ"
)
BANNER_RETIRED = re.compile(
    r"(?i:\b(?:retired|decommissioned|shut down|taken down|no longer (?:in use|exists|runs))\b)"
    r"|退役|已下线|已下線|已停用|已废弃|已廢棄|廃止"
)
BANNER_LIVE = re.compile(
    r"(?i:\b(?:live|active|current|still|replaced|how to)\b)|在用|仍在|现役|現役"
)
# How much of a note is read for its banner: a frontmatter block and the first lines.
BANNER_REACH = 4000
# Words between the marker and the value that make the value the one in use (``old
# password X, new password Y``: Y; ``rotated to Y``).
LIVE_WORDS = frozenset("new now current currently latest active live to into".split())
ARROWS = ("->", "=>", "→")
# An interface a marker may call old, ending the words before a value: ``(Deprecated API):``
# names the API retired, not the key that calls it (``old API key`` ends in ``key``)
INTERFACE_WORDS = frozenset("api apis endpoint endpoints protocol sdk version interface".split())
# The last words before a marker after the value that make it still to happen (``X must be
# revoked``, ``X if expired``, ``X not revoked``).
STILL_TO_DO = frozenset(
    "to should must will shall need needs please if when unless not never once until and or"
    " be get".split()
)
# Between the value and its marker, a first word calling the value the new one (``X (updated
# — old one was expired)``), or a word naming another, older value that a verb then says was
# retired (``X (the previous token was revoked)``): the value replaced it and is the one in
# use. ``X (old one — revoked)``, ``X (now revoked)``: no verb of another's, the value's own.
NEW_VALUE_WORDS = frozenset("new updated current latest replacement".split())
OLDER_VALUE_WORDS = frozenset("old previous prior former earlier original".split())
ANOTHER_VERBS = frozenset("was were has have had got is".split())
# What may stand between a label and its value: ``old password: `X` ``, ``old password is X``.
LABEL_ENDS = frozenset(":=：*_\"'` \t")
LABEL_VERBS = frozenset(("is", "was", "were"))
WORD_EDGES = "\"'`*_()[]{}<>,.;:!?—–-|"


def retired_marker(text: str, start: int, end: int) -> str | None:
    """The word in ``text`` that records the value at ``start..end`` as no longer valid
    (``revoked``, ``old``), or None. Reads the value's line, then the note's banner."""
    marker = line_marker(text, start, end)
    if marker is not None:
        return marker
    banner = retired_banner(text)
    return banner[1] if banner is not None else None


def line_marker(text: str, start: int, end: int) -> str | None:
    """The word on the value's own line that records it as no longer valid, or None."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end < 0:
        line_end = len(text)
    before = _marker_before(text[max(line_start, start - REACH) : start])
    if before is not None:
        return before
    return _marker_after(text[end : min(line_end, end + REACH)])


def retired_banner(text: str) -> tuple[int, str] | None:
    """The line (1-based) and word of a banner opening the note (its first line after the
    frontmatter, set apart as a quote, a heading or in bold) that records the system the
    whole note is about as retired: ``> [LEGACY] The old shop site was retired in 2026/04;
    for history only``. A value the note keeps for that system opens nothing now, as a
    value marked so on its own line does; a banner that only says legacy or deprecated
    does not say that."""
    found = _first_body_line(text)
    if found is None or not found[1].startswith(BANNER_STARTS):
        return None
    number, first = found
    if BANNER_TAG.search(first) is None or BANNER_LIVE.search(first) is not None:
        return None
    retired = BANNER_RETIRED.search(first)
    return (number, retired.group()) if retired is not None else None


def _first_body_line(text: str) -> tuple[int, str] | None:
    """The first line that is not blank, after a leading frontmatter block, and its number."""
    lines = text[:BANNER_REACH].splitlines()
    body = 0
    if lines and lines[0].strip() == "---":
        closing = (n for n, line in enumerate(lines[1:], start=1) if line.strip() == "---")
        body = next(closing, len(lines) - 1) + 1
    return next(
        ((n + 1, line.strip()) for n, line in enumerate(lines) if n >= body and line.strip()), None
    )


def _marker_before(before: str) -> str | None:
    """``old DB password: ``: a marker word, at most three words, a label's end."""
    label = before.rstrip("".join(LABEL_ENDS))
    words = label.split()
    if words and words[-1].lower() in LABEL_VERBS and len(label) < len(before):
        words = words[:-1]  # ``old password is X``
    for back in range(1, min(len(words), MOST_WORDS_BETWEEN + 1) + 1):
        word = words[-back]
        between = words[len(words) - back + 1 :]
        if not _names_this_value(between):
            return None
        bare = word.strip(WORD_EDGES)
        if bare.lower() in BEFORE_WORDS and bare == word.lstrip("(*_`\"'"):
            return bare
        if bare in BEFORE_PREFIXES:
            return bare  # ``이전 비밀번호: X``
        glued = _glued_marker(word) if back == 1 else None
        if glued is not None:
            return glued
    return None


def _glued_marker(word: str) -> str | None:
    """``旧密码``, ``以前的数据库密码``: a marker written against the credential's word."""
    for prefix in BEFORE_PREFIXES:
        if word.startswith(prefix):
            rest = word[len(prefix) :]
            if any(0 <= rest.find(w) <= CJK_BETWEEN for w in CJK_CREDENTIAL_WORDS):
                return prefix
    return None


def _names_this_value(between: list[str]) -> bool:
    """Whether the words between a marker and the value name the value itself: not the
    one in use (``old password X, new password Y``), nor another thing's (``old server's
    password``, ``key for the protocol (Deprecated API): X``: the interface is old, its
    key in use), nor past a clause's end."""
    if between and between[-1].strip(WORD_EDGES).lower() in INTERFACE_WORDS:
        return False
    for word in between:
        if word.lower().strip(WORD_EDGES) in LIVE_WORDS or any(a in word for a in ARROWS):
            return False
        if word.endswith(("'s", "’s")) or word[-1:] in ",;.":
            return False
    return True


def _marker_after(after: str) -> str | None:
    """``` (rotated out)``, `` — revoked``: a few words with no digit, then the marker; not
    when those words make it another value's (``(updated — old one was expired)``)."""
    lowered = " ".join(after.lower().split())
    best: tuple[int, str] | None = None
    for phrase in AFTER_PHRASES:
        at = lowered.find(phrase)
        while at >= 0 and not (
            _standalone(lowered, at, at + len(phrase))
            and not _dropped_for_another(lowered, at, phrase)
        ):
            at = lowered.find(phrase, at + 1)
        if at >= 0 and (best is None or at < best[0]):
            best = (at, phrase)
    if best is None or best[0] > AFTER_REACH:
        return None
    at, phrase = best
    gap = lowered[:at]
    if any(c.isdigit() for c in gap) or ";" in gap or gap.count("|") > 1:
        return None
    if "," in gap.strip(" ,"):
        return None  # past another item: ``X, token Y revoked``
    if _another_values_record(gap):
        return None
    last = gap.replace("(", " ").split()[-2:]
    if any(word.strip(WORD_EDGES) in STILL_TO_DO for word in last):
        return None
    return phrase


def _another_values_record(gap: str) -> bool:
    """Whether the words between the value and its marker make the marker another value's:
    ``X (updated — old one was expired)``, ``X (new — the previous token was revoked)``."""
    words = [word.strip(WORD_EDGES) for word in gap.replace("(", " ").split()]
    words = [word for word in words if word]
    if words and words[0] in NEW_VALUE_WORDS:
        return True
    older = next((n for n, word in enumerate(words) if word in OLDER_VALUE_WORDS), None)
    return older is not None and any(word in ANOTHER_VERBS for word in words[older + 1 :])


def _dropped_for_another(lowered: str, at: int, phrase: str) -> bool:
    """``X（已废弃，改用 cloudflared）``: the tool dropped for another one, its key never
    revoked; not ``（已停用，改用新 key）``, a key replaced by a new one."""
    if phrase not in DROPPED_PHRASES:
        return False
    rest = lowered[at + len(phrase) :].lstrip(" ,，、;；")
    switch = next((word for word in SWITCHED_TO if rest.startswith(word)), None)
    if switch is None:
        return False
    named = rest[len(switch) :].lstrip()[:DROPPED_NAME_REACH]
    return not named.startswith(("新", "`", "new")) and not any(w in named for w in NEW_CREDENTIAL)


def _standalone(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is not part of a longer word (``unrevoked``); CJK
    phrases stand against their neighbours."""
    if not text[start].isascii():
        return True
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before == "-") and not (after.isalnum() or after == "-")
