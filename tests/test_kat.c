/*
 * test_kat.c -- known answers: vectors computed with Python integers
 * (tests/kat/gen_vectors.py, regenerated into build/<arch>/kat/ by `make test`) and a few
 * products worked out by hand, for every runnable variant of every kernel.
 *
 * Faults this is designed to catch:
 *   - a kernel that is wrong in the same way as GMP is used (it is not: the Python vectors
 *     are a second, unrelated oracle, and the "oracles" case checks GMP against them);
 *   - misreading the JDK contracts: the mulAdd window addressed from the end of `out`,
 *     the returned overflow word, BE word order, the 2*len-word square;
 *   - wrong answers at the lengths and patterns of the vectors (0..40, 64, 65, 127..130,
 *     256, 513 words/limbs; random, all ones, lattice, top-bit-only, 0x7f..f; in place);
 *     products of every pair up to 12 x 12 limbs/words and (127,1), (1,127), (300,79),
 *     (79,300); Montgomery products for n = 1..17, 31..33, 48, 63..65, 128 limbs over random,
 *     all-ones (a = b = N-1), 2^(64n) - small and 1 mod 2^32 moduli (fully reduced), and by
 *     hand a product that lands exactly on N (result 0);
 *   - field products (fe_<field>_mul/square): every pair of edge elements of each field
 *     (0, 1, p-1, p, p+1, 2^power-1, limbs at the top of M, ...) and random pairs, the
 *     answer a b mod p from Python, the result compared mod p and its limbs with the stated
 *     output bound; r == a == b for the a == b vectors, r == b for every third other;
 *   - fe_c25519_r51_mul_x4: groups of four products of edge elements with limbs below 2^52
 *     and random groups, each lane against Python's a b mod p, limbs within the stated bound;
 *   - x25519_ladder / x448_ladder: RFC 7748's ladder on Python integers over edge u (0, 1,
 *     p - 1, p, >= p, limbs at 2^radix, small order) and edge / random clamped scalars, the
 *     result (x2 : z2) compared projectively and as x2 / z2 (tests/harness/xdh.c).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "kat_vectors.h"
#include "fe_kernels.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static struct exec_ctx ctx(const struct tvar *t, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, COV_KAT, GB_MID, 0, what };
	return c;
}

/* ---- hand-checked answers ---------------------------------------------------------------
 * (2^64-1)^2 = 2^128 - 2^65 + 1                        -> limbs {1, 2^64-2}
 * (2^64-1)^2 + (2^64-1) = 2^128 - 2^64                 -> limbs {0, 2^64-1}
 * (2^128-1)^2 = 2^256 - 2^129 + 1                      -> limbs {1, 0, 2^64-2, 2^64-1}
 * (2^32-1) + (2^32-1)^2 = 2^64 - 2^32 = (2^32-1)*2^32  -> window {0}, overflow 2^32-1
 * (2^32-1)^2 = 2^64 - 2^33 + 1                         -> BE words {0xfffffffe, 1}
 * (2^32)^2 = 2^64                                      -> BE words {0, 1, 0, 0}  */
