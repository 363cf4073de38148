/*
 * test_ladder.c -- the ladder kernels x25519_ladder and x448_ladder (RFC 7748's Montgomery
 * ladder over the clamped scalar's bits 254..0 / 447..0, before the inversion) and the
 * four-lane product fe_c25519_r51_mul_x4, every runnable variant called directly and through
 * its public user (lf_x25519 / lf_x448; LF_CALL for the x4 product) with the variant forced.
 * Oracles: RFC 7748's ladder on mpz and a b mod p on mpz (tests/harness/xdh.c), the RFC's
 * own vectors; never a limbforge kernel, not even `ref`.  The Python vectors
 * (tests/kat/gen_ladder.py) are in the kat suite.
 *
 * Ladder contract (generated/x86_64/x25519_ladder_ifma.S, x448_ladder_ifma.S): k clamped,
 * u limbs in [0, 2^radix]; xz = (x2, z2) with limbs in [0, 2^52), x2 / z2 = X(k, u); xz must
 * not overlap k or u (no aliasing to test); tmp 128 int64_t, 32-byte aligned.
 * Faults this is designed to catch:
 *   - a wrong step in some lane or on some bit: RFC 7748 5.2's vectors and 1000 iterations
 *     of its iterated test (each output the next scalar, the scalar the next u), every edge u
 *     (0, 1, 2, the base point, p - 1, p, p + 1, 2^(radix limbs) - 1, values >= p, limbs at
 *     2^radix: all, alternating, only the top, only limb 0, random within the bound, random
 *     below p) with every edge scalar (clamped zeros / ones, 0x55.., 0xaa.., the top bit and
 *     the lowest settable one, random), 200 random pairs;
 *   - a carry lost where the operands are largest: u limbs at 2^radix in every subset (every
 *     ninth subset for X448's 512), with the largest scalar;
 *   - a result limb outside [0, 2^52) (the contract; checked on every call), a (0 : 0);
 *   - writes outside xz and tmp (canaries), reads outside k and u (guard pages), k or u
 *     modified, xz limbs never written (garbage first), byte offsets 0..63 of k, u, xz;
 *   - lf_x25519 / lf_x448 with each ladder variant forced: the RFC vectors, the edge u as
 *     bytes (bit 255 set for X25519, values >= p), small-order points (LF_XDH_EZERO),
 *     random unclamped scalars, out overlapping its inputs.
 * x4 contract (fe_c25519_r51_mul_x4_ifma.S): limb-major [4 i + l], limbs in [0, 2^52); each
 * lane a b mod p with limbs within the stated bound; r may alias a and/or b.
 *   - every pair of edge elements (0, 1, p - 1, p, 2^255 - 1, every limb 2^52 - 1 / 2^51,
 *     alternating, only the top / only limb 0 at 2^52 - 1, random) in every lane, a lane's
 *     fault not hidden by the others (the other lanes hold different products);
 *   - limbs at 2^52 - 1 in every subset against the complement; products solved onto 0, 1,
 *     p - 1, 2^(51 i), 2^(51 i) - 1 mod p; 1000 chained products r = r b per lane;
 *   - aliasing r == a, r == b, a == b, r == a == b; guards, canaries, offsets 0..63.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "lf_fields.h"
#include "lf_xdh.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define XL 9

/* ---- the ladders ------------------------------------------------------------------------- */
/* loop index: 64 * ladder + runnable variant */
static const struct xdh_ladder *lad(int i)
{
	return xdh_at((size_t)(i / 64));
}

