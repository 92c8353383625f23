"""Secret values the project's repository publishes itself: a demo login in its README,
a seed script's test account, a device's documented default password.

Only files that publish values on purpose count: documents, examples, seeds, tests,
compose files, a project's README and guides, and other notes and code that say so (their
path, or words near the value: a test account's, a default's; an agent's note of an
account beside its memory publishes nothing; nor does a note that records the value as a
credential hard-coded, leaked or committed, a QA report's "Hardcoded DB credentials: removed
the defaults"). A configuration or data file (``remote.yaml``,
``key.properties``, ``.env``, ``.credentials``, a JSON or TOML file) holds the values a
deployment uses, and Claude Code's own files (``.claude/``: its permission rules repeat the
commands a session ran, passwords and all; a copy of ``~/.claude`` whose prompt history and
transcripts repeat what a session was told) and agents' instructions (``CLAUDE.md``,
``AGENTS.md``, a skill's ``SKILL.md``, Markdown under ``skills/``, ``agents/``,
``commands/``, ``prompts/`` or ``rules/``: read as memory is) are no publication either: a
value found only there leaked there too, and stays a problem.

Such a value is in the repository by design (or, if it is live, it leaked there first):
redacting the memory's copy changes nothing, so the ``secrets`` check makes it a
suggestion. Only values a person chooses can be published that way (:func:`chosen`);
a value in an issuer's format is a secret wherever it is.

:func:`published_in` answers for all of a tree's values at once: which file the
repository tracks (outside the tree) holds each one, as a word of its own (a short one
as a URL's password). Values are
never passed to a process (another user can read a command line): git only lists the
tracked files, and they are read here, within bounds (regular files only, no links, no
binaries, no large files, a cap on the files and bytes read). Nothing is written.
"""

from __future__ import annotations

import bisect
import itertools
import os
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from memory_audit.model.undecodable import escaped
from memory_audit.regular_files import read_regular_within
from memory_audit.secrets.boundary import tree_secrets
from memory_audit.secrets.rules import Rule
from memory_audit.secrets.scanner import Scanner, SecretMatch
from memory_audit.secrets.values import RANDOM_KEY, VENDOR_HEAD
from memory_audit.sources.git import project_listing
from memory_audit.tree.slugs import auto_memory_projects
from memory_audit.tree.snapshot import MemoryTree

try:
    import re2 as _re2
except ImportError:  # pragma: no cover - google-re2 is a dependency; a broken wheel: one by one
    _re2 = None

# The value kinds (secrets/rules.py VALUE_KINDS) of a password as people write one after a
# label, in a login pair or a table: chosen by a person, so a seed or demo login fits them as
# well as a live one. The ``token`` and ``key`` kinds are shaped like generated keys.
CHOSEN_KINDS = frozenset(
    {"mixed", "strong", "symbol", "credential", "known", "any", "digits", "pin", "section"}
)
# Shorter values occur in unrelated files by chance ("admin1"), as for repeats.
MIN_LENGTH = 6
# Shorter values are looked up only as a URL's password (:func:`_needle`)
SHORT_MIN = 4
# A generated key's shape, whatever rule found it: 16 characters or more mixing cases and
# digits, and nothing else than a key's joining characters (a person's password puts in
# symbols: "Harb0r#Quay2026!", a key generator mostly letters and digits).
GENERATED_LENGTH = 16
KEY_CHARACTERS = frozenset("-_")
MAX_FILES = 20_000
MAX_FILE_BYTES = 1 << 20
MAX_TOTAL_BYTES = 64 << 20
INDEX = "MEMORY.md"
BINARY_SNIFF = 8000  # git's own test: a NUL byte in the first 8000 bytes
# Hex of any length long enough that no person types it (a secret cut by one digit, 63)
# A UUID's shape, of hex or of any letters and digits (a provider's key drawn in its groups)
UUID = re.compile(
    r"(?=[^-]*[0-9])[0-9A-Za-z]{8}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{12}"
)
LONG_HEX = re.compile(r"^(?=[^\s]*[0-9])(?=[^\s]*[a-fA-F])[0-9a-fA-F]{24,}$")
# A value between two of these is a folder's name in a path, not the value standing alone.
PATH_SEPARATORS = ("/", "\\")
# A key in base64, padded or not (an Ed25519 secret key, 88 characters with "=="): no
# person types 32 characters of it.
BASE64_KEY = re.compile(r"^(?=[^\s]*[A-Z])(?=[^\s]*[a-z])(?=[^\s]*[0-9])[A-Za-z0-9+/]{32,}={0,2}$")
# A service's own prefix of lower-case words, then hex it drew (``mx_eu_<64 hex>``,
# ``relayapi_<64 hex>``): a key whatever prefix names it, which no person chose
PREFIXED_HEX = re.compile(
    r"^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*[_-](?=[^_-]*[0-9])(?=[^_-]*[a-f])[0-9a-f]{24,}$"
)


def chosen(rule: Rule, value: str) -> bool:
    """True when ``value`` is a password a person chose, which a repository may publish as a
    demo or seed login; False when its format makes it a secret by definition.

    The line: a specific (not generic) rule's regex is an issuer's format (a vendor token,
    a private key, a JWT); a generic rule finds a value by the words around it, and only its
    password kinds (:data:`CHOSEN_KINDS`, or no declared kind) are chosen by people, as is
    the value of a specific rule declared ``chosen`` (a URL's password: a compose default).
    A value shaped like a generated key (hex digits, a UUID, 16 characters or more mixing
    cases and digits with no symbol but ``-`` and ``_``) is a key whatever found it. A
    capitalised word (``Marisa``) is a name as well: a repository holds the name of the
    place, person or product it is about everywhere, which publishes no password.
    """
    if _generated(value) or _capitalised_word(value):
        return False
    if rule.chosen:  # a specific rule declaring its value a person's (a URL's password)
        return True
    return rule.generic and (rule.value is None or rule.value in CHOSEN_KINDS)


def _capitalised_word(value: str) -> bool:
    return value.isalpha() and value[:1].isupper() and value[1:].islower()


def _generated(value: str) -> bool:
    if RANDOM_KEY.match(value) or BASE64_KEY.match(value) or LONG_HEX.match(value):
        return True
    if PREFIXED_HEX.match(value):
        return True
    head = VENDOR_HEAD.match(value)
    if head is not None and len(value) - head.end() >= GENERATED_LENGTH:
        return True  # an issuer's prefix, then what it drew (``sk-sp-<32 hex>``): a key
    if UUID.fullmatch(value):
        return True  # a UUID's shape (a provider's key drawn in its groups)
    cases = any(c.isupper() for c in value) and any(c.islower() for c in value)
    keyish = all(c.isalnum() or c in KEY_CHARACTERS for c in value)
    return len(value) >= GENERATED_LENGTH and cases and any(c.isdigit() for c in value) and keyish


def published_secrets(tree: MemoryTree, scanner: Scanner) -> dict[str, str]:
    """Fingerprint -> the tracked file publishing it, for each chosen value of the tree, in
    the repository of the tree's located project (a repository's own copy of memory is
    located in it)."""
    found = tree_secrets(tree, scanner).values()
    values = chosen_values(scanner, (pair for matches in found for pair in matches))
    return published_in(tree.location.project_path, tree.root, values)