static void hand_mpn(const struct tvar *t)
{
	const uint64_t M = UINT64_MAX;
	if (t->kid == LF_K_mpn_mul_1) {
		const uint64_t a[2] = { M, M }, e1[1] = { 1 }, r1 = M - 1;
		const uint64_t e2[2] = { 1, M }, r2 = M - 1; /* (2^128-1)(2^64-1) = 2^192-2^128-2^64+1 */
		const uint64_t a3[2] = { 0, 1 }, e3[2] = { 0, UINT64_C(1) << 63 }, r3 = 0;
		struct exec_ctx c = ctx(t, "hand: (2^64-1)*(2^64-1)");
		exec_mul1(&c, 0, a, NULL, 1, M, 0, e1, &r1);
		c.what = "hand: (2^128-1)*(2^64-1)";
		exec_mul1(&c, 0, a, NULL, 2, M, 0, e2, &r2);
		c.what = "hand: 2^64 * 2^63";
		exec_mul1(&c, 0, a3, NULL, 2, UINT64_C(1) << 63, 0, e3, &r3);
	} else if (t->kid == LF_K_mpn_addmul_1) {
		const uint64_t a[1] = { M }, r[1] = { M }, e[1] = { 0 }, ret = M;
		const uint64_t a2[2] = { M, M }, r2[2] = { M, M }, e2[2] = { 0, M }, ret2 = M;
		/* (2^128-1)(2^64-1) + 2^128-1 = (2^128-1) 2^64 = 2^192 - 2^64 -> {0, M}, ret M */
		struct exec_ctx c = ctx(t, "hand: (2^64-1) + (2^64-1)^2");
		exec_mul1(&c, 1, a, r, 1, M, 0, e, &ret);
		c.what = "hand: (2^128-1) + (2^128-1)*(2^64-1)";
		exec_mul1(&c, 1, a2, r2, 2, M, 0, e2, &ret2);
	} else if (t->kid == LF_K_mpn_mul) {
		/* (2^64-1)(2^64-1) = {1, 2^64-2}; (2^128-1)(2^64-1) = 2^192-2^128-2^64+1 */
		const uint64_t a[2] = { M, M }, e1[2] = { 1, M - 1 }, e2[3] = { 1, M, M - 1 };
		const uint64_t a3[2] = { 0, 1 }, b3[1] = { UINT64_C(1) << 63 };
		const uint64_t e3[3] = { 0, UINT64_C(1) << 63, 0 };          /* 2^64 * 2^63 */
		struct exec_ctx c = ctx(t, "hand: (2^64-1)*(2^64-1)");
		exec_mul(&c, a, 1, a, 1, 0, e1);
		c.what = "hand: (2^128-1)*(2^64-1)";
		exec_mul(&c, a, 2, a, 1, 0, e2);
		c.what = "hand: 2^64 * 2^63";
		exec_mul(&c, a3, 2, b3, 1, 0, e3);
	} else if (t->kid == LF_K_mpn_montmul) {
		/* N = 2^64-1 (R = 2^64 = 1 mod N), a = b = N-1 = -1: (-1)(-1)/1 = 1 mod N;
		 * N = 3: R = 2^64 = 1 mod 3, 2*2 = 4 = 1 mod 3;
		 * N = 2^128-1, a = 2^64 (= R^(1/2)), b = 2^64: 2^128 / 2^128 = 1;
		 * N = p q with a = p, b = q: a b = N = 0 mod N, the value lands on N first */
		const uint64_t N1[1] = { M }, a1[1] = { M - 1 }, one[2] = { 1, 0 };
		const uint64_t N2[1] = { 3 }, a2[1] = { 2 };
		const uint64_t N3[2] = { M, M }, a3[2] = { 0, 1 };
		const uint64_t N4[1] = { UINT64_C(0xfffffffb) * UINT64_C(0xffffffef) };
		const uint64_t p4[1] = { UINT64_C(0xfffffffb) }, q4[1] = { UINT64_C(0xffffffef) };
		const uint64_t zero[1] = { 0 };
		struct exec_ctx c = ctx(t, "hand: N = 2^64-1, a = b = N-1");
		exec_montmul(&c, a1, a1, N1, 1, 0, one, NULL);
		c.what = "hand: N = 3, a = b = 2";
		exec_montmul(&c, a2, NULL, N2, 1, 1, one, NULL);
		c.what = "hand: N = 2^128-1, a = b = 2^64";
		exec_montmul(&c, a3, a3, N3, 2, 0, one, NULL);
		c.what = "hand: N = p q, a = p, b = q (lands on N: result 0)";
		exec_montmul(&c, p4, q4, N4, 1, 0, zero, NULL);
	} else if (t->kid == LF_K_mpn_sqr) {
		const uint64_t a[2] = { M, M }, e1[2] = { 1, M - 1 }, e2[4] = { 1, 0, M - 1, M };
		const uint64_t a3[2] = { 0, 1 }, e3[4] = { 0, 0, 1, 0 };
		struct exec_ctx c = ctx(t, "hand: (2^64-1)^2");
		exec_sqr(&c, a, 1, e1);
		c.what = "hand: (2^128-1)^2";
		exec_sqr(&c, a, 2, e2);
		c.what = "hand: (2^64)^2";
		exec_sqr(&c, a3, 2, e3);
	}
}

