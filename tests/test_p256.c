/*
 * test_p256.c -- p256_mul_mont, p256_sqr_mont (P-256 field, OpenSSL ecp_nistz256 layout: 4 x
 * 64-bit limbs, R = 2^256) and conditional_assign (the JDK's IntegerPolynomial.
 * conditionalAssign), every runnable variant called directly; the P-256 kernels also through
 * lf_p256_mul_mont / lf_p256_sqr_mont, conditional_assign through lf_conditional_assign, with
 * the variant forced.  Oracles: GMP (a b 2^-256 mod p from mpz_invert, p from its hex
 * digits), and for conditional_assign a plain copy of the chosen input.
 *
 * Faults this is designed to catch:
 *   - a result that is congruent but not fully reduced: every output is compared limb for
 *     limb with the reduced value, over the edge elements 0, 1, 2, p-1, p-2, 2^256 mod p, R mod
 *     p ("oneMont"), R^2 mod p, the values whose limbs are all ones where that is still below p
 *     (2^192 - 1, 2^256 - 2^224 - 1, ...), 2^255, lattice limbs reduced mod p, all pairs;
 *     cases where the final subtraction is due and where it is not are counted (both must
 *     occur, from the oracle's unreduced value);
 *   - a lost carry in the specialised reduction (m << 32, m >> 32, m p3 with m = t0): t0 =
 *     0, 1, 2^32 - 1, 2^32, 2^63, 2^64 - 1 in every row (b chosen limb by limb from the
 *     lattice so that the low limb of the accumulator takes these values), and operands
 *     whose products saturate the accumulator (a = b = p - 1, all-ones limbs);
 *   - aliasing: r == a, r == b, a == b, r == a == b (the contract allows all), squaring of
 *     x through mul (a == b) against sqr;
 *   - inputs in [p, 2^256) (outside the contract, still defined): congruent, no fault;
 *   - reads outside the 4 limbs (guard pages on both sides), writes outside r (canaries), an
 *     input modified, an r limb never written (r starts as garbage), misaligned operands
 *     (every byte offset 0..63);
 *   - conditional_assign: set 0 leaving a changed or set 1 not copying, for every n 0..40 and
 *     the JDK's 5, 10, 14, 16, 19 at guard pages and every byte offset; b modified; a limb
 *     past n touched; n = 0 touching memory (NULL, PROT_NONE); a == b.
 * Chained use (x = x b R^-1 a thousand times, x = x^2 R^-1) is compared with the oracle's
 * chain, so an error that only some values trigger shows up along the walk.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct tvar *var(enum lf_kernel_id kid, int vi)
{
	return tv_runnable(kid, (size_t)vi);
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

static int is_sqr(const struct tvar *t)
{
	return t->kid == LF_K_p256_sqr_mont;
}

/* ---- edge elements ------------------------------------------------------------------------ */
enum { E_ZERO, E_ONE, E_TWO, E_PM1, E_PM2, E_2_224, E_R, E_R2, E_ONES192, E_ONES_TOP, E_ONES_LOW,
       E_TOPBIT, E_P3M1, E_HALF, N_EDGE };
static const char *const edge_name[N_EDGE] = {
	"0", "1", "2", "p-1", "p-2", "2^224", "R mod p = 2^256 mod p (oneMont)", "R^2 mod p",
	"2^192-1 (three all-ones limbs)", "2^256-2^224-1 (limbs all ones but the top's low half)",
	"2^128-1 + 2^192 (p3 - 1)", "2^255", "(p3 - 1) 2^192", "(p-1)/2",
};

