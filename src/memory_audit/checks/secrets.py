"""Possible secrets: credentials pasted into memories, the index, recaps, or other files.

The tree's files that are no memories (a raw chat log, a saved JSON config, a hidden store
such as ``.dreams/``; never ``.git/``) are read for secrets alone, as is a memory too large
to read whole (reported as such; a month's chat log kept as one note).

Every file's text (frontmatter values and body) is scanned with the rules of
``config/secret-patterns.md`` (or ``patterns:``, a file in the same format):
over 30 token families with documented formats (AWS, GitHub, GitLab,
Anthropic, OpenAI, Slack, Stripe, Google, npm, PyPI, Hugging Face, ...),
private keys, JWTs, database URLs with a password, generic ``password=``
assignments gated by entropy, and credentials as people write them, in
English, Spanish, Portuguese, German, French, Chinese, Japanese and Korean: a
``login admin/<password>`` pair (``user / pass``, ``user:pass@host``, in
backticks or a table), ``the wifi password is ...``, ``DB_PASS=...``,
``token for <provider> (write): ...``, ``API key: <uuid>``, a vendor's default
password after ``admin /``, an SNMP ``community`` string, an app password, a
PIN, connection strings, ``.netrc`` and ``Authorization: Basic`` lines
(misspelt ``passwrod`` too). A value is judged by its shape and by its line:
paths, hash and algorithm names, identifiers, public keys and values marked
``e.g.`` or ``for example`` are not credentials. With
``gitleaks_config:`` the rules of a ``.gitleaks.toml`` apply as well (keywords,
entropy and allowlists honoured). A match is shown redacted
(``<head>...<tail>``, at most 40 characters) and identified by a salted
fingerprint; matches recorded as false positives are not reported again.

Failing::

    notes.md:  the CI token is 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

    notes.md:1 — possible GitHub personal access token: matched "ghp_R8mQ...aE7u"
    (pattern: github-pat). Suggest: review and redact, or mark as false positive.

File and folder names are scanned too: a name is shown in every listing, report
and log, so a secret in one is a finding of its own (``secret-in-name``, shown
masked: rename it)::

    ghp_R8mQ...aE7u.md — the name holds a possible GitHub personal access token.

A line that names such a file or folder (``[Deploy](ghp_....md)``, ``[[ghp_...]]``, a path
through the folder) goes with the name's finding, to update on renaming: redacting the
link's text would break the link and leave the secret in the name.

A value found once is found everywhere: every other place in the tree that holds the
exact text (six characters or more) of a secret found is one of its places too. One value
is one finding, however many places hold it and whatever rules found it (a key after
``API key:`` and again after ``Bearer``): at the first place a rule matched (by path,
then line), naming the first few others and counting the rest; JSON lists every place
(``fix.places``, the other files in ``related``), SARIF as ``relatedLocations``, and one
fix redacts them all, as one false positive clears them all (``review`` records the
value's fingerprint, ``fix.value``; a mark saved under one rule's fingerprint, as marks
were before, clears the value too)::

    hosts.md:4 — possible password written in prose: matched "Ha...!" (pattern:
    password-phrase), also at notes.md:1, deploy.md:9, vpn.md:2 and 3 more places.

A value in a memory file its repository tracks (memory kept inside the project, committed)
is in the repository's history too: redacting the file leaves it there, so the advice is to
change the value first (rotate the key, change the password), then redact.

A value the project's repository publishes itself is a suggestion, not a problem: a
seeded demo login printed in its README, a seed script's test account, a device's
documented default password. When the tree lies in a git work tree, or its located
project is one, a value that a file the repository tracks also holds, as a word of its
own, is reported at the first such file (outside every memory tree: a folder holding a
``MEMORY.md`` is another copy of memory). Only files that publish values on purpose
count: a project's README and guides, files under ``docs/``, examples, seeds, tests,
compose files, and other notes and code whose words near the value (a code comment on its
line or right above it) call it a default or a demo's: an automation script's hard-coded
login or an agent's note of an account (``google-account.md``) leaked there; a
configuration or data file (``remote.yaml``, ``key.properties``, ``.env``) and Claude
Code's own settings hold the values in use, and an agent's session transcripts
(``sessions/<id>.jsonl``) and memory notes (a ``memory/`` folder's) record what was said,
so a value found only there leaked there too and stays a problem::

    notes.md:4 — possible login and password pair: matched "Bl...x" (pattern: login-pair);
    the repository publishes this value in README.md. Suggest: if it opens a deployed system
    (a demo account on a live site too), change it there: README.md makes it public; if it
    opens nothing deployed (a local demo, a seed for tests), mark it as a false positive.

A note that places the value's system in production (``production``, ``prod``,
``produção``, ``生产``, ``本番`` ...) keeps it a problem: a demo login seeded into the
production project, or the production database's password a compose file repeats, is
live, and its publication one more place to change it for. Production named elsewhere in
the note does not reach a login whose own line labels it a test, seed or development
account's (``**admin test account:** ...``, ``Usuario de prueba: ...``): only that line and
the headings it sits under can place it in production (or a live system: ``live``,
``PRD``, 线上), as the repository's tests or seeds hand it to everyone. A demo login the
README hands out (the value's line names a demo, and the file publishing it is a README)
stays a suggestion even in production: its owner offers the demo on purpose::

    notes.md:6 — possible login and password pair: matched "Bl...x" (pattern: login-pair);
    README.md hands this demo login out. Suggest: if the demo account is meant to be
    public, mark it as a false positive; if it can do more than a demo should, change it on
    the live site (README.md makes it public).

A note that binds the value to another machine than the developer's keeps it a problem
too: its paragraph (the lines around it up to a blank line or a heading) gives a host's
address (after ``Host:``, ``@`` or ``://``: a LAN's ``192.168.7.21``, Tailscale's
``100.88.12.7``, a public one) or names a host of a service that hosts databases on the
internet (``<ref>.supabase.co``, ``...neon.tech``), and no local host (``localhost``,
``127.0.0.1``, ``*.local``, a compose service's ``@db:5432``); a public site's URL does
not count (the third-party APIs an app calls), nor does a test password by its own words:
:mod:`memory_audit.secrets.remote_host`::

    hosts.md:6 — possible login and password pair: matched "Bl...x" (pattern: login-pair);
    the repository publishes this value in docs/plan.md too, and the note binds it to
    192.168.7.21. Suggest: change it on 192.168.7.21 (docs/plan.md makes it public), then
    redact the copies here

Only a value a person chooses can be published that way: one a generic rule finds by
the words around it (a password after a label, in a login pair or a table: the value
kinds ``mixed``, ``strong``, ``symbol``, ``credential``, ``known``, ``any`` and ``digits``), and a
URL's password (a compose file's database default). A value whose format makes it a
secret stays a problem wherever else it is: a specific rule's match (a vendor token such
as ``ghp_...``, ``sk-ant-...``, ``xoxb-...``, an AWS secret key, a private key, a JWT), a
generic rule's ``token`` or ``key`` kind, and any value shaped like a generated key (hex
digits, a UUID, 16 characters or more mixing cases and digits, with no symbol but ``-``
and ``_``): a real token committed to the code is a leak, not a demo. The
repository's files are listed by git and read here, never given a value on a command
line; links, binaries and files over 1 MB are not read. The daemon's on-change alert
skips the published values that are suggestions here (suggestions never notify), and
alerts for those a note places in production or on another machine.

A value the note itself records as no longer valid is a suggestion too: ``old password:
...``, ``... (rotated out)``, ``... — revoked in May``, ``旧密码 ...`` (the words on the
value's own line, or a banner opening the note that tags it as history and names its
system retired, ``> [LEGACY] The old shop site was retired in 2026/04``:
:mod:`memory_audit.secrets.retired`). ``rotated to ...``, ``new password ...`` and ``...
must be revoked`` keep the value a problem::

    db.md:3 — possible password written in prose: matched "Wq...9x" (pattern:
    password-phrase); db.md:3 records it as no longer valid ("rotated out").

A password whose own words make it a test or demo account's (``demo1234``, ``Test1234!``)
is a suggestion too, and raises no alert (:mod:`memory_audit.secrets.test_passwords`); on
a note that places its system in production it stays a problem. So is a JSON Web Token
whose own ``exp`` claim has passed (an access token of an hour, pasted days before): it
opens nothing now; a refresh token pasted beside it is judged on its own. So is a password
a skill's own documentation gives as its default (a file under ``skills/<name>/``, the
word ``default`` or ``默认`` on the value's line or the two above it: the skill's local
page's ``默认密码：...``), which raises no alert either; a copy of it in the user's own
notes keeps it a problem (:mod:`memory_audit.secrets.skill_defaults`).

Passing: ``sk-...``, ``<your-key>``, ``${GITHUB_TOKEN}``, ``AKIAIOSFODNN7EXAMPLE``,
UUIDs, commit hashes, ``ssh-rsa AAAA...`` public keys, ``~/.ssh/id_ed25519_work``,
``token = HMAC-SHA256 of the id``, ``e.g. password: <example>``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from memory_audit.config.fields import INTERNAL
from memory_audit.model.dimension import Level
from memory_audit.model.finding import Finding, Skip, make_finding
from memory_audit.secrets.boundary import TreeSecrets, name_secrets, tree_secrets, tree_texts
from memory_audit.secrets.committed import committed_files
from memory_audit.secrets.document_ids import in_a_document_link
from memory_audit.secrets.fetched_pages import fetched_page_host, page_kind
from memory_audit.secrets.loading import RulesUnavailable, secret_scanner
from memory_audit.secrets.published import (
    chosen,
    handed_out_demo,
    labelled_test_account,
    live_place,
    published_secrets,
)
from memory_audit.secrets.remote_host import remote_host
from memory_audit.secrets.repeats import repeated_secrets
from memory_audit.secrets.retired import line_marker, retired_banner
from memory_audit.secrets.rules import Rule
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.secrets.skill_defaults import a_skill_default
from memory_audit.secrets.test_passwords import LOCAL_ONLY, local_only, test_password_reason
from memory_audit.secrets.values import jwt_expiry
from memory_audit.tree.snapshot import OTHER_TOTAL_BYTES, MemoryTree

ID = "secrets"
# Other places a finding names in its message; the fix and JSON list them all.
NAMED_PLACES = 3


@dataclass(frozen=True)
class Options:
    patterns: str | None = None  # a rules file in the format of config/secret-patterns.md
    gitleaks_config: str | None = None  # a .gitleaks.toml whose rules also apply
    # where the salt and the user's false positives live: the configured state.dir
    state_dir: str | None = field(default=None, metadata=INTERNAL)


def check(tree: MemoryTree, options: Options) -> Iterator[Finding | Skip]:
    try:
        scanner = secret_scanner(options)
    except RulesUnavailable as exc:
        yield Skip(ID, str(exc), whole=True)  # no rules, no scan: never a clean result
        return
    if tree.others_too_large:  # said, never a silent gap in the scan
        limit = tree.other_max_bytes // (1024 * 1024)
        yield Skip(
            ID,
            f"{tree.others_too_large} file(s) read for secrets alone (no memories, or memories"
            f" too large to read whole) were not scanned: over {limit} MB, or past"
            f" {OTHER_TOTAL_BYTES // (1024 * 1024)} MB of such files in all",
        )
    if tree.others_unreadable:
        yield Skip(ID, f"{tree.others_unreadable} file(s) that are no memories could not be read")
    names = name_secrets(tree, scanner)
    by_name = _name_references(tree, names, _places_by_value(tree, scanner))
    yield from _in_texts(tree, scanner, by_name.texts)
    for path, matches in names.items():
        for match, _ in matches:
            yield name_finding(path, match, by_name.references.get(path, []))


@dataclass(frozen=True)
class NameReferences:
    """The places of secret values less those that only name a file by a secret-holding
    name (a link to ``ghp_<token>.md``): redacting the link's text would break the link
    and leave the name, so those lines go with the name's finding, to update on renaming."""

    texts: dict[str, list[Place]]
    references: dict[str, list[Place]]  # named path -> the lines naming it


