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

/* ---- MontgomeryIntegerPolynomialP256: 5 x 52-bit limbs, R = 2^260 -------------------------
 * A transcription of the JDK's mult (KERNELS.md §3.2): five rows of 52x52-bit products split
 * into lo = x y mod 2^52 and hi = x y >> 52, the quotient digit m = the low column mod 2^52
 * (p = -1 mod 2^52), then t - p selected by its sign mask. */
#define M52 ((UINT64_C(1) << 52) - 1)

static const uint64_t P52[5] = { UINT64_C(0x000fffffffffffff), UINT64_C(0x00000fffffffffff), 0,
                                 UINT64_C(0x0000001000000000), UINT64_C(0x0000ffffffff0000) };

/* lo and hi halves of a 52x52-bit product */
static inline void mul52(uint64_t x, uint64_t y, uint64_t *lo, uint64_t *hi)
{
	uint64_t h, l;
	lf_umul128(x, y, &h, &l);
	*lo = l & M52;
	*hi = (h << 12) | (l >> 52);
}

void lf_p256_mont_mult_ref(int64_t *r, const int64_t *a, const int64_t *b)
{
	uint64_t c[10] = { 0 }, lo, hi;

	for (int i = 0; i < 5; i++) {
		for (int j = 0; j < 5; j++) {
			mul52((uint64_t)a[j], (uint64_t)b[i], &lo, &hi);
			c[i + j] += lo;
			c[i + j + 1] += hi;
		}
		uint64_t m = c[i] & M52;
		for (int j = 0; j < 5; j++) {
			mul52(m, P52[j], &lo, &hi);
			c[i + j] += lo;
			c[i + j + 1] += hi;
		}
		c[i + 1] += c[i] >> 52;         /* c[i] is 0 mod 2^52 */
	}
	/* t = c5..c9 to 52-bit limbs (c9 keeps the rest); d = t - p with signed borrows */
	int64_t t[5], d[5];
	uint64_t carry = 0;
	for (int k = 0; k < 5; k++) {
		uint64_t v = c[5 + k] + carry;
		t[k] = (int64_t)(k < 4 ? v & M52 : v);
		carry = v >> 52;
	}
	int64_t borrow = 0;
	for (int k = 0; k < 5; k++) {
		int64_t v = t[k] - (int64_t)P52[k] + borrow;
		d[k] = k < 4 ? (int64_t)((uint64_t)v & M52) : v;
		borrow = v >> 52;               /* arithmetic: -1 or 0 */
	}
	/* d negative (t < p): keep t */
	uint64_t keep_t = (uint64_t)(d[4] >> 63);
	for (int k = 0; k < 5; k++)
		r[k] = (int64_t)(((uint64_t)t[k] & keep_t) | ((uint64_t)d[k] & ~keep_t));
}

void lf_p256_mont_square_ref(int64_t *r, const int64_t *a)
{
	lf_p256_mont_mult_ref(r, a, a);
}

/* eight independent products, element k at limbs [5k, 5k + 5) of each array; r may alias a
 * and/or b as a whole (each element is read before it is written) */
void lf_p256_mont_mult_x8_ref(int64_t *r, const int64_t *a, const int64_t *b)
{
	for (int k = 0; k < 8; k++)
		lf_p256_mont_mult_ref(r + 5 * k, a + 5 * k, b + 5 * k);
}