static void hand_bigint(const struct tvar *t)
{
	if (t->kid == LF_K_bi_mul_add) {
		const uint32_t out[3] = { 7, 0xffffffffu, 9 }, in[1] = { 0xffffffffu };
		const uint32_t e[3] = { 7, 0, 9 }, ret = 0xffffffffu;
		/* window = out[1] (out_len 3, offset 1): (2^32-1) + (2^32-1)^2 */
		struct exec_ctx c = ctx(t, "hand: (2^32-1) + (2^32-1)^2, window in the middle");
		exec_mul_add(&c, out, 3, in, 1, 1, 0xffffffffu, 0, e, &ret);
		/* out = {1, 2, 3}, window = last two words {2, 3} = 2*2^32 + 3; in {0, 5}: 5*k, k=2
		 * -> 2*2^32 + 13 = {2, 13}, overflow 0; out[0] untouched */
		const uint32_t out2[3] = { 1, 2, 3 }, in2[2] = { 0, 5 }, e2[3] = { 1, 2, 13 }, ret2 = 0;
		c.what = "hand: {2,3} + {0,5}*2 at the end of out";
		exec_mul_add(&c, out2, 3, in2, 0, 2, 2, 0, e2, &ret2);
	} else if (t->kid == LF_K_bi_multiply_to_len) {
		/* (2^32-1)^2 = {0xfffffffe, 1}; 2^32 * 3 = {0, 3, 0}; (2^64-1)(2^32-1) */
		const uint32_t x1[1] = { 0xffffffffu }, z1[2] = { 0xfffffffeu, 1 };
		const uint32_t x2[2] = { 1, 0 }, y2[1] = { 3 }, z2[3] = { 0, 3, 0 };
		const uint32_t x3[2] = { 0xffffffffu, 0xffffffffu };
		const uint32_t z3[3] = { 0xfffffffeu, 0xffffffffu, 1 };
		struct exec_ctx c = ctx(t, "hand: (2^32-1)^2, x == y");
		exec_multiply_to_len(&c, x1, 1, NULL, 1, 1, z1);
		c.what = "hand: 2^32 * 3";
		exec_multiply_to_len(&c, x2, 2, y2, 1, 0, z2);
		c.what = "hand: (2^64-1)(2^32-1)";
		exec_multiply_to_len(&c, x3, 2, x1, 1, 0, z3);
		exec_multiply_to_len(&c, x1, 1, x3, 2, 0, z3);
	} else if (t->kid == LF_K_bi_square_to_len) {
		const uint32_t x1[1] = { 0xffffffffu }, z1[2] = { 0xfffffffeu, 1 };
		const uint32_t x2[2] = { 1, 0 }, z2[4] = { 0, 1, 0, 0 };
		struct exec_ctx c = ctx(t, "hand: (2^32-1)^2");
		exec_square_to_len(&c, x1, 1, z1);
		c.what = "hand: (2^32)^2";
		exec_square_to_len(&c, x2, 2, z2);
	}
}