def _name_references(
    tree: MemoryTree, names: TreeSecrets, by_value: dict[str, list[Place]]
) -> NameReferences:
    stems = {
        match.value_fingerprint: (path, path.rsplit("/", 1)[-1].removesuffix(".md"))
        for path, matches in names.items()
        for match, _ in matches
    }
    if not stems:
        return NameReferences(by_value, {})
    lines = {path: text.split("\n") for path, text in tree_texts(tree)}
    texts: dict[str, list[Place]] = {}
    references: dict[str, list[Place]] = {}
    for value, places in by_value.items():
        named, stem = stems.get(value, ("", ""))
        for place in places:
            held = lines.get(place.path, [])
            line = held[place.match.line - 1] if stem and place.match.line <= len(held) else ""
            if stem and _names(line, stem):
                references.setdefault(named, []).append(place)
            else:
                texts.setdefault(value, []).append(place)
    return NameReferences(texts, references)


def _names(line: str, stem: str) -> bool:
    """Whether ``line`` names a file or folder called ``stem`` (as a link, a wikilink or a
    path), not just holds its text: a prose copy of the value is a leak of its own."""
    return any(form in line for form in (f"{stem}.md", f"[[{stem}", f"{stem}/"))


def _in_texts(
    tree: MemoryTree, scanner: Scanner, by_value: dict[str, list[Place]]
) -> Iterator[Finding]:
    published = published_secrets(tree, scanner)  # fingerprint -> a tracked file holding it
    texts = dict(tree_texts(tree))
    rules = scanner.rules_by_name
    problems: list[tuple[Finding, list[Place]]] = []
    for places in by_value.values():
        tracked = next(filter(None, (published.get(p.match.fingerprint) for p in places)), None)
        # read for published values only: it splits and searches the note's whole text
        if tracked is not None and any(
            handed_out_demo(tracked, texts.get(p.path, ""), p.match.line) for p in places
        ):
            finding = as_handed_out_demo(secret_finding(places), tracked)
        elif tracked is not None and any(_live_place(p, texts) for p in places):
            finding = as_published_live(secret_finding(places), tracked)
        elif (
            tracked is not None
            and (host := _remote_host_at(places, texts)) is not None
            # a test password by its own words is a suggestion wherever it is published or
            # not (only production keeps it a problem), as the daemon reads it too
            and _test_password_at(places, texts) is None
        ):
            finding = as_published_on_host(secret_finding(places), tracked, host)
        elif tracked is not None and any(
            labelled_test_account(texts.get(p.path, ""), p.match.line) for p in places
        ):
            finding = as_published_test_account(secret_finding(places), tracked)
        else:
            finding = as_published(secret_finding(places), tracked)
        if tracked is None:
            finding = _unpublished(finding, places, texts, rules)
        if tracked is None and not finding.is_suggestion:
            problems.append((finding, places))
        else:
            yield finding
    # git is asked only when a value is a problem (a published one has its own advice): most
    # trees have none
    committed = committed_files(tree.root) if problems else frozenset()
    for finding, places in problems:
        path = next((p.path for p in places if p.path in committed), None)
        yield as_committed(finding, path, len(places))


