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


SCHEMES = {"dark": "0", "light": "1"}  # Blink's PreferredColorScheme values


def _run(args: list[str], profile: Path, scheme: str = "light") -> subprocess.CompletedProcess[str]:
    prefer = f"--blink-settings=preferredColorScheme={SCHEMES[scheme]}"
    return subprocess.run(
        [chromium(), *FLAGS, prefer, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def screenshot(
    url: str, out: Path, profile: Path, size: str = "1200,1600", scheme: str = "light"
) -> bytes:
    result = _run([f"--window-size={size}", f"--screenshot={out}", url], profile, scheme)
    assert out.exists(), result.stderr[-2000:]
    return out.read_bytes()


def dump_dom(url: str, profile: Path, scheme: str = "light") -> str:
    result = _run(["--dump-dom", url], profile, scheme)
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


def pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    """The RGB colour at (x, y) of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    width, _, depth, kind = struct.unpack(">IIBB", png[16:26])
    assert depth == 8, depth
    assert kind in (2, 6), kind
    channels = 3 if kind == 2 else 4
    data, position = b"", 8
    while position < len(png):
        length, chunk = struct.unpack(">I4s", png[position : position + 8])
        if chunk == b"IDAT":
            data += png[position + 8 : position + 8 + length]
        position += 12 + length
    raw = zlib.decompress(data)
    stride = width * channels
    previous = bytearray(stride)
    for row in range(y + 1):
        start = row * (stride + 1)
        previous = _unfilter(raw[start], raw[start + 1 : start + 1 + stride], previous, channels)
    r, g, b = previous[x * channels : x * channels + 3]
    return r, g, b


def _unfilter(kind: int, line: bytes, above: bytearray, bpp: int) -> bytearray:
    out = bytearray(line)
    for i in range(len(out)):
        left = out[i - bpp] if i >= bpp else 0
        up = above[i]
        corner = above[i - bpp] if i >= bpp else 0
        if kind == 1:
            out[i] = (out[i] + left) & 0xFF
        elif kind == 2:
            out[i] = (out[i] + up) & 0xFF
        elif kind == 3:
            out[i] = (out[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            out[i] = (out[i] + _paeth(left, up, corner)) & 0xFF
    return out


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c
