# infra/template.mk: checks that template.yaml is valid and agrees with the code.
# Included by the top Makefile, after infra/emulator.mk (template-check uses its
# `venv` target: the table check runs the bootstrap on the moto emulator).
#
#   template-lint   `sam validate --lint` and cfn-lint, both from the project venv;
#                   offline, no AWS credentials; the template as is and with its
#                   optional parts' defaults flipped (StaticEgressIps, CredentialsKeyArn).
#   template-check  the Rust consistency test (infra/template-check): environment
#                   variables, IAM actions scanned from functions/aws, table keys and
#                   indexes against the bootstrap, queue, alarms, build targets.

include $(dir $(lastword $(MAKEFILE_LIST)))build.mk

TEMPLATE ?= template.yaml

.PHONY: template-lint template-check

# The template's optional parts are linted both ways: as deployed by default, and
# with the other branch of their conditions (StaticEgressIps on, a named
# CredentialsKeyArn instead of the stack's own key), from a copy whose defaults
# are flipped.
TEMPLATE_FLIPPED_DEFAULTS := -e '/^  StaticEgressIps:/,/Default:/s/Default: "false"/Default: "true"/' \
	-e '/^  CredentialsKeyArn:/,/Default:/s|Default: ""|Default: "arn:aws:kms:us-east-1:123456789012:key/1111aaaa-22bb-33cc-44dd-555555eeeeee"|'

template-lint: sam-tools
	$(SAM) validate --lint --template $(TEMPLATE) --region us-east-1
	$(VENV)/bin/cfn-lint $(TEMPLATE)
	@flipped=$$(mktemp --suffix=.yaml) && trap 'rm -f "$$flipped"' EXIT && \
		sed $(TEMPLATE_FLIPPED_DEFAULTS) $(TEMPLATE) > "$$flipped" && \
		! cmp -s $(TEMPLATE) "$$flipped" && \
		grep -q 'Default: "true"' "$$flipped" && grep -q 'key/1111aaaa' "$$flipped" && \
		echo "template-lint: again with StaticEgressIps=true and a named CredentialsKeyArn" && \
		$(SAM) validate --lint --template "$$flipped" --region us-east-1 && \
		$(VENV)/bin/cfn-lint "$$flipped"

template-check: venv
	$(CARGO) test -p courier-template-check --quiet
