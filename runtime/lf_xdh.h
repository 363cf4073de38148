/*
 * lf_xdh.h -- the Montgomery ladder of RFC 7748 §5 over one field's generated kernels
 * (runtime/ref/xdh_ref.c), shared by lf_x25519/lf_x448 (runtime/xdh.c) and by the portable
 * variant of the x25519_ladder kernel.  Internal.
 */
#ifndef LF_XDH_H
#define LF_XDH_H

#include <stddef.h>
#include <stdint.h>

#include "lf_dispatch.h"
#include "lf_fields.h"

#define LF_XDH_MAX_LIMBS 16
#define LF_XDH_LADDER_TMP 128   /* int64_t of scratch the ladder kernels take, 32-byte aligned */

struct lf_xdh_ops {
	unsigned limbs, bits;                 /* limbs of an element; ladder bits (255, 448) */
	void (*cswap)(int swap, int64_t *a, int64_t *b);
	void (*step)(lf_fe_mul_fn mul, lf_fe_square_fn sqr, int64_t *x2, int64_t *z2,
	             int64_t *x3, int64_t *z3, const int64_t *x1);
	lf_fe_mul_fn mul;
	lf_fe_square_fn sqr;
};

/* (x2 : z2) = k x1: the ladder over bits F->bits - 1 .. 0 of the clamped scalar k
 * (little-endian bytes), with the final swap; x1 within the field's R, x2 and z2 returned
 * within R.  Constant time in k and x1. */
LF_INTERNAL void lf_xdh_ladder(const struct lf_xdh_ops *F, int64_t *x2, int64_t *z2,
                               const uint8_t *k, const int64_t *x1);

#endif /* LF_XDH_H */
