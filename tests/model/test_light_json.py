"""The session hook's JSON (``_json`` without the ``json`` package) answers as ``json`` does."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_audit.model.light_json import loads, quoted, scan

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)
PADDING = st.text(alphabet=" \t\n\r", max_size=3)


@settings(max_examples=200)
@given(VALUES, st.booleans(), PADDING, PADDING)
def test_loads_and_scan_equal_json(value: Any, ascii_only: bool, before: str, after: str) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert loads(before + text + after) == json.loads(before + text + after)
    prefix = "x = " + before
    assert scan(prefix + text + after, len(prefix)) == json.JSONDecoder().raw_decode(
        prefix + text + after, len(prefix)
    )


@settings(max_examples=200)
@given(st.text())
def test_quoted_equals_json_dumps(text: str) -> None:
    assert quoted(text) == json.dumps(text, ensure_ascii=False)


def test_the_constants_json_accepts() -> None:
    assert loads("[NaN, Infinity, -Infinity]")[1:] == [math.inf, -math.inf]
    assert math.isnan(loads("NaN"))


@pytest.mark.parametrize(
    "text", ["", "   ", "not json", "[1,", '{"a" 1}', "{} x", '"\x00"', "[1] [2]", "\x00\xff"]
)
def test_what_json_refuses_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the messages differ; the type is the contract
        json.loads(text)
    with pytest.raises(ValueError):  # noqa: PT011
        loads(text)


def test_importing_it_imports_neither_json_nor_re() -> None:
    code = "import sys, memory_audit.model.light_json; print(sorted({'json', 're'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"
