/*
 * test_mpn_mul.c -- mpn_mul, every runnable variant called directly (kernel precondition
 * an >= bn), and lf_mpn_mul (any order, lengths 0) with each variant forced; differential
 * against GMP's mpn_mul.
 *
 * Faults this is designed to catch:
 *   - a row's carry limb stored at the wrong place or lost between rows (row j ends at
 *     rp[j+an]), a row added twice or skipped (every pair an, bn in 1..40 with an >= bn;
 *     (127,1), (300,79), (513,2), (256,256); an = 8k-1, 8k, 8k+1 around the x86 unroll and
 *     the a64 blocks against bn in {1,2,3,7,8,9});
 *   - a lost carry in a row or where the rows overlap: all-ones operands (every partial
 *     product and carry at its maximum), all ones with one limb 0, 1, 2^63 or 2^64-2 at
 *     every position of either operand, lattice limbs and whole-value patterns;
 *   - reads outside {ap,an} / {bp,bn} and writes outside {rp,an+bn} (guard pages on both
 *     sides, canaries), writes into ap or bp, an rp limb never written (rp starts as
 *     garbage: it need not be initialised);
 *   - alignment assumptions (every 8-byte offset mod 64 for all three buffers);
 *   - ap == bp (squaring through mul, allowed) read wrongly;
 *   - the IFMA variant (radix 2^52, x86_ifma_mul.py): a shape sent to the wrong path or mishandled
 *     at its limits (bn around ifma_min = 12, an around ifma_max = 128 in the default schedule),
 *     a digit window or row missed or counted twice where its groups of output blocks change
 *     size (mb = ceil(64 bn / 52) digits: 8 (G - 1) <= mb + 1) or where a ramp is skipped
 *     (8 k0 - mb + R <= -7, 8 k0 + 1 >= ma), the carry of a lane lost across blocks and groups:
 *     test_mul_ifma_shapes (an in 41..129 against bn from 11 to an, random, all ones, one
 *     limb of b or a zero in a sea of ones, top limbs all ones);
 *   - bn == 0 touching memory (NULL and PROT_NONE pointers; rp between canaries unchanged);
 *   - lf_mpn_mul: the operands not swapped when an < bn, or {rp,an+bn} not zeroed when a
 *     length is 0 (every pair 0..40 x 0..40, both orders, each variant forced);
 *   - lf_mpn_mul's Karatsuba layer (karatsuba.c, from LF_KARA_MIN limbs): a wrong sign of
 *     |a0 - a1| |b0 - b1|, a carry of the middle term lost at B^3h, an odd split, the
 *     unbalanced block loop (an >= 2 bn) adding a block at the wrong offset: balanced and
 *     unbalanced pairs around every recursion threshold, random, all ones, a0 < a1 and
 *     a0 > a1 (halves of ones and zeros), one operand zero, each variant forced; with the
 *     IFMA variant forced: pairs around its own threshold (LF_KARA_MUL_IFMA_MIN) and a longer
 *     than its range cut into blocks (a block's product added at the wrong offset, the short
 *     last block), bn just below and at LF_KARA_IFMA_BLOCK_BN; its Toom-3 (LF_TOOM3_MIN up,
 *     every kernel but IFMA): a wrong sign of the value at -1, an inexact division by 3 or 2, a
 *     coefficient added at the wrong power, the one-limb top third: pairs around the
 *     threshold and the balance limit bn = 2 ceil(an / 3), all ones (the largest values at
 *     2), thirds of zeros and ones making a0 - a1 + a2 negative for one operand or both.
 * rp must not overlap ap or bp (API), so there is no in-place test.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lf_karatsuba.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct tvar *var(int vi)
{
	return tv_runnable(LF_K_mpn_mul, (size_t)vi);
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

START_TEST(test_mul_lattice)
{
	const struct tvar *t = var(_i);
	static const size_t bns[] = { 1, 2, 3, 4, 5, 8, 9, 17, 40 };
	uint64_t a[129], b[129];
	rng_t rng;
	rng_init(&rng, t->label, 61);
	for (size_t an = 1; an <= 129; an += (an < 40 ? 1 : 44)) { /* 1..40, 41, 85, 129 */
		for (size_t bi = 0; bi < NLEN(bns) && bns[bi] <= an; bi++) {
			size_t bn = bns[bi];
			for (int rep = 0; rep < 3; rep++) {
				fill64(a, an, PAT_LATTICE, &rng);
				fill64(b, bn, PAT_LATTICE, &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, "edge-limb lattice");
				exec_mul(&c, a, an, b, bn, 0, NULL);
			}
			for (int p = 0; p < N_PAT; p++) {
				fill64(a, an, (enum pattern)p, &rng);
				fill64(b, bn, (enum pattern)((p + bi) % N_PAT), &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, pat_name((enum pattern)p));
				exec_mul(&c, a, an, b, bn, 0, NULL);
			}
		}
		fill64(a, an, PAT_LATTICE, &rng);
		struct exec_ctx c = ctx(t, COV_LATTICE, "lattice, ap == bp");
		exec_mul(&c, a, an, NULL, an, 1, NULL);
	}
}
END_TEST