def _unpublished(
    finding: Finding, places: list[Place], texts: dict[str, str], rules: Mapping[str, Rule]
) -> Finding:
    """A value no file of the repository publishes: a suggestion when the note records it
    as no longer valid, when it expired by its own claim, when its own words make it a test
    password, or when a skill's documentation gives it as the default; the first that
    holds says why."""
    finding = as_retired(finding, _retired_at(places, texts))
    if not finding.is_suggestion:
        finding = as_expired(finding, _expired(places, texts))
    if not finding.is_suggestion:
        finding = as_test_password(finding, _test_password_at(places, texts))
    if not finding.is_suggestion and _local_only_at(places, texts, rules):
        finding = as_test_password(finding, LOCAL_ONLY)
    if not finding.is_suggestion:
        finding = as_skill_default(finding, _skill_default_at(places, texts, rules))
    if not finding.is_suggestion:
        finding = as_fetched_page(finding, _fetched_page_at(places, texts, rules))
    return finding


def _fetched_page_at(
    places: list[Place], texts: dict[str, str], rules: Mapping[str, Rule]
) -> str | None:
    """The site whose page, as an agent's web fetch recorded it, holds the value at every
    place it is (one place elsewhere in the user's notes keeps it a problem), when the value
    is of a kind a site's pages hold (:func:`memory_audit.secrets.fetched_pages.page_kind`):
    the first place's site; None otherwise."""
    if not page_kind(rules.get(places[0].match.rule)):
        return None
    hosts = [fetched_page_host(texts.get(p.path, ""), p.match.start) for p in places]
    return hosts[0] if all(hosts) else None


