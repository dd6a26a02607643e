# LocalStack: the unmodified template.yaml deployed to LocalStack and the e2e suite run against it.
# Included from the Makefile (`include localstack.mk`); uses its SHELL, PY, CACHE, STAMPS, SAM_VENV.
# Without a Docker engine LocalStack runs as a host process from its own virtualenv (Python 3.13) with
# local/localstack's plugins; see docs/localstack.md.

LOCALSTACK_VENV := $(CACHE)/venv-localstack
LOCALSTACK_DIR := local/localstack
# LocalStack 2026.3 needs Python >= 3.13 (warnings.deprecated); pyenv's, or any python3.13 on PATH.
LOCALSTACK_PYTHON ?= $(or $(lastword $(sort $(wildcard /root/.pyenv/versions/3.13.*/bin/python3.13))),python3.13)
SAMLOCAL_VERSION := 1.71.0
LOCALSTACK_RUN := PYTHONPATH=$(LOCALSTACK_DIR) $(PY) -m caredesk_localstack

.PHONY: localstack-setup localstack-up localstack-deploy localstack-test localstack-down localstack-ci \
	localstack-probe-create-database

localstack-setup: $(STAMPS)/localstack $(STAMPS)/samlocal

$(STAMPS)/localstack: $(LOCALSTACK_DIR)/requirements.txt $(LOCALSTACK_DIR)/constraints.txt $(LOCALSTACK_DIR)/pyproject.toml
	@mkdir -p $(STAMPS)
	test -x $(LOCALSTACK_VENV)/bin/python || $(LOCALSTACK_PYTHON) -m venv $(LOCALSTACK_VENV)
	$(LOCALSTACK_VENV)/bin/pip install --quiet --disable-pip-version-check \
		-r $(LOCALSTACK_DIR)/requirements.txt -c $(LOCALSTACK_DIR)/constraints.txt
	$(LOCALSTACK_VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e $(LOCALSTACK_DIR)
	@touch $@

# samlocal: a wrapper of the SAM CLI that points it at LocalStack (no dependencies of its own).
$(STAMPS)/samlocal: $(STAMPS)/sam
	$(SAM_VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps aws-sam-cli-local==$(SAMLOCAL_VERSION)
	@touch $@

localstack-up: setup localstack-setup
	$(LOCALSTACK_RUN).control up

localstack-deploy: setup localstack-setup
	$(LOCALSTACK_RUN).deploy

# How far CreateDatabase=true gets on LocalStack Community: deploys it as stack caredesk-probe-db (and the
# network part alone), prints resource -> status/reason, deletes both stacks (docs/localstack.md). Needs
# `make localstack-up`; the regular deployment is not touched. Not part of localstack-ci.
localstack-probe-create-database: setup localstack-setup
	$(LOCALSTACK_RUN).probe_create_database

localstack-test: setup
	CAREDESK_LOCALSTACK=1 $(PY) -m pytest tests/e2e/localstack

# Stops LocalStack, its Lambda workers and Postgres; fails if any of them is still running afterwards.
localstack-down:
	$(LOCALSTACK_RUN).control down

# CI: the whole cycle; LocalStack is stopped whatever happened, and the first failure is the exit code.
localstack-ci: setup localstack-setup
	status=0; \
	$(LOCALSTACK_RUN).control up && $(LOCALSTACK_RUN).deploy && \
		CAREDESK_LOCALSTACK=1 $(PY) -m pytest tests/e2e/localstack || status=$$?; \
	$(LOCALSTACK_RUN).control down || status=$${status/#0/1}; \
	exit $$status
