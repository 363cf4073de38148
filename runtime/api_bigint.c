/*
 * api_bigint.c -- public entry points of the java.math.BigInteger kernels.
 * Contracts: limbforge.h; the kernels take the same arguments and handle len == 0.
 */
#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_words.h"

uint32_t lf_bi_mul_add(uint32_t *out, size_t out_len, const uint32_t *in, size_t offset,
                       size_t len, uint32_t k)
{
	return LF_CALL(bi_mul_add)(out, out_len, in, offset, len, k);
}

void lf_bi_square_to_len(const uint32_t *x, size_t len, uint32_t *z)
{
	LF_CALL(bi_square_to_len)(x, len, z);
}

void lf_bi_multiply_to_len(const uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen,
                           uint32_t *z)
{
	LF_CALL(bi_multiply_to_len)(x, xlen, y, ylen, z);
}

/* HotSpot's limit for the Montgomery stubs: len <= 512 words, i.e. 256 limbs per operand */
#define MONT_MAX_LIMBS 256

/* The JDK arrays as limbs on the stack (as HotSpot's montgomery_multiply copies them), one
 * Montgomery multiplication, the product back as BE-words. */
static void bi_montgomery(const uint32_t *a, const uint32_t *b, const uint32_t *n, size_t len,
                          uint64_t inv, uint32_t *product)
{
	uint64_t al[MONT_MAX_LIMBS], bl[MONT_MAX_LIMBS], nl[MONT_MAX_LIMBS], rl[MONT_MAX_LIMBS];
	size_t k = len / 2;

	if (len == 0 || (len & 1) || k > MONT_MAX_LIMBS)
		return;
	lf_words_to_limbs(al, a, len);
	lf_words_to_limbs(nl, n, len);
	if (b != a)
		lf_words_to_limbs(bl, b, len);
	LF_CALL(mpn_montmul)(rl, al, b != a ? bl : al, nl, inv, k);
	lf_limbs_to_words(product, rl, len);
}

void lf_bi_montgomery_multiply(const uint32_t *a, const uint32_t *b, const uint32_t *n,
                               size_t len, uint64_t inv, uint32_t *product)
{
	bi_montgomery(a, b, n, len, inv, product);
}

void lf_bi_montgomery_square(const uint32_t *a, const uint32_t *n, size_t len, uint64_t inv,
                             uint32_t *product)
{
	bi_montgomery(a, a, n, len, inv, product);
}
