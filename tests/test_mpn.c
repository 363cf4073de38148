/*
 * test_mpn.c -- mpn_mul_1 and mpn_addmul_1, every runnable variant called directly,
 * differential against GMP's mpn_mul_1 / mpn_addmul_1.
 *
 * Faults this is designed to catch:
 *   - a carry dropped or added at an unroll boundary, in the tail segments (n mod unroll) or
 *     between the two ADCX/ADOX chains (lattice operands; carries solved to 0/1/2/max at
 *     every position, each position in turn; all-ones operands with b = 2^64-1 and rp preset
 *     to all ones, the maximum of every carry);
 *   - a length the loop control gets wrong: every n in 0..130, 256, 513, 8191..8193;
 *   - a load past the end or before the start of ap/rp (guard pages on both sides), a
 *     write outside {rp,n} (canaries), a write into ap;
 *   - alignment assumptions: rp/ap at each 8-byte offset within a 64-byte line;
 *   - in-place (rp == ap) calls that read a limb after overwriting it;
 *   - n == 0 that touches memory or returns non-zero (pointers into PROT_NONE and NULL).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const size_t lattice_lens[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 64, 127, 128, 129,
};
#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAXN 8193

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

static int is_addmul(enum lf_kernel_id kid)
{
	return kid == LF_K_mpn_addmul_1;
}

static void lattice(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	uint64_t *a = xmalloc(130 * 8), *r = xmalloc(130 * 8);
	rng_t rng;
	rng_init(&rng, t->label, 1);

	/* every limb drawn from the edge lattice; every edge multiplier */
	for (size_t li = 0; li < NLEN(lattice_lens); li++) {
		size_t n = lattice_lens[li];
		for (unsigned bi = 0; bi < N_EDGE64; bi++) {
			for (int rep = 0; rep < (n <= 40 ? 3 : 1); rep++) {
				uint64_t b = edge64(bi, &rng);
				fill64(a, n, PAT_LATTICE, &rng);
				fill64(r, n, PAT_LATTICE, &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, "edge-limb lattice");
				exec_mul1(&c, is_addmul(kid), a, r, n, b, 0, NULL, NULL);
			}
		}
	}
	/* whole-value patterns for a and rp against a few multipliers */
	static const unsigned bsel[] = { 1, 4, 8, 9 }; /* 1, 2^32-1, 2^64-1, random */
	for (size_t li = 0; li < NLEN(lattice_lens); li++) {
		size_t n = lattice_lens[li];
		for (int p = 0; p < N_PAT; p++) {
			for (size_t bj = 0; bj < NLEN(bsel); bj++) {
				char what[64];
				fill64(a, n, (enum pattern)p, &rng);
				fill64(r, n, (enum pattern)((p + (int)bj) % N_PAT), &rng);
				snprintf(what, sizeof what, "a %s, rp %s", pat_name((enum pattern)p),
				         pat_name((enum pattern)((p + (int)bj) % N_PAT)));
				struct exec_ctx c = ctx(t, COV_LATTICE, what);
				exec_mul1(&c, is_addmul(kid), a, r, n, edge64(bsel[bj], &rng), 0, NULL,
				          NULL);
			}
		}
	}
	free(a);
	free(r);
}

