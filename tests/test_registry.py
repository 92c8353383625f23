"""The registry's table and the check modules agree, and a one-check run imports one check."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_audit import checks
from memory_audit.checks import DIMENSIONS, OPTION_TYPES, ORDER, REGISTRY, TABLE, module_name
from tests.harness import index, memory, write_tree

CHECKS = Path(checks.__file__).parent


def test_every_check_module_has_a_line_in_the_table_and_every_line_a_module() -> None:
    on_disk = {f"memory_audit.checks.{p.stem}" for p in CHECKS.glob("*.py") if p.stem[0] != "_"}
    assert {module_name(d.id) for d in TABLE} == on_disk
    assert len(ORDER) == len(TABLE) == len(on_disk)  # no id listed twice


@pytest.mark.parametrize("dimension", [d.id for d in TABLE])
def test_a_module_declares_its_table_id_options_check_and_user_doc(dimension: str) -> None:
    module = importlib.import_module(module_name(dimension))
    assert dimension == module.ID
    assert callable(module.check)
    options = module.Options()  # every field defaulted
    assert dataclasses.is_dataclass(options)
    assert OPTION_TYPES[dimension] is module.Options
    assert REGISTRY[dimension] is module
    [documented] = [d for d in DIMENSIONS if d.id == dimension]
    assert documented.doc == module.__doc__
    assert "Failing" in documented.doc
    assert "Passing" in documented.doc


def test_an_unknown_dimension_is_not_in_the_registry() -> None:
    assert "secret" not in REGISTRY
    assert "secret" not in OPTION_TYPES
    with pytest.raises(KeyError):
        REGISTRY["secret"]


# Runs the real command line in a fresh interpreter and reports the check modules it loaded.
LOADED = """
import json, sys
from memory_audit.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.startswith("memory_audit."))
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


def loaded_modules(*arguments: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *arguments], capture_output=True, text=True, check=False
    )
    result = json.loads(done.stderr.strip().splitlines()[-1])
    assert result["code"] in (0, 1), done.stderr
    return list(result["loaded"])


def loaded_checks(*arguments: str) -> list[str]:
    return [m for m in loaded_modules(*arguments) if m.startswith("memory_audit.checks.")]


def test_a_secrets_only_audit_imports_the_secrets_check_alone(tmp_path: Path) -> None:
    token = "ghp_" + "R8mQ2vX7kL4nP9sT1wY6zB3cD0Hd861oaE7u"
    root = write_tree(
        tmp_path / "memory",
        {"MEMORY.md": index("a"), "a.md": memory("a", body=f"the CI token is {token}")},
    )
    audit = ["audit", "--format", "json", str(root)]
    assert loaded_checks(*audit, "--check", "secrets") == ["memory_audit.checks.secrets"]
    every_default = {module_name(d.id) for d in TABLE if d.id != "usage"}  # usage: on request
    assert every_default <= set(loaded_checks(*audit))  # the probe sees what a run imports


def test_a_secrets_only_audit_imports_no_reference_analysis(tmp_path: Path) -> None:
    # every audit asks whether its tree is a repository's copy; the answer needs none of the
    # git history and path references stale-refs checks against (2% of a secrets sweep)
    root = write_tree(tmp_path / "memory", {"MEMORY.md": index("a"), "a.md": memory("a")})
    audit = ["audit", "--format", "json", str(root), "--check"]
    assert "memory_audit.analysis.stale_sources" not in loaded_modules(*audit, "secrets")
    assert "memory_audit.analysis.stale_sources" in loaded_modules(*audit, "stale-refs")


YAML_LOADED = """
import json, sys
from memory_audit.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "yaml": "yaml" in sys.modules}), file=sys.stderr)
"""


def yaml_loaded(environment: dict[str, str], *arguments: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", YAML_LOADED, *arguments],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    result = json.loads(done.stderr.strip().splitlines()[-1])
    assert result["code"] in (0, 1), done.stderr
    return bool(result["yaml"])


def test_a_secrets_only_audit_loads_yaml_only_to_read_a_config_file(tmp_path: Path) -> None:
    """Frontmatter is not read and, without a configuration file, nothing else needs YAML."""
    root = write_tree(tmp_path / "memory", {"MEMORY.md": index("a"), "a.md": memory("a")})
    environment = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "no-config")}
    audit = ["audit", "--format", "json", str(root)]
    assert not yaml_loaded(environment, *audit, "--check", "secrets")
    assert yaml_loaded(environment, *audit)  # the other checks read frontmatter
    config = tmp_path / "config.yaml"
    config.write_text("audit:\n  skip: []\n", encoding="utf-8")
    assert yaml_loaded(environment, *audit, "--config", str(config), "--check", "secrets")


def test_a_secrets_audit_imports_the_gitleaks_reader_only_when_configured(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {"MEMORY.md": index("a"), "a.md": memory("a")})
    audit = ["audit", "--format", "json", str(root), "--check", "secrets"]
    assert "memory_audit.secrets.gitleaks" not in loaded_modules(*audit)
    rules = tmp_path / ".gitleaks.toml"
    rules.write_text('[[rules]]\nid = "any"\nregex = "fhx_[a-z]{32}"\n', encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(f"checks:\n  secrets:\n    gitleaks_config: {rules}\n", encoding="utf-8")
    configured = loaded_modules(*audit, "--config", str(config))
    assert "memory_audit.secrets.gitleaks" in configured
