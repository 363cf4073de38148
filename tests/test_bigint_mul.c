/*
 * test_bigint_mul.c -- bi_multiply_to_len (BigInteger.implMultiplyToLen), every runnable
 * variant called directly, differential against mpz multiplication of the BE-word values.
 *
 * Faults this is designed to catch:
 *   - BE word order: rows walking from the wrong end, the first row's carry not landing in
 *     z[xlen-1], row i's carry not in z[i] (every pair xlen, ylen in 1..40 in both orders;
 *     (1,127), (127,1), (79,300), (300,79), (513,2)); y just inside and just past the
 *     adx variant's stack buffer (895..898 words, 1201);
 *   - the word-pair rotation of 64-bit-digit variants going wrong on odd lengths and odd
 *     positions (all pairs; every 4-byte offset mod 64, so 8-byte loads straddle);
 *   - a lost carry: all-ones operands, all ones but one word 0, 1, 2^31 or 2^32-2 at every
 *     position of x and of y, lattice words (32-bit edges and split 64-bit edges);
 *   - reads outside x / y or writes outside z[0..xlen+ylen) (guard pages, canaries),
 *     writes into x or y; the ifma variant's 52-byte blocks (13 words, read and written from
 *     the end of each array down) with the last, partial block below the array's start
 *     masked (guard pages before x, y, z; lengths 13k - 1 .. 13k + 1), its size dispatch at
 *     ifma_min / ifma_max (16 / 256 words: 15, 16, 256, 257 in either operand);
 *   - a z word left unwritten: z starts as garbage (the JDK does not zero it);
 *   - x == y (the same array, which the contract allows and squaring paths use);
 *   - a length of 0: z[0..xlen+ylen) must be zeroed and the empty operand never read
 *     (NULL / PROT_NONE), both lengths 0 touching nothing.
 * z must not overlap x or y (contract), so there is no in-place test.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct tvar *var(int vi)
{
	return tv_runnable(LF_K_bi_multiply_to_len, (size_t)vi);
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

START_TEST(test_mtl_lattice)
{
	const struct tvar *t = var(_i);
	static const size_t ys[] = { 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 40 };
	uint32_t x[129], y[129];
	rng_t rng;
	rng_init(&rng, t->label, 71);
	for (size_t xl = 1; xl <= 129; xl += (xl < 40 ? 1 : 44)) {
		for (size_t yi = 0; yi < NLEN(ys); yi++) {
			size_t yl = ys[yi];
			for (int rep = 0; rep < 2; rep++) {
				fill32be(x, xl, PAT_LATTICE, &rng);
				fill32be(y, yl, PAT_LATTICE, &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, "lattice");
				exec_multiply_to_len(&c, x, xl, y, yl, 0, NULL);
				exec_multiply_to_len(&c, y, yl, x, xl, 0, NULL);
			}
			for (int p = 0; p < N_PAT; p += 2) {
				fill32be(x, xl, (enum pattern)p, &rng);
				fill32be(y, yl, (enum pattern)((p + yi) % N_PAT), &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, pat_name((enum pattern)p));
				exec_multiply_to_len(&c, x, xl, y, yl, 0, NULL);
			}
		}
		fill32be(x, xl, PAT_LATTICE, &rng);
		struct exec_ctx c = ctx(t, COV_LATTICE, "lattice, x == y");
		exec_multiply_to_len(&c, x, xl, NULL, xl, 1, NULL);
	}
}
END_TEST

START_TEST(test_mtl_carries)
{
	const struct tvar *t = var(_i);
	static const uint32_t special[] = { 0, 1, 0x80000000u, 0xfffffffeu };
	static const size_t ys[] = { 1, 2, 3, 5, 8, 9 };
	uint32_t x[65], y[65];
	for (size_t xl = 1; xl <= 65; xl += (xl < 20 ? 1 : xl < 33 ? 6 : 16)) {
		for (size_t yi = 0; yi < NLEN(ys); yi++) {
			size_t yl = ys[yi];
			struct exec_ctx c = ctx(t, COV_CARRY, "all ones");
			fill32be(x, xl, PAT_ONES, NULL);
			fill32be(y, yl, PAT_ONES, NULL);
			exec_multiply_to_len(&c, x, xl, y, yl, 0, NULL);
			exec_multiply_to_len(&c, y, yl, x, xl, 0, NULL);
			for (size_t s = 0; s < NLEN(special); s++) {
				c.what = "all ones but one word of x in {0, 1, 2^31, 2^32-2}";
				for (size_t j = 0; j < xl; j++) {
					fill32be(x, xl, PAT_ONES, NULL);
					x[j] = special[s];
					exec_multiply_to_len(&c, x, xl, y, yl, 0, NULL);
				}
				fill32be(x, xl, PAT_ONES, NULL);
				c.what = "all ones but one word of y in {0, 1, 2^31, 2^32-2}";
				for (size_t j = 0; j < yl; j++) {
					fill32be(y, yl, PAT_ONES, NULL);
					y[j] = special[s];
					exec_multiply_to_len(&c, x, xl, y, yl, 0, NULL);
				}
				fill32be(y, yl, PAT_ONES, NULL);
			}
		}
		/* 64-bit digit maxima for two-words-per-multiply variants */
		for (size_t j = 0; j < xl; j++)
			x[j] = (j & 1) ? 0xfffffffeu : 0xffffffffu;
		struct exec_ctx c = ctx(t, COV_CARRY, "words alternating 2^32-1, 2^32-2, x == y");
		exec_multiply_to_len(&c, x, xl, NULL, xl, 1, NULL);
		fill32be(x, xl, PAT_ONES, NULL);
		c.what = "all ones, x == y";
		exec_multiply_to_len(&c, x, xl, NULL, xl, 1, NULL);
	}
}
END_TEST