static void carries(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	static const size_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                               18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	                               33, 34, 35, 36, 37, 38, 39, 40, 64, 129 };
	static const uint64_t cyc[4] = { 0, 1, 2, CT_MAX };
	uint64_t bs[7] = { UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63, (UINT64_C(1) << 63) + 1,
	                   (UINT64_C(1) << 32) + 1, 3, 0 };
	uint64_t a[129], r[129], tg[129];
	rng_t rng;
	rng_init(&rng, t->label, 2);
	bs[6] = rng_next(&rng) | 3;

	for (size_t li = 0; li < NLEN(lens); li++) {
		size_t n = lens[li];
		for (size_t bi = 0; bi < 7; bi++) {
			uint64_t b = bs[bi];
			/* schedules: 0 = all max, 1..4 = 0/1/2/max cycling with phase, then for
			 * b = 2^64-1 and the random b, max at one position only / 0 at one only */
			size_t nsched = 5 + ((bi == 0 || bi == 6) && n <= 40 ? 2 * n : 0);
			for (size_t s = 0; s < nsched; s++) {
				const char *what;
				for (size_t i = 0; i < n; i++) {
					if (s == 0)
						tg[i] = CT_MAX;
					else if (s < 5)
						tg[i] = cyc[(i + s - 1) % 4];
					else if (s < 5 + n)
						tg[i] = i == s - 5 ? CT_MAX : 0;
					else
						tg[i] = i == s - 5 - n ? 0 : CT_MAX;
				}
				what = s == 0 ? "carry max at every limb" :
				       s < 5 ? "carries 0,1,2,max cycling" :
				       s < 5 + n ? "carry max at one limb, 0 elsewhere" :
				                   "carry 0 at one limb, max elsewhere";
				if (s == 0)
					fill64(r, n, PAT_ONES, &rng);
				else
					fill64(r, n, PAT_RANDOM, &rng);
				size_t hits = solve_carries64(a, is_addmul(kid) ? r : NULL, n, b, tg);
				ck_assert_msg(hits == n, "test bug: carry solver hit %zu of %zu (n=%zu b=%#llx)",
				              hits, n, n, (unsigned long long)b);
				struct exec_ctx c = ctx(t, COV_CARRY, what);
				exec_mul1(&c, is_addmul(kid), a, r, n, b, 0, NULL, NULL);
			}
		}
		/* the textbook maximum: a all ones, b = 2^64-1, rp all ones */
		fill64(a, n, PAT_ONES, &rng);
		fill64(r, n, PAT_ONES, &rng);
		struct exec_ctx c = ctx(t, COV_CARRY, "all ones, b = 2^64-1, rp all ones");
		exec_mul1(&c, is_addmul(kid), a, r, n, UINT64_MAX, 0, NULL, NULL);
	}
}

static void lengths(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	uint64_t *a = xmalloc(MAXN * 8), *r = xmalloc(MAXN * 8);
	rng_t rng;
	rng_init(&rng, t->label, 3);
	static const size_t big[] = { 256, 513, 8191, 8192, 8193 };
	for (size_t n = 0; n < 131 + NLEN(big); n++) {
		size_t len = n <= 130 ? n : big[n - 131];
		fill64(a, len, PAT_RANDOM, &rng);
		fill64(r, len, PAT_RANDOM, &rng);
		struct exec_ctx c = ctx(t, COV_LENGTH, "random operands");
		exec_mul1(&c, is_addmul(kid), a, r, len, rng_next(&rng), 0, NULL, NULL);
		fill64(a, len, PAT_ONES, &rng);
		fill64(r, len, PAT_ONES, &rng);
		c.what = "all ones, b = 2^64-1, rp all ones";
		exec_mul1(&c, is_addmul(kid), a, r, len, UINT64_MAX, 0, NULL, NULL);
	}
	free(a);
	free(r);
}

static const size_t guard_lens[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
	24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 127, 128, 129, 130, 513,
};

static void guards(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	uint64_t a[513], r[513];
	rng_t rng;
	rng_init(&rng, t->label, 4);
	for (size_t li = 0; li < NLEN(guard_lens); li++) {
		size_t n = guard_lens[li];
		for (int place = GB_START; place <= GB_END; place++) {
			for (int inplace = 0; inplace <= 1; inplace++) {
				fill64(a, n, PAT_RANDOM, &rng);
				fill64(r, n, PAT_ONES, &rng);
				struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
				c.place = (enum gb_place)place;
				exec_mul1(&c, is_addmul(kid), a, r, n, rng_next(&rng), inplace, NULL, NULL);
			}
		}
	}
}

static void alignment(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	static const size_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                               18, 19, 20, 33, 65, 129 };
	uint64_t a[129], r[129];
	rng_t rng;
	rng_init(&rng, t->label, 5);
	for (size_t li = 0; li < NLEN(lens); li++) {
		for (size_t shift = 0; shift < 64; shift += 8) {
			for (int place = GB_MID; place <= GB_END; place++) {
				size_t n = lens[li];
				fill64(a, n, PAT_RANDOM, &rng);
				fill64(r, n, PAT_RANDOM, &rng);
				struct exec_ctx c = ctx(t, COV_ALIGN, "8-byte offsets mod 64");
				c.place = (enum gb_place)place;
				c.shift = shift;
				exec_mul1(&c, is_addmul(kid), a, r, n, rng_next(&rng), 0, NULL, NULL);
			}
		}
	}
}