/* ---- Python vectors --------------------------------------------------------------------- */
static void kat_vectors(const struct tvar *t)
{
	size_t used = 0;
	switch (t->kid) {
	case LF_K_mpn_mul_1:
	case LF_K_mpn_addmul_1:
		for (size_t i = 0; i < NLEN(kat_mul1); i++) {
			const struct kat_mul1 *v = &kat_mul1[i];
			if (v->addmul != (t->kid == LF_K_mpn_addmul_1))
				continue;
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_mul1(&c, v->addmul, kat_limbs + v->a, kat_limbs + v->r_in, v->n, v->b, 0,
			          kat_limbs + v->r_out, &v->ret);
			used++;
		}
		break;
	case LF_K_mpn_sqr:
		for (size_t i = 0; i < NLEN(kat_sqr); i++) {
			const struct kat_sqr *v = &kat_sqr[i];
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_sqr(&c, kat_limbs + v->a, v->n, kat_limbs + v->r);
			used++;
		}
		break;
	case LF_K_bi_mul_add:
		for (size_t i = 0; i < NLEN(kat_mul_add); i++) {
			const struct kat_mul_add *v = &kat_mul_add[i];
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_mul_add(&c, kat_words + v->out_in, v->out_len, kat_words + v->in, v->offset,
			             v->len, v->k, v->inplace, kat_words + v->out_out, &v->ret);
			used++;
		}
		break;
	case LF_K_bi_square_to_len:
		for (size_t i = 0; i < NLEN(kat_square); i++) {
			const struct kat_square *v = &kat_square[i];
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_square_to_len(&c, kat_words + v->x, v->len, kat_words + v->z);
			used++;
		}
		break;
	case LF_K_mpn_mul:
		for (size_t i = 0; i < NLEN(kat_mul); i++) {
			const struct kat_mul *v = &kat_mul[i];
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_mul(&c, kat_limbs + v->a, v->an, kat_limbs + v->b, v->bn, 0,
			         kat_limbs + v->r);
			used++;
		}
		break;
	case LF_K_mpn_montmul:
		for (size_t i = 0; i < NLEN(kat_montmul); i++) {
			const struct kat_montmul *v = &kat_montmul[i];
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_montmul(&c, kat_limbs + v->a, kat_limbs + v->b, kat_limbs + v->N, v->n, 0,
			             kat_limbs + v->r, NULL);
			used++;
		}
		break;
	case LF_K_bi_multiply_to_len:
		for (size_t i = 0; i < NLEN(kat_mtl); i++) {
			const struct kat_mtl *v = &kat_mtl[i];
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_multiply_to_len(&c, kat_words + v->x, v->xlen, kat_words + v->y, v->ylen,
			                     v->same, kat_words + v->z);
			used++;
		}
		break;
	case LF_K_p256_mul_mont:
	case LF_K_p256_sqr_mont:
		for (size_t i = 0; i < NLEN(kat_p256); i++) {
			const struct kat_p256 *v = &kat_p256[i];
			int sqr = t->kid == LF_K_p256_sqr_mont;
			if (sqr && !v->sqr)
				continue;
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_p256(&c, sqr, kat_limbs + v->a, kat_limbs + v->b, P256_SEP,
			          kat_limbs + v->r, NULL);
			used++;
		}
		break;
	case LF_K_p256_mont_mult:
	case LF_K_p256_mont_square:
		for (size_t i = 0; i < NLEN(kat_p256m); i++) {
			const struct kat_p256 *v = &kat_p256m[i];
			int sqr = t->kid == LF_K_p256_mont_square;
			if (sqr && !v->sqr)
				continue;
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_p256m(&c, sqr, (const int64_t *)kat_limbs + v->a,
			           (const int64_t *)kat_limbs + v->b, P256_SEP,
			           (const int64_t *)kat_limbs + v->r, NULL);
			used++;
		}
		break;
	case LF_K_p256_mont_mult_x8:
		/* vectors 8 at a time, vector 8g + k in lane k */
		for (size_t g = 0; g + 8 <= NLEN(kat_p256m); g += 8) {
			int64_t a[40], b[40], r[40];
			for (size_t k = 0; k < 8; k++) {
				const struct kat_p256 *v = &kat_p256m[g + k];
				memcpy(a + 5 * k, kat_limbs + v->a, 40);
				memcpy(b + 5 * k, kat_limbs + v->b, 40);
				memcpy(r + 5 * k, kat_limbs + v->r, 40);
			}
			struct exec_ctx c = ctx(t, kat_p256m[g].what);
			c.place = (g & 8) ? GB_END : GB_MID;
			exec_p256m_x8(&c, a, b, P256_SEP, r, NULL);
			used++;
		}
		break;
	case LF_K_conditional_assign:
		for (size_t i = 0; i < NLEN(kat_assign); i++) {
			const struct kat_assign *v = &kat_assign[i];
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			uint64_t *a = xmalloc(v->n * 8);
			memcpy(a, kat_limbs + v->a, v->n * 8);
			exec_assign(&c, v->set, (const int64_t *)a, (const int64_t *)(kat_limbs + v->b),
			            v->n, 0);
			ck_assert_msg(memcmp(kat_limbs + (v->set ? v->b : v->a), kat_limbs + v->r,
			                     v->n * 8) == 0, "test bug: assign vector %s", v->what);
			free(a);
			used++;
		}
		break;
	case LF_K_fe_c25519_r51_mul_x4: {
		/* groups of four products (tests/kat/gen_ladder.py), every lane compared mod p with
		 * Python's answer, every limb within the stated bound; r == a == b for a == b
		 * groups, r == b for every third other */
		const struct kat_x4 *vs;
		const int64_t *xl;
		size_t nv = x4_kat(&vs, &xl);
		for (size_t i = 0; i < nv; i++) {
			struct exec_ctx c = ctx(t, vs[i].what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_x4(&c, xl + vs[i].a, xl + vs[i].b,
			        vs[i].same ? P256_ALL : i % 3 ? P256_SEP : P256_RB, xl + vs[i].r);
			used++;
		}
		break;
	}
	case LF_K_x25519_ladder:
	case LF_K_x448_ladder: {
		/* RFC 7748's ladder on Python integers (tests/kat/gen_ladder.py): (x2 : z2) and the
		 * affine answer; the RFC's own vectors are in the xdh suite */
		const struct xdh_ladder *L = xdh_ladder(t->kid);
		size_t nv;
		const int64_t *xl;
		const uint8_t *xb;
		const struct kat_lad *vs = xdh_kat(L, &nv, &xl, &xb);
		for (size_t i = 0; i < nv; i++) {
			struct exec_ctx c = ctx(t, vs[i].what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_ladder(&c, L, xb + vs[i].k, xl + vs[i].u, xl + vs[i].x2, xl + vs[i].z2,
			            xl + vs[i].aff);
			used++;
		}
		break;
	}
	default: {
		/* the field products: the field's Python vectors (tests/kat/gen_fe.py), the
		 * result compared mod p with the canonical answer, every limb within its bound */
		const struct fe_kernel *fk = fe_kernel(t->kid);
		if (!fk)
			break;
		size_t nv;
		const int64_t *fl;
		const struct kat_fe *vs = fe_kat(fk, &nv, &fl);
		for (size_t i = 0; i < nv; i++) {
			const struct kat_fe *v = &vs[i];
			if (fk->sqr && !v->sqr)
				continue;
			struct exec_ctx c = ctx(t, v->what);
			c.place = (i & 1) ? GB_END : GB_MID;
			exec_fe(&c, fk, fl + v->a, fl + v->b,
			        v->sqr ? P256_ALL : i % 3 ? P256_SEP : P256_RB, fl + v->r);
			used++;
		}
		break;
	}
	}
	ck_assert_msg(used > 0, "%s: no known-answer vectors for this kernel", t->label);
}

#define KAT_TEST(kernel)                                                                    \
	START_TEST(test_kat_##kernel)                                                       \
	{                                                                                   \
		const struct tvar *t = tv_runnable(LF_K_##kernel, (size_t)_i);              \
		hand_mpn(t);                                                                \
		hand_bigint(t);                                                             \
		kat_vectors(t);                                                             \
	}                                                                                   \
	END_TEST

KAT_TEST(mpn_mul_1)
KAT_TEST(mpn_addmul_1)
KAT_TEST(mpn_sqr)
KAT_TEST(bi_mul_add)
KAT_TEST(bi_square_to_len)
KAT_TEST(mpn_mul)
KAT_TEST(mpn_montmul)
KAT_TEST(bi_multiply_to_len)
KAT_TEST(p256_mul_mont)
KAT_TEST(p256_sqr_mont)
KAT_TEST(conditional_assign)
KAT_TEST(p256_mont_mult)
KAT_TEST(p256_mont_square)
KAT_TEST(p256_mont_mult_x8)
#define FE_KAT_TEST(field, limbs, op) KAT_TEST(fe_##field##_##op)
LF_TEST_FE_KERNELS(FE_KAT_TEST)
#undef FE_KAT_TEST
KAT_TEST(fe_c25519_r51_mul_x4)
KAT_TEST(x25519_ladder)
KAT_TEST(x448_ladder)

/* The two oracles must agree with each other on every vector; if GMP (or the way the
 * harness drives it) disagreed with Python, every differential test would be suspect. */
START_TEST(test_oracles_agree)
{
	size_t checked = 0;
	for (size_t i = 0; i < NLEN(kat_mul1); i++) {
		const struct kat_mul1 *v = &kat_mul1[i];
		uint64_t *r = xmalloc(v->n * 8 + 8);
		memcpy(r, kat_limbs + v->r_in, v->n * 8);
		uint64_t ret = v->addmul ? or_addmul_1(r, kat_limbs + v->a, v->n, v->b)
		                         : or_mul_1(r, kat_limbs + v->a, v->n, v->b);
		ck_assert_msg(ret == v->ret && memcmp(r, kat_limbs + v->r_out, v->n * 8) == 0,
		              "GMP disagrees with Python on %s n=%zu (%s)",
		              v->addmul ? "addmul_1" : "mul_1", v->n, v->what);
		free(r);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_sqr); i++) {
		const struct kat_sqr *v = &kat_sqr[i];
		uint64_t *r = xmalloc(v->n * 16 + 8);
		or_sqr(r, kat_limbs + v->a, v->n);
		ck_assert_msg(memcmp(r, kat_limbs + v->r, v->n * 16) == 0,
		              "GMP disagrees with Python on sqr n=%zu (%s)", v->n, v->what);
		free(r);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_mul_add); i++) {
		const struct kat_mul_add *v = &kat_mul_add[i];
		uint32_t *o = xmalloc(v->out_len * 4 + 4);
		memcpy(o, kat_words + v->out_in, v->out_len * 4);
		uint32_t ret = or_mul_add(o, v->out_len, kat_words + v->in, v->offset, v->len, v->k);
		ck_assert_msg(ret == v->ret && memcmp(o, kat_words + v->out_out, v->out_len * 4) == 0,
		              "mpz oracle disagrees with Python on mul_add len=%zu (%s)", v->len,
		              v->what);
		free(o);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_square); i++) {
		const struct kat_square *v = &kat_square[i];
		uint32_t *z = xmalloc(v->len * 8 + 4);
		or_square_to_len(kat_words + v->x, v->len, z);
		ck_assert_msg(memcmp(z, kat_words + v->z, v->len * 8) == 0,
		              "mpz oracle disagrees with Python on square_to_len len=%zu (%s)",
		              v->len, v->what);
		free(z);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_mul); i++) {
		const struct kat_mul *v = &kat_mul[i];
		uint64_t *r = xmalloc((v->an + v->bn) * 8);
		or_mul(r, kat_limbs + v->a, v->an, kat_limbs + v->b, v->bn);
		ck_assert_msg(memcmp(r, kat_limbs + v->r, (v->an + v->bn) * 8) == 0,
		              "GMP disagrees with Python on mul %zux%zu (%s)", v->an, v->bn, v->what);
		free(r);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_montmul); i++) {
		const struct kat_montmul *v = &kat_montmul[i];
		uint64_t *r = xmalloc(v->n * 8);
		or_montmul(r, kat_limbs + v->a, kat_limbs + v->b, kat_limbs + v->N, v->n, NULL);
		ck_assert_msg(memcmp(r, kat_limbs + v->r, v->n * 8) == 0,
		              "mpz oracle disagrees with Python on montmul n=%zu (%s)", v->n, v->what);
		ck_assert_msg(or_neg_inv64(kat_limbs[v->N]) == v->n0inv,
		              "mpz n0inv disagrees with Python, n=%zu (%s)", v->n, v->what);
		free(r);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_mtl); i++) {
		const struct kat_mtl *v = &kat_mtl[i];
		uint32_t *z = xmalloc((v->xlen + v->ylen) * 4);
		or_multiply_to_len(kat_words + v->x, v->xlen, kat_words + v->y, v->ylen, z);
		ck_assert_msg(memcmp(z, kat_words + v->z, (v->xlen + v->ylen) * 4) == 0,
		              "mpz oracle disagrees with Python on multiply_to_len %zux%zu (%s)",
		              v->xlen, v->ylen, v->what);
		free(z);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_p256); i++) {
		const struct kat_p256 *v = &kat_p256[i];
		uint64_t r[4];
		or_p256_mont(r, kat_limbs + v->a, kat_limbs + v->b, NULL);
		ck_assert_msg(memcmp(r, kat_limbs + v->r, 32) == 0,
		              "mpz oracle disagrees with Python on p256_mul_mont (%s)", v->what);
		checked++;
	}
	for (size_t i = 0; i < NLEN(kat_p256m); i++) {
		const struct kat_p256 *v = &kat_p256m[i];
		int64_t r[5];
		or_p256m_mont(r, (const int64_t *)kat_limbs + v->a, (const int64_t *)kat_limbs + v->b,
		              NULL);
		ck_assert_msg(memcmp(r, kat_limbs + v->r, 40) == 0,
		              "mpz oracle disagrees with Python on p256_mont_mult (%s)", v->what);
		checked++;
	}
	for (size_t k = 0; k < fe_count(); k++) {
		const struct fe_kernel *fk = fe_at(k);
		size_t nv;
		const int64_t *fl;
		const struct kat_fe *vs = fe_kat(fk, &nv, &fl);
		ck_assert_msg(nv > 0, "no Python vectors for %s", fk->name);
		for (size_t i = 0; i < nv; i++) {
			const struct kat_fe *v = &vs[i];
			int64_t r[LF_TEST_FE_MAXLIMBS];
			if (fk->sqr && !v->sqr)
				continue;
			or_fe_mul(fk, r, fl + v->a, fl + v->b);
			ck_assert_msg(memcmp(r, fl + v->r, fk->limbs * 8) == 0,
			              "mpz oracle disagrees with Python on %s (%s)", fk->name, v->what);
			checked++;
		}
	}
	/* the mpz ladder and a b mod p of tests/harness/xdh.c against Python's */
	for (size_t k = 0; k < xdh_count(); k++) {
		const struct xdh_ladder *L = xdh_at(k);
		size_t nv;
		const int64_t *xl;
		const uint8_t *xb;
		const struct kat_lad *vs = xdh_kat(L, &nv, &xl, &xb);
		ck_assert_msg(nv > 0, "no Python vectors for %s", L->name);
		for (size_t i = 0; i < nv; i++) {
			int64_t X[9], Z[9], A[9];
			or_xdh_ladder(L, X, Z, A, xb + vs[i].k, xl + vs[i].u);
			ck_assert_msg(memcmp(X, xl + vs[i].x2, L->limbs * 8) == 0 &&
			              memcmp(Z, xl + vs[i].z2, L->limbs * 8) == 0 &&
			              memcmp(A, xl + vs[i].aff, L->limbs * 8) == 0,
			              "mpz ladder disagrees with Python on %s (%s)", L->name,
			              vs[i].what);
			checked++;
		}
	}
	{
		const struct kat_x4 *vs;
		const int64_t *xl;
		size_t nv = x4_kat(&vs, &xl);
		for (size_t i = 0; i < nv; i++) {
			int64_t r[X4_LIMBS];
			or_x4(r, xl + vs[i].a, xl + vs[i].b);
			ck_assert_msg(memcmp(r, xl + vs[i].r, sizeof r) == 0, "mpz oracle disagrees "
			              "with Python on fe_c25519_r51_mul_x4 (%s)", vs[i].what);
			checked++;
		}
	}
	ck_assert_msg(checked > 500, "only %zu vectors: is kat_vectors.h truncated?", checked);
}
END_TEST