def chosen_values(scanner: Scanner, matches: Iterable[tuple[SecretMatch, str]]) -> dict[str, str]:
    """Fingerprint -> value of each match (with its text) that is :func:`chosen`, and not a
    recorded false positive (never reported anyway)."""
    rules = scanner.rules_by_name
    values: dict[str, str] = {}
    for match, text in matches:
        rule = rules.get(match.rule)
        if rule is None or scanner.dismissed(match):
            continue
        if chosen(rule, text.strip()):
            values[match.fingerprint] = text.strip()
    return values


def published_in(folder: Path | None, tree: Path, values: Mapping[str, str]) -> dict[str, str]:
    """Key -> the first file (its path relative to the repository; READMEs and other files
    near the root first) that the repository at ``folder`` tracks outside every memory tree
    and that holds that key's value as a word of its own (a value under six characters: as
    a URL's password, :func:`_needle`); when the tree is the repository's root, outside its
    Markdown. Empty when there is no repository git will read, when it is
    bare or the home folder (dotfiles), or when no value is long enough (four characters)."""
    wanted = {key: _needle(value.strip()) for key, value in values.items()}
    wanted = {key: value for key, value in wanted.items() if len(value) >= MIN_LENGTH}
    in_urls = frozenset(value for key, value in wanted.items() if value != values[key].strip())
    if folder is None or not wanted:
        return {}
    found = project_listing(folder)
    if found is None:
        return {}
    root, listing = found
    own = _claude_code_folder(tree, root)
    if own == ".":  # a synced ~/.claude: every file in it is Claude Code's own
        return {}
    suites = _suite_folders(listing)
    paths = _outside(listing, root, tree)
    if own is not None:
        paths = (path for path in paths if not path.startswith(own + "/"))
    return _search(root, paths, wanted, in_urls, suites)


def _suite_folders(listing: str) -> tuple[str, ...]:
    """The ``e2e/`` folders below the root (lower-cased, with their slash) beside an
    end-to-end runner's configuration: an app's own suite in a monorepo."""
    paths = listing.lower().split("\0")
    apps = {found.group(1) or found.group(2) for found in map(E2E_RUNNER.fullmatch, paths) if found}
    return tuple(sorted(app + "e2e/" for app in apps))


def _needle(value: str) -> str:
    """What a file must hold to publish ``value``: the value as a word of its own, or a
    value shorter than :data:`MIN_LENGTH` (which as a word would match too much) as a URL's
    password, between its user's ``:`` and its host's ``@`` (``postgres:Kq7x1@localhost``:
    a local database's default an example environment file hands out)."""
    if SHORT_MIN <= len(value) < MIN_LENGTH:
        return f":{value}@"
    return value


def _claude_code_folder(tree: Path, repo: Path) -> str | None:
    """The folder (relative to the repository, "." its root) of Claude Code's own files that
    holds the tree, when the tree is an auto-memory folder, ``<folder>/projects/<slug>/memory``
    (a repository keeping a copy of ``~/.claude``, or ``~/.claude`` under git). Nothing in
    that folder publishes a value: its prompt history and transcripts repeat what a session
    was told, so a value found there leaked there too."""
    projects = auto_memory_projects(tree)
    if projects is None:
        return None
    folder = os.path.realpath(os.path.dirname(projects))
    own = os.path.relpath(folder, repo)
    if own == os.pardir or own.startswith(os.pardir + os.sep):
        # the repository is inside Claude Code's folder (``projects/`` or one project's
        # folder under git): all of it is Claude Code's own
        inside = os.path.relpath(os.path.realpath(repo), folder)
        return "." if not inside.startswith(os.pardir) else None
    return own.replace(os.sep, "/")


MARKDOWN = ".md"
# Configuration and data files: what a deployment reads, not what a project documents; a
# systemd or Podman unit (a quadlet's ``.container``) runs the deployed service itself.
CONFIG_SUFFIXES = frozenset(
    {".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties", ".env", ".xml"}
    | {".service", ".container", ".pod", ".kube", ".volume", ".network"}
)
# Names of a store of secrets, as a file or as a folder of one file a secret
# (``.secrets/db_password``)
SECRET_STORES = frozenset({".credentials", ".secrets", "secrets"})
CONFIG_NAMES = frozenset(
    {".env", ".npmrc", ".netrc", ".pgpass", ".pypirc", "credentials", ".secret"}
    | SECRET_STORES
    # a shell's start-up files export what the user's sessions use
    | {".profile", ".bashrc", ".bash_profile", ".zshrc", ".zprofile", ".zshenv", ".envrc"}
)
# Lists of paths git or an image builder leaves out: a value there is part of a path, so
# such a file does not make the value a published one (it stays what the note says)
IGNORE_LISTS = frozenset({".gitignore", ".dockerignore", ".npmignore", ".gcloudignore"})
# An agent's session transcript ("sessions/<id>.jsonl", "<uuid>.jsonl",
# "<id>.jsonl.reset.<time>"; a fixture's "demo_users.jsonl" publishes) and an
# agent's memory (a workspace's "memory/" daily notes) record what was said and done, so a
# value there leaked there too, as in a folder holding a MEMORY.md
TRANSCRIPT = re.compile(r"\.jsonl\.(?:reset|bak)|^[0-9a-f-]{16,}\.jsonl$")
MEMORY_FOLDERS = frozenset({"memory", "memories"})
# A configuration's backup ("openclaw.json.bak", "app.yaml.bak.1") is the configuration:
# what it held leaked
BACKUP_SUFFIX = re.compile(r"(?:(?:\.(?:bak|backup|old|orig)|~)(?:\.\d+)?)+$")
# Names and folders of files that publish defaults on purpose, whatever their format: a
# word of the path (split at anything not a letter or digit) that starts with one of these
# (``seeders``, ``testdata``, ``unittests``, ``docker-compose``), or is one of the short ones
# whole, or a ``.dist`` copy (``config.php.dist``; a ``dist/`` folder is a build's output).
# A word inside another word names nothing: ``latest.json``, ``contest.yaml``, ``device``.
PUBLISHING_WORDS = re.compile(
    r"(?<![a-z0-9])(?:(?:example|sample|template|demo|seed|fixture|mock|test|unittest"
    r"|development|compose)[a-z0-9]*|specs?|dev|docs?)(?![a-z0-9])|\.dist(?![a-z0-9])"
)
# An end-to-end suite's folder at the repository's root (``e2e/helpers/auth.ts``), or an
# app's own deeper in a monorepo beside its runner's configuration (``src/Web/e2e/users.ts``
# beside ``src/Web/playwright.config.ts``): its code publishes the suite's fixtures as a
# folder of tests does, unless it logs into a service on the network (:func:`_live_script`).
# Not "e2e" deeper in a path with no runner beside it (``src/crypto/e2e/``: an
# encryption's, whatever unit tests it holds), nor its configuration (``e2e/.env``)
SUITE_FOLDER = re.compile(r"e2e/")
E2E_RUNNER = re.compile(r"(.+/)(?:playwright|cypress)\.config\.[a-z]+|(.+/)wdio\.conf\.[a-z]+")
# Code files: a value a script or a program hard-codes is published on purpose only when
# its path says it is a default (``seed.py``, ``tests/``) or a comment does, on the value's
# line or a comment line right above it (``PASSWORD = "..."  # local test account``); an
# automation script's real login (``INSTAGRAM_PASSWORD = "..."`` in ``scripts/post.py``)
# leaked there too. A script without a suffix is code when it opens with ``#!``.
CODE_SUFFIXES = frozenset(
    {".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".sh", ".bash", ".zsh", ".ps1"}
    | {".go", ".rb", ".php", ".java", ".kt", ".kts", ".rs", ".cs", ".swift", ".pl", ".lua"}
    | {".dart", ".scala", ".vue", ".svelte", ".ipynb", ".c", ".cc", ".cpp", ".h", ".r"}
    | {".bat", ".cmd", ".sql", ".groovy", ".tf", ".gradle"}
)
# Build and pipeline files without a suffix: code too (a Dockerfile builds an image whose
# defaults it publishes, and stays a publishing file)
CODE_NAMES = frozenset({"makefile", "jenkinsfile", "justfile", "rakefile", "procfile"})
# A comment's words that make a hard-coded value a default: whole words, never a part of
# one (``DEFAULT_TIMEOUT``, ``testflight``, ``tested``)
DEFAULT_WORDS = re.compile(
    r"(?i)(?<![a-z0-9_])(?:tests?|testing|demo|defaults?|examples?|samples?|dummy|fake|seed"
    r"|fixtures?|mock|placeholder)(?![a-z0-9_])"
)
# ... but a note that says the credentials were hard-coded, leaked, exposed or committed
# records a real login kept as the code's default (a QA report's "Hardcoded DB credentials:
# removed the defaults", under such a heading or on the value's line or the one above): a
# leak, unless the words deny it ("no real secrets are exposed") or a demo's, a test's or an
# example's word qualifies the value right before it (a demo's default is still published)
_LEAKED = r"\b(?:hard[- ]?coded|leak(?:ed|s)?|exposed|committed|plain[- ]?text)\b"
_CREDENTIALS = r"\b(?:credentials?|passwords?|secrets?|logins?|creds|api[ _-]?keys?|tokens?)\b"
LEAK_RECORD = re.compile(
    rf"(?i){_LEAKED}[^.\n|]{{0,40}}{_CREDENTIALS}|{_CREDENTIALS}[^.\n|]{{0,40}}{_LEAKED}"
)
LEAK_DENIED = re.compile(r"(?i)\b(?:no|not|never|nothing|without|none)\b[^.\n|]{0,24}\Z")
QUALIFIER_REACH = 40  # characters before the value read for a demo's or a test's word
HEADING_REACH = 50  # lines above a value read for its section's heading
# Notes: a Markdown or text file publishes a value when it is a project's README or guide
# (``README.md``, ``SETUP.md``, ``QUICKSTART.md``), sits under ``docs/`` (a publishing
# word), or says near the value that it is a default or a demo's; an agent's note of an
# account at the repository's root (``google-account.md``) leaked it. A site's page
# (``.html``) is published as it is: a password its script checks is every visitor's.
NOTE_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".rst", ".adoc", ".log", ".csv"})
GUIDE_NAME = re.compile(
    r"(?:readme|install|setup|quick[-_ ]?start|getting[-_ ]?started|usage|guide|manual|faq"
    r"|changelog|contributing)(?:\.[a-z0-9]+)+"
)
# Where a comment starts on a code line (after a space: ``https://x/test`` and ``pw#1``
# are inside strings), and a line that is a comment only
COMMENT_MARK = re.compile(r"(?:^|(?<=[ \t]))(?:#|//|/\*)")
COMMENT_LINE = re.compile(r"[ \t]*(?:#|//|/\*|\*|<!--)")

