# Thin wrappers over citgen and pytest. Only Python 3 and make are needed:
# the first target that needs the tool creates .venv and installs into it.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CITGEN := $(BIN)/citgen

.PHONY: build test validate readme bench fuzz clean

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

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

validate: $(VENV)/.installed
	$(CITGEN) validate

readme: $(VENV)/.installed
	$(CITGEN) readme

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench.py

fuzz: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/test_fuzz.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
