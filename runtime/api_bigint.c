/*
 * api_bigint.c -- public entry points of the java.math.BigInteger kernels.
 * Contracts: limbforge.h; the kernels take the same arguments and handle len == 0.
 */
#include "limbforge.h"
#include "lf_dispatch.h"

uint32_t lf_bi_mul_add(uint32_t *out, size_t out_len, const uint32_t *in, size_t offset,
                       size_t len, uint32_t k)
{
	return LF_CALL(bi_mul_add)(out, out_len, in, offset, len, k);
}

void lf_bi_square_to_len(const uint32_t *x, size_t len, uint32_t *z)
{
	LF_CALL(bi_square_to_len)(x, len, z);
}
