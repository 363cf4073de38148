/*
 * modpow.c -- lf_bi_mod_pow and lf_bi_mod_pow_consttime: base^exp mod m for an odd modulus,
 * on BE-words (BigInteger.oddModPow), by Montgomery multiplication (the mpn_montmul kernel).
 * Contracts: limbforge.h.
 *
 * Representation.  The modulus N has n limbs (leading zero words dropped), R = 2^(64 n).
 * Values are kept as Montgomery representatives: x stands for x R^-1 mod N, any x < R (not
 * necessarily below N): mpn_montmul takes inputs below R and returns a congruent value below
 * R, and the last step, montmul(x, 1) = (x + M N) / R < N + 1, gives the fully reduced result.
 * So no division is needed anywhere:
 *   - Nsh = N << s with its top bit set (s leading zeros of N's top limb); R - Nsh < Nsh is a
 *     representative of R mod N (N divides Nsh);
 *   - R^2 mod N (to enter Montgomery form): c = 2^k R by doublings (mod Nsh) and Montgomery
 *     squarings (2^j R * 2^j R / R = 2^(2j) R), k running over the bits of 64 n;
 *   - a base longer than n limbs: Horner over n-limb chunks, x = x R + chunk, in Montgomery
 *     arithmetic with three masked conditional subtractions of Nsh.
 * Exponentiation.
 *   - lf_bi_mod_pow: left-to-right sliding window over the odd powers b, b^3, ..., window size
 *     from BigInteger's bnExpModThreshTable (the minimum for exponent 65537);
 *   - lf_bi_mod_pow_consttime: fixed windows of w bits over all exp_len words (w by exponent
 *     size as OpenSSL's BN_window_bits_for_ctime_exponent_size, at most 5 as in its x86-64
 *     code: ct_window_for), a table of b^0..b^(2^w-1), each entry fetched by reading the
 *     whole table under masks (blocks of 8 limbs, 16 with AVX2, the ORs kept in registers
 *     over the entries: gather()); squarings and multiplications in a fixed sequence, the
 *     accumulator and the scratch trading places instead of a copy.
 *     Nothing branches on or is addressed by base or exp (the Montgomery kernels are
 *     constant time; the modulus is public).
 */
#include <stdlib.h>
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_words.h"

struct mont {
	size_t n;                 /* limbs of N */
	uint64_t n0inv;           /* -N^-1 mod 2^64 */
	uint64_t *N, *Nsh, *R2;
	uint64_t *tmp;            /* n limbs of scratch for ping-pong products */
};

/* -N^-1 mod 2^64 for odd N: x = 3N xor 2 is N^-1 mod 2^5 (Montgomery's trick), and each
 * Newton step x = x (2 - N x) doubles the number of correct low bits: 5 -> 10 -> 20 -> 40 -> 80. */
static uint64_t neg_inv64(uint64_t n0)
{
	uint64_t x = (3 * n0) ^ 2;            /* 5 correct bits */
	for (int i = 0; i < 4; i++)
		x *= 2 - n0 * x;              /* 10, 20, 40, 80 */
	return (uint64_t)0 - x;
}

static void mont_mul(const struct mont *m, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	LF_CALL_NOW(mpn_montmul)(r, a, b, m->N, m->n0inv, m->n);
}

/* x = x * y (Montgomery), through the scratch limbs: the kernel's output may not overlap */
static void mont_mul_in(const struct mont *m, uint64_t *x, const uint64_t *y)
{
	mont_mul(m, m->tmp, x, y);
	memcpy(x, m->tmp, m->n * 8);
}

/* *x = *x * y (Montgomery) without a copy: the product goes to the scratch limbs, which
 * then become *x (and *x's old limbs the scratch) */
static void mont_mul_swap(struct mont *m, uint64_t **x, const uint64_t *y)
{
	uint64_t *t = m->tmp;
	mont_mul(m, t, *x, y);
	m->tmp = *x;
	*x = t;
}

