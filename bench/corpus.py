"""Memory-shaped text for benchmarks: prose from a Zipf vocabulary of real words, markdown
structure, commands and config lines, near-duplicates, planted secrets and decoys.

The shape follows the real trees studied (a statistic, never their text): files of 2-8 KB
(mean ~4 KB), two thirds of them containing a secret rule's keyword (``key``, ``token``,
``sk`` in "task" or "ask", ``://``), one in seven with a code block, a few percent of
near-copies. The words are ranked by their frequency in CPython's docstrings
(``bench/words.txt``).

python bench/corpus.py OUT_DIR [--files 2000]   (writes the secret-sweep corpus)
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import string
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# run as a script (``bench/generate.py --files 10000``): the repository's root on the path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.github_tokens import github_token

WORDS = [
    w for w in (Path(__file__).with_name("words.txt").read_text().split("\n")) if w and w[0] != "#"
]
CUMULATIVE = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(WORDS))))  # Zipf
DRAW = {"cumulative": CUMULATIVE}  # memory_tree narrows it for a small-vocabulary tree
Maker = Callable[[random.Random], str]
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "_-"
TYPES = ("user", "feedback", "project", "reference")


@dataclass(frozen=True)
class Planted:
    path: str
    line: int  # 1-based, in the file
    family: str
    token: str


def words(rng: random.Random, count: int) -> list[str]:
    cumulative = DRAW["cumulative"]
    return rng.choices(WORDS[: len(cumulative)], cum_weights=cumulative, k=count)


def sentence(rng: random.Random) -> str:
    chosen = words(rng, rng.randint(7, 22))
    if rng.random() < 0.25:
        at = rng.randrange(len(chosen))
        chosen[at] = f"`{_identifier(rng)}`"
    if rng.random() < 0.1:
        chosen.insert(rng.randrange(len(chosen)), _path(rng))
    return " ".join(chosen).capitalize() + rng.choice(".....?:")


def _identifier(rng: random.Random) -> str:
    parts = words(rng, rng.randint(1, 3))
    return rng.choice(("_", ".", "-", "")).join(parts) + rng.choice(("", "()", ".py", ".md"))


def _path(rng: random.Random) -> str:
    return "/".join(("src", *words(rng, rng.randint(1, 2)))) + rng.choice((".py", ".ts", ".md"))


def paragraph(rng: random.Random) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(1, 5)))


def bullets(rng: random.Random) -> str:
    return "\n".join(f"- {sentence(rng)}" for _ in range(rng.randint(2, 6)))


def code_block(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(2, 8)):
        roll = rng.random()
        if roll < 0.3:
            lines.append(f"export {'_'.join(words(rng, 2)).upper()}={rng.choice(_VALUES)(rng)}")
        elif roll < 0.5:
            lines.append(f"{'_'.join(words(rng, 2))}: {rng.choice(_VALUES)(rng)}")
        elif roll < 0.6:
            lines.append(f"git log --oneline {_hex(rng, 7)}..{_hex(rng, 7)} -- {_path(rng)}")
        elif roll < 0.7:
            lines.append(f"{rng.choice(('revision', 'commit', 'sha'))}: {_hex(rng, 40)}")
        else:
            lines.append(
                f"{rng.choice(('make', 'npm run', 'uv run', 'pytest'))} {_identifier(rng)}"
            )
    return "```" + rng.choice(("bash", "yaml", "", "text")) + "\n" + "\n".join(lines) + "\n```"


_VALUES: tuple[Maker, ...] = (
    lambda rng: str(rng.randint(1, 65535)),
    lambda rng: rng.choice(("true", "false", "debug", "info", "staging", "production")),
    lambda rng: f"https://{rng.choice(WORDS)}.example.org/{rng.choice(WORDS)}",
    _path,
)


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choices(HEX, k=n))


def body(rng: random.Random, size: int) -> list[str]:
    blocks: list[str] = []
    while sum(len(b) + 2 for b in blocks) < size:
        roll = rng.random()
        if roll < 0.08:
            blocks.append("## " + " ".join(words(rng, rng.randint(2, 5))).title())
        elif roll < 0.3:
            blocks.append(bullets(rng))
        elif roll < 0.36:
            blocks.append(code_block(rng))
        else:
            blocks.append(paragraph(rng))
    return "\n\n".join(blocks).split("\n")


LINKING_WORDS = frozenset(
    """and or the a an to of with for that which because but if when in on at by from as
    is are was were be it its this not""".split()
)


def frontmatter(rng: random.Random, name: str, about: list[str] | None = None) -> list[str]:
    """``about``: the body, which the description then sums up in the body's own words, as
    real ones do (on the 23 real trees 12 of 1,522 descriptions share no word with their
    file); without it, words drawn at random (most then share nothing with the body)."""
    kind = rng.choice(TYPES)
    description = " ".join(words(rng, rng.randint(6, 14)))
    prose = [w for line in about or () if line[:1].isalpha() for w in line.split()]
    if len(prose) > 20 and rng.random() < 0.99:
        start = rng.randrange(len(prose) - 14)
        chosen = [w.strip(".,:;`") for w in prose[start : start + rng.randint(6, 14)]]
        while len(chosen) > 3 and chosen[-1].lower() in LINKING_WORDS:
            chosen.pop()  # a real description ends on a content word, not "the" or "to"
        description = " ".join(chosen)
    if rng.random() < 0.5:
        return ["---", f"name: {name}", f"description: {description}", f"type: {kind}", "---"]
    return [
        "---",
        f"name: {name}",
        f"description: {description}",
        "metadata:",
        f"  type: {kind}",
        f"  originSessionId: {_hex(rng, 8)}-{_hex(rng, 4)}-{_hex(rng, 4)}-{_hex(rng, 12)}",
        "---",
    ]


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choices(alphabet, k=n))


def _uuid(rng: random.Random) -> str:
    return f"{_hex(rng, 8)}-{_hex(rng, 4)}-4{_hex(rng, 3)}-a{_hex(rng, 3)}-{_hex(rng, 12)}"


# family -> (line around the token, token maker). Fake values in each vendor's documented format.
SECRETS: dict[str, tuple[str, Maker]] = {
    "github-pat": (
        "The deploy bot pushes with {t}.",
        lambda r: github_token("ghp_", _r(r, ALNUM, 36)),
    ),
    "github-oauth": (
        "OAuth token from the app: {t}",
        lambda r: github_token("gho_", _r(r, ALNUM, 36)),
    ),
    "github-fine-grained": (
        "GH_TOKEN={t}",
        lambda r: "github_pat_" + _r(r, ALNUM, 22) + "_" + _r(r, ALNUM, 59),
    ),
    "gitlab-pat": (
        "CI uses the token {t} for the registry.",
        lambda r: "glpat-" + _r(r, ALNUM, 20),
    ),
    "anthropic": (
        "ANTHROPIC_API_KEY={t}",
        lambda r: "sk-ant-api03-" + _r(r, URLSAFE, 93) + "AA",
    ),
    "openai": (
        "OPENAI_API_KEY={t}",
        lambda r: "sk-proj-" + _r(r, URLSAFE, 74) + "T3BlbkFJ" + _r(r, URLSAFE, 74),
    ),
    "slack-bot": (
        "slack bot token: {t}",
        lambda r: (
            f"xoxb-{r.randint(10**10, 10**11)}-{r.randint(10**10, 10**11)}-" + _r(r, ALNUM, 24)
        ),
    ),
    "slack-webhook": (
        "Alerts post to {t}",
        lambda r: (
            "https://hooks.slack.com/services/T"
            + _r(r, string.ascii_uppercase + string.digits, 8)
            + "/B"
            + _r(r, string.ascii_uppercase + string.digits, 10)
            + "/"
            + _r(r, ALNUM, 24)
        ),
    ),
    "stripe": ("STRIPE_SECRET_KEY={t}", lambda r: "sk_live_" + _r(r, ALNUM, 24)),
    "google-api-key": ("maps key {t} (restricted)", lambda r: "AIza" + _r(r, URLSAFE, 35)),
    "aws-access-key-id": (
        "aws_access_key_id = {t}",
        lambda r: "AKIA" + _r(r, string.ascii_uppercase + "234567", 16),
    ),
    "aws-secret-access-key": ("aws_secret_access_key = {t}", lambda r: _r(r, B64, 40)),
    "npm": ("//registry.npmjs.org/:_authToken={t}", lambda r: "npm_" + _r(r, ALNUM, 36)),
    "pypi": ("password = {t}", lambda r: "pypi-AgEIcHlwaS5vcmc" + _r(r, URLSAFE, 70)),
    "huggingface": ("HF_TOKEN={t}", lambda r: "hf_" + _r(r, string.ascii_letters, 34)),
    "sendgrid": (
        "SENDGRID_API_KEY={t}",
        lambda r: "SG." + _r(r, URLSAFE, 22) + "." + _r(r, URLSAFE, 43),
    ),
    "twilio-api-key": ("Twilio API key {t}", lambda r: "SK" + _hex(r, 32)),
    "digitalocean": ("DIGITALOCEAN_TOKEN={t}", lambda r: "dop_v1_" + _hex(r, 64)),
    "shopify": ("SHOPIFY_ACCESS_TOKEN={t}", lambda r: "shpat_" + _hex(r, 32)),
    "databricks": ("DATABRICKS_TOKEN={t}", lambda r: "dapi" + _hex(r, 32)),
    "linear": ("LINEAR_API_KEY={t}", lambda r: "lin_api_" + _r(r, ALNUM, 40)),
    "grafana": ("grafana token {t}", lambda r: "glsa_" + _r(r, ALNUM, 32) + "_" + _hex(r, 8)),
    "telegram": (
        "TELEGRAM_BOT_TOKEN={t}",
        lambda r: f"{r.randint(10**8, 10**9)}:AA" + _r(r, URLSAFE, 33),
    ),
    "jwt": (
        "Authorization: Bearer {t}",
        lambda r: "eyJhbGciOiJIUzI1NiJ9.eyJ" + _r(r, URLSAFE, 40) + "." + _r(r, URLSAFE, 43),
    ),
    "database-url": (
        "DATABASE_URL={t}",
        lambda r: f"postgres://app:{_r(r, ALNUM, 16)}@db.internal:5432/app",
    ),
    "vault": ("VAULT_TOKEN={t}", lambda r: "hvs." + _r(r, URLSAFE, 90)),
    "azure-storage": (
        "{t}",
        lambda r: (
            "DefaultEndpointsProtocol=https;AccountName=ledgerstore;AccountKey="
            + _r(r, B64, 86)
            + "==;EndpointSuffix=core.windows.net"
        ),
    ),
    "heroku": ("HEROKU_API_KEY={t}", _uuid),
    "mailgun": ("MAILGUN_API_KEY={t}", lambda r: "key-" + _hex(r, 32)),
    "discord": ("DISCORD_BOT_TOKEN={t}", lambda r: _hex(r, 64)),
    "twilio-auth-token": ("TWILIO_AUTH_TOKEN={t}", lambda r: _hex(r, 32)),
    "db-password": ("DB_PASSWORD={t}", lambda r: _r(r, ALNUM + "!#%", 18)),
    "secret-key": ("SECRET_KEY = '{t}'", lambda r: _r(r, ALNUM + "!#%^&*", 40)),
}
# 48 planted tokens: every family once, the common ones again.
PLANT_ORDER = (
    list(SECRETS)
    + [
        "github-pat",
        "github-pat",
        "aws-access-key-id",
        "aws-secret-access-key",
        "anthropic",
        "openai",
        "slack-bot",
        "stripe",
        "jwt",
        "database-url",
        "db-password",
        "secret-key",
        "google-api-key",
        "github-fine-grained",
        "npm",
    ][: 48 - len(SECRETS)]
)

# Strings that look like secrets and are not: what memory files really contain.
DECOYS: tuple[Maker, ...] = (
    lambda r: "From the AWS docs: AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    lambda r: "Set OPENAI_API_KEY=sk-... in your shell, never in the repo.",
    lambda r: "api_key: <your-api-key>",
    lambda r: "DB_PASSWORD=${DB_PASSWORD}",
    lambda r: f"Fixed in commit {_hex(r, 40)} (see PR #{r.randint(10, 999)}).",
    lambda r: f"request id {_uuid(r)} in the logs",
    lambda r: f"sha256: {_hex(r, 64)}",
    lambda r: "password: changeme",
    lambda r: 'token = os.environ["GITHUB_TOKEN"]',
    lambda r: "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + _r(r, B64, 60) + " dev@laptop",
    lambda r: "secret_key = settings.SECRET_KEY",
    lambda r: "postgres://app:${PGPASSWORD}@localhost/app",
    lambda r: "The token is read from ~/.config/gh/hosts.yml; rotate it with `gh auth refresh`.",
    lambda r: "Use `ghp_` tokens only in CI secrets, never in notes.",
    lambda r: f"image digest sha256:{_hex(r, 64)}",
    lambda r: "password=hunter2 is the joke, not a credential",
)


def secret_corpus(out: Path, files: int = 2000, seed: int = 11) -> list[Planted]:
    """``files`` memory files (~4 KB mean, ~8 MB) with 48 planted tokens in 33 families."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    texts: list[list[str]] = []
    for number in range(files):
        if number and rng.random() < 0.03:  # near-duplicate of an earlier note
            lines = list(rng.choice(texts))
            lines[1] = f"name: note-{number:05d}"
            lines.insert(rng.randrange(6, len(lines)), sentence(rng))
        else:
            size = int(min(max(rng.lognormvariate(8.1, 0.6), 400), 20_000))
            lines = frontmatter(rng, f"note-{number:05d}") + body(rng, size)
        texts.append(lines)
    planted = _plant(rng, texts)
    _decoys(rng, texts)
    planted = [_relocate(p, texts) for p in planted]  # inserts below shifted some lines
    for number, lines in enumerate(texts):
        (out / f"note_{number:05d}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "MEMORY.md").write_text(
        "# Memory\n\n" + "".join(f"- [note {n}](note_{n:05d}.md)\n" for n in range(files))
    )
    return planted


