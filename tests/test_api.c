/*
 * test_api.c -- the public entry points (lf_mpn_mul_1, ..., lf_bi_square_to_len, lf_mpn_mul,
 * lf_mpn_montmul, lf_bi_multiply_to_len, the Poly1305 functions, lf_p256_mul_mont /
 * sqr_mont, lf_conditional_assign, lf_p256_mont_mult / square / mult_x8, the field products
 * lf_fe_<field>_mul / square of tests/fe_kernels.h; lf_x25519 / lf_x448 for the ladder
 * kernels, LF_CALL for fe_c25519_r51_mul_x4) with each runnable variant
 * forced in turn by lf_impl_force, and with the dispatcher's own choice.  (The BigInteger
 * Montgomery entry points and lf_bi_mod_pow*: tests/test_montmul.c, tests/test_modpow.c.)
 *
 * Faults this is designed to catch:
 *   - a wrapper in runtime/api_*.c that reorders, truncates or drops an argument (e.g.
 *     out_len/offset of mulAdd, a 32-bit k), or post-processes the result; lf_mpn_mul not
 *     ordering its operands (an < bn) or not zeroing rp for a length 0;
 *   - lf_impl_force reporting success but leaving another variant in the slot, or
 *     lf_impl naming a different variant than the one that runs;
 *   - the dispatcher's default choice computing a wrong answer.
 * Every call is compared with GMP (Poly1305: also OpenSSL and libsodium where built, and the
 * RFC's tags), in guarded buffers, as in the direct-call suites.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fe_kernels.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const size_t lens[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
	24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 64, 127, 128, 129, 130,
	513,
};

static lf_fnptr public_fn(enum lf_kernel_id kid)
{
	switch (kid) {
	case LF_K_mpn_mul_1:
		return (lf_fnptr)lf_mpn_mul_1;
	case LF_K_mpn_addmul_1:
		return (lf_fnptr)lf_mpn_addmul_1;
	case LF_K_mpn_sqr:
		return (lf_fnptr)lf_mpn_sqr;
	case LF_K_bi_mul_add:
		return (lf_fnptr)lf_bi_mul_add;
	case LF_K_bi_square_to_len:
		return (lf_fnptr)lf_bi_square_to_len;
	case LF_K_poly1305_blocks:
		return (lf_fnptr)lf_poly1305;
	case LF_K_mpn_mul:
		return (lf_fnptr)lf_mpn_mul;
	case LF_K_mpn_montmul:
		return (lf_fnptr)lf_mpn_montmul;
	case LF_K_bi_multiply_to_len:
		return (lf_fnptr)lf_bi_multiply_to_len;
	case LF_K_p256_mul_mont:
		return (lf_fnptr)lf_p256_mul_mont;
	case LF_K_p256_sqr_mont:
		return (lf_fnptr)lf_p256_sqr_mont;
	case LF_K_conditional_assign:
		return (lf_fnptr)lf_conditional_assign;
	case LF_K_p256_mont_mult:
		return (lf_fnptr)lf_p256_mont_mult;
	case LF_K_p256_mont_square:
		return (lf_fnptr)lf_p256_mont_square;
	case LF_K_p256_mont_mult_x8:
		return (lf_fnptr)lf_p256_mont_mult_x8;
	case LF_K_x25519_ladder:
		return (lf_fnptr)lf_x25519;
	case LF_K_x448_ladder:
		return (lf_fnptr)lf_x448;
	case LF_K_fe_c25519_r51_mul_x4:
		/* no lf_ entry: its callers' path, the dispatcher's pointer (after the force) */
		return (lf_fnptr)LF_CALL(fe_c25519_r51_mul_x4);
	default:
		/* the field products: lf_fe_<field>_<op> (tests/fe_kernels.h) */
		return fe_kernel(kid) ? fe_kernel(kid)->api : NULL;
	}
}