static const struct tvar *lvar(int i)
{
	return tv_runnable(lad(i)->kid, (size_t)(i % 64));
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

/* one ladder straight into buffers on the stack (32-byte aligned tmp) */
static void ladder_call(const struct tvar *t, int64_t *xz, const uint8_t *k, const int64_t *u)
{
	_Alignas(32) int64_t tmp[LF_XDH_LADDER_TMP];
	crash_note(t->label, "ladder", 0);
	((lf_x25519_ladder_fn)t->v->fn)(xz, k, u, tmp);
}

/* a (canonical radix-2^radix digits) as L->nbytes little-endian bytes; X25519's 256 bits
 * run past its n radix = 255, where a has no limb (reading a[n] made this test flaky) */
static void to_bytes(const struct xdh_ladder *L, uint8_t *out, const int64_t *a)
{
	memset(out, 0, L->nbytes);
	for (size_t bit = 0; bit < 8 * L->nbytes && bit / L->radix < L->limbs; bit++)
		out[bit / 8] |= (uint8_t)(((uint64_t)a[bit / L->radix] >> (bit % L->radix) & 1)
		                          << (bit % 8));
}

/* RFC 7748 5.2: the vectors through the field's decode, and the iterated test */
START_TEST(test_ladder_rfc)
{
	const struct xdh_ladder *L = lad(_i);
	const struct tvar *t = lvar(_i);
	size_t n = L->limbs, nb = L->nbytes;
	int64_t u[XL], xz[2 * XL], a[XL];
	uint8_t k[56], uu[56], kn[56], out[56];
	for (int i = 0; i < 2; i++) {
		memcpy(k, L->c->rfc[i].k, nb);
		memcpy(uu, L->c->rfc[i].u, nb);
		xdh_clamp(L, k);
		if (nb == 32)
			uu[31] &= 127;
		L->decode(u, uu);
		ladder_call(t, xz, k, u);
		or_xdh_affine(L, a, xz, xz + n);
		to_bytes(L, out, a);
		ck_assert_msg(memcmp(out, L->c->rfc[i].out, nb) == 0, "%s: RFC 7748 5.2 vector %d",
		              t->label, i + 1);
		cov_add(t, COV_KAT, 1);
	}
	/* k = u = the base point; then k, u = X(k, u), k */
	memset(k, 0, sizeof k);
	memset(uu, 0, sizeof uu);
	k[0] = uu[0] = nb == 32 ? 9 : 5;
	for (int it = 1; it <= 1000; it++) {
		memcpy(kn, k, nb);
		xdh_clamp(L, kn);
		if (nb == 32)
			uu[31] &= 127;
		L->decode(u, uu);
		ladder_call(t, xz, kn, u);
		for (size_t i = 0; i < 2 * n; i++)
			ck_assert_msg(xz[i] >= 0 && xz[i] < ((int64_t)1 << 52), "%s: iteration %d: "
			              "limb outside [0, 2^52)", t->label, it);
		or_xdh_affine(L, a, xz, xz + n);
		to_bytes(L, out, a);
		memcpy(uu, k, nb);
		memcpy(k, out, nb);
		if (it == 1)
			ck_assert_msg(memcmp(k, L->c->iter1, nb) == 0, "%s: RFC 7748 5.2 iterated, "
			              "after 1", t->label);
	}
	ck_assert_msg(memcmp(k, L->c->iter1000, nb) == 0, "%s: RFC 7748 5.2 iterated, after 1000",
	              t->label);
	cov_add(t, COV_KAT, 1000);
}
END_TEST

/* every edge u with every edge scalar; random pairs */
START_TEST(test_ladder_edges)
{
	const struct xdh_ladder *L = lad(_i);
	const struct tvar *t = lvar(_i);
	int64_t u[XL];
	uint8_t k[56];
	char what[200];
	rng_t rng;
	rng_init(&rng, t->label, 401);
	for (int e = 0; e < XU_NU; e++)
		for (int s = 0; s < XK_NK; s++) {
			xdh_u(L, u, (enum xdh_u)e, &rng);
			xdh_k(L, k, (enum xdh_k)s, &rng);
			snprintf(what, sizeof what, "%s, %s", xdh_u_name((enum xdh_u)e),
			         xdh_k_name((enum xdh_k)s));
			struct exec_ctx c = ctx(t, COV_LATTICE, what);
			exec_ladder(&c, L, k, u, NULL, NULL, NULL);
		}
	for (int i = 0; i < 200; i++) {
		xdh_u(L, u, i % 2 ? XU_RAND_TOP : XU_RAND_P, &rng);
		xdh_k(L, k, XK_RAND, &rng);
		struct exec_ctx c = ctx(t, COV_LATTICE, "random k and u");
		c.place = i % 3 ? GB_MID : GB_END;
		exec_ladder(&c, L, k, u, NULL, NULL, NULL);
	}
}
END_TEST

/* The refs as a compiler without __int128 builds them (tests.mk: xdh_ref_narrow.o; the
 * ladders then run in the 10 x 26 / 16 x 28 fields and u crosses over as an encoding, reduced
 * mod p): every edge u, limbs at 2^radix included, against the mpz ladder. */
void lf_test_x25519_ladder_narrow(int64_t *xz, const uint8_t *k, const int64_t *u, int64_t *tmp);
void lf_test_x448_ladder_narrow(int64_t *xz, const uint8_t *k, const int64_t *u, int64_t *tmp);

START_TEST(test_ladder_narrow_ref)
{
	const struct xdh_ladder *L = xdh_at((size_t)_i);
	void (*fn)(int64_t *, const uint8_t *, const int64_t *, int64_t *) =
		L->kid == LF_K_x25519_ladder ? lf_test_x25519_ladder_narrow
		                             : lf_test_x448_ladder_narrow;
	_Alignas(32) int64_t tmp[LF_XDH_LADDER_TMP];
	int64_t u[XL], xz[2 * XL], X[XL], Z[XL], A[XL];
	uint8_t k[56];
	char what[200];
	rng_t rng;
	rng_init(&rng, L->name, 409);
	for (int e = 0; e < XU_NU; e++)
		for (int s = 0; s < XK_NK; s += 2) {
			xdh_u(L, u, (enum xdh_u)e, &rng);
			xdh_k(L, k, (enum xdh_k)s, &rng);
			snprintf(what, sizeof what, "narrow ref: %s, %s", xdh_u_name((enum xdh_u)e),
			         xdh_k_name((enum xdh_k)s));
			or_xdh_ladder(L, X, Z, A, k, u);
			fn(xz, k, u, tmp);
			xdh_assert_result(L, L->name, what, xz, X, Z, A);
		}
}
END_TEST

/* u limbs at the top of the bound in every subset (X448: every ninth of 512) */
START_TEST(test_ladder_carries)
{
	const struct xdh_ladder *L = lad(_i);
	const struct tvar *t = lvar(_i);
	size_t n = L->limbs;
	int64_t u[XL], r[XL];
	uint8_t k[56];
	rng_t rng;
	rng_init(&rng, t->label, 402);
	unsigned long step = n > 5 ? 9 : 1;
	for (unsigned long mask = 0; mask < (1ul << n); mask += step) {
		xdh_u(L, r, XU_RAND_TOP, &rng);
		for (size_t i = 0; i < n; i++)
			u[i] = mask >> i & 1 ? (int64_t)1 << L->radix : r[i];
		xdh_k(L, k, mask % 3 == 0 ? XK_ONES : XK_RAND, &rng);
		struct exec_ctx c = ctx(t, COV_CARRY, "a subset of u's limbs at 2^radix");
		exec_ladder(&c, L, k, u, NULL, NULL, NULL);
	}
	/* the top and the last limb: every limb 2^radix - 1 or 2^radix, with each scalar */
	for (int s = 0; s < XK_NK; s++) {
		xdh_k(L, k, (enum xdh_k)s, &rng);
		xdh_u(L, u, s % 2 ? XU_ALL1 : XU_TOP, &rng);
		struct exec_ctx c = ctx(t, COV_CARRY, "u at the top of its bound, every scalar");
		exec_ladder(&c, L, k, u, NULL, NULL, NULL);
	}
}
END_TEST

START_TEST(test_ladder_guards)
{
	const struct xdh_ladder *L = lad(_i);
	const struct tvar *t = lvar(_i);
	int64_t u[XL];
	uint8_t k[56];
	rng_t rng;
	rng_init(&rng, t->label, 403);
	for (int place = GB_MID; place <= GB_END; place++)
		for (size_t shift = 0; shift < 64; shift += place == GB_MID ? 1 : 3) {
			xdh_u(L, u, shift % 3 ? XU_RAND_TOP : XU_TOP, &rng);
			xdh_k(L, k, shift % 2 ? XK_RAND : XK_ONES, &rng);
			struct exec_ctx c = ctx(t, place == GB_MID ? COV_ALIGN : COV_GUARD,
			                        place == GB_MID ? "byte offsets 0..63" : "guard page");
			c.place = (enum gb_place)place;
			c.shift = shift;
			exec_ladder(&c, L, k, u, NULL, NULL, NULL);
		}
}
END_TEST

/* lf_x25519 / lf_x448 with the ladder variant forced */
START_TEST(test_ladder_api)
{
	const struct tvar *t = lvar(_i);
	const char *kname = t->k->name;
	ck_assert_msg(lf_impl_force(kname, t->v->name) == 0, "cannot force %s", t->label);
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	xdh_api_cases(t, COV_API, "public entry point, ladder forced");
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	lf_impl_force(kname, NULL);
}
END_TEST

/* ---- fe_c25519_r51_mul_x4 ---------------------------------------------------------------- */
static const struct tvar *xvar(int i)
{
	return tv_runnable(LF_K_fe_c25519_r51_mul_x4, (size_t)i);
}

/* a group of four lanes: e(a_l) * e(b_l) */
static void group(int64_t *a, int64_t *b, const int *ea, const int *eb, rng_t *r)
{
	for (int l = 0; l < 4; l++) {
		int64_t x[5];
		x4_elem(x, (enum x4_elem)ea[l], r);
		x4_put(a, l, x);
		x4_elem(x, (enum x4_elem)eb[l], r);
		x4_put(b, l, x);
	}
}

START_TEST(test_x4_edges)
{
	const struct tvar *t = xvar(_i);
	int64_t a[X4_LIMBS], b[X4_LIMBS];
	char what[300];
	rng_t rng;
	rng_init(&rng, t->label, 411);
	/* pair (i, j) in lane l, the others rotate through other pairs */
	for (int i = 0; i < X4_NELEM; i++)
		for (int j = 0; j < X4_NELEM; j++)
			for (int l = 0; l < 4; l++) {
				int ea[4], eb[4];
				for (int m = 0; m < 4; m++) {
					ea[m] = m == l ? i : (i + 3 * m + 1) % X4_NELEM;
					eb[m] = m == l ? j : (j + 5 * m + 2) % X4_NELEM;
				}
				group(a, b, ea, eb, &rng);
				snprintf(what, sizeof what, "lane %d: a = %s, b = %s", l,
				         x4_elem_name((enum x4_elem)i), x4_elem_name((enum x4_elem)j));
				struct exec_ctx c = ctx(t, COV_LATTICE, what);
				exec_x4(&c, a, b, P256_SEP, NULL);
			}
	for (int i = 0; i < X4_NELEM; i++)
		for (int pat = 0; pat < N_PAT; pat++) {
			int ea[4] = { i, i, i, i }, eb[4] = { X4_RAND, X4_RAND_P, X4_TOP, X4_RAND };
			uint64_t w[5];
			group(a, b, ea, eb, &rng);
			fill64(w, 5, (enum pattern)pat, &rng);
			int64_t x[5];
			for (int q = 0; q < 5; q++)
				x[q] = (int64_t)(w[q] & ((UINT64_C(1) << 52) - 1));
			x4_put(b, pat % 4, x);
			struct exec_ctx c = ctx(t, COV_LATTICE, "an edge times a pattern cut to 52 bits");
			exec_x4(&c, a, b, P256_SEP, NULL);
			exec_x4(&c, b, a, P256_SEP, NULL);
		}
}
END_TEST

START_TEST(test_x4_carries)
{
	const struct tvar *t = xvar(_i);
	int64_t a[X4_LIMBS], b[X4_LIMBS];
	const int64_t t52 = ((int64_t)1 << 52) - 1;
	rng_t rng;
	rng_init(&rng, t->label, 412);
	/* lane l gets subset mask + 8 l: every subset of limbs at 2^52 - 1 against the
	 * complement, and against every limb at 2^52 - 1 */
	for (unsigned mask = 0; mask < 32; mask++) {
		for (int l = 0; l < 4; l++) {
			unsigned m = (mask + 8u * (unsigned)l) & 31;
			int64_t x[5], y[5];
			x4_elem(x, X4_RAND, &rng);
			for (int i = 0; i < 5; i++) {
				if (m >> i & 1)
					x[i] = t52;
				y[i] = m >> i & 1 ? 0 : t52;
			}
			x4_put(a, l, x);
			x4_put(b, l, mask & 1 ? y : (int64_t[5]){ t52, t52, t52, t52, t52 });
		}
		struct exec_ctx c = ctx(t, COV_CARRY, "subsets of limbs at 2^52 - 1");
		exec_x4(&c, a, b, (enum p256_alias)(mask % P256_NALIAS == P256_AB ? P256_SEP
		                                                                   : mask % P256_NALIAS), NULL);
	}
	/* products solved onto edges mod p: b = target a^-1 (the fe harness's mpz solver) */
	const struct fe_kernel *fk = fe_kernel(LF_K_fe_c25519_r51_mul);
	ck_assert_msg(fk != NULL, "test bug: fe_c25519_r51_mul not in tests/fe_kernels.h");
	size_t solved = 0;
	for (int k = 0; k < 12; k++) {
		int64_t tg[5] = { 0 };
		if (k == 0 || k == 1)
			tg[0] = k;
		else if (k == 2)
			x4_elem(tg, X4_PM1, &rng);
		else if (k < 7)
			tg[k - 2] = 1;                  /* 2^(51 i), i = 1..4 */
		else
			for (int j = 0; j < k - 6; j++) /* 2^(51 i) - 1, i = 1..5 */
				tg[j] = ((int64_t)1 << 51) - 1;
		or_fe_canon(fk, tg, tg);
		for (int l = 0; l < 4; l++) {
			int64_t x[5], y[5];
			x4_elem(x, l == 2 ? X4_TOP : l % 2 ? X4_RAND : X4_RAND_P, &rng);
			if (!or_fe_solve(fk, y, x, tg))
				x4_elem(y, X4_ZERO, &rng);
			else
				solved++;
			x4_put(a, l, x);
			x4_put(b, l, y);
		}
		struct exec_ctx c = ctx(t, COV_CARRY, "a b solved onto 0, 1, p-1, 2^(51 i), "
		                        "2^(51 i) - 1 mod p");
		exec_x4(&c, a, b, k % 2 ? P256_SEP : P256_RB, NULL);
	}
	ck_assert_msg(solved > 30, "test bug: %zu solved products", solved);
}
END_TEST

START_TEST(test_x4_random)
{
	const struct tvar *t = xvar(_i);
	int64_t a[X4_LIMBS], b[X4_LIMBS], x[X4_LIMBS], w[X4_LIMBS], prev[X4_LIMBS];
	rng_t rng;
	rng_init(&rng, t->label, 413);
	for (int k = 0; k < 2000; k++) {
		int ea[4], eb[4];
		for (int l = 0; l < 4; l++) {
			ea[l] = (k + l) % 3 ? X4_RAND : X4_RAND_P;
			eb[l] = (k + l) % 2 ? X4_RAND : X4_RAND_P;
		}
		group(a, b, ea, eb, &rng);
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_LATTICE,
		                        "random operands");
		exec_x4(&c, a, b, (enum p256_alias)(k % P256_NALIAS), NULL);
	}
	/* x = x b in place, each output the next input (the stated bound is below 2^52) */
	for (int i = 0; i < 5; i++)
		ck_assert_msg(x4_out[i][1] < ((int64_t)1 << 52), "the stated bound of limb %d is not "
		              "below 2^52: products cannot be chained", i);
	int ea[4] = { X4_TOP, X4_RAND, X4_RAND_P, X4_TOP51 }, eb[4] = { X4_RAND, X4_TOP, X4_PM1,
	                                                               X4_RAND };
	group(x, b, ea, eb, &rng);
	memcpy(w, x, sizeof w);
	or_x4(w, w, (int64_t[X4_LIMBS]){ 1, 1, 1, 1 });
	for (int k = 0; k < 1000; k++) {
		memcpy(prev, x, sizeof prev);
		crash_note(t->label, "chained products", X4_LIMBS);
		((lf_fe_c25519_r51_mul_x4_fn)t->v->fn)(x, x, b);
		x4_assert_result(t->label, "chained product, r == a", x, prev, b);
		or_x4(w, w, b);
		int64_t got[X4_LIMBS];
		or_x4(got, x, (int64_t[X4_LIMBS]){ 1, 1, 1, 1 });
		ck_assert_msg(memcmp(got, w, sizeof w) == 0, "%s: chained step %d differs from the "
		              "oracle's chain", t->label, k);
	}
	cov_add(t, COV_INPLACE, 1000);
}
END_TEST

