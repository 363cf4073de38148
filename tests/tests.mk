# tests/tests.mk -- the Check suite (included by the top Makefile).
#
#   make test           deps, generated/ up to date, generator tests, host suite, AArch64 suite
#   make test-host      the suite for the build machine's architecture (x86-64 here)
#   make test-aarch64   the suite cross-built for AArch64 (static) and run under qemu-aarch64
#   make test-suite     internal: build and run the suite for $(ARCH)
#   make test-mutants   not part of `make test` (~40 min): deliberately broken copies of the
#                       tree must each make the host suite fail (tests/mutants.sh)
#   make test-flavours  every generated file assembled for ELF, Mach-O and Win64, objects
#                       checked, the Win64 flavour run under wine64 (tests/flavours.mk)
#   make test-ct        constant time of Poly1305, mpn_montmul and lf_bi_mod_pow_consttime under
#                       valgrind memcheck (tests/ct.mk)
#   make fuzz           not part of `make test`: the montmul suite with FUZZ_MONT_CASES random
#                       shapes per variant (n, modulus and operand kinds, a == b), and the
#                       Poly1305 suite with FUZZ_CASES random
#                       (key, length, chunking) cases (biased: all-0xff/0x00 blocks, edge
#                       keys, lengths around the vector thresholds) spread over every variant,
#                       against OpenSSL and libsodium (and GMP every 64th case; under qemu
#                       GMP only), with a new seed each run (printed; LF_TEST_SEED=<n>
#                       replays it).  `make fuzz ARCH=aarch64` runs it under qemu.
#
# Each architecture's run: the whole suite once (every runnable variant of every kernel,
# coverage enforced), then the dispatch and api suites (and on x86-64 modpow: its gather
# without AVX2) again under LIMBFORGE_CPU masks that remove one feature at a time, then
# readelf/objdump checks of the objects (check_objects.sh).
# Oracles: GMP everywhere, Python vectors (tests/kat/gen_vectors.py, gen_poly1305.py,
# gen_ecdh.py, gen_fe.py, gen_fields.py, gen_xdh.py, gen_ladder.py, written into
# $(TEST_DIR)/kat/), and for Poly1305 also OpenSSL and libsodium, for P-256 ECDH OpenSSL's
# EVP_PKEY_derive, for X25519/X448 OpenSSL's EVP_PKEY_derive and libsodium's
# crypto_scalarmult, on the host (the AArch64 build has neither: GMP and the Python vectors
# there).
# Useful knobs: LF_TEST_SEED=<n>, CK_VERBOSITY=verbose, CK_RUN_SUITE=<suite>,
# LF_TEST_P1305_RANDOM=<n> (random Poly1305 cases, default 100000 on the host, 20000 under
# qemu), LF_TEST_ECDH_RANDOM=<n> (random ECDH keys per kernel pair, default 300 on the host,
# 40 under qemu), LF_TEST_FE_RANDOM=<n> (random GMP cases per field op, default 400 on the
# host, 60 under qemu), LF_TEST_XDH_RANDOM=<n> (random X25519/X448 keys against OpenSSL and
# libsodium, default 300, host), LF_TEST_XDH_MILLION=1 (RFC 7748's 1,000,000-iteration
# vectors: ~1.5 min X25519 + ~6.5 min X448 on the host; not run by default), and
# `build/<arch>/tests/check_limbforge <suite...>` to run a subset by hand.

-include tests/gen.mk
-include tests/consumer.mk
-include tests/flavours.mk
-include tests/unwind.mk
-include tests/ct.mk

.PHONY: test test-host test-aarch64 test-suite test-objects test-mutants fuzz

test: deps check-generated test-gen test-host test-aarch64 test-consumer test-unwind test-flavours \
      test-ct

test-host:
	@$(MAKE) --no-print-directory ARCH=$(HOST_ARCH) test-suite

test-aarch64:
	@$(MAKE) --no-print-directory ARCH=aarch64 test-suite

test-mutants:
	@sh tests/mutants.sh

