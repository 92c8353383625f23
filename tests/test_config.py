from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memory_audit.checks import OPTION_TYPES
from memory_audit.config import settings as config
from memory_audit.errors import ConfigError
from memory_audit.resource_files import read_resource


def test_config_defaults_without_a_file() -> None:
    loaded = config.load(None, OPTION_TYPES)
    assert loaded.settings.schedule.weekly == "sun 09:00"
    assert loaded.settings.watch.debounce_seconds == 2.0
    assert loaded.settings.notify.backend == "auto"
    assert loaded.settings.reports.keep == 12
    assert loaded.settings.roots == ("~/.claude/projects/*/memory",)


def test_config_example_file_is_valid_and_equals_the_defaults() -> None:
    parsed = config.parse(read_resource("config", "config.example.yaml"), option_types=OPTION_TYPES)
    assert parsed.settings == config.Config(option_types=OPTION_TYPES).settings
    defaults = config.Config(option_types=OPTION_TYPES)
    assert parsed.checks  # the example sets every check option, to its default
    for dimension in parsed.checks:
        assert parsed.check_options(dimension) == defaults.check_options(dimension)


def test_config_errors_name_every_bad_key_and_its_line() -> None:
    text = (
        "roots: [a]\nschedule:\n  weekly: someday\n  timezone: Mars/Olympus\nwatch:\n"
        "  debounce_seconds: fast\nnotify: {backend: pigeon}\nreports: {keep: 0}\nbogus: 1\n"
    )
    with pytest.raises(ConfigError) as caught:
        config.parse(text, "c.yaml", option_types=OPTION_TYPES)
    message = str(caught.value)
    for expected in (
        "c.yaml:3: schedule.weekly",
        "c.yaml:4: schedule.timezone",
        "c.yaml:6: watch.debounce_seconds: expected a number",
        "c.yaml:7: notify.backend: 'pigeon' is not one of",
        "c.yaml:8: reports.keep: 0 is out of range",
        "c.yaml:9: bogus: unknown key",
    ):
        assert expected in message


def test_config_check_options_are_validated_per_dimension() -> None:
    with pytest.raises(ConfigError, match=r"c.yaml:2: checks.no-such-check: unknown dimension"):
        config.parse("checks:\n  no-such-check: {}\n", "c.yaml", option_types=OPTION_TYPES)


def test_config_missing_explicit_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        config.load(tmp_path / "none.yaml", OPTION_TYPES)


def load_within(path: Path, seconds: float = 10.0) -> str:
    """What loading ``path`` raised, or fails the test if the load had not returned in time
    (it would hang for good on a FIFO opened for reading with no writer)."""
    raised: list[str] = []

    def attempt() -> None:
        try:
            config.load(path, OPTION_TYPES)
            raised.append("loaded")
        except ConfigError as exc:
            raised.append(str(exc))

    loader = threading.Thread(target=attempt, daemon=True)
    loader.start()
    loader.join(seconds)
    assert raised, f"loading {path} did not return within {seconds} s"
    return raised[0]


def test_config_that_is_a_fifo_is_refused_at_once_naming_it(tmp_path: Path) -> None:
    fifo = tmp_path / "config.yaml"
    os.mkfifo(fifo)
    assert load_within(fifo) == (
        f"config file {fifo} is a named pipe (FIFO), not a regular file; not read"
    )


def test_config_that_is_a_directory_or_a_device_is_refused_naming_it(tmp_path: Path) -> None:
    assert load_within(tmp_path) == (
        f"config file {tmp_path} is a directory, not a regular file; not read"
    )
    assert load_within(Path("/dev/zero")) == (
        "config file /dev/zero is a character device, not a regular file; not read"
    )


def test_config_reached_through_a_symlink_to_a_fifo_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "config.yaml").symlink_to(tmp_path / "pipe")
    assert "is a named pipe (FIFO)" in load_within(tmp_path / "config.yaml")


def test_weekly_time_uses_day_names() -> None:
    assert config.parse_weekly("sun 09:00") == config.WeeklyTime(("sun",), 9, 0)
    assert config.parse_weekly("Monday,thu 8:30").day_of_week == "mon,thu"
    with pytest.raises(ValueError, match="not '<day> HH:MM'"):
        config.parse_weekly("sun 25:00")


def test_config_example_documents_every_option() -> None:
    import yaml

    from memory_audit.checks import REGISTRY
    from memory_audit.config.schema import describe, settable_fields

    example = yaml.safe_load(read_resource("config", "config.example.yaml"))
    for key, _ in describe(config.Settings):
        node = example
        for part in key.split("."):
            assert part in node, f"config.example.yaml does not document {key}"
            node = node[part]
    for dimension, check in REGISTRY.items():
        for name in settable_fields(check.Options):
            assert name in example["checks"][dimension], f"checks.{dimension}.{name} undocumented"


def test_internal_options_cannot_be_set_from_a_file() -> None:
    with pytest.raises(ConfigError, match=r"checks\.secrets\.state_dir: unknown key"):
        config.parse("checks:\n  secrets: {state_dir: /tmp/elsewhere}\n", option_types=OPTION_TYPES)


def test_unknown_top_level_key_lists_every_valid_key_including_checks() -> None:
    with pytest.raises(ConfigError) as caught:
        config.parse("bogus: 1\n", "c.yaml", option_types=OPTION_TYPES)
    valid = str(caught.value).split("valid: ", 1)[1]
    for key in ("roots", "schedule", "audit", "reports", "state", "checks"):
        assert key in valid


def test_yaml_syntax_errors_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("roots: [a\nschedule: {weekly: sun 09:00}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        config.load(path, OPTION_TYPES)
    message = str(caught.value)
    assert message.startswith(f"{path}:2:")
    assert "not valid YAML" in message
    assert "<unicode string>" not in message
