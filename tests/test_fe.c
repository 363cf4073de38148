/*
 * test_fe.c -- the dispatched EC field products fe_<field>_mul and fe_<field>_square (the
 * lines of tests/fe_kernels.h: Curve25519 5 x 51, Curve448 8 x 56, P-521 9 x 58), every
 * runnable variant called directly and through lf_fe_<field>_<op> with the variant forced.
 * Oracle: GMP (a b mod p, p from its hex digits; tests/harness/fe.c), never a limbforge
 * kernel, not even `ref`; the Python vectors are in the kat suite.
 *
 * The contract (generated/fields/<field>.c, each .S header): limbs within M in, limbs within
 * the stated output bound out, the value congruent to a b mod p; r may alias a and/or b.
 * Faults this is designed to catch:
 *   - a lost carry or a wrong fold of the high columns (19, 2^224 + 1, 1 times 2^power):
 *     every pair of edge elements 0, 1, 2, p-1, p-2, p, p+1, 2^power-1, values in
 *     [p, 2^power), (p-1)/2, 2^(power-1), limbs at the top of M (all, all minus one,
 *     alternating, only the top, only limb 0), random below p and within M;
 *   - a column sum that overflows its 128 bits or a premultiplied operand its 64: every
 *     subset of limbs at the top of M against every limb at the top of M and the
 *     complement; products solved (b = t a^-1 mod p) to land on 0, 1, 2, p-1, p-2, 2^power-1
 *     mod p and each digit boundary 2^(bits i), 2^(bits i) - 1 mod p;
 *   - a limb returned above the stated bound (the next product's input contract broken;
 *     checked on every call), and an error that only a chain reveals: 1000 products x = x b
 *     (x^2) fed back, every step checked;
 *   - aliasing: r == a, r == b, a == b, r == a == b;
 *   - reads outside the operands (guard pages), writes outside r (canaries), an input
 *     modified, an r limb never written (r starts as garbage), byte offsets 0..63.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fe_kernels.h"
#include "lf_fields.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define ML LF_TEST_FE_MAXLIMBS

/* loop index: 64 * (line of tests/fe_kernels.h) + runnable variant */
static const struct fe_kernel *fe_of(int i)
{
	return fe_at((size_t)(i / 64));
}

