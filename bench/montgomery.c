/*
 * montgomery.c -- the Montgomery drivers: mpn_montmul / mpn_montsqr (the kernel, a*b and a*a,
 * times R^-1 mod N, R = 2^(64 n)) and bi_mod_pow / bi_mod_pow_ct (BigInteger.modPow for an
 * odd modulus through the public API, the montmul variant forced by lf_impl_force).
 *
 * Peers, in one process on the same numbers:
 *   montmul/montsqr: OpenSSL BN_mod_mul_montgomery (the same function: OpenSSL's R is
 *     2^(64 top) too, so the outputs are compared), GMP mpn_mul_n/mpn_sqr + mpn_tdiv_qr (a
 *     plain modular product: GMP has no public Montgomery multiplication; a *peer* row, not
 *     compared);
 *   mod_pow: OpenSSL BN_mod_exp_mont (sliding window) and GMP mpz_powm; mod_pow_ct: OpenSSL
 *     BN_mod_exp_mont_consttime and GMP mpz_powm_sec -- each builds its Montgomery context per
 *     call, as ours does.  Exponent and base have the modulus's length (an RSA private-key
 *     operation without CRT).
 * Sizes are limbs of the modulus (8 = 512 bits ... 64 = 4096 bits).  N is random, odd, its
 * top bit set; a, b (base) random below N, exponent random.  --check patterns: ones = N all
 * ones, a = b = N - 1 (base N - 1, exponent all ones); zeros = a (base) zero.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#ifdef BENCH_HAVE_OPENSSL
#include <openssl/bn.h>
#endif

#include "bench.h"

struct bench_mont {
	size_t n;
	uint64_t *np, *bp, n0inv;
	uint32_t *mw, *bw, *ew;        /* mod_pow: modulus, base, exponent as BE-words (2n) */
	mpz_t m, a, b, e, r;
#ifdef BENCH_HAVE_OPENSSL
	BN_CTX *ctx;
	BN_MONT_CTX *mctx;
	BIGNUM *om, *oa, *ob, *oe, *or;
#endif
	mp_limb_t *prod, *quot;        /* GMP peer scratch */
};

static uint64_t neg_inv64(uint64_t n0)
{
	uint64_t x = (3 * n0) ^ 2;
	for (int i = 0; i < 4; i++)
		x *= 2 - n0 * x;
	return (uint64_t)0 - x;
}

static void limbs_to_words(uint32_t *w, const uint64_t *l, size_t n)
{
	for (size_t i = 0; i < 2 * n; i++)
		w[2 * n - 1 - i] = (uint32_t)(l[i / 2] >> (32 * (i & 1)));
}

/* the peers' copies of the operands (after alloc and after every fill) */
static void mont_sync(struct bench_buf *b)
{
	struct bench_mont *m = b->mont;
	size_t n = m->n;
	limbs_to_words(m->mw, m->np, n);
	limbs_to_words(m->bw, b->ap, n);
	mpz_import(m->m, n, -1, 8, 0, 0, m->np);
	mpz_import(m->a, n, -1, 8, 0, 0, b->ap);
	mpz_import(m->b, n, -1, 8, 0, 0, m->bp);
	mpz_import(m->e, 2 * n, 1, 4, 0, 0, m->ew);
	m->n0inv = n ? neg_inv64(m->np[0]) : 0;
#ifdef BENCH_HAVE_OPENSSL
	if (n) {
		BN_lebin2bn((const unsigned char *)m->np, (int)(8 * n), m->om);
		BN_lebin2bn((const unsigned char *)b->ap, (int)(8 * n), m->oa);
		BN_lebin2bn((const unsigned char *)m->bp, (int)(8 * n), m->ob);
		unsigned char *eb = malloc(8 * n);
		for (size_t i = 0; i < 2 * n; i++)
			for (int k = 0; k < 4; k++)
				eb[4 * i + k] = (unsigned char)(m->ew[i] >> (24 - 8 * k));
		BN_bin2bn(eb, (int)(8 * n), m->oe);
		free(eb);
		BN_MONT_CTX_set(m->mctx, m->om, m->ctx);
	}
#endif
}