START_TEST(test_mul_carries)
{
	const struct tvar *t = var(_i);
	static const uint64_t special[] = { 0, 1, UINT64_C(1) << 63, UINT64_MAX - 1 };
	static const size_t bns[] = { 1, 2, 3, 5, 8, 9, 16, 17 };
	uint64_t a[65], b[65];
	for (size_t an = 1; an <= 65; an += (an < 24 ? 1 : an < 31 ? 7 : an < 33 ? 1 : 16)) {
		for (size_t bi = 0; bi < NLEN(bns) && bns[bi] <= an; bi++) {
			size_t bn = bns[bi];
			struct exec_ctx c = ctx(t, COV_CARRY, "all ones");
			fill64(a, an, PAT_ONES, NULL);
			fill64(b, bn, PAT_ONES, NULL);
			exec_mul(&c, a, an, b, bn, 0, NULL);
			/* one special limb in a sea of ones, at every position of a, then of b */
			for (size_t s = 0; s < NLEN(special); s++) {
				c.what = "all ones but one limb of a in {0, 1, 2^63, 2^64-2}";
				for (size_t j = 0; j < an && (bn <= 2 || bn == 9); j++) {
					fill64(a, an, PAT_ONES, NULL);
					a[j] = special[s];
					exec_mul(&c, a, an, b, bn, 0, NULL);
				}
				fill64(a, an, PAT_ONES, NULL);
				c.what = "all ones but one limb of b in {0, 1, 2^63, 2^64-2}";
				for (size_t j = 0; j < bn; j++) {
					fill64(b, bn, PAT_ONES, NULL);
					b[j] = special[s];
					exec_mul(&c, a, an, b, bn, 0, NULL);
				}
				fill64(b, bn, PAT_ONES, NULL);
			}
		}
		fill64(a, an, PAT_ONES, NULL);
		struct exec_ctx c = ctx(t, COV_CARRY, "all ones, ap == bp");
		exec_mul(&c, a, an, NULL, an, 1, NULL);
	}
}
END_TEST