static void run_cases(const struct tvar *t, const char *what)
{
	struct exec_ctx c = { t, public_fn(t->kid), COV_API, GB_MID, 0, what };
	uint64_t a[513], r[513];
	uint32_t out[516], in[513];
	rng_t rng;
	rng_init(&rng, t->label, 41);

	ck_assert_msg(c.fn != NULL, "no public entry point known for %s", t->k->name);
	if (t->kid == LF_K_poly1305_blocks) {
		/* lf_poly1305, init/update/final, jdk_blocks: tests/test_poly1305.c */
		p1305_api_cases(t, COV_API, what);
		return;
	}
	if (xdh_ladder(t->kid)) {
		/* lf_x25519 / lf_x448 with the ladder variant in use: tests/harness/xdh.c */
		xdh_api_cases(t, COV_API, what);
		return;
	}
	for (size_t li = 0; li < NLEN(lens); li++) {
		size_t n = lens[li];
		for (int rep = 0; rep < 3; rep++) {
			enum pattern p = rep == 1 ? PAT_ONES : rep == 2 ? PAT_LATTICE : PAT_RANDOM;
			c.place = rep == 2 ? GB_END : GB_MID;
			switch (t->kid) {
			case LF_K_mpn_mul_1:
			case LF_K_mpn_addmul_1: {
				uint64_t b = p == PAT_ONES ? UINT64_MAX : rng_next(&rng);
				int addmul = t->kid == LF_K_mpn_addmul_1;
				fill64(a, n, p, &rng);
				fill64(r, n, p, &rng);
				exec_mul1(&c, addmul, a, r, n, b, 0, NULL, NULL);
				exec_mul1(&c, addmul, a, r, n, b, 1, NULL, NULL);
				break;
			}
			case LF_K_mpn_sqr:
				fill64(a, n, p, &rng);
				exec_sqr(&c, a, n, NULL);
				break;
			case LF_K_bi_mul_add: {
				uint32_t k = p == PAT_ONES ? UINT32_MAX : (uint32_t)rng_next(&rng);
				fill32be(out, n + 3, p, &rng);
				fill32be(in, n, p, &rng);
				for (size_t offset = 0; offset <= 3 && offset < n + 3; offset += 3) {
					exec_mul_add(&c, out, n + 3, in, offset, n, k, 0, NULL, NULL);
					exec_mul_add(&c, out, n + 3, in, offset, n, k, 1, NULL, NULL);
				}
				break;
			}
			case LF_K_bi_square_to_len:
				fill32be(in, n, p, &rng);
				exec_square_to_len(&c, in, n, NULL);
				break;
			case LF_K_mpn_mul: {
				/* lf_mpn_mul takes either order and lengths 0 */
				size_t m = lens[(li * 7 + (size_t)rep * 3) % NLEN(lens)];
				fill64(a, n, p, &rng);
				fill64(r, m, p, &rng);
				exec_mul(&c, a, n, r, m, 0, NULL);
				exec_mul(&c, r, m, a, n, 0, NULL);
				exec_mul(&c, a, n, NULL, n, 1, NULL);
				break;
			}
			case LF_K_bi_multiply_to_len: {
				size_t m = lens[(li * 7 + (size_t)rep * 3) % NLEN(lens)];
				fill32be(in, n, p, &rng);
				fill32be(out, m, p, &rng);
				exec_multiply_to_len(&c, in, n, out, m, 0, NULL);
				exec_multiply_to_len(&c, out, m, in, n, 0, NULL);
				exec_multiply_to_len(&c, in, n, NULL, n, 1, NULL);
				break;
			}
			case LF_K_mpn_montmul: {
				/* a random odd modulus (all ones for rep 1), operands below it */
				uint64_t N[513];
				fill64(N, n, p == PAT_ONES ? PAT_ONES : PAT_RANDOM, &rng);
				if (n) {
					N[0] |= 1;
					N[n - 1] |= n == 1 ? 2 : 1;
				}
				fill64(a, n, p, &rng);
				fill64(r, n, PAT_RANDOM, &rng);
				if (n) {
					or_mod(a, a, N, n);
					or_mod(r, r, N, n);
				}
				exec_montmul(&c, a, r, N, n, 0, NULL, NULL);
				exec_montmul(&c, a, NULL, N, n, 1, NULL, NULL);
				break;
			}
			case LF_K_p256_mul_mont:
			case LF_K_p256_sqr_mont: {
				/* 4 limbs; n picks the aliasing; operands of the pattern mod p */
				fill64(a, 4, p, &rng);
				fill64(r, 4, PAT_RANDOM, &rng);
				or_p256_mod(a, a);
				or_p256_mod(r, r);
				exec_p256(&c, t->kid == LF_K_p256_sqr_mont, a, r,
				          (enum p256_alias)(n % P256_NALIAS), NULL, NULL);
				break;
			}
			case LF_K_p256_mont_mult:
			case LF_K_p256_mont_square:
			case LF_K_p256_mont_mult_x8: {
				/* 5 limbs of 52 bits (x8: 40); n picks the aliasing; operands of the
				 * pattern cut to 52 bits, mod p */
				int64_t ea[40], eb[40];
				for (size_t l = 0; l < 40; l += 5) {
					fill64(a, 5, p, &rng);
					fill64(r, 5, PAT_RANDOM, &rng);
					or_p256m_mod(ea + l, a);
					or_p256m_mod(eb + l, r);
				}
				if (t->kid == LF_K_p256_mont_mult_x8)
					exec_p256m_x8(&c, ea, eb, (enum p256_alias)(n % P256_NALIAS), NULL,
					              NULL);
				else
					exec_p256m(&c, t->kid == LF_K_p256_mont_square, ea, eb,
					           (enum p256_alias)(n % P256_NALIAS), NULL, NULL);
				break;
			}
			case LF_K_conditional_assign:
				fill64(a, n, p, &rng);
				fill64(r, n, PAT_RANDOM, &rng);
				exec_assign(&c, (int)((n + (size_t)rep) & 1), (int64_t *)a, (int64_t *)r, n,
				            0);
				break;
			case LF_K_fe_c25519_r51_mul_x4: {
				/* four lanes: the pattern cut to 52 bits in lane n % 4, edges and
				 * random elements in the others; n picks the aliasing */
				int64_t xa[X4_LIMBS], xb[X4_LIMBS], e[5];
				uint64_t w[5];
				for (int l = 0; l < 4; l++) {
					x4_elem(e, (enum x4_elem)((n + (size_t)l) % X4_NELEM), &rng);
					x4_put(xa, l, e);
					x4_elem(e, rep ? X4_RAND : X4_RAND_P, &rng);
					x4_put(xb, l, e);
				}
				fill64(w, 5, p, &rng);
				for (int i = 0; i < 5; i++)
					e[i] = (int64_t)(w[i] & ((UINT64_C(1) << 52) - 1));
				x4_put(xa, (int)(n % 4), e);
				exec_x4(&c, xa, xb, (enum p256_alias)(n % P256_NALIAS), NULL);
				break;
			}
			default: {
				/* field products: one element; n picks the aliasing; operands of the
				 * pattern cut to digits, or random limbs within M */
				const struct fe_kernel *fk = fe_kernel(t->kid);
				int64_t ea[LF_TEST_FE_MAXLIMBS], eb[LF_TEST_FE_MAXLIMBS];
				ck_assert_msg(fk != NULL, "no API cases for %s", t->k->name);
				fe_pattern(fk, ea, p, &rng);
				fe_elem(fk, eb, rep ? FE_RAND_M : FE_RAND_P, &rng);
				exec_fe(&c, fk, ea, eb, (enum p256_alias)(n % P256_NALIAS), NULL);
				break;
			}
			}
		}
	}
}