/* (cbit R + {x,n}) minus Nsh when it is >= Nsh, without branches; returns the new cbit */
static uint64_t csub(const struct mont *m, uint64_t *x, uint64_t cbit)
{
	size_t n = m->n;
	uint64_t borrow = 0;
	for (size_t k = 0; k < n; k++)
		borrow = (x[k] < m->Nsh[k]) | ((x[k] - m->Nsh[k]) < borrow);
	/* subtract iff cbit - borrow is 0 or 1 (not -1) */
	uint64_t mask = (uint64_t)0 - (((cbit - borrow) >> 63) ^ 1);
	uint64_t bw = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t s = m->Nsh[k] & mask, xk = x[k];
		x[k] = xk - s - bw;
		bw = (xk < s) | ((xk - s) < bw);
	}
	return cbit - (bw & mask);
}

/* x = 2 x mod Nsh for x < Nsh */
static void dbl(const struct mont *m, uint64_t *x)
{
	uint64_t c = 0;
	for (size_t k = 0; k < m->n; k++) {
		uint64_t t = x[k];
		x[k] = t << 1 | c;
		c = t >> 63;
	}
	csub(m, x, c);
}

/* carry-out of {x,n} += {y,n} */
static uint64_t add_n(uint64_t *x, const uint64_t *y, size_t n)
{
	uint64_t c = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t s = x[k] + c;
		c = s < c;
		x[k] = s + y[k];
		c += x[k] < s;
	}
	return c;
}

/* N, Nsh, n0inv and R^2 mod N (a representative below Nsh) */
static void mont_setup(struct mont *m)
{
	size_t n = m->n;
	unsigned s = (unsigned)__builtin_clzll(m->N[n - 1]);
	for (size_t k = n; k-- > 0;)
		m->Nsh[k] = s ? m->N[k] << s | (k ? m->N[k - 1] >> (64 - s) : 0) : m->N[k];
	m->n0inv = neg_inv64(m->N[0]);
	/* c = R - Nsh = -Nsh mod R, a representative of R (N divides Nsh) */
	uint64_t *c = m->R2, borrow = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t v = m->Nsh[k];
		c[k] = 0 - v - borrow;
		borrow = (v | borrow) != 0;
	}
	/* c = 2^e R for e running over the bits of 64 n from the top: squaring doubles e */
	size_t e = 64 * n;
	int top = 63 - __builtin_clzll((unsigned long long)e);
	dbl(m, c);                                      /* the leading 1 bit: e = 1 */
	for (int bit = top - 1; bit >= 0; bit--) {
		mont_mul_in(m, c, c);                   /* 2^(2e) R, below R */
		csub(m, c, 0);                          /* below Nsh (R <= 2 Nsh) */
		if ((e >> bit) & 1)
			dbl(m, c);
	}
}

/* x (n limbs) = a representative of base * R mod N; base_l: bl limbs of the base */
static void to_mont(struct mont *m, uint64_t *x, const uint64_t *base_l, size_t bl)
{
	size_t n = m->n;
	if (bl <= n) {
		uint64_t *t = m->tmp;                   /* (mont_mul's output must differ) */
		memset(x, 0, n * 8);
		memcpy(x, base_l, bl * 8);
		mont_mul(m, t, x, m->R2);
		memcpy(x, t, n * 8);
		return;
	}
	/* Horner over n-limb chunks from the top: x = x R + chunk (x R = montmul(x, R^2)) */
	size_t chunks = (bl + n - 1) / n, lo = (chunks - 1) * n;
	memset(x, 0, n * 8);
	memcpy(x, base_l + lo, (bl - lo) * 8);
	while (lo > 0) {
		lo -= n;
		mont_mul_in(m, x, m->R2);
		uint64_t c = add_n(x, base_l + lo, n);
		c = csub(m, x, c);                      /* < 2R -> < 1.5R -> < R */
		c = csub(m, x, c);
		csub(m, x, c);
	}
	mont_mul_in(m, x, m->R2);
}

/* bit i (0 = least significant) of the BE-words exp[0..len) */
static unsigned ebit(const uint32_t *exp, size_t len, size_t i)
{
	return (exp[len - 1 - i / 32] >> (i % 32)) & 1;
}