static void inplace(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	uint64_t a[513];
	rng_t rng;
	rng_init(&rng, t->label, 6);
	for (size_t li = 0; li < NLEN(guard_lens); li++) {
		size_t n = guard_lens[li];
		static const enum pattern pats[] = { PAT_RANDOM, PAT_ONES, PAT_LATTICE };
		for (size_t p = 0; p < 3; p++) {
			for (unsigned bi = 8; bi < N_EDGE64; bi++) { /* 2^64-1, random */
				fill64(a, n, pats[p], &rng);
				struct exec_ctx c = ctx(t, COV_INPLACE, pat_name(pats[p]));
				exec_mul1(&c, is_addmul(kid), a, NULL, n, edge64(bi, &rng), 1, NULL, NULL);
			}
		}
	}
}

static void zero(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	lf_mpn_mul_1_fn fn = (lf_mpn_mul_1_fn)t->v->fn;
	void *na = gb_noaccess();

	crash_note(t->label, "length 0 with NULL / PROT_NONE pointers", 0);
	ck_assert_msg(fn(NULL, NULL, 0, UINT64_MAX) == 0, "%s: n=0 with NULL did not return 0",
	              t->label);
	ck_assert_msg(fn(na, na, 0, UINT64_MAX) == 0, "%s: n=0 did not return 0", t->label);
	cov_add(t, COV_ZERO, 2);
	uint64_t one = 1;
	struct exec_ctx c = ctx(t, COV_ZERO, "n = 0 between canaries");
	exec_mul1(&c, is_addmul(kid), &one, &one, 0, UINT64_MAX, 0, NULL, NULL);
	exec_mul1(&c, is_addmul(kid), &one, &one, 0, UINT64_MAX, 1, NULL, NULL);
}

#define WRAP(kernel, fnname)                                                                \
	START_TEST(test_##kernel##_##fnname) { fnname(LF_K_##kernel, _i); }                 \
	END_TEST

WRAP(mpn_mul_1, lattice)
WRAP(mpn_mul_1, carries)
WRAP(mpn_mul_1, lengths)
WRAP(mpn_mul_1, guards)
WRAP(mpn_mul_1, alignment)
WRAP(mpn_mul_1, inplace)
WRAP(mpn_mul_1, zero)
WRAP(mpn_addmul_1, lattice)
WRAP(mpn_addmul_1, carries)
WRAP(mpn_addmul_1, lengths)
WRAP(mpn_addmul_1, guards)
WRAP(mpn_addmul_1, alignment)
WRAP(mpn_addmul_1, inplace)
WRAP(mpn_addmul_1, zero)

Suite *suite_mpn(void)
{
	Suite *s = suite_create("mpn");
	TCase *tc;
	int n;

	tc = tcase_create("mpn_mul_1");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	n = (int)tv_runnable_count(LF_K_mpn_mul_1);
	tcase_add_loop_test(tc, test_mpn_mul_1_zero, 0, n);
	tcase_add_loop_test(tc, test_mpn_mul_1_lattice, 0, n);
	tcase_add_loop_test(tc, test_mpn_mul_1_carries, 0, n);
	tcase_add_loop_test(tc, test_mpn_mul_1_lengths, 0, n);
	tcase_add_loop_test(tc, test_mpn_mul_1_guards, 0, n);
	tcase_add_loop_test(tc, test_mpn_mul_1_alignment, 0, n);
	tcase_add_loop_test(tc, test_mpn_mul_1_inplace, 0, n);
	suite_add_tcase(s, tc);

	tc = tcase_create("mpn_addmul_1");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	n = (int)tv_runnable_count(LF_K_mpn_addmul_1);
	tcase_add_loop_test(tc, test_mpn_addmul_1_zero, 0, n);
	tcase_add_loop_test(tc, test_mpn_addmul_1_lattice, 0, n);
	tcase_add_loop_test(tc, test_mpn_addmul_1_carries, 0, n);
	tcase_add_loop_test(tc, test_mpn_addmul_1_lengths, 0, n);
	tcase_add_loop_test(tc, test_mpn_addmul_1_guards, 0, n);
	tcase_add_loop_test(tc, test_mpn_addmul_1_alignment, 0, n);
	tcase_add_loop_test(tc, test_mpn_addmul_1_inplace, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