static void api_variant(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	ck_assert_msg(lf_impl_force(t->k->name, t->v->name) == 0,
	              "lf_impl_force(\"%s\", \"%s\") failed for a runnable variant", t->k->name,
	              t->v->name);
	const char *cur = lf_impl(t->k->name);
	ck_assert_msg(cur && strcmp(cur, t->v->name) == 0, "after forcing %s, lf_impl says %s",
	              t->label, cur ? cur : "NULL");
	run_cases(t, "public API, variant forced");
	/* still the forced one after the calls */
	cur = lf_impl(t->k->name);
	ck_assert_msg(cur && strcmp(cur, t->v->name) == 0, "forced %s, later lf_impl says %s",
	              t->label, cur ? cur : "NULL");
	ck_assert_int_eq(lf_impl_force(t->k->name, NULL), 0);
}

/* With no force: the dispatcher's own choice, whichever it is, through the public API. */
static void api_default(enum lf_kernel_id kid)
{
	const char *name = lf_impl(lf_kernel_table[kid].name);
	ck_assert_msg(name != NULL, "lf_impl(%s) = NULL", lf_kernel_table[kid].name);
	for (size_t i = 0; i < tv_runnable_count(kid); i++) {
		const struct tvar *t = tv_runnable(kid, i);
		if (strcmp(t->v->name, name) == 0) {
			run_cases(t, "public API, dispatcher's choice");
			return;
		}
	}
	ck_abort_msg("dispatcher chose %s/%s, which is not runnable here", lf_kernel_table[kid].name,
	             name);
}

