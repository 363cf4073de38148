/*
 * test_p256_mont.c -- p256_mont_mult, p256_mont_square and p256_mont_mult_x8: the JDK's
 * MontgomeryIntegerPolynomialP256 (5 limbs of 52 bits in int64_t, R = 2^260), every runnable
 * variant called directly and through lf_p256_mont_mult / lf_p256_mont_square /
 * lf_p256_mont_mult_x8 with the variant forced.  Oracle: GMP (a b 2^-260 mod p from
 * mpz_invert, p from its hex digits; tests/harness/p256m.c), never a limbforge kernel.
 *
 * Faults this is designed to catch:
 *   - a result congruent but not fully reduced, or with a limb >= 2^52 (the executor checks
 *     every limb and the exact value), over the edge elements 0, 1, 2, p-1, p-2, 2^256 mod p,
 *     oneMont = 2^260 mod p, h = 2^520 mod p, elements whose limbs are 2^52-1 where the value
 *     is still below p, 2^255, (p-1)/2, all pairs; cases with the final subtraction due and
 *     not due are counted (both must occur);
 *   - a lost carry in a reduction step: the quotient digit m of every row solved to 0, 1,
 *     2, 2^51, 2^52-2, 2^52-1 (b chosen limb by limb from a simulation on values), and
 *     saturating operands (p - 1, all-ones limbs) under every aliasing;
 *   - aliasing: r == a, r == b, a == b, r == a == b; squaring against mult(a, a);
 *   - x8: an element in the wrong lane or a lane mixing elements (each lane gets its own
 *     data, edge elements at every lane position, every lane compared with the oracle and with
 *     every scalar variant), aliasing of r with a and b;
 *   - reads outside the operands (guard pages), writes outside r (canaries), an input
 *     modified, an r limb never written (r starts as garbage), byte offsets 0..63;
 *   - an error only some values trigger: chains of 1000 products (x = x b R^-1, x = x^2
 *     R^-1, eight lanes at once for x8) compared with the oracle's chain at every step.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define M52 ((UINT64_C(1) << 52) - 1)

/* loop index: mult's variants 0..63, square's 64..127, x8's 128.. */
static const struct tvar *var(int i)
{
	enum lf_kernel_id kid = i < 64 ? LF_K_p256_mont_mult : i < 128 ? LF_K_p256_mont_square :
	                        LF_K_p256_mont_mult_x8;
	return tv_runnable(kid, (size_t)(i % 64));
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

static int is_sqr(const struct tvar *t)
{
	return t->kid == LF_K_p256_mont_square;
}

static int is_x8(const struct tvar *t)
{
	return t->kid == LF_K_p256_mont_mult_x8;
}

/* ---- elements ----------------------------------------------------------------------------- */
enum { E_ZERO, E_ONE, E_TWO, E_PM1, E_PM2, E_2_256, E_ONEMONT, E_H, E_ONES4, E_ONES2,
       E_ONES_TOP, E_ONES_MID, E_TOPBIT, E_HALF, N_EDGE };
static const char *const edge_name[N_EDGE] = {
	"0", "1", "2", "p-1", "p-2", "2^256 mod p", "oneMont = 2^260 mod p", "h = 2^520 mod p",
	"limbs 0..3 = 2^52-1, limb 4 = p4 - 1", "limbs 0, 1 = 2^52-1",
	"limbs 0..2 = 2^52-1, limb 3 = 2^36 - 1, limb 4 = p4", "limbs 1..3 = 2^52-1, limb 4 = 2^47",
	"2^255", "(p-1)/2",
};

static void edge(int64_t x[5], int which)
{
	memset(x, 0, 40);
	switch (which) {
	case E_ZERO:
		break;
	case E_ONE:
	case E_TWO:
		x[0] = which;
		break;
	case E_PM1:
	case E_PM2:
		or_p256m_value(x, NULL, which == E_PM1 ? 3 : 4);
		break;
	case E_2_256:
		or_p256m_value(x, NULL, 0);
		break;
	case E_ONEMONT:
		or_p256m_value(x, NULL, 1);
		break;
	case E_H:
		or_p256m_value(x, NULL, 2);
		break;
	case E_ONES4:
		x[0] = x[1] = x[2] = x[3] = (int64_t)M52;
		x[4] = (int64_t)((UINT64_C(1) << 48) - (UINT64_C(1) << 16) - 1);
		break;
	case E_ONES2:
		x[0] = x[1] = (int64_t)M52;
		break;
	case E_ONES_TOP:
		x[0] = x[1] = x[2] = (int64_t)M52;
		x[3] = (int64_t)((UINT64_C(1) << 36) - 1);
		x[4] = (int64_t)((UINT64_C(1) << 48) - (UINT64_C(1) << 16));
		break;
	case E_ONES_MID:
		x[1] = x[2] = x[3] = (int64_t)M52;
		x[4] = (int64_t)(UINT64_C(1) << 47);
		break;
	case E_TOPBIT:
		or_p256m_value(x, "8000000000000000000000000000000000000000000000000000000000000000",
		               0);
		break;
	case E_HALF:
		or_p256m_value(x, "7fffffff800000008000000000000000000000007fffffffffffffffffffffff",
		               0);
		break;
	}
}

/* a random element below p from a pattern, via 52-bit cuts of the pattern's words, mod p */
static void element(int64_t x[5], enum pattern pat, rng_t *r)
{
	uint64_t w[5];
	fill64(w, 5, pat, r);
	or_p256m_mod(x, w);
}

/* ---- one element ------------------------------------------------------------------------ */
START_TEST(test_p256m_edges)
{
	const struct tvar *t = var(_i);
	int64_t a[40], b[40];
	size_t due = 0, notdue = 0;
	for (int i = 0; i < N_EDGE; i++) {
		edge(a, i);
		ck_assert_msg(or_p256m_below_p(a), "test bug: edge %s not below p", edge_name[i]);
	}
	rng_t rng;
	rng_init(&rng, t->label, 191);
	if (is_x8(t)) {
		/* every pair of edges, the pairs spread over lanes: lane k gets pair (i, j + k) */
		for (int i = 0; i < N_EDGE; i++)
			for (int j = 0; j < N_EDGE; j++) {
				for (int k = 0; k < 8; k++) {
					edge(a + 5 * k, (i + k) % N_EDGE);
					edge(b + 5 * k, (j + 3 * k) % N_EDGE);
				}
				int sub;
				struct exec_ctx c = ctx(t, COV_LATTICE, "edge pairs, every lane");
				exec_p256m_x8(&c, a, b, P256_SEP, NULL, &sub);
				*(sub ? &due : &notdue) += 1;
			}
		for (int pat = 0; pat < N_PAT; pat++) {
			for (int k = 0; k < 40; k += 5) {
				element(a + k, (enum pattern)pat, &rng);
				element(b + k, PAT_RANDOM, &rng);
			}
			struct exec_ctx c = ctx(t, COV_LATTICE, pat_name((enum pattern)pat));
			exec_p256m_x8(&c, a, b, P256_SEP, NULL, NULL);
		}
	} else {
		for (int i = 0; i < N_EDGE; i++)
			for (int j = 0; j < N_EDGE; j++) {
				int sub;
				edge(a, i);
				edge(b, j);
				char what[200];
				snprintf(what, sizeof what, "a = %s, b = %s", edge_name[i], edge_name[j]);
				struct exec_ctx c = ctx(t, COV_LATTICE, what);
				exec_p256m(&c, is_sqr(t), a, b, P256_SEP, NULL, &sub);
				*(sub ? &due : &notdue) += 1;
				if (is_sqr(t))
					break;
			}
		for (int i = 0; i < N_EDGE; i++)
			for (int pat = 0; pat < N_PAT; pat++) {
				int sub;
				edge(a, i);
				element(b, (enum pattern)pat, &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, pat_name((enum pattern)pat));
				exec_p256m(&c, is_sqr(t), a, b, P256_SEP, NULL, &sub);
				*(sub ? &due : &notdue) += 1;
				exec_p256m(&c, is_sqr(t), b, a, P256_SEP, NULL, &sub);
				*(sub ? &due : &notdue) += 1;
			}
	}
	ck_assert_msg(due > 0 && notdue > 0, "test bug: final subtraction due in %zu cases, not "
	              "due in %zu: both must occur", due, notdue);
}
END_TEST

/* Known answers from the definition: oneMont is the unit (oneMont^2 R^-1 = oneMont), x h
 * R^-1 = x R (into the domain), (x R) 1 R^-1 = x (out of it), 0 annihilates. */
START_TEST(test_p256m_identities)
{
	const struct tvar *t = var(_i);
	int64_t one[5] = { 1, 0, 0, 0, 0 }, zero[5] = { 0 }, om[5], h[5], x[5], xr[5];
	int64_t A[40], B[40], W[40];
	rng_t rng;
	rng_init(&rng, t->label, 192);
	or_p256m_value(om, NULL, 1);
	or_p256m_value(h, NULL, 2);
	for (int k = 0; k < 64; k++) {
		element(x, k % 2 ? PAT_LATTICE : PAT_RANDOM, &rng);
		or_p256m_mont(xr, x, h, NULL);
		/* x R mod p from GMP without any Montgomery product: x 2^260 mod p */
		/* x R mod p from GMP without any Montgomery product: x 2^260 as hex (limb 4
		 * first, 13 digits each, then 65 zero digits), mod p */
		int64_t xr2[5];
		char hex[200];
		snprintf(hex, sizeof hex, "%013llx%013llx%013llx%013llx%013llx%065d",
		         (unsigned long long)x[4], (unsigned long long)x[3], (unsigned long long)x[2],
		         (unsigned long long)x[1], (unsigned long long)x[0], 0);
		or_p256m_value(xr2, hex, 0);
		ck_assert_msg(memcmp(xr, xr2, 40) == 0, "test bug: x h R^-1 != x R");
		if (is_x8(t)) {
			for (int l = 0; l < 8; l++) {
				int sel = (k + l) % 4;
				memcpy(A + 5 * l, sel == 0 ? x : sel == 1 ? xr : sel == 2 ? om : x, 40);
				memcpy(B + 5 * l, sel == 0 ? h : sel == 1 ? one : sel == 2 ? om : zero, 40);
				memcpy(W + 5 * l, sel == 0 ? xr : sel == 1 ? x : sel == 2 ? om : zero, 40);
			}
			struct exec_ctx c = ctx(t, COV_KAT, "x h -> x R, x R 1 -> x, oneMont^2, x 0 "
			                        "by lane");
			exec_p256m_x8(&c, A, B, P256_SEP, W, NULL);
			continue;
		}
		struct exec_ctx c = ctx(t, COV_KAT, "oneMont squared: the unit");
		exec_p256m(&c, is_sqr(t), om, om, P256_SEP, om, NULL);
		if (is_sqr(t))
			continue;
		c.what = "x times h: into the Montgomery domain";
		exec_p256m(&c, 0, x, h, P256_SEP, xr, NULL);
		c.what = "x R times 1: out of the Montgomery domain";
		exec_p256m(&c, 0, xr, one, P256_RA, x, NULL);
		c.what = "x R times oneMont";
		exec_p256m(&c, 0, xr, om, P256_RB, xr, NULL);
		c.what = "x times 0";
		exec_p256m(&c, 0, x, zero, P256_SEP, zero, NULL);
	}
}
END_TEST

/* b chosen limb by limb so that the quotient digit m_i = (t + a b_i) mod 2^52 of every row
 * takes a target value, simulated on values (t = (t + a b_i + m_i p) / 2^52, generic
 * integer arithmetic through GMP-free 52-bit limbs of t held in __int128 columns). */
__extension__ typedef unsigned __int128 u128;

static uint64_t inv52(uint64_t a)
{
	uint64_t x = a;                          /* a odd: Newton, mod 2^64 then cut */
	for (int i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x & M52;
}

static const uint64_t PL[5] = { M52, (UINT64_C(1) << 44) - 1, 0, UINT64_C(1) << 36,
	                        (UINT64_C(1) << 48) - (UINT64_C(1) << 16) };

/* t as 6 limbs of 52 bits (exact); returns hits */
static int solve_b(int64_t b[5], const int64_t a[5], const uint64_t tg[5])
{
	u128 t[7] = { 0 };
	int hits = 0;
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = (uint64_t)(t[0] & M52);
		uint64_t bi = ((tg[i] - t0) * inv52((uint64_t)a[0])) & M52;
		b[i] = (int64_t)bi;
		for (int j = 0; j < 5; j++)
			t[j] += (u128)(uint64_t)a[j] * bi;
		hits += (uint64_t)(t[0] & M52) == tg[i];
		uint64_t m = (uint64_t)(t[0] & M52);
		for (int j = 0; j < 5; j++)
			t[j] += (u128)m * PL[j];
		/* normalise and shift one limb down */
		for (int j = 0; j < 6; j++) {
			t[j + 1] += t[j] >> 52;
			t[j] &= M52;
		}
		for (int j = 0; j < 6; j++)
			t[j] = t[j + 1];
		t[6] = 0;
	}
	return hits;
}

START_TEST(test_p256m_carries)
{
	const struct tvar *t = var(_i);
	static const uint64_t targets[] = { 0, 1, 2, UINT64_C(1) << 51, M52 - 1, M52 };
	int64_t a[40], b[40], bb[5];
	size_t due = 0, notdue = 0, hit = 0, tried = 0;
	rng_t rng;
	rng_init(&rng, t->label, 193);
	for (int rep = 0; rep < 200; rep++) {
		int lanes = is_x8(t) ? 8 : 1;
		for (int l = 0; l < lanes; l++) {
			int64_t *x = a + 5 * l, *y = b + 5 * l;
			element(x, rep % 3 ? PAT_RANDOM : PAT_ONES, &rng);
			if ((rep + l) % 5 == 0)
				edge(x, (rep + l) % 10 ? E_PM1 : E_ONES4);
			x[0] |= 1;
			if (!or_p256m_below_p(x))
				x[0] -= 2;
			uint64_t tg[5];
			for (int i = 0; i < 5; i++)
				tg[i] = targets[(size_t)(rep + i + l) % NLEN(targets)];
			hit += (size_t)solve_b(bb, x, tg);
			tried += 5;
			memcpy(y, bb, 40);
			if (!or_p256m_below_p(y)) {
				uint64_t w[5];
				for (int i = 0; i < 5; i++)
					w[i] = (uint64_t)y[i];
				or_p256m_mod(y, w);      /* rare: b too large; keep the case valid */
			}
		}
		int sub;
		struct exec_ctx c = ctx(t, COV_CARRY, "quotient digit m solved per row to 0, 1, 2, "
		                        "2^51, 2^52-2, 2^52-1");
		if (is_x8(t)) {
			exec_p256m_x8(&c, a, b, P256_SEP, NULL, &sub);
			*(sub ? &due : &notdue) += 1;
			exec_p256m_x8(&c, a, b, P256_RB, NULL, NULL);
		} else if (is_sqr(t)) {
			exec_p256m(&c, 1, a, NULL, P256_SEP, NULL, &sub);
			*(sub ? &due : &notdue) += 1;
		} else {
			exec_p256m(&c, 0, a, b, P256_SEP, NULL, &sub);
			*(sub ? &due : &notdue) += 1;
			exec_p256m(&c, 0, a, b, P256_RB, NULL, NULL);
		}
	}
	/* saturating operands, every aliasing */
	static const int sat[] = { E_PM1, E_PM2, E_ONES4, E_ONES2, E_ONES_TOP, E_ONES_MID, E_H };
	for (size_t i = 0; i < NLEN(sat); i++)
		for (size_t j = 0; j < NLEN(sat); j++)
			for (int al = 0; al < P256_NALIAS; al++) {
				int sub;
				struct exec_ctx c = ctx(t, COV_CARRY, "saturating operands");
				if (is_x8(t)) {
					for (int l = 0; l < 8; l++) {
						edge(a + 5 * l, sat[(i + (size_t)l) % NLEN(sat)]);
						edge(b + 5 * l, sat[(j + 2 * (size_t)l) % NLEN(sat)]);
					}
					exec_p256m_x8(&c, a, b, (enum p256_alias)al, NULL, &sub);
				} else {
					edge(a, sat[i]);
					edge(b, sat[j]);
					exec_p256m(&c, is_sqr(t), a, b, (enum p256_alias)al, NULL, &sub);
				}
				*(sub ? &due : &notdue) += 1;
			}
	ck_assert_msg(due > 0 && notdue > 0, "test bug: final subtraction due in %zu cases, not "
	              "due in %zu: both must occur", due, notdue);
	ck_assert_msg(is_sqr(t) || hit * 10 >= tried * 9, "test bug: m hit its target in %zu of "
	              "%zu rows", hit, tried);
}
END_TEST

/* random elements, every aliasing; chains against the oracle's chain */
START_TEST(test_p256m_random)
{
	const struct tvar *t = var(_i);
	int64_t a[40], b[40], x[40], w[40];
	rng_t rng;
	rng_init(&rng, t->label, 194);
	int n = is_x8(t) ? 40 : 5;
	for (int k = 0; k < (is_x8(t) ? 500 : 2000); k++) {
		for (int l = 0; l < n; l += 5) {
			element(a + l, (k + l) % 4 ? PAT_RANDOM : (enum pattern)((k / 4 + l) % N_PAT),
			        &rng);
			element(b + l, PAT_RANDOM, &rng);
		}
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_LATTICE,
		                        "random elements");
		if (is_x8(t))
			exec_p256m_x8(&c, a, b, (enum p256_alias)(k % P256_NALIAS), NULL, NULL);
		else
			exec_p256m(&c, is_sqr(t), a, b, (enum p256_alias)(k % P256_NALIAS), NULL, NULL);
	}
	/* chained: x = x b R^-1 (x^2 R^-1) a thousand times, every step checked */
	for (int l = 0; l < n; l += 5) {
		element(x + l, PAT_RANDOM, &rng);
		element(b + l, l ? PAT_RANDOM : PAT_LATTICE, &rng);
	}
	memcpy(w, x, (size_t)n * 8);
	for (int k = 0; k < 1000; k++) {
		if (is_x8(t))
			((lf_p256_mont_mult_x8_fn)t->v->fn)(x, x, b);
		else if (is_sqr(t))
			((lf_p256_mont_square_fn)t->v->fn)(x, x);
		else
			((lf_p256_mont_mult_fn)t->v->fn)(x, x, b);
		for (int l = 0; l < n; l += 5)
			or_p256m_mont(w + l, w + l, is_sqr(t) ? w + l : b + l, NULL);
		ck_assert_msg(memcmp(x, w, (size_t)n * 8) == 0, "%s: chained step %d differs",
		              t->label, k);
	}
	cov_add(t, COV_INPLACE, 1000);
}
END_TEST

