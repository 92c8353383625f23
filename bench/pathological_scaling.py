"""Scaling probe: does one long pathological run, anywhere the audit reads, cost time linear in
its length? (DESIGN §6: every parser of untrusted text is linear-time; issue 19.)

For each (shape, place) a run of the shape (``"a-" * n``, ``"(" * n``, a CJK run, blank
lines, a long ``key: value`` ...) of N and 2N characters is written into one place of a small
tree (a body line, a body after a status word, a first paragraph under ``scope: global``, a
MEMORY.md link title, hook or plain line, a frontmatter value, a ``related:`` target ...),
and the whole audit (``audit_tree(load_tree(root), every dimension)``, in a forked child so a
stall can be cut off) is timed at both sizes: N = 30,000 in frontmatter (2N stays under its
64 KB cap), 128 KiB in bodies and MEMORY.md. A case is flagged when its time grows more than
3x from N to 2N (quadratic), an audit takes over 2 s, or it runs past the timeout. Shapes
holding a line break are tried only in bodies and MEMORY.md.

python bench/pathological_scaling.py [--n 30000] [--n-text 131072] [--timeout 20]
    [--shape S ...] [--place P ...] [-v]
python bench/pathological_scaling.py --profile SHAPE PLACE [--n 30000]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memory_audit.checks import REGISTRY
from memory_audit.engine import audit_tree
from memory_audit.tree.snapshot import load_tree


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


SHAPES: dict[str, Callable[[int], str]] = {
    **{
        name: _repeat(unit)
        for name, unit in {
            "a-": "a-",
            "a.": "a.",
            "a/": "a/",
            "a@": "a@",
            "a:": "a:",
            "a_": "a_",
            "1.": "1.",
            "-": "-",
            "*": "*",
            "_": "_",
            "#": "#",
            "space": " ",
            "tab": "\t",
            "a-space": "a ",
            "aB": "aB",
            "(": "(",
            "<": "<",
            "`a": "`a",
            "~": "~",
            "${": "${",
            "cjk": "記憶監査",
            "mixed": "a-b.c/d@e",
            "digits": "1234567890",
            "base64": "QUJDRGVmZ2hpams0NTY3ODkrLw",
            "hex": "0123456789abcdef",
            "a\\": "a\\",
            "[": "[",
            "!": "!",
            "a=": "a=",
            "a,": "a,",
            "a'": "a'",
            "a;": "a;",
            "dot-dash": ".-",
            "a.b/": "a.b/",
            "~/a": "~/a",
            "./": "./",
            "Aa": "Aa",
            "A1": "A1",
            "a1-": "a1-",
            "word ": "word ",
            "|a": "|a",
            "- ": "- ",
            "1. ": "1. ",
            "# ": "# ",
            "key: ": "key: ",
            "'": "'",
            '"': '"',
            "a%": "a%",
            "a+": "a+",
            "a$": "a$",
            "ab ": "ab ",
            "http-a": "http://a",
            "newline": "\n",
            "space-newline": " \n",
            "dash-newline": "-\n",
            "word-newline": "a\n",
            "quote-newline": "> \n",
            "fence": "```\n",
            "html-comment": "<!--",
        }.items()
    },
    "url-tail": lambda n: "http://" + "a" * max(n - 7, 0),
    "sk-tail": lambda n: "sk-" + "a" * max(n - 3, 0),
    "long-word": lambda n: "a" * n,
    "dashed-then-path": lambda n: _repeat("a-")(max(n - 8, 0)) + " see x/y",
    "2026-": _repeat("2026-01-02 "),
}

Tree = dict[str, str]
INDEX = "- [A](a.md) — the a notes\n- [B](b.md) — the b notes\n"
B_FILE = "---\nname: b\ndescription: About the b service\ntype: project\n---\nB body words.\n"


def _memory(fields: str = "", body: str = "A body.") -> str:
    return (
        "---\nname: a\ndescription: About the a service\ntype: project\n"
        + fields
        + "---\n"
        + body
        + "\n"
    )


def _with_field(key: str, value: str) -> str:
    """``a.md`` with one frontmatter field replaced or added (a plain scalar)."""
    base = {"name": "a", "description": "About the a service", "type": "project"}
    base[key] = value
    lines = "".join(f"{k}: {v}\n" for k, v in base.items())
    return f"---\n{lines}---\nA body.\n"


PLACES: dict[str, Callable[[str], Tree]] = {
    "body": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _memory(body=f"Notes.\n{s}\nEnd."),
        "b.md": B_FILE,
    },
    "body-twice": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _memory(body=f"Deploy notes: {s}"),
        "b.md": _memory(body=f"Deploy notes: {s}").replace("name: a", "name: b"),
    },
    "index-title": lambda s: {"MEMORY.md": f"- [{s}](a.md) — hook\n", "a.md": _memory()},
    "index-hook": lambda s: {"MEMORY.md": f"- [A](a.md) — {s}\n", "a.md": _memory()},
    "index-plain": lambda s: {"MEMORY.md": f"- [A](a.md) — hook\n{s}\n", "a.md": _memory()},
    "description": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _with_field("description", s),
        "b.md": B_FILE,
    },
    "description-quoted": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _with_field("description", json.dumps(s)),
        "b.md": B_FILE,
    },
    "name": lambda s: {"MEMORY.md": INDEX, "a.md": _with_field("name", s), "b.md": B_FILE},
    "type": lambda s: {"MEMORY.md": INDEX, "a.md": _with_field("type", s), "b.md": B_FILE},
    "other-field": lambda s: {"MEMORY.md": INDEX, "a.md": _with_field("source", s), "b.md": B_FILE},
    "review_by": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _with_field("review_by", s),
        "b.md": B_FILE,
    },
    "confidence": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _with_field("confidence", s),
        "b.md": B_FILE,
    },
    "superseded_by": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _with_field("superseded_by", s),
        "b.md": B_FILE,
    },
    "related": lambda s: {"MEMORY.md": INDEX, "a.md": _with_field("related", s), "b.md": B_FILE},
    "relation-target": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _memory(fields=f"relations:\n  - type: supports\n    target: {json.dumps(s)}\n"),
        "b.md": B_FILE,
    },
    "after-status-words": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _memory(body=f"- [x] a done{s}x\n- [ ] todo{s}x\nStatus as of{s}x\n"),
        "b.md": B_FILE,
    },
    "after-secret-words": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _memory(body=f"password={s}\nDB_PASSWORD: x{s}\napi_key = '{s}'\n"),
        "b.md": B_FILE,
    },
    "scope-global-paragraph": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _memory(fields="scope: global\n", body=f"{s} see src/app.py"),
        "b.md": B_FILE,
    },
    "last_challenged": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _with_field("last_challenged", s),
        "b.md": B_FILE,
    },
}


def _write(root: Path, tree: Tree) -> None:
    root.mkdir(parents=True)
    for rel, text in tree.items():
        (root / rel).write_text(text, encoding="utf-8")


def _audit(root: Path) -> int:
    return len(audit_tree(load_tree(root), tuple(REGISTRY)).findings)


def _time_child(root: Path, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    start = time.perf_counter()
    _audit(root)
    out.put(time.perf_counter() - start)


def timed(tree: Tree, timeout: float) -> float | None:
    """Seconds of one audit of ``tree``, or None when it ran past ``timeout``."""
    with tempfile.TemporaryDirectory(prefix="pathological-") as folder:
        root = Path(folder) / "memory"
        _write(root, tree)
        out: multiprocessing.Queue[float] = multiprocessing.Queue()
        child = multiprocessing.Process(target=_time_child, args=(root, out))
        child.start()
        child.join(timeout)
        if child.is_alive():
            child.kill()
            child.join()
            return None
        return out.get() if not out.empty() else None


def _shown(seconds: float | None) -> str:
    return "   >limit" if seconds is None else f"{seconds:8.3f}s"


TEXT_PLACES = (
    *("body", "body-twice", "index-title", "index-hook", "index-plain", "after-status-words"),
    *("after-secret-words", "scope-global-paragraph"),
)


def probe(shapes: list[str], places: list[str], sizes: tuple[int, int], timeout: float) -> int:
    """Time every (shape, place) at N and 2N; print the flagged ones (all with -v)."""
    flagged = tried = 0
    print(f"{'shape':>12} {'place':>20} {'N':>9} {'2N':>9}  ratio (N={sizes})")
    for place in places:
        n = sizes[1] if place in TEXT_PLACES else sizes[0]
        for shape in shapes:
            if place not in TEXT_PLACES and "\n" in SHAPES[shape](4):
                continue
            tried += 1
            small = timed(PLACES[place](SHAPES[shape](n)), timeout)
            large = timed(PLACES[place](SHAPES[shape](2 * n)), timeout) if small else None
            ratio = large / small if small and large else float("inf")
            bad = small is None or large is None or ratio > 3 or large > 2
            flagged += bad
            if bad or "-v" in sys.argv:
                print(
                    f"{shape!r:>12} {place:>20} {_shown(small)} {_shown(large)}  {ratio:5.1f}"
                    + ("  FLAGGED" if bad else ""),
                    flush=True,
                )
    print(f"{flagged} flagged of {tried}")
    return 1 if flagged else 0


def profile(shape: str, place: str, n: int) -> None:
    with tempfile.TemporaryDirectory(prefix="pathological-") as folder:
        root = Path(folder) / "memory"
        _write(root, PLACES[place](SHAPES[shape](n)))
        profiler = cProfile.Profile()
        profiler.runcall(_audit, root)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=30_000, help="N in frontmatter (2N < 64 KB)")
    parser.add_argument("--n-text", type=int, default=128 * 1024, help="N in bodies, MEMORY.md")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
    parser.add_argument("--place", action="append", choices=sorted(PLACES))
    parser.add_argument("--profile", nargs=2, metavar=("SHAPE", "PLACE"))
    parser.add_argument("-v", action="store_true", help="print every case, not only flagged")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile[0], args.profile[1], args.n)
        return 0
    return probe(
        args.shape or list(SHAPES), args.place or list(PLACES), (args.n, args.n_text), args.timeout
    )


if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    sys.exit(main())
