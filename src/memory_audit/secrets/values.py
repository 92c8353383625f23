"""Whether the text a rule matched looks like a credential: the value classifier.

Every match passes the placeholder, distinct-character and entropy filters and the
rule's allowlists. A generic rule's match (a keyword near a value, as people write
credentials) is also judged by its shape and by the words around it on its line:

- its ``value`` kind, declared by the rule: ``mixed`` (a letter with a digit or a
  symbol; ``strong`` when no separator stands between the value and the word before it;
  after ``:`` or ``=`` also six digits or more, or a quoted word of six letters or more
  that is no common English word, or a lower case word of eight letters or more ending its
  line or item after ``pw:``, ``pwd:`` or ``passwd:``), ``strong`` (a letter, a digit and a symbol,
  ``Word01!!``; or a long mix of cases and digits), ``token`` (16 characters or more,
  letters and digits), ``symbol`` (a letter, a digit and a symbol, six characters or
  more), ``credential`` (a credentials column's cell: ``mixed`` after a login and
  `` / ``, else ``symbol``), ``key`` (hex digits or a UUID, or 16 characters or more
  mixing cases and digits; ``mixed`` after a bare ``key:`` label whose section names a
  password or an encryption), ``known`` (the rule lists the values, vendor defaults: no
  shape asked), ``any`` (the place proves it is a password, ``sshpass -p``: four
  characters or more that are no common word) or ``digits`` (four digits or more where a
  test account's password stands, ``1111``: no distinct characters or entropy asked);
  ``mixed`` and ``strong`` also take a generator's letters-only password
  (``_random_letters``);
- in backticks right after a password word and ``:``, a short ``mixed`` value too: four
  digits (three distinct) or a word of five letters (``Пароль: `<word>` ``);
- never a file path or a URL's path, a hash or algorithm name (``HMAC-SHA256``), a
  public key (``ssh-ed25519 AAAA...``, a ``BEGIN PUBLIC KEY`` block), an identifier
  (``snake_case``, ``camelCase``, ``kebab-label``, ``process.env.X``, ``DB_PASSWORD``) or
  an issue reference (``owner/repo#505``), a cloud region (``eu-west-1``) or a colour
  (``#3DBB6C``), nor the second of two names in code joined by a slash
  (`` `Sys_Label`/`L10nService` ``, a field given a number: `` `lastTapMs`/`idleMs=1000` ``)
  with no login word near, a file and a glob of its variants
  (`` `m.bf16.gguf` / `*.q8_0.gguf` ``) or one family's names (`` `X-A-Usage` / `X-A-Remain` ``);
- never text its line marks as an example (``e.g.``, ``for example``, ``example:``)
  shortly before it, or disclaims shortly after it (``not a real password``).

The words around a match are read in windows of fixed size, so the cost per match is
bounded whatever the length of the line.
"""

from __future__ import annotations

import base64
import bisect
import functools
import hashlib
import itertools
import json
import re
import string
import unicodedata
import zlib
from collections.abc import Callable
from typing import Any

from memory_audit.secrets.document_ids import linked_ids
from memory_audit.secrets.redact import entropy
from memory_audit.secrets.rules import Rule
from memory_audit.secrets.tables import BASE_ID, BITABLE_NEAR, BITABLE_REACH