static void edge(uint64_t x[4], int which)
{
	uint64_t p[4];
	or_p256_prime(p);
	memset(x, 0, 32);
	switch (which) {
	case E_ZERO:
		break;
	case E_ONE:
	case E_TWO:
		x[0] = (uint64_t)which;
		break;
	case E_PM1:
	case E_PM2:
		memcpy(x, p, 32);
		x[0] -= which == E_PM1 ? 1 : 2;
		break;
	case E_2_224:
		x[3] = UINT64_C(1) << 32;
		break;
	case E_R:
		or_p256_rpow(x, 1);
		break;
	case E_R2:
		or_p256_rpow(x, 2);
		break;
	case E_ONES192:
		x[0] = x[1] = x[2] = UINT64_MAX;
		break;
	case E_ONES_TOP:
		x[0] = x[1] = x[2] = UINT64_MAX;
		x[3] = UINT64_C(0xffffffff00000000);
		break;
	case E_ONES_LOW:
		x[0] = x[1] = UINT64_MAX;
		x[3] = p[3] - 1;
		break;
	case E_TOPBIT:
		x[3] = UINT64_C(1) << 63;
		break;
	case E_P3M1:
		x[3] = p[3] - 1;
		break;
	case E_HALF:
		memcpy(x, p, 32);
		x[0] = (x[0] >> 1) | (x[1] << 63);
		x[1] = (x[1] >> 1) | (x[2] << 63);
		x[2] = (x[2] >> 1) | (x[3] << 63);
		x[3] >>= 1;
		break;
	}
}

/* a random element below p from a pattern (lattice limbs etc.), reduced by the oracle */
static void element(uint64_t x[4], enum pattern pat, rng_t *r)
{
	fill64(x, 4, pat, r);
	or_p256_mod(x, x);
}

static int below_p(const uint64_t x[4])
{
	uint64_t p[4];
	or_p256_prime(p);
	return or_cmp(x, p, 4) < 0;
}

/* ---- p256_mul_mont / p256_sqr_mont -------------------------------------------------------- */
START_TEST(test_p256_edges)
{
	const struct tvar *t = var(_i < 64 ? LF_K_p256_mul_mont : LF_K_p256_sqr_mont, _i % 64);
	uint64_t a[4], b[4];
	size_t due = 0, notdue = 0;
	for (int i = 0; i < N_EDGE; i++) {
		edge(a, i);
		ck_assert_msg(below_p(a), "test bug: edge %s not below p", edge_name[i]);
		for (int j = 0; j < N_EDGE; j++) {
			struct or_p256_info info;
			edge(b, j);
			char what[160];
			snprintf(what, sizeof what, "a = %s, b = %s", edge_name[i], edge_name[j]);
			struct exec_ctx c = ctx(t, COV_LATTICE, what);
			exec_p256(&c, is_sqr(t), a, b, P256_SEP, NULL, &info);
			*(info.subtract ? &due : &notdue) += 1;
			if (is_sqr(t))
				break;
		}
	}
	/* edges against lattice elements, both orders */
	rng_t rng;
	rng_init(&rng, t->label, 91);
	for (int i = 0; i < N_EDGE; i++)
		for (int pat = 0; pat < N_PAT; pat++) {
			struct or_p256_info info;
			edge(a, i);
			element(b, (enum pattern)pat, &rng);
			struct exec_ctx c = ctx(t, COV_LATTICE, pat_name((enum pattern)pat));
			exec_p256(&c, is_sqr(t), a, b, P256_SEP, NULL, &info);
			*(info.subtract ? &due : &notdue) += 1;
			exec_p256(&c, is_sqr(t), b, a, P256_SEP, NULL, &info);
			*(info.subtract ? &due : &notdue) += 1;
		}
	ck_assert_msg(due > 0 && notdue > 0, "test bug: final subtraction due in %zu cases, not "
	              "due in %zu: both must occur", due, notdue);
}
END_TEST

/* Known answers from the definition alone: x R^2 R^-1 = x R (to Montgomery form), (x R) 1
 * R^-1 = x (out of it), R R R^-1 = R (oneMont is the unit), 0 annihilates. */