static struct bench_buf *mont_alloc(size_t n, uint64_t seed)
{
	struct bench_buf *b = bench_buf_alloc(n, seed, n, 2 * n);
	struct bench_mont *m = calloc(1, sizeof *m);
	if (!m)
		exit(2);
	b->mont = m;
	m->n = n;
	m->np = bench_alloc64(n * 8);
	m->bp = bench_alloc64(n * 8);
	m->mw = bench_alloc64(n * 8);
	m->bw = bench_alloc64(n * 8);
	m->ew = bench_alloc64(n * 8);
	m->prod = bench_alloc64(2 * n * 8);
	m->quot = bench_alloc64((n + 1) * 8);
	seed ^= 0x6d6f6e74;
	for (size_t i = 0; i < n; i++) {
		m->np[i] = bench_splitmix64(&seed);
		m->bp[i] = bench_splitmix64(&seed);
		m->ew[2 * i] = (uint32_t)bench_splitmix64(&seed);
		m->ew[2 * i + 1] = (uint32_t)bench_splitmix64(&seed);
	}
	if (n) {
		m->np[0] |= 1;
		m->np[n - 1] |= UINT64_C(1) << 63;
		b->ap[n - 1] &= ~(UINT64_C(1) << 63);      /* a, b < N */
		m->bp[n - 1] &= ~(UINT64_C(1) << 63);
	}
	mpz_inits(m->m, m->a, m->b, m->e, m->r, NULL);
#ifdef BENCH_HAVE_OPENSSL
	m->ctx = BN_CTX_new();
	m->mctx = BN_MONT_CTX_new();
	m->om = BN_new(), m->oa = BN_new(), m->ob = BN_new(), m->oe = BN_new(), m->or = BN_new();
#endif
	mont_sync(b);
	return b;
}

void bench_mont_free(struct bench_mont *m)
{
	if (!m)
		return;
	free(m->np), free(m->bp), free(m->mw), free(m->bw), free(m->ew), free(m->prod);
	free(m->quot);
	mpz_clears(m->m, m->a, m->b, m->e, m->r, NULL);
#ifdef BENCH_HAVE_OPENSSL
	BN_free(m->om), BN_free(m->oa), BN_free(m->ob), BN_free(m->oe), BN_free(m->or);
	BN_MONT_CTX_free(m->mctx);
	BN_CTX_free(m->ctx);
#endif
	free(m);
}

void bench_mont_fill(struct bench_buf *b, int pattern)
{
	struct bench_mont *m = b->mont;
	size_t n = m->n;
	if (pattern == BP_ONES || pattern == BP_ZEROS) {
		memset(m->np, 0xff, n * 8);
		memset(m->ew, 0xff, n * 8);
		memset(b->ap, pattern == BP_ONES ? 0xff : 0, n * 8);
		memset(m->bp, 0xff, n * 8);
		if (n) {
			b->ap[0] &= pattern == BP_ONES ? ~UINT64_C(1) : 0;   /* N - 1 */
			m->bp[0] &= ~UINT64_C(1);
		}
	}
	mont_sync(b);
	bench_buf_reset(b);
}

/* ---- montmul / montsqr ---------------------------------------------------------------- */

static uint64_t montmul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_mpn_montmul_fn f = (lf_mpn_montmul_fn)fn;
	struct bench_mont *m = b->mont;
	for (size_t i = 0; i < reps; i++)
		f(b->rp, b->ap, m->bp, m->np, m->n0inv, m->n);
	return b->n ? b->rp[0] : 0;
}

static uint64_t montsqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_mpn_montmul_fn f = (lf_mpn_montmul_fn)fn;
	struct bench_mont *m = b->mont;
	for (size_t i = 0; i < reps; i++)
		f(b->rp, b->ap, b->ap, m->np, m->n0inv, m->n);
	return b->n ? b->rp[0] : 0;
}

/* GMP peer: the plain modular product a b mod N (mpn_mul_n or mpn_sqr, then mpn_tdiv_qr) */
static uint64_t gmp_mulmod(struct bench_buf *b, size_t reps, int sqr)
{
	struct bench_mont *m = b->mont;
	mp_size_t n = (mp_size_t)m->n;
	for (size_t i = 0; i < reps; i++) {
		if (sqr)
			mpn_sqr(m->prod, b->ap, n);
		else
			mpn_mul_n(m->prod, b->ap, m->bp, n);
		mpn_tdiv_qr(m->quot, b->rp, 0, m->prod, 2 * n, m->np, n);
	}
	return 0;
}

static uint64_t gmp_mulmod_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_mulmod(b, reps, 0);
}

static uint64_t gmp_sqrmod_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_mulmod(b, reps, 1);
}