START_TEST(test_p256m_guards)
{
	const struct tvar *t = var(_i);
	int64_t a[40], b[40];
	rng_t rng;
	rng_init(&rng, t->label, 195);
	for (int place = GB_MID; place <= GB_END; place++)
		for (size_t shift = 0; shift < 64; shift++) {
			for (int l = 0; l < 40; l += 5) {
				element(a + l, PAT_RANDOM, &rng);
				if ((shift + (size_t)l) % 3 == 0)
					edge(b + l, E_PM1);
				else
					element(b + l, PAT_ONES, &rng);
			}
			struct exec_ctx c = ctx(t, place == GB_MID ? COV_ALIGN : COV_GUARD,
			                        place == GB_MID ? "byte offsets 0..63" : "guard page");
			c.place = (enum gb_place)place;
			c.shift = shift;
			if (is_x8(t))
				exec_p256m_x8(&c, a, b, (enum p256_alias)(shift % P256_NALIAS), NULL,
				              NULL);
			else
				exec_p256m(&c, is_sqr(t), a, b, (enum p256_alias)(shift % P256_NALIAS),
				           NULL, NULL);
		}
}
END_TEST

/* x8: each lane against every scalar variant (and mult against square where a == b), the
 * lanes' data all distinct, an edge element moved through every lane position */