# The pieces of a regular expression: an anchor, a counted repeat or ``.*`` a password may
# hold by chance (``Summer{2024}$``, ``^Kx9mQ2Lp$``); a class (``\d``, ``[0-9]``) or a group
# (``(?:``) it hardly does.
REGEX_PARTS = re.compile(r"\\[dwsbDWSB.]|\[[^\]\s]{1,20}\]|\{\d+(?:,\d*)?\}|\.[*+?]|\(\?[:=!<]")
REGEX_CLASS = re.compile(r"\\[dwsDWS]|\[(?:\w-\w|\^)[^\]\s]{0,18}\]|\(\?[:=!<]")
# "not a real password", "the joke": the text disowns the value it gives.
DISCLAIMER = (
    r"\bnot (?:a |an )?(?:real |actual |live |valid |working )?(?:credential|password|passcode"
    r"|secret)s?\b|\b(?:a|the) joke\b"
)
# A shell variable where the value goes, whatever rule found it (``password=$GH_TOKEN`` in a
# credential helper's command): its value is elsewhere. Capitals, or lower case without
# digits: ``$ecret99`` may be a password.
SHELL_VARIABLE = re.compile(r"\$(?:[A-Z_][A-Z0-9_]*|[a-z_]+)")
# The next query parameter where an empty one's value would be: ``?ownerToken=&ttlSeconds=``
EMPTY_PARAMETER = re.compile(r"&[A-Za-z_][\w.%-]*=")
# ``PYTHONPATH=src pytest -q``: a command's environment, a variable whose name holds no
# credential's word (those lose their name first, ``scanner.ASSIGNED_NAME``) set to a
# word, a path or a number before it; ``RELAY_AUTH=Kx9fenQ2wLm3`` sets a secret
ENVIRONMENT_SETTING = re.compile(r"[A-Z][A-Z0-9_]{2,}=(?:[a-z_./~-]*|\d+)")
# ``status==ERROR``, ``result.code!=SUCCESS``: a test's assertion of a constant, which a
# password holds no more than base64's padding does (at its end only)
COMPARISON = re.compile(
    r"[A-Za-z_$][\w.$\[\]]*(?:===?|!==?)(?:[A-Z][A-Z0-9_]*|\d+|true|false|null|None|True|False)"
)
# A shell's parameter expansion opening right before a value (``${NAME:``): after ``:?`` a
# message it stops with when the variable is unset (``${DB_PASSWORD:?DB_PASSWORD is
# required}``), no value; after ``:-`` the default it takes (:func:`_shell_default_path`)
EXPANSION_OPEN = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:\Z")
# A framework's validation rules where a value would be (Laravel's ``'password' =>
# 'required|min:8|confirmed'``): rule names joined by ``|``, one of the common ones at least
VALIDATION_RULE = re.compile(r"[a-z_]+(?::[\w,.-]*)?")
VALIDATION_NAMES = frozenset(
    {"required", "nullable", "sometimes", "confirmed", "string", "min", "max", "email", "size"}
)
# An AWS ARN's secret name (``arn:aws:secretsmanager:<region>:<account>:secret:<name>``):
# where the secret is kept, not its value
SECRET_ARN = re.compile(r"arn:aws[\w-]*:secretsmanager:[^\s\"']*:secret:\Z")
ARN_REACH = 120
# ``"VITE_SUPABASE_ANON_KEY": "@supabase-anon-key"``: a stored secret's name a host's config
# refers to (Vercel's ``@name`` references), not its value.
SECRET_REFERENCE = re.compile(r"@[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+")
# A password that names where it is kept, as Apple's tools take one (``altool --password
# "@keychain:<item>"``, ``@env:<VAR>``): the keychain's item, no value
STORE_REFERENCE = re.compile(r"@(?:keychain|env):")
# A Cloudflare account's or zone's id (32 hex digits: its API's keys are 37 hex or 40 drawn
# characters), the provider and the id's kind named before it on its line
CLOUDFLARE_ID = re.compile(r"[0-9a-f]{32}")
CLOUDFLARE_ID_NAMED = re.compile(r"(?i:cloudflare)[^\n]{0,80}?\b(?i:account|zone)\b[^\n]*$")
# A jq or JSON path where a value would be (``{token: .value.botToken}``): a field's name
JSON_PATH = re.compile(r"\.[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# A one-time code an OAuth device flow shows (``user_code=<code>`` in the link to open): it
# is spent at sign-in
DEVICE_CODE_LABEL = re.compile(r"user_code(?:=|%3D)", re.I)
# A command's option where a password would be (``grep -E '--?password|--?token'``: a
# scanner's pattern for the flags, ``--token`` alone): the option's name, no value
OPTION_NAME = re.compile(r"--?\??[A-Za-z][A-Za-z_-]*")
DEVICE_CODE_REACH = 400  # characters on each side of the value its link is looked for in
# A secret store's name and version, as ``gcloud run deploy --set-secrets=KEY=<name>:latest``
# maps one: ``FERN_API_KEY:latest``, ``db-password:3`` (a name with a separator), never the
# value (``Harbor7:latest``, ``fern-kestrel:2024`` may be passwords)
SECRET_VERSION = re.compile(
    r"(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+):(?:latest|\d{1,3})"
)
# What a template's "your" names: the kind of value, whose it is or what it opens
YOUR_WHAT = (
    "(?:pass|pwd|secret|token|key|api|app|access|client|own|real|actual|user|name|mail|e-?mail"
    "|domain|host|id|account|bot|db|database|project|org|server|site|web|private|public"
    "|bearer|auth|code|value|new|long|strong|random|here|workspace|team|tenant|channel|chat"
    "|phone|number|ip|url|endpoint|bucket|region|sk|pk|service|admin|root|sudo|login|cookie"
    "|session|refresh|jwt|hook|integration|personal|github|gitlab|openai|anthropic|stripe"
    "|aws|google|slack|discord|telegram|notion|supabase|vercel|company|instance|cluster"
    "|dev|prod|test|local|remote|wallet|seed|phrase|device|home|cred|config|env|secure"
    "|super|generated|unique|custom|sec|tok|pw|p4ss|passw)"
)
PLACEHOLDER = re.compile(
    r"x{4,}|X{4,}|\.\.\.|…|\*{3,}|<[^>]*>|\$\{|\{\{|%\(|example|sample|dummy|placeholder"
    # a Kubernetes manifest's or a Makefile's ``$(DB_PASSWORD)``, the whole value: an
    # expansion of what is set elsewhere (``Kq7w$(Zr9!mT2x`` is a password holding the marks)
    r"|^\$\([A-Za-z_][A-Za-z0-9_]*\)$"
    # "your" before what goes there, its nouns running to the word's end ("your-key",
    # "YourPassword123", "yourapitoken"); not a password that opens with the word
    # ("Yourmoon2024", "Yourtokyo2024": a person's, as such passwords are)
    rf"|your(?:[_-]|(?=(?:{YOUR_WHAT})+(?![a-z])))"
    r"|changeme|change[_-]me|redacted|scrubbed|fake|0{8,}|12345678|abcdef|replace[_-]?(?:with|me)"
    r"|你的|您的|あなたの"  # "your" in Chinese and Japanese: "你的AppSecret"
    # "your" in Russian and Ukrainian, the whole word: "sk-or-ваш_ключ", "ТВОЙ_API_KEY"
    r"|(?<![а-яёіїє])(?:ваш|твой|твоя|твоё|твое|твои|твій)(?:[а-яё]{0,3})(?=[_\s-]|$)"
    r"|fill[_-]?(?:in|me)|insert[_-]"
    # "your" in German, French, Spanish and Portuguese before what goes there ("dein_key_hier",
    # "votre-cle-api", "tu_clave", "sua_senha")
    rf"|(?<![a-z])(?:dein|deine|ihr|ihre|votre|ton|ta|tu|su|seu|sua)[_-](?:{YOUR_WHAT}"
    r"|schl(?:ü|ue)ssel|passwort|cl(?:é|e)|clave|chave|senha|contrase(?:ñ|n)a|mot)"
    # the metasyntactic pair a sample's value is made of ("APIfooBAR456", "foo_bar_secret"),
    # at a part's edge or a change of case: not inside a word ("Sandbar-Bazaar-42!",
    # "Crowbar_Bazooka7")
    r"|(?:(?<![a-z])|(?<=(?-i:[A-Z])))(?:foo[_-]?bar|bar[_-]?baz)(?![a-z])"
    # the internet's joke password, an example's stand-in: "Password = hunter2-super-secret"
    r"|(?<![a-z])hunter2(?!\d)"
    # Telegram's documented bot token, "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
    r"|ABC-(?:DEF|xxx)"
    # a stand-in for a coin's address or a hex key, ``0x`` then words in capitals, one letter
    # no hex digit is (``0xSimulatedTokenAddress9003``, ``0xMockContractAddress``): no hex
    # the whole value, never a run inside a drawn token (``ghp_...0xKqWm...``)
    r"|(?-i:^0x(?=[A-Fa-f]*[G-Zg-z])(?:[A-Z][a-z]+){2,}\d*$)"
    # the base32 secret every TOTP library's documentation uses ("Hello!" and 0xDEADBEEF)
    r"|JBSWY3DPEHPK3PXP"
    # how to make one, or where it goes: "generate-with-openssl-rand-base64-32", "key-here"
    r"|generate[_-](?:with|using|via|an?|one|me|random|your)|[_-]here\b"
    # what goes there, described: "random-32-char-string"; a word in brackets: "[PASS]"
    r"|random[_-](?:\d+[_-])?(?:chars?|characters?|bytes?|hex|string|value|secret)(?![a-z])"
    # its length, a floor (``LONG_RANDOM_SECRET_32+CHARS``)
    r"|\d+\+[_-]?(?:chars?|characters?|bytes?)(?![a-z])"
    r"|\[[a-z][a-z _-]{1,20}\]"
    # a template's field, the whole value: "{password}", "{db_password}" in a format string;
    # lower-case words only, whatever the pattern's case: "{Qm7kLp2xRzW9}" is a value
    r"|(?-i:^\{[a-z]+(?:[_.-][a-z]+){0,5}\}$)"
    # the whole text of a phrase rule's disclaimed alternative (a user's rules file may
    # still carry one): "password=x1 is the joke"
    rf"|{DISCLAIMER}"
    # what a filter writes where the value was, the whole value: "***FILTERED***", "[MASKED]"
    r"|^[*\[(<_-]*(?:filtered|masked|hidden|omitted|removed|censored|withheld)[*\])>_-]*$",
    re.I,
)
# A resource's name or a list of settings, a lower-case word then ":" (``arn:aws:...``,
# ``min:12;upper:1``), and a moment (``2024-01-01T10:00:00Z``): values with symbols that
# quotes hold whole, no password.
RESOURCE_NAME = re.compile(r"[a-z][a-z0-9+.-]*:")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2})?")
# What goes there, described by the kind it stands for, then what it is, every part a
# word: "fcm-or-apns-token-string", "jwt-refresh-token-value" (never "Turkey-Value!9").
DESCRIBED = re.compile(
    r"(?:[a-z]+[_-])*(?:token|key|secret|password|pass)[_-](?:string|value)"
    # its length, described (``Password: 16-char App Password generated under ...``)
    r"|\d+[ _-]?(?:chars?|characters?|digits?|letters?|bytes?|bits?|words?)"
    # ... and its kind after it (``48-byte-base64``, ``32-char-random``, ``64-char-hex``)
    r"(?:-(?:base64(?:url)?|hex|random|alnum|alphanumeric|ascii|string|urlsafe)){0,2}"
    # how it is kept or made (``Bearer token: URL-encoded in .env``, ``base64-encoded``)
    r"|[a-z0-9]{2,12}-(?:encoded|encrypted|hashed|signed|generated|provided|issued|scoped"
    r"|managed|based)",
    re.I,
)
# What a value is when it is no value: the alternatives a claim or a field takes
# (``token_use=user|customer``), a comparison's right side (``token_use==customer_mcp``
# reads ``=customer_mcp``), a format's field (``max_tokens=%d``).
ALTERNATIVES = re.compile(r"[a-z_]+(?:\|[a-z_]+)+")
# ... the fields a format line names, joined as the file joins them
# (``recovery_email:recovery_password:2FA_secret``)
# (pieces in one case each: ``Zq7_Lm3Xp9`` mixes them, a password's)
FIELD_NAME = r"(?:[a-z0-9]+|[A-Z0-9]+)(?:_(?:[a-z0-9]+|[A-Z0-9]+))+"
FIELD_NAMES = re.compile(rf"{FIELD_NAME}(?::{FIELD_NAME})+")
FIELD_WORD = re.compile(
    r"(?i)(?:^|[_:])(?:e?mail|password|passwd|secret|user(?:name)?|token|key|2fa)(?=$|[_:])"
)
# ... a model's id under its maker's name (``moonshotai/kimi-k2.5``, ``zai-org/GLM-5-FP8``)
MODEL_MAKER = re.compile(
    r"(?i:moonshotai|zai-org|z-ai|thudm|meta-llama|mistralai|deepseek-ai|deepseek|qwen"
    r"|openai|anthropic|google|nvidia|microsoft|x-ai|minimax|minimaxai|01-ai|bigcode|tiiuae"
    r"|stabilityai|black-forest-labs|nousresearch|cohere|cohereforai|amazon|baidu|tencent"
    r"|bytedance|ibm-granite|allenai|huggingfaceh4|mlx-community|unsloth|xai-org)"
    r"/[A-Za-z0-9][A-Za-z0-9._-]{1,80}"
)
# ... and how many times a thing was done, a word and its count (``cancel/finalize×9``)
TIMES_DONE = re.compile(r"[A-Za-z][A-Za-z-]*[×✕]\d{1,4}")
# ... a model's id under the provider that routes it (``cerebras/zai-glm-4.7``,
# ``deepinfra/deepseek-ai/DeepSeek-V3.2``): a provider's name, then the model's words with a
# hyphen or a dot (``prod/<drawn>-<drawn>`` names no provider)
PROVIDER_MODEL = re.compile(
    r"(?:openrouter|together|togetherai|deepinfra|fireworks|groq|cerebras|nvidia|nim|moonshot"
    r"|qianfan|stepfun|xiaomi|vercel-ai-gateway|bedrock|vertex|azure|ollama|lmstudio"
    r"|siliconflow|dashscope|volcengine|byteplus|ark|doubao|minimax|zai|zhipu|mistral"
    r"|anthropic|openai|google|gemini|deepseek|xai|perplexity|huggingface|hf|replicate|novita"
    r"|hyperbolic|sambanova|cloudflare|cloudflare-ai-gateway|baseten|nebius|chutes|kimi"
    r"|github-copilot|copilot|litellm|requesty|venice|synthetic|kilocode|opencode)"
    r"(?:/[A-Za-z0-9][A-Za-z0-9._:-]{0,80}){1,2}"
)
MODEL_WORDS = re.compile(r"/[^/]*[A-Za-z]{3}[^/]*$")
# ... a setting and its small number or its words (``activityType:4``, ``ZUserID=9``,
# ``Muni=per-property``), its name letters alone and no credential's: a number after a name
# in camelCase or with "_" (``Summer=2024`` is a password, and so is ``<drawn>:1``)
SETTING_VALUE = re.compile(
    r"(?P<name>[A-Za-z_.]*(?:[a-z][A-Z]|[_.])[A-Za-z_.]*)[:=][0-9]{1,3}"
    r"|(?P<word>[A-Za-z]+)[:=][a-z]+(?:-[a-z]+)+"
)
# ... a step in words and where it leads (``no-session→302``): prose's arrow (a value's own
# arrow may follow it: ``<key>→revoked``)
ARROW_STEP = re.compile(r"[a-z]+(?:-[a-z]+)*[→←⇒⇐↔⟶]")
# ... a product and its version, as a user agent names a client (``axios/1.7.9``)
PRODUCT_VERSION = re.compile(r"[A-Za-z][A-Za-z0-9._-]*/v?[0-9]+(?:\.[0-9]+){1,3}")
ELLIPSES = ("...", "…")
# A value opening with a regular expression's "any run": ``sed "s/KEY=.*/KEY=$NEW/"``
# rewrites a setting, and the pattern after ``KEY=`` is no value
REGEX_ANY_RUN = (".*", ".+")
MAX_SHOWN_PREFIX = 12
# A security log shows a key's or a token's first sixteen characters (``1//01cw<9
# more>-Q3...``, a refresh token of a hundred): half of a 32-character key at most. Not
# after a password's word, where sixteen characters may be the whole password.
MAX_SHOWN_KEY_PREFIX = 16
SHOWN_PASSWORD_LABEL = re.compile(
    r"(?i)pass|pwd|密码|密碼|парол|contrase|senha|passwort|mot de passe|/"
)
# A count before the keyword (``**1 API key**: single-model mode``, ``2 tokens: ...``): how
# many, then what that number of them gives, not a key
COUNTED_KEYWORD = re.compile(
    r"(?i)\A[ \t]*(?:[-*+>][ \t]+)?(?:\*\*|__)?[0-9]{1,3}[ \t]+"
    r"(?:api[ _-]?keys?|keys?|tokens?|secrets?|passwords?)"
    r"(?:\*\*?|__?)?[ \t]*[:=：](?:\*\*?|__?)?[ \t]*[`'\"]?$"
)
MAX_SHOWN_QUOTED = 24  # the same, the ellipsis inside the quotes that close the value
# Lower-case words joined by "-" or "_" at a value's start (``rh-api-``): a vendor's prefix
# no table here names
WORD_GROUPS_HEAD = re.compile(r"(?:[a-z]{1,8}[-_]){1,3}")
# A vendor's prefix (``sk-ant-oat01-``, ``ghp_``, ``sk_live_``): what a doc shows before
# the elided key. Known prefixes only: a dashed passphrase is all key.
VENDOR_HEAD = re.compile(
    r"sk-ant-[a-z]{3,5}\d\d-|sk-(?:proj|svcacct|admin)-|[sr]k_(?:live|test)_|sk-|gh[pousr]_"
    # SendGrid's ``SG.<key id>.<secret>``: the id is shown in its console, the secret follows
    r"|SG\.[A-Za-z0-9_-]{0,22}"
    # a JWT's header (``{"alg"`` or ``{"typ"`` encoded: ``eyJhbGciOi...``), the same for
    # every key an issuer signs, no secret; a Grafana key (``eyJrIjoi...``) is all key
    r"|eyJ(?:hbGci|0eXAi)[A-Za-z0-9_-]*\.?"
    r"|github_pat_|glpat-|xox[abpre]-|npm_|pypi-|hf_|dop_v1_|lin_api_"
    # an account's number and ":" before the key (``<8 digits>:<key>``), as a bot's key
    # is given: the number is no part of what the prefix shows
    r"|\d{4,12}:"
)
# The drawn part's full length after a vendor's prefix, where the vendor's own rule knows
# it: half of it or less before an ellipsis is a cut token
VENDOR_LENGTHS = (
    ("github_pat_", 82),
    *((f"gh{kind}_", 36) for kind in "pousr"),
    ("sk-ant-", 80),
    ("glpat-", 20),
    ("npm_", 36),
    ("hf_", 34),
    ("dop_v1_", 64),
    ("lin_api_", 40),
    ("pit-", 36),  # a GoHighLevel private integration token: a UUID after its prefix
    # Stripe's keys of today: 99 characters after ``sk_live_``, ``51`` first (the old
    # ones held 24); what is shown is counted after ``sk_live_`` too (:data:`VENDOR_HEAD`)
    *((f"{kind}_{mode}_51", 99) for kind in ("sk", "rk") for mode in ("live", "test")),
    ("EwA", 1000),  # a Microsoft account's access token: over a thousand characters
)
# A header's or a cookie's name, capitalised words joined by hyphens: "X-Auth-Token".
NAME_SHAPED = re.compile(r"[A-Z][A-Za-zÀ-ÿ]*(?:-[A-Z][A-Za-zÀ-ÿ]*)+")
FORMAT_FIELD = re.compile(r"(?:^|[=:])%[-+ #0-9.]*[sdifxr]$")
# Where a key goes, said in words joined as a value is, in other languages too: "paste the
# new key here" in Polish ("wklej-tutaj-nowy-klucz-z-konsoli"), Spanish, Portuguese,
# German, French, Italian. Only a value of lower-case words and nothing else: a password
# may hold such a word ("Fluss-hier-Tanne-47").
WORDS_ONLY = re.compile(r"[a-zà-ÿ]+(?:[._-][a-zà-ÿ]+)+")
PASTE_HERE = re.compile(
    r"\b(?:paste|wklej|pega|cole|collez|incolla)\b|\b(?:here|tutaj|aqu[ií]|hier|ici|qui)\b"
    r"|einf(?:ü|ue)gen"
)
# A vendor's prefix and x's where the token would be: "ghp_xxx", "sk-proj-XXX"; or the
# kind's name in capitals: "ghp_TOKEN", "sk_live_KEY", "ghp_LONG_TOKEN".
VENDOR_PLACEHOLDER = re.compile(
    r"^[A-Za-z][A-Za-z0-9_-]{0,15}[_-](?:x{3,}|X{3,})$"
    r"|^[a-z][a-z0-9]{0,7}(?:[_-][a-z0-9]{1,8})?[_-]"
    r"(?:[A-Z]+_)?(?:TOKEN|KEY|SECRET|PAT|PASSWORD|VALUE)(?:_[A-Z]+)?$"
)
# (``session?.access_token``: code's optional chaining, where the value comes from)
# (``role→28P01``: a word, then an arrow to what came of it, an error's code here; a
# password rotated, ``<old>→<new>``, is still two passwords)
# (``WPA3-Personal``: a Wi-Fi network's security mode, said where its password could be)
# (``$HOME``, ``$env:API_KEY``, ``${TOKEN}``: a variable where the value would be; a
# password may open with "$" too, ``$Kx9mQ2!wLp``: letters of both cases and digits, then
# one of the symbols a password holds, no second variable, no operator before a name and
# no ``?``, ``*`` or ``&`` at its end, as an expression has: ``$DbPass1+$Salt``,
# ``$AppPass1?:$Fallback``)
NOT_A_VALUE = re.compile(
    r"^(?:[A-Za-z_][\w]*\.)+[A-Za-z_]\w*$"
    r"|^\$(?!(?![^$]*\$)(?!.*[?*&]$)(?!.*[+*&?:][A-Za-z_])"
    r"(?=\w*[A-Z])(?=\w*[a-z])(?=\w*[0-9])\w+[!@#%^&*+?~])|^%|^os\.|^env\.|\w\?\.\w|^[a-z_]+[→⇒←]"
    r"|^(?:WPA[23]?|WEP)(?:[-_ ]|$)"
    r"|^[≥≤≠≈±]"  # a threshold or a bound (``default ≥3 found / ≥1 named``), not a value
    r"|^\*\.[a-z0-9-]"  # a host pattern (``Host for SWAG / *.fern.dev``)
    r"|(?-i:^[a-z][a-z_-]*\.\*$)"  # keys under a prefix (``i18n pass: menu.*, hud.*``)
    # a command's long option where the value would be (``./pw --session=e2e``: a script
    # named ``pw``, its flag)
    r"|^--[a-z]"
    # a JSON string's escaped line break (``KEY=\\nGoHighLevel``: the value was empty)
    r"|^\\[nrt]"
    # a variable's name in a URL's query, the next parameter after it (``access_token=
    # ACCESS_TOKEN&type=image``, an API reference's stand-in)
    r"|(?-i:^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*&[A-Za-z_]+=)",
    re.I,
)
# A bracket in a value is code's (``bytes(password,``: a call cut at its comma) ...
BRACKET = re.compile(r"[()\[\]]")
PHRASE_LEAST_WORDS = 12  # a recovery phrase's words: 12, 15, 18, 21 or 24
# The digits' and the alphabet's first runs, a doc's stand-in token (``token: "1234abcd"``)
TWO_RUNS = re.compile(r"0?1234abcd|abcd0?1234")
# A name, then an API key's or a token's kind (``api_key="mem0-api-key"``): a placeholder
# named for the vendor; no issuer draws such a key
KIND_NAMED = re.compile(
    r"(?i)[a-z][a-z0-9]{0,15}(?:[-_][a-z0-9]{1,15}){0,2}[-_](?:api[-_]?key|token)"
)
# A coin's ticker where a token's value would be (``**新Token：** MOLTPUNK``): capitals alone,
# on a line that names a coin, a mint or a ticker
TICKER = re.compile(r"[A-Z]{2,12}")
TICKER_WORDS = re.compile(
    r"(?i:\b(?:ticker|tick|mint(?:ed|ing|s)?|coins?|crypto|memecoin)\b(?![.\w]))|铸造|代币|币"
)
DRAWN_PART = 16
# A member of a module or a constant in code: ``COLORS.ink``, ``theme.palette.primary``.
DOTTED_NAME = re.compile(r"(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*")
DRAWN_MIX = 4
# ... unless quotes enclose the whole value, which then holds brackets as a generated
# password does (``q7R]!Lmw``): only brackets that open and close (a call, an index), or
# one at either end, are code there (see _code_brackets).
BRACKETS = "()[]"
QUOTES = frozenset("`\"'")
# The name of an environment variable ("secret: HOLIDAY_API_KEY, ..." in prose says where
# the secret lives, not what it is): upper case words joined by underscores.
VARIABLE_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
# ... or one word in capitals naming a credential, as a tool's variable is ("пароль
# `PGPASSWORD`", "`SSHPASS`"): where the password is read from.
CREDENTIAL_VARIABLE = re.compile(r"^[A-Z0-9]*(?:PASS|PWD|SECRET|TOKEN|KEY)[A-Z0-9]*$")
# ... or such names joined as a token joins its parts (Meta's app token, ``APP_ID|APP_SECRET``):
# the token's shape, written where its values go; or a mapping's row joined so, of names and a
# file's (``settings_json|secret:<name>.json|option_name``): where a secret is read from
JOINED_PARTS = "|"
JOINED_FILE = re.compile(
    r"(?:[a-z]+:)?[a-z0-9]+(?:[-_.][a-z0-9]+)*\.(?:json|ya?ml|toml|env|ini|conf|cfg|properties)"
)
# An identifier in code or a key file's name: lower case words joined by underscores, or
# words run together in camelCase or PascalCase (a type: "shrink_pass: ShrinkPass").
SNAKE_CASE = re.compile(r"^_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+$|^_+[a-z][a-z0-9]*$")
# ... unless it ends as a throwaway password does, its word then three digits or more:
# "qa_panel_pw_456", "fernops_secure_2026" (where "db_password_2" names a variable,
# "user_pass_reset2" a route).
PASSWORD_LIKE = re.compile(r"_(?:pw|pwd|pass|passwd|password|secure|secret)_?[0-9]{3,}$")
# ... or, after a password's own label (``管理密码: fernshop_admin_2026``), ends as a site's
# admin password does, named for the site and its year (after ``api_key_name:`` or
# ``secret_ref:`` such a value names an account or a reference)
FOLDER_KINDS = ("pass", "secret", "vault", "key", "token", "cred")
SITE_ADMIN = re.compile(r"_(?:admin|root)_?(?:19|20)[0-9]{2}$")
# ... or ends in a year right after a credential's own label (``API key: fen_relay_2026``,
# ``RELAY_API_KEY=fen_relay_2026``, ``credentials: root / fen_db_2026``): named for its place
# and year as a person names a password, where a name's label goes on (``api_key_name:``)
YEAR_END = re.compile(r"_(?:19|20)[0-9]{2}$")
LABEL_RIGHT_BEFORE = re.compile(
    r"(?<![A-Za-z])(?:(?i:pass(?:word|wd)?|pwd|api[ _-]?key|access[ _-]?(?:key|code)"
    r"|credentials?|creds"
    r"|пароль|passwort|contraseña|senha|mot de passe)|密码|密碼|口令|パスワード|비밀번호)"
    r"(?:\*\*)?[ \t]*[:=：]?(?:\*\*)?[ \t]*(?:[A-Za-z][\w.@-]* ?/ ?)?[`'\"]?$"
)
PASSWORD_LABEL = re.compile(r"(?i:pass(?:word|wd)?|pwd)|密码|密碼|口令|パスワード|비밀번호|пароль")
# ... or ends in a generated part (see _generated_tail).
GENERATED_PART = 20
# Words run together, an acronym among them ("ShaderOGLShading", a lighting pass's class).
CAMEL_CASE = re.compile(r"^[A-Za-z][a-z]+(?:[A-Z][a-z]+|[A-Z]{2,}(?=[A-Z][a-z]|$))+$")
# An assignment, a lower case name then "=" and its value ("to_loc=HARBOR" after "test
# PASS:"): a setting the line gives, not a password (one holding "=" has no such name
# before it); unless the name says it holds a credential ("ADMIN_PASSWORD=...", "db_pw=").
ASSIGNMENT = re.compile(r"^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]{3,})=[^=\s]")
CREDENTIAL_NAME = re.compile(r"(?i:pass|pw|secret|token|key|auth)")
# ... OAuth's name is no credential's word of its own ("swagger_ui_oauth2_redirect_url"
# names a redirect; "oauth_token", "masterauth" still name credentials)
OAUTH_WORD = re.compile(r"(?i:oauth\d*)")
# A label, not a value: what a rule took ends in ":" ("clave: `fernStyleInjected: true`").
LABEL_END = (":", "：")
# A label in kebab-case ("token_type = 'quoted-string'"); four words or more may be a
# passphrase.
KEBAB_CASE = re.compile(r"^[a-z]+(?:-[a-z]+){1,2}$")
# A bare key label before a value, as key-label finds it ("- 키: `", "**Key**: '").
KEY_LABEL_BEFORE = re.compile(
    r"^[ \t]*(?:[-*+>] )?[ \t]*\*{0,2}(?i:key|키)\*{0,2} ?[:=：]\*{0,2} ?[\"'`]$"
)
# Words that make a key's section a password's or an encryption's (of a config's secrets).
SECRET_SECTION = re.compile(
    r"(?i:pass(?:word|wd|phrase)|encrypt(?:or|ion)|passwort|contrase(?:ñ|n)a|senha)"
    r"|암호|비밀번호|密码|加密|パスワード|暗号"
)
# How far back a key's section heading is looked for: a few lines of a note.
SECTION_WINDOW = 400
# A heading that names passwords (not "Password policy" or "Password reset": the words
# after it name a rule or a flow, not the passwords themselves).
_PASSWORDS_WORDS = r"\bpass(?:words|wds|phrases)\b|passwörter|contraseñas|senhas"
_NOT_A_SETTING_AFTER = r"(?!\s*(?:polic|rule|reset|requirement|hash|manag|length|rotation|change))"
_PASSWORDS_CJK = r"|密码|密碼|パスワード|비밀번호"
PASSWORD_SECTION = re.compile(
    rf"(?i:{_PASSWORDS_WORDS}|\bcredentials\b|\blogins\b){_NOT_A_SETTING_AFTER}{_PASSWORDS_CJK}"
)
# ... and one naming passwords themselves: a list of logins or credentials may hold users,
# a list of passwords holds passwords, bare or not
PASSWORDS_NAMED = re.compile(rf"(?i:{_PASSWORDS_WORDS}){_NOT_A_SETTING_AFTER}{_PASSWORDS_CJK}")
# A list item's label naming a setting of the passwords, not one (``- Policy: ...``)
PASSWORD_SETTING_ITEM = re.compile(
    r"(?i)\b(?:polic(?:y|ies)|charset|characters|format|rotation|count|length|rules?|expiry"
    r"|expiration|hint|manager|vault|storage|stored|location|complexity|min(?:imum)?"
    r"|max(?:imum)?|algorithm|hash(?:ing)?)\b[^:：\n]{0,20}[:：]"
)
BARE_PASSWORD_RULE = "section-list-bare-password"  # noqa: S105 - a rule's name
# A heading that names a token, an API key or a secret (not "Token usage": a count).
TOKEN_SECTION = re.compile(
    r"(?i:\b(?:tokens?|api[ _-]?keys?|access[ _-]?keys?|(?:api[ _-]?)?encryption[ _-]?keys?"
    r"|secrets?|bearer|cookies?)\b"
    r"(?![ \t]*(?:usage|budget|limit|count|cost|window|per\b|economy|efficien|saving"
    r"|address|contract|mint)))"
    r"|토큰|令牌|トークン|密钥|秘钥|(?i:токен|куки)"
)
SECTION_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]")
FENCE_MARKS = ("```", "~~~")
# An introduction naming what is made of a token or what names it, not the token
# (``SHA-256 of the token:``, ``Token fingerprint:``, ``its id:``, ``Public key for ...``)
NOT_THE_TOKEN = re.compile(
    r"(?i)\b(?:hash(?:ed)?|sha-?\d*|digest|fingerprint|checksum|commit|id|public|revoked)\b"
)
# A password word, then a word saying it changed, then the separator, right before a value.
CHANGE_LABEL = re.compile(
    r"(?:(?i:\b(?:changed|reset|updated))|변경|재설정|초기화|更改|修改|重置)"
    r"\*{0,2}[ \t]*[:=：|]\*{0,2}[ \t]*[\"'`“‘]?$"
)
ARROW_AFTER = re.compile(r"[\"'`”’]?[ \t]*(?:→|->|=>)")
# How far back a list's heading is looked for: a list of machines or accounts.
LIST_SECTION_WINDOW = 1500
# Six digits and their dot: fewer is a measure's or a version's number (``2.5``, ``10.15``)
DOTTED_DIGITS = 6
LIST_ITEM = re.compile(r"[ \t]*[-*+][ \t]+\S")
# A line that labels the list under it, bold or not, ending in its colon: ``**Credentials:**``
LEAD_IN_LABEL = re.compile(
    r"[ \t]*(?:\*\*|__)?[^\n*_:：]{1,40}(?:\*\*|__)?[:：](?:\*\*|__)?[ \t]*\r?"
)
# A cloud region or zone ("account: acme-prod/eu-west-1", "us-central1-a"): a continent's or
# country's code or name first, as the clouds name them; "kestrel-ec2" is a chosen key
REGION = re.compile(
    r"^(?:us|eu|ap|sa|ca|me|af|il|mx|cn|asia|europe|northamerica|southamerica|australia|africa)"
    r"(?:-(?:north|south|east|west|central|northeast|northwest|southeast|southwest|gov|iso[a-z]?))+"
    r"-?[0-9]{1,2}[a-z]?(?:-[a-z])?$"
)
# An issue, a pull request or a page's anchor: "owner/repo#505", "repo#setting-up".
ISSUE_REFERENCE = re.compile(r"^[a-z][a-z0-9._-]*#[a-z0-9-]+$")
# ``--color-amber``, ``--no-verify``: a CSS custom property or a command-line flag, a name
FLAG_NAME = re.compile(r"^--[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
# ``#id_password``, ``.login-form``: a CSS selector (a form's field a test fills), a name
SELECTOR = re.compile(r"^[#.][a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$")
# ``#3DBB6C``: a colour (3, 4, 6 or 8 hex digits), as a design token's value is written
COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
# A package or an action pinned to a version (``actions/upload-artifact@v4``'s second
# part, ``lodash@4.17.21``): a dependency, not a login's password. Words with a capital
# and a bare number (``Hanoi@123``, ``LotusPilot@2027``) are how people make a password:
# package managers name packages in lower case (``node@20``, ``python@3``).
PINNED = re.compile(r"^(?![\w-]*[A-Z][\w-]*@\d+$)[A-Za-z][\w.-]*@v?\d+(?:\.\d+)*$")
# A span of time, as a token's lifetime is given (``defaults to 15-minutes``, ``30d``).
DURATION = re.compile(
    r"^\d+[-_ ]?(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?"
    r"|months?|y|years?)$",
    re.I,
)
# A release's number (``v10.4.2``, ``1.24.3-rc1``), as a changelog line gives it.
VERSION = re.compile(r"^v?\d+(?:\.\d+){1,3}(?:[-+][0-9A-Za-z.]+)?$")
# ``ADMIN_PASSWORD_HASH=<value>``: a hash's value (bcrypt, sha) is long and in a hash's
# alphabet; a short plain value there is a password stored in the wrong variable
HASH_NAMED = re.compile(
    r"(?:hash|哈希|散列|雜湊|杂凑|ハッシュ|해시)[\w-]{0,10}\)?\*{0,2}[\"'`]?[ \t]*[:=：]\*{0,2}"
    r"[ \t]*[\"'`]?$",
    re.I,
)  # "**Backup passphrase (SHA-256 hash):**": a bold label, its hash named in brackets;
# "**令牌哈希**:" (a token's hash), in the scripts that name one too
# Telegram's ``api_hash`` is no digest: the secret half of an app's API credentials, 32 hex
API_HASH = re.compile(r"api_hash[\"'`]?[ \t]*[:=][ \t]*[\"'`]?$", re.I)
TELEGRAM_API_HASH = re.compile(r"[0-9a-f]{32}")
HASH_VALUE = re.compile(r"^[$./A-Za-z0-9]{20,}$")
# Whole values that are placeholders in documentation, whatever the rule.
PLACEHOLDER_WORDS = frozenset(
    """password passwords passwd pass pwd secret secrets token tokens user username admin root
    guest postgres mysql required optional none null true false undefined string config settings
    environment variable value hidden masked credentials creds apikey api_key api-key apitoken
    api_token accesstoken access_token secretkey secret_key""".split()
    # the key a local model server takes whatever it is, as its docs fill it in
    + "ollama lmstudio lm-studio not-needed sk-no-key-required".split()
    # a password's or a key's word in another language where the value goes
    # (``sshpass -p "пароль"``, ``-p'contraseña'``)
    + "пароль contraseña contrasena senha passwort kennwort mdp clave secreto".split()
    + "токен ключ секрет 密码 密碼 口令 パスワード 비밀번호 비번".split()
    # a verdict on a password where one would go ("das Passwort ist falsch!!!")
    + "falsch richtig korrekt wrong incorrect correct invalid faux incorrecto errada".split()
)
# The kinds a stand-in value names itself by (``dev-token-123``, ``dbpass``).
COUNT = "123456789"
KIND_WORDS = (
    *("pass", "password", "passwd", "secret", "token", "key", "apikey"),
    *("senha", "contrasena", "passwort", "kennwort"),  # a password, in the corpus's languages
)
SELF_NAMED_SPLIT = re.compile(r"[-_]")
VERSION_PART = re.compile(r"v[0-9]{1,2}")
MIN_REPEATED_PIECE = 4
MAX_REPEATED_PIECE = 32  # a name, a test word and a count; and the loop stays short
# a name's letters, a test's word and a count: ``nikunjtest123`` (``demo7Kq2`` is drawn)
TEST_FILL_PIECE = re.compile(r"[a-z]*(?:test|demo|example|sample|dummy|fake)[0-9]{0,4}")
# A length's unit, after the number a template's value states (``-64-chars-minimum``)
LENGTH_UNITS = frozenset("char chars characters bytes bits digits".split())
# A stand-in run together of three words at least (``mysecretpass``), each of at most ten
# letters (``production``)
RUN_IN_WORDS = 3
LONGEST_RUN_IN_WORD = 10
STAND_IN_WORDS = frozenset(
    """dev local test testing my db demo dummy fake sample example some foo bar your secure
    new old strong super ci e2e jwt insecure unsafe not for production use only wrong invalid
    segura seguro forte fuerte sicher stark teste prueba nova nueva neu
    mein meine dein deine sichere sicheres sicheren starkes neues minha""".split()
)
# What a test's value is for, in its name (``test-webhook-secret-e2e``, ``test-admin-password``,
# ``test-agent-password-12345``)
USE_WORDS = frozenset(
    """webhook signing session api admin app auth client server user db database access refresh
    encryption cookie csrf integration unit stripe agent worker seed""".split()
)
# A stand-in's first word, then digits (a closing ``!``): ``Test1234!``, ``Demo2024``.
LEADING_STAND_INS = frozenset({"test", "demo", "dummy", "fake", "sample", "example"})
# The words that make a value of words an example's wherever they stand (not "test": a test
# system's key is a key)
EXAMPLE_WORDS = LEADING_STAND_INS - {"test"} | {"placeholder"}
MAX_FIXTURE_COUNT = 3  # "-001": an example's count; "-2931" may be a year or a chosen number
# ... and the first word of a value named for its use, the stage it is used in too
# (``dev-webhook-secret-1234``, ``e2e-admin-pass-123``)
LEADING_STAGES = LEADING_STAND_INS | {"dev", "local", "e2e", "ci"}
# ... its number a fixture's (``-1234``, ``-2024``), not a drawn run (``-58203948571029``)
MAX_FIXTURE_DIGITS = 6
# A line opening or closing a fenced code block, in a list or a quote too: its marker.
FENCE_LINE = re.compile(r"^[ \t>]*(`{3,}|~{3,})", re.M)
# A digit or symbol written for a letter inside a word (``Str0ng``, ``P@ss``), and a symbol
# joining two words (``Strong!Pass``)
LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
LEET_INSIDE = re.compile(r"(?<=[A-Za-z])[013457@$](?=[a-z])")
WORD_JOINING_SYMBOL = re.compile(r"(?<=[a-z])[!#._-](?=[A-Z])")
# A login and its slash right before a password (``aaron_vercel` / ``), in backticks or not
NAMED_LOGIN_BEFORE = re.compile(
    r"(?:^|[\s(`*:])`?([A-Za-z][\w.+-]{2,40}(?:@[\w-]+(?:\.[\w-]+)+)?)`?[ \t]*/[ \t]*`?$"
)
EXAMPLE_ADDRESS = re.compile(
    r"@(?:[\w-]+\.)*(?:example|test|demo|sample|localhost|invalid|company|mycompany"
    r"|yourcompany|domain|yourdomain|mydomain|acme)(?:\.|$)"
)
# The words of the logins a sample gives (``admin1``, ``demo_user``, ``alice``, ``jdoe``)
SAMPLE_LOGIN_WORDS = (
    *("admin", "user", "root", "login", "guest", "operator", "test", "demo", "example"),
    *("sample", "dummy", "fake", "your", "foo", "john", "jane", "doe", "smith", "alice", "bob"),
    *("charlie", "someone", "viewer", "editor", "customer", "usuario", "postgres", "mysql"),
    *("ubuntu", "name"),
)
# camelCase parts of a stand-in run into its kind (``securePassword123``)
CAMEL_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
# A word, one symbol and a number: ``Test@2031``, ``Hanoi#123``.
WORD_SYMBOL_NUMBER = re.compile(r"([A-Za-z]+)[@#$%*._-]([0-9]+)")
MIN_DISTINCT = 5
# Kinds whose values are not measured (distinct characters, entropy): the rule lists them
# (``known``), or its place proves a password of digits only, a test account's ``1111``.
UNMEASURED = ("known", "digits")
MIN_DIGITS = 4
BYTE_MAX = 255
MIN_BYTES = 8  # distinct values among a key's 64 bytes (a drawn key has about 50)
MAX_PIN_DIGITS = 8
# Eight digits with five distinct ones, one of them three times, have 2.4 bits each.
DIGITS_ENTROPY = 2.0
# A password set under its own key (``storePassword=``, ``DB_PASS:``) mixing letters and
# digits: a person's, judged as the password rules judge one. An eight-character value
# reaches the key rules' 3.0 only with every character distinct (one repeat: 2.75).
PASSWORD_KEY_ENTROPY = 2.5
# The kinds of a person's password, and how long one with a letter, a digit and a symbol
# must be for its distinct characters alone to judge it
PASSWORD_KINDS = frozenset({"mixed", "strong", "symbol", "credential"})
PATTERNED_LENGTH = 8
# The parts of a name: a branch's, a file's (``NOS_v6.0_develop``, ``release/2026-q3``).
NAME_PARTS = re.compile(r"[_/-]")
# A PGP key's id (short, long) or fingerprint, and the words that name one before it
PGP_KEY_ID = re.compile(r"(?:0x)?(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{16}|[0-9A-Fa-f]{40})")
PGP_KEY_LABEL = re.compile(
    r"(?i)\b(?:gpg|pgp|gnupg|openpgp)[ -]?(?:public[ -])?(?:key|ключ|密钥|키)?"
    r"[ -]?(?:id|fingerprint|指纹)?\**[ \t]*[:=：]\**[ \t]*[`'\"]?\Z"
)
# A Wi-Fi band in a network's name (``-5G``, ``_2.4GHz``), and the network before the slash
BAND = re.compile(r"(?i)[-_ ]?(?:2\.?4|5|6)[ ]?g(?:hz)?(?=[-_ ]|$)")
BANDED_FIRST = re.compile(r"[*\"'`]{0,2}([A-Za-z0-9][\w .-]{0,31}?)[*\"'`]{0,2} ?/ ?[\"'`]?\Z")
WIFI_RULE = "wifi-pair"
RELEASE = re.compile(r"[A-Za-z]{0,3}\d+(?:\.\d+)+[a-z]?")  # ``M2.7``, ``v6.0``, ``4.1``
# a file name and its query, a cache-busting version (``store.js?v=6``): a path, no value
ASSET_QUERY = re.compile(
    r"[\w.-]+\.(?:m?js|cjs|css|html?|json|png|jpe?g|gif|svg|webp|ico|woff2?|ttf|map|php)"
    r"\?[A-Za-z_][\w.-]*=[\w.%&=-]*"
)
# ``ticket4521``, ``sprint42``, ``PR-1234`` beside an address: a counted thing's number or a
# tracker's key, not a password
COUNTED = re.compile(
    r"(?i:(?:ticket|issue|sprint|room|pr|task|story|bug|case|order|invoice|build|release|step"
    r"|phase|week|day|floor|seat|gate|page|chapter|section|item|row|line|port)[-_#]?\d+)"
)
ISSUE_KEY = re.compile(r"[A-Z][A-Z0-9]{1,9}-\d+")
# an XML or HTML attribute's name and its ``=``, the value quoted after it
ATTRIBUTE_NAME = re.compile(r"[A-Za-z_][\w.-]{0,40}=")
# The name of a URL query's parameter and its ``=``, the value next: ``?token=``, ``&key=``
QUERY_PARAMETER = re.compile(r"[?&][A-Za-z_][\w.-]{0,30}=$")
# A label that names a token, its separator and an opening quote after it: ``token='``
TOKEN_LABEL = re.compile(r"(?i:token|jeton)[\"'`*_]*[ \t]*(?::=|=>|[:=])[ \t]*[\"'`]?$")
# ``a-b-c``: fewer parts are KEBAB_CASE's (two or three lower-case words)
MIN_HYPHENATED_WORDS = 3
# A comparison right after a value makes it an operand: ``PASS: Stage1 == Stage2``
COMPARISONS = ("==", "!=")
COMPARED_WINDOW = 8
# SNMP's default communities, and a meeting link's passcode parameter.
SNMP_DEFAULTS = frozenset({"public", "private"})
# ``community`` as the label right before the value, alone (``Community (customer family) |
# ``, ``Engaged Community:** ``): no ``community string``
COMMUNITY_LABEL = re.compile(
    r"(?i)\bcommunity(?:[ \t]*\([^)\n]{0,30}\))?[ \t*_]*(?:[:=：|]|\bis\b|\bwas\b)?[ \t*_`\"']*$"
)
COMMUNITY_RULE = "password-phrase"  # the rule whose words hold `community`
PASSWORD_PHRASE_RULE = "password-phrase"  # noqa: S105 - a rule's name
SNMP_OR_PASSWORD = re.compile(r"(?i)snmp|pass|pwd|密码")
MEETING_PASSCODE = re.compile(r"(?i:zoom\.us/\S*[?&]pwd=|meet\.jit\.si/\S*[?&]password=)$")
# WMI's namespaces under ``root`` (``root/cimv2``) and the words that say one is meant.
WMI_NAMESPACES = frozenset(
    "cimv2 standardcimv2 securitycenter securitycenter2 wmi default subscription rsop"
    " interop virtualization virtualization/v2 hardware policy directory ccm mscluster"
    " webadministration microsoftdfs microsoftiisv2".split()
)
WMI_WORDS = re.compile(r"(?i:\b(?:wmi|cim|wbem|namespace|get-ciminstance|get-wmiobject)\b)")
# A password right after an e-mail login and a slash (``tester@shop.io / Testtest1``): the
# pair says what it is, and a test account's password repeats its letters (its distinct
# characters, ``MIN_DISTINCT``, still judge it), so the digits' entropy is asked of it.
EMAIL_LOGIN_BEFORE = re.compile(
    r"[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+[\"'`]? ?/ ?[\"'`]?$"
)
# A server's system account after SSH on its line (``- SSH: root / <value>``): the pair
# says what it is, and a server's password a person chose repeats its digits
SERVER_LOGIN_BEFORE = re.compile(
    r"(?i)\bssh\b[^\n]{0,30}?(?<![\w.-])(?:root|admin|administrator|ubuntu|ec2-user|debian)"
    r"[\"'`]? ?/ ?[\"'`]?$"
)
PASSWORD_KEY = re.compile(  # a bold label too: "- **Pass:** `<value>`"
    r"(?i:pass(?:word|wd)?|pwd)\*{0,2}[\"'`]?[ \t]*(?::=|=>|[:=：])\*{0,2}[ \t]*[\"'`]?$"
)
# A value whose place alone proves it a password (``sshpass -p``) may be short: "hunter".
MIN_DISTINCT_ANY = 4
# Words prose puts where a password would be ("password: required", "--password option"):
# a value that is a word needs more than a keyword to be a password.
COMMON_WORDS = frozenset(
    """required optional changed change reset hidden protected encrypted hashed stored masked
    unknown unset empty missing blank same different default generated random expired invalid
    valid correct incorrect wrong needed necessary mandatory disabled enabled removed rotated
    updated provided supplied given shared secure strong weak option options flag argument
    parameter param instead prompt prompted field here there this that only also with from
    when then must should will cannot none nothing something anything value values string
    text input output length characters letters digits numbers before after below above
    file stdin login logout user users account accounts admin administrator please enter
    again first later manager vault keychain bitwarden lastpass dashlane keepass onepassword
    authentication authorization credentials secret secrets unchanged elsewhere temporary
    configured inherited passwordless omitted interactive nopassword through redacted
    withheld flags arguments parameters params fields prompts""".split()
)
# Names of a secret, not the secret (one pattern, one call per value): where a tool reads
# it from ("--password env:GITHUB_TOKEN", "op://vault/item"), an API token's id
# ("user@realm!tokenname": Proxmox, PBS), a build service's secret by its name (EAS's
# "@MY_SECRET_NAME"; a name of letters alone, "@MYSECRET"; not "@HERON2031", a name and a
# year as an access code is made).
SECRET_NAME = re.compile(
    r"^(?:(?:env|file|fd|stdin|keychain|op|vault|ssm|cmd|exec)[:=]|[\w.-]+@[\w.-]+![\w.-]+$"
    r"|@(?-i:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]+)$)",
    re.I,
)
# A URL's password that is a password word after a name, or none (``fern_password``,
# ``fernpass``, ``password``), on a host that is this machine or a service of a compose
# network (a name with no dot: ``@postgres:5432``, ``@db``): a template's default.
DEFAULT_PASSWORD = re.compile(r"(?:[A-Za-z0-9]+[_-]?)?(?:password|passwd|pass|pwd)", re.I)
LOCAL_HOST = re.compile(
    r"@(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|[A-Za-z][A-Za-z0-9_-]*)(?![\w.-])"
)
# Keys their issuers make to be public, shipped in every browser or app that uses them, by
# their documented prefixes: a publishable key (Stripe's and Clerk's "pk_live_"/"pk_test_",
# Supabase's "sb_publishable_"), a PostHog project key ("phc_"), a Mapbox public token
# ("pk.eyJ..."). Their secret counterparts ("sk_live_", "sb_secret_", "phx_", "sk.") are not.
# The OAuth clients Google's command-line tools embed (the Firebase CLI, gcloud and its
# application-default login), by their client ids' project numbers: installed apps whose
# secrets are in the tools' open source
PUBLIC_CLI_CLIENT_ID = re.compile(
    r"\b(?:563584335869|32555940559|764086051850)-[a-z0-9]{32}\.apps\.googleusercontent\.com"
)
# Any Google OAuth client id: the nearest one before a secret is the secret's client
GOOGLE_CLIENT_ID = re.compile(r"\b[0-9]{6,}-[a-z0-9]{32}\.apps\.googleusercontent\.com")
CURRENT_CLIENT_SECRET = "GOCSPX-"  # noqa: S105 (a prefix, no secret)
CLIENT_SECRET_LABEL = re.compile(r"(?i)client[_-]?secret[\"']?[ \t]*[:=][ \t]*[\"'`]?\Z")
PUBLIC_CLIENT_REACH = 300
# ... and Paddle's client-side token (``live_`` or ``test_`` and 27 hex digits), which
# Paddle.js is given in every page's script: "safe to publish", Paddle's documentation says
PUBLISHABLE = re.compile(
    r"^(?:pk_(?:live|test)_|sb_publishable_|phc_|pk\.eyJ|(?:live|test)_[0-9a-f]{27}$)"
)
# A Firebase web app's API key: Google's key format, named for Firebase on its line, or the
# ``apiKey`` of a web app's config object opened on the lines just before. It identifies
# the project to Google and ships in every client of the app (Firebase's security rules
# guard the data), so it is public by design; a key for another of Google's APIs on its
# line (Gemini, Maps, Translate; an FCM server key; a Cloud Functions setting) is not.
FIREBASE_KEY_LINE = re.compile(r"(?i:firebase)")
FIREBASE_CONFIG = re.compile(r"(?i:firebaseConfig|initializeApp\()")
CONFIG_API_KEY = re.compile(r"\bapiKey[\"']?\s*[:=]")
OTHER_GOOGLE_API = re.compile(
    r"(?i:gemini|generative|genai|maps|places|youtube|vertex|palm|vision|translat|fcm"
    r"|server[ _-]?key|messaging|functions:config|config:set)"
)
FIREBASE_CONFIG_LINES = 4
FIREBASE_ITEM_REACH = 1000  # characters read back for the item a key is listed under
# A Google Chat webhook's URL (``https://chat.googleapis.com/v1/spaces/<space>/messages?key=
# AIza...&token=...``): its key is the one API key Google gives every such webhook, public;
# its token is the secret. The host begins the URL (a path or a query naming it is another
# host's); the query may be HTML-escaped (``&amp;``).
CHAT_WEBHOOK_KEY = re.compile(
    r"(?<![\w./?=&-])(?:https?://)?(?i:chat\.googleapis\.com)/v1/spaces/[^\s/?]+/messages\?"
    r"(?:[^\s&]*(?:&amp;|&))*key=\Z"
)
CHAT_WEBHOOK_REACH = 200  # characters before the key: the URL's space name and query
# A coverage badge's image URL (``codecov.io/gh/<owner>/<repo>/graph/badge.svg?token=``):
# Codecov makes that token to be pasted into a README; it shows a graph and opens nothing.
COVERAGE_BADGE = re.compile(
    r"(?<![\w.-])(?:https?://)?(?i:codecov\.io)/[^\s?]*(?i:badge\.svg|/graphs?/[^\s?]*)"
    r"\?(?:[^\s&]*(?:&amp;|&))*token=\Z"
    # a chat group's invite link (Feishu's and Lark's ``add_by_link``): shared to be joined
    r"|(?i:applink\.(?:feishu\.cn|larksuite\.com))/[^\s?]*add_by_link\?(?:[^\s&]*&)*link_token=\Z"
)
# A placeholder for an address or a hash in hexadecimal, named where its digits go:
# ``0xTokenContractAddress``, ``0xRecipientAddress``
HEX_NAMED = re.compile(r"^0x(?:[A-Z][a-z]+){2,}$")
# Names that are no secrets under the labels that name them (``_named_not_secret``): a
# MultiversX (ESDT) token's identifier, its ticker and six hex digits (``COLS Token:
# `COLS-9d91b7` ``); an app's path of an organisation's slug and the app's words (LogRocket's
# ``vn4kxj/fern_test``)
TOKEN_TICKER = re.compile(r"([A-Z][A-Z0-9]{2,9})-[0-9a-f]{6}")
APP_SLUG = re.compile(r"[a-z0-9]{3,12}/[a-z]+(?:[_-][a-z]+)+")
# ... and two public wherever they stand, a password's label before them or not: a pump.fun
# token's mint, base58 ending in "pump" (``## Token: <mint>``; a drawn key ends so once in
# eleven million, and no one chooses such a password), and a Tailscale key's id alone, its
# secret part cut or starred (``tskey-api-<id>CNTRL...``, ``tskey-api-<id>CNTRL-*``)
PUMP_MINT = re.compile(r"[1-9A-HJ-NP-Za-km-z]{28,40}pump")
TAILSCALE_KEY_ID = re.compile(r"tskey-[a-z]+-[A-Za-z0-9]{4,40}CNTRL(?:-\**)?")
# ... the labels they come under: a token's (the ticker named before it too) and a key's or an
# app id's; never after a password's word (``PASSWORD_WORD``, below)
TOKEN_WORD = re.compile(r"(?i:\btokens?\b|\besdt\b)")
APP_KEY_LABEL = re.compile(r"(?i:\bapi[ _-]?key|\bapp[ _-]?id|\bkey)\b")
# A key's fingerprint: its digest's name and a colon right before, the digest's shape
# (``SHA256:<43 base64>``, ``MD5:<16 hex pairs>``); an HMAC key after ``HMAC-SHA256:`` is a key
FINGERPRINT_BEFORE = re.compile(r"(?<![\w-])(?i:sha256|sha1|md5):$")
FINGERPRINT_VALUE = re.compile(
    r"[A-Za-z0-9+/]{27}=?|[A-Za-z0-9+/]{43}=?|(?:[0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2}"
)
# A project's versioned name after its owner's name in capitals, where a pair's password
# would be (``Liberty-Emporium / echo-v1``: a repository, not a login and its password;
# ``admin / welcome-v2`` is a login's password)
VERSIONED_NAME = re.compile(r"[a-z]+(?:[-_][a-z]+)*[-_]v\d{1,2}")
OWNER_BEFORE = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)+\** ?/ ?\**$")
# Composio's keys (``ak_``, ``oak_``, a consumer's ``ck_``) and Follow Up Boss's (``fka_`` is
# "formerly known as" too): words run together after the prefix, or words joined by ``_`` or
# ``-`` (each of two letters or more, in one case or capitalised), are a name in code; a drawn
# key's parts mix case and digits
COMPOSIO_RULE = "composio-api-key"
PREFIXED_KEY_RULES = frozenset({COMPOSIO_RULE, "follow-up-boss-api-key"})
JOINED_WORDS = re.compile(
    r"(?:[a-z]{2,}|[A-Z]{2,}|[A-Z][a-z]+)(?:[_-](?:[a-z]{2,}|[A-Z]{2,}|[A-Z][a-z]+))+"
)
CAPITALISED_WORDS = re.compile(r"(?:[A-Z][a-z]+){3,}")
# A Google app password in quotes is one after a code's, a login's or a mail's word on its
# line (``Använd koden "<value>"``), not a list of four tools in quotes
GOOGLE_QUOTED_RULE = "google-app-password-quoted"
GOOGLE_LEAD = re.compile(
    r"(?i:kod|code|c(?:ó|o)digo|login|logga|inlogg|anmeld|\bapp\b|gmail|smtp|secret|credential)"
    r"|コード|验证码|授权码"
)
# A password of two parts around one dot (``Kpx482.Mvt951``) after its label or on a command
# line's password flag, where a dotted name would be an attribute
COMMAND_LINE_RULE = "command-line-password"
DOTTED_PARTS = 2  # a password of two parts around one dot; a version or a path has more
MIN_DOTTED_PART = 4  # ``utf8.v2``: a name and a version, no password's half
# A password's bare value after "changed to" or "is now", and the words joined by ``-`` with
# a setting's word among them that describe it there instead (``2FA-enforced``, ``Argon2id-v19``)
CHANGED_TO_BARE = re.compile(r"(?i)\b(?:to|now)[ \t]+$")
HYPHENATED = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+")
DESCRIPTOR_PART = re.compile(
    r"(?i)enforced|required|enabled|disabled|protected|only|based|less|free|hashed|encrypted"
    r"|salted|argon2(?:id|i|d)?|bcrypt|scrypt|pbkdf2|sha\d+(?:crypt)?|md5(?:crypt)?"
)
# ``授权码：已配置（<value>）``: a status, "configured", then the value in brackets
CONFIGURED_BRACKET = re.compile(r"已(?:配置|设置|設定|更新|保存)[ \t]*[（(][\"'`]?$")
CONFIGURED_NOTE = re.compile(r"(?:[a-z]{2,}|v\d+(?:\.\d+)*)(?:-(?:[a-z]{2,}|v\d+(?:\.\d+)*))+")
# A shell's prompt (``tim@srv1432586:~$``, ``root@box:/srv#``), sudo's own prompt before a
# value, and a quote escaped as an HTML entity inside a word (``that&apos;s``; its ";" may end
# the value, the rules stop there); at a value's end (``<key>&quot``) it closes the value
SHELL_PROMPT = re.compile(r"[\w.-]+@[\w.-]+:[~/][^\s]*[$#]")
SUDO_PROMPT = re.compile(r"\[sudo\] password for [\w.-]+:[ \t]*$")
ESCAPED_QUOTE = re.compile(r"&(?:quot|apos|#0*3[49]|#x0*2[27]);?(?=[A-Za-z])", re.I)
# "<key> active: <value>" is often a status line, "<key> is: <value>" a sentence saying
# what it is: only a key's shape is a key there (mixed case and a digit, or 32 hex digits
# and more), not ``since-2026-05-01`` or ``rotated-weekly-v2``
ACTIVE_LABEL = re.compile(r"(?i:\b(?:active|is))\*{0,2}[ \t]*[:=：]\*{0,2}[ \t]*[\"'`]?$")
LONG_HEX = re.compile(r"[0-9a-fA-F]{32,}")
# A keyboard shortcut where a value would be ("- Step over: F10 / Ctrl+F10")
KEY_COMBO = re.compile(r"(?i)\b(?:ctrl|shift|alt|cmd|command|option|opt|fn|meta|super|win)\+")
# A key named for what it signs, encrypts to or looks up, or noted as public: "GPG key
# (signing)", "AGE key (public recipient)", "S3 key (object)", "CACHE_KEY (per tenant)"
NOTED_PUBLIC = re.compile(
    r"(?i)\b(?:gpg|pgp|ssh|age|ipns|s3|cache|idempotency)[ _-]key\b"
    r"|\([^)\n]*\b(?:public|fingerprint|signing|recipient|object|id)\b[^)\n]*\)"
)
LABEL_AFTER = re.compile(r"\w[ \t]*[:=：]")
# ... unless a password's word is the value's own label (``SSH key passphrase: <value>``,
# ``had a passphrase (`<value>`)``); not a word saying what the key is for (``GPG key used by
# pass: <id>``, ``IDEMPOTENCY_KEY for password reset: <hex>``)
PASSWORD_AFTER_NOTE = re.compile(
    r"(?:(?i:passphrase|password|passwd|pwd)|密码|密碼|口令|パスワード)\W{0,4}$"
)
# The label right before a value naming a key that is data or public, not a secret
# ("**Partition Key**: `...`", "- **Public Key**: `...`", "Site key: ..."); "Primary Key"
# only before a short value (Azure calls its long account keys "primary keys")
DATA_KEY_LABEL = re.compile(
    r"(?i)(?:\b|_)(primary|foreign|partition|sort|lookup|row|dedup|index|public|site|anon"
    r"|publishable|recipient|kms|header|content[ _-]api|storage|localstorage|registry|flag"
    r"|feature|translation|i18n|event|request|order|idempotency|cache)[ _-]key"
    r"[*_`'\"]*[ \t]*[:=：][*_`'\"]*[ \t]*[*_`'\"]*\Z"
)
# Ghost's Content API key: 26 hex digits, read-only access to published posts, which Ghost
# says is safe in a browser (its Admin API key is an id, a colon and a 64-digit secret)
GHOST_CONTENT_KEY = re.compile(r"[0-9a-f]{26}")
LONG_PRIMARY = 40
# A key's or a token's id named where a value goes ("api_key_id": ..., "tokenId": ...): an
# identifier the service shows, not the secret
KEY_ID_LABEL = re.compile(
    # ``token_pair_b_id``: a name's middle words between the kind and its id
    r"(?i)(?:(?:api[ _-]?key|key|token|secret)(?:[ _-]?|(?:_[a-z0-9]+){1,3}_)ids?"
    # Feishu's and Lark's documents are named by tokens: ids, no credentials
    r"|\b(?:node|obj|doc|docx|file|folder|wiki|sheet|space|block|table|parent)[_-]token"
    r"|(?:文件夹|文件|文档|节点|知识库|表格) ?token)"
    r"[\"'`*]{0,3}[ \t]*[:=：][ \t]*[\"'`*]{0,3}\Z"
)
# A code a link hands out to be shared: an invitation's, a referral's, a coupon's in its
# query (``?inviteCode=rh-v1382``), no one's credential; an admin's invite code in a
# settings file (``ADMIN_INVITE_CODE=...``) opens an account, and stays one
SHARED_CODE_LABEL = re.compile(
    r"(?i)[?&](?:invit(?:e|ation)|referr?al|promo|coupon|affiliate)[_-]?code=\Z"
)
# Chinese, Japanese or Korean text, or full-width punctuation: no issuer draws a key from
# them (``| 每瓦Token吞吐量 |`` over ``25万Token（专用加速器高效率）``: a table's figures)
WIDE_TEXT = re.compile("[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")
DRAWN_KINDS = frozenset({"key", "token"})
# A model's name where a value goes (``**The MoE Secret:** `qwen3-next-80b-a3b` ``): lower
# case parts joined by hyphens, one of them the model's size in parameters (``80b``, ``a3b``
# for the active ones, ``1.2b``), which no drawn key or chosen passphrase spells
MODEL_SIZE = re.compile(r"a?\d+(?:\.\d+)?[bm]")
MODEL_PART = re.compile(r"[a-z0-9.]+")
MIN_MODEL_PARTS = 3
HEX_DIGITS = frozenset("0123456789abcdef.")
# A Coinbase (CDP) key's name, the organisation's and the key's ids: named with its secret,
# never the secret (``organizations/<uuid>/apiKeys/<uuid>``)
CDP_KEY_NAME = re.compile(r"organizations/[0-9a-f-]{36}/apiKeys/[0-9a-f-]{36}")
# A Feishu Bitable's "app_token" is the base's id, given with its table's (``tbl...``): the
# label, then a table id or the word on a line near it
APP_TOKEN_LABEL = re.compile(r"(?i)\bapp[ _]?token[*_`'\"]*[ \t]*[:=：][ \t*_`'\"]*\Z")
BARE_TOKEN_LABEL = re.compile(r"(?i)(?:^|[\s*_>|-])token[*_`'\"]*[ \t]*[:=：][ \t*_`'\"]*\Z")
BITABLE_TOKEN = re.compile(r"[A-Za-z0-9]{20,32}")  # a base's id: letters and digits alone
# A code block that is a documentation's example: it names an example's host or address
# (RFC 2606's example.com) or elides another value ("cck_live_7f3e..."), so its other
# values are the example's too
EXAMPLE_BLOCK = re.compile(
    r"(?i)[@/.]example\.(?:com|org|net)\b|[\"'`][A-Za-z0-9_-]{3,}(?:\.\.\.|…)[\"'`]"
)
BLOCK_REACH = 2000  # a block longer than twice this is read near the value only
# A bare "- Key: <value>" names no credential: what the lines above say decides (a GPG
# key's fingerprint, a VAPID or reCAPTCHA site key are public), and hexadecimal alone is
# a fingerprint's or a digest's shape as often as a key's
BARE_KEY_RULE = "key-label-bare"
API_PROSE_RULE = "service-api-prose"
BARE_KEY_RULES = frozenset({BARE_KEY_RULE, API_PROSE_RULE})
# An API's object named by its id after the API's label in prose: a lower-case kind and
# ``_`` or ``-`` (Stripe's ``price_``, ``evt_``, OpenAI's ``asst_``, ``org-``, a request's
# ``req_``), a YouTube channel's or playlist's id, an IPFS CID, a Google place's id
API_OBJECT_ID = re.compile(
    r"[a-z]{2,6}[_-][A-Za-z0-9_-]+|UC[\w-]{22}|PL[\w-]{16,32}|Qm[1-9A-HJ-NP-Za-km-z]{44}|ChIJ[\w-]+"
)
# ... or a slug of words (``LIN-1234-fix-login-redirect-bug``, an issue's branch)
API_SLUG_WORDS = re.compile(r"(?:^|-)[a-z]{3,}-[a-z]{3,}(?:-|$)")
# ... or one the words after it name (``<id> is the tracker sheet``, ``<id> (Rachel voice)``)
API_ID_NAMED_AFTER = re.compile(
    r"[^\n]{0,24}?\b(?i:ids?|uids?|file|sheet|doc|document|channel|playlist|page|voice|hash"
    r"|plan|model|project|workspace|org|account|address|tx)\b"
)
BARE_KEY_PUBLIC = re.compile(
    r"(?i)\b(?:gpg|pgp|signing|fingerprint|vapid|public|recaptcha|site key|keyserver|digest"
    r"|checksum|sha-?\d+)\b"
)
BARE_KEY_CONTEXT = 3  # lines above read
HEX_ONLY = re.compile(r"[0-9a-fA-F]+")
NOTED_REACH = 80
# A schema's type where a value would be (GraphQL's ``password: String!``): a scalar or an
# input's name, made non-null
SCHEMA_TYPE = re.compile(
    r"\[?(?:String|Int|Float|Boolean|ID|DateTime|Date|Time|JSON|Upload|UUID|Email|URL"
    r"|[A-Z][A-Za-z]*(?:Input|Payload))!?\]?!"
)
# Three words or more of a script without Latin letters joined as an identifier's parts
# (a password may be two, "Зима-2026"), where a value goes: an instruction
# (``SESSION_SECRET=<"generate a random string" in Russian>``), no value
NATIVE_WORDS = re.compile(
    r"[^\W\d_A-Za-z]{2,}(?:_[^\W\d_A-Za-z]{2,}){2,}(?:_(?:[^\W\d_A-Za-z]{2,}|\d+))*"
)
# A list API's page cursor: base64 of a small JSON object of these fields
MAX_CURSOR = 64
CURSOR_JSON = re.compile(r'\{ ?"(?:page|offset|cursor|start|last_id|after)" ?: ?"?\d')
# The rule reading a URL's ``?key=``: base64 of text there is a cursor's or a date's
URL_KEY_RULE = "url-query-key"
# The runs a doc types for a value's letters and digits
TYPED_RUNS = ("abc", "def", "ghi", "jkl", "mno", "xyz", "123", "456", "789", "012")
MIN_TYPED_RUNS = 5
MIN_RUNS_ONLY = 4  # "abc123def456"; "abc123" alone is a weak password as often
MIN_TYPED_KEY = 24
# A vendor's prefix on a typed stand-in ("sk-", "pk_")
VENDOR_PREFIX = re.compile(r"[a-z]{2,4}[-_]")
MIN_STEPPED_PAIRS = 5
# A name, then the keyboard's stand-ins for a value (``hermes-abc123xyz``): three runs or
# more, letters' and digits' both ("Fern-123456" is a weak password, not a stand-in)
STAND_IN_TAIL = re.compile(r"(?i)[a-z][\w]*[-_.]((?:abc|def|xyz|123|456|789){3,})")
LETTER_RUNS = ("abc", "def", "xyz")
# App credentials published with a client's source, the same in every copy: Telegram
# Desktop's and Telegram for Android's api_hash (tdesktop's and Telegram-Android's code)
PUBLISHED_APP_HASHES = frozenset(
    {"b18441a1ff607e10a989891a5462e627", "eb06d4abfb49dc3eeb1aeb98ae0f581e"}
)
# The hashes of the commonest passwords (``"password":"e10adc39..."``, MD5's of ``123456``):
# a test's or a doc's stand-in, which every cracking list holds. Only words that are stand-ins
# written plain too, and ``123456``, whose MD5 is the fixture of countless login tests (a
# site's ``admin123`` is a weak password, and its hash, sent by a client that hashes, the
# credential itself)
COMMON_PASSWORD_HASHES = frozenset(
    hashlib.new(name, word.encode(), usedforsecurity=False).hexdigest()
    for name in ("md5", "sha1", "sha256")
    for word in (
        *("123456", "12345678", "123456789", "1234567890", "111111", "000000"),
        *("password", "admin", "qwerty", "abc123", "test", "root"),
    )
)
# What became of a key, said where its value would be: "OpenAI API Key: Auto-revoked"
STATUS_WORD = re.compile(
    r"(?i:(?:auto|already|now|since|was|been)[-_ ]?)?"
    r"(?i:revoked|rotated|expired|disabled|deleted|removed|invalidated|deactivated)"
)
# A state's word of two parts after a label's colon, and prose after it ("Schwab token:
# Auto-refreshing perfectly", "Self-hosted since"): a participle, no password
# ("Secret-garden" on a command line is one)
COMPOUND_STATE = re.compile(r"[A-Z][a-z]{2,}-[a-z]{2,}(?:ing|ed)")
PROSE_GOES_ON = re.compile(r" [a-z]{3,}\b")
# ``Private key:`` in words, its label's end right before the value
PRIVATE_KEY_WORDS = re.compile(r"(?i:\bprivate key)\*{0,2}[ \t]*[:：=]\*{0,2}[ \t]*[\"'`]?$")
AGE_RECIPIENT = "age1"  # an age public key, a recipient's; its secret opens AGE-SECRET-KEY-1
# A plural label (``- API keys: Dual-key period with automatic failover``; the plural
# generic-assignment reads) introduces what is said of the keys; a word then prose is its
# sentence's first word
PLURAL_LABEL = re.compile(r"(?i:\bapi[ _-]?keys)\*{0,2}[ \t]*[:：=]\*{0,2}[ \t]*$")
# ... words, each lower case after a capital at most (a drawn key's letters mix cases)
PLURAL_LABEL_WORDS = re.compile(r"[A-Z]?[a-z]+(?:-[A-Z]?[a-z]+)*")
# A document's, an object's, a node's or a space's "token" in Feishu's words (文档令牌,
# 对象令牌, 知识库令牌): its id. A file's (文件令牌) may be an upload's credential, and an
# access token (``t-``, ``u-``) is one whatever its label
DOCUMENT_TOKEN_LABEL = re.compile(
    r"(?:文档|对象|节点|節點|表格|空间|知识库|(?i:wiki))令牌[*_\s]*[:：=][*_\s]*`?$"
)
ACCESS_TOKEN_HEAD = re.compile(r"[tu]-")
# A Supabase project's ref (20 lower-case letters) under a label naming a ref
PROJECT_REF = re.compile(r"[a-z]{20}")
PROJECT_REF_LABEL = re.compile(r"(?i)\bref[*_\s]*[:：][*_\s]*`?$")
# A JWT whose payload (base64url JSON) gives a role that is public by design: Supabase's
# anon key (role "anon") is in every client of the project; its service_role key is not.
JWT_PAYLOAD = re.compile(r"^eyJ[A-Za-z0-9_-]+\.(eyJ[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]")
PUBLIC_ROLE = "anon"
# A label giving a project's anon key, its value right after it
ANON_LABEL = re.compile(
    r"(?i:\banon(?:ymous)?[ _-]?key|_ANON_KEY)[\"'`*]*[ \t]*[:=：][ \t]*[\"'`]?$"
)
# The keys every local Supabase (`supabase start`) prints, the same on every machine and in
# Supabase's own documentation, service_role too: issued by "supabase-demo".
LOCAL_DEMO_ISSUER = "supabase-demo"
# A claim set longer than this is no key's (decoding is linear anyway: a bound, not a need).
MAX_PAYLOAD = 8192
# A design system's tokens (colours, spacing names) are no credentials, in any language:
# "design token: COLORS.ink/primarySoft", "디자인 토큰: ...", "デザイントークン：...".
# A test's result where a password's label could be: "PASS:" in capitals, on a line that
# speaks of a test or of a failure ("smoke test PASS: build42x, FAIL: none").
TEST_STATUS = re.compile(r"\bPASS\*{0,2} ?[:=：]\*{0,2} ?[\"'`]?$")
# A check's equation, the value its left side: ``Assets=Rp 9m = Liabilities``, the value's
# own "=" and a second one after it on its line
EQUATION = re.compile(r"[^=\s]+=[^=\n]+=")
# A result's measure, the value its quantity (``PASS: tau*=0.209``, ``PASS: Omega_DM/Omega_L
# = 5.4e5``): a name, then "=" (or a comparison) and a number
MEASURE = re.compile(
    r"[A-Za-z_][\w*^'./()-]* ?[=≈<>] ?[-+]?(?:\d+(?:[.,]\d+)?|\.\d+)(?:e[-+]?\d+)?%?"
    r"(?=[\s,;)]|$)"
)
# "USER: deploy PASS: ...": a login's name right before the label makes "PASS:" a
# password's, whatever the value's shape ("Summer=2024" is no measure there); a login
# named earlier on the line ("E2E login: ok, smoke test PASS: ...") makes nothing
LOGIN_BEFORE = re.compile(
    r"(?i:\b(?:user(?:name)?|login))\*{0,2} ?[:=：]\*{0,2} ?[`'\"]?"
    # the login's name: a word holding a letter or digit, not a check's status as the whole
    # name ("Login: ✅ PASS:", "login: ok, PASS:"; "user: no-reply@... PASS:" is a name)
    r"(?!(?i:ok|okay|passed|passes|fail(?:ed|s)?|works?|yes|no|done|n/a)[`'\"]?[ \t,;|/])"
    r"(?=[^\s`'\"]*[A-Za-z0-9])[^\s`'\"]+[`'\"]?[ \t,;|/]+"
    r"PASS\*{0,2} ?[:=：]\*{0,2} ?[\"'`]?\Z"
)
TESTED = re.compile(
    r"(?i:\btest(?:s|ed|ing)?\b|\bchecks?\b|\bverif(?:y|ied|ication)\b)|\bFAIL(?:ED|S)?\b"
    r"|\bQ[AC]\b|✅|❌"
)
# "Figma pass:", "second pass:", "fix pass:": a pass of work over something (a round
# of design, review or rendering), no password's label.
WORK_PASS = re.compile(
    r"(?i:\b(?:fix|figma|design|review|first|second|third|final|last|next|another|cleanup"
    r"|clean-up|polish|qa|render|rendering|lighting|shadow|audit|lint|refactor|copy|edit"
    r"|editing|proofreading|optimi[sz]ation|perf|performance|visual|ui|ux|docs|a11y"
    r"|accessibility|layout|style|styling|responsive|mobile"
    r"|later|earlier|prior|previous|subsequent|1st|2nd|3rd|\d+th)"
    r"\*{0,2} pass\b)"
    r"\*{0,2} ?(?:[:=：]|is\b)\*{0,2} ?[\"'`]?$"
)
# What ends a key's label before its value: Markdown's or a quote's dress, ":" or "=".
KEY_LABEL_END = r"[*_`\"']{0,3}[ \t]*[:=][ \t]*[*_`\"']{0,3}$"
# A key named so in capitals, given words joined by hyphens: what it keys, no secret.
KEY_NAMED = re.compile(r"_KEY" + KEY_LABEL_END)
KEBAB_WORDS = re.compile(r"[a-z]+(?:-[a-z]+)+")
# A key path's words (``mail-mcp.app_password``) and those that make it a secret's key.
KEY_PATH_SPLIT = re.compile(r"[._-]")
CREDENTIAL_PARTS = frozenset(
    "password passwd pwd pass secret token key apikey credential credentials creds".split()
)
# Keys that are no secrets by what they key: a public key and a site key (public by
# design), a key's id (GPG), what dedupes a request, a keyboard's shortcut, a sort or a
# cache's, a table's: "VAPID_PUBLIC_KEY: ...", "IDEMPOTENCY_KEY: <uuid>".
NO_SECRET_KEY = re.compile(
    r"(?i:(?:public|site|publishable|idempotency|shortcut|hot|sort|cache|partition|primary"
    r"|foreign|gpg|pgp|ssh|lookup|dedupe?|routing|row|column|index|i18n|translation)[_-]?key)"
    + KEY_LABEL_END
)
# A document's token (Feishu's and Lark's name for a document's, folder's or wiki node's
# id, written in its URL): ``| folder_token | `<id>` |``, ``doc_token: <id>``; an id, no secret.
DOCUMENT_TOKEN = re.compile(
    r"(?i:(?<![A-Za-z0-9_])(?:folder|docx?|document|wiki(?:[_-]?node)?|obj|sheet|spreadsheet"
    r"|bitable|mindnote)[_-]?token)"
    r"[*_`\"']{0,3}[ \t]*(?:[:=：]|\|)[ \t]*[*_`\"']{0,3}$"
)
# A credential's type, kind or format named where a value would be: ``token_type=bearer``
# (an OAuth redirect's query), ``key_type: ed25519``; what kind it is, not the credential.
TYPE_NAMED = re.compile(
    r"(?i:(?:token|key|secret|password|credential)s?[_-](?:type|kind|format|scheme))"
    + KEY_LABEL_END
)
# ... given a type's word (up to a query's next parameter): a random token there is one.
TYPE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,20}(?:&|$)")
DESIGN_TOKEN = re.compile(
    r"(?:(?i:\bdesign[ _-]?tokens?\b)|디자인 ?토큰|デザイン ?トークン"
    r"|设计令牌|設計令牌|设计 ?token)"
    r"(?: ?\([^()\n]{1,24}\))?[ \t*`'\"]*[:=：]?[ \t*`'\"]*$"
)
# The line says the value may be public ("anon key (public, safe to commit): ...").
# A service whose key is published by design, named on the value's line or the item above it.
PUBLISHED_KEY = re.compile(r"(?i:\bindexnow\b)")
PUBLISHED_WINDOW = 120
PUBLIC_NEAR = re.compile(
    r"\bpublishable\b|\bsafe to (?:commit|share|expose|publish)\b|\bnot (?:a )?secret\b", re.I
)
# After a value, the next item of a list joined by slashes; between items, the slash.
LIST_GOES_ON = re.compile(r"""[`'"]? ?/ ?[`'"]?[\w.-]""")
LIST_SEPARATOR = re.compile(r"""[`'"] ?/ ?[`'"]| / """)
# One item between two of them: no space, no quote.
ITEM = re.compile(r"""[^\s`'"/]+""")
# A login and " / " just before a value: a cell's "user / password" pair.
PAIRED = re.compile(r"[^\s|/]+ ?/ ?[`'\"]?$")
SEPARATORS = (":", "=", "：", "|")
# ``verifyStripeSignature2``, ``XHubSignature256``: three words or more and a number, an
# identifier's name where a key would be; a generated key has no run of words
WORDS_IDENTIFIER = re.compile(r"(?:[a-z]{3,}|[A-Z]{1,3}[a-z]{2,})(?:[A-Z][a-z]{2,}){2,}[0-9]{0,4}")
# The value kinds of an issuer's format (``app-password-stated``: lower case letters only)
ISSUED = (None, "letters", "mnemonic", "bytes")
VOWELS = frozenset("aeiouy")
CONSONANT_RUNS = re.compile("[aeiouy]+")
# A price, what a feature named after passwords costs ("Password Manager: +$5/month")
PRICE = re.compile(r"[+~]?[$€£¥₹]\d[\d.,]*(?:-\d[\d.,]*)?(?:/[A-Za-z]+)?")
# A source file and a line in it (``routes/googleAuth.js:7``): where a secret is written,
# as a table of issues names it, not the secret
SOURCE_LINE = re.compile(
    r"[\w./-]+\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kts?|cs|php|swift|c|cc|cpp|h|hpp|sh|sql|ya?ml"
    r"|toml|json|env|ini|conf|md|vue|svelte|dart|ex|exs)(?::\d+(?:-\d+)?)?"
)
# Hex a generator gave, in steps of eight digits, or a UUID, after a vendor's short prefix
# or none (``ctx7sk-<uuid>``): a key's shape under its heading, whatever its length
_VENDOR_PREFIX = r"[a-z][a-z0-9]{1,7}[-_]"
SECTION_KEY = re.compile(
    rf"(?:{_VENDOR_PREFIX})?(?:(?:[0-9a-fA-F]{{8}}){{4,32}}"
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
)
SECTION_PREFIX = re.compile(rf"^{_VENDOR_PREFIX}")
# Prefixes that name a digest or an identifier, not a vendor's key: ``sha256-<hex>``
NOT_KEY_PREFIX = re.compile(
    r"(?:sha\d*|md5|crc\d*|hash|digest|client|id|uuid|commit|build|trace|req(?:uest)?)[-_]"
)
# Lower case encodings that are public by design: a Bitcoin address, an IPFS content id
PUBLIC_LOWER = re.compile(r"(?:bc1|tb1|ltc1|bafy|bafk)[a-z0-9]+")
# Stand-in keys, as a whole value or a whole part of one (``svc-abc123``), in lower case
STAND_IN_PARTS = frozenset({"abc123", "def456", "xyz789"})
# A doc's stand-in for a bot's token: its number, then the keyboard's letter runs alone in
# lower case (``12345689:abc-xyz``); ``Qwerty-2024`` is a weak password, no stand-in
BOT_TOKEN_STAND_IN = re.compile(r"[0-9]{6,}:(?P<runs>[a-z]+(?:[-_][a-z]+)*)")
KEYBOARD_LETTERS = frozenset({"abc", "abcd", "abcdef", "def", "xyz", "xxx", "qwe", "qwerty"})
# A placeholder named for what goes there, in words and a number (``secret-of-bot-1``,
# ``your-api-key-2``): three lower-case words at least, one of them a credential's kind and
# one a word that describes (a passphrase's words name things: ``mountain-pass-river-12``)
DESCRIBED_KIND = re.compile(r"[a-z]+(?:-[a-z]+){2,}(?:-[0-9]{1,3})?")
DESCRIBING_WORDS = frozenset({"of", "your", "my", "for", "the", "here", "a", "an", "goes"})
# ... or in Chinese (``这里写一个固定随机串``: "write a fixed random string here")
CJK_PLACEHOLDER = re.compile(r"这里|此处|填写|填入|替换|换成|你的|您的|随机串|随机字符串")
# ... or a term of prose in CJK quotes (``ownerToken=「写凭证」（16B 随机 hex）``: "the write
# credential", then what it is): a closed bracket of the language's words, then nothing or
# another bracket; a password after a bracketed note (``【生产】Fern#2024x``) or with
# digits inside the bracket (``「天王盖地虎2024」``) stays one
CJK_QUOTED_TERM = re.compile(
    r"[「『【〈《〔（][\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+[」』】〉》〕）](?:[「『【〈《〔（(]|$)"
)
PART_SPLIT = re.compile(r"[-_:/.,]")
# An SSH key's fingerprint as ``ssh-keygen -l`` prints it: names a key, is none
FINGERPRINT = re.compile(r"(?:SHA256|SHA1|MD5):[A-Za-z0-9+/=:]{16,}")
MIN_DRAWN = 32
MIN_DRAWN_UPPER = 16
# A key made of hex digits or a UUID, as printers, backup servers and many APIs issue them.
RANDOM_KEY = re.compile(
    r"^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{40}|[0-9a-fA-F]{64}"
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"
)
# Two names in code joined by a slash (`` `Sys_Label`/`L10nService` ``, a file and its
# variant `` `nav_p5` / `nav_p5_sub` ``): words run together or joined by underscores, one
# of them three lower case letters at least, and no symbol a password would carry.
CODE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*$")
NAME_JOINT = re.compile(r"_|[a-z0-9][A-Z]")
# The words a model's name ends in to name its tier (``-mini``, ``-pro``)
MODEL_TIERS = frozenset(
    "mini nano micro pro max turbo lite plus flash preview latest instruct chat fast large small"
    " medium thinking high low ultra".split()
)
# A capitalised word a class's name inserts into its family's (``WNConv1d``,
# ``WNConvTranspose1d``)
CLASS_WORDS = re.compile(r"(?:[A-Z][a-z]+)+")
LOWER_WORD = re.compile(r"[a-z]{3}")
NUMBER_ASSIGNED = re.compile(r"^([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)=[0-9]+$")
# A field named as code names it: led by an acronym (``NRestarts``), camelCase, snake_case.
CODE_FIELD = re.compile(r"[A-Z]{2,}[a-z]\w*|[a-z][a-z0-9]*[A-Z]\w*|[A-Za-z][A-Za-z0-9]*_\w+")
# A Markdown heading's line (``## Credentials``).
HEADING_LINE = re.compile(r"(?m)^ {0,3}#{1,6}[ \t][^\n]*")
PAIR_RULE = "backticked-pair"
LOGIN_PAIR_RULE = "login-pair"
# An id's field as the "login" of a pair (``Invalid authentication credentials,request_id:
# req_<24>``, an API error's fields run together): the value is the id of a request, a trace
# or a message, not a password
ID_FIELD_BEFORE = re.compile(r"(?:\b(?i:[a-z]+[_-]ids?)|[a-z]+Ids?)[\"']?[ \t]*:[ \t]*[\"']?$")
# ... an id's characters only: a password's marks (``app_id:Fern-Secret-2024!``) make it one
ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{8,}")
# "user" is a common noun ("user auth / OAuth2", "user alice / group2"): after it, only a
# password drawn of both cases and digits, ten characters at least, is one
USER_PAIR_RULE = "user-login-pair"
USER_PAIR_LENGTH = 10
# An Authorization header's value that is its scheme, parameters after it
# (``AWS4-HMAC-SHA256 Credential=...``), or a label's words joined by hyphens
# (``Authorization: JWT-based-RBAC-v2``)
AUTHORIZATION_RULE = "authorization-header"
SCHEME_PARAMETERS = re.compile(r"[ \t]+[A-Za-z][\w-]*=")
LABEL_PART = re.compile(r"[A-Za-z]+[0-9]*|v?[0-9]{1,3}")
# Two names of one series where a pair would be (:func:`_series_pair`): the login right
# before the slash or colon, in backticks or not; names of letters, digits, "-" and "_"
SERIES_RULES = frozenset({"login-pair", "backticked-pair"})
SERIES_LOGIN = re.compile(r"([A-Za-z][\w.-]*)[`'\"]?[ \t]*[/:][ \t]*[`'\"]?$")
SERIES_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
SERIES_PREFIX = 3
# A share link's signature (Xiaohongshu's ``xsec_token=``): made to be shared, no credential
SHARE_TOKEN = "xsec_token="  # noqa: S105 - a parameter's name
# The rules reading a list item's label, then a login and a password after ` / `; a label
# naming the login itself (``- **Username:** <address> / <handle>``) gives two logins
SERVICE_PAIR_RULES = frozenset({"service-login-pair", "service-address-login-pair"})
# A list item's label that names the pair a credential (``- Password: admin / <value>``,
# ``- **Auth:**``, ``- **Login:**``): after it a person's weaker password (a word and digits)
# is one, as it is after ``password:`` itself
CREDENTIAL_ITEM_LABEL = re.compile(
    r"[ \t]*[-*+][ \t]+(?:\*\*)?(?:(?i:pass(?:word|wd)?|passwort|creds?|credentials?"
    r"|zugangsdaten)(?:\*\*)?:"
    # "Auth" and "Login" name a scheme or a provider as often ("- Auth: oauth / google2024"):
    # a credential's only before an administrator's account
    r"|(?i:auth|log ?in)(?:\*\*)?:(?:\*\*)?[ \t]+"
    r"`?(?i:admin|administrator|root|ops|sa|postgres)`? /)"
)
LOGIN_ITEM_LABEL = re.compile(
    r"[ \t]*[-*+][ \t]+(?:\*\*)?(?i:user(?:[ _-]?name)?|login|e-?mail|account|handle|id)s?"
    r"(?:\*\*)?:"
)
# A password's setting named in the clause: what changed is the setting, not the password
PASSWORD_SETTING_WORDS = re.compile(
    r"(?i)\b(?:polic(?:y|ies)|hash(?:ing|es)?|storage|validator|validation|length|expiry"
    r"|expiration|field|column|format|rules?|requirements?|algorithm|scheme|manager|hint"
    r"|complexity|min(?:imum)?|max(?:imum)?)\b"
)
# What a clause names before its value when the value is no credential: a setting of the
# password's (``password validator updated to `zxcvbn-v4` ``), a change's record of an API
# key (``API key leak fixed (<commit>)``), a login call's provider
CLAUSE_NOT_A_VALUE = {
    "changed-to-value": PASSWORD_SETTING_WORDS,
    "corrected-in-brackets": PASSWORD_SETTING_WORDS,
    # ``sha256 of the token <hex>``: the run is the token's digest, not the token
    "token-hex-run": re.compile(
        r"(?i)\b(?:sha-?\d*|md5|hash(?:ed)?|digest|checksum|fingerprint)\b(?: of)?"
        r"(?: the| a| an)?[ \t]+(?:token|api[ _-]?key)[ \t]+`?$"
    ),
    # ``login('anonymous', 'guest@')``: FTP's anonymous login takes an address by custom;
    # ``auth.login('google', 'redirect')``: a provider and a flow, no account's password
    "login-call": re.compile(
        r"(?i)\blogin\([ \t]*['\"](?:anonymous|ftp|guest|google|github|gitlab|sso|oauth2?|saml"
        r"|oidc|okta|azure|microsoft|apple|facebook|twitter|provider)['\"][ \t]*,[ \t]*['\"]$"
    ),
    "api-key-bracketed": re.compile(
        r"(?i)\b(?:commit(?:ted)?|fix(?:ed|es)?|leak(?:ed)?|sha\d*|hash|checksum|digest|docs?"
        r"|revision|rev|pr|merge[ds]?)\b"
    ),
    # ``All security tests pass: `python3 test.py```: "pass" the verb, a check's outcome,
    # then the command that runs it
    # (plural: "test pass:" and "CI pass:" name a test account's or a CI's password)
    # ... and a run's verdict in capitals (``ALL PASS: dual+acoustic detector at 91%``;
    # "test users a, b, c - all pass: <value>" is one password for three accounts)
    "pass-phrase": re.compile(
        r"(?:\bALL[ \t]+PASS|(?i:\b(?:tests|checks|specs|suites|builds)[ \t]+pass))"
        r"[ \t]*[:=：][ \t]*[`'\"]?$"
    ),
}
CLAUSE_RULES = frozenset(CLAUSE_NOT_A_VALUE)
# ``ws://localhost:5182/?token=<value> ← vite HMR``: a dev server's socket on this machine,
# its token drawn anew when the server starts (the line names the server), whichever rule
# reads it
LOOPBACK_SOCKET_TOKEN = re.compile(
    r"(?i)\bwss?://(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?/?[^\s?]*\?(?:[^\s&]*&)*token=$"
)
DEV_SERVER = re.compile(r"(?i)\b(?:vite|hmr)\b")
DEV_SERVER_TOKEN_MAX = 16  # Vite's: 9 random bytes in base64url, 12 characters
# Spanish "clave" right after a noun is "key" the adjective ("Contacto clave: **<a
# person>**", "Punto clave: <a step>"), no credential's label, when what follows holds no
# digit (a name, a phrase); "Palabra clave" and "Datos clave" may be a password's label
KEY_ADJECTIVE = re.compile(
    r"(?i)\b(?:contactos?|puntos?|personas?|piezas?|factor(?:es)?|temas?|ideas?|momentos?"
    r"|clientes?|socios?|roles?|fechas?|elementos?|aspectos?|mensajes?|preguntas?|hitos?"
    r"|conceptos?|m[eé]tricas?|actores?|decisi[oó]n(?:es)?|resultados?|hallazgos?"
    r"|lecciones?|pasos?|riesgos?|objetivos?)[ \t]+clave\b[^\w\n]{0,6}$"
)
GENERIC_ASSIGNMENT_RULE = "generic-assignment"
# A login and password encoded for HTTP Basic auth: only on a line naming the header, Basic
# auth, a credential or a login; a page cursor or an id is encoded the same way
BASIC_AUTH_RULE = "basic-auth-encoded"
BASIC_AUTH_CONTEXT = re.compile(r"(?i)basic|auth|cred|passw|login|user")  # auth: Authorization
# A password given in brackets where a note corrects it (``corrected-in-brackets``): not a
# commit's hash (``password reset fixed (e3b0c442)``) nor words and numbers joined in lower
# case (``rotated (every-90-days)``), which a note's brackets hold as often
CORRECTED_RULE = "corrected-in-brackets"
CORRECTED_NOT_A_PASSWORD = re.compile(r"[0-9a-f]{7,40}|[a-z0-9]+(?:-[a-z0-9]+)+")
# "pass" and a value with no separator (``this new pass <value>``): a symbol in the value,
# as a compiler's pass is named in words and a number (``new pass Mem2RegPass``)
PASS_PHRASE_RULE = "pass-phrase"  # noqa: S105 - a rule's name
# A property list's key naming a public key (``FERN_PUBLIC_KEY``): no secret
PLIST_RULE = "plist-key-value"
# A token alone in backticks on its line under its heading
TOKEN_ALONE_RULE = "section-token-alone"  # noqa: S105 - a rule's name
PLIST_KEY_NAME = re.compile(r"<key>([^<>\n]{1,80})</key>[ \t]*\r?\n?[ \t]*<string>$")
# A value a note states (``secret-stated``) that is public: a key said to be public
# (``search-only``, ``publishable``, a site key), or Google's documented reCAPTCHA test
# keys, which every test suite may use (a coin's address after a bare "token" is
# :func:`_coin_address`'s)
STATED_RULE = "secret-stated"
PUBLIC_KEY_STATED = re.compile(
    # a GPG or PGP key's fingerprint, stated, is public as the key is
    r"(?i)\b(?:public|publishable|search[ -]only|anon|site[ _-]key|gpg|pgp|gnupg)\b[^\n`]{0,30}`?$"
)
RECAPTCHA_TEST_KEYS = frozenset(
    {"6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI", "6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe"}
)
# The password's own item on one of the two lines after a login's (``- **Password:** ...``)
PASSWORD_ITEM_NEXT = re.compile(
    r"(?:\n[^\n]*)?\n[ \t]*[-*+][ \t]+(?:\*\*)?"
    r"(?i:pass(?:word)?|passwd|pwd|pw|contrase(?:ñ|n)a|senha|passwort|mot de passe)s?(?:\*\*)?[:：]"
    r"|(?:\n[^\n]*)?\n[ \t]*[-*+][ \t]+(?:\*\*)?(?:密码|密碼)(?:\*\*)?[:：]"
)
PASTED_TOKEN_RULE = "pasted-token"  # noqa: S105 - a rule's name
# A message's address field right before a value (``send to:<agent>``, ``from:<agent>``): a
# recipient's name, not a login and its password
ADDRESSED_TO = re.compile(r"(?i:\b(?:to|from|cc|bcc|reply-to)):$")
# Two steps of one scale (``mint-50/mint-100``, a palette's; ``gray_100 / gray_900``)
SCALE_STEP = re.compile(r"([A-Za-z]+)[-_]?\d+")
SCALE_BEFORE = re.compile(r"(?<![\w-])([A-Za-z]+)[-_]?\d+ ?/ ?$")
# A CSS utility class behind a Tailwind variant (``account+category in `sm:grid-cols-2```,
# ``md:hover:bg-blue-500``): the variant reads as a login and the class as its password.
# The class opens with a utility's root and goes on in words and numbers joined by ``-`` (an
# arbitrary value in brackets last): a lower-case passphrase after a login named like a
# variant (``login md:fern-hill-42``) has no such root, and stays a pair.
UTILITY_VARIANT_BEFORE = re.compile(
    r"(?<![\w-])(?:sm|md|lg|x{1,3}l|[2-9]xl|max-(?:sm|md|lg|x{1,3}l)|hover|focus|focus-within"
    r"|focus-visible|active|visited|disabled|enabled|checked|indeterminate|required|optional"
    r"|invalid|read-only|in-range|out-of-range|autofill|open|inert|empty|target|only"
    r"|dark|print|landscape|portrait|starting|contrast-more|contrast-less|rtl|ltr"
    r"|first|last|odd|even|first-letter|first-line|selection|marker|backdrop|file"
    r"|motion-safe|motion-reduce|placeholder|before|after|aria-[a-z]+(?:-[a-z]+)*"
    r"|(?:group|peer)(?:-(?:hover|focus|focus-within|focus-visible|active|checked|disabled"
    r"|invalid|required|open))?)"
    r"(?::[a-z][a-z-]*)*:$"
)
UTILITY_CLASS = re.compile(
    r"-?(?:bg|text|grid|flex|col|row|gap|space|[pm][xytrbes]?|[wh]|size|min|max|border|ring"
    r"|shadow|rounded|opacity|font|leading|tracking|items|justify|content|self|place|order|z"
    r"|top|left|right|bottom|inset|translate|scale|rotate|skew|origin|transition|duration"
    r"|ease|delay|animate|cursor|outline|divide|from|via|to|fill|stroke|object|overflow"
    r"|decoration|aspect|columns|basis|grow|shrink|list|line|whitespace|break|blur|backdrop"
    r"|drop|accent|caret|scroll|snap|touch|will|sr|underline|container)"
    r"(?:-(?:[a-z0-9.]+|\[[^\]\s]+\]))+"
    # the filter and logical utilities take a number or a bracket only (``start-0``, not a
    # passphrase ``start-over-42``)
    r"|-?(?:brightness|contrast|hue-rotate|saturate|invert|grayscale|sepia|indent|start|end"
    r"|perspective)(?:-(?:[0-9.]+|px|full|auto|none|\[[^\]\s]+\]))?"
)
JWT_HEAD, JWT_PARTS = "eyJ", 3
MIN_JWT_SIGNATURE = 16  # an HMAC-SHA256 signature is 43 characters
# A password's word, and a heading's words for a list of logins (a credentials section)
_PASSWORD_WORDS = r"\bpass(?:word|wd)\b|\bpwd\b|密码|密碼|パスワード|비밀번호"  # noqa: S105 - words, no value
PASSWORD_WORD = re.compile(rf"(?i){_PASSWORD_WORDS}|\bpass\b")
# ... on a backticked pair's line: not "pass" the verb after what passes or a modal ("Linter
# checks pass (`ruff`/`flake8`)", "must pass"); "NAS pass", "user and pass" are the noun
PAIR_PASSWORD_WORD = re.compile(
    rf"(?i){_PASSWORD_WORDS}"
    r"|(?<!checks )(?<!tests )(?<!lints )(?<!builds )(?<!specs )(?<!must )(?<!should )"
    r"(?<!will )(?<!to )\bpass\b"
)
CREDENTIALS_HEADING = re.compile(
    r"(?i)\bcred(?:s|entials?)?\b|\blog ?ins?\b|\bpassw"
    r"|密码|密碼|登录|登入|凭据|凭证|账号|ログイン|パスワード|계정"
)
# A login given as a connection's parameter (``user=airflow``), its value the group.
PARAMETER_LOGIN = re.compile(r"\b(?:user(?:name)?|login|uid) ?= ?[\"']?([\w.@-]{1,64})", re.I)
# A login set on the line above, as a compose file's or an .env's environment sets it
# (``POSTGRES_USER=shop`` then ``POSTGRES_PASSWORD=shop123``): the template's default pair
LOGIN_ABOVE = re.compile(
    r"(?:\b|_)(?:user(?:name)?|login)[\"']?[ \t]*[=:][ \t]*[\"']?([\w.@-]{1,64})[\"']?[ \t\r]*$",
    re.I,
)
# What a template adds to its login to make the password (``username="vault"
# password="vaultpass"``): the kind's word or a count, no word a person chose
LOGIN_SUFFIXES = frozenset({"pass", "password", "passwd", "pwd", "pw", "secret", "123", "1234"})
# The backticked text before a value and its slash: as long as backticked-pair's login (a
# model's file name of 41 characters passed the window of 40 and was taken for a login).
BACKTICKED_BEFORE = re.compile(r"`([^`\s]{1,64})` ?/ ?`$")
# Suffixes right after a value, up to what ends a word in prose or code
FILE_SUFFIXES = re.compile(r"(?:\.[A-Za-z][A-Za-z0-9]{0,11})+(?=[`'\")\]\s,;:]|$)")
# A file's suffix ("gguf", "safetensors"): a file and its variant end with the same one.
FILE_END = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,11}$")
# Words that make a pair of names a login and its password all the same.
LOGIN_WORDS = re.compile(
    r"pass|pwd|\bpw\b|log ?in|\buser|cred|account|secret"
    r"|密码|密碼|账号|帳號|账户|登录|登入|凭据|凭证|管理员|用户名|パスワード|ログイン|비밀번호|계정",
    re.I,
)
CLOSING_QUOTES = {"`": "`", "'": "'", '"': '"', "“": "”", "‘": "’", "「": "」", "『": "』"}