def _live_place(place: Place, texts: dict[str, str]) -> bool:
    """Whether the note at ``place`` places the value's system in production
    (:func:`memory_audit.secrets.published.live_place`)."""
    return live_place(texts.get(place.path, ""), place.match.line)


def _remote_host_at(places: list[Place], texts: dict[str, str]) -> str | None:
    """The server another than the developer's machine that a note binds the value to, at
    the first place that names one (:mod:`memory_audit.secrets.remote_host`)."""
    return next(
        filter(None, (remote_host(texts.get(p.path, ""), p.match.line) for p in places)), None
    )


def _test_password_at(places: list[Place], texts: dict[str, str]) -> str | None:
    """Why the value is a test or demo account's password (its own words, ``demo1234``;
    its login's test domain), at every place it is, on no note that places its system in
    production: the first place's reason; None otherwise."""
    first = None
    for place in places:
        match = place.match
        text = texts.get(place.path, "")
        reason = test_password_reason(text, match.start, match.end, match.line)
        if reason is None:
            return None
        first = first or reason
    return first


def _local_only_at(places: list[Place], texts: dict[str, str], rules: Mapping[str, Rule]) -> bool:
    """Whether the value is a key or a token (no password a person chose: people use one
    on more systems than the local app it is written beside) used only with a server on the
    developer's own machine, at every place it is
    (:func:`memory_audit.secrets.test_passwords.local_only`)."""
    first = places[0].match
    rule = rules.get(first.rule)
    value = texts.get(places[0].path, "")[first.start : first.end].strip()
    spots = ((texts.get(p.path, ""), p.match.start, p.match.line) for p in places)
    return rule is not None and local_only(rule, value, spots)


