"""Realistic synthetic memory trees for benchmarks: both frontmatter layouts, drift sprinkled in.

python bench/generate.py OUT_DIR --files 1000 [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

# run as a script (``bench/generate.py --files 10000``): the repository's root on the path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.github_tokens import github_token

TYPES = ("user", "feedback", "project", "reference")
TOPICS = (
    "billing",
    "invoices",
    "deploy",
    "testing",
    "postgres",
    "migrations",
    "logging",
    "auth",
    "webhooks",
    "rate-limits",
    "caching",
    "search",
    "onboarding",
    "api",
    "frontend",
    "queues",
)
WORDS = (
    "the service retries each webhook with exponential backoff and gives up after six "
    "attempts integration tests run against a real database started from the compose file "
    "never a mock deploys go through the pipeline on merge and production needs a manual "
    "approval step the user prefers short answers that show a diff instead of describing the "
    "change in prose structured logs carry one event per line with the invoice id and the "
    "merchant id as fields cursor pagination keeps pages stable while new rows arrive and "
    "clients must not parse cursors"
).split()


def _vocabulary(size: int = 4000) -> tuple[list[str], list[float]]:
    """Common words plus invented terms (identifiers, names), drawn with Zipf weights."""
    rng = random.Random(0)
    syllables = ["ka", "lo", "mi", "ten", "dra", "vel", "qu", "ix", "ro", "sta", "ne", "por"]
    invented = {
        "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(size)
    }
    words = list(dict.fromkeys(WORDS)) + sorted(invented)
    return words, [1.0 / (rank + 1) for rank in range(len(words))]


VOCABULARY, WEIGHTS = _vocabulary()


def paragraph(rng: random.Random, words: int) -> str:
    return " ".join(rng.choices(VOCABULARY, WEIGHTS, k=words)).capitalize() + "."


def frontmatter(rng: random.Random, name: str, kind: str, drift: str | None) -> str:
    description = f"{paragraph(rng, 12)[:-1]} ({name})"
    if drift == "bad-type":
        kind = "note"
    if rng.random() < 0.5:
        lines = [f"name: {name}", f"description: {description}", f"type: {kind}"]
    else:
        lines = [
            f"name: {name}",
            f"description: {description}",
            "metadata:",
            f"  type: {kind}",
            "  node_type: memory",
            f"  originSessionId: {rng.getrandbits(64):016x}",
            "  modified: 2026-10-01",
        ]
    if drift == "no-description":
        lines = [line for line in lines if not line.startswith("description")]
    return "---\n" + "\n".join(lines) + "\n---\n"


def body(rng: random.Random, names: list[str], kind: str) -> str:
    parts = [paragraph(rng, rng.randint(25, 60)) for _ in range(rng.randint(1, 4))]
    if names and rng.random() < 0.3:
        parts.append(f"See [[{rng.choice(names)}]].")
    if kind in ("feedback", "project"):
        parts.append(f"**Why:** {paragraph(rng, 14)}\n**How to apply:** {paragraph(rng, 12)}")
    return "\n\n".join(parts) + "\n"


def generate(out: Path, files: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    names: list[str] = []
    paths: list[str] = []
    index = ["# Memory index", ""]
    for number in range(files):
        topic = TOPICS[number % len(TOPICS)]
        kind = rng.choice(TYPES)
        name = f"{topic}-{number:05d}"
        folder = f"{topic}/" if number % 3 == 0 else ""
        path = f"{folder}{kind}_{name}.md"
        roll = rng.random()
        drift = "bad-type" if roll < 0.02 else "no-description" if roll < 0.04 else None
        text = frontmatter(rng, name, kind, drift) + body(rng, names[-50:], kind)
        if number and rng.random() < 0.01:  # ~1% near-duplicates of an earlier file
            earlier = (out / rng.choice(paths)).read_text(encoding="utf-8")
            text = earlier.replace("name: ", "name: copy-of-", 1)
        paths.append(path)
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text, encoding="utf-8")
        names.append(name)
        if rng.random() < 0.97:  # ~3% unindexed
            index.append(f"- [{name}]({path}) — {paragraph(rng, 10)[:-1]}")
        if rng.random() < 0.02:  # broken links
            index.append(f"- [gone {number}](gone_{number}.md) — removed long ago")
    (out / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return out


def restatements(out: Path, files: int, cluster: int = 500, rate: float = 0.02) -> list[str]:
    """A tree of ``files`` notes where ``rate`` of them restate another note in other words
    (a few words swapped, a sentence reordered) and ``cluster`` notes restate one fact.
    Returns the paths of the cluster."""
    generate(out, files, seed=13)
    rng = random.Random(17)
    paths = sorted(p for p in out.rglob("*.md") if p.name != "MEMORY.md")
    picked = rng.sample(paths, int(files * rate) + cluster)
    fact = paragraph(rng, 30)
    for number, path in enumerate(picked):
        header, _, rest = path.read_text(encoding="utf-8").partition("\n---\n")
        source = fact if number < cluster else rng.choice(paths).read_text(encoding="utf-8")
        original = source.partition("\n---\n")[2].split("\n\n")[0] if number >= cluster else fact
        path.write_text(f"{header}\n---\n{reworded(rng, original)}\n\n{rest}", encoding="utf-8")
    return [str(p.relative_to(out)) for p in picked[:cluster]]


def reworded(rng: random.Random, text: str) -> str:
    """The same statement in slightly other words: one word in ten replaced, order kept."""
    words = text.split()
    for _ in range(max(1, len(words) // 10)):
        words[rng.randrange(len(words))] = rng.choices(VOCABULARY, WEIGHTS)[0]
    return " ".join(words)


def secret_corpus(out: Path, files: int = 2000, size: int = 4096, seed: int = 11) -> list[str]:
    """Files of ~``size`` bytes of prose, 1 in 50 with a planted token; returns the tokens."""
    rng = random.Random(seed)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    planted = []
    out.mkdir(parents=True, exist_ok=True)
    for number in range(files):
        lines: list[str] = []
        while sum(len(line) + 1 for line in lines) < size:
            lines.append(paragraph(rng, rng.randint(8, 20)))
        if number % 50 == 0:
            token = github_token("ghp_", "".join(rng.choice(alphabet) for _ in range(36)))
            planted.append(token)
            lines.insert(rng.randrange(len(lines)), f"The deploy bot uses {token} for pushes.")
        (out / f"note_{number:05d}.md").write_text(
            frontmatter(rng, f"note-{number}", "reference", None) + "\n".join(lines) + "\n"
        )
    return planted


POOL = 500
PROJECT = "/home/dev/ledgerly"
PROJECT_FILES = tuple(
    f"{PROJECT}/{folder}/{name}.py"
    for folder in ("src/billing", "src/api", "src/auth", "tests", "scripts")
    for name in ("core", "views", "models")
)


def transcript_corpus(folder: Path, tree: Path, count: int, megabytes: int, seed: int = 5) -> int:
    """``count`` session transcripts of ~``megabytes`` each, shaped like Claude Code's JSONL
    (compact JSON, every record with its ``cwd``): user turns, assistant text, large tool
    results, tool calls that read memory files or edit and run commands in the project, and
    memory attachments. Returns the total size in bytes."""
    rng = random.Random(seed)
    memories = sorted(str(p) for p in tree.rglob("*.md") if p.name != "MEMORY.md")
    # Texts drawn from a pool: generating 2 GB of fresh words would take longer than reading it.
    pool = [paragraph(rng, rng.randint(20, 200)) for _ in range(POOL)]
    total = 0
    for number in range(count):
        path = folder / f"{number:04d}-session.jsonl"
        with path.open("w", encoding="utf-8") as handle:
            written = 0
            while written < megabytes * 1024 * 1024:
                record = _transcript_record(rng, memories, pool, number)
                line = json.dumps(record, separators=(",", ":")) + "\n"
                handle.write(line)
                written += len(line)
        total += written
    return total


def _transcript_record(
    rng: random.Random, memories: list[str], pool: list[str], session: int
) -> dict[str, object]:
    roll = rng.random()
    base: dict[str, object] = {
        "sessionId": f"s{session}",
        "cwd": PROJECT,
        "uuid": f"{rng.getrandbits(128):032x}",
        "timestamp": f"2026-11-{1 + session % 28:02d}T10:{session % 60:02d}:00.000Z",
    }
    if roll < 0.02 and memories:
        read = {"file_path": rng.choice(memories[: len(memories) * 3 // 4])}
        return {**base, "type": "assistant", "message": _tool_call("Read", read)}
    if roll < 0.03:
        edit = {"file_path": rng.choice(PROJECT_FILES), "old_string": "a", "new_string": "b"}
        return {**base, "type": "assistant", "message": _tool_call("Edit", edit)}
    if roll < 0.035:
        return {**base, "type": "assistant", "message": _tool_call("Bash", {"command": "make"})}
    if roll < 0.04 and memories:
        some = memories[: len(memories) * 3 // 4]  # a quarter no session uses
        attached = {"type": "nested_memory", "path": rng.choice(some), "content": "x"}
        return {**base, "type": "attachment", "attachment": attached}
    if roll < 0.3:
        result = " ".join(rng.choices(pool, k=rng.randint(2, 16)))
        content = [{"type": "tool_result", "tool_use_id": "toolu", "content": result}]
        return {**base, "type": "user", "message": {"role": "user", "content": content}}
    text = [{"type": "text", "text": rng.choice(pool)}]
    return {**base, "type": "assistant", "message": {"role": "assistant", "content": text}}


def _tool_call(name: str, given: dict[str, str]) -> dict[str, object]:
    call = {"type": "tool_use", "id": "toolu", "name": name, "input": given}
    return {"role": "assistant", "content": [call]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    generate(args.out, args.files, args.seed)


if __name__ == "__main__":
    main()
