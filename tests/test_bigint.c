/*
 * test_bigint.c -- bi_mul_add (BigInteger.implMulAdd), every runnable variant called
 * directly, differential against an mpz computation of the definition.
 *
 * Faults this is designed to catch:
 *   - the window addressed from the wrong end, or one word off (offset 0: window at the end
 *     of out; offset = out_len - len: window at the start; windows in between), and any
 *     write to `out` outside the window;
 *   - a lost carry: lattice words (32-bit edges and 64-bit edges split over word pairs, for
 *     variants that take two words per multiply), carries solved to 0/1/2/max at every word
 *     position, k in {0, 1, 2^31, 2^32-1, ...};
 *   - the word-order rotation of 64-bit variants going wrong on odd lengths and odd window
 *     positions (every len 0..130, 256, 513, 8191..8193; every 4-byte offset mod 64, which
 *     makes 8-byte loads straddle);
 *   - reading in[-1] or in[len] / out beyond the window at a page edge (guard pages);
 *   - in == window (the in-place call montReduce/squareToLen rely on) reading a word after
 *     writing it;
 *   - len == 0 not returning 0 or touching memory (NULL and PROT_NONE pointers).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct tvar *var(int vi)
{
	return tv_runnable(LF_K_bi_mul_add, (size_t)vi);
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

/* Window configurations: out_len = len + extra, offset. */
struct win {
	size_t extra, offset;
	const char *name;
};
static const struct win wins[] = {
	{ 0, 0, "window = all of out" },
	{ 1, 0, "window at the end of out" },
	{ 1, 1, "window at the start of out" },
	{ 3, 0, "window at the end, 3 words before" },
	{ 3, 3, "window at the start, 3 words after" },
	{ 3, 1, "window in the middle" },
};

static void run(const struct exec_ctx *c0, const struct win *w, size_t len, uint32_t k,
                enum pattern pout, enum pattern pin, int inplace, rng_t *rng)
{
	size_t out_len = len + w->extra;
	uint32_t *out = xmalloc((out_len + 1) * 4), *in = xmalloc((len + 1) * 4);
	char what[128];
	struct exec_ctx c = *c0;

	if (out_len == 0 || w->offset >= out_len) { /* no valid window (len 0 only) */
		free(out);
		free(in);
		return;
	}
	fill32be(out, out_len, pout, rng);
	fill32be(in, len, pin, rng);
	snprintf(what, sizeof what, "%s; %s; out %s, in %s", c0->what, w->name, pat_name(pout),
	         pat_name(pin));
	c.what = what;
	exec_mul_add(&c, out, out_len, in, w->offset, len, k, inplace, NULL, NULL);
	free(out);
	free(in);
}

START_TEST(test_mul_add_lattice)
{
	const struct tvar *t = var(_i);
	rng_t rng;
	rng_init(&rng, t->label, 21);
	static const size_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                               18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	                               33, 34, 35, 36, 37, 38, 39, 40, 64, 65, 127, 129 };
	for (size_t li = 0; li < NLEN(lens); li++) {
		size_t len = lens[li];
		for (unsigned ki = 0; ki < N_EDGE32; ki++) {
			for (size_t wi = 0; wi < NLEN(wins); wi++) {
				struct exec_ctx c = ctx(t, COV_LATTICE, "lattice");
				run(&c, &wins[wi], len, edge32(ki, &rng), PAT_LATTICE, PAT_LATTICE, 0,
				    &rng);
			}
		}
		for (int p = 0; p < N_PAT; p++) {
			static const unsigned ksel[] = { 1, 6, 9 }; /* 1, 2^32-1, random */
			for (size_t kj = 0; kj < NLEN(ksel); kj++) {
				struct exec_ctx c = ctx(t, COV_LATTICE, "patterns");
				run(&c, &wins[(p + kj) % NLEN(wins)], len, edge32(ksel[kj], &rng),
				    (enum pattern)((p + kj) % N_PAT), (enum pattern)p, 0, &rng);
			}
		}
	}
}
END_TEST