START_TEST(test_p256m_x8_lanes)
{
	const struct tvar *t = tv_runnable(LF_K_p256_mont_mult_x8, (size_t)_i);
	lf_p256_mont_mult_x8_fn f = (lf_p256_mont_mult_x8_fn)t->v->fn;
	int64_t a[40], b[40], r[40], s[5];
	rng_t rng;
	rng_init(&rng, t->label, 196);
	size_t nm = tv_runnable_count(LF_K_p256_mont_mult);
	for (int e = 0; e < N_EDGE; e++)
		for (int pos = 0; pos < 8; pos++) {
			for (int l = 0; l < 40; l += 5) {
				element(a + l, PAT_RANDOM, &rng);
				element(b + l, (enum pattern)((l / 5 + e) % N_PAT), &rng);
			}
			edge(a + 5 * pos, e);
			edge(b + 5 * ((pos + 3) % 8), (e + 5) % N_EDGE);
			struct exec_ctx c = ctx(t, COV_LATTICE, "an edge element at every lane");
			exec_p256m_x8(&c, a, b, P256_SEP, NULL, NULL);
			crash_note(t->label, "lanes against the scalar variants", 40);
			f(r, a, b);
			for (size_t v = 0; v < nm; v++) {
				const struct tvar *sv = tv_runnable(LF_K_p256_mont_mult, v);
				for (int l = 0; l < 8; l++) {
					((lf_p256_mont_mult_fn)sv->v->fn)(s, a + 5 * l, b + 5 * l);
					ck_assert_msg(memcmp(s, r + 5 * l, 40) == 0, "%s: lane %d differs "
					              "from %s", t->label, l, sv->label);
				}
			}
		}
	cov_add(t, COV_LATTICE, 1);
}
END_TEST