# A hash, cipher or signature scheme named in prose ("token = HMAC-SHA256 of the id"):
# every part of the value, split on - _ / . +, is one of these (digits may follow) or digits.
ALGORITHM_PART = re.compile(
    r"(?:hmac|sha|md|bcrypt|scrypt|argon|argon2id|argon2i|argon2d|pbkdf|aes|des|rsa|dsa|ecdsa"
    r"|ecdh|ed|x|curve|gcm|cbc|ctr|ecb|hs|rs|es|ps|crc|blake|xxh|xxhash|siphash|murmur|totp"
    r"|hotp|base|hex|utf|keccak|poly|chacha|salsa|pkcs|sha3|whirlpool|ripemd|gost|sm|crypt)[0-9]*[a-z]?"
    r"|[0-9]+",
    re.I,
)
ALGORITHM_SPLIT = re.compile(r"[-_/.+]")
# A hash function's name in code (``sha256Hex``, ``md5Base64``): a digest's name and its
# digits in lower case, then what it returns in camelCase (``Hex2024Poly`` is a password)
HASH_FUNCTION = re.compile(
    r"(?:sha|md|crc|blake|xxh|keccak|ripemd|murmur)[0-9]{1,3}(?:[A-Z][a-z0-9]+){1,3}"
)
# An npm package's scoped name (``@node-rs/argon2`` after "Password hashing:"): lower case,
# as npm requires, with a version after it or a word on its line naming a library
# (``@home/pass2024`` alone after "password:" is a password)
NPM_PACKAGE = re.compile(r"@[a-z0-9][a-z0-9._~-]*/[a-z0-9][a-z0-9._~-]*(@[\w.^~-]+)?")
PACKAGE_WORDS = re.compile(
    r"(?i:\b(?:hash(?:ing|es|ed)?|librar(?:y|ies)|lib|package|module|dependency|install|import"
    r"|npm|pnpm|yarn|bun)\b)"
)
PATH = re.compile(
    r"^(?:~|\.{1,2})?/|^[A-Za-z]:[\\/]|^~|\.(?:pub|pem|key|crt|cer|p12|pfx|jks|kdbx|gpg|asc|age|json"
    r"|ya?ml|toml|ini|cfg|conf|env|txt|md|sh|py|js|ts"
    # a file named where a value would be ("login screenshot: screenshot-login.png")
    r"|png|jpe?g|gif|svg|webp|ico|bmp|tiff?|pdf|docx?|xlsx?|pptx?|csv|html?|css|xml|zip|tar"
    r"|gz|tgz|7z|rar|mp[34]|mov|wav|log|lock|sql|db|sqlite|bak|php|rb|go|rs|java|kt|swift"
    r"|cpp|vue|jsx|tsx|mjs|cjs|ps1|bat|exe|dll|so|apk|ipa|dmg|iso)$"
    # a configuration's backup, dated or not: "fernbot.json.backup-20260125", "app.env.old"
    r"|\.(?:json|ya?ml|toml|ini|conf|env)\.(?:bak|backup|old|orig|proposed)\w*(?:[-_.]\d+)?$"
    # a file named for the secret it keeps ("GitHub token: data/credentials/fern.token")
    r"|\.(?:token|secret|creds?|credentials|p8|keystore|netrc|pgpass)$"
    # a relative path of four lower-case parts or more, a word of four letters among them
    # ("output/fern-run/bottle/20260223-1807"): a person's password of slashes has fewer
    # parts ("7hq2/k9xz/4mpw"), and drawn keys mix cases wherever they hold a slash
    r"|^(?-i:(?=[^/]*(?:/[^/]*)*?[a-z]{4})[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*){3,})$"
    # a cloud's resource name (``projects/<id>/secrets/DB_PASSWORD/versions/3``): where a
    # secret manager keeps the value, not the value
    r"|^projects/[a-z0-9][\w.-]*/(?:secrets|locations|keyRings|cryptoKeys|serviceAccounts"
    r"|topics|subscriptions|instances|databases)/",
    re.I,
)
# An address where a password would be: ``deploy@10.0.0.5``, ``faust@host.example.org``
# (an ssh or rsync target after a path, an e-mail): a login and a host, no secret.
ADDRESS = re.compile(
    r"^[A-Za-z0-9._%+-]+@(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
    # a Windows machine's own name, as an SSH key made there is commented: ``tu@DESKTOP-<id>``
    r"|(?:DESKTOP|LAPTOP|WIN)-[A-Z0-9]{4,15})"
    r"(?::\d{1,5})?$"
)
# A URL where a value would be (``token_uri='https://oauth2.example.com/token'``): an
# endpoint; the credentials a URL holds are ``url-password``'s.
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]{1,15}://")
# A URL written without its scheme (``api.shopgate.kr/v2/orders``, an endpoint in the cell
# after a key's name): a host of lower-case labels and a top-level domain, then a path.
HOST_PATH = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,24}(?::\d{1,5})?/")
# A chain's public address (Ethereum's, a token's contract): 40 hex digits after "0x"; a
# private key in hex is 64.
CHAIN_ADDRESS = re.compile(r"^0x[0-9a-fA-F]{40}$")
HOST_GOES_ON = re.compile(r"\.[A-Za-z0-9]")
# A file's suffix right after a value ("<value>.md"): the value is the file's name.
FILE_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,5}(?![\w.])")
# The base64 blob of an OpenSSH public key always starts with the length of its type name.
SSH_KEY_BLOB = re.compile(r"^AAAA[A-Za-z0-9+/]{12,}")
# The type name a public key line opens with (``SSH 密钥：ssh-ed25519 AAAA... user@host``):
# the key's kind, where a label's value would be.
SSH_KEY_TYPE = re.compile(
    r"(?:sk-)?(?:ssh-(?:ed25519|ed448|rsa|dss)|ecdsa-sha2-nistp\d+)(?:-cert-v01)?"
    r"(?:@openssh\.com)?"
)
# The text before a value inside a long run of base64 (a key blob whose start the window cut).
KEY_BLOB = re.compile(r"^[A-Za-z0-9+/]{40,}")
# A public key or certificate in PEM, its body on the same line as its BEGIN line.
PUBLIC_KEY_BEGIN = re.compile(
    r"-----BEGIN (?:RSA |SSH2 |PGP |EC )?PUBLIC KEY(?: BLOCK)?-----|-----BEGIN CERTIFICATE-----"
)
# A code comment a few lines above a value that opens by marking the code as what not to
# do, as security guides show it beside the right way (``// ❌ Never hardcode secrets``,
# ``// 错误：硬编码 secret``, ``# BAD:``): its values are a counter-example's, when a comment
# nearby marks the right way too (``// ✅ ...``, ``// 正确：...``, ``# GOOD``). A warning
# over a real file's values (``# DO NOT COMMIT``, ``# never share``) marks no right way.
COUNTER_EXAMPLE = re.compile(
    r"[ \t]*(?://+|#+|--|/\*+|<!--)[ \t]*(?i:❌|🚫|✗|✘|bad\b|wrong\b|incorrect\b"
    r"|don'?t do this|do not do this|never hard-?code|anti-?pattern|错误|錯誤|反例|悪い例|잘못)"
)
RIGHT_WAY = re.compile(
    r"[ \t]*(?://+|#+|--|/\*+|<!--)[ \t]*(?i:✅|✔|✓|good\b|correct\b|right\b|better\b"
    r"|do this|正确|正確|正例|良い例|올바른)"
)
# How many lines above a value a counter-example's comment may be, without a blank line;
# how many lines around it the right way's
COUNTER_EXAMPLE_LINES = 4
RIGHT_WAY_LINES = 12
EXAMPLE_BEFORE = re.compile(
    r"\b(?:e\.g\.|eg[.:,]|for (?:example|instance)|examples?|samples?|dummy|placeholder|fake"
    r"|something like|such as|por ejemplo|p\. ?ej\.|por exemplo|z\. ?b\.|zum beispiel|beispiel"
    r"|par exemple|ex\. ?:"
    # "a temporary password like `<value>`", "passwords like `<value>`": one of a kind, not
    # the one in use ("the same password like `<value>`" says "as" in some English)
    r"|(?:\b(?:a|an|some|any)(?:[ \t]+[\w-]+){0,3}?[ \t]+"
    r"(?:password|passphrase|passcode|pin|secret|token|key)"
    r"|(?:password|passphrase|passcode|pin|secret|token|key)s)[ \t]+like[ \t]*[`'\"“‘]?$)"
    r"|例如|比如|示例|范例|範例|例えば|예를 들어|예시",
    re.I,
)
# A bracket opening with 如 ("such as") right before the value: "设置密码（如 `<value>`）"; 如 alone
# elsewhere is "if" or "as" (如果, 如下)
EXAMPLE_BRACKET_BEFORE = re.compile(r"[（(][ \t]*如[ \t]*[:：]?[ \t]*[`'\"“‘]?$")
# A line introducing an example: it opens with the word and is short
EXAMPLE_INTRODUCTION = re.compile(
    r"[ \t>*_#-]*(?:e\.g\.|(?i:for example|examples?(?: (?:reply|response|output|answer"
    r"|format|value|token|key))?)"
    r"(?![ \t]*[A-Za-z])"
    r"|示例|范例|範例|例如|例えば|예시|(?i:por ejemplo|beispiel|par exemple)\b)"
)
INTRODUCTION_MAX = 120
# A line introducing a fenced block as a format's or a value's example (``**Example
# format:**``, ``Example value:``): what the block holds stands for a value; an example of
# usage may be the user's real command.
EXAMPLE_FORMAT = re.compile(
    r"[ \t>*_#-]*(?:(?i:(?:example|sample) format|format example)"
    r"|(?i:(?:example|sample) (?:value|token|key))[ \t*_]*[:：]$|示例格式|格式示例)"
)
DISCLAIMER_AFTER = re.compile(
    rf"{DISCLAIMER}|\((?:e\.g\.|for example|an example|example|sample)\b"
    # (``（示例）``, ``（示例，按实际填写）``: the word alone in its bracket or its clause;
    # ``（例如 ssh 登录时用）`` says where the value is used)
    r"|[（(][ \t]*(?:示例|范例|範例|样例|樣例)[ \t]*[，,、;；:：)）]"
    # a comment after it that says to put one's own in its place: "# 替换成你的 token"
    r"|^[\"'`,]*[ \t]*(?:#|//)[ \t]*"
    r"(?:replace (?:it |this |that )?(?:with|by) (?:your|a real|the real)\b"
    r"|(?:替换|换成|換成|請替換)(?:成|为|為)?(?:你|您)的)",
    re.I,
)
SYMBOLS = frozenset("!@#$%^&*+=?~")
OPENING_QUOTES = "`'\"(“‘「『["
# Words that separate a password from its name as ':' does ("the password is ...").
# A short password label right before a value ("pw:", "PWD =", "passwd**:**"): the
# abbreviations notes use for a login, where prose writes "password".
SHORT_LABEL = re.compile(r"(?:^|[^\w-])(?:pw|pwd|passwd)\*{0,2} ?[:=]\*{0,2} ?$", re.I)
# After such a word: the end of its line or list item, or a separator.
WORD_ENDS = re.compile(r"[ \t]*(?:[,;|]|\.?[ \t]*(?:\r?\n|$))")
MIN_LABELLED_WORD = 8
# A password word (no abbreviation: "pass" and "pw" name other things too), ":" and a
# backtick: what the backticks hold is the password, however short ("Пароль: `<5 letters>`",
# "(password: `<4 digits>`)"), in any language the rules read. Compiled when first needed
# (a short value in backticks): case-folding Cyrillic cost every process 3.7 M instructions.
SHORT_VALUE_LABEL = (
    r"(?:\b(?:password|passwort|kennwort|contrase(?:ñ|n)a|senha|mot de passe|mật khẩu"
    r"|mat khau)s?\b|密码|パスワード|비밀번호|пароль|пароля|паролем|паролю)"
    r"\*{0,2} ?[:=：]\*{0,2} ?`$"
)
# In Russian, no colon is needed: the password word, the words saying whose password it is
# (a preposition and a word or two, or one noun: "от стенда", "админа", "root") and a dash
# at most, then the backticks, whose value ends its line or list item (``Пароль `<4
# digits>` ``, ``- Пароль админа — `<value>` ``: the rule `password-backticked`). No verb
# stands between ("пароль хранится в `.env`"), nor a preposition before the value ("пароль
# из `<app>`"): the value would be where the password is, not the password.
_NOUN = r"(?:[а-яё]{3,}[аеуиыо]|[а-яё]{2,}[а-рт-яё]я|[А-ЯЁ]{2,8}|[A-Za-z][\w.@-]{1,30})"
# ... and after a system's name, the login it is for (``Пароль SSH root@<host> — `<value>` ``)
_DESTINATION = r"(?: [\w.-]{1,32}@[\w.-]{1,64})?"
NAMED_BEFORE = (
    r"(?i:пароль|пароля|паролем|паролю)\*{0,2}(?: (?:от|для|к|на|у) [^\s`|:=*]{1,40}"
    rf"(?: {_NOUN})?| {_NOUN}{_DESTINATION})?\*{{0,2}}(?: [—–-]{{1,2}})? `$"
)
NAMED_WINDOW = 120
# The other way round: the value in backticks, then a dash, "это" or a parenthesis, the
# word and whose password it is, as above, then the end of the line or a clause with nothing
# in backticks (``- `<value>` — пароль от админки``, ``(пароль root)``;
# `password-named-after`): never the word and what is said of it (``— пароль не нужен``,
# ``(пароль из env)``), nor a login before a password's label (``— пароль `<value>` ``).
NAMED_AFTER = (
    r"` ?(?:[—–-]{1,2} (?:это )?|\(|это )(?i:пароль)(?: (?:от|для|к|на|у) [^\s`|:=*]{1,40}"
    rf"(?: {_NOUN})?| {_NOUN}{_DESTINATION})?[ \t]*(?:[),.;!][^`\n]*)?(?:\r?\n|$)"
)
# After the value's closing backtick: ")" at most, then the end of its line or list item.
VALUE_ENDS = re.compile(r"`\)?(?:[ \t]*[,;|]|\.?[ \t]*(?:\r?\n|$))")
MIN_LABELLED_DIGITS = 4  # a PIN-like password: "(password: `<4 digits>`)"
MIN_LABELLED_LETTERS = 5
MIN_KEYED_DIGITS = 6  # "password: <6 digits>" with no backticks: shorter is a PIN, a year
# The label of such digits: a whole password word (not "boarding pass:") and ":" or "=";
# eight digits that read as a date (20250115) are one.
DIGITS_KEY = re.compile(
    r"(?i:\b(?:password|passwd|pwd|passwort|kennwort|senha|contrase(?:ñ|n)a))"
    r"[\"'`]?[ \t]*(?::=|=>|[:=])[ \t]*[\"'`]?$"
)
DATE_DIGITS = re.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")
# "pw: <5 letters and digits>" with no backticks: a report's gate, a router's password. Its
# label right before says what it is; five characters have too little entropy to say it.
SHORT_MIX_KEY = re.compile(
    r"(?i:\b(?:password|passwd|pwd|pw|passwort|kennwort|senha|contrase(?:ñ|n)a))"
    r"\*{0,2}[ \t]*[:=]\*{0,2}[ \t]*$"
)
# A coin's public address given to a tool's --token option (a Solana mint in base58, an
# EVM contract's 40 hex digits, or a placeholder named in capitals), or stated after a bare
# "token" (crypto notes' word for a coin: ``The token is `<mint>` ``): the token traded, no
# credential. A generated token of that length holds 0, O, I or l nearly always.
TOKEN_OPTION = re.compile(
    r"--token(?:=|[ \t]+)[\"'`]?$"
    r"|(?i:(?:^|[^\w-])token\*{0,2}[ \t]+(?:is|was)[ \t]+(?:(?:still|now)[ \t]+)?)`$"
)
# A line whose whole label is "Token" and a Solana account's address (``**Token:** `<mint>` ``
# in a trade's notes): 43 or 44 characters of base58, as 32 bytes are written; a bot's
# token of 32 such characters is a token
TOKEN_LINE_LABEL = re.compile(
    r"(?m:^)[ \t]*(?:[-*+][ \t]+)?\*{0,2}(?i:token)\*{0,2}[ \t]*[:：]\*{0,2}[ \t]*`?$"
)
SOLANA_ACCOUNT = re.compile(r"[1-9A-HJ-NP-Za-km-z]{43,44}")
# A code comment right above a value's line naming it a coin's or a contract's address
# (``// <Name> Token Address`` over ``const <NAME>_TOKEN = "..."``, ``# the mint address of
# the reward coin``): crypto code calls a coin a token, and an address is public. A code
# comment only (``//``, ``/*``, ``#`` and a space but no heading's ``##``), never a note's
# bold label or list item ...
ADDRESS_COMMENT = re.compile(
    r"[ \t]*(?://|/\*|#(?![#!])[ \t])[^\n]*\b(?i:token|contract|mint|program|wallet|coin)"
    r"[ \t]+(?i:address)\b[^\n]*$"
)
# ... over a value of an address's shape (an EVM address's 40 hex digits, or 32 to 44 letters
# and digits as a base58 account is written), whose own label names no secret once the
# token a coin is called is taken out (:data:`SECRET_LABEL_WORDS`)
ADDRESS_SHAPE = re.compile(r"0x[0-9a-fA-F]{40}|[A-Za-z0-9]{32,44}")
COIN_TOKEN_WORD = re.compile(r"(?i:token)")
# ... in a trade's notes: a coin's words a little before it
COIN_WORDS = re.compile(
    r"(?i)\b(?:solana|sol|mint|pump(?:\.fun)?|dex|swap|coins?|memecoin|raydium|jupiter|birdeye"
    r"|dexscreener|alpha|call|ca|market ?cap|mcap|buy|sell|trade)\b"
)
COIN_REACH = 300
BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
SOLANA_KEY_BYTES = 32
SOLANA_HEADING_REACH = 2000
# A label's words that make a Solana-sized value a secret still (``Secret key:``,
# ``HELIUS_KEY=``, ``pwd:``, ``私钥``), once a public key's own words are taken out
SECRET_LABEL_WORDS = re.compile(
    r"(?i:secret|private|priv(?![a-z])|api|token|key|pass|pwd|(?<![a-z])pw(?![a-z])|seed"
    r"|mnemonic|auth|bearer|access|cred|session|refresh|私钥|密钥|秘钥|秘密|令牌|密码|密碼"
    r"|パスワード|비밀번호|пароль|ключ)"
)
PUBLIC_KEY_WORDS = re.compile(r"(?i:pub(?:lic)?[ _-]?key|pubkey)")
# ... and the words that name it public: an address, a program, a mint, a lookup table
PUBLIC_ACCOUNT_WORDS = re.compile(
    r"(?i:(?<![a-z])(?:pub(?:lic)?[ _-]?key|pubkey|address(?:es)?|programs?(?:[ _-]?ids?)?"
    r"|mints?|luts?|lookup[ _-]?tables?|wallets?|contracts?|pdas?)(?![a-z]))"
)
PUBLIC_ADDRESS = re.compile(r"[1-9A-HJ-NP-Za-km-z]{32,44}|0x[0-9a-fA-F]{40}|0x[A-Z0-9]*_[A-Z0-9_]+")
KEYED_MIX_LENGTH = 5  # six characters or more: the rule's entropy judges them
# An algorithm's or an encoding's name with its number ("password: SHA256", "AES256",
# "PBKDF2"): how a password is kept, not the password.
ALGORITHM_NAME = re.compile(
    r"(?i:(?:sha|md|aes|rsa|hs|rs|es|ps|pbkdf|base|utf|pkcs|tls|ssl|oauth|ipv|http|argon|des)"
    r"\d+[a-z]?)"
)
# A URL's user information (``scheme://user:<value>@host``) holds a password: a short one
# there (under six characters) is judged as a labelled one is; a longer one of few
# characters (``abcabc``, ``rootroot``) is a placeholder's shape, as anywhere
URL_PASSWORD_RULES = frozenset({"database-url-password", "url-password"})
SHORT_URL_PASSWORD = 6
MIN_DISTINCT_LABELLED = 3  # four digits repeat one often; "1111", "1212" are no one's
COPULAS = frozenset("is was es era é ist lautet est là".split())
# A default's word says the value as a copula does: "(default X)", "(mặc định X)", and the
# "to" of "defaults to X"
DEFAULT_WORDS = frozenset("default defaults định dinh defecto padrão padrao défaut defaut".split())
COPULA_ENDINGS = ("は", "는", "은")
# A password's short word opening a bracket, its value inside (``MOK enrolled (pw <value>)``):
# a label as much as ``pw:`` is
BRACKETED_LABELS = frozenset({"(pw", "(pwd", "(passwd", "(pass", "(password"})
# ... and a CJK password's word in brackets, run into what is before it (a URL's end:
# "…:2084/（密码 <value>）")
CJK_PASSWORD_WORDS = ("密码", "密碼", "口令", "パスワード", "비밀번호")
CJK_BRACKETED_LABELS = tuple(f"{bracket}{word}" for bracket in "（(" for word in CJK_PASSWORD_WORDS)
# Characters read on each side of a match, on its own line: enough for the key blob of a
# 4096-bit RSA key before it; an example marker counts only close by.
WINDOW = 800
NEAR = 60
# A glob list where a value would be (``HISTIGNORE="*password*:*token*:*key*"``): words
# wrapped in stars, patterns of the names a shell should forget, no credential
STARRED_WORD = re.compile(r"\*[A-Za-z]+\*")
GLOB_LIST = re.compile(r"[\w*.-]*\*[\w*.-]*(?::[\w*. -]*){2,}")  # patterns a colon joins
MIN_GLOB_STARS = 3
# An API that signs requests with a private key names its key by an id, a UUID
# (``API Key: <uuid>`` over ``Private key saved: kalshi-key.pem``): the secret is the key file
KEY_ID_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
# a private key's file named on a line of its own (``- Private key saved: <path>.pem``)
PRIVATE_KEY_FILE = re.compile(
    r"(?i)\bprivate[ _-]?key\b[^\n]{0,40}?(?:[:=：]|\bsaved\b|\bstored\b|\bfile\b|\bpath\b)"
    r"[^\n]{0,160}?\.(?:pem|key)\b"
)
SIGNING_KEY_REACH = 2  # lines read after the value's own
ID_ELSEWHERE_PLACES = 8  # places of the value read for a key id's label
ID_ELSEWHERE_REACH = 2000  # characters on each side of the value they are looked for in