static void restore_all(void)
{
	for (int kid = 0; kid < LF_K_COUNT; kid++)
		lf_impl_force(lf_kernel_table[kid].name, NULL);
}

#define API_TESTS(kernel)                                                                   \
	START_TEST(test_api_##kernel) { api_variant(LF_K_##kernel, _i); }                   \
	END_TEST                                                                            \
	START_TEST(test_api_default_##kernel) { api_default(LF_K_##kernel); }               \
	END_TEST

API_TESTS(mpn_mul_1)
API_TESTS(mpn_addmul_1)
API_TESTS(mpn_sqr)
API_TESTS(bi_mul_add)
API_TESTS(bi_square_to_len)
API_TESTS(poly1305_blocks)
API_TESTS(mpn_mul)
API_TESTS(mpn_montmul)
API_TESTS(bi_multiply_to_len)
API_TESTS(p256_mul_mont)
API_TESTS(p256_sqr_mont)
API_TESTS(conditional_assign)
API_TESTS(p256_mont_mult)
API_TESTS(p256_mont_square)
API_TESTS(p256_mont_mult_x8)
#define FE_API_TESTS(field, limbs, op) API_TESTS(fe_##field##_##op)
LF_TEST_FE_KERNELS(FE_API_TESTS)
#undef FE_API_TESTS
API_TESTS(fe_c25519_r51_mul_x4)
API_TESTS(x25519_ladder)
API_TESTS(x448_ladder)

Suite *suite_api(void)
{
	Suite *s = suite_create("api");
	TCase *tc = tcase_create("forced_and_default");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	/* no-fork mode (qemu) shares one process: undo every force, even after a failure */
	tcase_add_checked_fixture(tc, restore_all, restore_all);
#define ADD(kernel)                                                                         \
	tcase_add_loop_test(tc, test_api_##kernel, 0, (int)tv_runnable_count(LF_K_##kernel)); \
	tcase_add_test(tc, test_api_default_##kernel)
	ADD(mpn_mul_1);
	ADD(mpn_addmul_1);
	ADD(mpn_sqr);
	ADD(bi_mul_add);
	ADD(bi_square_to_len);
	ADD(poly1305_blocks);
	ADD(mpn_mul);
	ADD(mpn_montmul);
	ADD(bi_multiply_to_len);
	ADD(p256_mul_mont);
	ADD(p256_sqr_mont);
	ADD(conditional_assign);
	ADD(p256_mont_mult);
	ADD(p256_mont_square);
	ADD(p256_mont_mult_x8);
#define FE_ADD(field, limbs, op) ADD(fe_##field##_##op);
	LF_TEST_FE_KERNELS(FE_ADD)
#undef FE_ADD
	ADD(fe_c25519_r51_mul_x4);
	ADD(x25519_ladder);
	ADD(x448_ladder);
#undef ADD
	suite_add_tcase(s, tc);
	return s;
}