START_TEST(test_mul_lengths)
{
	const struct tvar *t = var(_i);
	static const size_t big[][2] = { { 127, 1 }, { 300, 79 }, { 513, 2 }, { 256, 256 },
		                         { 129, 128 }, { 1000, 3 } };
	static const size_t bns[] = { 1, 2, 3, 7, 8, 9 };
	uint64_t *a = xmalloc(1000 * 8), *b = xmalloc(1000 * 8);
	rng_t rng;
	rng_init(&rng, t->label, 62);
	/* every pair 1..40 x 1..an */
	for (size_t an = 1; an <= 40; an++) {
		for (size_t bn = 1; bn <= an; bn++) {
			struct exec_ctx c = ctx(t, COV_LENGTH, "every pair an >= bn in 1..40");
			fill64(a, an, PAT_RANDOM, &rng);
			fill64(b, bn, PAT_RANDOM, &rng);
			exec_mul(&c, a, an, b, bn, 0, NULL);
		}
	}
	/* 8k-1, 8k, 8k+1 up to 65 against short b */
	for (size_t k = 1; k <= 8; k++) {
		for (size_t an = 8 * k - 1; an <= 8 * k + 1; an++) {
			if (an <= 40)
				continue;
			for (size_t bi = 0; bi < NLEN(bns); bi++) {
				struct exec_ctx c = ctx(t, COV_LENGTH, "8k-1, 8k, 8k+1");
				fill64(a, an, PAT_RANDOM, &rng);
				fill64(b, bns[bi], PAT_ONES, &rng);
				exec_mul(&c, a, an, b, bns[bi], 0, NULL);
			}
		}
	}
	for (size_t i = 0; i < NLEN(big); i++) {
		struct exec_ctx c = ctx(t, COV_LENGTH, "long");
		fill64(a, big[i][0], PAT_RANDOM, &rng);
		fill64(b, big[i][1], PAT_RANDOM, &rng);
		exec_mul(&c, a, big[i][0], b, big[i][1], 0, NULL);
		c.what = "long, all ones";
		fill64(a, big[i][0], PAT_ONES, &rng);
		fill64(b, big[i][1], PAT_ONES, &rng);
		exec_mul(&c, a, big[i][0], b, big[i][1], 0, NULL);
	}
	free(a);
	free(b);
}
END_TEST

/* shapes across the IFMA variant's range and its group / ramp boundaries (every variant runs
 * them: for adx and ref they are just more long shapes) */
START_TEST(test_mul_ifma_shapes)
{
	const struct tvar *t = var(_i);
	static const size_t ans[] = { 41, 52, 53, 64, 65, 77, 91, 104, 117, 127, 128, 129 };
	static const size_t bns[] = { 11, 12, 13, 16, 18, 19, 20, 23, 24, 25, 31, 32, 39, 40,
		                      41, 52, 64, 65, 77, 100, 127, 128, 129 };
	uint64_t a[129], b[129];
	rng_t rng;
	rng_init(&rng, t->label, 67);
	for (size_t ai = 0; ai < NLEN(ans); ai++) {
		for (size_t bi = 0; bi < NLEN(bns) && bns[bi] <= ans[ai]; bi++) {
			size_t an = ans[ai], bn = bns[bi];
			struct exec_ctx c = ctx(t, COV_LENGTH, "IFMA shapes, random");
			fill64(a, an, PAT_RANDOM, &rng);
			fill64(b, bn, PAT_RANDOM, &rng);
			exec_mul(&c, a, an, b, bn, 0, NULL);
			c.kind = COV_CARRY;
			c.what = "IFMA shapes, all ones";
			fill64(a, an, PAT_ONES, NULL);
			fill64(b, bn, PAT_ONES, NULL);
			exec_mul(&c, a, an, b, bn, 0, NULL);
			c.what = "IFMA shapes, all ones but one limb of b or a zero";
			b[(an * 7 + 3) % bn] = 0;
			exec_mul(&c, a, an, b, bn, 0, NULL);
			fill64(b, bn, PAT_ONES, NULL);
			a[(bn * 5 + 1) % an] = 0;
			exec_mul(&c, a, an, b, bn, 0, NULL);
			c.what = "IFMA shapes, top limbs all ones";
			fill64(a, an, PAT_TOP_ONES, &rng);
			fill64(b, bn, PAT_TOP_ONES, &rng);
			exec_mul(&c, a, an, b, bn, 0, NULL);
		}
		struct exec_ctx c = ctx(t, COV_LENGTH, "IFMA shapes, ap == bp");
		fill64(a, ans[ai], PAT_RANDOM, &rng);
		exec_mul(&c, a, ans[ai], NULL, ans[ai], 1, NULL);
	}
}
END_TEST

