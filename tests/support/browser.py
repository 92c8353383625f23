"""Headless Chromium (Debian's package) for looking at the HTML report."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--disable-component-update",
    "--disable-sync",
)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Chromium is needed (make test installs Debian's chromium package)"
    return found


def _run(args: list[str], profile: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def screenshot(url: str, out: Path, profile: Path, size: str = "1200,1600") -> bytes:
    result = _run([f"--window-size={size}", f"--screenshot={out}", url], profile)
    assert out.exists(), result.stderr[-2000:]
    return out.read_bytes()


def dump_dom(url: str, profile: Path) -> str:
    result = _run(["--dump-dom", url], profile)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def distinct_pixel_bytes(png: bytes) -> int:
    """How many different byte values the decompressed image data holds: a blank page has a
    handful (filter bytes and one colour), a rendered report hundreds."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    data, position = b"", 8
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position : position + 8])
        if kind == b"IDAT":
            data += png[position + 8 : position + 8 + length]
        position += 12 + length
    return len(set(zlib.decompress(data)))