def plausible(rule: Rule, text: str, start: int, end: int, *, first_of_pair: bool = False) -> bool:
    """False when ``text[start:end]`` is a placeholder, a documentation example or a
    low-entropy string; for a generic rule, also when the value has the wrong shape or its
    line says it is no credential. The first of two secrets a rule's words give together
    (``first_of_pair``: ``both `<one>` / `<two>` ``) is no item of a list for the slash and
    the second after it."""
    value = text[start:end].strip()
    known = rule.value in UNMEASURED  # a vendor's default, a test account's number
    # a list's value under another heading: asked first, as a long list asks it once an item
    bare = rule.name == BARE_PASSWORD_RULE
    outside = (rule.value == "section" and not _password_section(text, start, bare=bare)) or (
        rule.value in ("token-section", "cookie-section")
        and (not _token_section(text, start) or _token_field(text, start))
    )
    if outside or (not known and len(set(value)) < _least_distinct(rule, text, start, end)):
        return False
    placeholder = (
        _placeholder(rule, value)
        or VENDOR_PLACEHOLDER.match(value)
        or DESCRIBED.fullmatch(value)
        or (WORDS_ONLY.fullmatch(value) and PASTE_HERE.search(value))
    )
    # a key public by design, whatever rule found it: a publishable key, an anon JWT, a
    # Firebase web app's key, a Chat webhook's shared key, a coverage badge's token
    public = (
        _public_by_design(text, value)
        or _firebase_web_key(text, start, value)
        or value in linked_ids(text)
        or _chat_webhook_key(text, start, value)
        or COVERAGE_BADGE.search(text, max(0, start - CHAT_WEBHOOK_REACH), start) is not None
        or _public_cli_client(text, start)
    )
    # a format written out, ``https://USER:TOKEN@host``: the password before the host
    lowered = value.lower()
    words = {lowered, lowered.rstrip("!?."), _userinfo_password(text, start, value).lower()}
    stand_in = (
        placeholder
        or _no_value(value, text, start)
        or _elided(rule, value, text, end)
        or words & PLACEHOLDER_WORDS
        or (_self_named(value) and not _test_account_in_prose(value, text, start))
        or _repeats_login(text, start, value)
        or _test_word_repeated(value)
        or (value.isdigit() and text[max(0, start - 3) : start] == "//:")  # ``postgres://:5432@``
        or _wmi_namespace(text, start, value)
        or _opens_no_system(text, start, value)
        or (rule.name == COMMUNITY_RULE and _community_not_snmp(text, start))
        or SHELL_VARIABLE.fullmatch(value)
        or _a_prompt_or_escaped_text(text, start, value)
        or ENVIRONMENT_SETTING.fullmatch(value)
        or COMPARISON.fullmatch(value)
        or (value.startswith("?") and EXPANSION_OPEN.search(text, max(0, start - NEAR), start))
        or _validation_rules(value)
        or _coin_address(text, start, value)
        or (rule.generic and _address_named_above(text, start, value))
        or (rule.generic and _solana_public_key(text, start, value))
        or _handles_listed(text, start, end, value)
        or (rule.value == "pin" and _digit_run(value))
        or _pgp_key_id(text, start, value)
        or (rule.name == PASS_PHRASE_RULE and _short_commit(text, start, value))
        or (value.startswith("@") and URL_PASSWORD_WORD.search(text, max(0, start - NEAR), start))
        or (rule.name == PASSWORD_PHRASE_RULE and _how_it_was_shared(text, start, value))
        or (rule.name == ENV_DIGITS_RULE and _password_setting_name(text, start))
        or (rule.name == BEARER_RULE and _bearer_token_prose(text, start, value))
        or (rule.generic and _jwt_cut(value, text, end))
        or (rule.name == WIFI_RULE and _band_twin(text, start, value))
        or _model_name(value)
        or (rule.value in DRAWN_KINDS and WIDE_TEXT.search(value) is not None)
        or _folder_of_its_kind(value)
        or CDP_KEY_NAME.fullmatch(value) is not None
        or SECRET_ARN.search(text, max(0, start - ARN_REACH), start) is not None
        or value.startswith(REGEX_ANY_RUN)
        or SECRET_REFERENCE.fullmatch(value)
        or STORE_REFERENCE.match(value)
        or OPTION_NAME.fullmatch(value)
        or (
            CLOUDFLARE_ID.fullmatch(value) is not None
            and CLOUDFLARE_ID_NAMED.search(text, max(0, start - NEAR - 60), start) is not None
        )
        or _device_code(text, start, value)
        or (rule.name == LOGIN_PAIR_RULE and _scale_steps(text, start, value))
        or (rule.name == LOGIN_PAIR_RULE and _a_repository_pair(text, start, value))
        or (rule.name == USER_PAIR_RULE and not _drawn_mixed(value))
        or (rule.name == AUTHORIZATION_RULE and _a_scheme_or_label(text, end, value))
        or (rule.name in PREFIXED_KEY_RULES and _name_after_prefix(value))
        or (
            rule.name == GOOGLE_QUOTED_RULE
            and GOOGLE_LEAD.search(_line_before(text, start)) is None
        )
        or (rule.name == COMMUNITY_RULE and _status_after_change(text, start, value))
        or (rule.name == GENERIC_ASSIGNMENT_RULE and _an_active_status(text, start, value))
        or (rule.name == GENERIC_ASSIGNMENT_RULE and _private_key_named(text, start, value))
        or (rule.name == GENERIC_ASSIGNMENT_RULE and _a_configured_note(text, start, value))
        or (
            rule.name == GENERIC_ASSIGNMENT_RULE
            and COUNTED_KEYWORD.search(_line_before(text, start)) is not None
        )
        or (rule.name == LOGIN_PAIR_RULE and _utility_class(text, start, value))
        or (rule.name == LOGIN_PAIR_RULE and _flow_mapping_entry(text, start, end))
        or (rule.name == LOGIN_PAIR_RULE and _an_id_field(text, start, value))
        or (rule.name in SERVICE_PAIR_RULES and _login_item(text, start))
        or (rule.name in SERVICE_PAIR_RULES and _second_service_handle(text, start, value))
        or (rule.name in SERVICE_PAIR_RULES and "/" in value and not _drawn_base64(value))
        or (
            rule.name in CLAUSE_RULES
            and CLAUSE_NOT_A_VALUE[rule.name].search(_line_before(text, start))
        )
        or (rule.name == LOGIN_PAIR_RULE and ADDRESSED_TO.search(text, max(0, start - 8), start))
        or (
            rule.name == GENERIC_ASSIGNMENT_RULE
            and not any(c.isdigit() for c in value)
            and KEY_ADJECTIVE.search(_line_before(text, start)) is not None
        )
        or (rule.name == STATED_RULE and _stated_public(text, start, value))
        or (rule.name == CORRECTED_RULE and CORRECTED_NOT_A_PASSWORD.fullmatch(value) is not None)
        or (rule.name == PASS_PHRASE_RULE and _pass_unseparated_plain(text, start, value))
        or _dev_server_token(text, start, value)
        or (rule.name == PLIST_RULE and _plist_public(text, start))
        # the regex opens with the backtick (a literal RE2 skips to): alone on its line
        or (
            rule.name == TOKEN_ALONE_RULE
            and text[line_start_within(text, start, NEAR) : start - 1].strip() != ""
        )
        or (rule.generic and _cut_by_text(value, text, end))
        or (rule.generic and _short_of_its_vendor(value))
        or _github_sum_fails(value)
        or JSON_PATH.fullmatch(value) is not None
        or (rule.name == PASTED_TOKEN_RULE and HEX_ONLY.fullmatch(value) is not None)
        or SECRET_VERSION.fullmatch(value)
        or HEX_NAMED.fullmatch(value)
        or _named_not_secret(text, start, value)
        or STATUS_WORD.fullmatch(value)
        or (
            rule.name == GENERIC_ASSIGNMENT_RULE
            and COMPOUND_STATE.fullmatch(value)
            and PROSE_GOES_ON.match(text, end) is not None
        )
        or (rule.name == GENERIC_ASSIGNMENT_RULE and _plural_label_prose(text, start, end, value))
        or (rule.generic and _document_token(text, start, value))
        or (
            rule.name == BASIC_AUTH_RULE
            and BASIC_AUTH_CONTEXT.search(_line_before(text, start)) is None
        )
        or (PROJECT_REF.fullmatch(value) and PROJECT_REF_LABEL.search(_line_before(text, start)))
        or SCHEMA_TYPE.fullmatch(value)
        or NATIVE_WORDS.fullmatch(value)
        or _keyboard_tail(value)
        or _keyboard_example(value)
        or _page_cursor(value)
        or _glob_list(value)
        or (rule.generic and _key_id_beside_private_key(text, start, value))
        or value.lower() in PUBLISHED_APP_HASHES
        or value.lower() in COMMON_PASSWORD_HASHES
        or HASH_FUNCTION.fullmatch(value)
        or KEY_COMBO.search(value)
        or _noted_public(text, start)
        or (rule.generic and _data_key_label(text, start, value))
        or (rule.generic and KEY_ID_LABEL.search(text, max(0, start - NEAR), start) is not None)
        or (rule.generic and SHARED_CODE_LABEL.search(text, max(0, start - NEAR), start))
        or (rule.generic and _bitable_app_token(text, start, value))
        or (rule.name in BARE_KEY_RULES and _bare_key_doubtful(text, start, value))
        or (rule.name == API_PROSE_RULE and _api_prose_doubtful(text, start, end, value))
        or _npm_package(text, start, value)
        or (rule.generic and _code_not_a_value(text, start, end, value))
        or (rule.name == PROXY_RULE and _scheme_as_login(text, start))
        or _alphabet_run(value)
        or _runs_for_a_token(text, start, value)
        or _named_for_its_kind(value)
        or (rule.generic and _ticker_named(text, start, value))
        or not STAND_IN_PARTS.isdisjoint(PART_SPLIT.split(value))
        or _keyboard_letters(value)
        or _described_kind(value)
        or CJK_PLACEHOLDER.search(value) is not None
        or (rule.generic and CJK_QUOTED_TERM.match(value) is not None)
        or (rule.name == URL_KEY_RULE and _base64_of_text(value))
        or text.endswith(SHARE_TOKEN, max(0, start - len(SHARE_TOKEN)), start)
        or _shell_default_path(text, start, value)
        or (rule.name in SERIES_RULES and _series_pair(text, start, value))
    )
    if stand_in or rule.allowed(value) or public:
        return False
    least = _least_entropy(rule, text, start, end)
    if not known and rule.entropy is not None and entropy(value) < least:
        return False
    if not rule.generic and rule.value in ISSUED:  # an issuer's format: its shape is proof
        issued = _has_shape(rule.value, value)  # letters an issuer drew, not words
        return issued and not (rule.chosen and _template_default(text, start, end))
    # ``app:challenge:{token}``: a template's fixed part, not a value
    templated = text[end : end + 1] == "{"
    named_hash = _a_named_hash(text, start, value)
    before = text[start - 1 : start]
    # quotes hold the value whole, and so do a table cell's pipes
    enclosed = (before in QUOTES and text[end : end + 1] == before) or rule.table
    named = (
        (
            not _a_value(
                value, enclosed=enclosed, dotted=_password_dotted(rule, text, start, value)
            )
            and not _named_for_its_place(text, start, value)
        )
        or _cut_address(value, text, end)
        or _attribute_name(value, text, start, end)
        or ASSET_QUERY.fullmatch(value) is not None
        or SOURCE_LINE.fullmatch(value) is not None
        or PRICE.fullmatch(value) is not None
        or FINGERPRINT.fullmatch(value) is not None
        or _a_pattern(_code_span_around(text, start, end) or value)
    )
    if (
        named
        or templated
        or named_hash
        or _compared(text, end)
        or _a_change_noted(text, start, end)
        or _file_name_goes_on(text, end, value)
    ):
        return False
    listed = (
        (not first_of_pair and _listed(text, start, end))
        or _paired_names(text, start, value)
        or _enumerated(text, start, end)
    )
    # the shape first: it reads the value only, the context the words around it
    # last, as it reads the file's code blocks: an issuer's token returned above, and stays
    # one in a documentation-like block
    return (
        not listed
        and _shaped(rule, text, start, end)
        and _in_context(text, start, end)
        and not _in_an_example_block(text, start, value)
    )


# Where the real one is read from instead, in a value of words alone (no digit, no symbol
# but joins): "will-use-OPENAI_API_KEY-env-var", "read-from-env"; "Blue_EnvVar_2024!" is one.
ENV_STAND_IN = re.compile(
    r"(?i)(?<![a-z])env[_-]?var(?:iable)?s?(?![a-z])"
    r"|(?<![a-z])(?:from|use|uses|in|via|see)[_-](?:the[_-])?(?:env|environment)(?![a-z])"
)
ENV_WORDS = re.compile(r"[A-Za-z]+(?:[_-][A-Za-z]+)+")


def _placeholder(rule: Rule, value: str) -> bool:
    """A stand-in's word or mark (:data:`PLACEHOLDER`), save the word an issuer's random
    token holds by chance: in a specific rule's fixed format, letters in mixed case with
    letters or digits on both sides (``ghp_OHFaKElW...`` holds "FaKE"; about one GitHub
    token in three thousand holds one of the words) are the token's. ``ghp_FAKE...``,
    ``...thisisafaketoken...`` (one case) stay stand-ins."""
    if ENV_WORDS.fullmatch(value) and ENV_STAND_IN.search(value):
        return True
    issuer = not rule.generic and rule.value is None and not rule.chosen
    return any(
        not (issuer and _by_chance(value, found.start(), found.end()))
        for found in PLACEHOLDER.finditer(value)
    )


def _drawn_lower(value: str) -> bool:
    """32 lower case letters and digits or more, four of each at least, after a vendor's
    short prefix or none (``csk-<48>``): a generated key in one case, which the ``key``
    shape (both cases) does not take."""
    body = SECTION_PREFIX.sub("", value, count=1)
    digits = sum(c.isdigit() for c in body)
    return (
        len(body) >= MIN_DRAWN
        and body.isascii()
        and body.isalnum()
        and body == body.lower()
        and digits >= 4
        and len(body) - digits >= 4
    )


def _drawn_upper(value: str) -> bool:
    """16 upper case letters and digits or more, two digits and four letters at least (a
    market data API's ``<16>`` holds as few digits as a draw from 36 characters often
    does): a generated key in capitals, which the ``key`` shape (both cases) does not take;
    a constant's words (``HTTP2_SERVER_PUSH``) are joined by underscores."""
    digits = sum(c.isdigit() for c in value)
    return (
        len(value) >= MIN_DRAWN_UPPER
        and value.isascii()
        and value.isalnum()
        and value == value.upper()
        and digits >= 2
        and len(value) - digits >= 4
    )