Suite *suite_kat(void)
{
	Suite *s = suite_create("kat");
	TCase *tc = tcase_create("oracles");
	tcase_add_test(tc, test_oracles_agree);
	suite_add_tcase(s, tc);

	tc = tcase_create("known_answers");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_loop_test(tc, test_kat_mpn_mul_1, 0, (int)tv_runnable_count(LF_K_mpn_mul_1));
	tcase_add_loop_test(tc, test_kat_mpn_addmul_1, 0, (int)tv_runnable_count(LF_K_mpn_addmul_1));
	tcase_add_loop_test(tc, test_kat_mpn_sqr, 0, (int)tv_runnable_count(LF_K_mpn_sqr));
	tcase_add_loop_test(tc, test_kat_bi_mul_add, 0, (int)tv_runnable_count(LF_K_bi_mul_add));
	tcase_add_loop_test(tc, test_kat_bi_square_to_len, 0,
	                    (int)tv_runnable_count(LF_K_bi_square_to_len));
	tcase_add_loop_test(tc, test_kat_mpn_mul, 0, (int)tv_runnable_count(LF_K_mpn_mul));
	tcase_add_loop_test(tc, test_kat_mpn_montmul, 0, (int)tv_runnable_count(LF_K_mpn_montmul));
	tcase_add_loop_test(tc, test_kat_bi_multiply_to_len, 0,
	                    (int)tv_runnable_count(LF_K_bi_multiply_to_len));
	tcase_add_loop_test(tc, test_kat_p256_mul_mont, 0,
	                    (int)tv_runnable_count(LF_K_p256_mul_mont));
	tcase_add_loop_test(tc, test_kat_p256_sqr_mont, 0,
	                    (int)tv_runnable_count(LF_K_p256_sqr_mont));
	tcase_add_loop_test(tc, test_kat_conditional_assign, 0,
	                    (int)tv_runnable_count(LF_K_conditional_assign));
	tcase_add_loop_test(tc, test_kat_p256_mont_mult, 0,
	                    (int)tv_runnable_count(LF_K_p256_mont_mult));
	tcase_add_loop_test(tc, test_kat_p256_mont_square, 0,
	                    (int)tv_runnable_count(LF_K_p256_mont_square));
	tcase_add_loop_test(tc, test_kat_p256_mont_mult_x8, 0,
	                    (int)tv_runnable_count(LF_K_p256_mont_mult_x8));
#define FE_KAT_ADD(field, limbs, op)                                                        \
	tcase_add_loop_test(tc, test_kat_fe_##field##_##op, 0,                               \
	                    (int)tv_runnable_count(LF_K_fe_##field##_##op));
	LF_TEST_FE_KERNELS(FE_KAT_ADD)
#undef FE_KAT_ADD
	tcase_add_loop_test(tc, test_kat_fe_c25519_r51_mul_x4, 0,
	                    (int)tv_runnable_count(LF_K_fe_c25519_r51_mul_x4));
	tcase_add_loop_test(tc, test_kat_x25519_ladder, 0,
	                    (int)tv_runnable_count(LF_K_x25519_ladder));
	tcase_add_loop_test(tc, test_kat_x448_ladder, 0, (int)tv_runnable_count(LF_K_x448_ladder));
	suite_add_tcase(s, tc);
	return s;
}
