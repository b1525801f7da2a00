# Stepwise — two commands: `make run` and `make test`. Everything else is optional.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: help run test install install-test sysdeps-test bench-verification clean

help:
	@echo "make run    - set up and start Stepwise on $(HOST):$(PORT) (SQLite, no model key needed)"
	@echo "make test   - set up everything the tests need and run the whole suite"
	@echo "make bench-verification - verification parsing/diff benchmark on real-world pages"

$(VENV)/.installed: pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11+ is required"; exit 1; }
	$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml
	$(PIP) install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# Debian packages the test suite needs (none beyond Python yet; the browser tests add Chromium).
sysdeps-test:
	@true

run: install
	mkdir -p data
	$(VENV)/bin/stepwise db init
	$(VENV)/bin/stepwise keys dev
	$(VENV)/bin/stepwise serve --host $(HOST) --port $(PORT)

test: install-test sysdeps-test
	$(PY) -m pytest $(PYTEST_ARGS)

bench-verification: install-test
	$(PY) bench/verification.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis bench/results
