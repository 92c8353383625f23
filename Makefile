# `make demo`: install and audit the bundled example tree. `make test`: lint, types, tests.
# `make install`: put `memory-audit` on your PATH (pipx, or a venv of its own).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check --quiet

.PHONY: demo run-hint install docs test lint typecheck unit coverage bench system-packages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[test]'
	touch $@ $(VENV)/.installed

# The demo writes nothing outside the checkout: state, caches and the secret salt go under
# DEMO_DIR (the XDG folders point there), and Claude Code's folder is an empty one there too.
DEMO_DIR ?= build/demo
DEMO_TRANSCRIPTS := $(DEMO_DIR)/transcripts
DEMO_ARGS := examples/drifted-memory --project-root examples/ledgerly --config examples/config.yaml \
	--transcripts $(DEMO_TRANSCRIPTS)
DEMO_ENV := XDG_STATE_HOME=$(abspath $(DEMO_DIR))/state XDG_DATA_HOME=$(abspath $(DEMO_DIR))/data \
	XDG_CACHE_HOME=$(abspath $(DEMO_DIR))/cache XDG_CONFIG_HOME=$(abspath $(DEMO_DIR))/config \
	CLAUDE_CONFIG_DIR=$(abspath $(DEMO_DIR))/claude PYTHONDONTWRITEBYTECODE=1

DEMO_HTML := $(DEMO_DIR)/report.html

demo: $(VENV)/.installed
	@$(DEMO_ENV) $(BIN)/python examples/make_transcripts.py examples/drifted-memory $(DEMO_TRANSCRIPTS)
	@$(DEMO_ENV) $(BIN)/memory-audit audit $(DEMO_ARGS); status=$$?; [ $$status -le 1 ]
	@$(DEMO_ENV) $(BIN)/memory-audit audit $(DEMO_ARGS) --format html --output $(DEMO_HTML) \
		>/dev/null; [ $$? -le 1 ]
	@echo; echo "HTML report: $(DEMO_HTML) (open it in a browser)"
	@$(MAKE) -s --no-print-directory run-hint

# memory-audit lives in this checkout's .venv, not on the PATH: say how to run it.
run-hint:
	@echo; echo "memory-audit is installed in this checkout, not on your PATH. Run it as:"
	@echo "  $(abspath $(BIN))/memory-audit audit examples/drifted-memory"
	@echo "or put it on your PATH with: make install"

# pipx when there is one; else a virtualenv of its own (PEP 668 refuses `pip install --user`
# on Debian's Python) with its command linked into ~/.local/bin.
INSTALL_HOME ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)/memory-audit/venv
INSTALL_BIN ?= $(HOME)/.local/bin

install:
	@if command -v pipx >/dev/null 2>&1; then \
		pipx install --force . ; \
	else \
		$(PYTHON) -m venv "$(INSTALL_HOME)" && \
		"$(INSTALL_HOME)/bin/python" -m pip --disable-pip-version-check --quiet install --upgrade . && \
		mkdir -p "$(INSTALL_BIN)" && ln -sf "$(INSTALL_HOME)/bin/memory-audit" "$(INSTALL_BIN)/memory-audit" && \
		echo "installed: $(INSTALL_BIN)/memory-audit (a virtualenv in $(INSTALL_HOME))"; \
	fi
	@case ":$$PATH:" in *":$(INSTALL_BIN):"*) ;; *) \
		echo "$(INSTALL_BIN) is not on your PATH: add it (export PATH=\"$(INSTALL_BIN):\$$PATH\")";; esac

# README sections the code owns (the Dimensions table), written from the registry.
docs: $(VENV)/.installed
	$(BIN)/python scripts/generate_docs.py

test: $(VENV)/.installed-test system-packages lint typecheck unit

system-packages:
	@scripts/ensure-debian-packages

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests bench scripts/generate_docs.py
	$(BIN)/ruff format --check src tests bench scripts/generate_docs.py

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# Tests spread over processes (pytest-xdist); `make unit WORKERS=0` runs them in one.
WORKERS ?= auto

# The suite's self-test first: with every check made to raise, every check test must fail.
unit: $(VENV)/.installed-test
	$(BIN)/pytest -p no:cacheprovider -o addopts= -p no:terminal tests/checks --checks-raise
	$(BIN)/pytest -p no:cacheprovider -n $(WORKERS)

# Line coverage of src/, the processes the tests start (CLI, daemon, hook) included.
COVERAGE_DIR := build/coverage
COVERAGE := COVERAGE_FILE=$(abspath $(COVERAGE_DIR))/.coverage $(BIN)/coverage

coverage: $(VENV)/.installed-test
	rm -rf $(COVERAGE_DIR) && mkdir -p $(COVERAGE_DIR)
	$(COVERAGE) run -m pytest -p no:cacheprovider -q -n $(WORKERS)
	$(COVERAGE) combine -q $(COVERAGE_DIR)
	$(COVERAGE) html -q -d $(COVERAGE_DIR)/html
	$(COVERAGE) report --fail-under=90
	@echo "HTML: $(COVERAGE_DIR)/html/index.html"

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