def _skill_default_at(
    places: list[Place], texts: dict[str, str], rules: Mapping[str, Rule]
) -> str | None:
    """The skill whose documentation gives the value as its default, at every place it is
    (one place in the user's own notes keeps it a problem), when the value is a password a
    person chose (a key in an issuer's format is a key wherever it is); None otherwise."""
    first = places[0].match
    rule = rules.get(first.rule)
    value = texts.get(places[0].path, "")[first.start : first.end].strip()
    if rule is None or not chosen(rule, value):
        return None
    skills = {
        a_skill_default(p.path, texts.get(p.path, ""), p.match.start, p.match.line) for p in places
    }
    return skills.pop() if len(skills) == 1 and None not in skills else None


def _expired(places: list[Place], texts: dict[str, str]) -> float | None:
    """When a JSON Web Token expired by its own ``exp`` claim, if that is past (an access
    token of an hour, pasted days before): None for any other value, or one still valid."""
    place = places[0]
    value = texts.get(place.path, "")[place.match.start : place.match.end]
    expiry = jwt_expiry(value)
    return expiry if expiry is not None and expiry < time.time() else None


def _retired_at(places: list[Place], texts: dict[str, str]) -> tuple[str, str] | None:
    """Where words first record the value as no longer valid (a place's own line, else the
    banner opening a note that holds it), and the word."""
    for place in places:
        text = texts.get(place.path, "")
        marker = line_marker(text, place.match.start, place.match.end)
        if marker is not None:
            return place.shown, marker
    for place in places:
        banner = retired_banner(texts.get(place.path, ""))
        if banner is not None:
            return f"{place.path}:{banner[0]}", banner[1]
    return None


