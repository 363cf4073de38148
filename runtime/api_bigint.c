/*
 * api_bigint.c -- public entry points of the java.math.BigInteger kernels.
 * Contracts: limbforge.h; the kernels take the same arguments and handle len == 0.
 */
#include <stdlib.h>

#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_karatsuba.h"
#include "lf_words.h"

uint32_t lf_bi_mul_add(uint32_t *out, size_t out_len, const uint32_t *in, size_t offset,
                       size_t len, uint32_t k)
{
	return LF_CALL_NOW(bi_mul_add)(out, out_len, in, offset, len, k);
}

/* Long products leave the word kernels for lf_mpn_mul / lf_mpn_sqr on little-endian limb
 * copies (the conversion is linear, the product is not) from BI_MUL_LIMB_MIN
 * (BI_SQR_LIMB_MIN) words of the shorter operand.  On x86-64 that is 16 (24) words whatever
 * mpn_mul runs: `limbforge-bench --kernel bi_multiply_to_len,lf_bi_multiply_to_len,
 * bi_square_to_len,lf_bi_square_to_len --variant adx --sizes 8,12,...,100` put the limb path
 * ahead of the adx word kernels from there on a Sapphire Rapids-class core, with mpn_mul's
 * IFMA build and without it (LIMBFORGE_CPU=-avx512ifma: multiply 0.87-1.22x GMP against
 * 0.66-0.92x from 16 words, square 1.22-1.34x against 1.14-1.24x from 32; 2026-11-30).  On
 * AMD Zen 5 the squaring's limb path wins from 24 words (`--kernel lf_bi_square_to_len --sizes
 * 22,...,32`, 2026-12-01: 0.85-0.93x GMP -> 0.91-1.30x at 24..30 with IFMA, 0.87-0.95x ->
 * 0.93-1.00x without; at 22 words a tie with IFMA), where the word kernel's straight-line code
 * (up to 20 words) gives way to its loops; the multiplication's limb path at 14 words lost
 * there (0.53x against 0.61-0.68x GMP), and a product the dispatched word kernel runs in
 * straight-line code stays with it at any length (lf_bi_multiply_to_len, below: Zen 5's
 * schedule runs up to 16 words so).  The 24 applies to every x86-64 CPU: the Sapphire
 * Rapids-class host was not measured at 24..30 words (its word kernel runs the same loops from
 * 22 words, at 0.89-0.96x GMP at 24); a CPU where that loses would want the threshold in its
 * schedule.
 * Elsewhere (not measured) from where lf_mpn_mul (lf_mpn_sqr) starts Karatsuba.  Copies up
 * to BI_STACK_LIMBS on the stack, larger ones on the heap (the word kernel if that fails). */
#if defined(__x86_64__) || defined(_M_X64)
#  define BI_MUL_LIMB_MIN 16
#  define BI_SQR_LIMB_MIN 24
#else
#  define BI_MUL_LIMB_MIN (2 * LF_KARA_MIN)
#  define BI_SQR_LIMB_MIN (2 * LF_KARA_SQR_MIN)
#endif
#define BI_STACK_LIMBS 512

static uint64_t *bi_scratch(uint64_t *stack, size_t limbs)
{
	return limbs <= BI_STACK_LIMBS ? stack : malloc(limbs * sizeof(uint64_t));
}

/* From the limb-path sizes a call goes to the out-of-line *_long (its 4 KiB buffer, its saved
 * registers); below them the entry point only tail-calls the word kernel, with no frame. */
static __attribute__((noinline)) void bi_square_long(const uint32_t *x, size_t len, uint32_t *z)
{
	uint64_t stack[BI_STACK_LIMBS], *t;
	size_t n = (len + 1) / 2;

	if (!(t = bi_scratch(stack, 3 * n))) {
		LF_CALL_NOW(bi_square_to_len)(x, len, z);
		return;
	}
	lf_words_to_limbs(t, x, len);
	lf_mpn_sqr(t + n, t, n);
	lf_limbs_to_words(z, t + n, 2 * len);
	if (t != stack)
		free(t);
}