START_TEST(test_x4_guards)
{
	const struct tvar *t = xvar(_i);
	int64_t a[X4_LIMBS], b[X4_LIMBS];
	rng_t rng;
	rng_init(&rng, t->label, 414);
	for (int place = GB_MID; place <= GB_END; place++)
		for (size_t shift = 0; shift < 64; shift++) {
			int ea[4] = { X4_TOP, X4_RAND, X4_RAND, X4_RAND_P };
			int eb[4] = { X4_PM1, X4_RAND, X4_TOP, X4_RAND };
			group(a, b, ea, eb, &rng);
			struct exec_ctx c = ctx(t, place == GB_MID ? COV_ALIGN : COV_GUARD,
			                        place == GB_MID ? "byte offsets 0..63" : "guard page");
			c.place = (enum gb_place)place;
			c.shift = shift;
			exec_x4(&c, a, b, (enum p256_alias)(shift % P256_NALIAS), NULL);
		}
}
END_TEST

/* through the dispatcher (LF_CALL, what a caller of the kernel uses) with the variant forced */
START_TEST(test_x4_api)
{
	const struct tvar *t = xvar(_i);
	const char *kname = t->k->name;
	int64_t a[X4_LIMBS], b[X4_LIMBS];
	rng_t rng;
	rng_init(&rng, t->label, 415);
	ck_assert_msg(lf_impl_force(kname, t->v->name) == 0, "cannot force %s", t->label);
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	for (int k = 0; k < 300; k++) {
		int ea[4], eb[4];
		for (int l = 0; l < 4; l++) {
			ea[l] = (k + l) % X4_NELEM;
			eb[l] = (k * 7 + 3 * l) % X4_NELEM;
		}
		group(a, b, ea, eb, &rng);
		struct exec_ctx c = ctx(t, k % P256_NALIAS ? COV_INPLACE : COV_API,
		                        "LF_CALL(fe_c25519_r51_mul_x4)");
		c.fn = (lf_fnptr)LF_CALL(fe_c25519_r51_mul_x4);
		exec_x4(&c, a, b, (enum p256_alias)(k % P256_NALIAS), NULL);
	}
	ck_assert_str_eq(lf_impl(kname), t->v->name);
	lf_impl_force(kname, NULL);
}
END_TEST