# Words a note uses for a production system. A published value in a note that places its
# system in production is live (a demo login seeded into the production project, the
# production database's password the compose files repeat): its publication makes it
# worse, not a demo's. A word of its own: "prod" in "product" or "produce" names nothing,
# nor does "non-production", "pre-prod", a Kafka producer (生产者) or productivity (生产力),
# nor a quality ("production-grade", "production-ready": how well made, not where it runs),
# nor code that is not a test's ("the real production code path", "prod code only"; "the
# production code server" names one);
# "fern-prod", "PROD_DB" and "prod-db" do.
PRODUCTION = re.compile(
    r"(?i:(?<![A-Za-z0-9])(?<!non-)(?<!pre-)(?<!un-)"
    r"(?:production|prod|producci[oó]n|produ[cç][aã]o|produktion)(?![A-Za-z0-9])"
    r"(?![- ](?:grade|ready|quality|level)\b)(?![- ]code(?:[- ]?paths?|[ \t]+only)\b))"
    r"|生产(?![者力])|生產(?![者力])|本番|운영 ?(?:환경|서버)"
    r"|(?i:(?<![а-яё])(?:продакшн|прод)(?![а-яё]))"
)
# "never deployed to production", "not production-ready": the word denied, not a place;
# "change it in production", "secret-change-in-production", "before going to production":
# what to do once there, said of a system that is not there yet
DENIED = re.compile(
    r"(?i:\b(?:not|never|no|nunca|nie|jamais)\b[\w -]{0,24}$"
    # "change it in production", "key-change-in-production"; not "a schema change in
    # production" (a change made there), nor "before production went live"
    r"|\bchange[-_ ](?:it|this|me|them)[-_ ](?:in|for|before)[-_ ](?:the[-_ ])?$"
    r"|\bchange[-_](?:in|for|before)[-_]$"
    r"|\bbefore (?:going|moving|deploying)(?: (?:to|into))?(?: the)? $)"
)
# "生产环境请务必修改默认密码", "本番環境では必ず変更してください", "운영 환경에서는 반드시 변경":
# advice in Chinese, Japanese or Korean to change a default once in production (a modal,
# then the verb to change), said of a system not there yet; not "生产环境已修改" (a change
# made there), nor "生产环境请勿修改", "一定不要", "변경하지 마세요" (do not change it there), nor
# "必须更换为以下账户" (changed to the account that follows: production's)
CJK_ADVICE_AFTER = re.compile(
    r"(?:环境|環境|[ \t]?환경)?(?:中|下|时|時|上|では|에서는?)?[ \t]*[,，、]?[ \t]*"
    r"(?:请|請|务必|務必|必须|必須|一定要|需要|应当|應當|应该|應該|必ず|반드시)"
    r"[^\n。！!勿不别別没沒千]{0,6}?(?:修改|更改|更换|更換|替换|替換|変更|変え|변경|교체)"
    r"(?!为|為|成|到|하지|しな|せず)"
)
# "Production runs against a real IdP and never uses this", "prod does not use the dev
# secret": production named as the system the value is kept out of, in the clause that
# names it (a dot or a colon inside a name, ``authn.mode``, ends no clause; a comma or a
# bracket does: "Production admin, the mobile app never uses it" says so of another system)
NOT_USED_AFTER = re.compile(
    r"(?i:(?:[^.;:!?\n,()\[\]]|[.:](?=\w)){0,100}?(?:\bnever|\bnot|n't)[ \t]+"
    r"(?:uses?|used|sees?|gets?|receives?|contains?|holds?|ships?|falls?[ \t]+back[ \t]+to)"
    r"[ \t]+(?:this|these|that|those|it"
    r"|them|the[ \t]+(?:dev|default|placeholder|same))\b)"
)
# "Any prod deploy that forgets an env var boots with the default": production as a case
# that may come, no system there (a review's warning about a fallback in the code). The
# clause after the noun says so, one of absence or failure or with "would", "could",
# "might" of its own (not a person's: "where you might need root"): "any prod host" alone,
# or "that has the agent installed", names the real fleet.
ANY_BEFORE = re.compile(r"(?i:\bany[ \t]+\Z)")
ANY_AFTER = re.compile(
    r"(?i:[ \t]+(?:deploy(?:ment)?s?|builds?|releases?|instances?|environments?|servers?"
    r"|systems?|hosts?|box(?:es)?)[ \t]+(?:(?:that|which|where)[ \t]+(?:forgets?|lacks?|misses"
    r"|skips?|omits?|fails?|doesn't|does[ \t]+not|has[ \t]+no|is[ \t]+missing|isn't"
    r"|[^.;:,!?()\n]{0,80}?(?<!you )(?<!we )(?<!they )(?<!\bi )(?<!one )\b(?:would|could|might)\b)"
    r"|without|missing|lacking)\b)"
)
# "auth endpoints must get a limiter before production.", "Rotate it before the prod
# launch": what to do while it is not there yet, a modal in the clause (a whole word, not
# "must-have", "needs nothing") or an imperative opening it (after a list's mark, "TODO:",
# "please"; not a noun, "Fix deployed ...", nor a word cut at the clause's reach); not
# what was done before it ("Seeded before the production launch; still there.", "The fix
# landed before production", "before production went live": it is there now). The clause
# opens after the last `.`, `!`, `?`, `;` or `:` and a space, or a line's start.
BEFORE = re.compile(r"(?i:\bbefore[ \t]+(?:the[ \t]+)?\Z)")
BEFORE_ENDS = re.compile(
    r"(?i:[ \t]*(?:[.;:,!)](?!\w)|\Z)"
    r"|[ \t]+(?:deploy\w*|launch\w*|releases?|rollouts?|use\b|go-?live))"
)
MODAL = re.compile(
    r"(?i:(?<![\w-])(?:must|should|needs?[ \t]+(?:to\b|(?!\w*thing\b)\w+ing\b)|has[ \t]+to"
    r"|have[ \t]+to|todo|to-do)(?![\w-]))"
)
IMPERATIVE = re.compile(
    r"(?i:[ \t]*(?:[-*][ \t]+(?:\[[ xX]\][ \t]+)?)?(?:(?:todo|to-do)[ \t]*:?[ \t]*)?"
    r"(?:please[ \t]+)?(?:rotate|change|replace|remove|add|fix)(?![\w-])"
    r"(?![ \t]+(?:was|is|were|are|went|landed|shipped|happened|merged|deployed|seeded|log)\b))"
)
CLAUSE_END = re.compile(r"[.!?;:](?=\s)|\n")
# How far back a sentence is read for its modal or imperative
SENTENCE_REACH = 200
# "a prod copy", "the production dump", "a snapshot of prod": where a local copy's data came
# from, not where its system runs (a reviewer's notes on the local stack holding that copy).
# A copy of production's settings or credentials ("a copy of the prod .env", "the
# production copy of settings.yml") is production's.
COPY_AFTER = re.compile(
    r"(?i:[ _-]?(?:cop(?:y|ies)|clone|dump|snapshot|mirror)(?![A-Za-z])(?![ \t]+of\b))"
)
# "prod realm export UNTOUCHED", "the production DB left alone": production's data or
# settings named as what was not changed, so the values are another system's (the local
# stack seeded beside it); not "production password unchanged since 2023" (its value,
# still in use), nor "Production unchanged: it still uses this login"
UNTOUCHED_AFTER = re.compile(
    r"(?i:[ \t]+(?:(?:realm|export|dump|data|db|database|snapshot|backup|config)[ \t]+){1,3}"
    r"(?:untouched|unchanged|unaffected|left alone|left as is|not touched)(?![\w-])"
    r"(?![ \t]*(?:since|:|,?[ \t]*(?:it[ \t]+)?still)))"
)
COPY_BEFORE = re.compile(r"(?i:\b(?:cop(?:y|ies)|clone|dump|snapshot|mirror)s? of (?:the )?$)")
SETTINGS_AFTER = re.compile(
    r"(?i:[ \t]*(?:\.env|credentials?|secrets?|keys?|passwords?|tokens?|config\w*|settings"
    r"|env(?:ironment)? (?:file|variables?))\b)"
)
# A mode the code checks, named as a condition of a feature (``only active in
# `NODE_ENV=production```, ``NODE_ENV === 'production'``): what a setting does, no place. The
# same variable set in a listing or before a command (``APP_ENV=production`` over the live
# server's values, ``RAILS_ENV=production rails db:seed``) names where the value's system
# runs, and places it.
MODE_CONDITION = re.compile(
    r"(?:(?i:\bonly[ \t]+(?:active|enabled|applied|checked)[ \t]+(?:in|when|if|under))"
    r"[ \t]+`?[A-Z][A-Z0-9_]*ENV(?:IRONMENT)?[ \t]*={1,3}"
    r"|\b[A-Z][A-Z0-9_]*ENV(?:IRONMENT)?[ \t]*(?:===?|!==?))[ \t]*[\"'`]?\Z"
)
# Advice for a production to come, a sentence of its own opening "For production," and an
# imperative ("For production, restrict the DB user ..."): what to do there, said of a
# system not there yet. Not "for production use" (the value's use), nor a line that
# introduces what follows ("For production, use these credentials:").
ADVICE_BEFORE = re.compile(r"(?:^[ \t]*(?:[-*>][ \t]+)?|[.!?][ \t]+)For[ \t]+(?:the[ \t]+)?\Z")
ADVICE_AFTER = re.compile(
    r",[ \t]+(?:restrict|rotate|enable|disable|switch|generate|store|move|consider|replace"
    r"|change|require|prefer|avoid)\b"
)
# ... unless the sentence points at what the note gives ("rotate these below:"). "Use" is
# no advice's verb here: "For production, use the ops login" gives the login
POINTS_AT = re.compile(r"(?i:\b(?:below|following|these|this|here|above)\b)|:[ \t]*\Z")
# How far back a line is read for the advice's opening
NEAR_LINE = 200
# A code span that is a command or a path (``make sync-prod``, ``./deploy-prod.sh``, a
# space or a slash in it): a name of what it runs, no place; a lone word in one
# (``fern-prod``, ``db.prod.io``) is a host's or a system's name
CODE_SPAN = re.compile(r"`[^`\n]*`")  # paired left to right, as Markdown pairs them
COMMAND = re.compile(r"[ /]")
# "(10 s for dev, change to 24 for prod)", "для dev ..., для prod": two environments'
# values of one setting, production's after development's in the clause
CONTRASTED = re.compile(
    r"(?i:\b(?:for|для|para|für|pour)[ \t]+(?:dev|development|local|дев|разработки)\b"
    r"[^\n;.()]{0,80},[^\n;.()]{0,60}\b(?:for|для|para|für|pour)[ \t]+\Z)"
)
CONTRAST_REACH = 160
# Words for a development machine, read on a value's line and its heading. Not "test": a
# test account on the live site is live; nor a domain's part (``qa@shop.local``).
DEVELOPMENT = re.compile(
    r"(?i:(?<![\w.@-])(?:dev|development|local|localhost|staging|sandbox)(?!\w))"
    r"|开发|開發|開発|本地|ローカル|(?i:локальн|(?<![а-яё])дев(?![а-яё])|разработк)"
)
# A demo named on a value's line, and the file that hands a demo login out to its users.
DEMO = re.compile(
    r"(?i:(?<![\w.@-])demo[ _-]?(?:login|account|user|credentials?|access|sign[ -]?in)s?(?!\w))"
)
README = re.compile(r"(?i:readme(?:\.(?:md|markdown|rst|txt))?)")
# A Markdown heading, or a line that is one bold run (a heading as notes often write one)
HEADING = re.compile(r"[ \t]*(?:#{1,6}[ \t]|\*\*[^*\n]+\*\*[ \t]*$)")
# A Markdown section's heading (its level the run of ``#``), and a code fence's line: a
# ``# comment`` in a fenced shell block opens no section, nor does one indented by a few
# spaces under a label (``  # terminal 1``: Markdown's heading, the author's comment; notes
# indent commands so far more often than headings)
SECTION = re.compile(r"(?m)^(#{1,6})[ \t]")
FENCE = re.compile(r"(?m)^[ \t>]*(`{3,}|~{3,})")
CLAUDE_FOLDER = ".claude"
# What agents are told to read, as they read memory: a value there leaked there too (a
# scraper's login repeated in its CLAUDE.md, a tenant's password in a skill), no publication.
AGENT_INSTRUCTIONS = frozenset(
    {"claude.md", "claude.local.md", "agents.md", "gemini.md", "skill.md", ".cursorrules"}
    | {"copilot-instructions.md"}
)
AGENT_FOLDERS = frozenset({"skills", "agents", "commands", "prompts", "rules"})


