/*
 * test_mpn_sqr.c -- mpn_sqr, every runnable variant called directly, and lf_mpn_sqr with each
 * variant forced; differential against GMP's mpn_sqr.
 *
 * Faults this is designed to catch:
 *   - a lost carry where 2*a_i*a_j plus the diagonal square overflows the third accumulator
 *     word (all-ones operands, all ones with one limb 0, 1 or 2^63 at each position in turn,
 *     top limb 2^64-2, lattice limbs), or in the doubling shift;
 *   - a cross product added twice or not at all at a row/unroll boundary (every n 1..130);
 *   - size handling: n = 0 (writes nothing), 1, 2 and 256, 513, 8191..8193;
 *   - reads outside {ap,n} / writes outside {rp,2n} (guard pages, canaries), writes to ap;
 *   - alignment assumptions (every 8-byte offset mod 64);
 *   - an output limb that is never written (rp starts as garbage, not zero);
 *   - lf_mpn_sqr's Karatsuba layer (karatsuba.c, from LF_KARA_SQR_MIN limbs): the middle
 *     term z0 + z2 - |a0 - a1|^2 or its carry at B^3h wrong, an odd split, |a0 - a1| of the
 *     wrong sign (sizes around each recursion threshold; random, all ones, one half zero);
 *     from LF_TOOM3_SQR_MIN its Toom-3: an inexact division, a coefficient at the wrong
 *     power, n = 0, 1, 2 mod 3 around the threshold, a0 - a1 + a2 < 0 (thirds of zeros and
 *     ones), all ones.
 * rp must not overlap ap (API), so there is no in-place test.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lf_karatsuba.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct tvar *var(int vi)
{
	return tv_runnable(LF_K_mpn_sqr, (size_t)vi);
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

START_TEST(test_sqr_lattice)
{
	const struct tvar *t = var(_i);
	uint64_t a[129];
	rng_t rng;
	rng_init(&rng, t->label, 11);
	for (size_t n = 1; n <= 129; n += (n < 40 ? 1 : 44)) { /* 1..40, 41, 85, 129 */
		for (int rep = 0; rep < 6; rep++) {
			fill64(a, n, PAT_LATTICE, &rng);
			struct exec_ctx c = ctx(t, COV_LATTICE, "edge-limb lattice");
			exec_sqr(&c, a, n, NULL);
		}
		for (int p = 0; p < N_PAT; p++) {
			fill64(a, n, (enum pattern)p, &rng);
			struct exec_ctx c = ctx(t, COV_LATTICE, pat_name((enum pattern)p));
			exec_sqr(&c, a, n, NULL);
		}
	}
}
END_TEST

START_TEST(test_sqr_carries)
{
	const struct tvar *t = var(_i);
	static const uint64_t special[] = { 0, 1, 2, UINT64_C(1) << 63, UINT64_MAX - 1 };
	uint64_t a[64];
	for (size_t n = 1; n <= 64; n += (n < 40 ? 1 : 24)) {
		struct exec_ctx c = ctx(t, COV_CARRY, "all ones");
		fill64(a, n, PAT_ONES, NULL);
		exec_sqr(&c, a, n, NULL);
		/* one special limb in a sea of ones, at every position */
		for (size_t s = 0; s < NLEN(special); s++) {
			for (size_t j = 0; j < n; j++) {
				fill64(a, n, PAT_ONES, NULL);
				a[j] = special[s];
				c.what = "all ones but one limb in {0, 1, 2, 2^63, 2^64-2}";
				exec_sqr(&c, a, n, NULL);
			}
		}
		/* ones below a top limb just under the maximum; 2^63 | ones mixtures */
		fill64(a, n, PAT_ONES, NULL);
		a[n - 1] = UINT64_MAX - 1;
		c.what = "top limb 2^64-2, rest all ones";
		exec_sqr(&c, a, n, NULL);
		for (size_t j = 0; j < n; j++)
			a[j] = (j % 3 == 1) ? UINT64_C(1) << 63 : UINT64_MAX;
		c.what = "ones and 2^63 alternating by thirds";
		exec_sqr(&c, a, n, NULL);
	}
}
END_TEST

START_TEST(test_sqr_lengths)
{
	const struct tvar *t = var(_i);
	static const size_t big[] = { 256, 513, 8191, 8192, 8193 };
	uint64_t *a = xmalloc(8193 * 8);
	rng_t rng;
	rng_init(&rng, t->label, 12);
	for (size_t i = 0; i < 131 + NLEN(big); i++) {
		size_t n = i <= 130 ? i : big[i - 131];
		struct exec_ctx c = ctx(t, COV_LENGTH, "random");
		fill64(a, n, PAT_RANDOM, &rng);
		exec_sqr(&c, a, n, NULL);
		c.what = "all ones";
		fill64(a, n, PAT_ONES, &rng);
		exec_sqr(&c, a, n, NULL);
	}
	free(a);
}
END_TEST

START_TEST(test_sqr_guards)
{
	const struct tvar *t = var(_i);
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	                               17, 18, 19, 20, 21, 22, 23, 24, 25, 31, 32, 33, 40, 127,
	                               128, 129, 130, 513 };
	uint64_t *a = xmalloc(513 * 8);
	rng_t rng;
	rng_init(&rng, t->label, 13);
	for (size_t li = 0; li < NLEN(lens); li++) {
		for (int place = GB_START; place <= GB_END; place++) {
			fill64(a, lens[li], PAT_RANDOM, &rng);
			struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
			c.place = (enum gb_place)place;
			exec_sqr(&c, a, lens[li], NULL);
		}
	}
	free(a);
}
END_TEST

