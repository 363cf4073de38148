# bench/bench.mk -- `make bench` and `make mca`, included by the top Makefile.
#
#   make bench                      every kernel variant + ref + GMP, interleaved, one process;
#                                   JMH-like table, bench/results/<cpu>.json and <cpu>.png
#   make bench BENCH_ARGS="--kernel mpn_addmul_1 --sizes 25,64,128 --quick"
#                                   partial run for tuning: table only, JSON/PNG go to
#                                   build/<arch>/bench/ (never over bench/results/)
#   make bench ARCH=aarch64         cross-built, run under qemu: checks the harness works;
#                                   timings are meaningless (the harness says so)
#   make bench BENCH_ARGS="--kernel mpn_addmul_1 --variant adx,adx#3 --baseline adx --no-gmp"
#                                   schedule tuning: column xbase / JSON ratio_vs_base = paired
#                                   per-round ratios vs the --baseline variant; --no-gmp drops
#                                   the GMP rows
#   $(BENCH_BIN) --check [--kernel K] [--variant V] [--json F]
#                                   correctness only (no timing, well under a second): every
#                                   non-ref variant vs ref over sizes 0..513 and operand
#                                   patterns random/ones/zeros, outputs and guard zones;
#                                   "check K.V ok N" / "... MISMATCH size= pattern= seed=",
#                                   exit 1 on a mismatch (under qemu: $(RUN) $(BENCH_BIN) --check)
#   $(BENCH_BIN) --check-selftest   the check must catch deliberately wrong wrappers of ref
#   make mca                        llvm-mca-19 cycles/limb of the AArch64 loops, ours vs gcc -O3
#                                   ref, five CPU models; bench/results/mca-aarch64.json
#   make mca MCA_ARGS="--kernel mpn_addmul_1 --cpu neoverse-n1 -v"
#
# The harness is compiled with the library's flags and linked with the static library (its
# internal lf_kernel_table enumerates the variants) and the system GMP.

BENCH_DIR := $(BUILD)/bench
BENCH_BIN := $(BENCH_DIR)/limbforge-bench
BENCH_SRC := $(wildcard bench/*.c)
BENCH_OBJ := $(patsubst bench/%.c,$(BENCH_DIR)/%.o,$(BENCH_SRC))
BENCH_LIBS := -lgmp -lm
BENCH_ARGS ?=
MCA_ARGS ?=
# under qemu (RUN set) the harness warns that timings are meaningless
BENCH_EMU := $(if $(strip $(RUN)),--emulated,)

$(BENCH_DIR)/%.o: bench/%.c bench/bench.h runtime/include/limbforge.h runtime/lf_dispatch.h \
                  generated/include/lf_kernels.h
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -DBENCH_CFLAGS='"$(strip $(LF_CFLAGS))"' -c $< -o $@

$(BENCH_BIN): $(BENCH_OBJ) $(BUILD)/liblimbforge.a
	$(CC) $(LF_CFLAGS) -o $@ $(BENCH_OBJ) $(BUILD)/liblimbforge.a $(BENCH_LIBS)

bench: $(BENCH_BIN)
	@mkdir -p bench/results
	@$(RUN) $(BENCH_BIN) --json-dir bench/results --scratch-dir $(BENCH_DIR) $(BENCH_EMU) \
		$(BENCH_ARGS) > $(BENCH_DIR)/last.txt; st=$$?; cat $(BENCH_DIR)/last.txt; \
	json=$$(sed -n 's/^json: //p' $(BENCH_DIR)/last.txt); \
	if [ -n "$$json" ]; then $(PY) bench/plot.py "$$json" || true; fi; exit $$st

mca:
	$(PY) bench/mca.py $(MCA_ARGS)