START_TEST(test_p256_identities)
{
	const struct tvar *t = var(_i < 64 ? LF_K_p256_mul_mont : LF_K_p256_sqr_mont, _i % 64);
	uint64_t r1[4], r2[4], one[4] = { 1, 0, 0, 0 }, zero[4] = { 0, 0, 0, 0 }, x[4], xr[4];
	rng_t rng;
	rng_init(&rng, t->label, 92);
	or_p256_rpow(r1, 1);
	or_p256_rpow(r2, 2);
	struct exec_ctx c = ctx(t, COV_KAT, "R mod p squared: oneMont is the unit");
	exec_p256(&c, is_sqr(t), r1, r1, P256_SEP, r1, NULL);
	c.what = "R^2 mod p times itself: R^3 mod p";
	uint64_t r3[4];
	or_p256_rpow(r3, 3);
	exec_p256(&c, is_sqr(t), r2, r2, P256_SEP, r3, NULL);
	c.what = "0 times 0";
	exec_p256(&c, is_sqr(t), zero, zero, P256_SEP, zero, NULL);
	for (int k = 0; k < 64 && !is_sqr(t); k++) {
		element(x, k % 2 ? PAT_LATTICE : PAT_RANDOM, &rng);
		/* x R mod p, computed without any Montgomery product */
		uint64_t w[8] = { 0, 0, 0, 0, x[0], x[1], x[2], x[3] }, nq[4];
		or_p256_prime(nq);
		or_mod(w, w, (uint64_t[8]){ nq[0], nq[1], nq[2], nq[3], 0, 0, 0, 0 }, 8);
		memcpy(xr, w, 32);
		c.what = "x times R^2 mod p: into the Montgomery domain";
		exec_p256(&c, 0, x, r2, P256_SEP, xr, NULL);
		c.what = "x R times 1: out of the Montgomery domain";
		exec_p256(&c, 0, xr, one, P256_SEP, x, NULL);
		c.what = "x R times oneMont";
		exec_p256(&c, 0, xr, r1, P256_RA, xr, NULL);
		c.what = "x times 0";
		exec_p256(&c, 0, x, zero, P256_RB, zero, NULL);
	}
}
END_TEST

/* b chosen limb by limb (lowest first) so that the low limb t0 of the accumulator after the
 * row of a * b_i takes a given value: m = t0 is then 0, 1, 2^32-1, 2^32, 2^63, 2^64-1 in
 * every row.  The values are reached by searching b_i over the lattice and solving a_0 b_i +
 * t0_before = target mod 2^64 when a_0 is odd. */
__extension__ typedef unsigned __int128 u128;