static const struct tvar *var(int i)
{
	return tv_runnable(fe_of(i)->kid, (size_t)(i % 64));
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

/* every pair of edge elements; every edge with every pattern, both orders */
START_TEST(test_fe_edges)
{
	const struct fe_kernel *fk = fe_of(_i);
	const struct tvar *t = var(_i);
	int64_t a[ML], b[ML];
	char what[200];
	rng_t rng;
	rng_init(&rng, t->label, 301);
	for (int i = 0; i < FE_NELEM; i++)
		for (int j = 0; j < FE_NELEM; j++) {
			fe_elem(fk, a, (enum fe_elem)i, &rng);
			fe_elem(fk, b, (enum fe_elem)j, &rng);
			snprintf(what, sizeof what, "a = %s, b = %s", fe_elem_name((enum fe_elem)i),
			         fe_elem_name((enum fe_elem)j));
			struct exec_ctx c = ctx(t, COV_LATTICE, what);
			exec_fe(&c, fk, a, b, P256_SEP, NULL);
			if (fk->sqr)
				break;
		}
	for (int i = 0; i < FE_NELEM; i++)
		for (int pat = 0; pat < N_PAT; pat++) {
			fe_elem(fk, a, (enum fe_elem)i, &rng);
			fe_pattern(fk, b, (enum pattern)pat, &rng);
			snprintf(what, sizeof what, "%s with the pattern %s",
			         fe_elem_name((enum fe_elem)i), pat_name((enum pattern)pat));
			struct exec_ctx c = ctx(t, COV_LATTICE, what);
			exec_fe(&c, fk, a, b, P256_SEP, NULL);
			exec_fe(&c, fk, b, a, P256_SEP, NULL);
		}
}
END_TEST

/* the largest column sums (limbs at the top of M in every subset) and products solved to
 * land on 0, 1, p-1, 2^power-1 and each digit boundary mod p */
START_TEST(test_fe_carries)
{
	const struct fe_kernel *fk = fe_of(_i);
	const struct tvar *t = var(_i);
	size_t n = fk->limbs;
	int64_t a[ML], b[ML], top[ML], tg[ML];
	rng_t rng;
	rng_init(&rng, t->label, 302);
	fe_elem(fk, top, FE_MTOP, &rng);
	for (unsigned long mask = 0; mask < (1ul << n); mask++) {
		fe_elem(fk, a, FE_RAND_M, &rng);
		for (size_t i = 0; i < n; i++) {
			if (mask >> i & 1)
				a[i] = top[i];
			else if (mask & 1)
				a[i] = fk->M[i][0];
			b[i] = mask >> i & 1 ? fk->M[i][0] : top[i];
		}
		struct exec_ctx c = ctx(t, COV_CARRY, "a subset of limbs at the top of M, times the "
		                        "top of M");
		exec_fe(&c, fk, a, top, (enum p256_alias)(mask % P256_NALIAS), NULL);
		if (!fk->sqr) {
			c.what = "a subset of limbs at the top of M, times the complement";
			exec_fe(&c, fk, a, b, P256_SEP, NULL);
		}
	}
	/* results solved onto edges: b = t a^-1 mod p for random a (within M, or canonical) */
	size_t solved = 0;
	for (size_t k = 0; k < 6 + 2 * (n - 1); k++) {
		enum fe_elem te[] = { FE_ZERO, FE_ONE, FE_TWO, FE_PM1, FE_PM2, FE_POW_M1 };
		if (k < NLEN(te)) {
			fe_elem(fk, tg, te[k], &rng);
		} else {
			/* 2^(bits i) or 2^(bits i) - 1, i = 1..n-1, as canonical digits mod p */
			size_t i = (k - NLEN(te)) / 2 + 1;
			memset(tg, 0, sizeof tg);
			if ((k - NLEN(te)) & 1)
				for (size_t j = 0; j < i; j++)
					tg[j] = (int64_t)((UINT64_C(1) << fk->bits) - 1);
			else
				tg[i] = 1;
		}
		or_fe_canon(fk, tg, tg);
		for (int rep = 0; rep < 8; rep++) {
			fe_elem(fk, a, rep & 1 ? FE_RAND_M : rep == 2 ? FE_MTOP : FE_RAND_P, &rng);
			if (fk->sqr) {
				/* a square's result cannot be chosen: a and p - a (the same square) */
				int64_t pa[ML];
				fe_elem(fk, pa, FE_P, &rng);
				for (size_t j = 0; j < n; j++)
					pa[j] -= a[j];
				or_fe_canon(fk, pa, pa);
				struct exec_ctx c = ctx(t, COV_CARRY, "a and p - a");
				exec_fe(&c, fk, a, NULL, P256_SEP, NULL);
				exec_fe(&c, fk, pa, NULL, P256_RA, NULL);
				continue;
			}
			if (!or_fe_solve(fk, b, a, tg))
				continue;
			int64_t r[ML];
			or_fe_mul(fk, r, a, b);
			ck_assert_msg(memcmp(r, tg, n * 8) == 0, "test bug: solved b misses its target");
			struct exec_ctx c = ctx(t, COV_CARRY, "a b solved onto 0, 1, 2, p-1, p-2, "
			                        "2^power-1, 2^(bits i), 2^(bits i) - 1 mod p");
			exec_fe(&c, fk, a, b, (enum p256_alias)(rep % 2 ? P256_SEP : P256_RB), tg);
			solved++;
		}
	}
	ck_assert_msg(fk->sqr || solved > 4 * n, "test bug: %zu solved products", solved);
}
END_TEST

/* random operands under every aliasing; 1000 chained products checked at every step */
START_TEST(test_fe_random)
{
	const struct fe_kernel *fk = fe_of(_i);
	const struct tvar *t = var(_i);
	size_t n = fk->limbs;
	int64_t a[ML], b[ML], x[ML], w[ML], prev[ML];
	rng_t rng;
	rng_init(&rng, t->label, 303);
	for (int k = 0; k < 2000; k++) {
		fe_elem(fk, a, k % 3 ? FE_RAND_M : FE_RAND_P, &rng);
		if (k % 7 == 0)
			fe_pattern(fk, a, (enum pattern)((k / 7) % N_PAT), &rng);
		fe_elem(fk, b, k % 2 ? FE_RAND_M : FE_RAND_P, &rng);
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_LATTICE,
		                        "random operands");
		exec_fe(&c, fk, a, b, (enum p256_alias)(k % P256_NALIAS), NULL);
	}
	/* x = x b (x = x^2) in place: each output is the next input (out lies within M) */
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(fk->out[i][0] >= fk->M[i][0] && fk->out[i][1] <= fk->M[i][1],
		              "%s: the output bound of limb %zu is not within M: products cannot "
		              "be chained", fk->name, i);
	fe_elem(fk, x, FE_RAND_M, &rng);
	fe_elem(fk, b, FE_RAND_P, &rng);
	or_fe_canon(fk, w, x);
	for (int k = 0; k < 1000; k++) {
		memcpy(prev, x, n * 8);
		crash_note(t->label, "chained products", n);
		if (fk->sqr)
			((lf_fe_square_fn)t->v->fn)(x, x);
		else
			((lf_fe_mul_fn)t->v->fn)(x, x, b);
		fe_assert_result(fk, t->label, "chained product, r == a", x, prev, b);
		or_fe_mul(fk, w, w, b);
		int64_t got[ML];
		or_fe_canon(fk, got, x);
		ck_assert_msg(memcmp(got, w, n * 8) == 0, "%s: chained step %d differs from the "
		              "oracle's chain", t->label, k);
	}
	cov_add(t, COV_INPLACE, 1000);
}
END_TEST

