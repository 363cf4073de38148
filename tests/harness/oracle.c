/*
 * oracle.c -- the GMP oracles.  Nothing here calls limbforge.
 *
 * Fault this is designed to catch: any wrong answer of a kernel, by an implementation that
 * shares no code with limbforge.  64-bit limb kernels are compared with GMP's own mpn
 * functions (mpn_mul_1, mpn_addmul_1, mpn_sqr); the BigInteger kernels' BE-word operands are
 * imported into mpz integers, and the JDK semantics are computed from the definitions in
 * KERNELS.md §1.3/§1.4 (window value + in*k, low words back, overflow word returned;
 * x^2 in 2*len words) rather than transcribed from the Java loops.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

_Static_assert(sizeof(mp_limb_t) == 8 && GMP_NUMB_BITS == 64, "GMP limbs must be 64 bits");

uint64_t or_mul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	if (n == 0)
		return 0;
	return mpn_mul_1((mp_limb_t *)rp, (const mp_limb_t *)ap, (mp_size_t)n, b);
}

uint64_t or_addmul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	if (n == 0)
		return 0;
	return mpn_addmul_1((mp_limb_t *)rp, (const mp_limb_t *)ap, (mp_size_t)n, b);
}

void or_sqr(uint64_t *rp, const uint64_t *ap, size_t n)
{
	if (n == 0)
		return;
	mpn_sqr((mp_limb_t *)rp, (const mp_limb_t *)ap, (mp_size_t)n);
}

/* BE-words <-> mpz */
static void import_be(mpz_t z, const uint32_t *w, size_t n)
{
	if (n == 0)
		mpz_set_ui(z, 0);
	else
		mpz_import(z, n, 1, sizeof(uint32_t), 0, 0, w);
}

/* Store the low n words of z (z >= 0) into w as BE-words, zero-extended. */
static void export_be(uint32_t *w, size_t n, const mpz_t z)
{
	size_t cnt = 0;
	size_t need = (mpz_sizeinbase(z, 2) + 31) / 32;
	uint32_t *tmp = xmalloc((need + 1) * sizeof *tmp);

	mpz_export(tmp, &cnt, 1, sizeof(uint32_t), 0, 0, z);
	memset(w, 0, n * sizeof *w);
	for (size_t i = 0; i < cnt && i < n; i++)
		w[n - 1 - i] = tmp[cnt - 1 - i];
	free(tmp);
}

uint32_t or_mul_add(uint32_t *out, size_t out_len, const uint32_t *in, size_t offset, size_t len,
                    uint32_t k)
{
	mpz_t o, i, s, hi;
	uint32_t carry;

	if (len == 0)
		return 0;
	ck_assert_msg(offset < out_len && len <= out_len - offset, "oracle: bad window");
	uint32_t *win = out + (out_len - offset - len);
	mpz_inits(o, i, s, hi, NULL);
	import_be(o, win, len);
	import_be(i, in, len);          /* read both before writing: in may be the window */
	mpz_mul_ui(s, i, k);
	mpz_add(s, s, o);
	mpz_tdiv_q_2exp(hi, s, 32 * len);
	ck_assert_msg(mpz_cmp_ui(hi, UINT32_MAX) <= 0, "oracle: carry does not fit a word");
	carry = (uint32_t)mpz_get_ui(hi);
	export_be(win, len, s);         /* low len words */
	mpz_clears(o, i, s, hi, NULL);
	return carry;
}

void or_square_to_len(const uint32_t *x, size_t len, uint32_t *z)
{
	mpz_t a;
	if (len == 0)
		return;
	mpz_init(a);
	import_be(a, x, len);
	mpz_mul(a, a, a);
	export_be(z, 2 * len, a);
	mpz_clear(a);
}