def handed_out_demo(tracked: str, text: str, line: int) -> bool:
    """A demo login the project's README hands out: the value's line names it a demo's login
    (``**Demo login:** owner@shop.demo / ...``; a demo in passing, "used in Friday's demo",
    is no such name) and the file publishing it is a README, which users read. Changing it
    would break the demo its owner offers on purpose; a demo login only a seed file holds
    is not handed out, and stays live in production."""
    return handed_out_by(tracked) and names_a_demo(text, line)


def handed_out_by(tracked: str) -> bool:
    """Whether the file publishing a value is one users read for a demo's login: a README."""
    return README.fullmatch(posixpath.basename(tracked)) is not None


def names_a_demo(text: str, line: int) -> bool:
    """Whether ``line`` (1-based) of a note names its value a demo's login."""
    lines = note_lines(text)
    return 0 < line <= len(lines) and DEMO.search(lines[line - 1]) is not None


# A test, seed or development account named as a value's label (``**admin test account:**``,
# ``Usuario de prueba:``, ``- [Test accounts](tests.md)``, ``测试账号：``): the note's own
# name for a fixture's login, closed by a colon or a link title's bracket. Not "test" as a
# verb ("test login with ..."), nor a word holding it (``test user-agent``, ``contest user``,
# コンテスト, 콘테스트, 已测试用户: "tested the user"), nor a real service's trial account
# (``cuenta de prueba de AWS``); nor a demo's login, which a live site may offer
# (:func:`handed_out_demo`).
TEST_ACCOUNT_WORDS = (
    r"(?:(?i:(?<![\w.@-])(?:test|dev|seed(?:ed)?|fixture|qa)[ _-]?"
    r"(?:accounts?|users?|logins?|credentials?)(?![\w-]))"
    r"|(?i:(?<!\w)(?:usuari[oa]s?|usuári[oa]s?|cuentas?|contas?|comptes?|utilisat(?:eur|rice)s?)"
    r"[ \t]+de[ \t]+(?:prueba|pruebas|teste|testes|test)(?!\w))"
    r"|(?i:(?<!\w)test(?:benutzer|konto|zugang|nutzer)(?!\w))"
    r"|(?<![已未被在])(?:测试(?:账号|帐号|账户|帳號|用户)|測試(?:帳號|帳戶|用戶))"
    r"|(?<!コン)テスト(?:アカウント|ユーザー)|(?<!콘)테스트 ?계정)"
)
# The label opens its line (after a list's marker, a bold run's or a link title's opening
# and a few words of its own: ``ops``, ``Shop's``) and closes at once, a parenthetical
# between (``(staging)``): a label later on the line (``ops / ... (test users: see
# seed.yml)``), one in another's parenthetical (``ops account (not a test account):``) or a
# verb's object before a colon (``test login with ops:...``, a trial account ``de prueba en
# AWS:``) labels nothing
TEST_ACCOUNT = re.compile(
    r"[ \t>]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?(?:\*\*|__)?\[?"
    r"(?P<before>[^\n:：/=@`|\[\]()（）<>]{0,30}?)"
    + TEST_ACCOUNT_WORDS
    + r"(?:[ \t]*[(（][^()（）\n]{0,40}[)）])?[ \t]*(?:\*\*|__)?[ \t]*[:：\]]"
)
# Words before a label that deny it (``not a test account:``, ``kein Testkonto:``, 非测试账号)
DENIED_LABEL = re.compile(
    r"(?i:(?<!\w)(?:not|no|non|never|nicht|kein\w*|pas|ni|não|nao|sin|sans|without|ohne)(?!\w))"
    r"|非|不是|并非|並非|아닌|ではない"
)
# Words for a live system a test account's own label or headings may use beside production's
# (``live test account``, ``PRD``, ``prod2``, 线上, 正式环境, 운영, 상용, ``PRD-EU``,
# ``live-db``, ``Livesystem``, 现网, 실서버): there the label's "test" names an account on the
# live system
LIVE = re.compile(
    r"(?i:(?<![A-Za-z0-9])(?:live|prd|prod\d+|produktiv\w*|live-?system\w*)(?![A-Za-z0-9]))"
    r"|线上|線上|现网|現網|正式(?:环境|環境|服|站)|운영|상용|실서버|라이브 ?서버"
)
# A list item's marker and indentation, to find the items a line is nested in
LIST_ITEM = re.compile(r"(?:[ \t]*>)*([ \t]*)(?:[-*+]|\d{1,3}[.)])[ \t]")  # in a quote too