START_TEST(test_mul_guards)
{
	const struct tvar *t = var(_i);
	static const size_t pairs[][2] = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 3, 1 }, { 3, 3 },
		                           { 5, 2 }, { 7, 7 }, { 8, 1 }, { 8, 8 }, { 9, 4 },
		                           { 15, 15 }, { 16, 3 }, { 17, 17 }, { 31, 5 }, { 33, 32 },
		                           { 64, 64 }, { 127, 1 }, { 129, 9 }, { 300, 79 },
		                           { 12, 12 }, { 40, 13 }, { 100, 11 }, { 128, 12 },
		                           { 128, 128 }, { 129, 12 } };
	uint64_t *a = xmalloc(300 * 8), *b = xmalloc(300 * 8);
	rng_t rng;
	rng_init(&rng, t->label, 63);
	for (size_t pi = 0; pi < NLEN(pairs); pi++) {
		for (int place = GB_START; place <= GB_END; place++) {
			size_t an = pairs[pi][0], bn = pairs[pi][1];
			fill64(a, an, PAT_RANDOM, &rng);
			fill64(b, bn, PAT_RANDOM, &rng);
			struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
			c.place = (enum gb_place)place;
			exec_mul(&c, a, an, b, bn, 0, NULL);
			if (an == bn) {
				c.what = "guard page, ap == bp";
				exec_mul(&c, a, an, NULL, an, 1, NULL);
			}
		}
	}
	free(a);
	free(b);
}
END_TEST

START_TEST(test_mul_alignment)
{
	const struct tvar *t = var(_i);
	static const size_t pairs[][2] = { { 1, 1 }, { 2, 1 }, { 3, 2 }, { 5, 5 }, { 8, 3 },
		                           { 9, 9 }, { 17, 4 }, { 33, 7 }, { 20, 13 }, { 40, 40 } };
	uint64_t a[40], b[40];
	rng_t rng;
	rng_init(&rng, t->label, 64);
	for (size_t pi = 0; pi < NLEN(pairs); pi++) {
		for (size_t shift = 0; shift < 64; shift += 8) {
			for (int place = GB_MID; place <= GB_END; place++) {
				fill64(a, pairs[pi][0], PAT_RANDOM, &rng);
				fill64(b, pairs[pi][1], PAT_RANDOM, &rng);
				struct exec_ctx c = ctx(t, COV_ALIGN, "8-byte offsets mod 64");
				c.place = (enum gb_place)place;
				c.shift = shift;
				exec_mul(&c, a, pairs[pi][0], b, pairs[pi][1], 0, NULL);
			}
		}
	}
}
END_TEST

