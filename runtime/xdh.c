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
 * JDK's 10 x 26 and 16 x 28.  The ladders are the x25519_ladder and x448_ladder kernels
 * (dispatched: the AVX-512 IFMA four-lane ladders; for Curve25519 without IFMA the BMI2/ADX
 * ladder in four saturated 64-bit limbs; else the C ladder of runtime/ref/xdh_ref.c; X448's
 * kernel works in 9 x 50-bit limbs, converted as encodings).  The inversion is the
 * field's invert kernel: Bernstein-Yang divsteps in the wide fields (runtime/lf_safegcd.h,
 * about a third of Fermat's 447 squarings for Curve448), Fermat's chain of generated formulas
 * in the JDK layouts (gen/lfgen/fields/formula.py: the carries decided from the bounds, the
 * products the fields' mul/square).
 */
#include <string.h>

#include "limbforge.h"
#include "lf_xdh.h"

#if LF_FE_WIDE
#  define F25519(op) lf_fe_c25519_r51_##op
#  define F25519_MUL LF_CALL(fe_c25519_r51_mul)
#  define F25519_SQR LF_CALL(fe_c25519_r51_square)
#  define F448(op) lf_fe_c448_r56_##op
#  define F448_LIMBS LF_FE_C448_R56_LIMBS
#  define F448_MUL LF_CALL(fe_c448_r56_mul)
#  define F448_SQR LF_CALL(fe_c448_r56_square)
#else
#  define F25519(op) lf_fe_c25519_r26_##op
#  define F25519_MUL lf_fe_c25519_r26_mul
#  define F25519_SQR lf_fe_c25519_r26_square
#  define F448(op) lf_fe_c448_r28_##op
#  define F448_LIMBS LF_FE_C448_R28_LIMBS
#  define F448_MUL lf_fe_c448_r28_mul
#  define F448_SQR lf_fe_c448_r28_square
#endif

/* out = encode(x2 / z2); LF_XDH_EZERO if every byte is 0 (a mask, no branch) */
static int finish(uint8_t *out, size_t nbytes, int64_t *x2, const int64_t *z2,
                  lf_fe_mul_fn mul, void (*invert)(int64_t *, const int64_t *),
                  void (*encode)(uint8_t *, const int64_t *))
{
	int64_t zi[LF_XDH_MAX_LIMBS];
	uint8_t res[56];
	unsigned acc = 0;

	invert(zi, z2);
	mul(x2, x2, zi);
	encode(res, x2);
	for (size_t i = 0; i < nbytes; i++)
		acc |= res[i];
	memcpy(out, res, nbytes);
	lf_wipe(zi, sizeof zi);
	lf_wipe(res, sizeof res);
	return -(int)(((acc & 0xffu) - 1u) >> 31) & LF_XDH_EZERO;   /* acc == 0: all zeros */
}

int lf_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32])
{
	uint8_t k[32], u[32];
	memcpy(k, scalar, 32);
	memcpy(u, point, 32);
	k[0] &= 248;
	k[31] &= 127;
	k[31] |= 64;
	int64_t x1[LF_XDH_MAX_LIMBS], x2[LF_XDH_MAX_LIMBS], z2[LF_XDH_MAX_LIMBS];
	F25519(decode)(x1, u);
#if LF_FE_WIDE
	int64_t xz[10];
	_Alignas(32) int64_t tmp[LF_XDH_LADDER_TMP];
	LF_CALL_NOW(x25519_ladder)(xz, k, x1, tmp);
	lf_wipe(tmp, sizeof tmp);
	memcpy(x2, xz, sizeof(int64_t) * 5);
	memcpy(z2, xz + 5, sizeof(int64_t) * 5);
	lf_wipe(xz, sizeof xz);
#else
	const struct lf_xdh_ops F = { LF_FE_C25519_R26_LIMBS, 255, F25519(conditional_swap),
	                              F25519(ladder_step_with), F25519_MUL, F25519_SQR };
	lf_xdh_ladder(&F, x2, z2, k, x1);
#endif
	int r = finish(out, 32, x2, z2, F25519_MUL, F25519(invert), F25519(encode));
	lf_wipe(k, sizeof k);
	lf_wipe(x1, sizeof x1);
	lf_wipe(x2, sizeof x2);
	lf_wipe(z2, sizeof z2);
	return r;
}

int lf_x448(uint8_t out[56], const uint8_t scalar[56], const uint8_t point[56])
{
	uint8_t k[56], u[56];
	memcpy(k, scalar, 56);
	memcpy(u, point, 56);
	k[0] &= 252;
	k[55] |= 128;
	int64_t x1[LF_XDH_MAX_LIMBS], x2[LF_XDH_MAX_LIMBS], z2[LF_XDH_MAX_LIMBS];
#if LF_FE_WIDE
	/* the ladder kernel works in 9 x 50-bit limbs (IFMA's 52-bit operands with headroom);
	 * x2 and z2 cross into 8 x 56 for the inversion as encodings */
	int64_t xz[18];
	uint8_t b[56];
	_Alignas(32) int64_t tmp[LF_XDH_LADDER_TMP];
	lf_fe_c448_r50_decode(x1, u);
	LF_CALL_NOW(x448_ladder)(xz, k, x1, tmp);
	lf_fe_c448_r50_encode(b, xz);
	F448(decode)(x2, b);
	lf_fe_c448_r50_encode(b, xz + 9);
	F448(decode)(z2, b);
	lf_wipe(xz, sizeof xz);
	lf_wipe(b, sizeof b);
	lf_wipe(tmp, sizeof tmp);
#else
	const struct lf_xdh_ops F = { F448_LIMBS, 448, F448(conditional_swap), F448(ladder_step_with),
	                              F448_MUL, F448_SQR };
	F448(decode)(x1, u);
	lf_xdh_ladder(&F, x2, z2, k, x1);
#endif
	int r = finish(out, 56, x2, z2, F448_MUL, F448(invert), F448(encode));
	lf_wipe(k, sizeof k);
	lf_wipe(x1, sizeof x1);
	lf_wipe(x2, sizeof x2);
	lf_wipe(z2, sizeof z2);
	return r;
}