def _alphabet_run(value: str) -> bool:
    """Lower case letters only (in groups, ``abcd efgh ijkl mnop``) with four letters of the
    alphabet in a row: a doc's stand-in for an app password. A random one holds such a
    run about once in 2,000."""
    letters = _lower_letters(value)
    return letters is not None and any(
        ord(a) + 1 == ord(b) and ord(b) + 1 == ord(c) and ord(c) + 1 == ord(d)
        for a, b, c, d in zip(letters, letters[1:], letters[2:], letters[3:], strict=False)
    )


def _keyboard_letters(value: str) -> bool:
    """A bot token's stand-in (:data:`BOT_TOKEN_STAND_IN`): its letters the keyboard's runs."""
    found = BOT_TOKEN_STAND_IN.fullmatch(value)
    if found is None:
        return False
    return all(run in KEYBOARD_LETTERS for run in re.split(r"[-_]", found.group("runs")))


def _described_kind(value: str) -> bool:
    """A placeholder that names its kind in words (:data:`DESCRIBED_KIND`)."""
    if DESCRIBED_KIND.fullmatch(value) is None:
        return False
    words = set(value.split("-"))
    return not words.isdisjoint(KIND_WORDS) and not words.isdisjoint(DESCRIBING_WORDS)


def _shell_default_path(text: str, start: int, value: str) -> bool:
    """``${FERN_KEY:-$HOME/.ssh/fern_ed25519}``: a shell's default for an unset variable,
    read from ``-`` on, that opens as a path or another variable does (where the key is, not
    the key; a default with a slash inside may be a base64 key)."""
    if (
        not value.startswith("-")
        or EXPANSION_OPEN.search(text, max(0, start - NEAR), start) is None
    ):
        return False
    return value[1:].startswith(("$", "~", "/", "./", "../"))


def _series_pair(text: str, start: int, value: str) -> bool:
    """``V15Users` / `V15Sessions``, ``W-FRONT-FLASH / W-FRONT-04-C``: two names of one
    series where a login and its password would be: a prefix of three characters at least
    shared, each going on in capitals or digits, names of letters, digits, "-" and "_"
    alone (a symbol makes the second a password)."""
    before = SERIES_LOGIN.search(_line_before(text, start))
    if before is None or SERIES_NAME.fullmatch(value) is None:
        return False
    login = before.group(1).rsplit(".", 1)[-1]
    pairs = zip(login, value, strict=False)  # as far as the shorter goes
    shared = "".join(a for a, _ in itertools.takewhile(lambda p: p[0] == p[1], pairs))
    rests = (login[len(shared) :], value[len(shared) :])
    if len(shared) < SERIES_PREFIX or not all(rests):
        return False
    # a series' mark shared (a digit, "-" or "_": ``V15``, ``W-FRONT-``), or two words going
    # on alone (``Users``, ``Sessions``); ``ServiceUser`` / ``ServicePass123`` is a pair
    marked = any(c.isdigit() or c in "-_" for c in shared)
    if not (marked or all(rest.isalpha() for rest in rests)):
        return False
    return all(rest[0].isupper() or rest[0].isdigit() for rest in rests)


def _named_for_its_kind(value: str) -> bool:
    """``mem0-api-key``, ``openai_api_key``, ``github-token``: a name and the kind."""
    return KIND_NAMED.fullmatch(value) is not None


def _ticker_named(text: str, start: int, value: str) -> bool:
    """The words near the value, on its line, name a coin or its minting
    (``新Token：MOLTPUNK（...铸造...）``); the value itself, capitals alone, is not read."""
    if TICKER.fullmatch(value) is None:
        return False
    before = near_on_its_line(text, start)
    after = text[start + len(value) : start + len(value) + NEAR].split("\n", 1)[0]
    return TICKER_WORDS.search(before) is not None or TICKER_WORDS.search(after) is not None


def line_start_within(text: str, start: int, reach: int) -> int:
    """Where the line holding ``start`` begins, no further back than ``reach`` characters (a
    long line of values is not read back to its start for each)."""
    floor = max(0, start - reach)
    return text.rfind("\n", floor, start) + 1 or floor


def near_on_its_line(text: str, start: int) -> str:
    """The text right before a value on its own line, ``NEAR`` characters at most: where
    its label stands, read without reading a long line back to its start."""
    return text[max(0, start - NEAR) : start].rsplit("\n", 1)[-1]


def _runs_for_a_token(text: str, start: int, value: str) -> bool:
    """``token: "1234abcd"``: the digits' and the alphabet's first runs, a doc's stand-in
    for a token or a key (after a label naming one, none naming a password: ``wifi
    password: abcd1234`` is a weak password still)."""
    if TWO_RUNS.fullmatch(value.lower()) is None:
        return False
    label = near_on_its_line(text, start)
    return TOKEN_LABEL.search(label) is not None and PASSWORD_LABEL.search(label) is None


def _lower_letters(value: str) -> str | None:
    """The value's letters without the spaces or hyphens that group them (``abcd efgh``,
    ``abcd-efgh``) when they are all ASCII lower case letters; None otherwise."""
    letters = value.replace(" ", "").replace("-", "")
    return letters if letters.isascii() and letters.isalpha() and letters.islower() else None


def _by_chance(value: str, start: int, end: int) -> bool:
    word = value[start:end]
    mixed = word.isalpha() and not (word.islower() or word.isupper() or word.istitle())
    return (
        mixed
        and start > 0
        and end < len(value)
        and all(value[at].isalnum() for at in (start - 1, end))
    )


def _a_change_noted(text: str, start: int, end: int) -> bool:
    """A change word before the separator (``password reset: OAuth2``, ``| Password changed
    | 20250301 |``) names a feature or a date unless the value is quoted or an arrow
    follows it (``비번 변경: `<old>` → `<new>` ``): only then is it the password itself."""
    if CHANGE_LABEL.search(text, max(0, start - NEAR), start) is None:
        return False
    quoted = text[start - 1 : start] in QUOTES
    return not quoted and ARROW_AFTER.match(text, end) is None


def _code_span_around(text: str, start: int, end: int) -> str | None:
    """The code span on the value's line that holds it (``api[_-]?key|secret.*=.*[^"' ]``
    whose ``secret.*=`` a rule took for a value), or None."""
    line_start = text.rfind("\n", 0, start) + 1
    opening = text.rfind("`", line_start, start)
    if opening < 0 or text.count("`", line_start, opening) % 2:
        return None  # no backtick before it on its line, or the one before closes a span
    closing = text.find("`", end)
    if closing < 0 or "\n" in text[end:closing]:
        return None
    return text[opening + 1 : closing]


def _a_pattern(value: str) -> bool:
    """A regular expression, ``^N\\d{2}L-`` (a case number's filter beside its type's
    code): a class, a group or alternatives, and one more piece (an anchor, a counted
    repeat, ``.*``)."""
    if REGEX_CLASS.search(value) is None and "|" not in value:
        return False  # a class, a group or alternatives
    parts = len(REGEX_PARTS.findall(value)) + value.startswith("^") + value.endswith("$")
    return parts >= 2


def _least_distinct(rule: Rule, text: str, start: int, end: int) -> int:
    """How many distinct characters the value needs: fewer where its place proves it a
    password (``sshpass -p``; a short value in backticks after a password word and ``:``;
    a URL's user information, under six characters)."""
    if rule.value == "any":
        return MIN_DISTINCT_ANY
    if rule.name in URL_PASSWORD_RULES and end - start < SHORT_URL_PASSWORD:
        return MIN_DISTINCT_LABELLED  # "postgres:<4 digits>@localhost": its place says
    if rule.value in ("section", "pin"):
        return MIN_DISTINCT_LABELLED  # a PIN or a short password, as its heading or label says
    if _labelled_digits(rule, text, start, end):
        return MIN_DISTINCT_LABELLED
    if _keyed_digits(rule, text, start, end):
        return MIN_DISTINCT_ANY
    return MIN_DISTINCT


def _keyed_digits(rule: Rule, text: str, start: int, end: int) -> bool:
    """Six digits or more right after a password word and ``:`` or ``=`` (``root@<host>,
    password: <6 digits>``): a server's numeric password repeats digits, so its entropy says
    little; four distinct digits (``MIN_DISTINCT_ANY``) judge it."""
    value = text[start:end]
    return (
        rule.value == "mixed"
        and len(value) >= MIN_KEYED_DIGITS
        and value.isdigit()
        and not DATE_DIGITS.fullmatch(value)
        and DIGITS_KEY.search(text, max(0, start - NEAR), start) is not None
    )


def _pass_unseparated_plain(text: str, start: int, value: str) -> bool:
    """``new pass Mem2RegPass``: "pass" right before a value with no separator, the value
    holding no symbol (a compiler pass's or a word's name)."""
    before = text[max(0, start - 8) : start].lower()
    if not before.rstrip(" \t").endswith("pass") or not before.endswith((" ", "\t")):
        return False
    return not any(c in SYMBOLS for c in value)


def _plist_public(text: str, start: int) -> bool:
    """A property list's ``<key>`` naming a public key (``FERN_PUBLIC_KEY``)."""
    key = PLIST_KEY_NAME.search(text, max(0, start - 120), start)
    return key is not None and "PUBLIC" in key.group(1).upper()


def _stated_public(text: str, start: int, value: str) -> bool:
    """A stated value that is public (:data:`PUBLIC_KEY_STATED`)."""
    if value in RECAPTCHA_TEST_KEYS:
        return True
    return PUBLIC_KEY_STATED.search(_line_before(text, start)) is not None


def _coin_address(text: str, start: int, value: str) -> bool:
    """A coin's public address after ``--token`` (``balance --token <mint>``) or a bare
    "token is" (:data:`TOKEN_OPTION`), or a Solana account's under a label that is "Token"
    alone (:data:`TOKEN_LINE_LABEL`)."""
    if PUBLIC_ADDRESS.fullmatch(value) is None:
        return False
    if TOKEN_OPTION.search(text, max(0, start - NEAR), start) is not None:
        return True
    labelled = TOKEN_LINE_LABEL.search(text, max(0, start - NEAR), start) is not None
    coin = COIN_WORDS.search(text, max(0, start - COIN_REACH), start) is not None
    return labelled and coin and SOLANA_ACCOUNT.fullmatch(value) is not None


def _address_named_above(text: str, start: int, value: str) -> bool:
    """The code comment right above the value's line names it a coin's or a contract's
    address (:data:`ADDRESS_COMMENT`), the value has an address's shape and its own label
    names no secret beyond the token a coin is called: a public address."""
    if ADDRESS_SHAPE.fullmatch(value) is None:
        return False
    line_start = line_start_within(text, start, NEAR)
    if line_start == 0 or text[line_start - 1] != "\n":
        return False
    if ADDRESS_COMMENT.match(_lines_above(text, line_start, WINDOW + 1)[0]) is None:
        return False
    label = COIN_TOKEN_WORD.sub(" ", text[line_start:start])
    return SECRET_LABEL_WORDS.search(label) is None


def _solana_public_key(text: str, start: int, value: str) -> bool:
    """A Solana account's address (a program's id, a lookup table, a wallet), 43 or 44
    characters of base58 that decode to 32 bytes, that its line's label names as an address,
    a public key, a program, a mint, a lookup table, a wallet or a contract (``**Always use
    the public LUT**: `<address>` ``), or that sits under a heading naming programs or
    addresses with a label naming nothing secret (``### Program ID Configuration`` over
    ``- **Fee Share V2**: `<id>` ``): a public key. A keypair's secret is 64 bytes (87 or 88
    characters); a label that names a key, a token, a password or a secret
    (``HELIUS_KEY=``, ``pwd:``) keeps the value one, as one drawn 43-character key in
    eighteen happens to be base58 of 32 bytes."""
    if SOLANA_ACCOUNT.fullmatch(value) is None or _base58_bytes(value) != SOLANA_KEY_BYTES:
        return False
    line_start = line_start_within(text, start, NEAR)
    label = text[line_start:start]
    if SECRET_LABEL_WORDS.search(PUBLIC_KEY_WORDS.sub(" ", label)) is not None:
        return False
    if PUBLIC_ACCOUNT_WORDS.search(label) is not None:
        return True
    heading = heading_above(text, line_start, SOLANA_HEADING_REACH)
    return heading is not None and PUBLIC_ACCOUNT_WORDS.search(heading) is not None


def _base58_bytes(value: str) -> int:
    """How many bytes a base58 string decodes to (its leading ``1``s are zero bytes)."""
    number = 0
    for char in value:
        number = number * 58 + BASE58_ALPHABET.index(char)
    return len(value) - len(value.lstrip("1")) + (number.bit_length() + 7) // 8


def _pgp_key_id(text: str, start: int, value: str) -> bool:
    """``**GPG ключ:** `<16 hex digits>` ``: a PGP key's id or fingerprint (8, 16 or 40 hex
    digits) whose own label names a GPG or PGP key, public as the key it names; a
    passphrase or a token labelled after GPG on the line is none."""
    if PGP_KEY_ID.fullmatch(value) is None:
        return False
    return PGP_KEY_LABEL.search(text, max(0, start - NEAR), start) is not None


def _jwt_cut(value: str, text: str, end: int) -> bool:
    """A JSON Web Token copied without its signature (``eyJ<header>.eyJ<payload>``, cut
    in its payload) or with a few characters of it before an ellipsis: no server takes it;
    the whole token, where it is written, is the finding."""
    parts = value.split(".")
    # a header and a payload, both JSON: one part alone is another key's (Grafana's)
    if len(parts) < 2 or not (parts[0].startswith(JWT_HEAD) and parts[1].startswith(JWT_HEAD)):
        return False
    if len(parts) < JWT_PARTS or not parts[2]:
        return True
    return text.startswith(ELLIPSES, end) and len(parts[2]) < MIN_JWT_SIGNATURE


def _band_twin(text: str, start: int, value: str) -> bool:
    """``WiFi: `Home-04B4` / `Home-5G-04B4` ``: a router's two networks, one a band's
    (2.4G, 5G, 6GHz) twin of the other, not a network and its password."""
    before = BANDED_FIRST.search(text, max(0, start - NEAR), start)
    if before is None:
        return False
    first = before.group(1)
    bandless = BAND.sub("", first).lower(), BAND.sub("", value).lower()
    return first != value and bandless[0] == bandless[1]


def _keyed_short_mix(rule: Rule, text: str, start: int, end: int) -> bool:
    """Five ASCII capitals and digits, both kinds, right after a password word and ``:`` or
    ``=`` with no backticks (``· pw: <4 capitals and a digit> ·``): its label says what it
    is; five distinct characters (``MIN_DISTINCT``) judge it, not its entropy. Lower case
    letters are a stand-in's (``demo1``, ``abc12``, ``qwer1``)."""
    value = text[start:end]
    return (
        rule.value == "mixed"
        and len(value) == KEYED_MIX_LENGTH
        and _short_mix(value)
        and not any(c.islower() for c in value)  # "demo1", "abc12", "qwer1": stand-ins
        and ALGORITHM_NAME.fullmatch(value) is None
        and SHORT_MIX_KEY.search(text, max(0, start - NEAR), start) is not None
    )


def _labelled_digits(rule: Rule, text: str, start: int, end: int) -> bool:
    """A PIN-like password of a ``mixed`` rule's, or a short mix of letters and digits, in
    backticks after a password word and ``:`` (``(password: `4729`)``, ``sudo password:
    `k9x7```), or digits after a login's name and a password word (``用户名：<name>，密码：
    <4 digits>``): its distinct characters judge it, not its entropy."""
    value = text[start:end].strip()
    if rule.value != "mixed":
        return False
    if _login_digits(value) and (
        _login_given_before(text, start) or _login_on_line_above(text, start)
    ):
        return True
    if _machine_digits(text, start, end, value):
        return True
    short = value.isdigit() or _short_mix(value)
    return short and _labelled_short(text, start, end)


# A machine's own password right after its word, the value ending its line (``## sudo
# password: <4 digits>``, held-out batch 187): no year, no port and no run stands there, so
# four digits are the password, as a PIN is, without backticks
MACHINE_PASSWORD = re.compile(
    r"(?i:\b(?:sudo|root|ssh)[ _-]?(?:password|passwd|pwd))\*{0,2}[ \t]*[:=：]\*{0,2}[ \t]*$"
)
YEAR_DIGITS = re.compile(r"(?:19|20)\d\d")


def _machine_digits(text: str, start: int, end: int, value: str) -> bool:
    """Four digits or more after ``sudo password:`` (``root``, ``ssh``) ending their line."""
    if not _login_digits(value) or YEAR_DIGITS.fullmatch(value) or _digit_run(value):
        return False
    if WORD_ENDS.match(text, end) is None:
        return False
    return MACHINE_PASSWORD.search(text, max(0, start - NEAR), start) is not None


# A login given, then the password's word: "用户名：<name>，密码：", "user: <name>, password:"
LOGIN_THEN_PASSWORD = re.compile(
    r"(?:用户名|账号|帳號|帐号|登录名|(?<![A-Za-z])(?i:user(?:name)?|login))[ \t]*[:：=][ \t]*"
    # a login, not a check's status or a count (``e2e login: ok, pass: 1523``)
    r"(?!(?:(?i:ok|on|off|yes|no|true|false|none|passed|failed)|\d+(?:/\d+)?)[ \t]*[,，;；/])"
    r"[^\s,，;；:：]{1,40}"
    r"[ \t]*[,，;；/][ \t]*(?i:密码|密碼|password|passwd|pwd|pw|pass)[ \t]*[:：=][ \t]*[\"'`]?$"
)
# ... and its looser twin for a drawn password of letters (:func:`_shaped_by_its_pair`):
# the colons may go, the two joined by "/" (``用户名 <login> / 密码 ``, ``user <login> /
# password: ``)
LOGIN_THEN_PASSWORD_WORD = re.compile(
    r"(?i:(?:用户名|用戶名|账号|帳號|user(?:name)?|login)[ \t]*[:：]?[ \t]*[^\s/]{2,40}"
    r"[ \t]*/[ \t]*(?:密码|密碼|password|passwd|pass|pwd)[ \t]*[:：]?[ \t]*)$"
)


# Digits a note gives as a stand-in or a port, not a chosen password: a run ("1234",
# "4321"), a database's or a service's well-known port
PORT_DIGITS = frozenset(
    "3306 5432 6379 8080 8443 8000 8888 9000 9200 27017 1433 1521 5672 11211".split()
)


def _digit_steps(value: str) -> set[int]:
    """The steps between neighbouring digits of an all-digit value. ``str.isdigit`` admits
    superscripts ("²³⁴⁵"), which ``int`` refuses; ``unicodedata.digit`` reads every one."""
    return {unicodedata.digit(b) - unicodedata.digit(a) for a, b in itertools.pairwise(value)}


def _digit_run(value: str) -> bool:
    """A run of the keyboard's digits or one digit repeated (``1234``, ``4321``, ``0000``):
    a default's or a stand-in's PIN, not one a person chose."""
    return value.isdigit() and _digit_steps(value) in ({1}, {-1}, {0})


def _login_digits(value: str) -> bool:
    """Four digits or more that are no run of the keyboard's and no well-known port."""
    if not value.isdigit() or len(value) < MIN_LABELLED_DIGITS or value in PORT_DIGITS:
        return False
    return _digit_steps(value) not in ({1}, {-1})


def _login_given_before(text: str, start: int) -> bool:
    """Whether a login's name and a password's word end right before the value."""
    return LOGIN_THEN_PASSWORD.search(text, max(0, start - NEAR), start) is not None


# A git word, then "pass" as a run of work (``this pass``, ``the last pass``) in one clause
# before a short hash (``Branch head before this pass: `1ed3aacc6```): a commit's abbreviated
# hash. Any other "pass" (``Head office guest pass:``, ``commit done, wifi pass:``) is a
# password's word: ``openssl rand -hex 5`` draws passwords of this shape.
GIT_WORD_BEFORE = re.compile(
    r"(?i:\b(?:head|commit|sha|revision)\b[^\n;,.!?/]*"
    r"\b(?:this|that|last|next|each|every|first|second|final|previous) pass[ \t]*[:=][*_ \t]*`?)$"
)
SHORT_HASH = re.compile(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,12}")


# A URL's user part holding a password's word for its password (``postgresql://app:密码@host``):
# what follows the word is the URL's host
URL_PASSWORD_WORD = re.compile(r"://[^\s/@:]*:(?:密码|密碼|口令)$")


# After "password shared with <name>:" a note gives when or how as often as the value:
# a date (``14Mar2026``), a channel or a way joined by hyphens, its tail lower-case words
# and numbers (``via-1password``, ``Signal-msg-4821``, ``on-2026-03-14``; ``Slack-Fern#2026``
# is a password named for the channel)
SHARED_WITH = re.compile(
    r"(?i:\b(?:shared|sent|given)\*{0,2} (?:with|to) [^:：\n]{1,40}[:：]\*{0,2}[ \t]*)$"
)
WHEN_OR_HOW = re.compile(
    r"(?i:\d{1,2}[ -]?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ -]?\d{2,4}"
    r"|(?:via|on|over|by|in|through|signal|telegram|whatsapp|slack|email|e-mail|sms|discord"
    r"|1password|bitwarden)[-_](?-i:[a-z0-9-]*))"
)


def _how_it_was_shared(text: str, start: int, value: str) -> bool:
    """Whether the value after "password shared with <name>:" says when or how."""
    return WHEN_OR_HOW.fullmatch(value) is not None and (
        SHARED_WITH.search(text, max(0, start - NEAR), start) is not None
    )


BEARER_RULE = "bearer-token"  # a rule's name
# "Bearer token" and, unquoted, lower-case words and numbers joined by hyphens: what the token
# does (``Bearer token auto-refreshes-every-15min``); quoted, a token of words is one
BEARER_TOKEN_UNQUOTED = re.compile(r"(?i:\bbearer[ \t]+token[ \t]*[:=]?[ \t]*)$")
BEARER_PROSE_WORDS = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+){2,}")


def _bearer_token_prose(text: str, start: int, value: str) -> bool:
    """Whether unquoted words joined by hyphens follow "Bearer token"."""
    return (
        BEARER_PROSE_WORDS.fullmatch(value) is not None
        and sum(part.isalpha() and len(part) >= 3 for part in value.split("-")) >= 2
        and BEARER_TOKEN_UNQUOTED.search(text, max(0, start - NEAR), start) is not None
    )


ENV_DIGITS_RULE = "env-password-digits"  # a rule's name
# A variable's name setting something about passwords, not one (``MIN_PASSWORD=8``,
# ``MAX_PASSWORD=1024``, ``TTL_PASSWORD=3600``): a word of the name before the value's "="
PASSWORD_SETTING_NAME = re.compile(
    r"(?:^|_)(?:MIN|MAX|LEN|LENGTH|TTL|TIMEOUT|EXPIRY|EXPIRES|RETRIES|ATTEMPTS|ROUNDS"
    r"|COST|SIZE|HISTORY|DAYS)_"
)
VARIABLE_BEFORE = re.compile(r"[A-Z0-9_]+=$")


def _password_setting_name(text: str, start: int) -> bool:
    """Whether the variable the digits are given to names a setting about passwords."""
    name = VARIABLE_BEFORE.search(text, max(0, start - NEAR), start)
    return name is not None and PASSWORD_SETTING_NAME.search(name.group(0)) is not None


def _short_commit(text: str, start: int, value: str) -> bool:
    """Whether the value is a commit's short hash after a git word and "pass" (a run's)."""
    if SHORT_HASH.fullmatch(value) is None:
        return False
    return GIT_WORD_BEFORE.search(text, line_start_within(text, start, NEAR), start) is not None


def _short_mix(value: str) -> bool:
    """Four ASCII letters and digits or more, both kinds: ``k9x7``, a sudo password."""
    return (
        len(value) >= MIN_LABELLED_DIGITS
        and value.isascii()
        and value.isalnum()
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
    )


def _scheme_before(text: str, start: int) -> int:
    """Where the ``://`` of the URL holding ``start`` is, within 80 characters (or -1)."""
    return text.rfind("://", max(0, start - 80), start)


def _userinfo_password(text: str, start: int, value: str) -> str:
    """The password of a URL's user information (``https://user:pass@host``) ends at its
    ``@``: a rule that reads on to the host still judges the password alone."""
    scheme = _scheme_before(text, start)
    if scheme < 0 or "@" not in value or any(c.isspace() for c in text[scheme:start]):
        return value
    return value.split("@", 1)[0]


def _template_default(text: str, start: int, end: int) -> bool:
    """A URL's password on this machine or a compose network's service that only names
    itself a password or repeats the user's name
    (``postgresql://fern_user:fern_password@localhost/fern``, ``fern:fern@postgres``):
    a compose file's or a template's default for a local database, the same in every
    clone of the project, no one's secret."""
    if text[start - 1 : start] != ":" or LOCAL_HOST.match(text, end) is None:
        return False
    value = text[start:end]
    scheme = _scheme_before(text, start)
    user = text[scheme + 3 : start - 1] if scheme >= 0 else ""
    return DEFAULT_PASSWORD.fullmatch(value) is not None or value.lower() == user.lower()


def _firebase_web_key(text: str, start: int, value: str) -> bool:
    """A Firebase web app's API key (``FIREBASE_API_KEY = "AIza..."``, ``Firebase project:
    `x` | API key: `AIza...` ``, the ``apiKey`` of the object ``firebaseConfig`` or
    ``initializeApp(`` opens): public by design, as its clients ship it."""
    if not value.startswith("AIza"):
        return False
    line_start, line = _line_at(text, start)
    if OTHER_GOOGLE_API.search(line):
        return False
    if FIREBASE_KEY_LINE.search(line) or _under_a_firebase_item(text, line_start, line):
        return True
    if CONFIG_API_KEY.search(line) is None:
        return False
    above = line_start
    for _ in range(FIREBASE_CONFIG_LINES):
        above = text.rfind("\n", 0, max(0, above - 1)) + 1
    opened = FIREBASE_CONFIG.search(text, above, line_start)
    # the value inside the object that opener starts: no brace closes before it
    return opened is not None and "}" not in text[opened.end() : start]


def _under_a_firebase_item(text: str, line_start: int, line: str) -> bool:
    """Whether the value's line is a list item nested under one that names Firebase
    (``- **认证**: Firebase Authentication`` then ``  - API Key: `AIza...` ``): the key of
    the web app that item describes, a site's own or another's."""
    indent = len(line) - len(line.lstrip(" \t"))
    if not indent or LIST_ITEM.match(line) is None:
        return False
    for parent in _lines_above(text, line_start, FIREBASE_ITEM_REACH)[:FIREBASE_CONFIG_LINES]:
        if parent.strip() and len(parent) - len(parent.lstrip(" \t")) < indent:
            return FIREBASE_KEY_LINE.search(parent) is not None and not OTHER_GOOGLE_API.search(
                parent
            )
    return False


def _lines_above(text: str, line_start: int, reach: int) -> list[str]:
    """The lines before the one that starts at ``line_start``, nearest first, read no
    further back than ``reach`` characters (the farthest may be a long line's end only):
    a long line above is not read back to its start for each value below it."""
    if not line_start:
        return []
    return text[max(0, line_start - reach) : line_start - 1].split("\n")[::-1]


def _bitable_app_token(text: str, start: int, value: str) -> bool:
    """``app_token: <id>`` in a base token's shape with a Bitable's table id (``table_id:
    tbl...``) or the word near it: the base's id, which its every link shows, not Feishu's
    app access token (a vendor's app token, ``ghs_...``, has its own rule and shape)."""
    if BITABLE_TOKEN.fullmatch(value) is None:
        return False
    before = near_on_its_line(text, start)
    label = APP_TOKEN_LABEL.search(before)
    near = max(0, start - BITABLE_REACH), min(len(text), start + BITABLE_REACH)
    if label is None:
        # ``- **Token**: <27 characters>`` under a heading that names the base: its id, in
        # the shape Feishu draws a base's (a chat app's token has another)
        bare = BARE_TOKEN_LABEL.search(before) is not None and BASE_ID.fullmatch(value)
        return bool(bare) and BITABLE_NEAR.search(text, *near) is not None
    if BITABLE_NEAR.search(text, *near) is not None:
        return True
    # far from the word, only the API's own field name (``app_token``), not a chat app's
    # "App Token:" in a file that mentions Bitable elsewhere
    api_field = "app_token" in label.group(0)
    return api_field and BASE_ID.fullmatch(value) is not None and _speaks_of_bitable(text)


@functools.lru_cache(maxsize=16)
def _speaks_of_bitable(text: str) -> bool:
    """Whether the text names Bitable anywhere (once per text, as it is asked per value)."""
    return BITABLE_NEAR.search(text) is not None


def _chat_webhook_key(text: str, start: int, value: str) -> bool:
    """The ``key=`` of a Google Chat webhook's URL (``CHAT_WEBHOOK_KEY``): public by design,
    as every webhook carries it; the ``token=`` beside it is judged as any value is."""
    return value.startswith("AIza") and bool(
        CHAT_WEBHOOK_KEY.search(text, max(0, start - CHAT_WEBHOOK_REACH), start)
    )


def _public_cli_client(text: str, start: int) -> bool:
    """The client secret of an OAuth client that Google's command-line tools ship in their
    source (the Firebase CLI's, gcloud's): an installed app's, which Google makes public; a
    note's script refreshes the CLI's stored token with it. Known by its client id, named
    just before; the refresh token itself, and the user's own client, stay secrets."""
    if text.startswith(CURRENT_CLIENT_SECRET, start):
        return False  # Google's secrets since 2021 open so; the CLIs' older ones do not
    if CLIENT_SECRET_LABEL.search(_line_before(text, start)) is None:
        return False
    ids = list(GOOGLE_CLIENT_ID.finditer(text, max(0, start - PUBLIC_CLIENT_REACH), start))
    return bool(ids) and PUBLIC_CLI_CLIENT_ID.fullmatch(ids[-1].group()) is not None


def _public_by_design(text: str, value: str) -> bool:
    """A key its issuer makes to be public (``PUBLISHABLE``, ``JWT_PAYLOAD``): telling its
    owner to rotate it would be wrong, as a new one is public again. A JWT with no role of
    its own is public when the note gives it as a project's anon key at one of its places
    (``NEXT_PUBLIC_SUPABASE_ANON_KEY=<jwt>``, ``- ANON_KEY: <jwt>``): that key is in every
    client of the project, so the same token pasted again under a service-role label is too."""
    if PUBLISHABLE.match(value):
        return True
    claims = jwt_claims(value)
    if claims is None:
        return False
    if claims.get("role") == PUBLIC_ROLE or claims.get("iss") == LOCAL_DEMO_ISSUER:
        return True
    return "role" not in claims and _labelled_anon_somewhere(text, value)


def _labelled_anon_somewhere(text: str, value: str) -> bool:
    """Whether one of the value's places in ``text`` follows an anon key's label."""
    at = text.find(value)
    while at >= 0:
        if ANON_LABEL.search(_line_before(text, at)) is not None:
            return True
        at = text.find(value, at + len(value))
    return False


def _unpadded_base64url(value: str) -> bytes:
    """The bytes of base64url written without its padding (a JWT's parts, a cursor);
    a ValueError (``binascii.Error``) when it is none."""
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def jwt_claims(value: str) -> dict[str, Any] | None:
    """The claims of a JSON Web Token's payload (``eyJ...`` its second part), or None when
    the value is no token or its payload no JSON object (bounded: ``MAX_PAYLOAD``)."""
    jwt = JWT_PAYLOAD.match(value)
    if jwt is None or len(jwt.group(1)) > MAX_PAYLOAD:
        return None
    payload = jwt.group(1)
    try:  # binascii.Error and the JSON and UTF-8 errors are ValueErrors; deep nesting recurses
        claims = json.loads(_unpadded_base64url(payload))
    except (ValueError, RecursionError):
        return None
    return claims if isinstance(claims, dict) else None


def jwt_expiry(value: str) -> float | None:
    """When a JSON Web Token expires by its own ``exp`` claim (seconds since the epoch), or
    None: no token, no such claim, or not a number."""
    claims = jwt_claims(value)
    expiry = claims.get("exp") if claims is not None else None
    if isinstance(expiry, bool) or not isinstance(expiry, int | float):
        return None
    return float(expiry)


def _glob_list(value: str) -> bool:
    """Shell patterns where a value would be: three stars or more, one of them wrapping a
    word (``token*:*key*:*secret*``, the rest of ``HISTIGNORE="*password*:..."``)."""
    return (
        value.count("*") >= MIN_GLOB_STARS
        and STARRED_WORD.search(value) is not None
        and GLOB_LIST.fullmatch(value) is not None
    )


def _key_id_beside_private_key(text: str, start: int, value: str) -> bool:
    """A UUID given as an API's key with a private key's file named on one of the two lines
    after it (``- Private key saved: <path>.pem``), or that the file names a key's id at
    another place: the id of a key pair whose secret half is the key file, which signs the
    requests."""
    if KEY_ID_UUID.fullmatch(value) is None:
        return False
    # the lines after the value's own, read no further than WINDOW (a long line is not
    # read again for each value on it)
    window = text[start + len(value) : start + len(value) + WINDOW]
    following = window.split("\n")[1 : 1 + SIGNING_KEY_REACH]
    if any(PRIVATE_KEY_FILE.search(line) is not None for line in following):
        return True
    return _named_an_id_nearby(text, start, value)


def _named_an_id_nearby(text: str, start: int, value: str) -> bool:
    """Whether the text near the value gives the same UUID after a key id's label (``API
    key id: <uuid>``, then ``KALSHI_API_KEY=<uuid>`` in the environment listed below it):
    one value, named an id where it was noted. Reads ``ID_ELSEWHERE_REACH`` characters on
    each side and the first few places only (a file of many keys is not read whole for
    each)."""
    low, high = max(0, start - ID_ELSEWHERE_REACH), start + len(value) + ID_ELSEWHERE_REACH
    at = text.find(value, low, high)
    for _ in range(ID_ELSEWHERE_PLACES):
        if at < 0:
            return False
        if KEY_ID_LABEL.search(text, max(0, at - NEAR), at) is not None:
            return True
        at = text.find(value, at + len(value), high)
    return False


def _base64_of_text(value: str) -> bool:
    """``key=eyJsYXN0SWQiOiJhYmMxMjMifQ``, ``key=MjAyNC0wNS0xN1QxMjowMDowMFo``: base64 of
    printable text (a cursor's JSON, a timestamp), where a drawn key decodes to bytes."""
    try:  # binascii.Error and the UTF-8 errors are ValueErrors
        decoded = _unpadded_base64url(value).decode("ascii")
    except ValueError:
        return False
    return decoded.isprintable()


def _page_cursor(value: str) -> bool:
    """A list API's page cursor (``page_token=eyJwYWdlIjoxfQ==``): base64 of a small JSON
    object that opens with a page's or an offset's number, no credential (a doc's example
    may be cut: ``{"page":21``)."""
    if len(value) > MAX_CURSOR or not value.startswith("eyJ"):
        return False
    try:  # binascii.Error and the UTF-8 errors are ValueErrors
        page = _unpadded_base64url(value).decode()
    except ValueError:
        return False
    return CURSOR_JSON.match(page) is not None


def _model_name(value: str) -> bool:
    """``qwen3-next-80b-a3b``: a model's name, one of its hyphenated lower-case parts its
    size in parameters (``MODEL_SIZE``)."""
    parts = value.split("-")
    return (
        len(parts) >= MIN_MODEL_PARTS
        and all(MODEL_PART.fullmatch(part) for part in parts)
        and any(MODEL_SIZE.fullmatch(part) for part in parts)
        # a name's word among them: a UUID's groups are hex digits alone (``7d3b`` reads as
        # a size too)
        and any(not HEX_DIGITS.issuperset(part) for part in parts)
    )


def _folder_of_its_kind(value: str) -> bool:
    """``Passwords: 1Password/ (shared vault)``: a folder or an app named for what it
    keeps, its slash closing it (a password's own trailing slash follows drawn letters)."""
    stem = value.removesuffix("/").lower()
    return stem != value.lower() and any(kind in stem for kind in FOLDER_KINDS)


