/*
 * xdh_ref.c -- the Montgomery ladder of RFC 7748 §5 in C over the generated field kernels:
 * lf_xdh_ladder (used by runtime/xdh.c for X448 and wherever the field has no ladder kernel)
 * and lf_x25519_ladder_ref, the portable variant of the x25519_ladder kernel (contract:
 * generated/include/lf_kernels.h, gen/lfgen/kernels/x25519_ladder.py).
 *
 * Constant time: every bit runs the same step; the swap is the fields' conditional_swap (a
 * mask); the products are the dispatched kernels (straight-line code).
 */
#include <string.h>

#include "lf_ref.h"
#include "lf_xdh.h"

void lf_xdh_ladder(const struct lf_xdh_ops *F, int64_t *x2, int64_t *z2, const uint8_t *k,
                   const int64_t *x1)
{
	int64_t x3[LF_XDH_MAX_LIMBS], z3[LF_XDH_MAX_LIMBS] = { 1 };
	int swap = 0;

	memset(x2, 0, sizeof(int64_t) * F->limbs);
	memset(z2, 0, sizeof(int64_t) * F->limbs);
	x2[0] = 1;
	memcpy(x3, x1, sizeof(int64_t) * F->limbs);
	for (int t = (int)F->bits - 1; t >= 0; t--) {
		int kt = (k[t >> 3] >> (t & 7)) & 1;
		swap ^= kt;
		F->cswap(swap, x2, x3);
		F->cswap(swap, z2, z3);
		swap = kt;
		F->step(F->mul, F->sqr, x2, z2, x3, z3, x1);
	}
	F->cswap(swap, x2, x3);
	F->cswap(swap, z2, z3);
	lf_wipe(x3, sizeof x3);
	lf_wipe(z3, sizeof z3);
}

/* u (n limbs of `bits` bits, each in [0, 2^bits]: a value below 2^(bits n + 1), at most 16 p
 * for both curves) mod p as nbytes little-endian bytes: the exact sum in 32-bit words, then
 * sixteen masked subtractions of p (no branch on u).  No __int128 needed. */
static void limbs_to_bytes(uint8_t *out, unsigned nbytes, const int64_t *a, unsigned n,
                           unsigned bits, const uint8_t *p)
{
	enum { W = 20 };
	uint64_t acc[W] = { 0 };
	uint32_t v[W], pw[W] = { 0 }, d[W];
	for (unsigned i = 0; i < n; i++) {
		uint64_t x = (uint64_t)a[i];                     /* below 2^53 */
		unsigned q = bits * i / 32, r = bits * i % 32;
		uint64_t lo = (x & 0xffffffffu) << r, hi = (x >> 32) << r;
		acc[q] += lo & 0xffffffffu;
		acc[q + 1] += (lo >> 32) + (hi & 0xffffffffu);
		acc[q + 2] += hi >> 32;
	}
	uint64_t c = 0;
	for (unsigned k = 0; k < W; k++) {
		c += acc[k];
		v[k] = (uint32_t)c;
		c >>= 32;
	}
	for (unsigned k = 0; k < nbytes; k++)
		pw[k / 4] |= (uint32_t)p[k] << (8 * (k % 4));
	for (int round = 0; round < 16; round++) {
		uint64_t borrow = 0;
		for (unsigned k = 0; k < W; k++) {
			uint64_t t = (uint64_t)v[k] - pw[k] - borrow;
			d[k] = (uint32_t)t;
			borrow = (t >> 32) & 1;
		}
		uint32_t keep = (uint32_t)0 - (uint32_t)borrow;   /* all ones: v < p, keep v */
		for (unsigned k = 0; k < W; k++)
			v[k] = (v[k] & keep) | (d[k] & ~keep);
	}
	for (unsigned k = 0; k < nbytes; k++)
		out[k] = (uint8_t)(v[k / 4] >> (8 * (k % 4)));
	lf_wipe(v, sizeof v);
	lf_wipe(d, sizeof d);
	lf_wipe(acc, sizeof acc);
}

/* little-endian bytes (a value below 2^(bits n)) -> n limbs of `bits` bits */
static void bytes_to_limbs(int64_t *r, unsigned n, unsigned bits, const uint8_t *in,
                           unsigned nbytes)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = 0;
		for (unsigned b = 0; b < bits && bits * i + b < 8 * nbytes; b++) {
			unsigned bit = bits * i + b;
			v |= (uint64_t)((in[bit >> 3] >> (bit & 7)) & 1) << b;
		}
		r[i] = (int64_t)v;
	}
}