#ifdef BENCH_HAVE_OPENSSL
static uint64_t openssl_mont(struct bench_buf *b, size_t reps, int sqr)
{
	struct bench_mont *m = b->mont;
	for (size_t i = 0; i < reps; i++)
		BN_mod_mul_montgomery(m->or, m->oa, sqr ? m->oa : m->ob, m->mctx, m->ctx);
	BN_bn2lebinpad(m->or, (unsigned char *)b->rp, (int)(8 * m->n));
	return b->n ? b->rp[0] : 0;
}

static uint64_t openssl_montmul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_mont(b, reps, 0);
}

static uint64_t openssl_montsqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_mont(b, reps, 1);
}
#endif

/* --check oracle (GMP): rp < N and rp R = a b (mod N) */
static const char *mont_verify(const struct bench_buf *b, int sqr)
{
	struct bench_mont *m = b->mont;
	size_t n = m->n;
	if (n == 0)
		return NULL;
	mpz_t r, t;
	mpz_inits(r, t, NULL);
	mpz_import(r, n, -1, 8, 0, 0, b->rp);
	int bad = mpz_cmp(r, m->m) >= 0;
	mpz_mul_2exp(r, r, 64 * n);
	mpz_mul(t, m->a, sqr ? m->a : m->b);
	mpz_sub(t, t, r);
	bad |= !mpz_divisible_p(t, m->m);
	mpz_clears(r, t, NULL);
	return bad ? "differs from GMP: rp R != a b mod N, or rp >= N" : NULL;
}

static const char *montmul_verify(const struct bench_buf *b)
{
	return mont_verify(b, 0);
}

static const char *montsqr_verify(const struct bench_buf *b)
{
	return mont_verify(b, 1);
}

/* ---- mod_pow ------------------------------------------------------------------------------ */

static uint64_t modpow(struct bench_buf *b, size_t reps, int ct)
{
	struct bench_mont *m = b->mont;
	size_t w = 2 * m->n;
	int rc = 0;
	for (size_t i = 0; i < reps; i++)
		rc |= (ct ? lf_bi_mod_pow_consttime : lf_bi_mod_pow)(b->out, m->bw, w, m->ew, w,
		                                                      m->mw, w);
	return (uint64_t)rc;
}

static uint64_t modpow_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return modpow(b, reps, 0);
}

static uint64_t modpow_ct_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return modpow(b, reps, 1);
}

static void mpz_to_out(struct bench_buf *b, const mpz_t r)
{
	size_t w = 2 * b->mont->n, cnt = 0;
	memset(b->out, 0, w * 4);
	uint32_t *tmp = calloc(w + 1, 4);
	mpz_export(tmp, &cnt, 1, 4, 0, 0, r);
	memcpy(b->out + (w - cnt), tmp, cnt * 4);
	free(tmp);
}

static uint64_t gmp_powm(struct bench_buf *b, size_t reps, int sec)
{
	struct bench_mont *m = b->mont;
	for (size_t i = 0; i < reps; i++)
		(sec ? mpz_powm_sec : mpz_powm)(m->r, m->a, m->e, m->m);
	mpz_to_out(b, m->r);
	return 0;
}

static uint64_t gmp_powm_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_powm(b, reps, 0);
}

static uint64_t gmp_powm_sec_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_powm(b, reps, 1);
}

#ifdef BENCH_HAVE_OPENSSL
static uint64_t openssl_exp(struct bench_buf *b, size_t reps, int ct)
{
	struct bench_mont *m = b->mont;
	for (size_t i = 0; i < reps; i++) {
		if (ct)
			BN_mod_exp_mont_consttime(m->or, m->oa, m->oe, m->om, m->ctx, NULL);
		else
			BN_mod_exp_mont(m->or, m->oa, m->oe, m->om, m->ctx, NULL);
	}
	size_t w = 2 * m->n;
	unsigned char *bytes = malloc(4 * w);
	BN_bn2binpad(m->or, bytes, (int)(4 * w));
	for (size_t i = 0; i < w; i++)
		b->out[i] = (uint32_t)bytes[4 * i] << 24 | (uint32_t)bytes[4 * i + 1] << 16 |
		            (uint32_t)bytes[4 * i + 2] << 8 | bytes[4 * i + 3];
	free(bytes);
	return 0;
}

static uint64_t openssl_exp_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_exp(b, reps, 0);
}

static uint64_t openssl_exp_ct_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_exp(b, reps, 1);
}
#endif