static void restore(void)
{
	for (size_t i = 0; i < xdh_count(); i++)
		lf_impl_force(xdh_at(i)->name, NULL);
	lf_impl_force("fe_c25519_r51_mul_x4", NULL);
}

static void add_ladders(TCase *tc, const TTest *tt)
{
	for (size_t i = 0; i < xdh_count(); i++)
		tcase_add_loop_test(tc, tt, 64 * (int)i,
		                    64 * (int)i + (int)tv_runnable_count(xdh_at(i)->kid));
}

Suite *suite_ladder(void)
{
	Suite *s = suite_create("ladder");
	TCase *tc = tcase_create("ladders");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	add_ladders(tc, test_ladder_rfc);
	add_ladders(tc, test_ladder_edges);
	add_ladders(tc, test_ladder_carries);
	add_ladders(tc, test_ladder_guards);
	add_ladders(tc, test_ladder_api);
	tcase_add_loop_test(tc, test_ladder_narrow_ref, 0, (int)xdh_count());
	suite_add_tcase(s, tc);
	tc = tcase_create("mul_x4");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	int nx = (int)tv_runnable_count(LF_K_fe_c25519_r51_mul_x4);
	tcase_add_loop_test(tc, test_x4_edges, 0, nx);
	tcase_add_loop_test(tc, test_x4_carries, 0, nx);
	tcase_add_loop_test(tc, test_x4_random, 0, nx);
	tcase_add_loop_test(tc, test_x4_guards, 0, nx);
	tcase_add_loop_test(tc, test_x4_api, 0, nx);
	suite_add_tcase(s, tc);
	return s;
}