START_TEST(test_fe_guards)
{
	const struct fe_kernel *fk = fe_of(_i);
	const struct tvar *t = var(_i);
	int64_t a[ML], b[ML];
	rng_t rng;
	rng_init(&rng, t->label, 304);
	for (int place = GB_MID; place <= GB_END; place++)
		for (size_t shift = 0; shift < 64; shift++) {
			fe_elem(fk, a, shift % 3 ? FE_RAND_M : FE_MTOP, &rng);
			fe_elem(fk, b, shift % 2 ? FE_RAND_P : FE_PM1, &rng);
			struct exec_ctx c = ctx(t, place == GB_MID ? COV_ALIGN : COV_GUARD,
			                        place == GB_MID ? "byte offsets 0..63" : "guard page");
			c.place = (enum gb_place)place;
			c.shift = shift;
			exec_fe(&c, fk, a, b, (enum p256_alias)(shift % P256_NALIAS), NULL);
		}
}
END_TEST

/* the public entry point with the variant forced; square(a) against mul(a, a) */
START_TEST(test_fe_api)
{
	const struct fe_kernel *fk = fe_of(_i);
	const struct tvar *t = var(_i);
	const char *kname = t->k->name;
	int64_t a[ML], b[ML];
	rng_t rng;
	rng_init(&rng, t->label, 305);
	ck_assert_msg(lf_impl_force(kname, t->v->name) == 0, "cannot force %s", t->label);
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	for (int k = 0; k < 300; k++) {
		fe_elem(fk, a, k < FE_NELEM ? (enum fe_elem)k : k % 2 ? FE_RAND_M : FE_RAND_P, &rng);
		fe_elem(fk, b, (enum fe_elem)((size_t)k * 7 % FE_NELEM), &rng);
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_API,
		                        "public entry point");
		c.fn = fk->api;
		exec_fe(&c, fk, a, b, (enum p256_alias)(k % P256_NALIAS), NULL);
	}
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	/* square(a) and mul(a, a) through the dispatcher: the same value mod p */
	if (fk->sqr)
		for (size_t i = 0; i < fe_count(); i++) {
			const struct fe_kernel *m = fe_at(i);
			if (m->sqr || strcmp(m->field, fk->field) != 0)
				continue;
			for (int k = 0; k < 100; k++) {
				int64_t r1[ML], r2[ML];
				fe_elem(fk, a, k % 2 ? FE_RAND_M : (enum fe_elem)(k / 2 % FE_NELEM),
				        &rng);
				((lf_fe_square_fn)fk->api)(r1, a);
				((lf_fe_mul_fn)m->api)(r2, a, a);
				or_fe_canon(fk, r1, r1);
				or_fe_canon(fk, r2, r2);
				ck_assert_msg(memcmp(r1, r2, fk->limbs * 8) == 0, "%s: square(a) != "
				              "%s(a, a) mod p (%s)", t->label, m->name, lf_impl(m->name));
			}
		}
	lf_impl_force(kname, NULL);
}
END_TEST

static void restore(void)
{
	for (size_t i = 0; i < fe_count(); i++)
		lf_impl_force(lf_kernel_table[fe_at(i)->kid].name, NULL);
}

static void add_all(TCase *tc, const TTest *tt)
{
	for (size_t i = 0; i < fe_count(); i++)
		tcase_add_loop_test(tc, tt, 64 * (int)i,
		                    64 * (int)i + (int)tv_runnable_count(fe_at(i)->kid));
}

Suite *suite_fe(void)
{
	Suite *s = suite_create("fe");
	TCase *tc = tcase_create("field_products");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	add_all(tc, test_fe_edges);
	add_all(tc, test_fe_carries);
	add_all(tc, test_fe_random);
	add_all(tc, test_fe_guards);
	add_all(tc, test_fe_api);
	suite_add_tcase(s, tc);
	return s;
}
