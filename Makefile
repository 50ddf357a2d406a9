# Thin wrappers over citgen and pytest. Only Python 3 and make are needed:
# the first target that needs the tool creates .venv and installs into it.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CITGEN := $(BIN)/citgen

# `make` alone lists the targets rather than creating .venv (the first rule below).
.DEFAULT_GOAL := help
.PHONY: help
help:
	@echo 'Usage: make <target>   (PYTHON=python3.12 make build picks the interpreter for .venv)'
	@echo ''
	@echo '  build     create .venv if needed, install citgen, build bundles/ from the built-in catalog'
	@echo '  test      install the test extra into .venv and run the whole test suite on every core'
	@echo '  quick     the suite without the modules marked heavy (real pip, pre-commit, browser...): a fast loop'
	@echo '  validate  validate the built-in catalog (citgen validate)'
	@echo '  readme    regenerate the tables in README.md (citgen readme)'
	@echo '  bench     run the benchmarks (docs/performance.md)'
	@echo '  fuzz      run every property-based test with the long hypothesis profile (2000 examples)'
	@echo '  clean     remove .venv, build outputs and caches'
	@echo '  help      show this list (the default target)'

.PHONY: build test quick validate readme bench fuzz clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

build: $(VENV)/.installed
	$(CITGEN) build

# The whole suite, on every core; a module's tests run together on one worker (tests/README.md).
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# While working: every module but those marked heavy(seconds) (tests/README.md). CI runs `make test`.
quick: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto --dist loadfile -m 'not heavy'

validate: $(VENV)/.installed
	$(CITGEN) validate

readme: $(VENV)/.installed
	$(CITGEN) readme

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench.py

# Every property-based test, with thousands of examples each (tests/conftest.py's profiles).
fuzz: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -n auto -m hypothesis

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
