/*
 * lf_karatsuba.h -- the subquadratic layer of lf_mpn_mul / lf_mpn_sqr (runtime/karatsuba.c):
 * Karatsuba over the dispatched schoolbook kernels from these operand sizes up (limbs; for
 * mul, the smaller operand).
 */
#ifndef LF_KARATSUBA_H
#define LF_KARATSUBA_H

#include <stddef.h>
#include <stdint.h>

#include "lf_dispatch.h"

#define LF_KARA_MIN 40
#define LF_KARA_SQR_MIN 48
#define LF_KARA_SQR_IFMA_MIN 257   /* when mpn_sqr dispatches to an IFMA build */
#define LF_KARA_MUL_IFMA_MIN 129   /* when mpn_mul dispatches to an IFMA build */
/* with the IFMA mpn_mul below the threshold: a longer than the kernel's IFMA range (its
 * ifma_max) goes in blocks of this many limbs when b has at least LF_KARA_IFMA_BLOCK_BN */
#define LF_KARA_IFMA_MUL_AN 128
#define LF_KARA_IFMA_BLOCK_BN 16

/* {rp, an+bn} = {ap,an} {bp,bn}, an >= bn >= 1 (below LF_KARA_MIN, or below the IFMA build's
 * threshold, the kernel alone, a in blocks where the IFMA kernel would not take it); rp not
 * overlapping the inputs */
LF_INTERNAL void lf_mpn_mul_kara(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn);
/* {rp, 2n} = {ap,n}^2 (n >= LF_KARA_SQR_MIN: below, or below the IFMA build's threshold, the
 * kernel alone); rp not overlapping ap */
LF_INTERNAL void lf_mpn_sqr_kara(uint64_t *rp, const uint64_t *ap, size_t n);

/* whether the kernel id (mpn_mul, mpn_sqr) dispatches to an IFMA build now */
LF_INTERNAL int lf_mpn_dispatched_is_ifma(enum lf_kernel_id id);

#endif