/* w bits of exp from bit i down (i - w + 1 >= 0) */
static unsigned ebits_at(const uint32_t *exp, size_t len, size_t i, unsigned w)
{
	unsigned v = 0;
	for (unsigned k = 0; k < w; k++)
		v = v << 1 | ebit(exp, len, i - k);
	return v;
}

/* BigInteger.bnExpModThreshTable */
static unsigned window_for(size_t ebits, const uint32_t *exp, size_t len)
{
	static const size_t thresh[] = { 7, 25, 81, 241, 673, 1793 };
	unsigned w = 1;
	if (ebits == 17 && exp[len - 1] == 65537)
		return 1;
	while (w <= 6 && ebits > thresh[w - 1])
		w++;
	return w;
}

/* OpenSSL's BN_window_bits_for_ctime_exponent_size, capped at 5 as its x86-64 code caps it
 * (bn_power5 / bn_mul_mont_gather5): a 64-entry table costs more to build and to read
 * under masks than the multiplications its sixth bit saves.  AMD Zen 5, 2026-12-02, one
 * build against the other (limbforge-bench --kernel bi_mod_pow_ct --sizes 16,32,48,64):
 * 1024 bits 6% faster on both the ifma and the adx path (0.93x -> 0.98-0.99x OpenSSL's
 * BN_mod_exp_mont_consttime on adx), 2048-4096 bits the same within 2%. */
static unsigned ct_window_for(size_t ebits)
{
	return ebits > 306 ? 5 : ebits > 89 ? 4 : ebits > 22 ? 3 : 1;
}

/* sel = table[idx] (entries of n limbs), reading every limb of every entry under masks
 * mask_k = -(k == idx) made by arithmetic, the ORs kept in registers over the entries and
 * each entry read a block of contiguous limbs at a time: 8 limbs in four 16-byte vectors
 * (SSE2 / NEON by vector extensions), or on x86-64 with AVX2 (a public CPU feature,
 * lf_cpu_features()) 16 limbs in four ymm, then 4 in one.  Zen 3, gather of 32 entries (the
 * 5-bit window) timed alone by rdtsc, 2026-12-07: n = 16/32/64 limbs 318-612/490-1029/
 * 906-1715 ticks two limbs a time, 171-294/318-539/563-955 eight, 122-147/196/318 AVX2
 * (at 16 limbs the two-limb loop cost as much as a Montgomery squaring); the whole
 * lf_bi_mod_pow_consttime, this file built twice into one driver and timed alternately
 * (median of 60 paired ratios), 1024/2048/3072/4096 bits: AVX2 over two limbs a time
 * 1.06-1.08/1.04/1.02-1.03/1.02x, AVX2 over eight 1.01-1.02x. */
typedef uint64_t lf_v2 __attribute__((vector_size(16)));

static void gather_masks(uint64_t *mask, size_t entries, unsigned idx)
{
	for (size_t k = 0; k < entries; k++)
		mask[k] = (uint64_t)0 - ((((uint64_t)(k ^ idx)) - 1) >> 63);
}

/* limbs l.. of sel by eight, then two, then one */
static void gather_v2(uint64_t *sel, const uint64_t *table, size_t entries, size_t n,
                      size_t l, const uint64_t *mask)
{
	for (; l + 8 <= n; l += 8) {
		lf_v2 v0 = { 0, 0 }, v1 = v0, v2 = v0, v3 = v0;
		for (size_t k = 0; k < entries; k++) {
			const uint64_t *p = table + k * n + l;
			lf_v2 m = { mask[k], mask[k] }, e0, e1, e2, e3;
			memcpy(&e0, p, 16);
			memcpy(&e1, p + 2, 16);
			memcpy(&e2, p + 4, 16);
			memcpy(&e3, p + 6, 16);
			v0 |= e0 & m;
			v1 |= e1 & m;
			v2 |= e2 & m;
			v3 |= e3 & m;
		}
		memcpy(sel + l, &v0, 16);
		memcpy(sel + l + 2, &v1, 16);
		memcpy(sel + l + 4, &v2, 16);
		memcpy(sel + l + 6, &v3, 16);
	}
	for (; l + 2 <= n; l += 2) {
		lf_v2 v = { 0, 0 };
		for (size_t k = 0; k < entries; k++) {
			lf_v2 m = { mask[k], mask[k] }, e;
			memcpy(&e, table + k * n + l, 16);
			v |= e & m;
		}
		memcpy(sel + l, &v, 16);
	}
	if (l < n) {
		uint64_t v = 0;
		for (size_t k = 0; k < entries; k++)
			v |= table[k * n + l] & mask[k];
		sel[l] = v;
	}
}

