# Thin wrappers over citgen and pytest. Only Python 3 and make are needed:
# the first target that needs the tool creates .venv and installs into it,
# exact versions with hashes from the lock files in requirements/ (docs/testing.md).

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CITGEN := $(BIN)/citgen

# The lock: every package `make build` and `make test` install, pinned with its hashes.
# `make lock` writes it with uv, for every platform and every Python from the oldest
# that requires-python in pyproject.toml allows (LOCK_PYTHON must be that version).
BUILD_LOCK  := requirements/build.txt
TEST_LOCK   := requirements/test.txt
MUTATE_LOCK := requirements/mutate.txt
MUTATE_VENV := .venv-mutate
LOCK_PYTHON := 3.10
UV_VERSION  := 0.13.9
LOCKER      := .venv-lock
# `make test-lowest` runs on the oldest Python the project allows: name it if it is not on PATH.
LOWEST_PYTHON ?= python$(LOCK_PYTHON)
UV          := $(LOCKER)/bin/uv
UV_COMPILE  := $(UV) pip compile --quiet --universal --python-version $(LOCK_PYTHON) --generate-hashes \
               --annotation-style line
# pip as a fresh venv has it (no upgrade: that would be a version the lock does not name),
# only what the lock names, each file checked against its hash.
PIP_LOCKED  := -m pip install --quiet --require-hashes --only-binary :all:
# the project itself, built by the locked hatchling in the venv and nothing from the index
PIP_PROJECT := -m pip install --quiet --no-deps --no-build-isolation --editable .

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
	@echo '  mutate    mutation testing with mutmut, each module against its own tests (MODULE=generator/x.py for one; RESUME=results.json goes on with a run)'
	@echo '  lock      resolve the newest versions pyproject.toml allows into requirements/*.txt (uv, from the index)'
	@echo '  test-latest  the whole suite in .venv-latest, with the newest versions pyproject.toml allows'
	@echo '  test-lowest  the whole suite in .venv-lowest, with the lowest versions pyproject.toml allows'
	@echo '  clean     remove .venv, build outputs and caches'
	@echo '  help      show this list (the default target)'

.PHONY: build test quick validate readme bench fuzz mutate lock test-latest test-lowest clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BUILD_LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python $(PIP_LOCKED) -r $(BUILD_LOCK)
	$(BIN)/python $(PIP_PROJECT)
	rm -f $(VENV)/.installed-test
	touch $@

$(VENV)/.installed-test: $(TEST_LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python $(PIP_LOCKED) -r $(TEST_LOCK)
	$(BIN)/python $(PIP_PROJECT)
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

# Mutation testing (mutation/run.py, docs/testing.md): hours for the whole package, so neither part of
# `make test` nor of CI. It works in a copy of the tracked files and never writes into this tree;
# `mutation/run.py --record RESULTS` is the step that records a run. citgen is not installed in
# its venv: the tests import the mutants from mutmut's copy.
$(MUTATE_VENV)/.installed: $(MUTATE_LOCK)
	rm -rf $(MUTATE_VENV)
	$(PYTHON) -m venv $(MUTATE_VENV)
	$(MUTATE_VENV)/bin/python $(PIP_LOCKED) -r $(MUTATE_LOCK)
	touch $@

mutate: $(MUTATE_VENV)/.installed
	$(MUTATE_VENV)/bin/python mutation/run.py $(if $(MODULE),--module $(MODULE)) $(if $(RESUME),--resume --results $(RESUME))

# --- moving on deliberately: the lock, and the suite under the newest and the lowest versions

$(UV):
	$(PYTHON) -m venv $(LOCKER)
	$(LOCKER)/bin/python -m pip install --quiet uv==$(UV_VERSION)

# The test lock is resolved first; the build lock takes the same version of everything they share.
lock: | $(UV)
	$(UV_COMPILE) --extra test pyproject.toml requirements/build.in -o $(TEST_LOCK)
	$(UV_COMPILE) --constraint $(TEST_LOCK) pyproject.toml requirements/build.in -o $(BUILD_LOCK)
	$(UV_COMPILE) --constraint $(TEST_LOCK) --extra test pyproject.toml requirements/mutate.in -o $(MUTATE_LOCK)

# Fresh each time, so that "newest" means newest today; the project's own build backend too.
test-latest:
	rm -rf .venv-latest
	$(PYTHON) -m venv .venv-latest
	.venv-latest/bin/python -m pip install --quiet --upgrade --editable '.[test]'
	.venv-latest/bin/python -m pip list --format freeze | sort > .venv-latest/versions.txt
	.venv-latest/bin/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# The lowest version of every dependency pyproject.toml names (theirs resolved as they come),
# on the oldest Python it allows: are its lower bounds true?
test-lowest: | $(UV)
	rm -rf .venv-lowest
	$(UV) pip compile --quiet --resolution lowest-direct --python-version $(LOCK_PYTHON) --extra test \
	    pyproject.toml requirements/build.in -o .venv-lowest.txt
	$(LOWEST_PYTHON) -m venv .venv-lowest
	mv .venv-lowest.txt .venv-lowest/requirements.txt
	.venv-lowest/bin/python -m pip install --quiet -r .venv-lowest/requirements.txt
	.venv-lowest/bin/python $(PIP_PROJECT)
	.venv-lowest/bin/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

clean:
	rm -rf $(VENV) $(LOCKER) $(MUTATE_VENV) .venv-latest .venv-lowest build dist .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