def _named_for_its_place(text: str, start: int, value: str) -> bool:
    """``管理密码: fernshop_admin_2026``: a site's admin password named for the site and
    the year, after a password's own label (the label's words before the value); or any
    words and a year right after a credential's label (:data:`LABEL_RIGHT_BEFORE`)."""
    if SITE_ADMIN.search(value) is not None:
        return PASSWORD_LABEL.search(near_on_its_line(text, start)) is not None
    if YEAR_END.search(value) is None or SNAKE_CASE.match(value) is None:
        return False
    return LABEL_RIGHT_BEFORE.search(near_on_its_line(text, start)) is not None


def _validation_rules(value: str) -> bool:
    """``required|min:8|confirmed``: a framework's validation rules (``VALIDATION_RULE``
    joined by ``|``, one of ``VALIDATION_NAMES`` among them), where a form's password goes."""
    if "|" not in value:
        return False
    rules = value.split("|")
    return all(VALIDATION_RULE.fullmatch(rule) for rule in rules) and any(
        rule.split(":", 1)[0] in VALIDATION_NAMES for rule in rules
    )


def _named_not_secret(text: str, start: int, value: str) -> bool:
    """A name that is no secret: a pump.fun mint and a Tailscale key's id alone, wherever
    they stand; a token's ticker under a token's label that names it (``COLS Token:
    `COLS-9d91b7` ``), an app's slug path under a key's or an app id's label (LogRocket's
    ``API key: <org>/<app>``), a key's fingerprint after its digest's name, never under a
    password's label (``WIFI_PASSWORD=GUEST-7c2e9a`` is the password)."""
    if PUMP_MINT.fullmatch(value) or TAILSCALE_KEY_ID.fullmatch(value):
        return True  # public wherever they stand
    before = text[max(0, start - NEAR) : start]
    if PASSWORD_WORD.search(before):
        return False
    ticker = TOKEN_TICKER.fullmatch(value)
    if ticker is not None and ticker.group(1) in before and TOKEN_WORD.search(before):
        return True
    if APP_SLUG.fullmatch(value) and APP_KEY_LABEL.search(before):
        return True
    return bool(FINGERPRINT_BEFORE.search(before) and FINGERPRINT_VALUE.fullmatch(value))


def _a_repository_pair(text: str, start: int, value: str) -> bool:
    """``Liberty-Emporium / echo-v1``: an owner's name in capitals, a slash and a project's
    versioned name, a repository where a login-pair rule looks for a password."""
    if VERSIONED_NAME.fullmatch(value) is None:
        return False
    return OWNER_BEFORE.search(text[max(0, start - NEAR) : start]) is not None


def _a_prompt_or_escaped_text(text: str, start: int, value: str) -> bool:
    """A terminal's text where a password would be: the shell's prompt (``tim@srv:~$``), or
    anything after sudo's own prompt (``[sudo] password for tim:``, which echoes nothing);
    or a word holding an escaped quote (``that&apos;s``: a page's export of a chat, its
    quotes as entities), where the rules' values end at a quote."""
    # the value with the two characters after it: its ";" may have ended the value
    if SHELL_PROMPT.fullmatch(value) or ESCAPED_QUOTE.search(text, start, start + len(value) + 2):
        return True
    return SUDO_PROMPT.search(text, max(0, start - NEAR), start) is not None


def _an_active_status(text: str, start: int, value: str) -> bool:
    """``API key active: since-2026-05-01``: after ``active``, a value without a key's shape
    (mixed case and a digit, or a long hex run) is the key's status or name."""
    if ACTIVE_LABEL.search(text, max(0, start - NEAR), start) is None:
        return False
    has = _Features(value)
    return not ((has.cases and has.digit) or LONG_HEX.search(value))


def _a_configured_note(text: str, start: int, value: str) -> bool:
    """``Token：已配置（gh-cli-v2.40）``: in brackets after "configured", lower-case words and
    versions joined by ``-`` (``read-only-v2``) are a note on the setting, not its value."""
    if CONFIGURED_BRACKET.search(text, max(0, start - NEAR), start) is None:
        return False
    return CONFIGURED_NOTE.fullmatch(value) is not None


def _keyboard_tail(value: str) -> bool:
    """A name, then three of the keyboard's runs, letters' and digits' both, where a value
    goes (``hermes-abc123xyz``)."""
    tail = STAND_IN_TAIL.fullmatch(value)
    if tail is None:
        return False
    runs = tail.group(1).lower()
    letters = sum(runs.count(run) for run in LETTER_RUNS)
    return 0 < letters < len(runs) // 3


def _keyboard_example(value: str) -> bool:
    """A key typed as a doc's example: five or more of the alphabet's and the digits'
    runs in it (``AIzaSyDOCAbC123dEf456GhI789jKl012-MnO``); a random key of forty
    characters holds five such runs far less than once in a billion. A short value is a
    person's password, weak on purpose or not, unless it is nothing but such runs, letters'
    and digits' in turn (``abc123def456``, ``abc123def456xyz789``: a doc's token)."""
    lowered = value.lower()
    if len(value) < MIN_TYPED_KEY:  # a person's password may be "Abc123456!"
        prefix = VENDOR_PREFIX.match(value)  # "sk-abc123def456ghi789": a vendor's prefix first
        return _typed_runs_only(value) or (
            prefix is not None and _typed_runs_only(value[prefix.end() :])
        )
    return sum(run in lowered for run in TYPED_RUNS) >= MIN_TYPED_RUNS or _stepped_pairs(lowered)


def _stepped_pairs(lowered: str) -> bool:
    """A key a model or a doc made up in hex: a run of digit-and-letter pairs that count
    up or down in step (``6a5b4c3d2e1f``, ``6a7b8c9d0e1f2a3b``). Drawn hex holds
    :data:`MIN_STEPPED_PAIRS` such pairs in a row far less than once in a million keys."""
    run, step = 1, None
    for at in range(0, len(lowered) - 3):
        digit, letter = lowered[at], lowered[at + 1]
        following = lowered[at + 2 : at + 4]
        # ASCII digits only: "²" is a digit to str.isdigit, not to int
        if not ("0" <= digit <= "9" and "a" <= letter <= "f" and len(following) == 2):
            continue
        if not ("0" <= following[0] <= "9" and "a" <= following[1] <= "f"):
            run, step = 1, None
            continue
        pair_step = ((int(following[0]) - int(digit)) % 10, (ord(following[1]) - ord(letter)) % 6)
        if pair_step[0] not in (1, 9) or pair_step[1] not in (1, 5):
            run, step = 1, None
        elif step in (pair_step, None):
            # the first step of a run fixes its directions; later pairs keep them
            step = pair_step
            run += 1
            if run >= MIN_STEPPED_PAIRS:
                return True
        else:
            run, step = 2, pair_step  # a turn: this step opens the next run
    return False


def _typed_runs_only(value: str) -> bool:
    """A doc's token typed as the keyboard's runs, letters' and digits' in turn and none
    twice, in lower case (``abc123def456``); ``abc123abc123`` and ``Abc123Xyz789`` are
    passwords people choose, weak as they are."""
    if value != value.lower():
        return False
    runs = [value[at : at + 3] for at in range(0, len(value), 3)]
    return (
        len(runs) >= MIN_RUNS_ONLY
        and len(set(runs)) == len(runs)
        and all(run in TYPED_RUNS for run in runs)
        and any(run.isalpha() for run in runs)
        and any(run.isdigit() for run in runs)
    )


def _a_named_hash(text: str, start: int, value: str) -> bool:
    """A hash where its line names one (``PASSWORD_HASH=<bcrypt>``): long, in a hash's
    alphabet; a short plain value after such a name is a password kept in the wrong place.
    Telegram's ``api_hash: <32 hex>`` is a secret."""
    if not HASH_VALUE.match(value):
        return False
    window = max(0, start - NEAR)
    if TELEGRAM_API_HASH.fullmatch(value) and API_HASH.search(text, window, start):
        return False
    named = HASH_NAMED.search(text, window, start)
    return named is not None and not _key_for(
        text, line_start_within(text, start, NEAR), named.start()
    )


def _least_entropy(rule: Rule, text: str, start: int, end: int) -> float:
    """The rule's entropy, except for a password of digits only or a quoted word given
    after ``:`` or ``=``: a date of birth (``| 密码 | 19990827 |``) repeats digits and a
    word its letters (``Password: "Marisa"``), so entropy says little of them; five
    distinct characters (``MIN_DISTINCT``) and ``_stated`` judge them."""
    value = text[start:end].strip()
    # "(password: `4729`)", "password: 155162", "pw: <5 letters and digits>": the distinct
    # characters judge them
    if (
        _labelled_digits(rule, text, start, end)
        or _keyed_digits(rule, text, start, end)
        or _keyed_short_mix(rule, text, start, end)
    ):
        return 0.0
    if rule.value == "mixed" and (value.isdigit() or _quoted_word(text, start, end)):
        return min(rule.entropy or 0.0, DIGITS_ENTROPY)
    if rule.value is None and _password_keyed(text, start, value):
        return min(rule.entropy or 0.0, PASSWORD_KEY_ENTROPY)
    # an account's login right before it, or on the line above: the pair says what it is
    if rule.value == "mixed" and (
        EMAIL_LOGIN_BEFORE.search(text, max(0, start - 80), start)
        or SERVER_LOGIN_BEFORE.search(text, max(0, start - 80), start)
        or _login_on_line_above(text, start)
    ):
        return min(rule.entropy or 0.0, DIGITS_ENTROPY)
    if rule.value in PASSWORD_KINDS and _patterned_password(value):
        return min(rule.entropy or 0.0, DIGITS_ENTROPY)
    return rule.entropy or 0.0


def _login_on_line_above(text: str, start: int) -> bool:
    """``- Username: <login>`` on the line right above the password's: the account's pair
    says what the value is, so a weak password (``k1k2k3k4``) is judged as one."""
    line_start = text.rfind("\n", 0, start) + 1
    if not line_start:
        return False
    above = _lines_above(text, line_start, NEAR + 1)[0]
    return LOGIN_ABOVE.search(above) is not None


def _patterned_password(value: str) -> bool:
    """Eight characters or more with a letter, a digit and a symbol (``Ab!123!Ab``): a
    person's password, whose halves and initials repeat, so its entropy says little; its
    distinct characters (``MIN_DISTINCT``) judge it."""
    has = _Features(value)
    return len(value) >= PATTERNED_LENGTH and has.letter and has.digit and has.symbol


def _password_keyed(text: str, start: int, value: str) -> bool:
    """``keyPassword=<letters and digits>``: a key rule's value set under a key that ends
    in a password word, mixing letters and digits (a token's key, ``PASSWORD_RESET_TOKEN=``,
    keeps the key rules' entropy)."""
    has = _Features(value)
    return (
        has.letter
        and has.digit
        and PASSWORD_KEY.search(text, max(0, start - 24), start) is not None
    )


def _quoted_word(text: str, start: int, end: int) -> bool:
    """Letters only, in quotes, right after ``:`` or ``=`` (``Password: "Marisa"``), or in
    backticks after a password's name with no colon (``_named_password``)."""
    value = text[start:end].strip()
    if not value.isalpha():
        return False
    if _quoted_after_separator(text, start, end) or _named_password(text, start, end):
        return True
    return _header_password(text, start, end)


# A request's header that carries a password, the value closing its quotes: curl's
# ``-H "X-Password: <word>"``, a board's shared password sent with each call
HEADER_PASSWORD = re.compile(
    r"""(?i:(?:-H|--header)[ \t]+["'](?:x-)?(?:[a-z]{1,20}-)?pass(?:word|wd)?[ \t]*:[ \t]*)$"""
)


def _header_password(text: str, start: int, end: int) -> bool:
    """A word closing a quoted ``-H "X-Password: ..."`` header of a command line."""
    if text[end : end + 1] not in ("'", '"'):
        return False
    return HEADER_PASSWORD.search(text, max(0, start - NEAR), start) is not None


def _quoted_after_separator(text: str, start: int, end: int) -> bool:
    """In quotes or backticks that close right after it, and ``:`` or ``=`` before them."""
    opening = text[start - 1 : start] if start else ""
    if opening not in CLOSING_QUOTES or text[end : end + 1] != CLOSING_QUOTES[opening]:
        return False
    return text[max(0, start - 8) : start - 1].rstrip(" *").endswith(SEPARATORS)


def _cut_address(value: str, text: str, end: int) -> bool:
    """``deploy@10`` of ``deploy@10.20.30.40``: a rule stopped inside a host name."""
    return "@" in value and HOST_GOES_ON.match(text, end) is not None


def _shaped(rule: Rule, text: str, start: int, end: int) -> bool:
    """The value has the shape its rule asks for, where it stands."""
    value = _question_closed(text[start:end].strip(), text, end)
    kind = rule.value
    if kind is None and _wordlike(value):
        # "For token: computed from the weights": a word, unless quoted after ":" or "="
        return _stated(text, start, end, value)
    kind = _under_its_heading(kind, value)
    if kind == "token-section":  # a fenced value under "## Tokens": its heading checked first
        if _named_no_key(value):
            return False  # a digest, a client's id, an address: named, no key
        if SECTION_KEY.fullmatch(value) or _drawn_lower(value) or _drawn_upper(value):
            return True  # under a token's heading, hex of any generated length (112 digits)
        kind = "key"
    if kind == "credential":  # "ops / <value>" in a credentials cell, or an id alone
        kind = "mixed" if PAIRED.search(text, max(0, start - 80), start) else "symbol"
    if kind == "key" and not _has_shape(kind, value) and _keyed_secret(text, start):
        kind = "mixed"  # "- 키: `<words>-2031`" under "### 암호화 키"
    if kind == "mixed" and _unseparated(text, start):
        kind = "strong"  # "password Word01!!": with no separator, prose unless it is strong
    if _shaped_by_its_pair(rule, kind, text, (start, end), value):
        return True
    if kind == "mixed" and (
        # "sudo password: <4 digits>": its word says what the digits are
        _machine_digits(text, start, end, value)
        # a generated password of letters only, in a password column
        or (rule.table and _random_letters(value, TABLE_LETTERS))
    ):
        return True
    return _has_shape(kind, value) or (kind == "mixed" and _stated(text, start, end, value))


def _under_its_heading(kind: str | None, value: str) -> str | None:
    """The shape a list's value under a heading of its kind asks (the heading is checked
    first): under "### Passwords by machine", ``- **Laptop:** `<value>` `` is a password's
    digits or a mixed value; under "## Session cookies", ``sid=<value>`` a token's shape (a
    session's id is drawn in one case as often as in two)."""
    if kind == "section":
        return "digits" if value.isdigit() else "mixed"
    if kind == "cookie-section":
        return "token"
    return kind


def _device_code(text: str, start: int, value: str) -> bool:
    """A value its line's link gives as an OAuth device flow's ``user_code``: a code shown
    for one sign-in, spent by it. Read within :data:`DEVICE_CODE_REACH` of the value (a
    long line of values is not read again for each)."""
    floor = line_start_within(text, start, DEVICE_CODE_REACH)
    ceiling = text.find("\n", start, start + DEVICE_CODE_REACH)
    window = text[floor : ceiling if ceiling >= 0 else start + DEVICE_CODE_REACH]
    return any(
        window.startswith(value, label.end()) for label in DEVICE_CODE_LABEL.finditer(window)
    )


def _scale_steps(text: str, start: int, value: str) -> bool:
    """A pair's two halves are steps of one scale (``mint-50/mint-100``): one word, two
    numbers, as a palette's or a size's names; a login is no step of its password's."""
    step = SCALE_STEP.fullmatch(value)
    first = SCALE_BEFORE.search(text, max(0, start - NEAR), start) if step else None
    return (
        first is not None and step is not None and first.group(1).lower() == step.group(1).lower()
    )


# A flow mapping's key right before the value (``{uid:`` or ``, uid:``), and after the value
# the next entry's key or the closing brace
FLOW_KEY_BEFORE = re.compile(r"[{,][ \t]*[A-Za-z_][\w-]*:$")
FLOW_NEXT = re.compile(r"[ \t]*(?:,[ \t]*[A-Za-z_][\w-]*[ \t]*:|\})")
# ... whose value is an id's numbered parts (``P-0316-08``, ``T-12-3``): a map of logins to
# passwords in braces (``{root:<value>, deploy:<value>}``) stays a pair
NUMBERED_ID = re.compile(r"[A-Za-z]{0,4}-?[0-9]{2,}(?:[-_][0-9]+)+")


def _private_key_named(text: str, start: int, value: str) -> bool:
    """A value after ``Private key:`` in words (not ``private_key:``, a setting's name) that
    is no drawn key: a fingerprint, a curve's or a file's name, a vault's path, a title
    (``fernhill-deploy-2024``), an age public recipient (``age1...``). A key written out is
    hex, base64, base58 or bech32 drawn by a generator."""
    if PRIVATE_KEY_WORDS.search(_line_before(text, start)) is None:
        return False
    body = value.removeprefix("0x")
    drawn = (
        (HEX_ONLY.fullmatch(body) is not None and len(body) >= MIN_DRAWN)
        or _drawn_base64(value)
        or _drawn_lower(value)
        # base58 or base62: both cases and digits, no word's separators
        or (len(value) >= MIN_DRAWN and value.isascii() and value.isalnum() and _drawn_mixed(value))
    )
    return not drawn or value.startswith(AGE_RECIPIENT)


def _plural_label_prose(text: str, start: int, end: int, value: str) -> bool:
    """A sentence after a plural label (``API keys: Dual-key period with failover``): a
    value of letters and hyphens, then prose; a key or a password is no such word."""
    return (
        PLURAL_LABEL_WORDS.fullmatch(value) is not None
        and PROSE_GOES_ON.match(text, end) is not None
        and PLURAL_LABEL.search(_line_before(text, start)) is not None
    )


def _an_id_field(text: str, start: int, value: str) -> bool:
    """The "login" of a pair that is an id's field (``credentials,request_id:req_<24>``, an
    API error's fields run together), its value an id's characters: no password."""
    return (
        ID_SHAPE.fullmatch(value) is not None
        and ID_FIELD_BEFORE.search(text, max(0, start - NEAR), start) is not None
    )


def _flow_mapping_entry(text: str, start: int, end: int) -> bool:
    """A flow mapping's entry whose value is an id (``{uid:P-0316-08, status:planned}``: a
    planner's fields in braces after an account's word): a key and its value, another entry
    or the closing brace after it, no login and password."""
    return (
        NUMBERED_ID.fullmatch(text, start, end) is not None
        and FLOW_KEY_BEFORE.search(text, max(0, start - NEAR), start) is not None
        and FLOW_NEXT.match(text, end) is not None
    )


def _utility_class(text: str, start: int, value: str) -> bool:
    """A CSS utility class after a Tailwind variant (``sm:grid-cols-2``): a layout, no login
    and password."""
    return (
        UTILITY_CLASS.fullmatch(value) is not None
        and UTILITY_VARIANT_BEFORE.search(text, max(0, start - NEAR), start) is not None
    )


def _vendor(value: str) -> tuple[str, int] | None:
    """The vendor's prefix the value starts with and the drawn length its tokens have
    after it (:data:`VENDOR_LENGTHS`), or None."""
    return next(((p, n) for p, n in VENDOR_LENGTHS if value.startswith(p)), None)


def vendor_prefixed(value: str) -> bool:
    """Whether the value opens with an issuer's prefix (``sk-``, ``ghp_``, ...): a token of
    a service, whatever machine the note runs it on."""
    return _vendor(value) is not None or VENDOR_HEAD.match(value) is not None


def _vendor_length(value: str) -> int | None:
    vendor = _vendor(value)
    return vendor[1] if vendor is not None else None


# A social account's handle, and another after a comma on its line: a list of people
# (``Gente clave: @<handle> (co-founder), @<handle>``: "key people"), no password
HANDLE = re.compile(r"@[A-Za-z0-9_]{2,30}")
HANDLE_GOES_ON = re.compile(r"[^\n]{0,80}?[,，、;] ?@[A-Za-z0-9_]{2,30}\b")
# ... unless a password's word, one or many, labels them
HANDLES_NOT_PASSWORDS = re.compile(
    r"(?i)\bpass(?:word|wd)?s?\b|\bpwds?\b|密码|密碼|パスワード|비밀번호"
)


def _document_token(text: str, start: int, value: str) -> bool:
    return (
        DOCUMENT_TOKEN_LABEL.search(_line_before(text, start)) is not None
        and ACCESS_TOKEN_HEAD.match(value) is None
    )


def _handles_listed(text: str, start: int, end: int, value: str) -> bool:
    return (
        HANDLE.fullmatch(value) is not None
        and HANDLE_GOES_ON.match(text, end) is not None
        and HANDLES_NOT_PASSWORDS.search(_line_before(text, start)) is None
    )


def _short_of_its_vendor(value: str) -> bool:
    """A vendor's prefix (one ending in ``_`` or ``-``) and half its drawn length or less,
    whole (`` `pit-8c0983be` ``, a note telling tokens apart by their first characters): a
    reference, no token."""
    vendor = _vendor(value)
    if vendor is None or not vendor[0].endswith(("_", "-")):
        return False
    prefix, full = vendor
    return 2 * (len(value) - len(prefix)) <= full


# GitHub's 36-character tokens since 2021 (``ghp_``, ``gho_``, ``ghu_``, ``ghs_``): 30 drawn
# characters and six that are their CRC32 in base62, so a made-up token in a note fails the
# sum (refresh tokens, ``ghr_``, and the long installation tokens are other shapes)
GITHUB_SUMMED = re.compile(r"gh[pous]_([A-Za-z0-9]{30})([A-Za-z0-9]{6})")
BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


def _base62(number: int, width: int) -> str:
    """``number`` in base62 (digits, then capitals, then small letters), padded with zeros
    to ``width``: the form of a GitHub token's checksum."""
    digits = ""
    while number:
        number, digit = divmod(number, 62)
        digits = BASE62[digit] + digits
    return digits.rjust(width, "0")


def _github_sum_fails(value: str) -> bool:
    """A GitHub token whose last six characters are not the CRC32 of the thirty before
    them, nor one character away from it: typed by hand as an example, never issued (GitHub
    checks the sum before it looks a token up). A copy with one slip is a leak still."""
    summed = GITHUB_SUMMED.fullmatch(value)
    if summed is None:
        return False
    body, checksum = summed.groups()
    computed = _base62(zlib.crc32(body.encode("ascii")), 6)
    if computed == checksum:
        return False
    if sum(a != b for a, b in zip(computed, checksum, strict=True)) == 1:
        return False  # a slip in the sum: the thirty characters before it are the secret
    # a slip in the drawn part: one character changed back gives the sum. Asked only of a
    # sum a CRC32 can be (a made-up one mostly is not: its first character past "4"); then
    # 1,830 tries, which a made-up token passes by chance about once in two million
    target = functools.reduce(lambda number, digit: number * 62 + BASE62.index(digit), checksum, 0)
    if target >= 1 << 32:
        return True
    for place, drawn in enumerate(body):
        head = zlib.crc32(body[:place].encode("ascii"))
        tail = body[place + 1 :].encode("ascii")
        for other in BASE62:
            if other != drawn and zlib.crc32(tail, zlib.crc32(other.encode(), head)) == target:
                return False
    return True


def _cut_by_text(value: str, text: str, end: int) -> bool:
    """A vendor's token shorter than its drawn length, run into a letter of another script
    (``github_pat_<54>丈<rest>``): a garbled copy, no token a server takes."""
    full = _vendor_length(value)
    after = text[end : end + 1]
    head = VENDOR_HEAD.match(value)
    shown = len(value) - (head.end() if head else 0)
    return full is not None and after.isalpha() and not after.isascii() and shown < full


def _shaped_by_its_pair(
    rule: Rule, kind: str | None, text: str, span: tuple[int, int], value: str
) -> bool:
    """A weaker value its account's login proves a password: under a heading of logins
    (``- Admin: `admin` / `<word><digits>` ``, judged as a ``mixed`` one), after a list
    item's label naming a credential, or digits after a password's word right under
    ``login: <id>``."""
    start, end = span
    if kind == "symbol" and rule.name in SERVICE_PAIR_RULES:
        label = CREDENTIAL_ITEM_LABEL.match(text, line_start_within(text, start, NEAR))
        return label is not None and _has_shape("mixed", value)  # "- Auth: admin / <word>2024"
    if kind == "strong" and rule.name == PAIR_RULE and _pair_of_credentials(text, start):
        return _has_shape("mixed", value) or _stated(text, start, end, value)
    phrase = kind in ("mixed", "strong") and rule.name == PASSWORD_PHRASE_RULE
    if phrase and _random_letters(value, TABLE_LETTERS):
        # ``用户名 <login> / 密码 <value>``: a proxy's drawn letters, its login given before it
        # (with no separator after the password's word too: the login's "/" is one)
        return LOGIN_THEN_PASSWORD_WORD.search(text, max(0, start - NEAR), start) is not None
    return kind == "mixed" and _login_digits(value) and _login_on_line_above(text, start)


def _pair_of_credentials(text: str, start: int) -> bool:
    """Whether a backticked login and value are a credential's by the words around them:
    a password's word on the pair's line, or a heading above naming logins or credentials
    (a person's weaker password, ``<word><digits>``, is one there too)."""
    login = BACKTICKED_BEFORE.search(text, max(0, start - 72), start)
    if login is None:
        return False
    line_start = text.rfind("\n", 0, login.start()) + 1
    if PAIR_PASSWORD_WORD.search(text, line_start, login.start()):
        return True
    heading = heading_above(text, line_start)
    return heading is not None and CREDENTIALS_HEADING.search(heading) is not None


def heading_above(text: str, position: int, reach: int | None = None) -> str | None:
    """The nearest Markdown heading line that starts before ``position`` (a line's start),
    no further back than ``reach`` characters when given, found by bisecting the text's
    headings, listed once a text: asked for each value, a scan of the text before it would
    cost the square of a long note."""
    starts, lines = _headings(text)
    found = bisect.bisect_left(starts, position) - 1
    if found < 0 or (reach is not None and starts[found] < position - reach):
        return None
    return lines[found]


@functools.lru_cache(maxsize=16)
def _headings(text: str) -> tuple[list[int], list[str]]:
    found = list(HEADING_LINE.finditer(text))
    return [m.start() for m in found], [m.group(0) for m in found]


# A list item's label that names no secret, in a list of credentials (``- Sheet ID:``,
# ``- **User:**``, ``- URL:``, a hosting account's ``- Supabase org:``): its value is what
# the label says. Each a word of its own, not a domain's ending (``- wikipedia.org:``,
# ``- shop.co.id:`` name the site a password opens).
NOT_SECRET_ITEM = re.compile(
    r"(?:(?i:(?<![\w.])(?:id|ids|identifier|url|uri|link|e-?mail|user(?:name)?|login|account"
    r"|host(?:name)?|port|name|project|serial(?:[ _-]?(?:number|no))?)"
    r"|(?<![\w.-])(?:org|organi[sz]ation|scope|tenant|slug))"
    # a device's or a record's id in capitals (``- BLID:``, ``- GUID:``: a robot vacuum's id,
    # its login beside a password item of its own; round 147's first look)
    r"|(?<![\w.])[A-Z]{1,4}ID)"
    r"[*_\s]*[:：][*_\s]*`?$"
)
# A credentials list's item labelled only by a field a connection names beside its password
# (``- **Database**: `<name>```); a label that ends in one names a system whose password
# it gives (``- **Prod DB**: `<password>```)
FIELD_ITEM = re.compile(
    r"(?i:[ \t]*[-*+][ \t]+[*_]*(?:database|db|schema|region|endpoint)[*_\s]*[:：][*_\s]*`?$)"
)
# A token's details listed under its heading (``## Token Details`` then ``- **Issuer**:
# `<hex>```): what the token is, not the token
TOKEN_FIELD_ITEM = re.compile(
    r"(?i:\b(?:issuer|iss|created|expir\w*|scopes?|type|fingerprint|version|owner|algorithm"
    r"|alg|kid|key[ _-]?id|commit|sha\w*|hash|checksum|digest))[*_\s]*[:：][*_\s]*`?$"
)
# A label naming a key for something (``- Relay key for TX hash:``): the field it names is
# what the key is for, so the value is the key
KEY_FOR = re.compile(r"(?i:\b(?:key|token|secret)s?[ \t]+for\b)")
# ... the field its own when a clause's mark stands between (``Key for the vault, its
# checksum:``, ``Token for the airdrop — tx hash:``, ``(hash)``)
KEY_FOR_BREAK = re.compile(r"[(\[（,;—–]| - |(?i:\bits\b)")
# A crypto token's deployment listed under ``## $<TICKER> Token``: an item labelled only as
# its transaction (``- **TX:** 0x<64 hex>``) holding hex is the chain's public record; a key
# labelled "... for TX" is a key
CHAIN_RECORD_ITEM = re.compile(
    r"[ \t]*[-*+][ \t]+[*_]*(?i:tx(?:[ _-]?(?:hash|id))?|txid|transaction(?:[ _-]?(?:hash|id))?)"
    r"[*_\s]*[:：][*_\s]*`?$"
)
CHAIN_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]{32,}(?![\w-])")


def _password_section(text: str, start: int, *, bare: bool = False) -> bool:
    """Whether the value ends a list item (``- **Laptop:** `<value>```) under a heading
    that names passwords (``### Passwords by machine``, ``## 密码``): the items of its list
    are what it names. A value not in backticks (``- Plantoa: <value> (older)``) only under
    a heading or a label naming passwords themselves, not credentials or logins (a list of
    logins is one of users), and never after a label naming a setting of theirs."""
    line_start = text.rfind("\n", 0, start) + 1
    if LIST_ITEM.match(text, line_start, start) is None:
        return False
    if _field_item(text, line_start, start):
        return False  # ``- Google Sheet ID: `...```: the list's other fields are no passwords
    if bare and PASSWORD_SETTING_ITEM.search(text, line_start, start) is not None:
        return False  # ``- Policy: NIST-800-63B``: what the passwords follow, not one
    section = PASSWORDS_NAMED if bare else PASSWORD_SECTION
    if _list_lead_in_names_passwords(text, line_start, section):
        return True
    # The nearest heading above, indented by three spaces at most: found with str.rfind
    # (a list of thousands of items asks it once an item).
    floor = max(0, start - LIST_SECTION_WINDOW)
    at = max(text.rfind(f"\n{' ' * n}#", floor, line_start) for n in range(4))
    if at < 0:
        if not text[floor:line_start].lstrip(" ").startswith("#") or floor:
            return False
        at = -1  # the text opens with the heading
    end = text.find("\n", at + 1)
    return section.search(text, at + 1, end if end >= 0 else len(text)) is not None


def _list_lead_in_names_passwords(text: str, line_start: int, section: re.Pattern[str]) -> bool:
    """Whether the line that opens the value's list is a label of its own ending in a colon
    that names passwords (``**Credentials:**`` then ``- Sudo: `<digits>` ``), as a heading
    would: the first line above the list's items (blank lines passed over) read within
    ``LIST_SECTION_WINDOW``; or, for a nested list, the item it hangs from (``- Changed all
    default passwords:`` then ``  - Indexer admin: <value>``)."""
    floor = max(0, line_start - LIST_SECTION_WINDOW)
    own_end = text.find("\n", line_start)
    indent = _bullet_column(text[line_start : own_end if own_end >= 0 else len(text)])
    end = line_start - 1  # the newline that ends the line above
    while end >= floor and end > 0:
        begin = text.rfind("\n", floor, end) + 1
        if begin == 0 and floor:
            return False  # the window ends inside the list: too long a list to read up
        line = text[begin:end]
        item = LIST_ITEM.match(line)
        if line.strip() and item is None:
            return LEAD_IN_LABEL.fullmatch(line) is not None and section.search(line) is not None
        if item is not None and _bullet_column(line) < indent:
            # the item this list hangs from, its bullet and the spaces after it dropped
            label = line[item.end() - 1 :]
            return LEAD_IN_LABEL.fullmatch(label) is not None and section.search(label) is not None
        end = begin - 1
    return False


def _status_after_change(text: str, start: int, value: str) -> bool:
    """``password is now 2FA-enforced``, ``password changed to Argon2id-v19``: after ``to``
    or ``now`` with no quotes, words joined by ``-`` with a setting's word among them (a
    state, a hash's name) describe what the password became, no value of it; a chosen
    ``Harbor-quay-7731`` has none."""
    if CHANGED_TO_BARE.search(text, max(0, start - NEAR), start) is None:
        return False
    if HYPHENATED.fullmatch(value) is None:
        return False
    return any(DESCRIPTOR_PART.fullmatch(part) for part in value.split("-"))


def _name_after_prefix(value: str) -> bool:
    """A name in code after a vendor key's prefix, not a key: ``ak_verifyTheUserSession2``,
    ``ck_session_key_for_the_user``, ``ck_Session_Handler``, ``fka_PreviouslyKnownAsName``."""
    rest = value.partition("_")[2]
    return bool(
        WORDS_IDENTIFIER.fullmatch(rest)
        or JOINED_WORDS.fullmatch(rest)
        or CAPITALISED_WORDS.fullmatch(rest)
    )


def _bullet_column(line: str) -> int:
    """Where a list item's bullet stands, a tab counted as four spaces: a nested list's
    bullets stand right of the item it hangs from (``-   item``, three spaces after the
    bullet, is one level still)."""
    lead = line[: len(line) - len(line.lstrip(" \t"))]
    return len(lead.expandtabs(4))


def _noted_public(text: str, start: int) -> bool:
    """Whether the value's label, a little before it on its line, names a key for what it
    signs or looks up, or notes it as public (``GPG key (signing): ...``); read within
    ``NOTED_REACH`` characters, as a line may hold thousands of values."""
    line_start = line_start_within(text, start, NOTED_REACH)
    return any(
        # ``Recovery Code (ID: <id>) - Code: <value>``: the bracket notes what the id is,
        # and a label of the value's own follows it; ``SSH key passphrase: <value>``: the
        # secret that guards the key
        not (noted.group().startswith("(") and LABEL_AFTER.search(text, noted.end(), start))
        and PASSWORD_AFTER_NOTE.search(text[noted.end() : start]) is None
        for noted in NOTED_PUBLIC.finditer(text, line_start, start)
    )


def _in_an_example_block(text: str, start: int, value: str) -> bool:
    """Whether the value is in a fenced code block that ``EXAMPLE_BLOCK`` marks as a
    documentation's example (a vendor's API reference shows ``{"email":
    "newuser@example.com", "password": "..."}``), or the file gives it in one (the same
    example's value quoted again in a template below it): a value inside such a block is
    found there by the same search."""
    blocks = _example_blocks(text)
    return any(text.find(value, opening, closing) >= 0 for opening, closing in blocks)


@functools.lru_cache(maxsize=16)
def _example_blocks(text: str) -> list[tuple[int, int]]:
    """The spans of the text's fenced code blocks that ``EXAMPLE_BLOCK`` marks, once a
    text: a file's values all ask. A block longer than ``2 * BLOCK_REACH`` is no example's."""
    return [
        (opening, closing)
        for opening, closing in _fenced(text)
        if closing - opening <= 2 * BLOCK_REACH
        and EXAMPLE_BLOCK.search(text, opening, closing) is not None
    ]


def _data_key_label(text: str, start: int, value: str) -> bool:
    """Whether the label right before the value names a key that is data or public
    (``DATA_KEY_LABEL``)."""
    label = DATA_KEY_LABEL.search(text, max(0, start - NOTED_REACH), start)
    if label is None:
        return False
    named = label.group(1).lower()
    if named.startswith("content"):  # another vendor's content key may be a secret
        return GHOST_CONTENT_KEY.fullmatch(value) is not None
    return named != "primary" or len(value) < LONG_PRIMARY


def _bare_key_doubtful(text: str, start: int, value: str) -> bool:
    """A value under a bare ``Key:`` label that is hexadecimal alone, or whose lines above
    (its heading, its list's parent) name a public or signing key (``BARE_KEY_PUBLIC``)."""
    if HEX_ONLY.fullmatch(value.removeprefix("0x")):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    above = text[max(0, line_start - WINDOW) : line_start].split("\n")[-BARE_KEY_CONTEXT - 1 :]
    return BARE_KEY_PUBLIC.search("\n".join(above)) is not None


