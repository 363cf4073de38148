/*
 * lf_karatsuba.h -- the subquadratic layer of lf_mpn_mul / lf_mpn_sqr (runtime/karatsuba.c):
 * Karatsuba over the dispatched schoolbook kernels from these operand sizes up (limbs; for
 * mul, the smaller operand).
 */
#ifndef LF_KARATSUBA_H
#define LF_KARATSUBA_H

#include <stddef.h>
#include <stdint.h>

#define LF_KARA_MIN 40
#define LF_KARA_SQR_MIN 48
#define LF_KARA_SQR_IFMA_MIN 257   /* when mpn_sqr dispatches to an IFMA build */

/* {rp, an+bn} = {ap,an} {bp,bn}, an >= bn >= LF_KARA_MIN; rp not overlapping the inputs */
void lf_mpn_mul_kara(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn);
/* {rp, 2n} = {ap,n}^2 (n >= LF_KARA_SQR_MIN: below, or below the IFMA build's threshold, the
 * kernel alone); rp not overlapping ap */
void lf_mpn_sqr_kara(uint64_t *rp, const uint64_t *ap, size_t n);

#endif
