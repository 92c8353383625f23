"""Scaling probe: does one long pathological run, anywhere the audit reads, cost time linear in
its length? (DESIGN §6: every parser of untrusted text is linear-time; issues 19 and 30.)

For each (shape, place) a run of the shape (``"a-" * n``, ``"(" * n``, ``"/" * n``, a CJK run,
blank lines, ``password: …`` lines, ``eyJ….`` tokens, list markers, setext underlines ...) of
N and 2N characters is written into one place of a small tree (a body line, a body after a
status word, a first paragraph under ``scope: global``, a session recap, a MEMORY.md link
title, hook, target or plain line, a frontmatter value, a ``related:`` target, file names,
folder names ...), and the whole audit (``audit_tree(load_tree(root), every dimension)``, in
a forked child so a stall can be cut off) is timed at both sizes, in CPU seconds of the child
(the least of ``--repeat`` runs): N = 30,000 in frontmatter (2N stays under its 64 KB cap),
128 KiB in bodies and MEMORY.md. Names hold at most ``NAME_BYTES`` bytes each (the filesystem
allows 255), so a run in names is many files or folders, each named by a piece of it. A case
is flagged when its time grows more than 3x from N to 2N (quadratic), an audit takes over 2 s,
or it runs past the timeout. Shapes holding a line break are tried only in bodies and
MEMORY.md; shapes holding ``/`` or a line break are not tried in names.

python bench/pathological_scaling.py [--n 30000] [--n-text 131072] [--timeout 20] [--repeat 1]
    [--shape S ...] [--place P ...] [--check DIMENSION ...] [-v]
python bench/pathological_scaling.py --size BYTES [--shape S ...] [--place P ...]
    (one audit per case at that size, worst first: the figure in docs/benchmarks.md)
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
            "commit-hex": "commit 4f2a91c ",
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
    # issue 30: paths of nothing but separators, and line-per-hit secrets and Markdown blocks
    "/": _repeat("/"),
    "\\": _repeat("\\"),
    "~/": _repeat("~/"),
    "password-lines": _repeat("password: Kx9_QpL2_Zr7w\n"),
    "password-…": _repeat("password: Kx9_QpL2…\n"),
    "password-é-placeholder": _repeat("é password: xxxxxxxxxx\n"),
    "eyJ-dots": _repeat("eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.c2lnbmF0dXJl."),
    "eyJ-é": _repeat("é eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.c2lnbmF0dXJl."),
    "eyJ-é-placeholder": _repeat("é eyJxxxxxxxxxxxx.eyJxxxxxxxxxxxx.xxxxxxxxxxxx."),
    "list-markers": _repeat("- \n"),
    "nested-list": _repeat("- "),
    "ordered-markers": _repeat("1. \n"),
    "setext-=": _repeat("a\n=\n"),
    "setext--": _repeat("a\n-\n"),
    # a table's header and separator, again and again: each separator restarted the walk
    "password-table": _repeat("| password |\n|---|\n"),
    # logins set in bold on one line: each value's closing ``**`` had the markers before it
    # on its line counted again
    "bold-logins": _repeat("**ops@host.io / Test@2031** "),
    # words of 250 characters, each different (a cache of words does not help)
    "a- words": lambda n: _words("a-", n),
    "/ words": lambda n: _words("/", n),
}


def _words(unit: str, n: int) -> str:
    """Numbered words of 250 characters of ``unit`` (numbers first, so no path ends them)."""
    words = (f"{number:06d}{unit * 244}"[:250] for number in range(n // 251 + 1))
    return " ".join(words)[:n]


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


NAME_BYTES = 200  # of a file or folder name made of a run: the filesystem allows 255


def _name_pieces(run: str) -> list[str]:
    """``run`` cut into pieces of at most ``NAME_BYTES`` UTF-8 bytes, each a name (numbered,
    so that no two are the same)."""
    pieces, piece, size = [], "", 0
    for char in run:
        width = len(char.encode("utf-8", "surrogatepass"))
        if size + width > NAME_BYTES:
            pieces.append(piece)
            piece, size = "", 0
        piece, size = piece + char, size + width
    return [f"{p}{number}" for number, p in enumerate([*pieces, piece])]


def _file_names(run: str) -> Tree:
    names = [f"{piece}.md" for piece in _name_pieces(run)]
    index = "".join(f"- [{n}]({n}) — notes {i}\n" for i, n in enumerate(names))
    return {"MEMORY.md": index, **{n: _memory(body=f"Note {i}.") for i, n in enumerate(names)}}


def _folder_names(run: str) -> Tree:
    folders = _name_pieces(run)
    index = "".join(f"- [{f}]({f}/a.md) — notes {i}\n" for i, f in enumerate(folders))
    files = {f"{f}/a.md": _memory(body=f"Note {i}.") for i, f in enumerate(folders)}
    return {"MEMORY.md": index, **files}


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
    "index-target": lambda s: {"MEMORY.md": f"- [A]({s}.md) — hook\n", "a.md": _memory()},
    "file-names": _file_names,
    "folder-names": _folder_names,
    "session-recap": lambda s: {
        "MEMORY.md": INDEX,
        "a.md": _memory(),
        "b.md": B_FILE,
        "sessions/2026-01-02-recap.md": "---\nname: recap\ndescription: Session recap\n"
        f"type: session-recap\n---\n## Done\n{s}\n",
    },
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


def write_tree(root: Path, tree: Tree) -> None:
    root.mkdir(parents=True)
    for rel, text in tree.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


# The dimensions audited: every one, unless --check names some (forked children inherit it).
DIMENSIONS: list[str] = list(REGISTRY)


def _audit(root: Path) -> int:
    return len(audit_tree(load_tree(root), tuple(DIMENSIONS)).findings)


def cpu_seconds(root: Path) -> float:
    """CPU seconds of one audit of the tree at ``root``, every dimension, in this process
    (CPU time, not wall time: other work on the machine changes it little)."""
    start = time.process_time()
    _audit(root)
    return time.process_time() - start


def warm_up() -> None:
    """One audit of a plain tree in this process: the modules each check imports when it
    first runs, and the patterns it compiles, are then loaded before any case is timed
    (forked children inherit them)."""
    with tempfile.TemporaryDirectory(prefix="pathological-") as folder:
        root = Path(folder) / "memory"
        write_tree(root, PLACES["body"]("plain words"))
        _audit(root)


def _time_child(root: Path, repeat: int, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(min(cpu_seconds(root) for _ in range(repeat)))


def timed(tree: Tree, timeout: float, repeat: int = 1) -> float | None:
    """The least CPU seconds of ``repeat`` audits of ``tree`` (in a child), or None when
    they ran past ``timeout``."""
    with tempfile.TemporaryDirectory(prefix="pathological-") as folder:
        root = Path(folder) / "memory"
        write_tree(root, tree)
        out: multiprocessing.Queue[float] = multiprocessing.Queue()
        child = multiprocessing.Process(target=_time_child, args=(root, repeat, out))
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
    *("body", "body-twice", "index-title", "index-hook", "index-plain", "index-target"),
    *("after-status-words", "after-secret-words", "scope-global-paragraph", "session-recap"),
)
NAME_PLACES = ("file-names", "folder-names")


def tried(shape: str, place: str) -> bool:
    """Whether a run of ``shape`` can stand in ``place``: a line break only in bodies and
    MEMORY.md, never in a name; no ``/`` in a name."""
    sample = SHAPES[shape](64)
    if place in NAME_PLACES:
        return "\n" not in sample and "/" not in sample
    return place in TEXT_PLACES or "\n" not in sample


def size_of(place: str, sizes: tuple[int, int]) -> int:
    """N for ``place``: ``sizes`` is (frontmatter and names, bodies and MEMORY.md)."""
    return sizes[1] if place in TEXT_PLACES else sizes[0]


def growth(shape: str, place: str, n: int, timeout: float, repeat: int = 1) -> Growth:
    """The audit's CPU seconds with a run of ``shape`` of ``n`` and ``2n`` characters in
    ``place`` (None past the timeout)."""
    small = timed(PLACES[place](SHAPES[shape](n)), timeout, repeat)
    large = timed(PLACES[place](SHAPES[shape](2 * n)), timeout, repeat) if small else None
    return Growth(small, large)


@dataclass(frozen=True)
class Growth:
    small: float | None
    large: float | None

    @property
    def ratio(self) -> float:
        return self.large / self.small if self.small and self.large else float("inf")

    def flagged(self, limit: float = 3.0) -> bool:
        return self.small is None or self.large is None or self.ratio > limit or self.large > 2


def probe(
    shapes: Sequence[str],
    places: Sequence[str],
    sizes: tuple[int, int],
    timeout: float,
    repeat: int = 1,
) -> int:
    """Time every (shape, place) at N and 2N; print the flagged ones (all with -v)."""
    flagged = cases = 0
    print(f"{'shape':>16} {'place':>22} {'N':>9} {'2N':>9}  ratio (N={sizes}, CPU seconds)")
    for place in places:
        for shape in shapes:
            if not tried(shape, place):
                continue
            cases += 1
            found = growth(shape, place, size_of(place, sizes), timeout, repeat)
            bad = found.flagged()
            flagged += bad
            if bad or "-v" in sys.argv:
                print(
                    f"{shape!r:>16} {place:>22} {_shown(found.small)} {_shown(found.large)}"
                    f"  {found.ratio:5.1f}" + ("  FLAGGED" if bad else ""),
                    flush=True,
                )
    print(f"{flagged} flagged of {cases}")
    return 1 if flagged else 0


def at_size(
    shapes: Sequence[str], places: Sequence[str], size: int, timeout: float, top: int = 10
) -> int:
    """One audit per case with a run of ``size`` characters (names: as many files as it
    takes), the slowest ``top`` printed, slowest first: the worst shape's whole-audit time."""
    times = []
    for place in places:
        for shape in shapes:
            if tried(shape, place):
                seconds = timed(PLACES[place](SHAPES[shape](size)), timeout)
                times.append((float("inf") if seconds is None else seconds, shape, place))
    for seconds, shape, place in sorted(times, reverse=True)[:top]:
        print(f"{shape!r:>16} {place:>22} {seconds:8.3f}s CPU at {size:,} characters")
    return 0