def labelled_test_account(text: str, line: int) -> bool:
    """Whether ``line`` (1-based) of a note labels its value a test, seed or development
    account's login, and neither that line nor a heading it sits under (its section's, each
    section's it sits in, a bold line's over it) names production or a live system. Once
    the repository publishes the value too (its tests, seeds or guides), the held-out judges
    called such a login a fixture's, not worth acting on, even in a note that speaks of
    production elsewhere (rounds 142-145: ``Usuario de prueba: ...`` in an index whose status
    lines say the app runs in production); a production account's line or section says so."""
    layout = _layout(text)
    lines = layout.lines
    if not 0 < line <= len(lines):
        return False
    label = TEST_ACCOUNT.match(lines[line - 1])
    if label is None or DENIED_LABEL.search(label.group("before")):
        return False
    at = line - 1
    value_line = (layout.starts[at], len(lines[at]))
    spans = [(layout.starts[at], layout.starts[at] + len(lines[at]))]
    for start, _ in _reach(text, value_line[0])[1:]:  # the sections' headings, not their text
        spans.append((start, start + len(lines[bisect.bisect_right(layout.starts, start) - 1])))
    spans.extend((layout.starts[n], layout.starts[n] + len(lines[n])) for n in _over(lines, at))
    for start, end in spans:
        if LIVE.search(text, start, end) or any(
            _places(text, found, value_line) for found in _namings(layout, start, end)
        ):
            return False
    return True


