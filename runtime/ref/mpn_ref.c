/*
 * mpn_ref.c -- portable C reference variants ("ref") of the 64-bit-limb kernels.
 *
 * Straightforward limb-by-limb code with the GMP mpn semantics documented in limbforge.h:
 * what the dispatcher uses when no assembly variant can run (LIMBFORGE_CPU=none, other
 * architectures), and the baseline the benchmarks compare against.  The 64x64->128 product
 * uses unsigned __int128 where the compiler has it, 32-bit halves otherwise.
 */
#include "lf_ref.h"

uint64_t lf_mpn_mul_1_ref(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	uint64_t cy = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t hi, lo;
		lf_umul128(ap[i], b, &hi, &lo);
		lo += cy;
		hi += lo < cy;
		rp[i] = lo;
		cy = hi;
	}
	return cy;
}

uint64_t lf_mpn_addmul_1_ref(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	uint64_t cy = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t hi, lo;
		lf_umul128(ap[i], b, &hi, &lo);
		lo += cy;
		hi += lo < cy;
		lo += rp[i];
		hi += lo < rp[i];
		rp[i] = lo;
		cy = hi;
	}
	return cy;
}

/* {rp,2n} = {ap,n}^2: the off-diagonal triangle by rows, doubled, plus the squares. */
void lf_mpn_sqr_ref(uint64_t *rp, const uint64_t *ap, size_t n)
{
	if (n == 0)
		return;
	rp[0] = 0;
	rp[n] = lf_mpn_mul_1_ref(rp + 1, ap + 1, n - 1, ap[0]);
	for (size_t i = 1; i + 1 < n; i++)
		rp[n + i] = lf_mpn_addmul_1_ref(rp + 2 * i + 1, ap + i + 1, n - 1 - i, ap[i]);
	rp[2 * n - 1] = 0;
	/* rp = 2 * rp + sum ap[i]^2 * 2^(128 i) */
	uint64_t shift_in = 0, cy = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t hi, lo, t0 = rp[2 * i], t1 = rp[2 * i + 1];
		lf_umul128(ap[i], ap[i], &hi, &lo);
		uint64_t d0 = (t0 << 1) | shift_in;
		uint64_t d1 = (t1 << 1) | (t0 >> 63);
		shift_in = t1 >> 63;
		uint64_t s0 = d0 + lo, c0 = s0 < lo;
		s0 += cy;
		c0 += s0 < cy;
		uint64_t s1 = d1 + hi, c1 = s1 < hi;
		s1 += c0;
		c1 += s1 < c0;
		rp[2 * i] = s0;
		rp[2 * i + 1] = s1;
		cy = c1;
	}
}