def profile(shape: str, place: str, n: int) -> None:
    with tempfile.TemporaryDirectory(prefix="pathological-") as folder:
        root = Path(folder) / "memory"
        write_tree(root, PLACES[place](SHAPES[shape](n)))
        profiler = cProfile.Profile()
        profiler.runcall(_audit, root)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=30_000, help="N in frontmatter, names")
    parser.add_argument("--n-text", type=int, default=128 * 1024, help="N in bodies, MEMORY.md")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=1, help="audits per size; the least counts")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
    parser.add_argument("--place", action="append", choices=sorted(PLACES))
    parser.add_argument("--size", type=int, help="time each case once at this size")
    parser.add_argument("--top", type=int, default=10, help="with --size: cases printed")
    parser.add_argument("--check", action="append", choices=list(REGISTRY), help="audit only")
    parser.add_argument("--profile", nargs=2, metavar=("SHAPE", "PLACE"))
    parser.add_argument("-v", action="store_true", help="print every case, not only flagged")
    args = parser.parse_args()
    shapes, places = args.shape or list(SHAPES), args.place or list(PLACES)
    DIMENSIONS[:] = args.check or DIMENSIONS
    warm_up()
    if args.profile:
        profile(args.profile[0], args.profile[1], args.n)
        return 0
    if args.size:
        return at_size(shapes, places, args.size, args.timeout, args.top)
    return probe(shapes, places, (args.n, args.n_text), args.timeout, args.repeat)


if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    sys.exit(main())