static uint64_t inv64(uint64_t a)
{
	uint64_t x = a;                          /* a odd */
	for (int i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

START_TEST(test_p256_carries)
{
	const struct tvar *t = var(_i < 64 ? LF_K_p256_mul_mont : LF_K_p256_sqr_mont, _i % 64);
	static const uint64_t targets[] = { 0, 1, UINT64_C(0xffffffff), UINT64_C(0x100000000),
		                            UINT64_C(1) << 63, UINT64_MAX };
	uint64_t a[4], b[4], p[4];
	size_t due = 0, notdue = 0, hit = 0, tried = 0;
	rng_t rng;
	rng_init(&rng, t->label, 93);
	or_p256_prime(p);
	for (int rep = 0; rep < 200; rep++) {
		element(a, rep % 3 ? PAT_RANDOM : PAT_ONES, &rng);
		if (rep % 5 == 0)
			edge(a, rep % 10 ? E_PM1 : E_ONES_TOP);
		a[0] |= 1;                       /* odd a_0: every t0 reachable */
		if (!below_p(a))
			a[0] -= 2;
		if (is_sqr(t)) {
			/* squaring: a itself chosen so that t0 = a_0^2 mod 2^64 hits the target in
			 * the first row (a_0 = sqrt where one exists; else the saturating a) */
			struct or_p256_info info;
			struct exec_ctx c = ctx(t, COV_CARRY, rep % 2 ? "saturating square" :
			                        "odd low limb square");
			exec_p256(&c, 1, a, NULL, P256_SEP, NULL, &info);
			*(info.subtract ? &due : &notdue) += 1;
			continue;
		}
		/* the textbook rows on values, t = (t + a b_i + m p) / 2^64 with m = t0 (generic
		 * limb arithmetic, not the kernels' specialised steps), choosing b_i so that the
		 * low limb after t + a b_i is the target: b_i = (target - t0) a_0^-1 mod 2^64 */
		uint64_t tt[6] = { 0, 0, 0, 0, 0, 0 };
		for (int i = 0; i < 4; i++) {
			uint64_t tg = targets[(size_t)(rep + i) % NLEN(targets)];
			b[i] = (tg - tt[0]) * inv64(a[0]);
			/* t += a b_i; t += m p (m = t0); t >>= 64 -- exact multi-limb arithmetic */
			u128 acc = 0;
			for (int j = 0; j < 4; j++) {
				acc += (u128)a[j] * b[i] + tt[j];
				tt[j] = (uint64_t)acc;
				acc >>= 64;
			}
			acc += tt[4];
			tt[4] = (uint64_t)acc;
			tt[5] = (uint64_t)(acc >> 64);
			tried++;
			hit += tt[0] == tg;
			uint64_t m = tt[0];
			acc = 0;
			for (int j = 0; j < 4; j++) {
				acc += (u128)m * p[j] + tt[j];
				tt[j] = (uint64_t)acc;
				acc >>= 64;
			}
			acc += tt[4];
			tt[4] = (uint64_t)acc;
			tt[5] += (uint64_t)(acc >> 64);
			memmove(tt, tt + 1, 5 * 8);
			tt[5] = 0;
		}
		if (!below_p(b))
			or_p256_mod(b, b);           /* rare: b_3 too large; keep the case valid */
		struct or_p256_info info;
		struct exec_ctx c = ctx(t, COV_CARRY, "m = t0 solved per row to 0, 1, 2^32-1, 2^32, "
		                        "2^63, 2^64-1");
		exec_p256(&c, 0, a, b, P256_SEP, NULL, &info);
		*(info.subtract ? &due : &notdue) += 1;
		exec_p256(&c, 0, a, b, P256_RB, NULL, NULL);
	}
	/* saturating: a = b = p - 1 and all-ones-limb elements, every aliasing */
	static const int sat[] = { E_PM1, E_PM2, E_ONES192, E_ONES_TOP, E_ONES_LOW, E_P3M1 };
	for (size_t i = 0; i < NLEN(sat); i++)
		for (size_t j = 0; j < NLEN(sat); j++)
			for (int al = 0; al < P256_NALIAS; al++) {
				struct or_p256_info info;
				edge(a, sat[i]);
				edge(b, sat[j]);
				struct exec_ctx c = ctx(t, COV_CARRY, "saturating operands");
				exec_p256(&c, is_sqr(t), a, b, (enum p256_alias)al, NULL, &info);
				*(info.subtract ? &due : &notdue) += 1;
			}
	ck_assert_msg(due > 0 && notdue > 0, "test bug: final subtraction due in %zu cases, not "
	              "due in %zu: both must occur", due, notdue);
	ck_assert_msg(is_sqr(t) || hit * 10 >= tried * 9, "test bug: t0 hit its target in %zu of "
	              "%zu rows", hit, tried);
	printf("p256 carries (%s): final subtraction due in %zu cases, not due in %zu; t0 solved "
	       "in %zu of %zu rows\n", t->label, due, notdue, hit, tried);
	fflush(stdout);
}
END_TEST

/* random elements, every aliasing; chained walks against the oracle's walk */
START_TEST(test_p256_random)
{
	const struct tvar *t = var(_i < 64 ? LF_K_p256_mul_mont : LF_K_p256_sqr_mont, _i % 64);
	uint64_t a[4], b[4], x[4], w[4];
	rng_t rng;
	rng_init(&rng, t->label, 94);
	for (int k = 0; k < 2000; k++) {
		element(a, k % 4 ? PAT_RANDOM : (enum pattern)(k / 4 % N_PAT), &rng);
		element(b, PAT_RANDOM, &rng);
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_LATTICE,
		                        "random elements");
		exec_p256(&c, is_sqr(t), a, b, (enum p256_alias)(k % P256_NALIAS), NULL, NULL);
	}
	/* inputs in [p, 2^256): outside the contract, must stay congruent */
	for (int k = 0; k < 200; k++) {
		fill64(a, 4, k % 2 ? PAT_ONES : PAT_TOP_ONES, &rng);
		fill64(b, 4, PAT_RANDOM, &rng);
		b[3] |= UINT64_C(0xffffffff) << 32;
		struct exec_ctx c = ctx(t, COV_LATTICE, "inputs up to 2^256-1, unreduced");
		exec_p256(&c, is_sqr(t), a, b, P256_SEP, NULL, NULL);
	}
	/* chained: x = x b R^-1 (x^2 R^-1) a thousand times, every step checked */
	element(x, PAT_RANDOM, &rng);
	element(b, PAT_LATTICE, &rng);
	lf_p256_mul_mont_fn mul = (lf_p256_mul_mont_fn)t->v->fn;
	lf_p256_sqr_mont_fn sqr = (lf_p256_sqr_mont_fn)t->v->fn;
	memcpy(w, x, 32);
	for (int k = 0; k < 1000; k++) {
		if (is_sqr(t)) {
			sqr(x, x);
			or_p256_mont(w, w, w, NULL);
		} else {
			mul(x, x, b);
			or_p256_mont(w, w, b, NULL);
		}
		ck_assert_msg(memcmp(x, w, 32) == 0, "%s: chained step %d differs", t->label, k);
	}
	cov_add(t, COV_INPLACE, 1000);
}
END_TEST

START_TEST(test_p256_guards)
{
	const struct tvar *t = var(_i < 64 ? LF_K_p256_mul_mont : LF_K_p256_sqr_mont, _i % 64);
	uint64_t a[4], b[4];
	rng_t rng;
	rng_init(&rng, t->label, 95);
	for (int place = GB_MID; place <= GB_END; place++)
		for (size_t shift = 0; shift < 64; shift++) {
			element(a, PAT_RANDOM, &rng);
			if (shift % 3 == 0)
				edge(b, E_PM1);
			else
				element(b, PAT_ONES, &rng);
			/* shift: bytes from the page (GB_START, GB_END) or from the canaries (GB_MID) */
			struct exec_ctx c = ctx(t, place == GB_MID ? COV_ALIGN : COV_GUARD,
			                        place == GB_MID ? "byte offsets 0..63" : "guard page");
			c.place = (enum gb_place)place;
			c.shift = shift;
			exec_p256(&c, is_sqr(t), a, b, (enum p256_alias)(shift % P256_NALIAS), NULL,
			          NULL);
		}
}
END_TEST

/* mul with a == b against sqr (both the oracle's value; any pair of variants) */
START_TEST(test_p256_api)
{
	const struct tvar *t = var(_i < 64 ? LF_K_p256_mul_mont : LF_K_p256_sqr_mont, _i % 64);
	const char *kname = is_sqr(t) ? "p256_sqr_mont" : "p256_mul_mont";
	uint64_t a[4], b[4];
	rng_t rng;
	rng_init(&rng, t->label, 96);
	ck_assert_msg(lf_impl_force(kname, t->v->name) == 0, "cannot force %s", t->label);
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	for (int k = 0; k < 300; k++) {
		if (k < N_EDGE)
			edge(a, k);
		else
			element(a, (enum pattern)(k % N_PAT), &rng);
		element(b, PAT_RANDOM, &rng);
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_API,
		                        "public entry point");
		c.fn = is_sqr(t) ? (lf_fnptr)lf_p256_sqr_mont : (lf_fnptr)lf_p256_mul_mont;
		exec_p256(&c, is_sqr(t), a, b, (enum p256_alias)(k % P256_NALIAS), NULL, NULL);
	}
	lf_impl_force(kname, NULL);
}
END_TEST

