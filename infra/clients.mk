# infra/clients.mk: the typed clients under clients/, generated from docs/openapi.json
# with pinned generators and committed (clients/README.md).
#   make clients         regenerate both (after docs/openapi.json changes)
#   make clients-check   regenerate into a temporary directory; fail if clients/ differs
#   make test-clients    each client against the local stack: create an endpoint, send
#                        an event, read its attempts (clients/tests/python_flow.py,
#                        clients/typescript/test/flow.test.ts)
# The Python generator (and ruff, which formats its output) go into the venv; the
# TypeScript generator, openapi-fetch and tsc come from clients/typescript's lock file
# (`npm ci`). Node comes from the system (.ci/run installs Debian's nodejs and npm).

# Both versions shape the generated files: bump them together with `make clients`.
OPENAPI_PYTHON_CLIENT_VERSION ?= 0.29.1
RUFF_VERSION ?= 0.17.6
CLIENTS_PY_STAMP := $(VENV)/.openapi-python-client-$(OPENAPI_PYTHON_CLIENT_VERSION)-ruff-$(RUFF_VERSION).stamp
CLIENTS_TS := clients/typescript
CLIENTS_NPM_STAMP := $(CLIENTS_TS)/node_modules/.npm-ci.stamp
# openapi-typescript's flags: properties with a default stay optional (its default makes
# them required, in request bodies too).
OPENAPI_TS_FLAGS ?= --default-non-nullable false
CLIENTS_TEST_KEY ?= ck_clients_test_run
CLIENTS_TEST_LOG ?= .local/clients-stack.log
# Empty: a free port picked at each run.
CLIENTS_TEST_ADDR ?=
COURIER_LOCAL_BIN ?= $(or $(CARGO_TARGET_DIR),target)/debug/courier-local
# Files in clients/python that are not generated (left by a build or a test run).
CLIENTS_DIFF_EXCLUDE := -x __pycache__ -x .ruff_cache -x build -x dist -x '*.egg-info'

.PHONY: clients clients-check test-clients clients-deps

clients-deps: $(CLIENTS_PY_STAMP) $(CLIENTS_NPM_STAMP)

$(CLIENTS_PY_STAMP): $(MOTO_STAMP)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check \
		'openapi-python-client==$(OPENAPI_PYTHON_CLIENT_VERSION)' 'ruff==$(RUFF_VERSION)'
	rm -f $(VENV)/.openapi-python-client-*.stamp
	touch $@

$(CLIENTS_NPM_STAMP): $(CLIENTS_TS)/package.json $(CLIENTS_TS)/package-lock.json
	@command -v node >/dev/null && command -v npm >/dev/null || { \
		echo "clients: node and npm are needed (Debian: apt-get install -y nodejs npm)" >&2; exit 1; }
	cd $(CLIENTS_TS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

clients: clients-deps
	VENV=$(VENV) OPENAPI_TS_FLAGS='$(OPENAPI_TS_FLAGS)' clients/tools/generate.sh clients
	@echo "clients/ regenerated from docs/openapi.json; commit clients/python and $(CLIENTS_TS)/schema.d.ts"

clients-check: clients-deps
	@set -eu; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	VENV=$(VENV) OPENAPI_TS_FLAGS='$(OPENAPI_TS_FLAGS)' clients/tools/generate.sh "$$tmp"; \
	if diff -r $(CLIENTS_DIFF_EXCLUDE) "$$tmp/python" clients/python >"$$tmp/diff" \
		&& diff "$$tmp/typescript/schema.d.ts" $(CLIENTS_TS)/schema.d.ts >>"$$tmp/diff"; then \
		echo "clients-check: clients/ matches docs/openapi.json"; \
	else \
		head -n 60 "$$tmp/diff"; \
		echo "clients-check: the committed clients differ from what docs/openapi.json generates; run 'make clients' and commit clients/" >&2; \
		exit 1; \
	fi

# Starts the stack on its own port (its own emulator), waits for /healthz, runs the
# Python client's flow, then the TypeScript client's (type check, compile, node --test),
# and stops the stack whatever the outcome.
test-clients: clients-deps
	$(CARGO) build --quiet -p courier-local --bin courier-local
	@mkdir -p $(dir $(CLIENTS_TEST_LOG))
	@set -u; \
	addr="$(CLIENTS_TEST_ADDR)"; \
	[ -n "$$addr" ] || addr=127.0.0.1:$$($(VENV)/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'); \
	PATH="$(abspath $(VENV))/bin:$$PATH" COURIER_LOCAL_ADDR=$$addr COURIER_DEV_API_KEY=$(CLIENTS_TEST_KEY) \
		$(COURIER_LOCAL_BIN) --no-demo --loopback-targets >$(CLIENTS_TEST_LOG) 2>&1 & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null' EXIT; \
	for _ in $$(seq 1 120); do \
		curl -sf -o /dev/null http://$$addr/healthz && break; \
		kill -0 $$pid 2>/dev/null || { cat $(CLIENTS_TEST_LOG); exit 1; }; \
		sleep 0.5; \
	done; \
	curl -sf -o /dev/null http://$$addr/healthz || { echo "test-clients: the stack did not answer /healthz in 60 s" >&2; cat $(CLIENTS_TEST_LOG); exit 1; }; \
	export COURIER_URL=http://$$addr COURIER_API_KEY=$(CLIENTS_TEST_KEY); \
	echo "test-clients: python client against $$COURIER_URL"; \
	PYTHONPATH=clients/python PYTHONDONTWRITEBYTECODE=1 $(VENV)/bin/python clients/tests/python_flow.py || exit 1; \
	echo "test-clients: typescript client against $$COURIER_URL"; \
	(cd $(CLIENTS_TS) && npm test --silent) || exit 1
