/*
 * api_mpn.c -- public entry points for the native 64-bit-limb kernels (GMP mpn semantics).
 * Contracts: limbforge.h.  Each forwards to the variant chosen by the dispatcher; the
 * kernels themselves accept n == 0.
 */
#include "limbforge.h"
#include "lf_dispatch.h"

uint64_t lf_mpn_addmul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	return LF_CALL(mpn_addmul_1)(rp, ap, n, b);
}

uint64_t lf_mpn_mul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	return LF_CALL(mpn_mul_1)(rp, ap, n, b);
}

void lf_mpn_sqr(uint64_t *rp, const uint64_t *ap, size_t n)
{
	LF_CALL(mpn_sqr)(rp, ap, n);
}