/* ---- conditional_assign ------------------------------------------------------------------- */
#define MAXA 64

static const struct tvar *avar(int vi)
{
	return tv_runnable(LF_K_conditional_assign, (size_t)vi);
}

static void limbs(int64_t *x, size_t n, enum pattern p, rng_t *r)
{
	if (n)
		fill64((uint64_t *)x, n, p, r);
}

START_TEST(test_assign_lengths)
{
	const struct tvar *t = avar(_i);
	int64_t a[MAXA], b[MAXA];
	rng_t rng;
	rng_init(&rng, t->label, 97);
	for (size_t n = 1; n <= 40; n++)
		for (int set = 0; set <= 1; set++)
			for (int rep = 0; rep < 3; rep++) {
				limbs(a, n, PAT_RANDOM, &rng);
				limbs(b, n, rep == 1 ? PAT_ONES : PAT_RANDOM, &rng);
				if (rep == 2)
					limbs(a, n, PAT_ZERO, &rng);
				struct exec_ctx c = ctx(t, COV_LENGTH, "every n 1..40");
				exec_assign(&c, set, a, b, n, 0);
			}
	static const size_t big[] = { 63, 64 };
	for (size_t i = 0; i < NLEN(big); i++)
		for (int set = 0; set <= 1; set++) {
			limbs(a, big[i], PAT_RANDOM, &rng);
			limbs(b, big[i], PAT_LATTICE, &rng);
			struct exec_ctx c = ctx(t, COV_LENGTH, "63, 64 limbs");
			exec_assign(&c, set, a, b, big[i], 0);
		}
}
END_TEST

