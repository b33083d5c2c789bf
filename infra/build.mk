# infra/build.mk: the Lambda build, `sam build` and `sam deploy`.
# Included by the top Makefile; also usable alone: `make -f infra/build.mk build`.
# Paths are relative to the directory make runs in (the workspace root).
# Safe to include more than once (infra/template.mk includes it too).

ifndef COURIER_BUILD_MK
COURIER_BUILD_MK := 1
#
# `sam build` (BuildMethod: makefile, CodeUri: .) runs `make build-ApiFunction` and
# `make build-SenderFunction` in the workspace root with ARTIFACTS_DIR set; each copies
# one cross-compiled binary there as `bootstrap` (runtime provided.al2023, arm64).
# samconfig.toml sets build_in_source, so SAM builds in place instead of copying the
# whole workspace (target/ and .venv/ included) to a scratch directory first.

CARGO ?= cargo
PYTHON ?= python3
VENV ?= .venv

LAMBDA_TARGET ?= aarch64-unknown-linux-gnu
LAMBDA_GCC ?= aarch64-linux-gnu-gcc
LAMBDA_TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)
LAMBDA_BIN_DIR = $(LAMBDA_TARGET_DIR)/$(LAMBDA_TARGET)/release
# Amazon Linux 2023 (provided.al2023) ships glibc 2.34; Debian's cross libc is newer,
# so infra/check-glibc.sh refuses a binary that asks for a later symbol version.
LAMBDA_GLIBC_MAX ?= 2.34
LAMBDA_BINS := courier-api courier-sender

# The linker and the C compiler (aws-lc-sys, ring build C code) for the target, set
# here rather than in a committed .cargo/config.toml so no machine path is committed.
LAMBDA_ENV = CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=$(LAMBDA_GCC) \
	CC_aarch64_unknown_linux_gnu=$(LAMBDA_GCC) \
	AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar

# Pinned so `sam build`, `sam validate --lint` and cfn-lint behave the same everywhere.
SAM_CLI_VERSION ?= 1.170.0
CFN_LINT_VERSION ?= 1.58.0
SAM_STAMP := $(VENV)/.sam-$(SAM_CLI_VERSION)-cfnlint-$(CFN_LINT_VERSION).stamp
# No telemetry: `make build` and the lint run offline and quietly.
SAM = SAM_CLI_TELEMETRY=0 $(VENV)/bin/sam
DEPLOY_ARGS ?=

.PHONY: cross-toolchain lambda-binaries check-glibc build-ApiFunction build-SenderFunction \
	sam-tools build deploy

# CI and developer machines run as root; elsewhere install the package by hand.
cross-toolchain:
	@command -v $(LAMBDA_GCC) >/dev/null || (apt-get update && apt-get install -y gcc-aarch64-linux-gnu)
	@rustup target list --installed | grep -qx $(LAMBDA_TARGET) || rustup target add $(LAMBDA_TARGET)

# Both binaries in one cargo invocation: one feature resolution, so the second SAM
# target finds everything built and only copies.
lambda-binaries: cross-toolchain
	$(LAMBDA_ENV) $(CARGO) build --release --locked --target $(LAMBDA_TARGET) $(addprefix --bin ,$(LAMBDA_BINS)) $(addprefix -p ,$(LAMBDA_BINS))
	infra/check-glibc.sh $(LAMBDA_GLIBC_MAX) $(addprefix $(LAMBDA_BIN_DIR)/,$(LAMBDA_BINS))

check-glibc:
	infra/check-glibc.sh $(LAMBDA_GLIBC_MAX) $(addprefix $(LAMBDA_BIN_DIR)/,$(LAMBDA_BINS))

build-ApiFunction: lambda-binaries
	@test -n "$(ARTIFACTS_DIR)" || (echo "ARTIFACTS_DIR is not set (sam build sets it)" >&2; exit 1)
	mkdir -p "$(ARTIFACTS_DIR)"
	cp $(LAMBDA_BIN_DIR)/courier-api "$(ARTIFACTS_DIR)/bootstrap"

build-SenderFunction: lambda-binaries
	@test -n "$(ARTIFACTS_DIR)" || (echo "ARTIFACTS_DIR is not set (sam build sets it)" >&2; exit 1)
	mkdir -p "$(ARTIFACTS_DIR)"
	cp $(LAMBDA_BIN_DIR)/courier-sender "$(ARTIFACTS_DIR)/bootstrap"

sam-tools: $(SAM_STAMP)

# The stamp makes `make sam-tools` a no-op once the pinned versions are installed.
$(SAM_STAMP):
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check 'aws-sam-cli==$(SAM_CLI_VERSION)' 'cfn-lint==$(CFN_LINT_VERSION)'
	rm -f $(VENV)/.sam-*.stamp
	touch $@

# Offline: needs no AWS credentials. Leaves .aws-sam/build/{ApiFunction,SenderFunction}/bootstrap.
build: sam-tools cross-toolchain
	$(SAM) build

# Never run in CI. The first time: `make deploy DEPLOY_ARGS=--guided`.
deploy: build
	$(SAM) deploy $(DEPLOY_ARGS)

endif # COURIER_BUILD_MK