START_TEST(test_sqr_alignment)
{
	const struct tvar *t = var(_i);
	uint64_t a[65];
	rng_t rng;
	rng_init(&rng, t->label, 14);
	for (size_t n = 1; n <= 65; n += (n < 20 ? 1 : 13)) {
		for (size_t shift = 0; shift < 64; shift += 8) {
			for (int place = GB_MID; place <= GB_END; place++) {
				fill64(a, n, PAT_RANDOM, &rng);
				struct exec_ctx c = ctx(t, COV_ALIGN, "8-byte offsets mod 64");
				c.place = (enum gb_place)place;
				c.shift = shift;
				exec_sqr(&c, a, n, NULL);
			}
		}
	}
}
END_TEST

START_TEST(test_sqr_zero)
{
	const struct tvar *t = var(_i);
	lf_mpn_sqr_fn fn = (lf_mpn_sqr_fn)t->v->fn;
	uint64_t one = 1;
	crash_note(t->label, "length 0 with NULL / PROT_NONE pointers", 0);
	fn(NULL, NULL, 0);
	fn(gb_noaccess(), gb_noaccess(), 0);
	cov_add(t, COV_ZERO, 2);
	struct exec_ctx c = ctx(t, COV_ZERO, "n = 0 between canaries");
	exec_sqr(&c, &one, 0, NULL);
}
END_TEST

/* lf_mpn_sqr through the Karatsuba layer (karatsuba.c), this variant doing the base cases:
 * sizes around each recursion threshold, random, all ones, a0 < a1 and a0 > a1 */
START_TEST(test_sqr_api_karatsuba)
{
	const struct tvar *t = var(_i);
	static const size_t ns[] = { LF_KARA_SQR_MIN - 1, LF_KARA_SQR_MIN, LF_KARA_SQR_MIN + 1,
		                     2 * LF_KARA_SQR_MIN - 1, 2 * LF_KARA_SQR_MIN,
		                     2 * LF_KARA_SQR_MIN + 1, 127, 128, 129, 255, 256, 257, 511,
		                     513, 1031, LF_TOOM3_SQR_MIN - 1, LF_TOOM3_SQR_MIN,
		                     LF_TOOM3_SQR_MIN + 1, LF_TOOM3_SQR_MIN + 2, 770, 1030 };
	uint64_t *a = xmalloc(1031 * 8);
	rng_t rng;
	rng_init(&rng, t->label, 13);
	ck_assert_msg(lf_impl_force("mpn_sqr", t->v->name) == 0, "cannot force %s", t->label);
	for (size_t i = 0; i < NLEN(ns); i++) {
		size_t n = ns[i], h = (n + 1) / 2;
		struct exec_ctx c = { t, (lf_fnptr)lf_mpn_sqr, COV_API, GB_MID, 0,
		                      "lf_mpn_sqr (Karatsuba), random" };
		for (int pat = 0; pat < 5; pat++) {
			fill64(a, n, pat == 1 || pat == 4 ? PAT_ONES : PAT_RANDOM, &rng);
			if (pat == 1)
				c.what = "lf_mpn_sqr (Karatsuba), all ones";
			if (pat == 2 || pat == 3) {
				memset(pat == 2 ? a : a + h, 0, (pat == 2 ? h : n - h) * 8);
				c.what = "lf_mpn_sqr (Karatsuba), one half zero";
			}
			if (pat == 4) {     /* Toom-3: a0 = a2 = 0, a1 ones: a0 - a1 + a2 < 0 */
				size_t k = (n + 2) / 3;
				memset(a, 0, k * 8);
				memset(a + 2 * k, 0, (n - 2 * k) * 8);
				c.what = "lf_mpn_sqr (Toom-3 thirds), a0 - a1 + a2 < 0";
			}
			c.place = (n ^ (size_t)pat) & 1 ? GB_END : GB_MID;
			exec_sqr(&c, a, n, NULL);
		}
	}
	lf_impl_force("mpn_sqr", NULL);
	free(a);
}
END_TEST

static void restore_sqr(void)
{
	lf_impl_force("mpn_sqr", NULL);
}

Suite *suite_mpn_sqr(void)
{
	Suite *s = suite_create("mpn_sqr");
	TCase *tc = tcase_create("mpn_sqr");
	int n = (int)tv_runnable_count(LF_K_mpn_sqr);
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_loop_test(tc, test_sqr_zero, 0, n);
	tcase_add_loop_test(tc, test_sqr_lattice, 0, n);
	tcase_add_loop_test(tc, test_sqr_carries, 0, n);
	tcase_add_loop_test(tc, test_sqr_lengths, 0, n);
	tcase_add_loop_test(tc, test_sqr_guards, 0, n);
	tcase_add_loop_test(tc, test_sqr_alignment, 0, n);
	tcase_add_checked_fixture(tc, restore_sqr, restore_sqr);
	tcase_add_loop_test(tc, test_sqr_api_karatsuba, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