/* patterns: every pair of fill patterns for a and b at the JDK's lengths; and a, b that
 * differ in one bit only (a mask of the wrong width or sign misses it) */
START_TEST(test_assign_patterns)
{
	const struct tvar *t = avar(_i);
	static const size_t jdk[] = { 5, 10, 14, 16, 19 };
	int64_t a[MAXA], b[MAXA];
	rng_t rng;
	rng_init(&rng, t->label, 98);
	for (size_t i = 0; i < NLEN(jdk); i++) {
		size_t n = jdk[i];
		for (int pa = 0; pa < N_PAT; pa++)
			for (int pb = 0; pb < N_PAT; pb += 2)
				for (int set = 0; set <= 1; set++) {
					limbs(a, n, (enum pattern)pa, &rng);
					limbs(b, n, (enum pattern)pb, &rng);
					struct exec_ctx c = ctx(t, COV_LATTICE, "patterns, JDK lengths");
					exec_assign(&c, set, a, b, n, 0);
				}
		for (size_t k = 0; k < n; k++)
			for (int bit = 0; bit < 64; bit += 21)
				for (int set = 0; set <= 1; set++) {
					limbs(a, n, PAT_RANDOM, &rng);
					memcpy(b, a, n * 8);
					b[k] ^= (int64_t)(UINT64_C(1) << (bit == 63 ? 63 : bit));
					struct exec_ctx c = ctx(t, COV_CARRY, "a and b one bit apart");
					exec_assign(&c, set, a, b, n, 0);
				}
		/* the top bit only (the sign of the JDK's long limbs) */
		for (int set = 0; set <= 1; set++) {
			limbs(a, n, PAT_ZERO, &rng);
			for (size_t k = 0; k < n; k++)
				b[k] = INT64_MIN;
			struct exec_ctx c = ctx(t, COV_CARRY, "b limbs INT64_MIN, a zero");
			exec_assign(&c, set, a, b, n, 0);
		}
	}
}
END_TEST

START_TEST(test_assign_guards)
{
	const struct tvar *t = avar(_i);
	static const size_t ns[] = { 1, 2, 3, 4, 5, 7, 8, 9, 10, 14, 15, 16, 17, 19, 31, 32, 33 };
	int64_t a[MAXA], b[MAXA];
	rng_t rng;
	rng_init(&rng, t->label, 99);
	for (size_t i = 0; i < NLEN(ns); i++)
		for (int place = GB_START; place <= GB_END; place++)
			for (int set = 0; set <= 1; set++) {
				limbs(a, ns[i], PAT_RANDOM, &rng);
				limbs(b, ns[i], PAT_RANDOM, &rng);
				struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
				c.place = (enum gb_place)place;
				exec_assign(&c, set, a, b, ns[i], 0);
			}
	static const size_t jdk[] = { 5, 10, 14, 16, 19, 3 };
	for (size_t i = 0; i < NLEN(jdk); i++)
		for (size_t shift = 0; shift < 64; shift++)
			for (int set = 0; set <= 1; set++) {
				limbs(a, jdk[i], PAT_RANDOM, &rng);
				limbs(b, jdk[i], PAT_LATTICE, &rng);
				struct exec_ctx c = ctx(t, COV_ALIGN, "byte offsets 0..63");
				c.shift = shift;
				c.place = shift % 2 ? GB_END : GB_MID;
				exec_assign(&c, set, a, b, jdk[i], 0);
			}
}
END_TEST

