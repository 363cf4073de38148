/*
 * lf_ref.h -- helpers of the portable reference kernels (runtime/ref/).
 */
#ifndef LF_REF_H
#define LF_REF_H

#include <stddef.h>
#include <stdint.h>

#include "lf_kernels.h"

/* hi:lo = a * b */
static inline void lf_umul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
	__extension__ typedef unsigned __int128 u128;   /* __extension__: quiet -Wpedantic */
	u128 p = (u128)a * b;
	*hi = (uint64_t)(p >> 64);
	*lo = (uint64_t)p;
#else
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	*lo = (mid << 32) | (uint32_t)p00;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}



#endif /* LF_REF_H */
