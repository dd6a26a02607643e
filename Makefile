# CareDesk: `make demo` and `make test` do all the set-up on a fresh machine.
# Set-up is idempotent: stamps under .cache/ (ignored) skip work whose inputs did not change.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
CACHE := .cache
STAMPS := $(CACHE)/stamps
NPM_DIR := $(CACHE)/npm
SAM_VENV := $(CACHE)/venv-sam
MODEL_DIR := $(CACHE)/model
LEXICON_DIR := $(CACHE)/lexicon
WORDNET_DIR := /usr/share/wordnet
ASL_VALIDATOR_VERSION := 4.0.0

include localstack.mk

.PHONY: setup model lexicon demo up test test-unit test-integration test-e2e lint eval pii-eval bench clean-cache help

help:
	@echo "make demo    set everything up, ingest kb/ through S3, answer a scripted conversation"
	@echo "make test    set everything up and run the whole test suite"
	@echo "make up      start the embedded stack and the local API on 127.0.0.1:3000"
	@echo "make lint    ruff, cfn-lint, sam validate --lint, the ASL validator"
	@echo "make bench   benchmarks (numbers go in the README)"

setup: $(STAMPS)/venv $(STAMPS)/system $(STAMPS)/npm $(STAMPS)/sam model lexicon

# The embedded Postgres runs as the `postgres` OS user (initdb refuses root); the chat page's browser
# test drives Debian's Chromium (no browser download); Debian's PostgreSQL 15 manual is the second
# knowledge base the retrieval evaluation runs on (eval/second_kb/README.md); WordNet 3.0 (wordnet-base)
# is the source of the synonym table (`make lexicon`).
$(STAMPS)/system:
	@mkdir -p $(STAMPS)
	id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
	command -v chromium >/dev/null && command -v chromedriver >/dev/null \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }
	test -f $(WORDNET_DIR)/data.noun \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wordnet-base; }
	test -f /usr/share/doc/postgresql-doc-15/html/index.html \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-doc-15; }
	@touch $@

$(STAMPS)/venv: requirements-dev.txt constraints.txt pyproject.toml layers/common/requirements.txt \
		layers/embedding/requirements.txt functions/ingest/requirements.txt
	@mkdir -p $(STAMPS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt -c constraints.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $@

# The ASL validator (npm) for the static checks.
$(STAMPS)/npm:
	@mkdir -p $(STAMPS) $(NPM_DIR)
	test -f $(NPM_DIR)/package.json || echo '{"name":"caredesk-tools","private":true}' > $(NPM_DIR)/package.json
	npm install --prefix $(NPM_DIR) --no-audit --no-fund --silent asl-validator@$(ASL_VALIDATOR_VERSION)
	@touch $@

# SAM CLI in its own virtualenv: its pins conflict with moto's.
$(STAMPS)/sam: requirements-sam.txt
	@mkdir -p $(STAMPS)
	test -x $(SAM_VENV)/bin/pip || $(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -r requirements-sam.txt
	@touch $@

# all-MiniLM-L6-v2 -> ONNX (torch only here); a no-op when the manifest matches.
model: $(STAMPS)/venv
	HF_HUB_OFFLINE=1 $(PY) tools/build_model.py --out $(MODEL_DIR)

# WordNet 3.0 (Debian wordnet-base) -> a 2.5 MiB synonym table for caredesk.lexicon, shipped in the
# EmbeddingLayer (/opt/lexicon); a no-op when its manifest matches. A machine whose system stamp predates
# the wordnet-base line gets it here.
lexicon: $(STAMPS)/venv $(STAMPS)/system
	test -f $(WORDNET_DIR)/data.noun || $(MAKE) --always-make $(STAMPS)/system
	$(PY) -m tools.build_lexicon --wordnet $(WORDNET_DIR) --out $(LEXICON_DIR)

demo: setup
	$(PY) -m caredesk_local.demo

up: setup
	$(VENV)/bin/caredesk up

# The fast tiers, then the same template deployed to LocalStack and its e2e suite.
test: setup
	$(PY) -m pytest tests/unit tests/integration tests/e2e
	$(MAKE) localstack-ci

test-unit: setup
	$(PY) -m pytest tests/unit

test-integration: setup
	$(PY) -m pytest tests/integration

test-e2e: setup
	$(PY) -m pytest tests/e2e

lint: setup
	$(VENV)/bin/ruff check layers local functions tools tests
	$(PY) -m pytest tests/unit/test_static_checks.py

# Each bench prints a Markdown table with the machine; on a busy machine pass smaller sizes, e.g.
# `$(PY) bench/ingest_bench.py --documents 150`.
# The golden set through the pipeline in its own embedded stack; fails when the gate does.
eval: setup
	$(VENV)/bin/caredesk eval --embedded

# The PII table of docs/guardrails.md: hand-written masker vs Presidio + spaCy, in a virtualenv of its
# own (Presidio is not part of the product; eval/pii/requirements.txt pins it).
PII_EVAL_VENV := $(CACHE)/pii-eval-venv
$(STAMPS)/pii-eval-venv: eval/pii/requirements.txt
	@mkdir -p $(STAMPS)
	test -x $(PII_EVAL_VENV)/bin/python || $(PYTHON) -m venv $(PII_EVAL_VENV)
	$(PII_EVAL_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r eval/pii/requirements.txt
	@touch $@

pii-eval: $(STAMPS)/pii-eval-venv
	PYTHONPATH=layers/common/python $(PII_EVAL_VENV)/bin/python tools/pii_eval.py --presidio --json eval/reports/pii_eval.json

bench: setup
	$(PY) bench/embedding_bench.py
	$(PY) bench/ingest_bench.py
	$(PY) bench/pipeline_bench.py
	$(PY) bench/ask_bench.py
	$(PY) bench/retrieval_bench.py

clean-cache:
	rm -rf $(CACHE)/pgdata $(CACHE)/pgdata-test $(CACHE)/stack.json
