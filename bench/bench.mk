# bench/bench.mk -- `make bench` and `make mca`, included by the top Makefile.
#
#   make bench                      every kernel variant + ref + GMP, interleaved, one process;
#                                   JMH-like table, bench/results/<cpu>.json and <cpu>.png;
#                                   Poly1305: the JMH Poly1305DigestBench grid (digestBytes at
#                                   64 B..1 MiB, updateBytes at 16 KiB and 1 MiB) beside
#                                   OpenSSL and libsodium (bench/poly1305.c)
#   make bench BENCH_ARGS="--kernel poly1305_blocks --sizes 4,64 --quick"
#                                   sizes of poly1305_* are 16-byte blocks (4 = 64 bytes)
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
#                                   correctness only (no timing, about a second): every
#                                   non-ref variant vs ref over sizes 0..513 and operand
#                                   patterns random/ones/zeros, outputs and guard zones;
#                                   poly1305_blocks (sizes in blocks): the kernel on a guarded
#                                   ctx, an edge lattice and tags via the public API, also vs
#                                   GMP, libsodium and OpenSSL (bench/poly1305.c; what `make
#                                   tune` runs on candidates);
#                                   "check K.V ok N" / "... MISMATCH size= pattern= seed=",
#                                   exit 1 on a mismatch (under qemu: $(RUN) $(BENCH_BIN) --check)
#   $(BENCH_BIN) --check-selftest   the check must catch deliberately wrong wrappers of ref
#   make mca                        llvm-mca-19 cycles/limb of the AArch64 loops, ours vs gcc -O3
#                                   ref, five CPU models; bench/results/mca-aarch64.json
#   make mca MCA_ARGS="--kernel mpn_addmul_1 --cpu neoverse-n1 -v"
#
# The harness is compiled with the library's flags and linked with the static library (its
# internal lf_kernel_table enumerates the variants) and the system GMP; OpenSSL's libcrypto
# and libsodium (the Poly1305 peers) where $(CC) can compile and link them (probed once per
# make run: the arm64 cross build on Debian 12 has neither, its harness has no peer rows and
# says so), and on x86-64 two objects of the static libcrypto.a (OpenSSL's P-256 and
# Curve25519 field products, peers of p256_* and fe_c25519_r51_*).  gen/tune.mk links its throwaway builds with the same $(BENCH_LIBS).

BENCH_DIR := $(BUILD)/bench
BENCH_BIN := $(BENCH_DIR)/limbforge-bench
BENCH_SRC := $(wildcard bench/*.c)
BENCH_OBJ := $(patsubst bench/%.c,$(BENCH_DIR)/%.o,$(BENCH_SRC))
# $(call bench_probe,header,function call,library): 1 if $(CC) compiles and links it
bench_probe = $(shell echo 'int main(void) { return !$(2); }' | \
	$(CC) -include $(1) -x c - -o /dev/null $(3) >/dev/null 2>&1 && echo 1)
# evaluated once, on first use (not by targets that do not build the harness)
BENCH_HAVE_OPENSSL = $(eval BENCH_HAVE_OPENSSL := \
	$$(call bench_probe,openssl/evp.h,EVP_MAC_fetch(0, "POLY1305", 0),-lcrypto))$(BENCH_HAVE_OPENSSL)
BENCH_HAVE_SODIUM = $(eval BENCH_HAVE_SODIUM := \
	$$(call bench_probe,sodium.h,sodium_init(),-lsodium))$(BENCH_HAVE_SODIUM)
# OpenSSL's own field functions as peers (bench/ossl_field.c: ecp_nistz256_mul_mont/sqr_mont,
# x25519_fe51_mul/sqr): libcrypto.so does not export them, so on x86-64 the two perlasm
# objects are taken out of the static libcrypto.a (libssl-dev) when it holds both
BENCH_OSSL_A := $(if $(filter x86_64,$(ARCH)),$(firstword $(wildcard \
	/usr/lib/x86_64-linux-gnu/libcrypto.a /usr/lib64/libcrypto.a /usr/lib/libcrypto.a)))
BENCH_OSSL_MEMBERS := libcrypto-lib-ecp_nistz256-x86_64.o libcrypto-lib-x25519-x86_64.o
BENCH_HAVE_OSSL_FIELD = $(eval BENCH_HAVE_OSSL_FIELD := $$(if $$(and $$(BENCH_OSSL_A), \
	$$(BENCH_HAVE_OPENSSL)),$$(if $$(filter-out $$(shell ar t $$(BENCH_OSSL_A) 2>/dev/null), \
	$$(BENCH_OSSL_MEMBERS)),,1)))$(BENCH_HAVE_OSSL_FIELD)
BENCH_OSSL_OBJ = $(if $(BENCH_HAVE_OSSL_FIELD),$(addprefix $(BENCH_DIR)/ossl/,$(BENCH_OSSL_MEMBERS)))
# in the recipes that link with BENCH_LIBS (this file, gen/tune.mk): taken out again at every
# link, so an upgraded libcrypto.a is what links; in a recipe, so that only a make run that
# links the harness probes for them
BENCH_OSSL_EXTRACT = $(if $(BENCH_OSSL_OBJ),mkdir -p $(BENCH_DIR)/ossl && \
	cd $(BENCH_DIR)/ossl && ar x $(BENCH_OSSL_A) $(BENCH_OSSL_MEMBERS))
BENCH_PEER_DEFS = $(if $(BENCH_HAVE_OPENSSL),-DBENCH_HAVE_OPENSSL=1) \
	$(if $(BENCH_HAVE_SODIUM),-DBENCH_HAVE_SODIUM=1) \
	$(if $(BENCH_HAVE_OSSL_FIELD),-DBENCH_HAVE_OSSL_FIELD=1)
BENCH_LIBS = $(BENCH_OSSL_OBJ) -lgmp -lm $(if $(BENCH_HAVE_OPENSSL),-lcrypto) \
	$(if $(BENCH_HAVE_SODIUM),-lsodium)
BENCH_ARGS ?=
MCA_ARGS ?=
# under qemu (RUN set) the harness warns that timings are meaningless
BENCH_EMU := $(if $(strip $(RUN)),--emulated,)

$(BENCH_DIR)/%.o: bench/%.c bench/bench.h runtime/include/limbforge.h runtime/lf_dispatch.h \
                  generated/include/lf_kernels.h generated/include/lf_fields.h tests/fe_kernels.h
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(LF_DEPFLAGS) $(LF_CFLAGS) $(BENCH_PEER_DEFS) \
		-DBENCH_CFLAGS='"$(strip $(LF_CFLAGS))"' -c $< -o $@

-include $(BENCH_OBJ:.o=.d)

$(BENCH_BIN): $(BENCH_OBJ) $(BUILD)/liblimbforge.a
	$(BENCH_OSSL_EXTRACT)
	$(CC) $(LF_CFLAGS) -o $@ $(BENCH_OBJ) $(BUILD)/liblimbforge.a $(BENCH_LIBS)

bench: $(BENCH_BIN)
	@mkdir -p bench/results
	@$(RUN) $(BENCH_BIN) --json-dir bench/results --scratch-dir $(BENCH_DIR) $(BENCH_EMU) \
		$(BENCH_ARGS) > $(BENCH_DIR)/last.txt; st=$$?; cat $(BENCH_DIR)/last.txt; \
	json=$$(sed -n 's/^json: //p' $(BENCH_DIR)/last.txt); \
	if [ -n "$$json" ]; then $(PY) bench/plot.py "$$json" || true; fi; exit $$st

mca:
	$(PY) bench/mca.py $(MCA_ARGS)
