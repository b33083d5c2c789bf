# infra/conformance.mk: an outside conformance suite against the local stack.
# Schemathesis reads docs/openapi.json and runs every check (schemathesis.toml
# enables them): no 5xx; every status, content type, header and body as the
# document says; 405 with `Allow` for other methods; schema-valid requests
# accepted and invalid ones refused; a created resource found, a deleted one gone.
# Phases: the document's examples, generated requests (a fixed number per
# operation), then the stateful phase, which follows the document's links from
# what it creates (an endpoint, then its events, schedules, reads, changes and
# deletion); the whole run is bounded by a time budget (about two minutes). The
# coverage phase is left out: this version's fails inside Hypothesis on this
# document ("AST constructor recursion depth mismatch") before sending anything.
# The stack runs with --loopback-targets, so generated endpoint URLs outside
# 127.0.0.1/[::1] are refused (422) before any lookup and nothing leaves this
# machine. Before the run, infra/conformance_fixtures.py creates the resources
# generated requests use (their ids reach Schemathesis as CONFORMANCE_* variables
# and .local/conformance/*.dict), and infra/conformance_hooks.py makes each
# schema-valid call's Idempotency-Key unique. schemathesis.toml says, per
# operation, what a schema cannot state and which fixture it uses.
# Every operation answers 2xx at least once except two: completing an attempt
# (POST /v1/attempts/{attemptId}/complete) takes the attempt's own token, which
# only its receiver sees, so it answers 401; a redrive needs a delivery whose
# queue message reached the dead-letter queue, which the stack does not make
# within a run, so it answers 409.

SCHEMATHESIS_VERSION ?= 4.32.5
SCHEMATHESIS_STAMP := $(VENV)/.schemathesis-$(SCHEMATHESIS_VERSION).stamp
CONFORMANCE_ADDR ?= 127.0.0.1:3097
CONFORMANCE_KEY ?= ck_conformance_run
CONFORMANCE_EXAMPLES ?= 20
# Seconds for the whole run (examples, fuzzing, then the stateful phase).
CONFORMANCE_MAX_TIME ?= 120
CONFORMANCE_SEED ?= 1
CONFORMANCE_LOG ?= .local/conformance-stack.log
CONFORMANCE_DOC ?= docs/openapi.json
# Every check runs (schemathesis.toml enables them, with its per-operation
# exceptions); the stateful phase follows the document's links (create an
# endpoint, then read, change and delete it).
CONFORMANCE_PHASES ?= examples,fuzzing,stateful
# Seconds a request may take. `GET /v1/stats` sums every endpoint of the tenant (a
# counter query and a dozen backlog counts each, 16 endpoints at a time) and the
# run creates a hundred or more, which the emulator answers one call at a time on
# a machine shared with builds.
CONFORMANCE_REQUEST_TIMEOUT ?= 30
# More `st run` options, e.g. `--report har --report-dir .local/conformance`.
CONFORMANCE_ARGS ?=
# The binary cargo builds (CARGO_TARGET_DIR moves it).
CONFORMANCE_BIN ?= $(or $(CARGO_TARGET_DIR),target)/debug/courier-local
# The suite sends thousands of requests a minute from one tenant: lift the API's
# rate limit for this stack only (the deployed default stays).
CONFORMANCE_API_RATE ?= 0
# Schemathesis' workers are threads, and CPython 3.11 sometimes fails a threaded
# ast.parse with a spurious "AST constructor recursion depth mismatch"
# (python/cpython#106905), which Hypothesis hits while describing strategies: one
# worker keeps the run exact.
CONFORMANCE_WORKERS ?= 1

.PHONY: schemathesis test-conformance

schemathesis: $(SCHEMATHESIS_STAMP)

$(SCHEMATHESIS_STAMP): $(MOTO_STAMP)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check 'schemathesis==$(SCHEMATHESIS_VERSION)'
	rm -f $(VENV)/.schemathesis-*.stamp
	touch $@

# Starts the stack (its own emulator), waits for /healthz, runs the suite, and stops
# the stack whatever the outcome.
test-conformance: schemathesis
	$(CARGO) build --quiet -p courier-local --bin courier-local
	@mkdir -p $(dir $(CONFORMANCE_LOG))
	@set -u; \
	PATH="$(abspath $(VENV))/bin:$$PATH" COURIER_LOCAL_ADDR=$(CONFORMANCE_ADDR) COURIER_DEV_API_KEY=$(CONFORMANCE_KEY) \
		COURIER_LOCAL_API_RATE=$(CONFORMANCE_API_RATE) $(CONFORMANCE_BIN) --no-demo --loopback-targets >$(CONFORMANCE_LOG) 2>&1 & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null' EXIT; \
	for _ in $$(seq 1 120); do \
		curl -sf -o /dev/null http://$(CONFORMANCE_ADDR)/healthz && break; \
		kill -0 $$pid 2>/dev/null || { cat $(CONFORMANCE_LOG); exit 1; }; \
		sleep 0.5; \
	done; \
	fixtures=$$($(VENV)/bin/python infra/conformance_fixtures.py http://$(CONFORMANCE_ADDR) $(CONFORMANCE_KEY) .local/conformance) || exit 1; \
	export $$fixtures; \
	PYTHONPATH=infra SCHEMATHESIS_HOOKS=conformance_hooks $(VENV)/bin/st --config-file schemathesis.toml run $(CONFORMANCE_DOC) --url http://$(CONFORMANCE_ADDR) \
		-H 'Authorization: Bearer $(CONFORMANCE_KEY)' \
		--phases $(CONFORMANCE_PHASES) \
		--max-examples $(CONFORMANCE_EXAMPLES) --max-time $(CONFORMANCE_MAX_TIME) \
		--request-timeout $(CONFORMANCE_REQUEST_TIMEOUT) --workers $(CONFORMANCE_WORKERS) --seed $(CONFORMANCE_SEED) --generation-database none --no-color $(CONFORMANCE_ARGS)