def _api_prose_doubtful(text: str, start: int, end: int, value: str) -> bool:
    """A value after a service's ``API:`` in prose that its own line names public or signing
    (``VAPID public key for the Push API: <key>``), that is base64 of text, or that is an
    object's id (``Stripe API: price_<...> (monthly plan)``, ``Sheets API: <id> is the
    tracker sheet``): a bare label's line holds nothing but its key, prose holds more."""
    return (
        BARE_KEY_PUBLIC.search(_line_before(text, start)) is not None
        or _base64_of_text(value)
        or API_OBJECT_ID.fullmatch(value) is not None
        or API_SLUG_WORDS.search(value) is not None
        or API_ID_NAMED_AFTER.match(text, end) is not None
    )


def _field_item(text: str, line_start: int, start: int) -> bool:
    """Whether the list item the value ends is labelled by another field of a credentials
    list (``NOT_SECRET_ITEM``, ``FIELD_ITEM``): an id, a URL, a user, a database."""
    return (
        NOT_SECRET_ITEM.search(text, line_start, start) is not None
        or FIELD_ITEM.match(text, line_start, start) is not None
    )


def _token_field(text: str, start: int) -> bool:
    """Whether the value's list item is labelled by a field beside a token, not the token
    (``- **Issuer**: `...```, ``- Token ID: `...```, ``- **User**: `...```)."""
    line_start = text.rfind("\n", 0, start) + 1
    if CHAIN_HEX.match(text, start) and CHAIN_RECORD_ITEM.match(text, line_start, start):
        return True
    field = TOKEN_FIELD_ITEM.search(text, line_start, start)
    if field is not None and not _key_for(text, line_start, field.start()):
        return True
    return _field_item(text, line_start, start)


def _key_for(text: str, line_start: int, label_end: int) -> bool:
    """Whether the label names a key for the field that ends it (``Relay key for TX hash:``):
    the value is then the key. A field past a clause's mark is the key's own (``Backup key
    for the vault (hash):``, ``Key for the vault, its checksum:``: its digest)."""
    named = KEY_FOR.search(text, line_start, label_end)
    return named is not None and KEY_FOR_BREAK.search(text, named.end(), label_end) is None


def _token_section(text: str, start: int) -> bool:
    """Whether the value's section names a token, an API key or a secret: its nearest
    heading a few lines above (``SECTION_WINDOW``, indented by three spaces at most), or a
    heading of a higher level above that one (``## 토큰`` over ``### Read-only`` and a
    fence around the value). A heading of the same level or lower closes a section:
    ``## Secrets`` then ``## Deploy`` leaves the value under Deploy."""
    floor = text.rfind("\n", 0, max(0, start - SECTION_WINDOW)) + 1
    if _introduced_as_a_token(text[floor:start].split("\n")):
        return True
    level = 7  # deeper than any heading: the nearest one is read first
    for line in reversed(text[floor:start].split("\n")):
        heading = SECTION_HEADING.match(line)
        if heading is None or len(heading.group(1)) >= level:
            continue
        if TOKEN_SECTION.search(line) is not None:
            return True
        level = len(heading.group(1))
        if level == 1:
            return False
    return False


def _introduced_as_a_token(lines: list[str]) -> bool:
    """A fenced value whose fence the sentence right above introduces as a token, a key or
    a secret (``The token for login is:`` then the fence): the last line before the
    fence's opening, not a heading, ending in a colon."""
    before = [line.strip() for line in lines[:-1]]  # the value's own line last
    while before and (not before[-1] or before[-1].startswith(FENCE_MARKS)):
        before.pop()
    if not before or before[-1].startswith("#") or not before[-1].endswith((":", "：")):
        return False
    named = TOKEN_SECTION.search(before[-1]) is not None
    return named and NOT_THE_TOKEN.search(before[-1]) is None


def _keyed_secret(text: str, start: int) -> bool:
    """A value after a bare ``key:`` label (``키:``) where the line before it or its section's
    heading names a password or an encryption (``jasypt.encryptor.password``, ``### 암호화
    키``): the key of that, a secret, though a person's words make it. Many keys are no
    secrets (a cache's, a map's): a bare label alone asks for a generated key's shape."""
    window = text[max(0, start - SECTION_WINDOW) : start].split("\n")
    if len(window) < 2 or KEY_LABEL_BEFORE.search(window[-1]) is None:
        return False
    heading = next((line for line in reversed(window[:-1]) if line.startswith("#")), "")
    return SECRET_SECTION.search(f"{window[-2]}\n{heading}") is not None


def _question_closed(value: str, text: str, end: int) -> str:
    """The value without the ``?`` that ends a question ("default, or top-100/top-300?"):
    the question's mark, not one of the value's symbols."""
    if value.endswith("?") and text[end : end + 1] in ("", " ", "\n"):
        return value[:-1]
    return value


def _generated_tail(value: str) -> bool:
    """A last part of twenty letters and digits or more, both mixed: a vendor's token whose
    prefix is joined by "_" (``squ_<40 hex>``, ``ts_live_<32 hex>``), not a name's word."""
    tail = value.rsplit("_", 1)[-1]
    if len(tail) < GENERATED_PART or not tail.isalnum() or not tail.isascii():
        return False
    return any(c.isdigit() for c in tail) and any(c.isalpha() for c in tail)


def _no_value(value: str, text: str, start: int) -> bool:
    """What prose gives a claim, a field or a label where a value would be: its
    alternatives, a comparison's right side (``==`` read from its second ``=``), a format's
    field, bold text (``this pass: **...**``), a header's or a cookie's own name in code
    (``X-Auth-Token``, ``XSRF-TOKEN``), a count (``finalize×9``), a format's field names, a
    model's id under its maker's name."""
    if value.startswith("=") and text[start - 1 : start] == "=":
        return True
    return value.startswith(("**", "__")) or bool(
        ALTERNATIVES.fullmatch(value)
        or FORMAT_FIELD.search(value)
        or NAME_SHAPED.fullmatch(value)
        or TIMES_DONE.fullmatch(value)
        or (FIELD_NAMES.fullmatch(value) and FIELD_WORD.search(value))
        or MODEL_MAKER.fullmatch(value)
        or (PROVIDER_MODEL.fullmatch(value) and _model_words(value))
        or ARROW_STEP.match(value) is not None
        or (
            (_setting_value(value) or PRODUCT_VERSION.fullmatch(value))
            # right after a password's or a key's label the shape is the value's own
            and LABEL_RIGHT_BEFORE.search(near_on_its_line(text, start)) is None
        )
    )


def _model_words(value: str) -> bool:
    """A routed model's id (:data:`PROVIDER_MODEL`): after the provider, a hyphen or a dot
    and a word of three letters at least."""
    model = value.split("/", 1)[1]
    return ("-" in model or "." in model) and MODEL_WORDS.search(value) is not None


def _setting_value(value: str) -> bool:
    """A setting and its value (:data:`SETTING_VALUE`), named for no credential."""
    found = SETTING_VALUE.fullmatch(value)
    if found is None:
        return False
    return CREDENTIAL_NAME.search(found.group("name") or found.group("word")) is None


def _elided(rule: Rule, value: str, text: str, end: int) -> bool:
    """A generic rule's short value shown as a prefix, the rest elided (``token=ab12...``),
    a vendor's prefix not counted (``KEY=sk-ant-api03-Ab12Cd34...``: eight characters of
    the key, no more than a masked one shows). A vendor's token cut by the ellipsis with
    at most half its drawn part is elided too (``github_pat_11A3<30 more>...``, 34 of its 82
    drawn characters); more of it than half is the leaked token (a classic GitHub token's
    30 drawn characters of 36: the rest is a checksum)."""
    if not rule.generic or not text.startswith(ELLIPSES, end):
        return False
    head = VENDOR_HEAD.match(value)
    whole = len(value)
    if head is None and value.endswith(("-", "_")):
        # cut at the end of a group (``rh-api-ddd988d5-...``): an unknown vendor's words
        # before the drawn part, and the joiner after it, are not what is shown of it
        head = WORD_GROUPS_HEAD.match(value[:-1])
        value = value[:-1]
    shown = len(value) - (head.end() if head else 0)
    full = _vendor_length(value)
    # the ellipsis inside the value's quotes (`` `<20 characters>...` ``): a display of its
    # start, as a status table shows a token it keeps elsewhere
    after = end + (3 if text.startswith("...", end) else 1)
    quoted = text[end - whole - 1 : end - whole] == text[after : after + 1] != ""
    most = MAX_SHOWN_QUOTED if quoted and text[after] in QUOTES else MAX_SHOWN_PREFIX
    label = _line_before(text, end - whole)
    if most == MAX_SHOWN_PREFIX and SHOWN_PASSWORD_LABEL.search(label) is None:
        most = MAX_SHOWN_KEY_PREFIX  # a key's or a token's start: a password's may be all of it
    return shown <= most or (full is not None and 2 * shown <= full)


def _without_count(word: str) -> str:
    """The word without a count it ends in (``1``, ``12``, ``123``, ...): a stand-in's
    number; a year or another number is how a person makes a password their own."""
    digits = len(word) - len(word.rstrip(string.digits))
    if digits and word[-digits:] == COUNT[:digits]:
        return word[:-digits]
    return word


def _self_named(value: str) -> bool:
    """A value that names its own kind among a doc's stand-in words, as examples do:
    ``dev-token-123``, ``local-dev-secret`` (stand-ins, numbers and the kind), ``dbpass``,
    ``mytoken`` (a stand-in run into the kind), ``password123`` (the kind and a number),
    ``securePassword123`` (camelCase parts), ``senhasegura123`` (Portuguese's kind and
    stand-in, run in); ``local_dev`` (environments' words alone). ``fern_password`` names a
    project: kept."""
    lowered = value.lower()
    if value != lowered:
        return _self_named_camel(value)
    lowered = lowered.removesuffix("!")  # "password123!": the closing "!" a rule asks for
    parts = [part for part in SELF_NAMED_SPLIT.split(lowered) if part]
    if len(parts) == 1:
        word = parts[0]
        run_in = _without_count(word)  # "securepassword123": the kind run into a word
        return (
            _run_in_stand_ins(run_in)
            or _run_in_environments(run_in)
            or any(
                run_in.removeprefix(kind) in STAND_IN_WORDS
                or run_in.removesuffix(kind) in STAND_IN_WORDS
                or (word.startswith(kind) and word.removeprefix(kind).isdigit())
                for kind in KIND_WORDS
                if kind in word
            )
        )
    return (
        _kind_among_stand_ins(parts)
        or _names_an_environment(parts)
        or _example_of_words(parts)
        or _describes_its_length(parts)
    )


def _describes_its_length(parts: list[str]) -> bool:
    """``production-jwt-secret-64-chars-minimum``: words joined by ``-`` or ``_``, the kind's
    among them and a length (a number, then its unit), numbers of three digits at most: what
    the value must be, as a template says it, not a value (a drawn part, ``-Xk93Lq7R``, is
    one; ``long-secret-tide-owl-731`` states no length)."""
    return (
        any(part in KIND_WORDS for part in parts)
        and any(a.isdigit() and b in LENGTH_UNITS for a, b in itertools.pairwise(parts))
        and all(
            (part.isalpha() and len(part) <= LONGEST_RUN_IN_WORD)
            or (part.isdigit() and len(part) <= MAX_FIXTURE_COUNT)
            for part in parts
        )
    )


def _example_of_words(parts: list[str]) -> bool:
    """``sk-gateway-demo-key-001``: words joined by ``-`` or ``_``, the kind's among them and
    one that says the value is an example's, and a fixture's count at most (three digits): a
    doc's made-up key. A drawn part or a longer number (``harbor-demo-secret-482913``) is
    someone's password for a demo system, which is a password still."""
    return (
        any(part in KIND_WORDS for part in parts)
        and any(part in EXAMPLE_WORDS for part in parts)
        and all(
            (part.isalpha() and len(part) <= LONGEST_RUN_IN_WORD)
            or (part.isdigit() and len(part) <= MAX_FIXTURE_COUNT)
            for part in parts
        )
    )


def _run_in_stand_ins(word: str) -> bool:
    """``mysecretpass``: stand-in words and kinds run together, a kind among them, three
    words or more (two are :func:`_self_named`'s own test): a doc's made-up value."""
    # best[n]: how word[:n] splits into those words, best first (a kind among them, then the
    # most words); None where it does not split
    best: list[tuple[bool, int] | None] = [None] * (len(word) + 1)
    best[0] = (False, 0)
    for end in range(1, len(word) + 1):
        for begin in range(max(0, end - LONGEST_RUN_IN_WORD), end):
            before, part = best[begin], word[begin:end]
            if before is None or (part not in STAND_IN_WORDS and part not in KIND_WORDS):
                continue
            split, current = (before[0] or part in KIND_WORDS, before[1] + 1), best[end]
            if current is None or split > current:
                best[end] = split
    last = best[-1]
    return last is not None and last[0] and last[1] >= RUN_IN_WORDS


# The environment a stand-in names, with no kind word: "local_dev", "dev-test" (a local
# compose file's database password, as a spec writes it)
ENVIRONMENT_WORDS = frozenset(
    "local dev devel development test testing demo sandbox ci e2e".split()
)
LONGEST_ENVIRONMENT_WORD = max(map(len, ENVIRONMENT_WORDS))