def live_place(text: str, line: int) -> bool:
    """Whether a note places the system of the value on ``line`` (1-based) in production
    (:func:`on_production`) and the line does not label it a test account's with no
    production or live system named there or in its headings (:func:`labelled_test_account`:
    a published test account's login, in a note speaking of production elsewhere, is a
    fixture's). The audit and the on-change alert both ask it of a published value."""
    return on_production(text, line) and not labelled_test_account(text, line)


def _over(lines: list[str], at: int) -> list[int]:
    """The lines that head line ``at`` (0-based) within its section: every bold line over it
    (``**Production**``, then ``**Accounts**``: both name its place, the nearer no more than
    the farther) and every list item it is nested in (``- **Production**`` over an indented
    ``- **ops test account:** ...``)."""
    heads: list[int] = []
    item = LIST_ITEM.match(lines[at])
    indent = len(item.group(1).expandtabs(4)) if item else len(lines[at]) - len(lines[at].lstrip())
    for n in range(at - 1, -1, -1):
        text = lines[n]
        if SECTION.match(text):
            break
        parent = LIST_ITEM.match(text)
        depth = len(parent.group(1).expandtabs(4)) if parent else indent
        if depth < indent:
            heads.append(n)
            indent = depth
        elif HEADING.match(text):
            heads.append(n)
    return heads


# A memory index's entry: a list item that opens with a link to a Markdown file
INDEX_ENTRY = re.compile(r"[ \t]*[-*+][ \t]+(?:\*\*)?\[[^\]\n]+\]\([^)\s]+\.md\)")


def on_production(text: str, line: int) -> bool:
    """Whether a note places the system of the value on ``line`` (1-based) in production: the
    note names production (:data:`PRODUCTION`, each naming read by :func:`_places`: not
    denied, not a copy's source, not a command's name, not a mode the code checks nor advice
    for a production to come) where it speaks of the value's
    system (:func:`_reach`: the value's section, the sections it sits in, and what comes
    before the first heading), and neither the value's line nor the heading it sits under
    names a development machine (a production note's section on the developer's own
    database: ``**Fallback DB (dev machine, local)**``)."""
    layout = _layout(text)
    lines = layout.lines
    at = max(0, min(line, len(lines)) - 1)
    value_line = (layout.starts[at], len(lines[at]))
    # an index's entry (``- [Title](file.md) — hook``) speaks of its own memory: the entries
    # around it, however many name production, are other memories' (its headings and the
    # opening above still speak of it)
    others = _other_entries(layout, at) if INDEX_ENTRY.match(lines[at]) else None
    if not any(
        _places(text, found, value_line)
        for start, end in _reach(text, value_line[0])
        for found in _namings(layout, start, end)
        if others is None or not others(found.start())
    ):
        return False
    heading = _heading_above(lines, at, reach=at)
    return DEVELOPMENT.search(lines[at]) is None and DEVELOPMENT.search(heading) is None


def _other_entries(layout: _Layout, at: int) -> Callable[[int], bool]:
    """Whether an offset of the note sits on an index entry's line other than line ``at``."""

    def on_other_entry(offset: int) -> bool:
        line = bisect.bisect_right(layout.starts, offset) - 1
        return line != at and INDEX_ENTRY.match(layout.lines[line]) is not None

    return on_other_entry


def _namings(layout: _Layout, start: int, end: int) -> list[re.Match[str]]:
    """The namings of production that start within ``start:end`` of the note, found once."""
    first = bisect.bisect_left(layout.production_starts, start)
    last = bisect.bisect_left(layout.production_starts, end)
    return layout.production[first:last]


class _Layout(NamedTuple):
    """A note's lines, where each starts, its sections' headings (offset, level), and its
    namings of production (with where each starts)."""

    lines: list[str]
    starts: list[int]
    headings: list[tuple[int, int]]
    production: list[re.Match[str]]
    production_starts: list[int]
    # each naming's verdict (:func:`_naming_verdict`) by where it starts, once asked
    verdicts: dict[int, tuple[bool, bool]]


@lru_cache(maxsize=4)
def _layout(text: str) -> _Layout:
    """A note's layout, worked out once for all the places of its values (a string keeps
    its hash, so asking again costs nothing); :func:`forget_texts` drops what is kept."""
    lines = text.split("\n")
    starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    namings = list(PRODUCTION.finditer(text))
    return _Layout(lines, starts, _headings(text), namings, [m.start() for m in namings], {})


def note_lines(text: str) -> list[str]:
    """A note's lines, split once for all the places of its values."""
    return _layout(text).lines


def forget_texts() -> None:
    """Drop the notes' layouts kept for their values' places: a long-running process (the
    daemon) keeps no note's text past the batch that read it."""
    _layout.cache_clear()


def _reach(text: str, offset: int) -> list[tuple[int, int]]:
    """The spans of a note that speak of what is at ``offset``: what comes before its first
    heading (a memory's frontmatter and opening), the section holding it, and the opening of
    each section it sits in (``# Production`` over ``## Database``). A long project brief's
    other sections (a configuration example's ``change-in-production`` placeholder, a file
    tree's ``environment.prod.ts``) speak of other things."""
    headings = _layout(text).headings
    if not headings:
        return [(0, len(text))]
    ends = [start for start, _ in headings[1:]] + [len(text)]
    spans = [(0, headings[0][0])]
    inner = 7  # deeper than any heading: the first one above the value is its section's
    for (start, level), end in reversed(list(zip(headings, ends, strict=True))):
        if start <= offset and level < inner:
            spans.append((start, end))
            inner = level
    return spans


def _headings(text: str) -> list[tuple[int, int]]:
    """The offsets and levels of a note's section headings, outside code fences."""
    headings: list[tuple[int, int]] = []  # (offset, level), outside code fences
    fence: str | None = None
    for found in re.finditer(r"(?m)^[^\n]*", text):
        marker = FENCE.match(found.group())
        if marker is not None:
            mark = marker.group(1)
            if fence is None:
                fence = mark
            elif (
                mark[0] == fence[0]
                and len(mark) >= len(fence)
                and not found.group()[marker.end() :].strip()
            ):
                fence = None  # a closing fence holds no info string ("```bash" opens one)
        elif fence is None and (section := SECTION.match(found.group())) is not None:
            headings.append((found.start(), len(section.group(1))))
    return headings


def _places(text: str, found: re.Match[str], value_line: tuple[int, int]) -> bool:
    """Whether one naming of production places the note's system there: not denied ("never
    deployed to production"), not a case that may come ("any prod deploy that ..."), not a
    copy's source ("the prod copy"; a copy of production's settings is production's), not
    a mode the code checks elsewhere ("only active in ``NODE_ENV=production``"), not
    advice for a production to come ("For production, restrict ..."), and not in a command
    or path in a code span elsewhere
    (`make sync-prod`, `./deploy-prod.sh`: what it runs, not a place; on the value's own
    line, `PROD_DB`, and a lone name elsewhere, `fern-prod`, name the value's system).
    What does not depend on the value's line is read once a naming (a note of many values
    asks each naming again for each of them)."""
    verdicts = _layout(text).verdicts
    start = found.start()
    verdict = verdicts.get(start)
    if verdict is None:
        verdict = verdicts[start] = _naming_verdict(text, found)
    exempt, off_its_line = verdict
    if exempt:
        return False
    line_start, length = value_line
    return line_start <= start <= line_start + length or off_its_line