/* the public entry points with the variant forced (and mult(a, a) against square) */
START_TEST(test_p256m_api)
{
	const struct tvar *t = var(_i);
	const char *kname = t->k->name;
	int64_t a[40], b[40];
	rng_t rng;
	rng_init(&rng, t->label, 197);
	ck_assert_msg(lf_impl_force(kname, t->v->name) == 0, "cannot force %s", t->label);
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	for (int k = 0; k < 300; k++) {
		for (int l = 0; l < 40; l += 5) {
			if (k < N_EDGE)
				edge(a + l, (k + l / 5) % N_EDGE);
			else
				element(a + l, (enum pattern)((k + l) % N_PAT), &rng);
			element(b + l, PAT_RANDOM, &rng);
		}
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_API,
		                        "public entry point");
		if (is_x8(t)) {
			c.fn = (lf_fnptr)lf_p256_mont_mult_x8;
			exec_p256m_x8(&c, a, b, (enum p256_alias)(k % P256_NALIAS), NULL, NULL);
		} else {
			c.fn = is_sqr(t) ? (lf_fnptr)lf_p256_mont_square : (lf_fnptr)lf_p256_mont_mult;
			exec_p256m(&c, is_sqr(t), a, b, (enum p256_alias)(k % P256_NALIAS), NULL, NULL);
		}
		if (is_sqr(t)) {
			/* square(a) == mult(a, a) with the dispatcher's mult */
			int64_t r1[5], r2[5];
			lf_p256_mont_square(r1, a);
			lf_p256_mont_mult(r2, a, a);
			ck_assert_msg(memcmp(r1, r2, 40) == 0, "%s: square(a) != mult(a, a) (%s)",
			              t->label, lf_impl("p256_mont_mult"));
		}
	}
	lf_impl_force(kname, NULL);
}
END_TEST