@dataclass(frozen=True)
class Place:
    """One place that holds a secret: where a rule matched it, or a repeat of its text."""

    path: str
    match: SecretMatch
    repeated: bool = False
    other: bool = False  # in a file that is no memory (a raw log, a hidden store)

    @property
    def order(self) -> tuple[bool, bool, str, int]:
        # the first place a rule matched, by path then line, a memory's before another
        # file's (a dreaming store's copy of a note's key is not where to look first); a
        # repeat only after them all
        return (self.repeated, self.other, self.path, self.match.line)

    @property
    def shown(self) -> str:
        return f"{self.path}:{self.match.line}"


def _places_by_value(tree: MemoryTree, scanner: Scanner) -> dict[str, list[Place]]:
    """Value fingerprint -> every place in the tree holding that value, in a stable order:
    one value is one finding, however often written and whatever rules found it (a key
    after ``API key:`` and again after ``Bearer``). A value marked as a false positive at
    any of its places, under the value's fingerprint or a rule's, is left out."""
    places: dict[str, list[Place]] = {}
    for path, matches in tree_secrets(tree, scanner).items():
        for match, _ in matches:
            other = path in tree.other_texts
            places.setdefault(match.value_fingerprint, []).append(Place(path, match, False, other))
    texts: dict[str, str] = {}
    named_documents: set[str] = set()  # values the tree links as a document's id
    for path, repeats in repeated_secrets(tree, scanner).items():
        for repeat in repeats:
            value = repeat.match.value_fingerprint
            other = path in tree.other_texts
            places.setdefault(value, []).append(Place(path, repeat.match, True, other))
            if not texts:
                texts = dict(tree_texts(tree))
            if in_a_document_link(texts[path], repeat.match.start):
                named_documents.add(value)
    return {
        value: _one_a_line(found)
        for value, found in sorted(places.items(), key=lambda item: min(p.order for p in item[1]))
        if value not in named_documents
        and not any(scanner.dismissed(place.match) for place in found)
    }


def _one_a_line(places: list[Place]) -> list[Place]:
    """The places in order, one a line: a value twice on a line is one place to look at."""
    lines: dict[tuple[str, int], Place] = {}
    for place in sorted(places, key=lambda place: place.order):
        lines.setdefault((place.path, place.match.line), place)
    return list(lines.values())


def _as_suggestion(finding: Finding, message: str, suggestion: str) -> Finding:
    """The finding as a suggestion, with what the audit knows of its value and the advice
    that follows from it (published, handed out, retired, a test account's)."""
    return replace(finding, level=Level.SUGGESTION.value, message=message, suggestion=suggestion)


def as_published(finding: Finding, tracked: str | None) -> Finding:
    """A value the project's repository also publishes (``tracked``, a file it tracks): a
    suggestion, since redacting the memory's copy alone changes nothing."""
    if tracked is None:
        return finding
    return _as_suggestion(
        finding,
        f"{finding.message}; the repository publishes this value in {tracked}",
        # A demo account can be live too (seeded into the production project): what decides
        # is whether the value opens a deployed system, not whether it is a demo's.
        f"if it opens a deployed system (a demo account on a live site too), change"
        f" it there: {tracked} makes it public; if it opens nothing deployed (a local demo, a"
        " seed for tests), mark it as a false positive",
    )


