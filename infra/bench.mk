# infra/bench.mk: `make bench`, Courier's performance and cost figures (docs/bench.md).
# Included by the top Makefile after infra/emulator.mk (the AWS sections use its
# `venv` target); alone: `make -f infra/emulator.mk -f infra/bench.mk bench`.
#
# Prints one table and writes it as JSON to $(BENCH_TARGET_DIR)/bench/latest.json
# (plus a timestamped copy). Sizes come from the environment or the command line,
# e.g. `make bench COURIER_BENCH_N=5000`:
#   COURIER_BENCH_N            deliveries per sender variant (50000)
#   COURIER_BENCH_CONCURRENCY  requests in flight (40)
#   COURIER_BENCH_ROUNDS       alternating rounds of the sender variants (6)
#   COURIER_BENCH_AWS_K        deliveries per path for the request counts (10)
#   COURIER_BENCH_PAYLOAD_BYTES bytes of those events' payload JSON (a small one, ~70)
#   COURIER_BENCH_M            retries per path for timer lateness (20)
#   COURIER_BENCH_INIT_RUNS    init-time runs per binary (40)
#   COURIER_BENCH_SECTIONS     any of sender,aws,lateness,startup,core (all)
# The crate is a workspace member but not a default member: `cargo build` and
# `cargo test` without `-p`/`--workspace` leave it alone.

CARGO ?= cargo
BENCH_TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: bench bench-build bench-core

# Two invocations: the functions' binaries are built with exactly their own
# features, as infra/build.mk builds them for Lambda, not unified with the bench
# crate's.
bench-build:
	$(CARGO) build --release --locked -p courier-sender --bin courier-sender -p courier-api --bin courier-api
	$(CARGO) build --release --locked -p courier-bench --bins

# Criterion's own report goes to a log; courier-bench reads its estimates back.
bench-core:
	@mkdir -p $(BENCH_TARGET_DIR)/bench
	$(CARGO) bench --locked -p courier-bench --bench core -- --noplot > $(BENCH_TARGET_DIR)/bench/criterion.log

bench: venv bench-build bench-core
	$(BENCH_TARGET_DIR)/release/courier-bench