START_TEST(test_mul_zero)
{
	const struct tvar *t = var(_i);
	lf_mpn_mul_fn fn = (lf_mpn_mul_fn)t->v->fn;
	void *na = gb_noaccess();
	crash_note(t->label, "bn = 0 with NULL / PROT_NONE pointers", 0);
	fn(NULL, NULL, 0, NULL, 0);
	fn(na, na, 0, na, 0);
	fn(na, na, 5, na, 0);
	fn(na, na, 300, NULL, 0);
	cov_add(t, COV_ZERO, 4);
	/* bn = 0 with real buffers: rp (an limbs) keeps its contents, nothing around it changes */
	for (size_t an = 0; an <= 9; an += 3) {
		struct gbuf gr;
		uint64_t *rp = gb_alloc(&gr, an * 8, GB_MID, 0), before[9];
		uint64_t a[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
		fill_garbage64(rp, an);
		memcpy(before, rp, an * 8);
		fn(rp, a, an, a, 0);
		ck_assert_msg(memcmp(rp, before, an * 8) == 0, "%s: bn = 0, an = %zu wrote rp",
		              t->label, an);
		ASSERT_CANARIES(&gr, t->label, "rp", "bn = 0 between canaries");
		gb_free(&gr);
		cov_add(t, COV_ZERO, 1);
	}
}
END_TEST

/* lf_mpn_mul with this variant forced: every pair 0..40 x 0..40 in both orders (length 0:
 * rp zeroed), which the kernel's precondition (an >= bn >= 1) leaves to the wrapper. */
START_TEST(test_mul_api_pairs)
{
	const struct tvar *t = var(_i);
	uint64_t a[40], b[40];
	rng_t rng;
	rng_init(&rng, t->label, 65);
	ck_assert_msg(lf_impl_force("mpn_mul", t->v->name) == 0, "cannot force %s", t->label);
	for (size_t an = 0; an <= 40; an++) {
		for (size_t bn = 0; bn <= 40; bn++) {
			struct exec_ctx c = { t, (lf_fnptr)lf_mpn_mul, COV_API, GB_MID, 0,
			                      "lf_mpn_mul, every pair 0..40 x 0..40" };
			enum pattern p = (an + bn) % 5 == 0 ? PAT_ONES : PAT_RANDOM;
			c.place = (an ^ bn) & 1 ? GB_END : GB_MID;
			fill64(a, an, p, &rng);
			fill64(b, bn, p, &rng);
			exec_mul(&c, a, an, b, bn, 0, NULL);
		}
	}
	lf_impl_force("mpn_mul", NULL);
}
END_TEST

/* lf_mpn_mul through the Karatsuba layer, this variant doing the base cases */
START_TEST(test_mul_api_karatsuba)
{
	const struct tvar *t = var(_i);
	static const size_t pairs[][2] = {
		{ LF_KARA_MIN - 1, LF_KARA_MIN - 1 }, { LF_KARA_MIN, LF_KARA_MIN },
		{ LF_KARA_MIN + 1, LF_KARA_MIN }, { 2 * LF_KARA_MIN - 1, LF_KARA_MIN },
		{ 2 * LF_KARA_MIN, LF_KARA_MIN }, { 2 * LF_KARA_MIN + 1, LF_KARA_MIN + 1 },
		{ 79, 79 }, { 80, 80 }, { 81, 81 }, { 81, 80 }, { 81, 41 }, { 100, 60 },
		{ 127, 127 }, { 128, 128 }, { 129, 129 }, { 129, 65 }, { 129, 64 }, { 160, 81 },
		{ 255, 255 }, { 256, 256 }, { 257, 257 }, { 257, 200 }, { 300, 41 }, { 513, 40 },
		{ 513, 512 }, { 1000, 45 }, { 1000, 333 }, { 1031, 1031 },
		/* the IFMA build's threshold and its blocks of a (LF_KARA_IFMA_MUL_AN limbs) */
		{ LF_KARA_MUL_IFMA_MIN - 1, LF_KARA_MUL_IFMA_MIN - 1 },
		{ LF_KARA_MUL_IFMA_MIN, LF_KARA_MUL_IFMA_MIN },
		{ LF_KARA_MUL_IFMA_MIN + 1, LF_KARA_MUL_IFMA_MIN },
		{ 2 * LF_KARA_MUL_IFMA_MIN + 1, LF_KARA_MUL_IFMA_MIN },
		{ LF_KARA_IFMA_MUL_AN + 1, LF_KARA_IFMA_BLOCK_BN },
		{ LF_KARA_IFMA_MUL_AN + 1, LF_KARA_IFMA_BLOCK_BN - 1 },
		{ 2 * LF_KARA_IFMA_MUL_AN, 100 }, { 2 * LF_KARA_IFMA_MUL_AN + 1, 128 },
		{ 300, 39 }, { 385, 17 }, { 1000, 16 },
		/* Toom-3 (every kernel but IFMA): its threshold, b just at and above 2 ceil(an / 3) (at:
		 * Karatsuba; above: Toom-3 with a one-limb b2), an = 0, 1, 2 mod 3 */
		{ LF_TOOM3_MIN - 1, LF_TOOM3_MIN - 1 }, { LF_TOOM3_MIN, LF_TOOM3_MIN },
		{ LF_TOOM3_MIN + 1, LF_TOOM3_MIN + 1 }, { 600, 400 }, { 600, 401 }, { 601, 403 },
		{ 602, 600 }, { 900, 899 } };
	uint64_t *a = xmalloc(1031 * 8), *b = xmalloc(1031 * 8);
	rng_t rng;
	rng_init(&rng, t->label, 66);
	ck_assert_msg(lf_impl_force("mpn_mul", t->v->name) == 0, "cannot force %s", t->label);
	for (size_t i = 0; i < NLEN(pairs); i++) {
		size_t an = pairs[i][0], bn = pairs[i][1];
		struct exec_ctx c = { t, (lf_fnptr)lf_mpn_mul, COV_API, GB_MID, 0,
		                      "lf_mpn_mul (Karatsuba), random" };
		for (int pat = 0; pat < 8; pat++) {
			fill64(a, an, pat == 1 || pat >= 6 ? PAT_ONES : PAT_RANDOM, &rng);
			fill64(b, bn, pat == 1 || pat >= 6 ? PAT_ONES : PAT_RANDOM, &rng);
			if (pat == 1)
				c.what = "lf_mpn_mul (Karatsuba), all ones";
			if (pat >= 2) {     /* the halves' order: a0 < a1 or a0 > a1, same for b */
				size_t ha = (an + 1) / 2, hb = (bn + 1) / 2;
				memset(pat & 1 ? a : a + ha, 0, (pat & 1 ? ha : an - ha) * 8);
				memset(pat & 2 ? b + hb : b, 0, (pat & 2 ? bn - hb : hb) * 8);
				c.what = "lf_mpn_mul (Karatsuba), one half of each operand zero";
			}
			if (pat == 5) {
				memset(b, 0, bn * 8);
				c.what = "lf_mpn_mul (Karatsuba), b = 0";
			}
			if (pat >= 6) {     /* Toom-3's thirds: a0 - a1 + a2 < 0 (a1 ones, a0 = a2 = 0)
			                     * for a, and for b too (pat 7) or > 0 (b1 = 0; pat 6) */
				size_t ka = (an + 2) / 3, kb = (an + 2) / 3;
				memset(a, 0, ka * 8);
				memset(a + 2 * ka, 0, (an - 2 * ka) * 8);
				if (pat == 7 && bn > 2 * kb) {
					memset(b, 0, kb * 8);
					memset(b + 2 * kb, 0, (bn - 2 * kb) * 8);
				} else if (bn > kb) {
					memset(b + kb, 0, ((bn < 2 * kb ? bn : 2 * kb) - kb) * 8);
				}
				c.what = pat == 6 ? "lf_mpn_mul (Toom-3 thirds), a0 - a1 + a2 < 0 < b0 - b1 + b2"
				                  : "lf_mpn_mul (Toom-3 thirds), both a0 - a1 + a2 < 0";
			}
			c.place = (an ^ bn ^ (size_t)pat) & 1 ? GB_END : GB_MID;
			exec_mul(&c, a, an, b, bn, 0, NULL);
			exec_mul(&c, b, bn, a, an, 0, NULL);
		}
	}
	lf_impl_force("mpn_mul", NULL);
	free(a);
	free(b);
}
END_TEST

static void restore(void)
{
	lf_impl_force("mpn_mul", NULL);
}

Suite *suite_mpn_mul(void)
{
	Suite *s = suite_create("mpn_mul");
	TCase *tc = tcase_create("mpn_mul");
	int n = (int)tv_runnable_count(LF_K_mpn_mul);
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	tcase_add_loop_test(tc, test_mul_zero, 0, n);
	tcase_add_loop_test(tc, test_mul_lattice, 0, n);
	tcase_add_loop_test(tc, test_mul_carries, 0, n);
	tcase_add_loop_test(tc, test_mul_lengths, 0, n);
	tcase_add_loop_test(tc, test_mul_ifma_shapes, 0, n);
	tcase_add_loop_test(tc, test_mul_guards, 0, n);
	tcase_add_loop_test(tc, test_mul_alignment, 0, n);
	tcase_add_loop_test(tc, test_mul_api_pairs, 0, n);
	tcase_add_loop_test(tc, test_mul_api_karatsuba, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