def as_committed(finding: Finding, path: str | None, count: int) -> Finding:
    """A value in a file the repository tracks (``path``, the first of its ``count`` places
    that is): its history keeps the value whatever the redaction does, so the advice is to
    change it first."""
    if path is None:
        return finding
    redact = "redact it" if count == 1 else f"redact all {count} places in one fix"
    return replace(
        finding,
        suggestion=f"change it first (rotate the key, change the password): {path}"
        f" is committed, and the repository's history keeps the value; then {redact}; or mark"
        " it as a false positive",
    )


def as_handed_out_demo(finding: Finding, tracked: str) -> Finding:
    """A demo login the project's README hands out to its users: a suggestion, since its
    owner publishes it on purpose; only an account that can do more than a demo should
    needs changing."""
    return _as_suggestion(
        finding,
        f"{finding.message}; {tracked} hands this demo login out",
        "if the demo account is meant to be public, mark it as a false positive;"
        f" if it can do more than a demo should, change it on the live site ({tracked}"
        " makes it public)",
    )


def as_published_test_account(finding: Finding, tracked: str) -> Finding:
    """A published value whose line labels it a test or seed account's login: a suggestion
    even in a note that speaks of production elsewhere, as the repository's tests or seeds
    hand it to everyone; only its owner knows whether a deployed system has the account."""
    return _as_suggestion(
        finding,
        f"{finding.message}; the repository publishes this test account's login in {tracked}",
        "if the test account exists only on local or test systems, mark it as a false"
        f" positive; if a deployed system has it too, change it there ({tracked} makes it"
        " public)",
    )


def as_published_live(finding: Finding, tracked: str) -> Finding:
    """A published value in a note that places its system in production: still a problem,
    and the repository's copy is one more place to change it for."""
    return replace(
        finding,
        message=f"{finding.message}; the repository publishes this value in {tracked} too,"
        " and the note places its system in production",
        suggestion=f"change it on the production system ({tracked} makes it public), then"
        " redact the copies here",
    )


def as_published_on_host(finding: Finding, tracked: str, host: str) -> Finding:
    """A published value a note binds to a server that is not the developer's machine (a
    LAN's, the internet's, a hosted database's): still a problem, since it opens a system
    others reach, and the repository's copy is one more place it leaked to."""
    return replace(
        finding,
        message=f"{finding.message}; the repository publishes this value in {tracked} too,"
        f" and the note binds it to {host}",
        suggestion=f"change it on {host} ({tracked} makes it public), then redact the copies here",
    )


def as_test_password(finding: Finding, reason: str | None) -> Finding:
    """A password whose own words make it a test or demo account's (``demo1234``,
    ``Test1234!``: the held-out judges called such values of local fixtures not worth
    acting on wherever they met them), or whose login is at a reserved or test-only domain
    (``admin@shop.test``), a suggestion, its ``reason`` said; only its owner knows whether a
    deployed system shares it. A note that places its system in production keeps it a
    problem."""
    if reason is None:
        return finding
    return _as_suggestion(
        finding,
        f"{finding.message}; {reason}",
        "if it opens only a local or test system, mark it as a false positive; if a"
        " deployed system uses it too, change it there, then redact",
    )


def as_skill_default(finding: Finding, skill: str | None) -> Finding:
    """A password a skill's own documentation gives as its default (the held-out judges
    called such pages' defaults no one's secret): a suggestion, as only its owner knows
    whether the installed skill still uses it."""
    if skill is None:
        return finding
    return _as_suggestion(
        finding,
        f"{finding.message}; the documentation of the skill {skill} gives it as its default",
        f"if your copy of {skill} still uses its default, change it there; if not, mark it"
        " as a false positive",
    )