START_TEST(test_assign_zero_alias)
{
	const struct tvar *t = avar(_i);
	lf_conditional_assign_fn fn = (lf_conditional_assign_fn)t->v->fn;
	void *na = gb_noaccess();
	int64_t a[MAXA], b[MAXA];
	rng_t rng;
	rng_init(&rng, t->label, 100);
	crash_note(t->label, "n = 0 with NULL / PROT_NONE pointers", 0);
	for (int set = 0; set <= 1; set++) {
		fn(set, NULL, NULL, 0);
		fn(set, na, na, 0);
	}
	cov_add(t, COV_ZERO, 4);
	struct exec_ctx c = ctx(t, COV_ZERO, "n = 0 between canaries");
	exec_assign(&c, 0, a, b, 0, 0);
	exec_assign(&c, 1, a, b, 0, 0);
	for (size_t n = 1; n <= 33; n++)
		for (int set = 0; set <= 1; set++) {
			limbs(a, n, PAT_RANDOM, &rng);
			struct exec_ctx ci = ctx(t, COV_INPLACE, "a == b");
			exec_assign(&ci, set, a, NULL, n, 1);
		}
}
END_TEST

START_TEST(test_assign_api)
{
	const struct tvar *t = avar(_i);
	int64_t a[MAXA], b[MAXA];
	rng_t rng;
	rng_init(&rng, t->label, 101);
	ck_assert_msg(lf_impl_force("conditional_assign", t->v->name) == 0, "cannot force %s",
	              t->label);
	for (size_t n = 0; n <= 24; n++)
		for (int set = 0; set <= 1; set++) {
			limbs(a, n, PAT_RANDOM, &rng);
			limbs(b, n, PAT_LATTICE, &rng);
			struct exec_ctx c = ctx(t, COV_API, "lf_conditional_assign");
			c.fn = (lf_fnptr)lf_conditional_assign;
			exec_assign(&c, set, a, b, n, n % 3 == 2);
		}
	lf_impl_force("conditional_assign", NULL);
}
END_TEST

static void restore(void)
{
	lf_impl_force("p256_mul_mont", NULL);
	lf_impl_force("p256_sqr_mont", NULL);
	lf_impl_force("conditional_assign", NULL);
}

/* the P-256 tests loop over mul's variants (0..63) and sqr's (64..) */
static void add_p256(TCase *tc, const TTest *tt)
{
	int nm = (int)tv_runnable_count(LF_K_p256_mul_mont);
	int ns = (int)tv_runnable_count(LF_K_p256_sqr_mont);
	tcase_add_loop_test(tc, tt, 0, nm);
	tcase_add_loop_test(tc, tt, 64, 64 + ns);
}

Suite *suite_p256(void)
{
	Suite *s = suite_create("p256");
	TCase *tc = tcase_create("p256_mont");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	add_p256(tc, test_p256_edges);
	add_p256(tc, test_p256_identities);
	add_p256(tc, test_p256_carries);
	add_p256(tc, test_p256_random);
	add_p256(tc, test_p256_guards);
	add_p256(tc, test_p256_api);
	suite_add_tcase(s, tc);
	TCase *ta = tcase_create("conditional_assign");
	int na = (int)tv_runnable_count(LF_K_conditional_assign);
	tcase_set_timeout(ta, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(ta, restore, restore);
	tcase_add_loop_test(ta, test_assign_lengths, 0, na);
	tcase_add_loop_test(ta, test_assign_patterns, 0, na);
	tcase_add_loop_test(ta, test_assign_guards, 0, na);
	tcase_add_loop_test(ta, test_assign_zero_alias, 0, na);
	tcase_add_loop_test(ta, test_assign_api, 0, na);
	suite_add_tcase(s, ta);
	return s;
}
