/*
 * test_bigint_sqr.c -- bi_square_to_len (BigInteger.implSquareToLen), every runnable variant
 * called directly, differential against mpz squaring of the BE-word value.
 *
 * Faults this is designed to catch:
 *   - a cross product counted once instead of twice (or thrice), or a lost carry where
 *     2*x_i*x_j plus the diagonal overflows the accumulator (all ones; all ones but one word
 *     0, 1, 2^31 or 2^32-2 at every position; split 64-bit lattice edges);
 *   - the low bit of x[len-1] lost by the halve/shift-back trick of the Java algorithm
 *     (odd operands, x = 1, all ones);
 *   - odd lengths and odd word positions in 64-bit-digit variants (every len 1..130, 256,
 *     513, 8191..8193; every 4-byte offset mod 64);
 *   - reads outside x / writes outside z[0..2len) (guard pages, canaries), writes to x; the
 *     ifma variant's 52-byte blocks (13 words, from the end of each array down) with the
 *     last, partial one below the array's start masked (guard pages; every len 1..130), its
 *     size dispatch at ifma_min / ifma_max (20 / 21, 512 / 513 words);
 *   - a z word left unwritten (z starts as garbage: the API says z need not be
 *     initialised);
 *   - len == 0 writing anything (NULL and PROT_NONE pointers).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct tvar *var(int vi)
{
	return tv_runnable(LF_K_bi_square_to_len, (size_t)vi);
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

START_TEST(test_square_lattice)
{
	const struct tvar *t = var(_i);
	static const size_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                               18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	                               33, 34, 35, 36, 37, 38, 39, 40, 64, 65, 127 };
	uint32_t x[127];
	rng_t rng;
	rng_init(&rng, t->label, 31);
	for (size_t li = 0; li < NLEN(lens); li++) {
		size_t len = lens[li];
		for (int rep = 0; rep < 6; rep++) {
			fill32be(x, len, PAT_LATTICE, &rng);
			struct exec_ctx c = ctx(t, COV_LATTICE, "lattice");
			exec_square_to_len(&c, x, len, NULL);
		}
		for (int p = 0; p < N_PAT; p++) {
			fill32be(x, len, (enum pattern)p, &rng);
			struct exec_ctx c = ctx(t, COV_LATTICE, pat_name((enum pattern)p));
			exec_square_to_len(&c, x, len, NULL);
		}
	}
}
END_TEST

START_TEST(test_square_carries)
{
	const struct tvar *t = var(_i);
	static const uint32_t special[] = { 0, 1, 0x80000000u, 0xfffffffeu };
	uint32_t x[65];
	for (size_t len = 1; len <= 65; len += (len < 40 ? 1 : len == 40 ? 24 : 1)) {
		struct exec_ctx c = ctx(t, COV_CARRY, "all ones");
		fill32be(x, len, PAT_ONES, NULL);
		exec_square_to_len(&c, x, len, NULL);
		for (size_t s = 0; s < NLEN(special); s++) {
			for (size_t j = 0; j < len; j++) {
				fill32be(x, len, PAT_ONES, NULL);
				x[j] = special[s];
				c.what = "all ones but one word in {0, 1, 2^31, 2^32-2}";
				exec_square_to_len(&c, x, len, NULL);
			}
		}
		/* 64-bit digit maxima for two-words-per-multiply variants: pairs {2^32-1, 2^32-2} */
		for (size_t j = 0; j < len; j++)
			x[j] = (j & 1) ? 0xfffffffeu : 0xffffffffu;
		c.what = "words alternating 2^32-1, 2^32-2";
		exec_square_to_len(&c, x, len, NULL);
		fill32be(x, len, PAT_ZERO, NULL);
		x[len - 1] = 1;
		c.what = "x = 1 (the low bit the shift trick restores)";
		exec_square_to_len(&c, x, len, NULL);
	}
}
END_TEST

START_TEST(test_square_lengths)
{
	const struct tvar *t = var(_i);
	static const size_t big[] = { 256, 511, 512, 513, 8191, 8192, 8193 };
	uint32_t *x = xmalloc(8193 * 4);
	rng_t rng;
	rng_init(&rng, t->label, 32);
	for (size_t i = 1; i < 131 + NLEN(big); i++) {
		size_t len = i <= 130 ? i : big[i - 131];
		struct exec_ctx c = ctx(t, COV_LENGTH, "random");
		fill32be(x, len, PAT_RANDOM, &rng);
		exec_square_to_len(&c, x, len, NULL);
		c.what = "all ones";
		fill32be(x, len, PAT_ONES, &rng);
		exec_square_to_len(&c, x, len, NULL);
	}
	free(x);
}
END_TEST

START_TEST(test_square_guards)
{
	const struct tvar *t = var(_i);
	static const size_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                               18, 19, 20, 21, 22, 23, 24, 25, 31, 32, 33, 40, 127, 128,
	                               129, 130, 512, 513 };
	uint32_t *x = xmalloc(513 * 4);
	rng_t rng;
	rng_init(&rng, t->label, 33);
	for (size_t li = 0; li < NLEN(lens); li++) {
		for (int place = GB_START; place <= GB_END; place++) {
			fill32be(x, lens[li], PAT_RANDOM, &rng);
			struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
			c.place = (enum gb_place)place;
			exec_square_to_len(&c, x, lens[li], NULL);
		}
	}
	free(x);
}
END_TEST

START_TEST(test_square_alignment)
{
	const struct tvar *t = var(_i);
	uint32_t x[65];
	rng_t rng;
	rng_init(&rng, t->label, 34);
	for (size_t len = 1; len <= 65; len += (len < 17 ? 1 : 16)) {
		for (size_t shift = 0; shift < 64; shift += 4) {
			for (int place = GB_MID; place <= GB_END; place++) {
				fill32be(x, len, PAT_RANDOM, &rng);
				struct exec_ctx c = ctx(t, COV_ALIGN, "4-byte offsets mod 64");
				c.place = (enum gb_place)place;
				c.shift = shift;
				exec_square_to_len(&c, x, len, NULL);
			}
		}
	}
}
END_TEST

START_TEST(test_square_zero)
{
	const struct tvar *t = var(_i);
	lf_bi_square_to_len_fn fn = (lf_bi_square_to_len_fn)t->v->fn;
	uint32_t one = 1;
	crash_note(t->label, "length 0 with NULL / PROT_NONE pointers", 0);
	fn(NULL, 0, NULL);
	fn(gb_noaccess(), 0, gb_noaccess());
	cov_add(t, COV_ZERO, 2);
	struct exec_ctx c = ctx(t, COV_ZERO, "len 0 between canaries");
	exec_square_to_len(&c, &one, 0, NULL);
}
END_TEST

Suite *suite_bigint_sqr(void)
{
	Suite *s = suite_create("bigint_sqr");
	TCase *tc = tcase_create("bi_square_to_len");
	int n = (int)tv_runnable_count(LF_K_bi_square_to_len);
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_loop_test(tc, test_square_zero, 0, n);
	tcase_add_loop_test(tc, test_square_lattice, 0, n);
	tcase_add_loop_test(tc, test_square_carries, 0, n);
	tcase_add_loop_test(tc, test_square_lengths, 0, n);
	tcase_add_loop_test(tc, test_square_guards, 0, n);
	tcase_add_loop_test(tc, test_square_alignment, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
