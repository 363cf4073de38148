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

/* The largest operand limb for the field product `kernel` (fe_<field>_<op>) that keeps an
 * operand within the field's input bound M whatever its other limbs: the field's
 * LF_FE_<F>_M_LIMB, at most 2^56 - 1; 0 for a name that is not a wide field's product.
 * (Curve25519 5 x 51 accepts limbs up to about 2^53.6 since its budget keeps the product
 * carries in one word: drivers that drew limbs below 2^56 for every field got wrong values.)
 * Needs lf_fields.h. */
#ifdef LF_FIELDS_H
#include <string.h>
static inline uint64_t lf_test_fe_limb_cap(const char *kernel)
{
	static const struct { const char *prefix; uint64_t m; } caps[] = {
#define LF_TEST_FE_CAP_(nm, NM) { "fe_" #nm "_", (uint64_t)LF_FE_##NM##_M_LIMB },
		LF_FE_FIELDS_WIDE(LF_TEST_FE_CAP_, LF_TEST_FE_CAP_)
#undef LF_TEST_FE_CAP_
	};
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
		if (strncmp(kernel, caps[i].prefix, strlen(caps[i].prefix)) == 0)
			return caps[i].m < (1ull << 56) - 1 ? caps[i].m : (1ull << 56) - 1;
	return 0;
}
#endif

#endif