def _test_word_repeated(value: str) -> bool:
    """``<name>test123<name>test123<name>``: a piece holding a test's word, typed again and
    again to fill a secret's length (a preview link's bypass value), which no generator
    draws and no one keeps as a password."""
    lowered = value.lower()
    for period in range(MIN_REPEATED_PIECE, min(len(value) // 2, MAX_REPEATED_PIECE) + 1):
        piece = lowered[:period]
        if (piece * (len(value) // period + 1)).startswith(lowered):
            return TEST_FILL_PIECE.fullmatch(piece) is not None
    return False


def _run_in_environments(word: str) -> bool:
    """``localdev`` (its count taken off): two environments' words run together or more,
    nothing else, as :func:`_names_an_environment`'s parts are joined."""
    # ends[n]: word[:n] splits into those words (at least one before n)
    ends = {0}
    for end in range(1, len(word) + 1):
        reach = range(max(0, end - LONGEST_ENVIRONMENT_WORD), end)
        if any(begin in ends and word[begin:end] in ENVIRONMENT_WORDS for begin in reach):
            ends.add(end)
    return bool(word) and len(word) in ends and word not in ENVIRONMENT_WORDS


def _names_an_environment(parts: list[str]) -> bool:
    """Two words or more, every one an environment's stand-in (``local_dev``)."""
    return len(parts) >= 2 and all(part in ENVIRONMENT_WORDS for part in parts)


def markers_before(text: str, line_start: int, start: int, marker: str) -> int:
    """How many ``marker`` the line from ``line_start`` holds before ``start``, counted from
    the line's start as ``str.count`` does (non-overlapping). The places are worked out once a
    line: counting them again for each value on a line of many values was quadratic."""
    return bisect.bisect_right(_marker_ends(text, line_start, marker), start)


@functools.lru_cache(maxsize=16)
def _marker_ends(text: str, line_start: int, marker: str) -> list[int]:
    line_end = text.find("\n", line_start)
    if line_end < 0:
        line_end = len(text)
    ends = []
    at = text.find(marker, line_start, line_end)
    while at >= 0:
        at += len(marker)
        ends.append(at)
        at = text.find(marker, at, line_end)
    return ends


def _test_account_in_prose(value: str, text: str, start: int) -> bool:
    """A stand-in word and a number (``Test@2031``, ``Demo2024!``) that a note gives as a
    password, in its prose (bare or in backticks): a test account's on the system the
    note is about, which anyone reading it can log in with; so is the kind and a number
    (``Password1234``) after a named account's login and its slash (``Usuario de prueba:
    `aaron_vercel` / `<value>```), not a sample's (``user`` / ``Password123``). In code (a
    quoted string, a fenced block: a test's request body) it is the fixture's stand-in."""
    if not _leading_stand_in(value.removesuffix("!")) and not _after_a_named_login(
        text, start, value
    ):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    if text[start - 1 : start] in ('"', "'") or markers_before(text, line_start, start, '"') % 2:
        return False  # in a string: "password": "...", "user=qa&password=..."
    spans = _fenced(text)
    at = bisect.bisect_right(spans, (start, len(text))) - 1
    return at < 0 or spans[at][1] <= start


@functools.lru_cache(maxsize=4)
def _fenced(text: str) -> list[tuple[int, int]]:
    """The spans of a text's fenced code blocks, in order: a block closes at a line of its
    opening marker's character, as long at least (``~~~`` holds a line of backticks); one
    never closed runs to the end. Once a text (the scan asks for each stand-in value)."""
    spans: list[tuple[int, int]] = []
    opened: tuple[int, str] | None = None
    for match in FENCE_LINE.finditer(text):
        marker = match.group(1)
        if opened is None:
            opened = (match.start(), marker)
        elif marker[0] == opened[1][0] and len(marker) >= len(opened[1]):
            spans.append((opened[0], match.end()))
            opened = None
    if opened is not None:
        spans.append((opened[0], len(text)))
    return spans


def _drawn_mixed(value: str) -> bool:
    has = _Features(value)
    return len(value) >= USER_PAIR_LENGTH and has.cases and has.digit


def _a_scheme_or_label(text: str, end: int, value: str) -> bool:
    if SCHEME_PARAMETERS.match(text, end):
        return True
    parts = SELF_NAMED_SPLIT.split(value)
    return len(parts) > 1 and all(LABEL_PART.fullmatch(part) for part in parts)


def _kind_and_count(value: str) -> bool:
    """``Password1234``, ``password123!``: the kind's word, then a number."""
    core = value.removesuffix("!")
    parts = CAMEL_PARTS.findall(core)
    return (
        "".join(parts) == core
        and len(parts) == 2  # a word and a number
        and parts[0].lower() in KIND_WORDS
        and parts[1].isdigit()
    )


def _after_a_named_login(text: str, start: int, value: str) -> bool:
    """Whether the kind and a number (``Password1234``) come right after a named account's
    login and a slash on its line: an address whose name and domain no sample gives, or a
    name no sample gives (``aaron_vercel``; not ``admin1``, ``alice``, ``test_user``)."""
    if not _kind_and_count(value):
        return False
    found = NAMED_LOGIN_BEFORE.search(text, max(0, start - NEAR), start)
    if found is None:
        return False
    login = found.group(1).lower()
    if EXAMPLE_ADDRESS.search(login) is not None:
        return False
    name = login.partition("@")[0]
    return not any(word in name for word in SAMPLE_LOGIN_WORDS)


def _leading_stand_in(core: str) -> bool:
    """``Test1234``, ``Test@2031``, ``Demo2024``: a stand-in's first word, then a number."""
    joined = WORD_SYMBOL_NUMBER.fullmatch(core)
    if joined is not None:
        return joined.group(1).lower() in LEADING_STAND_INS
    parts = [part.lower() for part in CAMEL_PARTS.findall(core)]
    return (
        core.isascii()
        and "".join(parts) == core.lower()
        and len(parts) == 2
        and parts[0] in LEADING_STAND_INS
        and parts[1].isdigit()
    )


def _self_named_camel(value: str) -> bool:
    """``securePassword123``, ``newSecurePassword123``, ``Password123!``: camelCase parts
    that are the kind, stand-in words and a number (a closing ``!`` aside); and a stand-in
    word, then a number: ``Test1234!``, ``Test@2031``, as a test's fixture or a doc's
    example has it."""
    core = value.removesuffix("!")
    if _leading_stand_in(core):
        return True
    if WORD_SYMBOL_NUMBER.fullmatch(core) or not core.isascii():
        return False
    if not core.isalnum():
        # a stand-in's words in leet, one symbol joining two (``MyStr0ng!Pass``)
        core = WORD_JOINING_SYMBOL.sub("", LEET_INSIDE.sub(_unleet, core))
        if not core.isalnum():
            return False
    parts = [part.lower() for part in CAMEL_PARTS.findall(core)]
    return "".join(parts) == core.lower() and _kind_among_stand_ins(parts)


def _unleet(found: re.Match[str]) -> str:
    return LEET[found.group()]


def _kind_among_stand_ins(parts: list[str]) -> bool:
    """A kind word among the parts, every other part a stand-in word or a number; or a
    test's value named for its use, a stand-in's or a stage's first word, then words and
    the kind (``test-webhook-secret-e2e``, ``dev-webhook-secret-1234``)."""
    kinds = [part for part in parts if part in KIND_WORDS]
    rest = [part for part in parts if part not in KIND_WORDS]
    if not kinds:
        return False
    if all(part in STAND_IN_WORDS or part.isdigit() for part in rest):
        return True
    return parts[0] in LEADING_STAGES and all(
        (part.isdigit() and len(part) <= MAX_FIXTURE_DIGITS)
        or part in STAND_IN_WORDS
        or part in USE_WORDS
        for part in rest
    )


def _repeats_login(text: str, start: int, value: str) -> bool:
    """``-u freqtrade:freqtrade``, ``admin:admin``, ``user=airflow password=airflow``: a
    password that repeats the login right before it (on its line, or set on the line above:
    ``NEO4J_USER=neo4j`` then ``NEO4J_PASSWORD=neo4j123``) is a service's documented
    default, no secret of the owner's."""
    line_start = text.rfind("\n", 0, start) + 1
    given = list(PARAMETER_LOGIN.finditer(text, max(line_start, start - NEAR), start))
    if not given and line_start:
        # the line above, as far back as NEAR reaches (a longer line: its end only)
        above = _lines_above(text, line_start, NEAR + 1)[0]
        given = list(LOGIN_ABOVE.finditer(text, line_start - 1 - len(above), line_start - 1))
    if given:
        login, lowered = given[-1].group(1).lower(), value.lower()
        suffix = lowered.removeprefix(login).lstrip("-_.@")
        if lowered == login or (lowered.startswith(login) and suffix in LOGIN_SUFFIXES):
            return True
    size = len(value)
    if start < size + 1 or text[start - 1] != ":":
        return False
    if text[start - size - 1 : start - 1].lower() != value.lower():
        return False
    lead = text[start - size - 2] if start >= size + 2 else " "
    return not (lead.isalnum() or lead in "_-.")


def _npm_package(text: str, start: int, value: str) -> bool:
    """An npm package's scoped name where a value would be: with its version, or on a line
    that names a library (``**Password hashing:** `@node-rs/argon2```)."""
    package = NPM_PACKAGE.fullmatch(value)
    if package is None:
        return False
    named = PACKAGE_WORDS.search(_line_at(text, start)[1]) is not None
    return package.group(1) is not None or named


# Code where a generic rule's value would be (held-out batch 188's judge): a path of Rust's
# or C++'s (``associated_token::authority = owner``: the word before ``::`` is no label), a
# Telegram bot's username (``bot token: @<name>_bot (...)``: Telegram ends every one in
# "bot"), a pattern's alternation of labels (``grep -E 'pwd=|log=|pass:'``) and a type in a
# signature's parameter list (``seal(secretKey: Uint8Array, password: string)``)
BOT_USERNAME = re.compile(r"@[A-Za-z][A-Za-z0-9_]{1,28}[Bb][Oo][Tt]")
MIN_ALTERNATION_BARS = 2
# An alternation's parts are labels a pattern looks for (``pwd=``, ``login:``): two of them
# at least; a password's own bars (``Xq7|mZ9|kL2#``) join no labels
ALTERNATION_LABEL = re.compile(r"[\w.-]{1,24}[=:]")
MIN_ALTERNATION_LABELS = 2
# A type's name is words, one of four letters or more: a capital and lower case letters
# each, digits inside, an acronym (``Uint8Array``, ``SessionToken``, ``HTTPClient``), and it
# ends with a letter (a person's password ends with digits: ``Sunshine77``); a drawn value
# mixes case at random (``Qm4Tz8Vb1Xy7``). An acronym ends where a word or digits begin: a
# run of capitals splits one way only, in linear time whatever the value.
TYPE_NAME = re.compile(
    r"(?=.*[A-Z][a-z]{3})(?:[A-Z][a-z]{2,}|[0-9]{1,3}(?![0-9])|[A-Z]{2,5}(?=[A-Z][a-z]|[0-9]))*"
    r"(?:[A-Z][a-z]{2,}|[A-Z]{2,5})(?:<[\w, ]*>)?(?:\[\])*"
)
MAX_TYPE_NAME = 48
PARAMETER_ENDS = frozenset(",)")
SIGNATURE_REACH = 200
TYPED_PARAMETER = re.compile(r"[A-Za-z_]\w*\??:[ \t]*\Z")  # "name: ", "name?: "
# What opens a signature: a function's keyword before its parentheses (a note's "(user:
# admin, password: Sunshine77)" opens none)
SIGNATURE_OPENS = re.compile(
    r"\b(?:function|def|fn|func|fun|async|constructor|public|private|protected|static)\b"
    r"[^()]*\($|=[ \t]*\($"
)


def _code_not_a_value(text: str, start: int, end: int, value: str) -> bool:
    """A generic rule's value that is code, not a credential: see ``BOT_USERNAME``."""
    if "::" in value or (value.startswith(":") and text[start - 1 : start] == ":"):
        return True
    if BOT_USERNAME.fullmatch(value) or _label_alternation(value):
        return True
    if len(value) > MAX_TYPE_NAME or text[end : end + 1] not in PARAMETER_ENDS:
        return False
    return TYPE_NAME.fullmatch(value) is not None and _typed_in_a_signature(text, start)


def _label_alternation(value: str) -> bool:
    """``pwd=|log=|login=|...``: two labels at least among the parts between bars."""
    if value.count("|") < MIN_ALTERNATION_BARS:
        return False
    labels = sum(ALTERNATION_LABEL.fullmatch(part) is not None for part in value.split("|"))
    return labels >= MIN_ALTERNATION_LABELS


def _typed_in_a_signature(text: str, start: int) -> bool:
    """The value follows ``name:`` inside the open parentheses of a function's signature."""
    before = text[line_start_within(text, start, SIGNATURE_REACH) : start]
    if TYPED_PARAMETER.search(before) is None:
        return False
    opened = before.rfind("(")
    return opened > before.rfind(")") and SIGNATURE_OPENS.search(before[: opened + 1]) is not None


# ``proxy-userinfo``'s login that is a URI's scheme or a label (``SIP proxy:
# sip:<ext>@<host>``, ``mailto:<name>@<domain>``, ``co-authored-by:<address>``): an
# address, no login and password
PROXY_RULE = "proxy-userinfo"
SCHEME_LOGINS = frozenset(
    "mailto sip sips xmpp tel im irc ircs matrix email e-mail mail slack teams skype contact"
    " git npm acct".split()
)


def _scheme_as_login(text: str, start: int) -> bool:
    """Whether the word before the ``:`` that precedes the value is a scheme or a label."""
    colon = start - 1
    login_start = colon
    while login_start > 0 and (text[login_start - 1].isalnum() or text[login_start - 1] in "._-"):
        login_start -= 1
    login = text[login_start:colon].lower()
    return login in SCHEME_LOGINS or login.endswith("-by")


def _opens_no_system(text: str, start: int, value: str) -> bool:
    """An SNMP community that is the protocol's default (``community STRING="public"``),
    which every device ships with, or a meeting link's passcode (``zoom.us/j/<id>?pwd=``):
    neither lets anyone into a system of the owner's."""
    before = text[max(0, start - NEAR) : start]
    if value.lower() in SNMP_DEFAULTS and "community" in before.lower():
        return True
    return MEETING_PASSCODE.search(before) is not None


def _community_not_snmp(text: str, start: int) -> bool:
    """``password-phrase``'s value whose label right before it is ``community`` alone (no
    ``community string``), with no ``SNMP`` or password word on its line or the one above:
    a column's or a label's community (``| Community (customer family) | <photo id> |``,
    ``Engaged Community: <handle>``), which names people, not a device's password."""
    if COMMUNITY_LABEL.search(near_on_its_line(text, start)) is None:
        return False
    # read back no further than WINDOW: a long line of values is not read again for each
    lines = text[max(0, start - WINDOW) : start].split("\n")
    return SNMP_OR_PASSWORD.search("\n".join(lines[-2:])) is None


def _wmi_namespace(text: str, start: int, value: str) -> bool:
    """``root/StandardCimv2``, ``root/SecurityCenter2``: a WMI namespace under ``root``, not
    the root account and its password. Known by its name, or by a word of WMI's (``WMI``,
    ``CIM``, ``namespace``, ``wbem``) on its line."""
    if text[max(0, start - 5) : start].lower() not in ("root/", "root\\"):
        return False
    if value.lower().rstrip(".,;:") in WMI_NAMESPACES:
        return True
    return WMI_WORDS.search(_line_at(text, start)[1]) is not None


def _line_at(text: str, offset: int) -> tuple[int, str]:
    """Where the line holding ``offset`` starts, and the line (without its break)."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    return line_start, text[line_start : line_end if line_end >= 0 else len(text)]


def _code_brackets(value: str) -> bool:
    """A bracket at either end, or one that a closing one of its kind follows (``f(x)``,
    ``a[0]``): read with ``str.find``, in linear time whatever the value."""
    if value[:1] in BRACKETS or value[-1:] in BRACKETS:
        return True
    return any(
        (opened := value.find(left)) >= 0 and value.find(right, opened + 1) >= 0
        for left, right in ("()", "[]")
    )


CALL_OPENS = re.compile(r"\w\(")


def _unenclosed_code(value: str) -> bool:
    """A bracket in a value no quotes hold: code's (``bytes(password``), unless the value
    mixes both cases, digits and another symbol around a bracket no other closes, as a
    generated password does (``d@ml?Ofa9[_C44D1``)."""
    if BRACKET.search(value) is None:
        return False
    if _code_brackets(value) or CALL_OPENS.search(value):
        return True  # a call (``SHA256(Key+nonce``, cut at its comma)
    has = _Features(BRACKET.sub("", value))
    return not (len(value) >= 10 and has.cases and has.digit and has.symbol)


def _a_variable(value: str) -> bool:
    """An environment variable's name (:data:`VARIABLE_NAME`, :data:`CREDENTIAL_VARIABLE`)."""
    return VARIABLE_NAME.match(value) is not None or CREDENTIAL_VARIABLE.match(value) is not None


def _a_joined_name(part: str) -> bool:
    """A part of a ``|``-joined value that names, as a token's parts or a mapping's row do: a
    variable, an identifier in snake_case that no password's shape ends (``qa_panel_pw_456``,
    ``fern_relay_2026`` stay values), or a configuration file's name in lower case
    (``secret:<name>.json``; ``Kq7vT2xWm9pL4zR8.key`` is a value with a suffix)."""
    return _a_variable(part) or JOINED_FILE.fullmatch(part) is not None or _a_snake_name(part)


def _a_snake_name(value: str) -> bool:
    """An identifier in snake_case (or short parts joined by ``_``) that no password's shape
    ends (``qa_panel_pw_456``, ``fern_relay_2026`` are values)."""
    snake = SNAKE_CASE.match(value) or _short_parts(value)
    return bool(snake) and not (PASSWORD_LIKE.search(value) or _generated_tail(value))


def _a_value(value: str, *, enclosed: bool = False, dotted: bool = False) -> bool:
    """Not a name (of a variable, a file, an algorithm) where a value would be;
    ``enclosed``: quotes or backticks hold the whole value."""
    snake = _a_snake_name(value)
    setting = value.endswith(LABEL_END) or _a_setting(value)  # "key:", "to_loc=X"
    # ``process.env.API_TOKEN!``: TypeScript's non-null mark after a name is no value's
    variable = _a_variable(value) or (
        JOINED_PARTS in value and all(map(_a_joined_name, value.split(JOINED_PARTS)))
    )
    # ``?ownerToken=&ttlSeconds=``: the parameter is empty, the next one follows (a password
    # may open with "&" too: ``&dGFb*f&M&8f...``)
    empty = EMPTY_PARAMETER.match(value) is not None
    code = _code_brackets(value) if enclosed else _unenclosed_code(value)
    # ``<32 hex>.<16 letters and digits>`` (Zhipu's keys): dotted as a name is, but a part
    # an issuer drew is no name's
    # ``dotted``: a password's label before it, so ``Kpx482.Mvt951`` is one, no attribute
    not_a_value = NOT_A_VALUE.search(value.rstrip("!")) is not None and not (
        DOTTED_NAME.fullmatch(value) is not None
        and (dotted or any(map(_drawn_part, value.split("."))))
    )
    # ``{"p":"mbc-20","op":"mint"}``: an object's JSON, no key (a key holds no braces)
    json_object = value.startswith("{") and value.endswith("}") and '":' in value
    if not_a_value or code or variable or snake or setting or empty or json_object:
        return False
    names = (
        *(CAMEL_CASE, KEBAB_CASE, ISSUE_REFERENCE, FLAG_NAME, SELECTOR, COLOUR, VERSION, PINNED),
        *(RESOURCE_NAME, TIMESTAMP, DURATION),
    )
    counted = COUNTED.fullmatch(value) or ISSUE_KEY.fullmatch(value)
    # ``密码: 3.1415926`` (``dotted``: a password's label before it): a version's shape,
    # but a version of six digits after one dot is none
    if counted or any(name.match(value) for name in names if name is not VERSION or not dotted):
        return False
    key_type = SSH_KEY_TYPE.fullmatch(value)
    if PATH.search(value) or SSH_KEY_BLOB.match(value) or REGION.match(value) or key_type:
        return False
    if any(shape.match(value) for shape in (ADDRESS, URL, HOST_PATH, CHAIN_ADDRESS)):
        return False
    # ``GOOGLE_CLIENT_IDS/restart``: names joined by a slash; ``fern_module/fencing/``: a folder
    folder = value.removesuffix("/")
    joined = "/" in value and all(map(_a_name, folder.split("/")))
    if SECRET_NAME.match(value) or joined or _hyphenated_words(value) or _key_path(value):
        return False
    parts = [p for p in ALGORITHM_SPLIT.split(value) if p]
    named = any(p[0].isalpha() for p in parts)
    return not (named and all(ALGORITHM_PART.fullmatch(p) for p in parts))


def _drawn_part(part: str) -> bool:
    """A dotted value's part that a generator drew, not a module's or an attribute's name:
    sixteen letters and digits or more, four of each at least. ``_`` joins a name's words,
    so a part holding one is drawn only when a piece between them is
    (``AQ.Ab8<30 drawn>_<12 drawn>``, a Google key; ``api_key_name`` is no such piece)."""
    if "_" in part:
        return any(_drawn_part(piece) for piece in part.split("_"))
    if not (part.isascii() and part.isalnum()):
        return False
    digits = sum(c.isdigit() for c in part)
    letters = sum(c.isalpha() for c in part)
    return len(part) >= DRAWN_PART and digits >= DRAWN_MIX and letters >= DRAWN_MIX


def _attribute_name(value: str, text: str, start: int, end: int) -> bool:
    """``android:allowBackup="false"``: a namespaced attribute's name and its ``=``, the
    quoted value after it, not a login and a password split at the colon. A quoted value
    ending in ``=`` (``"c2VjcmV0="``, base64's padding) is a value."""
    unquoted = text[start - 1 : start] not in QUOTES
    return (
        unquoted and ATTRIBUTE_NAME.fullmatch(value) is not None and text[end : end + 1] in QUOTES
    )


def _hyphenated_words(value: str) -> bool:
    """Three words or more joined by hyphens, each of letters only and in one case or
    capitalised: the name of a stored secret or a resource (``prod-api-gateway-key``,
    ``Google-Cloud-vault-sync-service``), which a generated value's digits and mixed
    cases are not; two words are ``KEBAB_CASE``'s."""
    parts = value.split("-")
    return len(parts) >= MIN_HYPHENATED_WORDS and all(
        len(part) >= 2 and part.isalpha() and part in (part.lower(), part.upper(), part.title())
        for part in parts
    )


def _key_path(value: str) -> bool:
    """Lower-case words joined by dots, hyphens or underscores, one of them a credential's
    word: where a secret is kept (``mail-mcp.app_password``, a keychain item or a config
    key), not the secret."""
    parts = KEY_PATH_SPLIT.split(value)
    # a version among the words (``fern-api-v3-production-verify-tv-token``, a function's
    # name in a table of endpoints) is a name's part too
    words = [part for part in parts if VERSION_PART.fullmatch(part) is None]
    return (
        len(words) >= 2  # a word and what it keys
        and all(len(part) >= 2 and part.isalpha() and part.islower() for part in words)
        and not CREDENTIAL_PARTS.isdisjoint(parts)
    )


def _compared(text: str, end: int) -> bool:
    """The value is an operand of a comparison (``PASS: Stage1 == Stage2``): a test's
    outcome or a condition, not a credential given."""
    after = text[end : end + COMPARED_WINDOW].lstrip(" \t`'\"")
    return after.startswith(COMPARISONS)


def _a_setting(value: str) -> bool:
    """``to_loc=HARBOR``: a name that holds no credential, ``=`` and its value."""
    name = ASSIGNMENT.match(value)
    setting = OAUTH_WORD.sub("", value.split("=", 1)[0])
    return name is not None and not CREDENTIAL_NAME.search(setting)


def _a_name(part: str) -> bool:
    """A part of a slash-joined value that is a name or a word: ``API_KEY``, ``restart``,
    ``COLORS.ink`` (a constant's member)."""
    if VARIABLE_NAME.match(part) or SNAKE_CASE.match(part) or CAMEL_CASE.match(part):
        return True
    # "FERN/0x<address>": a ticker and its contract
    if DOTTED_NAME.match(part) or CHAIN_ADDRESS.match(part):
        return True
    return bool(KEBAB_CASE.match(part)) or part.isalpha()


def _short_parts(value: str) -> bool:
    """Three or more short words or numbers joined by underscores, each in one case: a key
    of a lookup table (``fee_4lane_200ms_EU_open``), where a token's parts are long or mix
    cases (``sk_test_4eC39HqLyjWDarjtT1zdp7dc``, ``Kx9_QpL2_Zr7w``)."""
    parts = value.split("_")
    return len(parts) >= 3 and all(
        0 < len(part) <= 8 and part.isalnum() and part in (part.lower(), part.upper())
        for part in parts
    )


def _file_name_goes_on(text: str, end: int, value: str) -> bool:
    """The value is a file's name a rule cut at its first dot (``tests/<name>.spec.ts``
    read as a login and its password): with the suffixes after it, a path's end."""
    suffixes = FILE_SUFFIXES.match(text, end)
    return suffixes is not None and PATH.search(value + suffixes.group()) is not None


def _dev_server_token(text: str, start: int, value: str) -> bool:
    """A token in the query of a socket on this machine's loopback, on a line that names a
    dev server (:data:`LOOPBACK_SOCKET_TOKEN`), as short as Vite draws its socket's token (a
    gateway's token on the same loopback is long)."""
    if len(value) > DEV_SERVER_TOKEN_MAX:
        return False
    first = line_start_within(text, start, WINDOW)  # the line's start, as _line_before's
    if LOOPBACK_SOCKET_TOKEN.search(text[first:start]) is None:
        return False
    end = text.find("\n", start)
    return DEV_SERVER.search(text, first, len(text) if end < 0 else end) is not None


def _line_before(text: str, start: int) -> str:
    """The value's line up to the value (at most :data:`WINDOW` characters of it)."""
    return text[line_start_within(text, start, WINDOW) : start]


# Two services named in the label (``- **Twitter/Discord:** @<handle> / <name>#<4 digits>``):
# after a handle, the slash gives the second service's handle or a Discord tag, not a
# password; after a login (``- **MySQL/MariaDB:** root / <word>#<digits>``) it is one
TWO_SERVICES_LABEL = re.compile(
    r"[ \t]*[-*+][ \t]+(?:\*\*)?[A-Za-z][\w()-]*/[A-Za-z][^:\n]*[:：][*_ \t]*"
    r"@[\w.-]+(?:[ \t]+\([^()\n]{1,24}\))?[ \t]+/[ \t]+$"
)
HANDLE_OR_TAG = re.compile(r"@[\w.-]+(?:#\d+)?|[A-Za-z][\w.]{1,31}#\d{4}")


DRAWN_BASE64 = re.compile(r"(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[+=])[A-Za-z0-9+/]+={0,2}")


def _drawn_base64(value: str) -> bool:
    """Base64 a generator drew (``openssl rand -base64 12``): both cases, a digit and a ``+``
    or its padding, no folder's lower-case name between its slashes (``srv/backups/...``);
    a slash in any other value is a path's or a pair's."""
    return DRAWN_BASE64.fullmatch(value) is not None and not any(
        len(part) >= 3 and part.isalpha() and part.islower() for part in value.split("/")[:-1]
    )


def _second_service_handle(text: str, start: int, value: str) -> bool:
    """Whether the value is a handle or a tag after a handle and a label naming two services."""
    if HANDLE_OR_TAG.fullmatch(value) is None:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return TWO_SERVICES_LABEL.match(text, line_start, start) is not None


def _login_item(text: str, start: int) -> bool:
    """The list item's label names the login (``- **Username:** <address> / <handle>``)
    and the password has an item of its own on the next lines: what follows the slash is
    the account's other name. With no such item (``- **Login:** admin / <value>``) it is
    the password."""
    newline = text.rfind("\n", max(0, start - 4 * NEAR), start)
    if newline < 0 and start > 4 * NEAR:
        return False  # a line too long to be a list's item
    if LOGIN_ITEM_LABEL.match(text, newline + 1) is None:
        return False
    end = text.find("\n", start)
    return end >= 0 and PASSWORD_ITEM_NEXT.match(text, end, end + 4 * NEAR) is not None


def _enumerated(text: str, start: int, end: int) -> bool:
    """A value in backticks that an enumeration mark (``、``) joins to another in backticks
    (`` `umount`、`create` ``: the commands a table's cell lists), before or after it."""
    if text[start - 1 : start] != "`" or text[end : end + 1] != "`":
        return False
    return text.startswith("、`", end + 1) or text[max(0, start - 3) : start - 1] == "`、"


def _listed(text: str, start: int, end: int) -> bool:
    """The value is an item of a list joined by slashes (`` `a` / `b` / `c` ``: branch
    names, folders), not the second half of a login and its password: another item
    follows it, or two come before it on its line."""
    if LIST_GOES_ON.match(text, end):
        return True
    # on its line, in its table cell or clause, and in the window the words before a value
    # are read in: a line of many values costs each one the window, not the line so far
    floor = max(0, start - WINDOW)
    marks = (text.rfind(mark, floor, start) for mark in ("\n", "|", ",", ";", "：", "，"))
    segment = max(floor - 1, *marks) + 1
    return _chained_separators(text, list(LIST_SEPARATOR.finditer(text, segment, start))) >= 2


def _chained_separators(text: str, separators: list[re.Match[str]]) -> int:
    """How many of the slashes before a value join it to the items right before it, one item
    between two slashes (`` `a` / `b` / <value> ``): after a word that is no item (``and``,
    ``und``, ``y``), a pair starts anew (`` `u1` / `p1` und `u2` / <value> ``)."""
    chained = 0
    for later, earlier in itertools.pairwise([None, *reversed(separators)]):
        if earlier is None:
            break
        if later is not None and not ITEM.fullmatch(text, earlier.end(), later.start()):
            break
        chained += 1
    return chained


def _paired_names(text: str, start: int, value: str) -> bool:
    """`` `OpenRowCaptionCommand`/`OpenRowLabelCommand` ``: the value and the backticked
    text before it are both names in code, and no login or password word stands near."""
    login = BACKTICKED_BEFORE.search(text, max(0, start - 72), start)
    if login is None:
        return False
    if PATH.search(login.group(1)) and "@" not in login.group(1):  # not ops@fern.sh
        return True  # `` `floor_rank.py`/`rank_8l*` ``: a script is no login, whatever word is near
    if _files(login.group(1), value):
        return True
    # `` `gpt-5-sol@xhigh`/`gpt-5-sol@low` ``: one name's variants, not a login and its password
    first, at, _ = login.group(1).partition("@")
    one_name = at and value.startswith(first + "@")
    if one_name or _a_variant(login.group(1), value) or _model_tier(login.group(1), value):
        return True
    # one family's names (`` `X-A-Usage` / `X-A-Remain` ``); a field in code given a number
    # (`` `active`/`NRestarts=0` ``, a service's state and its count) is a setting beside
    # whatever stands before it; a constant's name is a name in code too
    # (`` `R2_BUCKET`/`R2RawCaptureConfig` ``)
    named_alike = (
        _siblings(login.group(1), value)
        or _suffix_siblings(login.group(1), value)
        or _class_family(login.group(1), value)
        or _code_field(value)
    )
    if not named_alike:
        first_name = _code_name(login.group(1)) or VARIABLE_NAME.match(login.group(1)) is not None
        if not (first_name and _code_name(_unglobbed(_unassigned(value)))):
            return False
    floor = line_start_within(text, login.start(), NEAR)  # on the pair's line, close before it
    # a login word in the heading over them makes a family's names a login and its password
    heading = named_alike and _login_heading(text, floor)
    return not heading and not LOGIN_WORDS.search(text, floor, login.start())


def _class_family(first: str, value: str) -> bool:
    """Two classes' names of one family, capitalised, one the other with a capitalised word
    inserted before their common end, which holds a letter (``WNConv1d`` /
    ``WNConvTranspose1d``): a login and its password share no such parts (``admin`` /
    ``admin123`` is lower case; ``Deploy2024`` / ``DeployProd2024`` ends in a year)."""
    if not (first[:1].isupper() and value[:1].isupper()) or first == value:
        return False
    short, long = sorted((first, value), key=len)
    prefix = _common_start(short, long)
    suffix = _common_start(short[::-1], long[::-1])
    if prefix < 4 or prefix + suffix < len(short):
        return False
    suffix = min(suffix, len(short) - prefix)
    ending = short[len(short) - suffix :]
    if not any(c.isalpha() for c in ending):
        return False  # ``Deploy2024`` / ``DeployProd2024``: a login's word and a year
    inserted = long[prefix : len(long) - suffix]
    return CLASS_WORDS.fullmatch(inserted) is not None


def _common_start(one: str, other: str) -> int:
    """How many characters the two texts start with alike."""
    return next(
        (n for n, (a, b) in enumerate(zip(one, other, strict=False)) if a != b),
        min(len(one), len(other)),
    )


def _model_tier(first: str, value: str) -> bool:
    """`` `FernAPI-4o` / `FernAPI-4o-mini` ``: a model's alias and its smaller or larger tier,
    the one the other and a tier's word, not a login and a password built on it."""
    short, long = sorted((first, value), key=len)
    tier = long.removeprefix(short)
    return tier != long and tier[:1] in ("-", "_") and tier[1:].lower() in MODEL_TIERS


def _a_variant(first: str, value: str) -> bool:
    """`` `develop` / `NOS_v6.0_develop` ``: a lower-case word and a name that holds it as a
    part, its other parts words or versions (a branch and a product's branch of it), not a
    login and a password built on it (``deploy_2024!``: a symbol, a part of digits only)."""
    if not (first.isascii() and first.isalpha() and first.islower() and len(first) >= 4):
        return False
    parts = NAME_PARTS.split(value)
    others = [part for part in parts if part != first]
    if len(others) == len(parts):
        # `` `minimax` / `MiniMax-M2.7` ``: a provider and its model, named in its own case,
        # its other parts releases alone (``Grafana-Xk9.4mP`` is a password built on it)
        cased = [part for part in parts if part.lower() != first]
        if cased and len(cased) < len(parts) and all(RELEASE.fullmatch(p) for p in cased):
            return True
    if len(others) == len(parts) or not others or any(c in SYMBOLS for c in value):
        return False
    return all(any(c.isalpha() for c in part) for part in others)


def _siblings(first: str, value: str) -> bool:
    """`` `X-Cafe24-Call-Usage` / `X-Cafe24-Call-Remain` ``: two names that share their first
    parts (four characters at least, up to a ``-``, ``_`` or ``.``) and differ in a last word
    of letters only: one family's members (headers, fields), not a login and its password,
    whose password would carry a digit or a symbol in what differs (``deploy_2024!``)."""
    ends = (n + 1 for n, c in enumerate(first) if c in "-_." and value.startswith(first[: n + 1]))
    cut = max(ends, default=0)
    if cut < 4:
        return False
    rest_first, rest_value = first[cut:], value[cut:]
    return rest_first.isalpha() and rest_value.isalpha() and (rest_first + rest_value).isascii()


def _suffix_siblings(first: str, value: str) -> bool:
    """`` `PHL1+corr` / `GHLOW2+corr` ``: two names that end alike (a ``+``, ``-``, ``_`` or
    ``.`` and three letters at least) after heads of letters and digits: one family's
    labels (methods, variants), not a login and its password; two passwords that end alike
    in digits or symbols (``..._2026!``) are two passwords."""
    cut = next(
        (
            n
            for n, c in enumerate(first)
            if c in "+-_."
            and len(first) - n >= 4
            and first[n + 1 :].isalpha()
            and value.endswith(first[n:])
        ),
        None,
    )
    if cut is None:
        return False
    head_first, head_value = first[:cut], value[: len(value) - (len(first) - cut)]
    return bool(head_first and head_value) and (head_first + head_value).isalnum()


def _code_field(value: str) -> bool:
    """``NRestarts=0``, ``idleMs=1000``, ``max_conn=8``: a field named as code names it
    (capitals led by an acronym, camelCase, snake_case) given a number, with no credential
    word; ``Summer=2024`` is a word and a number, a password's shape."""
    name = _unassigned(value)
    return name != value and CODE_FIELD.fullmatch(name) is not None


def _login_heading(text: str, before: int) -> bool:
    """Whether the nearest Markdown heading above ``before`` names a login or credentials
    (as far as it goes before ``before``, when that falls on the heading's own line)."""
    starts = _heading_starts(text)
    at = bisect.bisect_left(starts, before) - 1
    while at >= 0:
        heading = HEADING_LINE.match(text, starts[at], before)
        if heading is not None:
            return LOGIN_WORDS.search(heading.group(0)) is not None
        at -= 1  # ``before`` falls inside this heading's marker: the one above is nearest
    return False


@functools.lru_cache(maxsize=4)
def _heading_starts(text: str) -> list[int]:
    """Where a text's Markdown headings start, in order. Once a text: searching it from
    its start for each pair of names was quadratic on a long log holding many pairs."""
    return [heading.start() for heading in HEADING_LINE.finditer(text)]


def _unassigned(value: str) -> str:
    """A field in code given a number (``gyroIdleMs=1000``: a timeout beside another field)
    judged as its name; a name saying it holds a credential (``dbPass=...``) stays a value."""
    field = NUMBER_ASSIGNED.match(value)
    if field is None or CREDENTIAL_NAME.search(field.group(1)):
        return value
    return field.group(1)


def _files(first: str, value: str) -> bool:
    """`` `model.bf16.gguf` / `*.q8_0.gguf` ``: a glob of files by their suffix, or a file and
    its variant with the same suffix (``.gguf``, which no list of suffixes holds), not a login
    and its password; an e-mail login (``ops@fern.sh``) has a host, not a suffix."""
    suffix = FILE_END.search(value)
    if suffix is None or "@" in first:
        return False
    return value.startswith("*") or first.lower().endswith(suffix.group(0).lower())


def _unglobbed(value: str) -> str:
    """A glob's name without the ``*`` that ends or starts it (``rank_8l*``: names that
    start so), judged as the name; a ``*`` inside is a password's symbol."""
    name = value.strip("*")
    return name if name != value and "*" not in name else value


def _code_name(value: str) -> bool:
    """Words joined by underscores or run together in camelCase, digits allowed
    (``I18nService``, ``nav_p5_1280_sub``); a generated ``Kx9_QpL2_Zr7w`` has no word."""
    return bool(CODE_NAME.match(value) and NAME_JOINT.search(value) and LOWER_WORD.search(value))


# The fewest letters a generated password of letters only has in a password column
# (``xTGaaBaCD``: its column says what it is; elsewhere sixteen)
TABLE_LETTERS = 8


def _has_shape(kind: str | None, value: str) -> bool:
    shape = SHAPES.get(kind or "")
    return shape(value, _Features(value)) if shape is not None else True


class _Features:
    """What the shapes ask of a value: letters, digits, symbols, both cases."""

    __slots__ = ("cases", "digit", "letter", "symbol")

    def __init__(self, value: str) -> None:
        self.letter = any(c.isalpha() for c in value)
        self.digit = any(c.isdigit() for c in value)
        self.symbol = any(c in SYMBOLS for c in value)
        self.cases = any(c.isupper() for c in value) and any(c.islower() for c in value)


def _mixed(value: str, has: _Features) -> bool:
    # a generated password of letters only ("qWfTbnRkLzPaXc...") is mixed and strong
    return (has.letter and (has.digit or has.symbol)) or _random_letters(value)


def _strong(value: str, has: _Features) -> bool:
    if _random_letters(value) or PASSWORD_LIKE.search(value):  # "qa_panel_pw_456"
        return True
    long_mix = has.symbol or (has.cases and len(value) >= 10)
    return len(value) >= 6 and has.letter and has.digit and long_mix


def _symbol(value: str, has: _Features) -> bool:
    return len(value) >= 6 and has.letter and has.digit and has.symbol


# Identifiers in capitals a key's label may hold: a Stellar or an Algorand address (base32),
# an IBAN (a country, two check digits, the account)
UPPER_ID = re.compile(r"G[A-Z2-7]{55}|[A-Z2-7]{58}|[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}")
DIGIT_RUN = re.compile(r"[0-9]{6}")


def _token(value: str, has: _Features) -> bool:
    return len(value) >= 16 and has.letter and has.digit


def _mnemonic(value: str, has: _Features) -> bool:
    """A wallet's recovery phrase (BIP-39): twelve words or more in a row, every one of
    them the standard's English list's (12 to 24 in a phrase; the rule's run may take the
    label's words, ``seed phrase``, or a word after it). The list leaves out the words
    prose cannot do without ("the", "and", "is"), so a sentence of as many words from it
    is rare; the checksum is not asked, as a phrase typed with a slip is still the
    wallet's (or another's)."""
    known = _bip39_words()
    longest = run = 0
    for word in value.split():  # the rule's run of words may take a neighbour or two
        run = run + 1 if word in known else 0
        longest = max(longest, run)
    return longest >= PHRASE_LEAST_WORDS


def _bytes(value: str, has: _Features) -> bool:
    """A key's bytes in brackets (``[119,129,...]``): each number a byte, 0 to 255 (the
    rule's regex takes any three digits, a smaller automaton than one of 0-255 each), and
    of several values (``[0, 0, ...]``, ``[1, 2, 1, 2, ...]`` are stand-ins)."""
    numbers = [int(number) for number in value.strip("[] \t\n").split(",")]
    return all(number <= BYTE_MAX for number in numbers) and len(set(numbers)) >= MIN_BYTES


@functools.cache
def _bip39_words() -> frozenset[str]:
    # imported here: 15 ms, which every audit would pay for the few files holding a phrase
    from mnemonic import Mnemonic  # noqa: PLC0415

    return frozenset(Mnemonic("english").wordlist)


def _any(value: str, has: _Features) -> bool:
    return value.lower() not in COMMON_WORDS


def _key(value: str, has: _Features) -> bool:
    mixed = len(value) >= 16 and has.digit and has.cases and not WORDS_IDENTIFIER.fullmatch(value)
    # a generated key in lower case (32 letters and digits), not a digest's or an address's
    drawn = _drawn_lower(value) and not _named_no_key(value)
    # ... or in capitals, long (``<40 capitals and digits>这是mem0的API Key``): not hex alone
    # (a GPG key's id), a chain's address in base32 (Stellar's, Algorand's), an IBAN, nor a
    # run of six digits or more (an order's or a ticket's number, a date)
    return bool(RANDOM_KEY.match(value)) or mixed or drawn or _drawn_upper_key(value)


def _drawn_upper_key(value: str) -> bool:
    return (
        len(value) >= MIN_DRAWN
        and _drawn_upper(value)
        and HEX_ONLY.fullmatch(value) is None
        and UPPER_ID.fullmatch(value) is None
        and DIGIT_RUN.search(value) is None
    )


def _named_no_key(value: str) -> bool:
    """A digest's or an identifier's prefix (``sha256-``), or a public lower-case encoding
    (a Bitcoin address, an IPFS content id): named, so no key whatever its letters."""
    return bool(NOT_KEY_PREFIX.match(value) or PUBLIC_LOWER.fullmatch(value))


# value kind -> whether a value has its shape (built once: a table of lambdas a hit cost
# a dictionary and six closures)
def _digits(value: str, has: _Features) -> bool:
    return value.isdigit() and len(value) >= MIN_DIGITS


def _pin(value: str, has: _Features) -> bool:
    """Four to eight digits, not a year (``pin: 2024`` pins a version or a date)."""
    year = len(value) == MIN_DIGITS and value[:2] in ("19", "20")
    return value.isdigit() and MIN_DIGITS <= len(value) <= MAX_PIN_DIGITS and not year


def _letters(value: str, has: _Features) -> bool:
    """Lower case letters a generator drew (an app password, in groups of four or not), not
    words: words run together have vowels (``y`` among them) in three letters of ten or more
    and no four consonants in a row ("responsibilities"; about one random draw in fourteen
    looks like that, and a word with four, "nightly", passes), and words in groups are
    common words."""
    letters = _lower_letters(value)
    if letters is None:
        return False
    if any(group in COMMON_WORDS for group in re.split("[ -]", value)):
        return False  # "with this back then": four words, not four groups drawn
    vowels = sum(c in VOWELS for c in letters)
    consonants = max(len(run) for run in CONSONANT_RUNS.split(letters))
    return vowels * 10 < len(letters) * 3 or consonants > 3


SHAPES: dict[str, Callable[[str, _Features], bool]] = {
    "mixed": _mixed,
    "strong": _strong,
    "symbol": _symbol,
    "token": _token,
    "any": _any,
    "key": _key,
    "digits": _digits,
    "pin": _pin,
    "letters": _letters,
    "mnemonic": _mnemonic,
    "bytes": _bytes,
}


def _random_letters(value: str, least: int = 16) -> bool:
    """Sixteen letters or more (``least``) whose case changes at every few letters: a
    generator's output, not words run together (``MemoryAuditReport``) or shouted
    (``READ_ME``)."""
    if len(value) < least or not value.isalpha() or CAMEL_CASE.match(value):
        return False
    changes = sum(a.isupper() != b.isupper() for a, b in itertools.pairwise(value))
    return changes >= len(value) // 3


def _wordlike(value: str) -> bool:
    """Letters only, in lower case or capitalised as a word is: "computed", "Shared"."""
    return value.isalpha() and (value.islower() or (value[0].isupper() and value[1:].islower()))


def _stated(text: str, start: int, end: int, value: str) -> bool:
    """A value that is only digits or only letters, given after ``:`` or ``=``: a password
    all the same when it is six digits or more ("password: 482913"), or a word of six
    letters or more in quotes that is no common word ("password: `sunflower`", a quoted
    ``-H "X-Password: <word>"`` header), or a
    word after a short label (``_labelled_word``), or a short one in backticks after a
    password word (``_labelled_short``)."""
    if len(value) < 6 or _named_password(text, start, end):
        login_digits = _login_digits(value) and _login_given_before(text, start)
        return login_digits or _labelled_short(text, start, end)
    opening = text[start - 1 : start] if start else ""
    quoted = opening in CLOSING_QUOTES and text[end : end + 1] == CLOSING_QUOTES[opening]
    before = text[max(0, start - 8) : start - (1 if quoted else 0)].rstrip(" *")
    if not before.endswith(SEPARATORS):
        return False
    # ``密码: 3.1415926``: digits around a dot after a password's label; ``token_ratio =
    # 0.7523481`` is a number
    if value.isdigit() or _dotted_digits(value):
        return value.isdigit() or _password_digits(text, start, value)
    label = _label(text, start)
    if value.lower() in label.lower():
        return False  # a constant named by its own value: COMMUNITY = "community"
    if TOKEN_LABEL.search(label):
        return False  # a token is generated, never a word: `token='<word>'` seeds a test row
    header = _header_password(text, start, end)  # curl's -H "X-Password: <word>"
    quoted_word = (quoted or header) and value.isalpha() and value.lower() not in COMMON_WORDS
    return quoted_word or _labelled_word(text, start, end, value)


def _password_dotted(rule: Rule, text: str, start: int, value: str) -> bool:
    """A password's value with one dot: digits around it (:func:`_password_digits`), or two
    parts of a capital, letters and digits each (``Kpx482.Mvt951``), after a password's label
    or on a command line's password flag (``sshpass -p '<value>'``); an attribute's name has
    words in lower case (``base64.b64decode``)."""
    if _password_digits(text, start, value):
        return True
    parts = value.split(".")
    mixed = len(parts) == DOTTED_PARTS and all(
        len(part) >= MIN_DOTTED_PART
        and any(c.isdigit() for c in part)
        and any(c.isupper() for c in part)
        for part in parts
    )
    labelled = rule.name == COMMAND_LINE_RULE or PASSWORD_LABEL.search(_label(text, start))
    return mixed and bool(labelled)


def _password_digits(text: str, start: int, value: str) -> bool:
    """Digits around one dot (:func:`_dotted_digits`) after a password's label."""
    return _dotted_digits(value) and PASSWORD_LABEL.search(_label(text, start)) is not None


def _dotted_digits(value: str) -> bool:
    """Six digits or more with one dot among them (``3.1415926``): a number a person chose
    for a password, as six digits alone are; a version (``1.2.3``) or an address has more
    dots."""
    whole, dot, fraction = value.partition(".")
    return bool(dot) and whole.isdigit() and fraction.isdigit() and len(value) > DOTTED_DIGITS


def _label(text: str, start: int) -> str:
    """The words that name a value, back to the clause before them (40 characters at most):
    ``COMMUNITY = "`` of ``COMMUNITY = "community"``; not the e-mail a sentence before
    (``ops@fernhill.es. Password: "Fernhill"``: a password may repeat a name near it)."""
    floor = max(0, start - 40)
    clause = max(text.rfind(mark, floor, start) for mark in ("\n", ". ", ", ", "; ", "("))
    return text[max(floor, clause + 1) : start]


def _labelled_short(text: str, start: int, end: int) -> bool:
    """Four digits or more, four letters and digits mixed (``k9x7``), or a word of five
    letters or more that is no common word, in backticks right after a password word and
    ``:`` (``Пароль: `<word>` ``, ``(password:
    `<digits>`)``): the label says what it is, however short."""
    value = text[start:end]
    if text[end : end + 1] != "`" or not _password_label(text, start, end):
        return False
    if value.isdigit() or _short_mix(value):
        return len(value) >= MIN_LABELLED_DIGITS
    lowered = value.lower()
    common = lowered in COMMON_WORDS or lowered in PLACEHOLDER_WORDS
    return value.isalpha() and len(value) >= MIN_LABELLED_LETTERS and not common


@functools.cache
def _password_label_pattern() -> re.Pattern[str]:
    return re.compile(SHORT_VALUE_LABEL, re.I)


def _password_label(text: str, start: int, end: int) -> bool:
    """A password word and ``:`` right before the backtick that opens a value, or a
    password's name with no colon (``_named_password``)."""
    if _password_label_pattern().search(text, max(0, start - 24), start) is not None:
        return True
    return _named_password(text, start, end)


@functools.cache
def _named_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return re.compile(NAMED_BEFORE), re.compile(NAMED_AFTER)


def _named_password(text: str, start: int, end: int) -> bool:
    """A value in backticks named a password in Russian with no colon: after the word,
    ending its line or list item (``NAMED_BEFORE``: ``Пароль `<4 digits>` ``), or before it
    (``NAMED_AFTER``: ``- `<4 digits>` - пароль от домофона``)."""
    if text[start - 1 : start] != "`":
        return False
    before, after = _named_patterns()
    if after.match(text, end) is not None:
        return True
    floor = max(0, start - NAMED_WINDOW)
    return VALUE_ENDS.match(text, end) is not None and before.search(text, floor, start) is not None


def _labelled_word(text: str, start: int, end: int, value: str) -> bool:
    """A word of eight lower case letters or more after a short password label, ending its
    line, its list item or a clause: a device's login noted as "pw: <word>". The label is
    an abbreviation prose does not use, and no placeholder or prose word fills it."""
    if len(value) < MIN_LABELLED_WORD or not (value.isalpha() and value.islower()):
        return False
    if value in COMMON_WORDS or value in PLACEHOLDER_WORDS:
        return False
    label = SHORT_LABEL.search(text, max(0, start - 16), start)
    return label is not None and WORD_ENDS.match(text, end) is not None


def _unseparated(text: str, start: int) -> bool:
    """The value follows a word and a space, with no separator (``:``, ``=``, ``is``, a quote)."""
    before = text[max(0, start - 16) : start]
    if not before.endswith(" ") or not before.rstrip()[-1:].isalnum():
        return False
    words = before.lower().split()
    word = words[-1]
    if word in BRACKETED_LABELS or word.endswith(CJK_BRACKETED_LABELS):
        return False  # "(pw <value>)": the bracket sets the label apart
    return not _a_default(words) and word not in COPULAS and not word.endswith(COPULA_ENDINGS)


def _a_default(words: list[str]) -> bool:
    """The words before a value give it as a default, as a copula does: ``(default X)``,
    ``(mặc định X)``, ``(por defecto X)``, ``defaults to X``; never a bare "default" in a
    sentence (``password for default deployments-2026``)."""
    if words[-1] == "to":
        return words[-2:-1] == ["defaults"]
    opened = any(word.startswith("(") for word in words[-2:])
    return opened and words[-1].lstrip("(") in DEFAULT_WORDS


def _in_context(text: str, start: int, end: int) -> bool:
    """Not the end of a path, a URL or a key, not marked as an example, not disclaimed."""
    before, after = _around(text, start, end)
    if _ends_a_name(before) or _inside_public_key(before):
        return False
    if (
        TEST_STATUS.search(before)
        and not LOGIN_BEFORE.search(before)
        and (
            TESTED.search(f"{before[-NEAR:]}\n{after}")
            or _an_equation(text, start)
            or MEASURE.match(text, start) is not None
        )
    ):
        # "smoke test PASS: build42x", "Balance Sheet PASS: Assets=Rp 9m = Liabilities+...",
        # "PASS: tau*=0.209": a test's or a check's result, no password's label
        return False
    if _labelled_no_secret(before, text[start:end]):
        return False
    suffix = FILE_SUFFIX.match(after) if after[:1] == "." else None
    if suffix is not None and PATH.search(suffix.group(0)):
        return False  # the name of a file cut at its suffix: "docs/2026-05-login-rework.md"
    # "publishable key: ...", "anon key (public, safe to commit): ..."; an IndexNow key,
    # which the protocol serves from the site as a file
    if PUBLIC_NEAR.search(f"{before[-NEAR:]}\n{after}") or PUBLISHED_KEY.search(
        text, max(0, start - PUBLISHED_WINDOW), start
    ):
        return False
    near = before[-NEAR:]
    return not (
        EXAMPLE_BEFORE.search(near)
        or EXAMPLE_BRACKET_BEFORE.search(near)
        or DISCLAIMER_AFTER.search(after)
        or _counter_example(text, start)
        or _example_introduced(text, start)
    )


def _example_introduced(text: str, start: int) -> bool:
    """Whether the line above the value's introduces an example: a short line that opens
    with an example's word and ends with a colon (``**示例回复（假设 token 为 ...）：**``,
    ``Example reply:``), so the line that follows is the example's. Read near the value
    only: on a long line of values, each would read the whole line again."""
    line_start = text.rfind("\n", max(0, start - WINDOW), start) + 1
    if line_start == 0:
        return False  # the first line, or a value far into a long line
    reach = max(0, line_start - 1 - INTRODUCTION_MAX)
    above_start = text.rfind("\n", reach, line_start - 1) + 1
    if above_start == 0 and reach > 0:
        return False  # a long line above: no introduction
    above = text[above_start : line_start - 1]
    fenced = FENCE_LINE.match(above) is not None
    if fenced and above_start > 0:
        # the value opens a fenced block: the block's introduction is the line above the fence
        # (``**Example format:**``, a fence, then ``DISCORD_BOT_TOKEN=<value>``)
        reach = max(0, above_start - 1 - INTRODUCTION_MAX)
        fence_start = above_start
        above_start = text.rfind("\n", reach, fence_start - 1) + 1
        if above_start == 0 and reach > 0:
            return False
        above = text[above_start : fence_start - 1]
    above = above.rstrip(" \t\r*_`>")
    if fenced:  # a fence's line, not the value's: only a format's example stands for one
        return above.endswith((":", "：")) and EXAMPLE_FORMAT.match(above) is not None
    return above.endswith((":", "：")) and EXAMPLE_INTRODUCTION.match(above) is not None


def _counter_example(text: str, start: int) -> bool:
    """Whether a code comment a few lines above the value's line, with no blank line
    between, opens by marking the code as what not to do, and one nearby marks the right
    way (``// ❌ Never hardcode secrets`` ... ``// ✅ Use the environment``)."""
    line_start = text.rfind("\n", 0, start) + 1
    above = text[max(0, line_start - WINDOW) : line_start].split("\n")[:-1]
    for line in reversed(above[-COUNTER_EXAMPLE_LINES:]):
        if not line.strip():
            return False
        if COUNTER_EXAMPLE.match(line):
            return _right_way_near(text, line_start, above)
    return False


def _right_way_near(text: str, line_start: int, above: list[str]) -> bool:
    """Whether a comment within a few lines of the value's line (starting at ``line_start``,
    ``above`` the lines before it) marks the right way."""
    after = text[line_start : line_start + WINDOW].split("\n")
    near = [*above[-RIGHT_WAY_LINES:], *after[:RIGHT_WAY_LINES]]
    return any(RIGHT_WAY.match(line) for line in near)


def _labelled_no_secret(before: str, value: str) -> bool:
    """The label names a design system's token, a round of work ("Figma pass: step1+step2"),
    a key that keys no secret ("VAPID_PUBLIC_KEY:") or a credential's type ("token_type="),
    or a key named in capitals is given words joined by hyphens ("BUTTON_TEXT_KEY =
    "x-kde-reply-submit-button-text"")."""
    near = max(0, len(before) - NEAR)
    if KEY_NAMED.search(before, near) and KEBAB_WORDS.fullmatch(value):
        return True
    if TYPE_NAMED.search(before, near) and TYPE_WORD.match(value):
        return True
    labels = (DESIGN_TOKEN, WORK_PASS, NO_SECRET_KEY, DOCUMENT_TOKEN)
    return any(label.search(before, near) for label in labels)


def _an_equation(text: str, start: int) -> bool:
    """Whether the value at ``start`` is an equation's left side on its line (``EQUATION``).
    Asked only after a test's "PASS:": the search for the line's end runs to the text's end
    on a long single-line file, once for each value in it."""
    line_end = text.find("\n", start)
    return EQUATION.match(text, start, len(text) if line_end < 0 else line_end) is not None


def _around(text: str, start: int, end: int) -> tuple[str, str]:
    """The text next to ``text[start:end]`` on its line: ``WINDOW`` characters before it at
    most, ``NEAR`` after it."""
    before = text[max(0, start - WINDOW) : start]
    return before[before.rfind("\n") + 1 :], text[end : end + NEAR].split("\n", 1)[0]


def _ends_a_name(before: str) -> bool:
    """The value ends a path, a URL's path or a key blob: "~/.ssh/id_x", "AAAA.../x"."""
    token = before.rsplit(None, 1)[-1] if before and not before[-1].isspace() else ""
    token = token.lstrip(OPENING_QUOTES)  # "`~/.ssh/Andromeda_ed25519`": a path in backticks
    if QUERY_PARAMETER.search(token):
        return False  # "/api/login?token=": a query's value follows its name, no path's end
    if PATH.search(token) or KEY_BLOB.match(token) or SSH_KEY_BLOB.match(token):
        return True
    if "://" in token:
        return token.endswith("/")  # url-password reads a URL's credentials
    # "git@github.com:owner/repo.git": a remote's path, owner and repository, no login pair;
    # but "admin@clinic.example/<value>" is an e-mail login and its password
    remote = "@" in token or ":" in token
    return token.endswith("/") and remote and not ADDRESS.match(token[:-1])


def _inside_public_key(before: str) -> bool:
    """In a PEM public key or certificate whose body is on its BEGIN line."""
    begins = list(PUBLIC_KEY_BEGIN.finditer(before))
    return bool(begins) and "-----END" not in before[begins[-1].end() :]
