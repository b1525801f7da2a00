# Stepwise — two commands: `make run` and `make test`. Everything else is optional.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
HOST   ?= 127.0.0.1
PORT   ?= 8000
CHROMIUM := /usr/bin/chromium
# The bundled extension's id (its manifest key fixes it): `make run` lets it call the local server.
EXTENSION_ID := gfhhbdigibclbkcedjipkjbpfcadmeam

.PHONY: help run test demo install install-test install-bench chromium node extension extension-types bench-verification bench-interact bench-knowledge-extraction bench-knowledge bench-miniwob bench-chaining bench-memory-fingerprint bench-memory-skills bench-memory-replay bench-audit bench-vision bench-sites clean

help:
	@echo "make run    - set up and start Stepwise on $(HOST):$(PORT) (SQLite, no model key needed)"
	@echo "make test   - set up everything the tests need (Chromium included) and run the whole suite"
	@echo "make demo   - the clinic demo: 'Add a new patient named Jas' in headless Chromium"
	@echo "make extension       - build and type-check the Chrome extension (extension/dist; needs Node, installed if missing)"
	@echo "make extension-types - regenerate extension/openapi.json and the extension's API types after a server change"
	@echo "make bench-verification | bench-interact | bench-knowledge-extraction | bench-miniwob | bench-chaining | bench-audit"
	@echo "make bench-memory-fingerprint | bench-memory-skills | bench-memory-replay | bench-vision"
	@echo "make bench-sites  - the gym: realistic sites written blind, every goal with no model and three fake models"

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

$(VENV)/.installed-bench: $(VENV)/.installed-test pyproject.toml
	$(PIP) install --quiet -e '.[test,bench]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test
install-bench: $(VENV)/.installed-bench

# Debian's Chromium drives the reference client (Playwright uses it through executable_path;
# no browser is ever downloaded).
chromium:
	@test -x $(CHROMIUM) || { \
	  echo "Installing Debian's chromium (needs root)"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi; }

# The Chrome extension (extension/, docs/extension.md): Node and npm from Debian when missing
# (like chromium above), the npm packages of package-lock.json (again only when it changed),
# then the build into extension/dist (committed: "Load unpacked" needs no npm) and the type check.
node:
	@command -v npm >/dev/null || { \
	  echo "Installing Debian's nodejs and npm (needs root)"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; fi; }

extension/node_modules/.installed: extension/package-lock.json extension/package.json | node
	cd extension && npm ci --no-audit --no-fund
	touch $@

extension: extension/node_modules/.installed
	cd extension && npm run build && npm run typecheck

# After a server change to the API: the OpenAPI document, then the types generated from it.
extension-types: install extension/node_modules/.installed
	$(VENV)/bin/stepwise openapi --out extension/openapi.json
	cd extension && npm run types && npm run build && npm run typecheck

# The API needs no browser: only `stepwise run`, the demo, benchmarks and tests drive Chromium.
run: install
	mkdir -p data
	$(VENV)/bin/stepwise db init
	$(VENV)/bin/stepwise keys dev --server http://$(HOST):$(PORT)
	STEPWISE_EXTENSION_IDS="$${STEPWISE_EXTENSION_IDS:-$(EXTENSION_ID)}" $(VENV)/bin/stepwise serve --host $(HOST) --port $(PORT)

# The suite runs on every core (pytest-xdist): a whole test file stays on one worker, so its
# module fixtures (a server, a site, a fake model) start once, and files go out in collection
# order (the slow e2e files first, the many quick unit files last to even out the end).
# `make test PYTEST_XDIST=` runs it in one process; `make test PYTEST_ARGS=tests/unit` a part.
# Bytecode is cached under .venv even where PYTHONDONTWRITEBYTECODE is set: every server a
# test starts imports the app again, and compiling it each time cost ~1 s of CPU per start.
PYTEST_XDIST ?= -n auto --dist loadfile --no-loadscope-reorder
test: install-test chromium extension
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache $(PY) -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)

demo: install chromium
	$(VENV)/bin/stepwise demo

bench-verification: install-test
	$(PY) -m bench.verification

bench-interact: install-test
	$(PY) -m bench.interact

# Knowledge ingestion's main-content F1 on ../shared/bench/article-extraction (~10 s)
bench-knowledge-extraction: install-test
	$(PY) -m bench.knowledge_extraction

# Retrieval quality on the fixture knowledge base (Recall@5, MRR@10, isolation, freshness),
# ingestion through a real crawl job, and retrieval latency at 50,000 chunks (~10 min: the
# 50k-chunk store is built first)
bench-knowledge: install-test
	$(PY) -m bench.knowledge_quality
	$(PY) -m bench.knowledge_crawl_speed
	$(PY) bench/knowledge_retrieval_speed.py

# Default: development, wide-tune and wide-held-out groups side by side (bench/miniwob/suites.toml).
MINIWOB_ARGS ?= --suites --seeds 3
bench-miniwob: install-bench chromium
	$(VENV)/bin/stepwise bench miniwob $(if $(BENCH_ARGS),$(BENCH_ARGS),$(MINIWOB_ARGS))

# Action chaining on vs off (issue 14, ~10 min): the five-field form site of bench/chaining_pages.py
# (6 layouts, 5 phrasings, dirty pages), then the multi-field MiniWoB++ tasks, both ways on the same seeds.
CHAINING_ARGS ?= --seeds 5
CHAINING_MINIWOB_ARGS ?= --seeds 3
bench-vision: install-bench
	$(PY) -m bench.vision --out bench/results/vision

bench-chaining: install-bench chromium
	$(PY) -m bench.chaining $(CHAINING_ARGS) --out bench/results/chaining
	$(PY) -m bench.miniwob.run --tasks bench/miniwob/chaining-tasks.txt --compare-chaining $(CHAINING_MINIWOB_ARGS) --out bench/results/chaining/miniwob

# Memory (issue 15): page fingerprint + a recipe step lookup on a ~100 KB page, median and
# p95 over 300 runs next to PageState.from_html (~10 s; target <= 1 ms median)
bench-memory-fingerprint: install-test
	$(PY) -m bench.memory_fingerprint $(MEMORY_FINGERPRINT_ARGS)

# Skills library on a decoy-site stream, 3 tenants x 2 sites, with and without a lying model
bench-memory-skills: install-bench chromium
	$(PY) -m bench.memory_skills $(MEMORY_SKILLS_ARGS)

# Replay of verified flows vs the policy alone, and under perturbations (MiniWoB++ dev + demo)
bench-memory-replay: install-bench chromium
	$(PY) -m bench.memory_replay $(MEMORY_REPLAY_ARGS)

# The hardening audit against real servers on 127.0.0.1 (~6 min): AUDIT_ARGS="--only race_1_worker" for one.
bench-audit: install-bench
	$(PY) -m bench.audit $(AUDIT_ARGS)

# The gym (bench/sites/README.md): every site's human solutions replayed first, then every goal
# x {no model, oracle, noisy, lying} through a real server (~1 h on 2 cores). Another site
# folder, or a subset: make bench-sites SITES="bench/sites/bank /path/to/site" SITES_ARGS="--models none,oracle"
SITES ?= $(sort $(dir $(wildcard bench/sites/*/site.toml)))
SITES_ARGS ?=
bench-sites: install-bench chromium
	$(PY) -m bench.gym check $(SITES)
	$(PY) -m bench.gym run $(SITES) $(SITES_ARGS) --out bench/results/gym

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis bench/results