#if defined(__x86_64__)
typedef uint64_t lf_v4 __attribute__((vector_size(32)));

/* limbs 0.. of sel by sixteen, then four; the rest by gather_v2 */
__attribute__((target("avx2")))
static void gather_avx2(uint64_t *sel, const uint64_t *table, size_t entries, size_t n,
                        const uint64_t *mask)
{
	size_t l = 0;
	for (; l + 16 <= n; l += 16) {
		lf_v4 v0 = { 0, 0, 0, 0 }, v1 = v0, v2 = v0, v3 = v0;
		for (size_t k = 0; k < entries; k++) {
			const uint64_t *p = table + k * n + l;
			lf_v4 m = { mask[k], mask[k], mask[k], mask[k] }, e0, e1, e2, e3;
			memcpy(&e0, p, 32);
			memcpy(&e1, p + 4, 32);
			memcpy(&e2, p + 8, 32);
			memcpy(&e3, p + 12, 32);
			v0 |= e0 & m;
			v1 |= e1 & m;
			v2 |= e2 & m;
			v3 |= e3 & m;
		}
		memcpy(sel + l, &v0, 32);
		memcpy(sel + l + 4, &v1, 32);
		memcpy(sel + l + 8, &v2, 32);
		memcpy(sel + l + 12, &v3, 32);
	}
	for (; l + 4 <= n; l += 4) {
		lf_v4 v = { 0, 0, 0, 0 };
		for (size_t k = 0; k < entries; k++) {
			lf_v4 m = { mask[k], mask[k], mask[k], mask[k] }, e;
			memcpy(&e, table + k * n + l, 32);
			v |= e & m;
		}
		memcpy(sel + l, &v, 32);
	}
	gather_v2(sel, table, entries, n, l, mask);
}
#endif

static void gather(uint64_t *sel, const uint64_t *table, size_t entries, size_t n,
                   unsigned idx, int avx2)
{
	uint64_t mask[64];
	gather_masks(mask, entries, idx);
#if defined(__x86_64__)
	if (avx2) {
		gather_avx2(sel, table, entries, n, mask);
		return;
	}
#endif
	(void)avx2;
	gather_v2(sel, table, entries, n, 0, mask);
}

