/*
 * xdh.c -- X25519 and X448 (RFC 7748) over the generated field kernels (generated/fields/).
 *
 *   int lf_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32]);
 *   int lf_x448(uint8_t out[56], const uint8_t scalar[56], const uint8_t point[56]);
 *
 * Operation: out = X(k, u), RFC 7748 §5: k = decodeScalar (clamped: X25519 clears bits 0-2
 * and 255 and sets 254; X448 clears bits 0-1 and sets 447), u = decodeUCoordinate (little
 * endian; X25519 ignores bit 255; values >= p are accepted and taken mod p, as the RFC
 * requires), the Montgomery ladder of §5 over all 255 / 448 bits with a conditional swap per
 * bit, then x2 * z2^(p-2), encoded as canonical little-endian bytes.
 *
 * Returns 0, or LF_XDH_EZERO when the output is all zeros (u of small order: RFC 7748 §6.1
 * says the caller "MAY" check; the output is still written -- all zeros -- so a caller that
 * ignores the code gets exactly RFC 7748's function).  out may overlap the inputs (they are
 * copied first).  NULL pointers are undefined.
 *
 * Constant time: no branch or address depends on the scalar or the point (the ladder runs
 * every bit; the swap is a mask; the field kernels are straight-line code with no
 * data-dependent branch: their contract); the all-zero check is a mask too.  Secrets (the
 * clamped scalar, the ladder state) are wiped before returning.
 *
 * Fields (generated/fields/, bounds proven by the generator): Curve25519 in 5 x 51-bit limbs
 * and Curve448 in 8 x 56-bit limbs where the compiler has __int128 (LF_FE_WIDE), else the
 * JDK's 10 x 26 and 16 x 28.  The ladder step and the inversion are generated formulas
 * (gen/lfgen/fields/formula.py): the carries they need were decided from the bounds.
 */
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_fields.h"

#define XDH_MAX_LIMBS 16

struct xdh_field {
	unsigned limbs, nbytes, bits;
	void (*decode)(int64_t *r, const uint8_t *in);
	void (*encode)(uint8_t *out, const int64_t *a);
	void (*cswap)(int swap, int64_t *a, int64_t *b);
	void (*step)(lf_fe_mul_fn mul, lf_fe_square_fn sqr, int64_t *x2, int64_t *z2,
	             int64_t *x3, int64_t *z3, const int64_t *x1);
	void (*invert)(lf_fe_mul_fn mul, lf_fe_square_fn sqr, int64_t *r, const int64_t *a);
};

/* The products: the dispatched kernels where the field has assembly variants (fetched once
 * per call), else the field's C. */
#if LF_FE_WIDE
#  define F25519(op) lf_fe_c25519_r51_##op
#  define F25519_LIMBS LF_FE_C25519_R51_LIMBS
#  define F25519_MUL LF_CALL(fe_c25519_r51_mul)
#  define F25519_SQR LF_CALL(fe_c25519_r51_square)
#  define F448(op) lf_fe_c448_r56_##op
#  define F448_LIMBS LF_FE_C448_R56_LIMBS
#  define F448_MUL LF_CALL(fe_c448_r56_mul)
#  define F448_SQR LF_CALL(fe_c448_r56_square)
#else
#  define F25519(op) lf_fe_c25519_r26_##op
#  define F25519_LIMBS LF_FE_C25519_R26_LIMBS
#  define F25519_MUL lf_fe_c25519_r26_mul
#  define F25519_SQR lf_fe_c25519_r26_square
#  define F448(op) lf_fe_c448_r28_##op
#  define F448_LIMBS LF_FE_C448_R28_LIMBS
#  define F448_MUL lf_fe_c448_r28_mul
#  define F448_SQR lf_fe_c448_r28_square
#endif

static const struct xdh_field x25519_field = {
	F25519_LIMBS, 32, 255, F25519(decode), F25519(encode), F25519(conditional_swap),
	F25519(ladder_step), F25519(invert),
};

static const struct xdh_field x448_field = {
	F448_LIMBS, 56, 448, F448(decode), F448(encode), F448(conditional_swap),
	F448(ladder_step), F448(invert),
};

static void wipe(void *p, size_t n)
{
	static void *(*const volatile set)(void *, int, size_t) = memset;
	set(p, 0, n);
}

/* The ladder of RFC 7748 §5 on the clamped scalar k (little-endian bytes) and the decoded u. */
static int xdh(const struct xdh_field *F, lf_fe_mul_fn mul, lf_fe_square_fn sqr, uint8_t *out,
               const uint8_t *k, const uint8_t *point)
{
	int64_t x1[XDH_MAX_LIMBS], x2[XDH_MAX_LIMBS] = { 1 }, z2[XDH_MAX_LIMBS] = { 0 },
	        x3[XDH_MAX_LIMBS], z3[XDH_MAX_LIMBS] = { 1 }, zi[XDH_MAX_LIMBS];
	uint8_t res[56];
	int swap = 0;

	F->decode(x1, point);
	memcpy(x3, x1, sizeof x1);
	for (int t = (int)F->bits - 1; t >= 0; t--) {
		int kt = (k[t >> 3] >> (t & 7)) & 1;
		swap ^= kt;
		F->cswap(swap, x2, x3);
		F->cswap(swap, z2, z3);
		swap = kt;
		F->step(mul, sqr, x2, z2, x3, z3, x1);
	}
	F->cswap(swap, x2, x3);
	F->cswap(swap, z2, z3);
	F->invert(mul, sqr, zi, z2);
	mul(x2, x2, zi);
	F->encode(res, x2);

	unsigned acc = 0;
	for (unsigned i = 0; i < F->nbytes; i++)
		acc |= res[i];
	memcpy(out, res, F->nbytes);
	int zero = (int)(((acc & 0xffu) - 1u) >> 31);        /* 1 iff every byte is 0 */
	wipe(x1, sizeof x1); wipe(x2, sizeof x2); wipe(z2, sizeof z2);
	wipe(x3, sizeof x3); wipe(z3, sizeof z3); wipe(zi, sizeof zi); wipe(res, sizeof res);
	return -zero & LF_XDH_EZERO;
}

int lf_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32])
{
	uint8_t k[32], u[32];
	memcpy(k, scalar, 32);
	memcpy(u, point, 32);
	k[0] &= 248;
	k[31] &= 127;
	k[31] |= 64;
	int r = xdh(&x25519_field, F25519_MUL, F25519_SQR, out, k, u);
	wipe(k, sizeof k);
	return r;
}

int lf_x448(uint8_t out[56], const uint8_t scalar[56], const uint8_t point[56])
{
	uint8_t k[56], u[56];
	memcpy(k, scalar, 56);
	memcpy(u, point, 56);
	k[0] &= 252;
	k[55] |= 128;
	int r = xdh(&x448_field, F448_MUL, F448_SQR, out, k, u);
	wipe(k, sizeof k);
	return r;
}