def _plant(rng: random.Random, texts: list[list[str]]) -> list[Planted]:
    targets = rng.sample(range(len(texts)), len(PLANT_ORDER))
    planted = []
    for number, family in zip(targets, PLANT_ORDER, strict=True):
        template, make = SECRETS[family]
        token = make(rng)
        lines = texts[number]
        at = rng.randrange(7, len(lines) + 1)  # below the frontmatter
        lines.insert(at, template.format(t=token))
        planted.append(Planted(f"note_{number:05d}.md", at + 1, family, token))
    return planted


def _relocate(planted: Planted, texts: list[list[str]]) -> Planted:
    lines = texts[int(planted.path[5:10])]
    line = next(n for n, text in enumerate(lines, 1) if planted.token in text)
    return Planted(planted.path, line, planted.family, planted.token)


def _decoys(rng: random.Random, texts: list[list[str]]) -> None:
    for number in rng.sample(range(len(texts)), 120):
        lines = texts[number]
        lines.insert(rng.randrange(6, len(lines) + 1), rng.choice(DECOYS)(rng))


TOPICS = ("billing", "deploy", "testing", "postgres", "auth", "webhooks", "search", "frontend")


def memory_tree(out: Path, files: int, seed: int = 7, vocabulary: int | None = None) -> Path:
    """A memory tree: topic folders, an index of every note (3% left out), links between
    notes, 3% near-copies. ``vocabulary``: draw from only the N most frequent words (notes
    then share most of their words, the hard case for ``duplicates``)."""
    rng = random.Random(seed)
    DRAW["cumulative"] = CUMULATIVE[:vocabulary] if vocabulary else CUMULATIVE
    try:
        _write_tree(rng, out, files)
    finally:
        DRAW["cumulative"] = CUMULATIVE
    return out


def _write_tree(rng: random.Random, out: Path, files: int) -> None:
    paths: list[str] = []
    index = ["# Memory index", ""]
    for number in range(files):
        topic = TOPICS[number % len(TOPICS)]
        path = f"{topic}/note_{number:05d}.md" if number % 3 == 0 else f"note_{number:05d}.md"
        if paths and rng.random() < 0.03:
            lines = (out / rng.choice(paths)).read_text(encoding="utf-8").split("\n")
            lines[1] = f"name: note-{number:05d}"
        else:
            size = int(min(max(rng.lognormvariate(7.7, 0.6), 300), 20_000))
            text = body(rng, size)
            lines = frontmatter(rng, f"note-{number:05d}", text) + text
            if paths and rng.random() < 0.3:
                lines.append(f"See [related]({rng.choice(paths[-100:])}).")
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text("\n".join(lines), encoding="utf-8")
        paths.append(path)
        if rng.random() < 0.97:
            index.append(f"- [note {number}]({path}) — {' '.join(words(rng, 8))}")
    (out / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--files", type=int, default=2000)
    args = parser.parse_args()
    planted = secret_corpus(args.out, args.files)
    print(json.dumps([p.__dict__ for p in planted], indent=1))


if __name__ == "__main__":
    main()