START_TEST(test_mul_add_carries)
{
	const struct tvar *t = var(_i);
	static const size_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                               18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	                               33, 34, 35, 36, 37, 38, 39, 40, 64, 65, 129 };
	static const uint64_t cyc[4] = { 0, 1, 2, CT_MAX };
	uint32_t ks[7] = { UINT32_MAX, UINT32_MAX - 1, 0x80000000u, 0x80000001u, 0x10001u, 3, 0 };
	uint32_t out[129 + 3], in[129];
	uint64_t tg[129];
	rng_t rng;
	rng_init(&rng, t->label, 22);
	ks[6] = (uint32_t)rng_next(&rng) | 3;

	for (size_t li = 0; li < NLEN(lens); li++) {
		size_t len = lens[li];
		for (size_t ki = 0; ki < 7; ki++) {
			uint32_t k = ks[ki];
			size_t nsched = 5 + ((ki == 0 || ki == 6) && len <= 40 ? 2 * len : 0);
			for (size_t s = 0; s < nsched; s++) {
				const struct win *w = &wins[(s + ki) % NLEN(wins)];
				size_t out_len = len + w->extra, start = out_len - w->offset - len;
				for (size_t i = 0; i < len; i++) {
					if (s == 0)
						tg[i] = CT_MAX;
					else if (s < 5)
						tg[i] = cyc[(i + s - 1) % 4];
					else if (s < 5 + len)
						tg[i] = i == s - 5 ? CT_MAX : 0;
					else
						tg[i] = i == s - 5 - len ? 0 : CT_MAX;
				}
				fill32be(out, out_len, s == 0 ? PAT_ONES : PAT_RANDOM, &rng);
				size_t hits = solve_carries32(in, out + start, len, k, tg);
				ck_assert_msg(hits == len, "test bug: carry solver hit %zu of %zu (k=%#x)",
				              hits, len, k);
				struct exec_ctx c = ctx(t, COV_CARRY,
				                        s == 0 ? "carry max at every word" :
				                        s < 5 ? "carries 0,1,2,max cycling" :
				                        s < 5 + len ? "carry max at one word, 0 elsewhere" :
				                                      "carry 0 at one word, max elsewhere");
				exec_mul_add(&c, out, out_len, in, w->offset, len, k, 0, NULL, NULL);
			}
		}
		/* the maximum: window, in and k all ones */
		struct exec_ctx c = ctx(t, COV_CARRY, "all ones, k = 2^32-1");
		run(&c, &wins[1], len, UINT32_MAX, PAT_ONES, PAT_ONES, 0, &rng);
		run(&c, &wins[2], len, UINT32_MAX, PAT_ONES, PAT_ONES, 0, &rng);
	}
}
END_TEST

START_TEST(test_mul_add_lengths)
{
	const struct tvar *t = var(_i);
	static const size_t big[] = { 256, 513, 8191, 8192, 8193 };
	rng_t rng;
	rng_init(&rng, t->label, 23);
	for (size_t i = 0; i < 131 + NLEN(big); i++) {
		size_t len = i <= 130 ? i : big[i - 131];
		struct exec_ctx c = ctx(t, COV_LENGTH, "length sweep");
		run(&c, &wins[1 + i % 2], len, (uint32_t)rng_next(&rng), PAT_RANDOM, PAT_RANDOM, 0,
		    &rng);
		run(&c, &wins[2 - i % 2], len, UINT32_MAX, PAT_ONES, PAT_ONES, 0, &rng);
	}
}
END_TEST

static const size_t edge_lens[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
	24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 127, 128, 129, 130, 513,
};

START_TEST(test_mul_add_guards)
{
	const struct tvar *t = var(_i);
	rng_t rng;
	rng_init(&rng, t->label, 24);
	for (size_t li = 0; li < NLEN(edge_lens); li++) {
		size_t len = edge_lens[li];
		for (int place = GB_START; place <= GB_END; place++) {
			for (size_t wi = 0; wi < 3; wi++) { /* whole, at the end, at the start */
				for (int inplace = 0; inplace <= 1; inplace++) {
					struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
					c.place = (enum gb_place)place;
					run(&c, &wins[wi], len, (uint32_t)rng_next(&rng), PAT_RANDOM,
					    PAT_RANDOM, inplace, &rng);
				}
			}
		}
	}
}
END_TEST