/* p of the two curves, little-endian */
static const uint8_t p25519[32] = {
	0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
};
static const uint8_t p448[56] = {                   /* 2^448 - 2^224 - 1 */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* The ladder in field G for a kernel whose elements are n limbs of `bits` bits: u and the
 * results cross over as encodings (u reduced mod p on the way). */
static void ladder_via(const struct lf_xdh_ops *G, void (*dec)(int64_t *, const uint8_t *),
                       void (*enc)(uint8_t *, const int64_t *), unsigned nbytes, unsigned n,
                       unsigned bits, int64_t *xz, const uint8_t *k, const int64_t *u)
{
	int64_t x1[LF_XDH_MAX_LIMBS], x2[LF_XDH_MAX_LIMBS], z2[LF_XDH_MAX_LIMBS];
	uint8_t b[56];
	limbs_to_bytes(b, nbytes, u, n, bits, nbytes == 32 ? p25519 : p448);
	dec(x1, b);
	lf_xdh_ladder(G, x2, z2, k, x1);
	enc(b, x2);
	bytes_to_limbs(xz, n, bits, b, nbytes);
	enc(b, z2);
	bytes_to_limbs(xz + n, n, bits, b, nbytes);
	lf_wipe(x2, sizeof x2);
	lf_wipe(z2, sizeof z2);
	lf_wipe(b, sizeof b);
}

#if LF_FE_WIDE
void lf_x25519_ladder_ref(int64_t *xz, const uint8_t *k, const int64_t *u, int64_t *tmp)
{
	const struct lf_xdh_ops F = {
		LF_FE_C25519_R51_LIMBS, 255, lf_fe_c25519_r51_conditional_swap,
		lf_fe_c25519_r51_ladder_step_with, LF_CALL(fe_c25519_r51_mul),
		LF_CALL(fe_c25519_r51_square),
	};
	(void)tmp;
	lf_xdh_ladder(&F, xz, xz + 5, k, u);
}

void lf_x448_ladder_ref(int64_t *xz, const uint8_t *k, const int64_t *u, int64_t *tmp)
{
	const struct lf_xdh_ops F = {
		LF_FE_C448_R56_LIMBS, 448, lf_fe_c448_r56_conditional_swap,
		lf_fe_c448_r56_ladder_step_with, LF_CALL(fe_c448_r56_mul), LF_CALL(fe_c448_r56_square),
	};
	/* u's limbs may be 2^50 and its value 2^448 or more (the contract: limbs in [0, 2^50]):
	 * ladder_via reduces it mod p on the way in */
	(void)tmp;
	ladder_via(&F, lf_fe_c448_r56_decode, lf_fe_c448_r56_encode, 56, 9, 50, xz, k, u);
}
#else
/* Without __int128 the native fields have no C: the ladders run in the JDK's 10 x 26-bit and
 * 16 x 28-bit fields. */
void lf_x25519_ladder_ref(int64_t *xz, const uint8_t *k, const int64_t *u, int64_t *tmp)
{
	const struct lf_xdh_ops F = {
		LF_FE_C25519_R26_LIMBS, 255, lf_fe_c25519_r26_conditional_swap,
		lf_fe_c25519_r26_ladder_step_with, lf_fe_c25519_r26_mul, lf_fe_c25519_r26_square,
	};
	(void)tmp;
	ladder_via(&F, lf_fe_c25519_r26_decode, lf_fe_c25519_r26_encode, 32, 5, 51, xz, k, u);
}

void lf_x448_ladder_ref(int64_t *xz, const uint8_t *k, const int64_t *u, int64_t *tmp)
{
	const struct lf_xdh_ops F = {
		LF_FE_C448_R28_LIMBS, 448, lf_fe_c448_r28_conditional_swap,
		lf_fe_c448_r28_ladder_step_with, lf_fe_c448_r28_mul, lf_fe_c448_r28_square,
	};
	(void)tmp;
	ladder_via(&F, lf_fe_c448_r28_decode, lf_fe_c448_r28_encode, 56, 9, 50, xz, k, u);
}
#endif

#if LF_FE_WIDE
/* fe_c25519_r51_mul_x4: four products, limb-major (limb i of element l at [4 i + l]); like
 * every kernel of the native fields, it needs __int128 (the field's C does). */
void lf_fe_c25519_r51_mul_x4_ref(int64_t *r, const int64_t *a, const int64_t *b)
{
	int64_t x[4][5], y[4][5], z[4][5];
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < 5; i++) {
			x[l][i] = a[4 * i + l];
			y[l][i] = b[4 * i + l];
		}
	for (int l = 0; l < 4; l++)
		lf_fe_c25519_r51_mul_ref(z[l], x[l], y[l]);
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < 5; i++)
			r[4 * i + l] = z[l][i];
}
#endif
