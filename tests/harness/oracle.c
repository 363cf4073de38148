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

void or_mul(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn)
{
	if (an < bn) {
		const uint64_t *t = ap;
		size_t tn = an;
		ap = bp, an = bn, bp = t, bn = tn;
	}
	if (bn == 0) {
		if (an)
			memset(rp, 0, an * sizeof *rp);
		return;
	}
	mpn_mul((mp_limb_t *)rp, (const mp_limb_t *)ap, (mp_size_t)an, (const mp_limb_t *)bp,
	        (mp_size_t)bn);
}

void or_multiply_to_len(const uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen,
                        uint32_t *z)
{
	mpz_t a, b;
	if (xlen + ylen == 0)
		return;
	mpz_inits(a, b, NULL);
	import_be(a, x, xlen);
	import_be(b, y, ylen);
	mpz_mul(a, a, b);
	export_be(z, xlen + ylen, a);
	mpz_clears(a, b, NULL);
}

/* limbs <-> mpz (little-endian limb order) */
static void import_le(mpz_t z, const uint64_t *p, size_t n)
{
	if (n == 0)
		mpz_set_ui(z, 0);
	else
		mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, p);
}

static void export_le(uint64_t *p, size_t n, const mpz_t z)
{
	size_t cnt = 0;
	size_t need = (mpz_sizeinbase(z, 2) + 63) / 64;
	uint64_t *tmp = xmalloc((need + 1) * sizeof *tmp);
	mpz_export(tmp, &cnt, -1, sizeof(uint64_t), 0, 0, z);
	memset(p, 0, n * sizeof *p);
	for (size_t i = 0; i < cnt && i < n; i++)
		p[i] = tmp[i];
	free(tmp);
}

uint64_t or_neg_inv64(uint64_t n0)
{
	mpz_t x, m;
	uint64_t r;
	mpz_inits(x, m, NULL);
	mpz_set_ui(x, n0);
	mpz_setbit(m, 64);
	ck_assert_msg(mpz_invert(x, x, m) != 0, "oracle: n0 = %#llx is even",
	              (unsigned long long)n0);
	mpz_sub(x, m, x);                        /* -n0^-1 mod 2^64 */
	mpz_tdiv_r_2exp(x, x, 64);
	r = (uint64_t)mpz_get_ui(x);
	mpz_clears(x, m, NULL);
	return r;
}

int or_cmp(const uint64_t *a, const uint64_t *b, size_t n)
{
	if (n == 0)
		return 0;
	return mpn_cmp((const mp_limb_t *)a, (const mp_limb_t *)b, (mp_size_t)n);
}

void or_mod(uint64_t *rp, const uint64_t *ap, const uint64_t *np, size_t n)
{
	mpz_t a, N;
	mpz_inits(a, N, NULL);
	import_le(a, ap, n);
	import_le(N, np, n);
	mpz_mod(a, a, N);
	export_le(rp, n, a);
	mpz_clears(a, N, NULL);
}

