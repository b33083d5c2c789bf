# Courier: the two commands a newcomer needs are `make run` and `make test`.
# Everything else (venv for the moto emulator, linters) is installed on demand.

SHELL := /bin/bash
CARGO ?= cargo
DEMO ?= 1

include infra/emulator.mk
include infra/build.mk
include infra/template.mk
include infra/bench.mk
include infra/conformance.mk
include infra/clients.mk


.PHONY: help tenant run test test-rust lint fmt fmt-check clippy build deploy bench clean-local openapi openapi-check

help:
	@echo "make run     start the local stack (moto emulator, API on 127.0.0.1:3000, sender, timers; DEMO=0 skips the demo receiver)"
	@echo "make test    format check, clippy, template lint, every test (unit, contract, end-to-end), the Schemathesis run (test-conformance) and the typed clients (clients-check, test-clients)"
	@echo "make clients regenerate the typed clients in clients/ from docs/openapi.json (pinned generators)"
	@echo "make build   sam build (arm64 bootstrap binaries for Lambda)"
	@echo "make deploy  sam deploy (uses samconfig.toml)"
	@echo "make bench   print performance and cost figures"
	@echo "make openapi regenerate docs/openapi.json from the code (utoipa, the courier-app 'openapi' feature)"
	@echo "make tenant  create a tenant and API key in a deployment (COURIER_TABLE=... NAME=...)"

run: venv
	$(CARGO) run --quiet -p courier-local --bin courier-local -- $(if $(filter 0,$(DEMO)),--no-demo,--demo) $(if $(filter 1,$(SECOND_RATES)),--second-rates,)

# Creates a tenant and its first API key in a deployment: COURIER_TABLE=<table> make tenant NAME=acme
tenant:
	@test -n "$(NAME)" || (echo "usage: COURIER_TABLE=<table> make tenant NAME=<tenant name>" && exit 2)
	$(CARGO) run --quiet -p courier-local --bin courier-admin -- create-tenant --name "$(NAME)"

# docs/openapi.json is generated from the code (handlers' #[utoipa::path], the wire
# types' schemas): never edit it by hand. courier-app's tests fail while the file
# differs from what the code generates; openapi-check validates it as OpenAPI 3.1.
openapi:
	$(CARGO) run --quiet -p courier-app --features openapi --bin courier-openapi > docs/openapi.json.tmp
	mv docs/openapi.json.tmp docs/openapi.json

openapi-check: venv
	test -x $(VENV)/bin/openapi-spec-validator || $(VENV)/bin/pip install --quiet --disable-pip-version-check 'openapi-spec-validator>=0.7'
	$(VENV)/bin/openapi-spec-validator docs/openapi.json

fmt:
	$(CARGO) fmt --all

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

lint: fmt-check clippy

# Tests start their own emulator processes (one per test, on free ports) from
# the venv, and stop them when they finish. With cargo-nextest installed, nextest runs
# them and its summary line ends the run. Without it, `cargo test` runs the same tests
# (a binary at a time, so slower) after a line saying so; NEXTEST=0 forces that path.
# nextest itself: `cargo install cargo-nextest --locked --version 0.9.143`.
NEXTEST_VERSION := 0.9.143

test-rust: venv
	$(CARGO) test --workspace --doc --quiet
	@if [ "$(NEXTEST)" != 0 ] && $(CARGO) nextest --version >/dev/null 2>&1; then \
		echo "$(CARGO) nextest run --workspace --no-fail-fast"; \
		$(CARGO) nextest run --workspace --no-fail-fast; \
	else \
		echo "make test: cargo-nextest not found, running the tests with cargo test" \
			"(faster with nextest: cargo install cargo-nextest --locked --version $(NEXTEST_VERSION))"; \
		echo "$(CARGO) test --workspace --no-fail-fast"; \
		$(CARGO) test --workspace --no-fail-fast; \
	fi

# test-rust last: the run ends with the test runner's summary line.
test: lint openapi-check template-lint test-conformance clients-check test-clients test-rust
