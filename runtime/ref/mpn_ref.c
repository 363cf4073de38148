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

/* {rp,an+bn} = {ap,an} * {bp,bn}: one mul_1 row, then addmul_1 rows. */
void lf_mpn_mul_ref(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn)
{
	if (bn == 0)
		return;
	rp[an] = lf_mpn_mul_1_ref(rp, ap, an, bp[0]);
	for (size_t j = 1; j < bn; j++)
		rp[an + j] = lf_mpn_addmul_1_ref(rp + j, ap, an, bp[j]);
}

/* {rp,n} = a b R^-1 mod N, R = 2^(64 n): CIOS with the accumulator in rp and its top bit in
 * `top`, then the constant-time subtraction of N & mask. */
void lf_mpn_montmul_ref(uint64_t *rp, const uint64_t *ap, const uint64_t *bp, const uint64_t *np,
                        uint64_t n0inv, size_t n)
{
	if (n == 0)
		return;
	uint64_t top = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t cy = i == 0 ? lf_mpn_mul_1_ref(rp, ap, n, bp[0])
		                     : lf_mpn_addmul_1_ref(rp, ap, n, bp[i]);
		uint64_t t_n = top + cy, t_n1 = t_n < cy;
		uint64_t m = rp[0] * n0inv;
		cy = lf_mpn_addmul_1_ref(rp, np, n, m);     /* rp[0] becomes 0 */
		for (size_t k = 1; k < n; k++)
			rp[k - 1] = rp[k];
		rp[n - 1] = t_n + cy;
		top = t_n1 + (rp[n - 1] < cy);
	}
	uint64_t borrow = 0;                          /* of t - N */
	for (size_t k = 0; k < n; k++)
		borrow = (rp[k] < np[k]) | ((rp[k] - np[k]) < borrow);
	/* top - borrow is 1 or 0 when t + top R >= N (subtract), 2^64 - 1 when not */
	uint64_t mask = (uint64_t)0 - (((top - borrow) >> 63) ^ 1);
	uint64_t bw = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t s = np[k] & mask;
		uint64_t d = rp[k] - s - bw;
		bw = (rp[k] < s) | ((rp[k] - s) < bw);
		rp[k] = d;
	}
}