void or_montmul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp, const uint64_t *np,
                size_t n, struct or_mont_info *info)
{
	mpz_t a, b, N, R, x, t, m, u;
	if (n == 0)
		return;
	mpz_inits(a, b, N, R, x, t, m, u, NULL);
	import_le(a, ap, n);
	import_le(b, bp, n);
	import_le(N, np, n);
	ck_assert_msg(mpz_odd_p(N), "oracle: even modulus");
	mpz_setbit(R, 64 * n);
	/* the answer: a b R^-1 mod N */
	mpz_mul(x, a, b);
	mpz_mod(x, x, N);
	if (mpz_cmp_ui(N, 1) == 0) {
		mpz_set_ui(x, 0);
	} else {
		ck_assert_msg(mpz_invert(t, R, N) != 0, "oracle: R not invertible mod N");
		mpz_mul(x, x, t);
		mpz_mod(x, x, N);
	}
	export_le(rp, n, x);
	if (info) {
		uint64_t n0inv = or_neg_inv64(np[0]);
		/* fully reduced unless both are >= N: with one below N, a b + M N < 2 N R */
		info->reduced = mpz_cmp(a, N) < 0 || mpz_cmp(b, N) < 0;
		info->top1 = info->carry2 = 0;
		info->on_n = 0;
		/* CIOS on values, digit by digit */
		mpz_set_ui(t, 0);
		for (size_t i = 0; i < n; i++) {
			mpz_addmul_ui(t, a, bp[i]);
			mpz_tdiv_q_2exp(u, t, 64 * n);
			if (mpz_sizeinbase(u, 2) > 64)
				info->carry2++;
			if (info->hi)
				info->hi[i] = mpz_sizeinbase(u, 2) > 64 ? UINT64_MAX : mpz_get_ui(u);
			mpz_tdiv_r_2exp(m, t, 64);
			mpz_mul_ui(m, m, n0inv);
			mpz_tdiv_r_2exp(m, m, 64);
			mpz_addmul(t, m, N);
			ck_assert_msg(mpz_scan1(t, 0) >= 64 || mpz_sgn(t) == 0,
			              "oracle: t + m N not divisible by 2^64");
			mpz_tdiv_q_2exp(t, t, 64);
			mpz_tdiv_q_2exp(u, t, 64 * n);
			if (mpz_sgn(u) != 0)
				info->top1++;
		}
		/* the same unreduced value without digits: U = (a b + M N) / R,
		 * M = a b (-N^-1) mod R */
		mpz_mul(x, a, b);
		mpz_neg(m, N);
		ck_assert_msg(mpz_invert(m, m, R) != 0, "oracle: N not invertible mod R");
		mpz_mul(m, m, x);
		mpz_tdiv_r_2exp(m, m, 64 * n);
		mpz_addmul(x, m, N);
		ck_assert_msg(mpz_scan1(x, 0) >= 64 * n || mpz_sgn(x) == 0,
		              "oracle: a b + M N not divisible by R");
		mpz_tdiv_q_2exp(x, x, 64 * n);
		ck_assert_msg(mpz_cmp(x, t) == 0, "oracle: digit-serial and direct REDC disagree");
		info->subtract = mpz_cmp(t, N) >= 0;
		info->on_n = mpz_cmp(t, N) == 0;
	}
	mpz_clears(a, b, N, R, x, t, m, u, NULL);
}

void or_mod_pow(uint32_t *result, const uint32_t *base, size_t base_len, const uint32_t *exp,
                size_t exp_len, const uint32_t *mod, size_t mod_len)
{
	mpz_t b, e, m;
	mpz_inits(b, e, m, NULL);
	import_be(b, base, base_len);
	import_be(e, exp, exp_len);
	import_be(m, mod, mod_len);
	ck_assert_msg(mpz_odd_p(m), "oracle: mod_pow needs an odd modulus");
	mpz_powm(b, b, e, m);
	export_be(result, mod_len, b);
	mpz_clears(b, e, m, NULL);
}

void or_bi_montmul(uint32_t *product, const uint32_t *a, const uint32_t *b, const uint32_t *n,
                   size_t len)
{
	mpz_t x, y, N, R;
	mpz_inits(x, y, N, R, NULL);
	import_be(x, a, len);
	import_be(y, b, len);
	import_be(N, n, len);
	ck_assert_msg(mpz_odd_p(N), "oracle: even modulus");
	mpz_setbit(R, 32 * len);
	mpz_mul(x, x, y);
	if (mpz_cmp_ui(N, 1) == 0) {
		mpz_set_ui(x, 0);
	} else {
		ck_assert_msg(mpz_invert(y, R, N) != 0, "oracle: R not invertible mod n");
		mpz_mod(x, x, N);
		mpz_mul(x, x, y);
		mpz_mod(x, x, N);
	}
	export_be(product, len, x);
	mpz_clears(x, y, N, R, NULL);
}

