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
/* Toom-3 from these sizes (the smaller operand, and balanced: bn > 2 ceil(an / 3)) over every
 * kernel build but the IFMA ones (adx, a64, ref; measured over adx: karatsuba.c's header);
 * over the IFMA ones it measured slower than Karatsuba at every size tried (512 to 2048
 * limbs), so it stays off there */
#ifndef LF_TOOM3_MIN
#define LF_TOOM3_MIN 250
#endif
#ifndef LF_TOOM3_SQR_MIN
#define LF_TOOM3_SQR_MIN 500
#endif
#define LF_TOOM3_OFF SIZE_MAX
/* scratch limbs for operands of n limbs: Toom-3 levels take 12 k + 12 (k = ceil(n / 3)),
 * Karatsuba levels 4 h (h = n / 2) and 2 h after them, each level recursing into the next:
 * 16 n + 1024 is about 2.7 times what the deepest recursion writes (modelled, and measured
 * by the reviews' guard-page builds: at most 0.37 of it) */
#define LF_KARA_SCRATCH(n) (16 * (n) + 1024)

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
