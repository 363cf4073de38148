/*
 * fe_kernels.h -- the dispatched EC field products (kernels fe_<field>_<op>, generated from
 * gen/lfgen/kernels/fe_field.py; entry points lf_fe_<field>_<op> in generated/include/
 * lf_fields.h), one line each, for every test and bench driver that has to name them.
 *
 *   X(field, limbs, op)   field: the description's name (c25519_r51); limbs: int64_t limbs
 *                         per element; op: mul (r, a, b) or square (r, a)
 *
 * A new field product is one line here (tests/kat/gen_fe.py reads these lines for p and the
 * bounds); a new variant of a listed kernel needs no line anywhere (variants come from
 * lf_kernel_table).  The fields need signed __int128 (LF_FE_WIDE).
 */
#ifndef LF_TEST_FE_KERNELS_H
#define LF_TEST_FE_KERNELS_H

#define LF_TEST_FE_KERNELS(X)   \
	X(c25519_r51, 5, mul)   \
	X(c25519_r51, 5, square) \
	X(c448_r56, 8, mul)     \
	X(c448_r56, 8, square)  \
	X(p521_r58, 9, mul)     \
	X(p521_r58, 9, square)  \
	X(p256_r52, 5, mul)     \
	X(p256_r52, 5, square)  \
	X(p384_r56, 7, mul)     \
	X(p384_r56, 7, square)

/* the most limbs of any field above (buffers) */
#define LF_TEST_FE_MAXLIMBS 9

#endif
