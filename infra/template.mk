# infra/template.mk: checks that template.yaml is valid and agrees with the code.
# Included by the top Makefile, after infra/emulator.mk (template-check uses its
# `venv` target: the table check runs the bootstrap on the moto emulator).
#
#   template-lint   `sam validate --lint` and cfn-lint, both from the project venv;
#                   offline, no AWS credentials.
#   template-check  the Rust consistency test (infra/template-check): environment
#                   variables, IAM actions scanned from functions/aws, table keys and
#                   indexes against the bootstrap, queue, alarms, build targets.

include $(dir $(lastword $(MAKEFILE_LIST)))build.mk

TEMPLATE ?= template.yaml

.PHONY: template-lint template-check

template-lint: sam-tools
	$(SAM) validate --lint --template $(TEMPLATE) --region us-east-1
	$(VENV)/bin/cfn-lint $(TEMPLATE)

template-check: venv
	$(CARGO) test -p courier-template-check --quiet