START_TEST(test_mul_add_alignment)
{
	const struct tvar *t = var(_i);
	static const size_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                               33, 65, 129 };
	rng_t rng;
	rng_init(&rng, t->label, 25);
	for (size_t li = 0; li < NLEN(lens); li++) {
		for (size_t shift = 0; shift < 64; shift += 4) {
			for (int place = GB_MID; place <= GB_END; place++) {
				struct exec_ctx c = ctx(t, COV_ALIGN, "4-byte offsets mod 64");
				c.place = (enum gb_place)place;
				c.shift = shift;
				run(&c, &wins[(li + shift / 4) % NLEN(wins)], lens[li],
				    (uint32_t)rng_next(&rng), PAT_RANDOM, PAT_RANDOM, 0, &rng);
			}
		}
	}
}
END_TEST

START_TEST(test_mul_add_inplace)
{
	const struct tvar *t = var(_i);
	rng_t rng;
	rng_init(&rng, t->label, 26);
	for (size_t li = 0; li < NLEN(edge_lens); li++) {
		for (size_t wi = 0; wi < NLEN(wins); wi++) {
			static const enum pattern pats[] = { PAT_RANDOM, PAT_ONES, PAT_LATTICE };
			for (size_t p = 0; p < NLEN(pats); p++) {
				struct exec_ctx c = ctx(t, COV_INPLACE, "in == window");
				run(&c, &wins[wi], edge_lens[li],
				    pats[p] == PAT_ONES ? UINT32_MAX : (uint32_t)rng_next(&rng), pats[p],
				    pats[p], 1, &rng);
			}
		}
	}
}
END_TEST

START_TEST(test_mul_add_zero)
{
	const struct tvar *t = var(_i);
	lf_bi_mul_add_fn fn = (lf_bi_mul_add_fn)t->v->fn;
	void *na = gb_noaccess();
	crash_note(t->label, "length 0 with NULL / PROT_NONE pointers", 0);
	ck_assert_msg(fn(NULL, 0, NULL, 0, 0, 0xffffffffu) == 0, "%s: len 0 (NULL) returned non-zero",
	              t->label);
	ck_assert_msg(fn(na, 1, na, 0, 0, 0xffffffffu) == 0, "%s: len 0 returned non-zero", t->label);
	ck_assert_msg(fn(na, 7, na, 3, 0, 0xffffffffu) == 0, "%s: len 0 returned non-zero", t->label);
	cov_add(t, COV_ZERO, 3);
	/* with real buffers: nothing of out may change */
	uint32_t out[4] = { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu }, in[1] = { 5 };
	for (size_t offset = 0; offset < 4; offset++) {
		struct exec_ctx c = ctx(t, COV_ZERO, "len 0 between canaries");
		exec_mul_add(&c, out, 4, in, offset, 0, 0xffffffffu, 0, NULL, NULL);
		exec_mul_add(&c, out, 4, in, offset, 0, 0xffffffffu, 1, NULL, NULL);
	}
}
END_TEST

Suite *suite_bigint(void)
{
	Suite *s = suite_create("bigint");
	TCase *tc = tcase_create("bi_mul_add");
	int n = (int)tv_runnable_count(LF_K_bi_mul_add);
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_loop_test(tc, test_mul_add_zero, 0, n);
	tcase_add_loop_test(tc, test_mul_add_lattice, 0, n);
	tcase_add_loop_test(tc, test_mul_add_carries, 0, n);
	tcase_add_loop_test(tc, test_mul_add_lengths, 0, n);
	tcase_add_loop_test(tc, test_mul_add_guards, 0, n);
	tcase_add_loop_test(tc, test_mul_add_alignment, 0, n);
	tcase_add_loop_test(tc, test_mul_add_inplace, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