START_TEST(test_mtl_lengths)
{
	const struct tvar *t = var(_i);
	/* 895..898 and 1201 words: y of 448 digits or fewer goes through the adx variant's
	 * stack buffer (rotated once), a longer one is rotated in every row */
	static const size_t big[][2] = { { 1, 127 }, { 127, 1 }, { 79, 300 }, { 300, 79 },
		                         { 513, 2 }, { 2, 513 }, { 128, 128 }, { 255, 256 },
		                         { 3, 895 }, { 895, 3 }, { 2, 896 }, { 5, 897 },
		                         { 897, 5 }, { 4, 898 }, { 40, 898 }, { 7, 1201 },
		                         { 16, 256 }, { 256, 16 }, { 15, 256 }, { 256, 15 },
		                         { 256, 256 }, { 257, 256 }, { 256, 257 }, { 100, 201 },
		                         { 51, 52 }, { 53, 65 }, { 77, 78 }, { 129, 91 } };
	uint32_t *x = xmalloc(1201 * 4), *y = xmalloc(1201 * 4);
	rng_t rng;
	rng_init(&rng, t->label, 72);
	for (size_t xl = 1; xl <= 40; xl++) {
		for (size_t yl = 1; yl <= 40; yl++) {
			struct exec_ctx c = ctx(t, COV_LENGTH, "every pair 1..40 x 1..40");
			enum pattern p = (xl * 41 + yl) % 7 == 0 ? PAT_ONES : PAT_RANDOM;
			fill32be(x, xl, p, &rng);
			fill32be(y, yl, p, &rng);
			exec_multiply_to_len(&c, x, xl, y, yl, 0, NULL);
		}
	}
	for (size_t i = 0; i < NLEN(big); i++) {
		struct exec_ctx c = ctx(t, COV_LENGTH, "long");
		fill32be(x, big[i][0], PAT_RANDOM, &rng);
		fill32be(y, big[i][1], PAT_RANDOM, &rng);
		exec_multiply_to_len(&c, x, big[i][0], y, big[i][1], 0, NULL);
		c.what = "long, all ones";
		fill32be(x, big[i][0], PAT_ONES, &rng);
		fill32be(y, big[i][1], PAT_ONES, &rng);
		exec_multiply_to_len(&c, x, big[i][0], y, big[i][1], 0, NULL);
	}
	free(x);
	free(y);
}
END_TEST

START_TEST(test_mtl_guards)
{
	const struct tvar *t = var(_i);
	static const size_t pairs[][2] = { { 1, 1 }, { 1, 2 }, { 2, 1 }, { 2, 2 }, { 3, 1 },
		                           { 1, 3 }, { 3, 3 }, { 5, 2 }, { 7, 7 }, { 8, 1 },
		                           { 8, 8 }, { 9, 4 }, { 4, 9 }, { 15, 15 }, { 16, 3 },
		                           { 17, 17 }, { 31, 5 }, { 33, 32 }, { 64, 64 }, { 1, 127 },
		                           { 127, 1 }, { 79, 300 }, { 3, 896 }, { 3, 897 },
		                           { 16, 16 }, { 16, 17 }, { 26, 26 }, { 25, 27 },
		                           { 39, 40 }, { 52, 16 }, { 256, 256 } };
	uint32_t *x = xmalloc(897 * 4), *y = xmalloc(897 * 4);
	rng_t rng;
	rng_init(&rng, t->label, 73);
	for (size_t pi = 0; pi < NLEN(pairs); pi++) {
		for (int place = GB_START; place <= GB_END; place++) {
			size_t xl = pairs[pi][0], yl = pairs[pi][1];
			fill32be(x, xl, PAT_RANDOM, &rng);
			fill32be(y, yl, PAT_RANDOM, &rng);
			struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
			c.place = (enum gb_place)place;
			exec_multiply_to_len(&c, x, xl, y, yl, 0, NULL);
			if (xl == yl) {
				c.what = "guard page, x == y";
				exec_multiply_to_len(&c, x, xl, NULL, xl, 1, NULL);
			}
		}
	}
	free(x);
	free(y);
}
END_TEST