def _contrasted(text: str, start: int) -> bool:
    """A setting's value for development, then another for production, in one clause
    ("10 s for dev, change to 24 for prod"): production names where a setting goes, not the
    system of a value on another line."""
    return CONTRASTED.search(text, max(0, start - CONTRAST_REACH), start) is not None


def _naming_verdict(text: str, found: re.Match[str]) -> tuple[bool, bool]:
    """Of one naming of production: whether it places nothing wherever the value is (denied,
    to come, a copy's source), and whether it places the value's system when the value is
    on another line (no mode, no advice, no command)."""
    start, end = found.span()
    if _to_come(text, start, end) or COPY_AFTER.match(text, end) is not None:
        return True, False
    if UNTOUCHED_AFTER.match(text, end) is not None:
        return True, False
    before = COPY_BEFORE.search(text, max(0, start - 40), start)
    if before is not None and SETTINGS_AFTER.match(text, end) is None:
        return True, False
    if _a_mode_or_advice(text, start, end) or _contrasted(text, start):
        return False, False
    opened = text.rfind("\n", 0, start) + 1
    closes = text.find("\n", end)
    line = text[opened : closes if closes >= 0 else len(text)]
    command = any(
        span.start() <= start - opened < span.end() and COMMAND.search(span.group())
        for span in CODE_SPAN.finditer(line)
    )
    return False, not command


def _to_come(text: str, start: int, end: int) -> bool:
    """Production at ``text[start:end]`` denied ("never deployed to production"), or a case
    or a stage that may come: "any prod deploy that ...", "... must ... before production."."""
    back = max(0, start - 40)
    if DENIED.search(text, back, start) is not None:
        return True
    if CJK_ADVICE_AFTER.match(text, end) is not None or NOT_USED_AFTER.match(text, end):
        return True
    if ANY_BEFORE.search(text, back, start) is not None and ANY_AFTER.match(text, end):
        return True
    if BEFORE.search(text, back, start) is None or BEFORE_ENDS.match(text, end) is None:
        return False
    reach = max(0, start - SENTENCE_REACH)
    ends = [m.end() for m in CLAUSE_END.finditer(text, reach, start)]
    opened = ends[-1] if ends else reach
    if MODAL.search(text, opened, start) is not None:
        return True
    # an imperative opens a clause: only where one is known to open (not mid-sentence)
    return (bool(ends) or reach == 0) and IMPERATIVE.match(text, opened, start) is not None


def _a_mode_or_advice(text: str, start: int, end: int) -> bool:
    """Production at ``text[start:end]`` as a mode the code checks (``only active in
    `NODE_ENV=production```) or in advice for a production to come ("For production,
    restrict ..."), read on its line (no further back than :data:`NEAR_LINE`)."""
    if MODE_CONDITION.search(text[max(0, start - 60) : start]) is not None:
        return True
    opened = text.rfind("\n", max(0, start - NEAR_LINE), start)
    if opened < 0 and start > NEAR_LINE:
        return False  # a line too long to read back to its start
    if ADVICE_BEFORE.search(text[opened + 1 : start]) is None:
        return False
    closes = text.find("\n", end, end + NEAR_LINE)
    said = text[end : closes if closes >= 0 else end + NEAR_LINE]
    return ADVICE_AFTER.match(said) is not None and POINTS_AT.search(said) is None


def _outside(listing: str, repo: Path, tree: Path) -> Iterator[str]:
    """The tracked paths outside every memory tree, the most prominent first, at most
    :data:`MAX_FILES` of them: not in
    the audited tree, nor under any folder holding a ``MEMORY.md`` (another copy of memory
    the repository keeps, which publishes nothing: a secret there is the same leak)."""
    paths = [path for path in listing.split("\0") if path]
    inside = os.path.relpath(os.path.realpath(tree), repo).replace(os.sep, "/")
    trees = {inside} | {_folder(path) for path in paths if path.rsplit("/", 1)[-1] == INDEX}
    if inside == ".":
        # The repository is the tree (the memory folder's own, or a project keeping its
        # MEMORY.md at its root): its Markdown is the memory read here; its other files (a
        # compose file, a seed script) publish a value as any repository's do.
        trees.discard(".")
        paths = [path for path in paths if not path.lower().endswith(MARKDOWN)]
    kept = sorted((p for p in paths if not _in_a_tree(p, trees) and _publishes(p)), key=_prominence)
    yield from itertools.islice(kept, MAX_FILES)


def _publishes(path: str) -> bool:
    """A file that may publish a default on purpose: not one of Claude Code's own settings,
    and not a configuration or data file unless its name or folder says it is an example,
    a seed, a test, a compose file or documentation (``.env.example``,
    ``docker-compose.dev.yml``, ``fixtures/users.json``)."""
    lowered = path.lower()
    folders, _, name = lowered.rpartition("/")
    parts = folders.split("/")
    if CLAUDE_FOLDER in parts or name in AGENT_INSTRUCTIONS:
        return False
    if name.endswith(MARKDOWN) and AGENT_FOLDERS.intersection(parts):
        return False  # a skill, an agent's or a command's definition
    if name in IGNORE_LISTS:
        return False
    if (
        TRANSCRIPT.search(name)
        or (name.endswith(".jsonl") and "sessions" in parts)
        or (name.endswith(MARKDOWN) and MEMORY_FOLDERS.intersection(parts))
    ):
        return False  # what an agent was told or noted: a leak of the same value, not a default
    name, suffix = _bare_name(name)
    if MEMORY_FOLDERS.intersection(parts) and suffix not in CODE_SUFFIXES:
        # noted in another form (a dreaming pass's corpus of sessions,
        # ``memory/.dreams/session-corpus/<day>.txt``): the same leak; a code module of that
        # name (``src/memory/seed.py``) may still seed a default
        return False
    config = (
        suffix in CONFIG_SUFFIXES
        or name in CONFIG_NAMES
        or name.startswith(".env")
        or SECRET_STORES.intersection(parts)
    )
    return not config or PUBLISHING_WORDS.search(lowered) is not None


def _bare_name(name: str) -> tuple[str, str]:
    """A file's lower-case name without a backup's suffix (``post.py.bak``: ``post.py``,
    what it holds a copy of), and its suffix."""
    name = BACKUP_SUFFIX.sub("", name)
    return name, os.path.splitext(name)[1]


def _prominence(path: str) -> tuple[bool, int, str]:
    """Where a reader looks first: outside hidden folders, near the root (a README before
    an editor's settings), then by name."""
    return (any(part.startswith(".") for part in path.split("/")[:-1]), path.count("/"), path)