TEST_DIR := $(BUILD)/tests
TEST_BIN := $(TEST_DIR)/check_limbforge
KAT_H := $(TEST_DIR)/kat/kat_vectors.h
P1305_KAT_H := $(TEST_DIR)/kat/poly1305_vectors.h
ECDH_KAT_H := $(TEST_DIR)/kat/ecdh_vectors.h
FE_KAT_H := $(TEST_DIR)/kat/fe_vectors.h
FIELDS_KAT_H := $(TEST_DIR)/kat/fields_vectors.h
LADDER_KAT_H := $(TEST_DIR)/kat/ladder_vectors.h
XDH_KAT_H := $(TEST_DIR)/kat/xdh_vectors.h
TEST_C := tests/check_main.c $(wildcard tests/harness/*.c) $(wildcard tests/test_*.c)
TEST_OBJS := $(patsubst tests/%.c,$(TEST_DIR)/obj/%.o,$(TEST_C)) $(TEST_DIR)/obj/abi/$(ARCH).o \
             $(TEST_DIR)/obj/xdh_narrow.o $(TEST_DIR)/obj/xdh_ref_narrow.o \
             $(TEST_DIR)/obj/p256_ecdh_narrow.o
TEST_HDRS := $(wildcard tests/harness/*.h) tests/abi/abi.h tests/kat/kat.h tests/fe_kernels.h \
             tests/fields_table.h \
             runtime/include/limbforge.h runtime/lf_dispatch.h generated/include/lf_kernels.h \
             generated/include/lf_fields.h
TEST_CPPFLAGS := $(LF_CPPFLAGS) -Itests -Itests/harness -Itests/kat -I$(TEST_DIR)/kat

ifeq ($(ARCH),$(HOST_ARCH))
TEST_SYSINC :=
TEST_INC := $(shell pkg-config --cflags check 2>/dev/null)
TEST_LDFLAGS :=
TEST_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck) -lgmp
# Poly1305 oracles besides GMP and the Python vectors (tests/harness/oracle_poly1305.c):
# OpenSSL's EVP_MAC and libsodium, on the host only (no arm64 builds of them are installed)
TEST_CRYPTO := $(shell pkg-config --exists libcrypto 2>/dev/null && echo libcrypto) \
               $(shell pkg-config --exists libsodium 2>/dev/null && echo libsodium)
TEST_INC += $(if $(filter libcrypto,$(TEST_CRYPTO)),-DLF_TEST_OPENSSL) \
            $(if $(filter libsodium,$(TEST_CRYPTO)),-DLF_TEST_SODIUM) \
            $(if $(strip $(TEST_CRYPTO)),$(shell pkg-config --cflags $(TEST_CRYPTO)))
TEST_LIBS += $(if $(strip $(TEST_CRYPTO)),$(shell pkg-config --libs $(TEST_CRYPTO)))
# Check forks per test: a crash in one test is reported and the others still run
TEST_ENV :=
READELF := readelf
OBJDUMP := objdump
else
# Cross build: static, against the arm64 multiarch archives.  -I/usr/include would shadow the
# cross libc headers, so only the three headers needed are linked into a private directory.
TEST_SYSINC := $(TEST_DIR)/sysinc/.stamp
TEST_INC := -I$(TEST_DIR)/sysinc
TEST_LDFLAGS := -static
ARM64_LIB := /usr/lib/aarch64-linux-gnu
TEST_LIBS := $(ARM64_LIB)/libcheck.a $(ARM64_LIB)/libsubunit.a $(ARM64_LIB)/libgmp.a \
             -lm -lrt -pthread
# Check's fork mode hangs under qemu-aarch64 7.2: one process (the suite does not rely on
# fork isolation; the mask suite, which cannot be undone, runs last)
TEST_ENV := CK_FORK=no
READELF := aarch64-linux-gnu-readelf
OBJDUMP := aarch64-linux-gnu-objdump
endif

# every schedule of the architecture, forced by name; under qemu, CPU models whose MIDR
# must select their schedule (or generic when there is none)
TEST_SCHEDULES := $(sort $(basename $(notdir $(wildcard gen/schedules/$(ARCH)/*.toml))))
TEST_QEMU_CPUS := cortex-a72 neoverse-n1 max

# LIMBFORGE_CPU masks for the second round: each removes features one at a time (or all)
TEST_MASKS_x86_64 := none -adx -bmi2 -adx,-bmi2 -avx2 -avx512ifma,-adx -avx512vl -avx512f
TEST_MASKS_aarch64 := none -asimd -sve,-sve2
# suites of that round: modpow for lf_bi_mod_pow_consttime's table gather, which takes AVX2
# when allowed (runtime/modpow.c)
TEST_MASKED_SUITES_x86_64 := dispatch api modpow
TEST_MASKED_SUITES_aarch64 := dispatch api

FUZZ_CASES ?= $(if $(RUN),300000,3000000)
# Montgomery: cases per montmul variant (each up to 80 limbs, checked against GMP)
FUZZ_MONT_CASES ?= $(if $(RUN),20000,200000)
fuzz: $(TEST_BIN)
	LF_TEST_SEED=$${LF_TEST_SEED:-$$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')} \
		LF_TEST_P1305_RANDOM=$(FUZZ_CASES) LF_TEST_MONT_RANDOM=$(FUZZ_MONT_CASES) \
		CK_TIMEOUT_MULTIPLIER=100 $(TEST_ENV) $(RUN) $(TEST_BIN) poly1305 montmul

test-suite: $(TEST_BIN) test-objects $(TEST_DIR)/mask_race
	$(TEST_ENV) $(RUN) $(TEST_BIN)
	$(if $(RUN),@echo "mask_race: host only (threads + fork under qemu-user are not reliable)",\
		$(TEST_DIR)/mask_race 300)
	@for m in $(TEST_MASKS_$(ARCH)); do \
		echo "== LIMBFORGE_CPU=$$m: $(TEST_MASKED_SUITES_$(ARCH)) suites ($(ARCH))"; \
		LIMBFORGE_CPU=$$m $(TEST_ENV) CK_VERBOSITY=minimal $(RUN) $(TEST_BIN) \
			$(TEST_MASKED_SUITES_$(ARCH)) \
			> $(TEST_DIR)/masked.log 2>&1 || { cat $(TEST_DIR)/masked.log; exit 1; }; \
		grep -E "^(dispatch: LIMBFORGE_CPU|  SKIP|limbforge tests:|[0-9]+%:)" \
			$(TEST_DIR)/masked.log | sort -u; \
	done
	@for s in $(TEST_SCHEDULES); do \
		echo "== LIMBFORGE_SCHEDULE=$$s: dispatch and schedule suites ($(ARCH))"; \
		LIMBFORGE_SCHEDULE=$$s LF_TEST_EXPECT_SCHEDULE=$$s $(TEST_ENV) CK_VERBOSITY=minimal \
			$(RUN) $(TEST_BIN) dispatch schedule > $(TEST_DIR)/sched.log 2>&1 \
			|| { cat $(TEST_DIR)/sched.log; exit 1; }; \
		grep -E "^(schedule: host|limbforge tests:|[0-9]+%:)" $(TEST_DIR)/sched.log; \
	done
	$(if $(RUN),@for m in $(TEST_QEMU_CPUS); do \
		if [ -f gen/schedules/$(ARCH)/$$m.toml ]; then e=$$m; else e=generic; fi; \
		echo "== qemu -cpu $$m: the schedule chosen by MIDR must be $$e"; \
		LF_TEST_EXPECT_SCHEDULE=$$e $(TEST_ENV) CK_VERBOSITY=minimal \
			$(RUN) -cpu $$m $(TEST_BIN) schedule > $(TEST_DIR)/sched.log 2>&1 \
			|| { cat $(TEST_DIR)/sched.log; exit 1; }; \
		grep -E "^(schedule: host|limbforge tests:|[0-9]+%:)" $(TEST_DIR)/sched.log; \
	done)

# lf_cpu_mask against concurrent resolution (tests/stress/mask_race.c)
$(TEST_DIR)/mask_race: tests/stress/mask_race.c $(BUILD)/liblimbforge.a
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(TEST_INC) $(LF_CFLAGS) $(TEST_LDFLAGS) -pthread -o $@ $< \
		$(BUILD)/liblimbforge.a $(TEST_LIBS)

test-objects: $(BUILD)/liblimbforge.a $(BUILD)/liblimbforge.so
	@sh tests/check_objects.sh $(ARCH) $(BUILD) $(READELF) $(OBJDUMP)

$(TEST_BIN): $(TEST_OBJS) $(BUILD)/liblimbforge.a
	$(CC) $(LF_CFLAGS) $(TEST_LDFLAGS) -o $@ $(TEST_OBJS) $(BUILD)/liblimbforge.a $(TEST_LIBS)

$(TEST_DIR)/obj/%.o: tests/%.c $(TEST_HDRS) $(TEST_SYSINC)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CPPFLAGS) $(TEST_INC) $(LF_DEPFLAGS) $(LF_CFLAGS) -c $< -o $@

-include $(TEST_OBJS:.o=.d)

$(TEST_DIR)/obj/test_kat.o: $(KAT_H)
$(TEST_DIR)/obj/test_poly1305.o: $(P1305_KAT_H)
$(TEST_DIR)/obj/test_ecdh.o: $(ECDH_KAT_H)
$(TEST_DIR)/obj/harness/fe.o: $(FE_KAT_H)
$(TEST_DIR)/obj/test_fields.o: $(FIELDS_KAT_H)
$(TEST_DIR)/obj/test_xdh.o: $(XDH_KAT_H)

# runtime/xdh.c once more as a compiler without __int128 builds it (LF_FE_WIDE 0: X25519 and
# X448 on the 10 x 26 / 16 x 28 fields), renamed lf_test_x25519_narrow / lf_test_x448_narrow
# for tests/test_xdh.c; the library's own build takes the 51/56-bit fields
# and runtime/ref/xdh_ref.c likewise: the ladder kernels' refs as such a compiler builds them
# (tests/test_ladder.c checks them against the mpz ladder)
$(TEST_DIR)/obj/xdh_ref_narrow.o: runtime/ref/xdh_ref.c $(TEST_HDRS) $(TEST_SYSINC)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CPPFLAGS) -U__SIZEOF_INT128__ -Wno-builtin-macro-redefined \
		-Dlf_x25519_ladder_ref=lf_test_x25519_ladder_narrow \
		-Dlf_x448_ladder_ref=lf_test_x448_ladder_narrow \
		-Dlf_xdh_ladder=lf_test_xdh_ladder_narrow \
		$(LF_CFLAGS) -c $< -o $@

$(TEST_DIR)/obj/xdh_narrow.o: runtime/xdh.c $(TEST_HDRS) $(TEST_SYSINC)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CPPFLAGS) -U__SIZEOF_INT128__ -Wno-builtin-macro-redefined \
		-Dlf_x25519=lf_test_x25519_narrow -Dlf_x448=lf_test_x448_narrow $(LF_CFLAGS) -c $< -o $@
# runtime/p256_ecdh.c as a compiler without __int128 builds it (Z^-2 by the Fermat chain
# instead of the divsteps inversion), renamed lf_test_p256_ecdh_narrow for tests/test_ecdh.c
$(TEST_DIR)/obj/p256_ecdh_narrow.o: runtime/p256_ecdh.c $(TEST_HDRS) $(TEST_SYSINC)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CPPFLAGS) -U__SIZEOF_INT128__ -Wno-builtin-macro-redefined \
		-Dlf_p256_ecdh=lf_test_p256_ecdh_narrow \
		-Dlf_p256_ecdh_with=lf_test_p256_ecdh_with_narrow $(LF_CFLAGS) -c $< -o $@
$(TEST_DIR)/obj/harness/xdh.o: $(LADDER_KAT_H)
$(TEST_DIR)/obj/test_kat.o: $(LADDER_KAT_H)

$(TEST_DIR)/obj/abi/$(ARCH).o: tests/abi/$(ARCH).S tests/abi/abi.h
	@mkdir -p $(dir $@)
	$(CC) -Itests/abi $(CFLAGS_$(ARCH)) -c $< -o $@

$(KAT_H): tests/kat/gen_vectors.py
	@mkdir -p $(dir $@)
	$(PY) tests/kat/gen_vectors.py $@

$(P1305_KAT_H): tests/kat/gen_poly1305.py
	@mkdir -p $(dir $@)
	$(PY) tests/kat/gen_poly1305.py $@

$(ECDH_KAT_H): tests/kat/gen_ecdh.py
	@mkdir -p $(dir $@)
	$(PY) tests/kat/gen_ecdh.py $@

# reads tests/fe_kernels.h and the generator's bounds (gen/lfgen/fields)
$(FE_KAT_H): tests/kat/gen_fe.py tests/fe_kernels.h $(wildcard gen/lfgen/fields/*.py)
	@mkdir -p $(dir $@)
	$(PY) tests/kat/gen_fe.py $@

# the field contract (R, M, L, ...) is read from gen/lfgen/fields/bounds.py: the vectors follow it
$(FIELDS_KAT_H): tests/kat/gen_fields.py $(wildcard gen/lfgen/fields/*.py)
	@mkdir -p $(dir $@)
	$(PY) tests/kat/gen_fields.py $@

$(XDH_KAT_H): tests/kat/gen_xdh.py
	@mkdir -p $(dir $@)
	$(PY) tests/kat/gen_xdh.py $@

# RFC 7748's ladder on Python integers; the x4 bound from the generator (gen/lfgen/fields)
$(LADDER_KAT_H): tests/kat/gen_ladder.py $(wildcard gen/lfgen/fields/*.py)
	@mkdir -p $(dir $@)
	$(PY) tests/kat/gen_ladder.py $@

$(TEST_DIR)/sysinc/.stamp:
	@mkdir -p $(dir $@)
	ln -sf /usr/include/check.h /usr/include/check_stdint.h \
		/usr/include/aarch64-linux-gnu/gmp.h $(dir $@)
	@touch $@
