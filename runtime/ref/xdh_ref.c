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
	lf_xdh_wipe(x3, sizeof x3);
	lf_xdh_wipe(z3, sizeof z3);
}

void lf_xdh_wipe(void *p, size_t n)
{
	static void *(*const volatile set)(void *, int, size_t) = memset;
	set(p, 0, n);
}

#if LF_FE_WIDE
void lf_x25519_ladder_ref(int64_t *xz, const uint8_t *k, const int64_t *u)
{
	const struct lf_xdh_ops F = {
		LF_FE_C25519_R51_LIMBS, 255, lf_fe_c25519_r51_conditional_swap,
		lf_fe_c25519_r51_ladder_step, LF_CALL(fe_c25519_r51_mul),
		LF_CALL(fe_c25519_r51_square),
	};
	lf_xdh_ladder(&F, xz, xz + 5, k, u);
}
#else
/* Without __int128 the 5 x 51-bit field has no C: the ladder runs in the JDK's 10 x 26-bit
 * field, u and (x2 : z2) crossing over as 32-byte encodings. */
static void r51_to_bytes(uint8_t out[32], const int64_t *a)
{
	uint64_t acc = 0;
	unsigned have = 0, o = 0;
	for (int i = 0; i < 5; i++) {
		uint64_t l = (uint64_t)a[i];                  /* < 2^51 (decode's digits) */
		acc |= l << have;
		unsigned used = 64 - have < 51 ? 64 - have : 51;
		have += used;
		while (have >= 8 && o < 32) { out[o++] = (uint8_t)acc; acc >>= 8; have -= 8; }
		acc |= (used < 51 ? l >> used : 0) << have;
		have += 51 - used;
		while (have >= 8 && o < 32) { out[o++] = (uint8_t)acc; acc >>= 8; have -= 8; }
	}
	if (o < 32)
		out[o] = (uint8_t)acc;
}

static void bytes_to_r51(int64_t *r, const uint8_t in[32])
{
	for (int i = 0; i < 5; i++) {
		uint64_t v = 0;
		for (int b = 0; b < 51; b++) {
			int bit = 51 * i + b;
			v |= (uint64_t)((in[bit >> 3] >> (bit & 7)) & 1) << b;
		}
		r[i] = (int64_t)v;
	}
}

void lf_x25519_ladder_ref(int64_t *xz, const uint8_t *k, const int64_t *u)
{
	const struct lf_xdh_ops F = {
		LF_FE_C25519_R26_LIMBS, 255, lf_fe_c25519_r26_conditional_swap,
		lf_fe_c25519_r26_ladder_step, lf_fe_c25519_r26_mul, lf_fe_c25519_r26_square,
	};
	int64_t x1[10], x2[10], z2[10];
	uint8_t b[32];
	r51_to_bytes(b, u);
	lf_fe_c25519_r26_decode(x1, b);
	lf_xdh_ladder(&F, x2, z2, k, x1);
	lf_fe_c25519_r26_encode(b, x2);
	bytes_to_r51(xz, b);
	lf_fe_c25519_r26_encode(b, z2);
	bytes_to_r51(xz + 5, b);
	lf_xdh_wipe(x2, sizeof x2);
	lf_xdh_wipe(z2, sizeof z2);
	lf_xdh_wipe(b, sizeof b);
}
#endif
