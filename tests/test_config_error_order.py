"""`config validate` lists every problem in the order of the file's lines."""

from __future__ import annotations

import re

import pytest

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config
from memory_audit.errors import ConfigError


def test_config_errors_are_listed_in_line_order_checks_included() -> None:
    text = (
        "schedule: {weekly: someday}\n"
        "checks:\n  duplicates: {threshold: high}\n"
        "reports: {keep: 0}\n"
        "bogus: 1\n"
    )
    with pytest.raises(ConfigError) as caught:
        config.parse(text, "c.yaml", option_types=OPTION_TYPES)
    lines = [int(n) for n in re.findall(r"^  c\.yaml:(\d+):", str(caught.value), re.M)]
    assert lines == [1, 3, 4, 5]
