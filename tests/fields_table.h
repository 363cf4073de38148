/*
 * fields_table.h -- every generated EC field (generated/include/lf_fields.h's
 * LF_FE_FIELDS_NARROW / _WIDE lists) as a table of its kernels, for the fields suite and its
 * constant-time program.  A field added to gen/lfgen/fields/desc.py is in the table by
 * regeneration alone.
 */
#ifndef LF_TEST_FIELDS_TABLE_H
#define LF_TEST_FIELDS_TABLE_H

#include <stdint.h>

#include "lf_fields.h"

typedef void (*fe2_fn)(int64_t *, const int64_t *, const int64_t *);
typedef void (*fe1_fn)(int64_t *, const int64_t *);

struct fe_fns {
	const char *name;
	int limbs, nbytes, max_adds;
	fe2_fn mul, add, sub;
	fe1_fn square, neg, carry, carry_reduce, invert, mul_small;    /* mul_small: curves */
	void (*cswap)(int, int64_t *, int64_t *);
	void (*cassign)(int, int64_t *, const int64_t *);
	void (*encode)(uint8_t *, const int64_t *);
	void (*decode)(int64_t *, const uint8_t *);
	void (*ladder)(int64_t *, int64_t *, int64_t *, int64_t *, const int64_t *); /* curves */
	int invert_takes_l;            /* invert's input bound: L (divsteps, wide), else R */
};

#define FE_COMMON_(nm, NM)                                                                 \
	#nm, LF_FE_##NM##_LIMBS, LF_FE_##NM##_BYTES, LF_FE_##NM##_MAX_ADDS, lf_fe_##nm##_mul, \
	lf_fe_##nm##_add, lf_fe_##nm##_sub, lf_fe_##nm##_square, lf_fe_##nm##_neg,          \
	lf_fe_##nm##_carry, lf_fe_##nm##_carry_reduce, lf_fe_##nm##_invert
#define FE_TAIL_(nm)                                                                       \
	lf_fe_##nm##_conditional_swap, lf_fe_##nm##_conditional_assign, lf_fe_##nm##_encode, \
	lf_fe_##nm##_decode
#define FE_FIELD_(nm, NM, wide) { FE_COMMON_(nm, NM), NULL, FE_TAIL_(nm), NULL, wide },
#define FE_CURVE_(nm, NM, wide) { FE_COMMON_(nm, NM), lf_fe_##nm##_mul_small, FE_TAIL_(nm), \
	                          lf_fe_##nm##_ladder_step, wide },
#define FE_FIELD_N_(nm, NM) FE_FIELD_(nm, NM, 0)
#define FE_CURVE_N_(nm, NM) FE_CURVE_(nm, NM, 0)
#define FE_FIELD_W_(nm, NM) FE_FIELD_(nm, NM, 1)
#define FE_CURVE_W_(nm, NM) FE_CURVE_(nm, NM, 1)

static const struct fe_fns fe_fns[] = {
	LF_FE_FIELDS_NARROW(FE_FIELD_N_, FE_CURVE_N_)
#if LF_FE_WIDE
	LF_FE_FIELDS_WIDE(FE_FIELD_W_, FE_CURVE_W_)
#endif
};

#endif
