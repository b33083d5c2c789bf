# infra/emulator.mk: the local AWS emulator (moto server) in a project venv.
# Included by the top Makefile; also usable alone: `make -f infra/emulator.mk venv`.
# Paths are relative to the directory make runs in (the workspace root).

PYTHON ?= python3
VENV ?= .venv
# Pinned: the contract tests rely on this version's DynamoDB (GSIs, TransactWriteItems
# cancellation reasons), SQS (DelaySeconds, redrive) and Scheduler behaviour.
MOTO_VERSION ?= 5.2.5
MOTO_STAMP := $(VENV)/.moto-$(MOTO_VERSION).stamp
MOTO_HOST ?= 127.0.0.1
MOTO_PORT ?= 5000
MOTO_PIDFILE ?= .local/moto.pid
MOTO_LOG ?= .local/moto.log

.PHONY: venv emulator-start emulator-stop emulator-status

venv: $(MOTO_STAMP)

# The stamp makes `make venv` a no-op once the pinned moto is installed.
$(MOTO_STAMP):
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check 'moto[server]==$(MOTO_VERSION)'
	rm -f $(VENV)/.moto-*.stamp
	touch $@

# A long-lived emulator for the local runner (tests start their own on a free port).
emulator-start: venv
	@mkdir -p $(dir $(MOTO_PIDFILE))
	@if [ -f $(MOTO_PIDFILE) ] && kill -0 $$(cat $(MOTO_PIDFILE)) 2>/dev/null; then \
		echo "moto already running (pid $$(cat $(MOTO_PIDFILE))) on http://$(MOTO_HOST):$(MOTO_PORT)"; \
	else \
		nohup $(VENV)/bin/python infra/moto/serve.py -H $(MOTO_HOST) -p $(MOTO_PORT) >$(MOTO_LOG) 2>&1 & echo $$! >$(MOTO_PIDFILE); \
		for i in $$(seq 1 50); do \
			curl -fs -o /dev/null http://$(MOTO_HOST):$(MOTO_PORT)/moto-api/ && break; sleep 0.2; \
		done; \
		echo "moto started (pid $$(cat $(MOTO_PIDFILE))): export AWS_ENDPOINT_URL=http://$(MOTO_HOST):$(MOTO_PORT)"; \
	fi

emulator-stop:
	@if [ -f $(MOTO_PIDFILE) ]; then kill $$(cat $(MOTO_PIDFILE)) 2>/dev/null || true; rm -f $(MOTO_PIDFILE); echo "moto stopped"; fi

emulator-status:
	@if [ -f $(MOTO_PIDFILE) ] && kill -0 $$(cat $(MOTO_PIDFILE)) 2>/dev/null; then echo "running"; else echo "stopped"; fi