/* As for products (lf_bi_multiply_to_len, below): a square up to the dispatched build's hint
 * (ifma: ifma_max words, radix 2^52 on the words themselves from 21 words) stays with the
 * kernel: AMD Zen 5, 2026-12-01, at 24, 32 and 64 words 105, 137 and 269 core cycles against
 * the limb path's 163, 189 and 342. */
static __attribute__((noinline)) void bi_square_big(const uint32_t *x, size_t len,
                                                    uint32_t *z)
{
	lf_fnptr fn = lf_dispatch_get(LF_K_bi_square_to_len);
	if (len > (size_t)lf_dispatch_hint(LF_K_bi_square_to_len, fn))
		bi_square_long(x, len, z);
	else
		((lf_bi_square_to_len_fn)fn)(x, len, z);
}

/* Below BI_SQR_LIMB_MIN a compare and a tail call of the kernel: the hint is read out of line
 * (bi_square_big), where the work is large (inline, it made gcc save four callee-saved
 * registers on every call). */
void lf_bi_square_to_len(const uint32_t *x, size_t len, uint32_t *z)
{
	if (len >= BI_SQR_LIMB_MIN)
		bi_square_big(x, len, z);
	else
		LF_CALL_NOW(bi_square_to_len)(x, len, z);
}

static __attribute__((noinline)) void bi_multiply_long(const uint32_t *x, size_t xlen,
                                                       const uint32_t *y, size_t ylen,
                                                       uint32_t *z)
{
	uint64_t stack[BI_STACK_LIMBS], *t;
	size_t xn = (xlen + 1) / 2, yn = (ylen + 1) / 2;

	if (!(t = bi_scratch(stack, 2 * (xn + yn)))) {
		LF_CALL_NOW(bi_multiply_to_len)(x, xlen, y, ylen, z);
		return;
	}
	lf_words_to_limbs(t, x, xlen);
	lf_words_to_limbs(t + xn, y, ylen);
	lf_mpn_mul(t + xn + yn, t, xn, t + xn, yn);
	lf_limbs_to_words(z, t + xn + yn, xlen + ylen);
	if (t != stack)
		free(t);
}

/* A product the dispatched word kernel runs better than the limb path stays with it: the
 * longer operand has at most `hint` words (lf_variant.hint of bi_multiply_to_len; 0 for
 * builds without one).  adx: 2 small, its straight-line code, which beats the limb path,
 * whose conversions and calls cost some 40 core cycles (AMD Zen 5, 16 words: 91 against 141
 * with small = 8 in its schedule).  ifma: ifma_max, up to which it multiplies the BE words
 * in radix 2^52 itself (from ifma_min <= 16 words in both operands; adx below): at 20, 24 and
 * 32 words 136, 155 and 214 core cycles against the limb path's 190, 206 and ~300 over the
 * same IFMA core (2026-12-01). */
static __attribute__((noinline)) void bi_multiply_big(const uint32_t *x, size_t xlen,
                                                      const uint32_t *y, size_t ylen,
                                                      uint32_t *z)
{
	lf_fnptr fn = lf_dispatch_get(LF_K_bi_multiply_to_len);
	if ((xlen > ylen ? xlen : ylen) > (size_t)lf_dispatch_hint(LF_K_bi_multiply_to_len, fn))
		bi_multiply_long(x, xlen, y, ylen, z);
	else
		((lf_bi_multiply_to_len_fn)fn)(x, xlen, y, ylen, z);
}

/* Below BI_MUL_LIMB_MIN words of the shorter operand a compare and a tail call of the
 * kernel: the hint is read out of line (bi_multiply_big), where the work is large (inline, it
 * made gcc save six callee-saved registers on every call). */
void lf_bi_multiply_to_len(const uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen,
                           uint32_t *z)
{
	if ((xlen < ylen ? xlen : ylen) >= BI_MUL_LIMB_MIN)
		bi_multiply_big(x, xlen, y, ylen, z);
	else
		LF_CALL_NOW(bi_multiply_to_len)(x, xlen, y, ylen, z);
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
	lf_mpn_montmul_fn montmul = LF_CALL(mpn_montmul);
	lf_words_to_limbs(al, a, len);
	lf_words_to_limbs(nl, n, len);
	if (b != a)
		lf_words_to_limbs(bl, b, len);
	montmul(rl, al, b != a ? bl : al, nl, inv, k);
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
