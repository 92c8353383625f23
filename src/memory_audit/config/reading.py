"""Reading a configuration file: YAML composed into nodes, each validated against the
settings' dataclasses (:mod:`memory_audit.config.schema`), problems reported with their
line. Imported only when there is a file to read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from memory_audit.config.schema import Problems, build
from memory_audit.errors import ConfigError

if TYPE_CHECKING:  # the settings module imports this one (lazily): no import back at run time
    from memory_audit.config.settings import OptionTypes, Settings


def parse_text(
    text: str,
    settings_type: type[Settings],
    source: str = "config.yaml",
    *,
    option_types: OptionTypes | None = None,
) -> tuple[Settings, dict[str, Any]]:
    """The settings and the checks' options in ``text``, validated (ConfigError)."""
    problems = Problems(source)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise ConfigError(yaml_error(source, exc)) from None
    checks_node = _pop_key(node, "checks")
    settings = build(settings_type, node, "", problems, also_valid=("checks",))
    checks = {} if option_types is None else _check_options(checks_node, option_types, problems)
    if option_types is not None:
        _check_skip(node, settings.audit.skip, option_types, problems)
    if problems.messages:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems.in_line_order()))
    return settings, checks


def yaml_error(source: str, exc: yaml.YAMLError) -> str:
    """The parser's complaint with the file's name and line, not ``in "<unicode string>"``."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return f"{source}: not valid YAML ({type(exc).__name__})"
    mark = exc.problem_mark
    context = f" ({exc.context})" if exc.context else ""
    return f"{source}:{mark.line + 1}:{mark.column + 1}: not valid YAML: {exc.problem}{context}"


def _pop_key(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for pair in list(node.value):
        if isinstance(pair[0], yaml.ScalarNode) and pair[0].value == key:
            node.value.remove(pair)
            value: yaml.Node = pair[1]
            return value
    return None


def _check_options(
    node: yaml.Node | None, option_types: OptionTypes, problems: Problems
) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null")):
        return options
    if not isinstance(node, yaml.MappingNode):
        problems.add(node, "checks", "expected a mapping of dimension id to options")
        return options
    for key_node, value_node in node.value:
        dimension = str(key_node.value)
        if dimension not in option_types:
            valid = ", ".join(option_types)
            problems.add(key_node, f"checks.{dimension}", f"unknown dimension (valid: {valid})")
            continue
        options[dimension] = build(
            option_types[dimension], value_node, f"checks.{dimension}", problems
        )
    return options


def _check_skip(
    node: yaml.Node | None, skip: tuple[str, ...], option_types: OptionTypes, problems: Problems
) -> None:
    unknown = [v for v in skip if v not in option_types]
    if unknown:
        audit = _find_key(node, "audit")
        where = _find_key(audit, "skip") or audit or node
        problems.add(where, "audit.skip", f"unknown dimension(s) {', '.join(unknown)}")


def _find_key(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                found: yaml.Node = value_node
                return found
    return None