def _folder(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def _in_a_tree(path: str, trees: set[str]) -> bool:
    """True when one of the folders ``path`` is in ("." the repository's root) is a tree."""
    parts = path.split("/")[:-1]
    folders = (".", *("/".join(parts[: n + 1]) for n in range(len(parts))))
    return any(folder in trees for folder in folders)


def _search(
    repo: Path,
    paths: Iterator[str],
    wanted: dict[str, str],
    in_urls: frozenset[str],
    suites: tuple[str, ...],
) -> dict[str, str]:
    """Key -> the first of ``paths`` that holds its value (``wanted``) standing alone, not
    hard-coded; a value of ``in_urls`` (a short one's ``:<value>@``) only in a URL."""
    keys: dict[str, list[str]] = {}  # value -> its keys (two rules may find one value)
    for key, value in wanted.items():
        keys.setdefault(value, []).append(key)
    search = _ValueSearch(list(keys))
    found: dict[str, str] = {}
    budget = MAX_TOTAL_BYTES
    for path in paths:
        data = _small_file(repo / path)
        if data is None:
            continue
        budget -= len(data)
        candidates = [value for value in search.occurring(data) if value in keys]
        text = data.decode("utf-8", "replace") if candidates else ""
        for value in candidates:
            if value in in_urls and not _in_a_url(text, value):
                continue  # "mailto:<value>@": no URL's password
            if _stands_alone(text, value) and not _hard_coded(path, text, value, suites):
                # a name that is not UTF-8 as its escaped bytes, as the engine shows names
                found.update(dict.fromkeys(keys.pop(value), escaped(path)))
        if not keys or budget <= 0:
            break
    return found


def _in_a_url(text: str, needle: str) -> bool:
    """``needle`` (``:<value>@``) after a URL's scheme and user (``postgres://app:<value>@``)."""
    return re.search(r"://[^\s/@:]*" + re.escape(needle), text) is not None


def _hard_coded(path: str, text: str, value: str, suites: tuple[str, ...]) -> bool:
    """True when ``path`` is code or a note whose path names nothing a default (no publishing
    word, no README or guide, not in an ``e2e/`` suite: the root's, or one of ``suites``)
    and that says nowhere near
    ``value`` (standing alone) that it is a default, a test's or a demo's: a comment on its
    line or a comment line right above it, in code; the value's line or the one above it, in
    a note. A real login an automation script hard-codes, or an agent's note of an account
    (``google-account.md``), is a leak, no publication; so is a test script's outside any
    folder of tests that calls a service on the network (:func:`_live_script`)."""
    lowered = path.lower()
    name, suffix = _bare_name(lowered.rpartition("/")[2])
    code = (
        suffix in CODE_SUFFIXES or name in CODE_NAMES or ("." not in name and text.startswith("#!"))
    )
    note = suffix in NOTE_SUFFIXES and not GUIDE_NAME.fullmatch(name)
    if not (code or note):
        return False
    suite = SUITE_FOLDER.match(lowered) or lowered.startswith(suites)
    publishing = PUBLISHING_WORDS.search(lowered) or suite
    if publishing and not (code and _live_script(lowered, text)):
        return False
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if not _stands_alone(line, value):
            continue
        rest = line.replace(value, " ")
        mark = COMMENT_MARK.search(rest)
        said = rest if note else (rest[mark.start() :] if mark else "")
        above = lines[number - 1] if number else ""
        if code and not COMMENT_LINE.match(above):
            above = ""
        if DEFAULT_WORDS.search(said) or DEFAULT_WORDS.search(above):
            if note and _a_leak_record(lines, number, value):
                continue
            return False
    return True


def _a_leak_record(lines: list[str], number: int, value: str) -> bool:
    """The note records a real credential left as a default: the value's line, the one above
    or the nearest heading above say it was hard-coded, leaked, exposed or committed (and do
    not deny it), and no demo's, test's or example's word qualifies the value right before it
    ("default" alone does not: the code's default was the real login)."""
    line = lines[number]
    context = "\n".join((_heading_above(lines, number), lines[number - 1] if number else "", line))
    recorded = any(
        LEAK_DENIED.search(context, 0, match.start()) is None
        for match in LEAK_RECORD.finditer(context)
    )
    if not recorded:
        return False
    at = line.find(value)
    before = line[max(0, at - QUALIFIER_REACH) : max(at, 0)]
    words = {match.group().lower() for match in DEFAULT_WORDS.finditer(before)}
    return words <= {"default", "defaults"}


def _heading_above(lines: list[str], number: int, reach: int = HEADING_REACH) -> str:
    """The nearest heading within ``reach`` lines above line ``number`` (none: empty)."""
    above = range(number - 1, max(number - reach, 0) - 1, -1)
    return next((lines[n] for n in above if HEADING.match(lines[n])), "")


# A script's address of a service on the network: its host, unless it is the machine's own
# or a name no one can register (RFC 2606, ``.local``)
SERVICE_ADDRESS = re.compile(r"https?://([A-Za-z0-9.-]+)")
LOCAL_HOST = re.compile(
    r"(?i)(?:localhost|127\.0\.0\.1|0\.0\.0\.0|[\w.-]*\.(?:test|example|invalid|localhost|local)"
    r"|(?:[\w-]+\.)*example\.(?:com|org|net))"
)


def _live_script(path: str, text: str) -> bool:
    """A script named for a test (``test-proxies-v2.js``, ``scripts/test_wazuh.py``) in no
    folder of tests, examples or docs (an ``e2e/`` suite's specs are read so too), that
    calls a service on the network: a person's
    check of a live account, whose login it leaked, not a suite's published fixture."""
    folders = path.rpartition("/")[0]
    if PUBLISHING_WORDS.search(folders):
        return False
    return any(not LOCAL_HOST.fullmatch(host) for host in SERVICE_ADDRESS.findall(text))


class _ValueSearch:
    """Which values occur in a file's bytes, in one pass for all of them (an RE2 set: linear
    in the file whatever the number of values); without RE2, one search a value."""

    def __init__(self, values: list[str]) -> None:
        self.values = values
        self.encoded = [value.encode() for value in values]
        self._set: Any = None
        if _re2 is not None:
            self._set = _re2.Set.SearchSet(_re2.Options())
            for value in values:
                self._set.Add(re.escape(value))
            self._set.Compile()

    def occurring(self, data: bytes) -> list[str]:
        if self._set is None:
            return [v for v, e in zip(self.values, self.encoded, strict=True) if e in data]
        return [self.values[index] for index in self._set.Match(data) or ()]


def _small_file(path: Path) -> bytes | None:
    """A regular file's bytes (never through a link, never waiting on a pipe), or None when
    it is not one, is larger than :data:`MAX_FILE_BYTES` or binary."""
    try:
        data = read_regular_within(path, MAX_FILE_BYTES, follow_links=False)
    except OSError:  # a link, a pipe, a folder, too large, gone: not read
        return None
    return None if b"\0" in data[:BINARY_SNIFF] else data


def _stands_alone(text: str, value: str) -> bool:
    """``value`` in ``text`` and not part of a longer word (``demo1234`` in ``demo12345``),
    nor a folder's name in a path (``/Users/<value>/sdk``: an owner's user name that is
    also the password), nor after ``@`` (a handle, a host)."""
    at = text.find(value)
    while at != -1:
        end = at + len(value)
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        folder = before in PATH_SEPARATORS and after in PATH_SEPARATORS
        # ``@<value>``: a person's handle or an address's host, no password published
        if not (folder or before == "@" or _joins(before, value[0]) or _joins(after, value[-1])):
            return True
        at = text.find(value, at + 1)
    return False


def _joins(neighbour: str, edge: str) -> bool:
    """A word character beside a word character: one longer word."""
    return (neighbour.isalnum() or neighbour == "_") and (edge.isalnum() or edge == "_")
