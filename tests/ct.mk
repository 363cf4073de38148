# tests/ct.mk -- constant time under valgrind memcheck (included by tests/tests.mk).
#
#   make test-ct     tests/ct/poly1305_ct.c: key and message marked undefined, every Poly1305
#                    variant valgrind can run forced in turn; any branch or address on them
#                    is a memcheck error, and valgrind exits 1 (~20 s)
#                    tests/ct/montmul_ct.c: a and b of lf_mpn_montmul (every mpn_montmul
#                    variant valgrind can run: adx, ref; ifma is skipped with the reason
#                    printed), base and exponent of lf_bi_mod_pow_consttime marked undefined
#                    tests/ct/p256_ct.c: a and b of every p256_mul_mont / p256_sqr_mont
#                    variant (adx, ref), `set` and the limbs of every conditional_assign
#                    variant (avx2, sse2, ref) marked undefined; its control branches on set;
#                    a and b of p256_mont_mult / square / mult_x8 (mulx, ref; ifma skipped)
#                    tests/ct/ecdh_ct.c: the scalar of lf_p256_ecdh marked undefined, every
#                    (p256_mul_mont, p256_sqr_mont) pair valgrind can run (adx, ref) through
#                    lf_p256_ecdh_with, valid and invalid scalars (the range check is masked
#                    too); the peer point is public
#                    tests/ct/fe_ct.c: a and b of every field product of tests/fe_kernels.h
#                    (fe_<field>_mul / square: mulx, ref), a == b and r == a == b; its
#                    control branches on a limb
#                    tests/ct/fields_ct.c: the generated EC field kernels (generated/fields):
#                    `swap` / `set` and the limbs of every conditional_swap /
#                    conditional_assign, every input of every other op (mul ... invert,
#                    mul_small, ladder_step) marked undefined; lf_x25519 / lf_x448 with the
#                    scalar and the point undefined (RFC 7748 vectors, u = 0 and u = p)
#                    tests/ct/xdh_ct.c: k and u of every x25519_ladder / x448_ladder variant
#                    valgrind can run (ref; ifma skipped with the reason printed), a and b of
#                    fe_c25519_r51_mul_x4 (ref), scalar and point of lf_x25519 / lf_x448; its
#                    control swaps with an `if` on a scalar bit
#
# Host only: valgrind 3.19 cannot run AVX-512 (its CPUID hides it, so the dispatcher offers
# only the other variants) and there is no valgrind for AArch64 under qemu.  Every variant of
# both architectures, AVX-512 and NEON included, also passes the generation-time taint check
# of gen/lfgen/consttime.py, run by `make gen` and `make check-generated`.

.PHONY: test-ct

CT_DIR := $(BUILD)/tests/ct
CT_BIN := $(CT_DIR)/poly1305_ct
CT_LIB_A := $(BUILD)/lib$(or $(LIBNAME),limbforge).a

CT_BINS := $(CT_BIN) $(CT_DIR)/montmul_ct $(CT_DIR)/p256_ct $(CT_DIR)/ecdh_ct $(CT_DIR)/fe_ct \
           $(CT_DIR)/fields_ct $(CT_DIR)/xdh_ct

test-ct: $(CT_BINS)
	@echo "== constant time under valgrind memcheck ($(ARCH))"
	@for b in $(CT_BINS); do \
		if valgrind -q --error-exitcode=1 $$b --control >$$b.control.log 2>&1; then \
			echo "test-ct: the leaky control of $$b passed: memcheck sees no secret" \
				"branch" >&2; exit 1; \
		else echo "control: memcheck reports the leaky control of $$b (as it must)"; fi; \
	done
	@for b in $(CT_BINS); do \
		echo "valgrind -q --error-exitcode=1 --track-origins=yes $$b"; \
		valgrind -q --error-exitcode=1 --track-origins=yes $$b || exit 1; \
	done

$(CT_DIR)/%: tests/ct/%.c tests/ct/ct_cpu.h tests/fe_kernels.h tests/fields_table.h \
             runtime/include/limbforge.h \
             generated/include/lf_fields.h $(CT_LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -o $@ $< $(CT_LIB_A)