START_TEST(test_mtl_alignment)
{
	const struct tvar *t = var(_i);
	static const size_t pairs[][2] = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 3, 2 }, { 5, 5 },
		                           { 8, 3 }, { 9, 9 }, { 17, 4 }, { 33, 7 }, { 17, 16 },
		                           { 26, 33 } };
	uint32_t x[33], y[33];
	rng_t rng;
	rng_init(&rng, t->label, 74);
	for (size_t pi = 0; pi < NLEN(pairs); pi++) {
		for (size_t shift = 0; shift < 64; shift += 4) {
			for (int place = GB_MID; place <= GB_END; place++) {
				fill32be(x, pairs[pi][0], PAT_RANDOM, &rng);
				fill32be(y, pairs[pi][1], PAT_RANDOM, &rng);
				struct exec_ctx c = ctx(t, COV_ALIGN, "4-byte offsets mod 64");
				c.place = (enum gb_place)place;
				c.shift = shift;
				exec_multiply_to_len(&c, x, pairs[pi][0], y, pairs[pi][1], 0, NULL);
			}
		}
	}
}
END_TEST

START_TEST(test_mtl_zero)
{
	const struct tvar *t = var(_i);
	lf_bi_multiply_to_len_fn fn = (lf_bi_multiply_to_len_fn)t->v->fn;
	void *na = gb_noaccess();
	uint32_t x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	crash_note(t->label, "lengths 0 with NULL / PROT_NONE pointers", 0);
	fn(NULL, 0, NULL, 0, NULL);
	fn(na, 0, na, 0, na);
	cov_add(t, COV_ZERO, 2);
	/* one length 0: z[0..other) zeroed, the empty operand (NULL, then PROT_NONE) unread */
	for (size_t l = 1; l <= 9; l += 4) {
		for (int side = 0; side < 2; side++) {
			for (int ptr = 0; ptr < 2; ptr++) {
				struct gbuf gz;
				uint32_t *z = gb_alloc(&gz, l * 4, GB_END, 0);
				const uint32_t *empty = ptr ? (const uint32_t *)na : NULL;
				fill_garbage32(z, l);
				if (side)
					fn(x, l, empty, 0, z);
				else
					fn(empty, 0, x, l, z);
				for (size_t i = 0; i < l; i++)
					ck_assert_msg(z[i] == 0, "%s: %s = 0 (%s), other length %zu: z[%zu] = "
					              "%#x, want 0", t->label, side ? "ylen" : "xlen",
					              ptr ? "PROT_NONE" : "NULL", l, i, z[i]);
				ASSERT_CANARIES(&gz, t->label, "z", "a length 0");
				gb_free(&gz);
				cov_add(t, COV_ZERO, 1);
			}
		}
		/* and through the harness, between canaries (oracle: zeros) */
		struct exec_ctx c = ctx(t, COV_ZERO, "xlen = 0 between canaries");
		exec_multiply_to_len(&c, x, 0, x, l, 0, NULL);
		c.what = "ylen = 0 between canaries";
		exec_multiply_to_len(&c, x, l, x, 0, 0, NULL);
	}
	struct exec_ctx c = ctx(t, COV_ZERO, "both lengths 0 between canaries");
	exec_multiply_to_len(&c, x, 0, x, 0, 0, NULL);
}
END_TEST

Suite *suite_bigint_mul(void)
{
	Suite *s = suite_create("bigint_mul");
	TCase *tc = tcase_create("bi_multiply_to_len");
	int n = (int)tv_runnable_count(LF_K_bi_multiply_to_len);
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_loop_test(tc, test_mtl_zero, 0, n);
	tcase_add_loop_test(tc, test_mtl_lattice, 0, n);
	tcase_add_loop_test(tc, test_mtl_carries, 0, n);
	tcase_add_loop_test(tc, test_mtl_lengths, 0, n);
	tcase_add_loop_test(tc, test_mtl_guards, 0, n);
	tcase_add_loop_test(tc, test_mtl_alignment, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
