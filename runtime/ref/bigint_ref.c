/*
 * bigint_ref.c -- portable C reference variants ("ref") of the java.math.BigInteger kernels.
 *
 * Word-by-word transcriptions of the Java bodies (OpenJDK java/math/BigInteger.java):
 * implMulAdd and implSquareToLen with its helpers addOne and primitiveLeftShift.  Operands are
 * BE-words (index 0 most significant).  These are the honest baseline of the benchmarks:
 * straightforward code, compiled with the library's flags.
 */
#include "lf_ref.h"

/* BigInteger.implMulAdd(out, in, offset, len, k), the window addressed from the end of out. */
uint32_t lf_bi_mul_add_ref(uint32_t *out, size_t out_len, const uint32_t *in, size_t offset,
                           size_t len, uint32_t k)
{
	uint64_t kLong = k, carry = 0;
	size_t o = out_len - offset - 1;

	for (size_t j = len; j-- > 0;) {
		uint64_t product = (uint64_t)in[j] * kLong + out[o] + carry;
		out[o--] = (uint32_t)product;
		carry = product >> 32;
	}
	return (uint32_t)carry;
}

/* BigInteger.addOne(a, offset, mlen, carry) */
static uint32_t add_one(uint32_t *a, size_t a_len, size_t offset, size_t mlen, uint32_t carry)
{
	size_t p = a_len - 1 - mlen - offset;
	uint64_t t = (uint64_t)a[p] + carry;

	a[p] = (uint32_t)t;
	if ((t >> 32) == 0)
		return 0;
	while (mlen-- > 0) {
		if (p-- == 0) /* carry out of the front of the array */
			return 1;
		a[p]++;
		if (a[p] != 0)
			return 0;
	}
	return 1;
}

/* BigInteger.primitiveLeftShift(a, len, n), 0 < n < 32 */
static void primitive_left_shift(uint32_t *a, size_t len, unsigned n)
{
	if (len == 0 || n == 0)
		return;
	unsigned n2 = 32 - n;
	uint32_t c = a[0];
	for (size_t i = 0; i < len - 1; i++) {
		uint32_t b = c;
		c = a[i + 1];
		a[i] = (b << n) | (c >> n2);
	}
	a[len - 1] <<= n;
}

/* BigInteger.implSquareToLen(x, len, z, zlen) with zlen = 2*len */
void lf_bi_square_to_len_ref(const uint32_t *x, size_t len, uint32_t *z)
{
	size_t zlen = 2 * len;
	uint32_t lastProductLowWord = 0;

	if (len == 0)
		return;
	/* store the squares, right shifted one bit (i.e., divided by 2) */
	for (size_t j = 0, i = 0; j < len; j++) {
		uint64_t piece = x[j];
		uint64_t product = piece * piece;
		z[i++] = (lastProductLowWord << 31) | (uint32_t)(product >> 33);
		z[i++] = (uint32_t)(product >> 1);
		lastProductLowWord = (uint32_t)product;
	}
	/* add in off-diagonal sums */
	for (size_t i = len, offset = 1; i > 0; i--, offset += 2) {
		uint32_t t = x[i - 1];
		t = lf_bi_mul_add_ref(z, zlen, x, offset, i - 1, t);
		add_one(z, zlen, offset - 1, i, t);
	}
	/* shift back up and set low bit */
	primitive_left_shift(z, zlen, 1);
	z[zlen - 1] |= x[len - 1] & 1;
}

/* BigInteger.implMultiplyToLen(x, xlen, y, ylen, z): the first row multiplies y by the least
 * significant word of x, each further row adds y * x[i] one word further up. */
void lf_bi_multiply_to_len_ref(const uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen,
                               uint32_t *z)
{
	if (xlen == 0 || ylen == 0) {
		for (size_t i = 0; i < xlen + ylen; i++)
			z[i] = 0;
		return;
	}
	size_t xstart = xlen - 1, ystart = ylen - 1;
	uint64_t carry = 0;

	for (size_t j = ystart + 1, k = ystart + 1 + xstart; j-- > 0; k--) {
		uint64_t product = (uint64_t)y[j] * x[xstart] + carry;
		z[k] = (uint32_t)product;
		carry = product >> 32;
	}
	z[xstart] = (uint32_t)carry;
	for (size_t i = xstart; i-- > 0;) {
		carry = 0;
		for (size_t j = ystart + 1, k = ystart + 1 + i; j-- > 0; k--) {
			uint64_t product = (uint64_t)y[j] * x[i] + z[k] + carry;
			z[k] = (uint32_t)product;
			carry = product >> 32;
		}
		z[i] = (uint32_t)carry;
	}
}