size_t or_mont_solve_b(uint64_t *bp, const uint64_t *ap, const uint64_t *np, size_t n,
                       const uint64_t *target)
{
	mpz_t a, N, R, t, q, m;
	uint64_t n0inv = or_neg_inv64(np[0]);
	mpz_inits(a, N, R, t, q, m, NULL);
	import_le(a, ap, n);
	import_le(N, np, n);
	mpz_setbit(R, 64 * n);
	ck_assert_msg(mpz_sgn(a) > 0, "solver: a = 0 reaches no carry");
	for (size_t i = 0; i < n; i++) {
		uint64_t bi;
		if (target[i] == CT_MAX) {
			bi = UINT64_MAX;
		} else {
			/* target T: T R <= t + a b_i < (T + 1) R; the smallest b_i for T >= 1, the
			 * largest for T = 0 */
			if (target[i] == 0) {
				mpz_sub(q, R, t);
				mpz_sub_ui(q, q, 1);
				if (mpz_sgn(q) < 0)
					mpz_set_ui(q, 0);
				mpz_fdiv_q(q, q, a);
			} else {
				mpz_mul_ui(q, R, target[i]);
				mpz_sub(q, q, t);
				if (mpz_sgn(q) < 0)
					mpz_set_ui(q, 0);
				mpz_cdiv_q(q, q, a);
			}
			bi = mpz_sizeinbase(q, 2) > 64 ? UINT64_MAX : (uint64_t)mpz_get_ui(q);
		}
		bp[i] = bi;
		mpz_addmul_ui(t, a, bi);
		mpz_tdiv_r_2exp(m, t, 64);
		mpz_mul_ui(m, m, n0inv);
		mpz_tdiv_r_2exp(m, m, 64);
		mpz_addmul(t, m, N);
		mpz_tdiv_q_2exp(t, t, 64);
	}
	mpz_clears(a, N, R, t, q, m, NULL);
	/* count the hits from the trace of the oracle, not from the loop above */
	uint64_t *hi = xmalloc(n * 8), *r = xmalloc(n * 8);
	struct or_mont_info info = { 0, 0, 0, 0, 0, hi };
	size_t hits = 0;
	or_montmul(r, ap, bp, np, n, &info);
	for (size_t i = 0; i < n; i++)
		hits += target[i] == CT_MAX ? bp[i] == UINT64_MAX : hi[i] == target[i];
	free(hi);
	free(r);
	return hits;
}

/* ---- P-256 field (mpz; p from its hex digits, not from limbforge's constants) ------------- */
static void p256_mpz(mpz_t p)
{
	mpz_set_str(p, "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16);
}

void or_p256_prime(uint64_t p[4])
{
	mpz_t z;
	mpz_init(z);
	p256_mpz(z);
	export_le(p, 4, z);
	mpz_clear(z);
}

void or_p256_mont(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                  struct or_p256_info *info)
{
	mpz_t p, R, x, y, t, m;
	mpz_inits(p, R, x, y, t, m, NULL);
	p256_mpz(p);
	mpz_setbit(R, 256);
	import_le(x, a, 4);
	import_le(y, b, 4);
	if (info) {
		info->reduced = mpz_cmp(x, p) < 0 && mpz_cmp(y, p) < 0;
		/* the unreduced Montgomery value U = (a b + M p) / R, M = -a b p^-1 mod R: the
		 * final subtraction is due when U >= p */
		mpz_mul(t, x, y);
		ck_assert(mpz_invert(m, p, R) != 0);
		mpz_neg(m, m);
		mpz_mul(m, m, t);
		mpz_fdiv_r_2exp(m, m, 256);
		mpz_addmul(t, m, p);
		ck_assert(mpz_divisible_2exp_p(t, 256));
		mpz_fdiv_q_2exp(t, t, 256);
		info->subtract = mpz_cmp(t, p) >= 0;
	}
	mpz_mul(x, x, y);
	ck_assert(mpz_invert(t, R, p) != 0);
	mpz_mul(x, x, t);
	mpz_mod(x, x, p);
	export_le(r, 4, x);
	mpz_clears(p, R, x, y, t, m, NULL);
}

void or_p256_mod(uint64_t r[4], const uint64_t a[4])
{
	mpz_t p, x;
	mpz_inits(p, x, NULL);
	p256_mpz(p);
	import_le(x, a, 4);
	mpz_mod(x, x, p);
	export_le(r, 4, x);
	mpz_clears(p, x, NULL);
}

/* 2^(256 e) mod p: e = 1 is R mod p ("oneMont"), e = 2 is R^2 mod p */
void or_p256_rpow(uint64_t r[4], unsigned e)
{
	mpz_t p, x;
	mpz_inits(p, x, NULL);
	p256_mpz(p);
	mpz_setbit(x, 256 * e);
	mpz_mod(x, x, p);
	export_le(r, 4, x);
	mpz_clears(p, x, NULL);
}
