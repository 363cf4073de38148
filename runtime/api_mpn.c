/*
 * api_mpn.c -- public entry points for the native 64-bit-limb kernels (GMP mpn semantics).
 * Contracts: limbforge.h.  Each forwards to the variant chosen by the dispatcher; the
 * kernels themselves accept n == 0.  lf_mpn_mul and lf_mpn_sqr go through Karatsuba
 * (karatsuba.c) from LF_KARA_MIN / LF_KARA_SQR_MIN limbs, the kernels doing the base cases.
 */
#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_karatsuba.h"

uint64_t lf_mpn_addmul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	return LF_CALL_NOW(mpn_addmul_1)(rp, ap, n, b);
}

uint64_t lf_mpn_mul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	return LF_CALL_NOW(mpn_mul_1)(rp, ap, n, b);
}

void lf_mpn_sqr(uint64_t *rp, const uint64_t *ap, size_t n)
{
	if (n >= LF_KARA_SQR_MIN)
		lf_mpn_sqr_kara(rp, ap, n);
	else
		LF_CALL_NOW(mpn_sqr)(rp, ap, n);
}

void lf_mpn_mul(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn)
{
	if (an < bn) {
		const uint64_t *t = ap;
		size_t tn = an;
		ap = bp, an = bn, bp = t, bn = tn;
	}
	if (bn == 0) {
		for (size_t i = 0; i < an; i++)
			rp[i] = 0;
		return;
	}
	/* karatsuba.c decides (by the dispatched kernel) whether to split; below these sizes it
	 * never does */
	if (bn >= LF_KARA_MIN || (an > LF_KARA_IFMA_MUL_AN && bn >= LF_KARA_IFMA_BLOCK_BN))
		lf_mpn_mul_kara(rp, ap, an, bp, bn);
	else
		LF_CALL_NOW(mpn_mul)(rp, ap, an, bp, bn);
}

void lf_mpn_montmul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp, const uint64_t *np,
                    uint64_t n0inv, size_t n)
{
	LF_CALL_NOW(mpn_montmul)(rp, ap, bp, np, n0inv, n);
}
