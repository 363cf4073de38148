/*
 * p256_ref.c -- portable C reference variants ("ref") of the P-256 field kernels
 * (p256_mul_mont, p256_sqr_mont: OpenSSL ecp_nistz256 layout, 4 x 64-bit limbs, R = 2^256)
 * and of conditional_assign (the JDK's IntegerPolynomial.conditionalAssign).
 *
 * Contracts: limbforge.h and the kernel headers in generated/.  The Montgomery product is
 * textbook CIOS over p's four limbs with n0inv = -p^-1 mod 2^64 = 1 (no use of p's special
 * shape, so that the assembly's specialised reduction has an independent twin), and a final
 * subtraction selected by a mask; no branch or address depends on the values.
 */
#include "lf_ref.h"

static const uint64_t p256[4] = {
	UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000ffffffff),
	UINT64_C(0x0000000000000000), UINT64_C(0xffffffff00000001),
};

/* Keep the optimiser from learning that x is 0 or all ones (and from turning a masked
 * select into a branch). */
#if defined(__GNUC__)
#  define LF_VALUE_BARRIER(x) __asm__("" : "+r"(x))
#else
#  define LF_VALUE_BARRIER(x) do { volatile uint64_t v_ = (x); (x) = v_; } while (0)
#endif

void lf_p256_mul_mont_ref(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	uint64_t t[6] = { 0, 0, 0, 0, 0, 0 }, d[4];
	uint64_t hi, lo, cy;

	for (int i = 0; i < 4; i++) {
		/* t += a * b_i */
		uint64_t bi = b[i];
		cy = 0;
		for (int j = 0; j < 4; j++) {
			lf_umul128(a[j], bi, &hi, &lo);
			lo += cy;
			hi += lo < cy;
			t[j] += lo;
			hi += t[j] < lo;
			cy = hi;
		}
		t[4] += cy;
		t[5] = t[4] < cy;
		/* m = t0 n0inv = t0 (p = -1 mod 2^64); t = (t + m p) / 2^64 */
		uint64_t m = t[0];
		cy = 0;
		for (int j = 0; j < 4; j++) {
			lf_umul128(m, p256[j], &hi, &lo);
			lo += cy;
			hi += lo < cy;
			t[j] += lo;
			hi += t[j] < lo;
			cy = hi;
		}
		t[4] += cy;
		t[5] += t[4] < cy;
		for (int j = 0; j < 5; j++)
			t[j] = t[j + 1];
		t[5] = 0;
	}
	/* t < 2p (t < 2^256 + p for inputs up to 2^256): r = t - p unless that borrows */
	uint64_t bw = 0;
	for (int j = 0; j < 4; j++) {
		uint64_t x = t[j] - p256[j];
		uint64_t b1 = t[j] < p256[j];
		d[j] = x - bw;
		bw = b1 | (x < bw);
	}
	/* keep t when the subtraction borrowed out of t4 */
	uint64_t keep = (uint64_t)0 - (uint64_t)(t[4] < bw);
	LF_VALUE_BARRIER(keep);
	for (int j = 0; j < 4; j++)
		r[j] = (t[j] & keep) | (d[j] & ~keep);
}

void lf_p256_sqr_mont_ref(uint64_t *r, const uint64_t *a)
{
	lf_p256_mul_mont_ref(r, a, a);
}

void lf_conditional_assign_ref(int set, int64_t *a, const int64_t *b, size_t n)
{
	uint64_t mask = (uint64_t)0 - (uint64_t)(uint32_t)set;
	LF_VALUE_BARRIER(mask);
	for (size_t i = 0; i < n; i++) {
		uint64_t x = (uint64_t)a[i], y = (uint64_t)b[i];
		a[i] = (int64_t)(x ^ ((x ^ y) & mask));
	}
}