static int mod_pow(uint32_t *result, const uint32_t *base, size_t base_len, const uint32_t *exp,
                   size_t exp_len, const uint32_t *mod, size_t mod_len, int consttime)
{
	/* the modulus without leading zero words (its length is public) */
	size_t skip = 0;
	while (skip < mod_len && mod[skip] == 0)
		skip++;
	if (skip == mod_len || !(mod[mod_len - 1] & 1))
		return LF_EINVAL;
	size_t mw = mod_len - skip, n = (mw + 1) / 2;
	size_t bl = (base_len + 1) / 2;
	/* exponent bits: all exp_len words when constant time, else up to the top set bit */
	size_t ebits = 32 * exp_len;
	if (!consttime)
		while (ebits > 0 && !ebit(exp, exp_len, ebits - 1))
			ebits--;
	unsigned w = consttime ? ct_window_for(ebits) : window_for(ebits, exp, exp_len);
	size_t entries = consttime ? (size_t)1 << w : (size_t)1 << (w - 1);

	uint64_t *mem = malloc((7 * n + bl + entries * n) * 8);
	if (!mem)
		return LF_ENOMEM;
	struct mont m = { .n = n, .N = mem, .Nsh = mem + n, .R2 = mem + 2 * n, .tmp = mem + 3 * n };
	uint64_t *acc = mem + 4 * n, *t2 = mem + 5 * n, *one = mem + 6 * n, *bl_l = mem + 7 * n;
	uint64_t *table = bl_l + bl;
	lf_words_to_limbs(m.N, mod + skip, mw);
	memset(one, 0, n * 8);
	one[0] = 1;
	if (n == 1 && m.N[0] == 1) {                    /* everything is 0 mod 1 */
		memset(acc, 0, n * 8);
		goto out;
	}
	mont_setup(&m);
	lf_words_to_limbs(bl_l, base, base_len);

	uint64_t *b = table;                            /* b = base R mod N */
	if (consttime) {
		b = table + n;
		/* table[0] = R (one in Montgomery form): montmul(R^2, 1) */
		mont_mul(&m, table, m.R2, one);
	}
	to_mont(&m, b, bl_l, bl);
	if (consttime) {
		int avx2 = (lf_cpu_features() & LF_CPU_AVX2) != 0;
		for (size_t k = 2; k < entries; k++)
			mont_mul(&m, table + k * n, table + (k - 1) * n, b);
		/* windows of w bits from the top; the first may be shorter */
		size_t first = ebits % w ? ebits % w : w;
		size_t i = ebits;
		unsigned width = (unsigned)first;
		int started = 0;
		while (i > 0) {
			unsigned idx = ebits_at(exp, exp_len, i - 1, width);
			uint64_t *sel = started ? t2 : acc;
			gather(sel, table, entries, n, idx, avx2);
			if (started)
				mont_mul_swap(&m, &acc, t2);
			started = 1;
			i -= width;
			width = w;
			if (i > 0)
				for (unsigned k = 0; k < w; k++)
					mont_mul_swap(&m, &acc, acc);
		}
		if (!started)                           /* exp_len == 0: b^0 */
			memcpy(acc, table, n * 8);
	} else {
		/* odd powers b, b^3, ..., b^(2^w - 1) */
		if (entries > 1) {
			mont_mul(&m, t2, b, b);
			for (size_t k = 1; k < entries; k++)
				mont_mul(&m, table + k * n, table + (k - 1) * n, t2);
		}
		int started = 0;
		size_t i = ebits;                       /* bits i-1 .. 0 remain */
		while (i > 0) {
			if (!ebit(exp, exp_len, i - 1)) {
				if (started)
					mont_mul_swap(&m, &acc, acc);
				i--;
				continue;
			}
			size_t j = i >= w ? i - w : 0;  /* window bits i-1 .. j, ending on a 1 */
			while (!ebit(exp, exp_len, j))
				j++;
			unsigned width = (unsigned)(i - j), v = ebits_at(exp, exp_len, i - 1, width);
			if (started) {
				for (unsigned k = 0; k < width; k++)
					mont_mul_swap(&m, &acc, acc);
				mont_mul_swap(&m, &acc, table + (v >> 1) * n);
			} else {
				memcpy(acc, table + (v >> 1) * n, n * 8);
				started = 1;
			}
			i = j;
		}
		if (!started)                           /* exp == 0: R, one in Montgomery form */
			mont_mul(&m, acc, m.R2, one);
	}
	/* out of Montgomery form: (acc + M N) / R < N + 1, and montmul subtracts N at N */
	mont_mul(&m, t2, acc, one);
	memcpy(acc, t2, n * 8);
out:
	memset(result, 0, (mod_len - mw) * 4);
	{
		/* the low mw words; limbs beyond them (mw odd: half a limb) are zero */
		lf_limbs_to_words(result + (mod_len - mw), acc, mw);
	}
	/* the secret-dependent values are wiped before the memory goes back */
	volatile uint64_t *vm = mem;
	for (size_t k = 0; k < 7 * n + bl + entries * n; k++)
		vm[k] = 0;
	free(mem);
	return 0;
}

int lf_bi_mod_pow(uint32_t *result, const uint32_t *base, size_t base_len, const uint32_t *exp,
                  size_t exp_len, const uint32_t *mod, size_t mod_len)
{
	return mod_pow(result, base, base_len, exp, exp_len, mod, mod_len, 0);
}

int lf_bi_mod_pow_consttime(uint32_t *result, const uint32_t *base, size_t base_len,
                            const uint32_t *exp, size_t exp_len, const uint32_t *mod,
                            size_t mod_len)
{
	return mod_pow(result, base, base_len, exp, exp_len, mod, mod_len, 1);
}