def as_fetched_page(finding: Finding, host: str | None) -> Finding:
    """A value in the text of a page an agent fetched from ``host``: the site's (a browser
    key its pages embed, a map tile's token), a suggestion, as only the user knows whether
    the site is theirs."""
    if host is None:
        return finding
    return _as_suggestion(
        finding,
        f"{finding.message}; it is in the text of a page fetched from {host} (a web fetch's"
        " record)",
        f"if {host} is not your site, its key is the site's: mark it as a false positive; if"
        " it is yours, change the key there, then redact",
    )


def as_expired(finding: Finding, expiry: float | None) -> Finding:
    """A token whose own expiry has passed (a JSON Web Token's ``exp``): a suggestion, as
    it opens nothing now; a refresh token pasted beside it is judged on its own."""
    if expiry is None:
        return finding
    day = datetime.fromtimestamp(expiry, tz=UTC).date().isoformat()
    return _as_suggestion(
        finding,
        f"{finding.message}; the token expired on {day} (its own exp claim)",
        "redact it anyway (a copy of a token shows where tokens land), and check that no"
        " refresh token or key that mints new ones was pasted with it",
    )


def as_retired(finding: Finding, retired: tuple[str, str] | None) -> Finding:
    """A value a note records as no longer valid (``old password``, ``rotated out``,
    ``revoked``): a suggestion, since the note says it opens nothing now; only its owner
    can confirm that, and the copy is still worth deleting."""
    if retired is None:
        return finding
    where, marker = retired
    return _as_suggestion(
        finding,
        f'{finding.message}; {where} records it as no longer valid ("{marker}")',
        "if it no longer works, redact it anyway (a retired password still shows"
        " how its owner chooses them); if it still works, rotate it",
    )


def name_finding(path: str, match: SecretMatch, references: Sequence[Place] = ()) -> Finding:
    """A file or folder whose own name holds a secret: the name is in every listing,
    report, log and backup, so only a new name takes it out (the boundary masks it here).
    The lines that name it by that name (``references``) are updated with it."""
    links = ""
    if references:
        links = " and the links to it at " + ", ".join(place.shown for place in references)
    return make_finding(
        ID,
        "secret-in-name",
        path,
        None,
        f'the name holds a possible {match.label}: "{match.redacted}" (pattern: {match.rule})',
        f"rename it{links} (and revoke the secret if it is real)",
        key=match.fingerprint,
        judgment=True,
        related=tuple(sorted({p.path for p in references})),
    )


def secret_finding(places: list[Place]) -> Finding:
    """One value, at its first place, naming the others: one decision redacts them all,
    and its fingerprint is the one that place's finding always had (dismissals hold)."""
    first = places[0]
    match = first.match
    others = places[1:]
    fix: dict[str, object] = {
        "action": "redact-secret",
        "path": first.path,
        "line": match.line,
        "pattern": match.rule,
        "fingerprint": match.fingerprint,
        # the value's, whatever rule found it: what a false positive mark records, and how
        # the fix knows the value at a place another rule matched
        "value": match.value_fingerprint,
        "places": [{"path": place.path, "line": place.match.line} for place in places],
    }
    return make_finding(
        ID,
        "possible-secret",
        first.path,
        match.line,
        f'possible {match.label}: matched "{match.redacted}" (pattern: {match.rule})'
        + _also_at(others),
        "review and redact, or mark as false positive"
        if not others
        else f"review and redact (one fix redacts all {len(places)} places),"
        " or mark as false positive",
        key=match.fingerprint,
        related=tuple(sorted({p.path for p in others} - {first.path})),
        fix=fix,
    )


def _also_at(others: list[Place]) -> str:
    """``, also at hosts.md:4, deploy.md:9 and 3 more places``: the first few by name."""
    if not others:
        return ""
    named = [place.shown for place in others[:NAMED_PLACES]]
    rest = len(others) - len(named)
    if rest:
        more = f"{rest} more place" + ("s" if rest > 1 else "")
        return f", also at {', '.join(named)} and {more}"
    if len(named) == 1:
        return f", also at {named[0]}"
    return f", also at {', '.join(named[:-1])} and {named[-1]}"