static void restore(void)
{
	lf_impl_force("p256_mont_mult", NULL);
	lf_impl_force("p256_mont_square", NULL);
	lf_impl_force("p256_mont_mult_x8", NULL);
}

static void add_all(TCase *tc, const TTest *tt)
{
	tcase_add_loop_test(tc, tt, 0, (int)tv_runnable_count(LF_K_p256_mont_mult));
	tcase_add_loop_test(tc, tt, 64, 64 + (int)tv_runnable_count(LF_K_p256_mont_square));
	tcase_add_loop_test(tc, tt, 128, 128 + (int)tv_runnable_count(LF_K_p256_mont_mult_x8));
}

Suite *suite_p256_mont(void)
{
	Suite *s = suite_create("p256_mont");
	TCase *tc = tcase_create("p256_mont_52");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	add_all(tc, test_p256m_edges);
	add_all(tc, test_p256m_identities);
	add_all(tc, test_p256m_carries);
	add_all(tc, test_p256m_random);
	add_all(tc, test_p256m_guards);
	add_all(tc, test_p256m_api);
	tcase_add_loop_test(tc, test_p256m_x8_lanes, 0,
	                    (int)tv_runnable_count(LF_K_p256_mont_mult_x8));
	suite_add_tcase(s, tc);
	return s;
}