/* --check oracle: GMP mpz_powm */
static const char *modpow_verify(const struct bench_buf *b)
{
	struct bench_mont *m = b->mont;
	if (m->n == 0)
		return NULL;
	mpz_t r, x;
	mpz_inits(r, x, NULL);
	mpz_powm(r, m->a, m->e, m->m);
	mpz_import(x, 2 * m->n, 1, 4, 0, 0, b->out);
	int bad = mpz_cmp(r, x) != 0;
	mpz_clears(r, x, NULL);
	return bad ? "differs from GMP mpz_powm" : NULL;
}

/* ---- the drivers (listed in kernels.c's bench_drivers through these) --------------------- */

const size_t bench_mont_sizes[] = { 8, 16, 32, 48, 64, 96, 128, 0 };
const size_t bench_modpow_sizes[] = { 16, 32, 48, 64, 0 };
/* --check: a full exponentiation per case, so fewer and smaller sizes than the kernels' */
const size_t bench_modpow_check_sizes[] = { 0, 1, 2, 3, 5, 8, 15, 16, 17, 32, 0 };

#ifdef BENCH_HAVE_OPENSSL
#define OSSL(fn) \
	{ .name = "openssl", .column = "OpenSSL", .key = "openssl", .kind = BK_PEER, .batch = fn }
#else
#define OSSL(fn) { .name = NULL }
#endif

const struct bench_driver bench_mont_drivers[4] = {
	{ .name = "mpn_montmul", .kernel = "mpn_montmul", .unit = "limb",
	  .title = "a b R^-1 mod N, R = 2^(64 n), a, b < N; peers: OpenSSL BN_mod_mul_montgomery, "
	           "GMP mpn_mul_n + mpn_tdiv_qr (a b mod N: a peer row)",
	  .peer_note = "GMP peer: mpn_mul_n + mpn_tdiv_qr, the plain modular product (GMP has no "
	               "public Montgomery multiplication)",
	  .sizes = bench_mont_sizes, .variant_batch = montmul_batch,
	  .peers = { { .name = "gmp~mulmod", .column = "GMP", .key = "gmp", .kind = BK_GMP_PEER,
	               .batch = gmp_mulmod_batch }, OSSL(openssl_montmul_batch) },
	  .alloc = mont_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp,
	  .verify = montmul_verify },
	{ .name = "mpn_montsqr", .kernel = "mpn_montmul", .unit = "limb",
	  .title = "a a R^-1 mod N through mpn_montmul (ap == bp); peers: OpenSSL "
	           "BN_mod_mul_montgomery(a, a), GMP mpn_sqr + mpn_tdiv_qr (a peer row)",
	  .peer_note = "GMP peer: mpn_sqr + mpn_tdiv_qr, the plain modular square",
	  .sizes = bench_mont_sizes, .variant_batch = montsqr_batch,
	  .peers = { { .name = "gmp~sqrmod", .column = "GMP", .key = "gmp", .kind = BK_GMP_PEER,
	               .batch = gmp_sqrmod_batch }, OSSL(openssl_montsqr_batch) },
	  .alloc = mont_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp,
	  .verify = montsqr_verify },
	{ .name = "bi_mod_pow", .kernel = "mpn_montmul", .unit = "limb",
	  .title = "lf_bi_mod_pow (sliding window), modulus/base/exponent of n limbs, the "
	           "mpn_montmul variant forced; peers: OpenSSL BN_mod_exp_mont, GMP mpz_powm",
	  .sizes = bench_modpow_sizes, .check_sizes = bench_modpow_check_sizes,
	  .variant_batch = modpow_batch,
	  .peers = { { .name = "gmp", .column = "GMP", .key = "gmp", .kind = BK_GMP,
	               .batch = gmp_powm_batch }, OSSL(openssl_exp_batch) },
	  .alloc = mont_alloc, .reset = bench_buf_reset, .same_output = bench_same_out,
	  .select = bench_force_select, .verify = modpow_verify },
	{ .name = "bi_mod_pow_ct", .kernel = "mpn_montmul", .unit = "limb",
	  .title = "lf_bi_mod_pow_consttime (fixed window, masked table reads), n limbs; peers: "
	           "OpenSSL BN_mod_exp_mont_consttime, GMP mpz_powm_sec",
	  .sizes = bench_modpow_sizes, .check_sizes = bench_modpow_check_sizes,
	  .variant_batch = modpow_ct_batch,
	  .peers = { { .name = "gmp", .column = "GMP", .key = "gmp", .kind = BK_GMP,
	               .batch = gmp_powm_sec_batch }, OSSL(openssl_exp_ct_batch) },
	  .alloc = mont_alloc, .reset = bench_buf_reset, .same_output = bench_same_out,
	  .select = bench_force_select, .verify = modpow_verify },
};
