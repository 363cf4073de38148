/*
 * p256.c -- the P-256 field drivers: p256_mul_mont (x = x * b * 2^-256 mod p, chained: each
 * call's output is the next call's a, as the JDK's PolynomialP256Bench.benchMultiply chains
 * setProduct) and p256_sqr_mont (x = x^2 * 2^-256 mod p, chained, benchSquare), 4 x 64-bit
 * limbs, OpenSSL ecp_nistz256 layout.  Chaining measures the latency of one multiplication,
 * which is what point arithmetic pays.
 *
 * Peers, in one process on the same numbers:
 *   OpenSSL BN_mod_mul_montgomery on a BN_MONT_CTX for p: a BN-level peer (generic
 *     Montgomery code behind the BIGNUM API); OpenSSL's R is 2^256 for p too, so its output
 *     is compared;
 *   OpenSSL ecp_nistz256_mul_mont / ecp_nistz256_sqr_mont (x86-64, where bench.mk finds
 *     them in the static libcrypto.a: libcrypto.so does not export them; bench/ossl_field.c):
 *     the field functions of OpenSSL's P-256, the same operation, output compared;
 *   GMP mpn_mul_n / mpn_sqr + mpn_tdiv_qr by p: the plain modular product (GMP has no public
 *     Montgomery multiplication; a peer row, not compared).
 * Size: 4 limbs (the only one); --check also runs size 0 (nothing called).  Operands random
 * below p; --check patterns: ones = a = b = p - 1 (limbs all ones where still < p), zeros =
 * a zero.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#ifdef BENCH_HAVE_OPENSSL
#include <openssl/bn.h>
#endif

#include "bench.h"

static const uint64_t P256[4] = {
	UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000ffffffff),
	UINT64_C(0x0000000000000000), UINT64_C(0xffffffff00000001),
};

struct bench_p256 {
	mp_limb_t prod[8], quot[5];
	int m52;                       /* the 5 x 52-bit drivers (p256_mont_*): n = 5 or 40 */
	size_t elems;                  /* peers: products per call (8 for p256_mont_mult_x8) */
	mpz_t p, a, b;
#ifdef BENCH_HAVE_OPENSSL
	BN_CTX *ctx;
	BN_MONT_CTX *mctx;
	BIGNUM *op, *ox, *oa, *ob;
#endif
};

/* x < p: clear what makes it >= p (the top limb's low bit pattern is enough: p's top limb is
 * 0xffffffff00000001, so a top limb below it keeps x < p) */
static void below_p(uint64_t *x)
{
	if (x[3] >= P256[3])
		x[3] = P256[3] - 1;
}

static void p256_sync(struct bench_buf *b)
{
	struct bench_p256 *q = b->p256;
	if (b->n != 4 && !q->m52)
		return;
	mpz_import(q->a, 4, -1, 8, 0, 0, b->ap);
	mpz_import(q->b, 4, -1, 8, 0, 0, b->bp);
#ifdef BENCH_HAVE_OPENSSL
	BN_lebin2bn((const unsigned char *)b->bp, 32, q->ob);
#endif
}

static struct bench_buf *p256_alloc(size_t n, uint64_t seed)
{
	struct bench_buf *b = bench_buf_alloc(n, seed, n, 1);
	struct bench_p256 *q = calloc(1, sizeof *q);
	if (!q)
		exit(2);
	b->p256 = q;
	q->elems = 1;
	if (n == 4) {
		below_p(b->ap);
		below_p(b->bp);
	}
	mpz_inits(q->p, q->a, q->b, NULL);
	mpz_import(q->p, 4, -1, 8, 0, 0, P256);
#ifdef BENCH_HAVE_OPENSSL
	q->ctx = BN_CTX_new();
	q->mctx = BN_MONT_CTX_new();
	q->op = BN_new(), q->ox = BN_new(), q->oa = BN_new(), q->ob = BN_new();
	BN_lebin2bn((const unsigned char *)P256, 32, q->op);
	BN_MONT_CTX_set(q->mctx, q->op, q->ctx);
#endif
	p256_sync(b);
	return b;
}

void bench_p256_free(struct bench_p256 *q)
{
	if (!q)
		return;
	mpz_clears(q->p, q->a, q->b, NULL);
#ifdef BENCH_HAVE_OPENSSL
	BN_free(q->op), BN_free(q->ox), BN_free(q->oa), BN_free(q->ob);
	BN_MONT_CTX_free(q->mctx);
	BN_CTX_free(q->ctx);
#endif
	free(q);
}

static void p256m_fill(struct bench_buf *b, int pattern);

void bench_p256_fill(struct bench_buf *b, int pattern)
{
	if (b->p256->m52) {
		p256m_fill(b, pattern);
		return;
	}
	if (b->n == 4 && (pattern == BP_ONES || pattern == BP_ZEROS)) {
		uint64_t pm1[4] = { P256[0] - 1, P256[1], P256[2], P256[3] };
		memcpy(b->ap, pattern == BP_ONES ? pm1 : (uint64_t[4]){ 0, 0, 0, 0 }, 32);
		memcpy(b->bp, pm1, 32);
	}
	p256_sync(b);
	memcpy(b->rp, b->rp0, b->rp_len * 8);
}

/* chained: x = a, then x = x b R^-1 (or x^2 R^-1) `reps` times, x in rp (latency);
 * independent: rp = a b R^-1 (a^2 R^-1) `reps` times on the same operands (throughput, as the
 * other drivers of the harness).  Either way one call leaves a b R^-1 (a^2 R^-1) in rp. */
static uint64_t mul_batch_(struct bench_buf *b, lf_fnptr fn, size_t reps, int chain)
{
	lf_p256_mul_mont_fn f = (lf_p256_mul_mont_fn)fn;
	if (b->n != 4)
		return 0;
	const uint64_t *a = b->ap;
	if (chain) {
		memcpy(b->rp, b->ap, 32);
		a = b->rp;
	}
	for (size_t i = 0; i < reps; i++)
		f(b->rp, a, b->bp);
	return b->rp[0];
}

static uint64_t sqr_batch_(struct bench_buf *b, lf_fnptr fn, size_t reps, int chain)
{
	lf_p256_sqr_mont_fn f = (lf_p256_sqr_mont_fn)fn;
	if (b->n != 4)
		return 0;
	const uint64_t *a = b->ap;
	if (chain) {
		memcpy(b->rp, b->ap, 32);
		a = b->rp;
	}
	for (size_t i = 0; i < reps; i++)
		f(b->rp, a);
	return b->rp[0];
}

static uint64_t mul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return mul_batch_(b, fn, reps, 0);
}

static uint64_t sqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return sqr_batch_(b, fn, reps, 0);
}

static uint64_t mul_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return mul_batch_(b, fn, reps, 1);
}

static uint64_t sqr_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return sqr_batch_(b, fn, reps, 1);
}

static uint64_t gmp_mulmod(struct bench_buf *b, size_t reps, int sqr, int chain)
{
	struct bench_p256 *q = b->p256;
	if (b->n != 4 && !q->m52)
		return 0;
	reps *= q->elems;
	const uint64_t *a = b->ap;
	if (chain) {
		memcpy(b->rp, b->ap, 32);
		a = b->rp;
	}
	for (size_t i = 0; i < reps; i++) {
		if (sqr)
			mpn_sqr(q->prod, a, 4);
		else
			mpn_mul_n(q->prod, a, b->bp, 4);
		mpn_tdiv_qr(q->quot, b->rp, 0, q->prod, 8, P256, 4);
	}
	return 0;
}

static uint64_t gmp_mulmod_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_mulmod(b, reps, 0, 0);
}

static uint64_t gmp_sqrmod_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_mulmod(b, reps, 1, 0);
}

static uint64_t gmp_mulmod_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_mulmod(b, reps, 0, 1);
}

static uint64_t gmp_sqrmod_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return gmp_mulmod(b, reps, 1, 1);
}

#ifdef BENCH_HAVE_OPENSSL
static uint64_t openssl_mont(struct bench_buf *b, size_t reps, int sqr, int chain)
{
	struct bench_p256 *q = b->p256;
	if (b->n != 4 && !q->m52)
		return 0;
	reps *= q->elems;
	BN_lebin2bn((const unsigned char *)b->ap, 32, q->oa);
	BIGNUM *x = chain ? q->oa : q->ox;
	for (size_t i = 0; i < reps; i++)
		BN_mod_mul_montgomery(x, q->oa, sqr ? q->oa : q->ob, q->mctx, q->ctx);
	BN_bn2lebinpad(x, (unsigned char *)b->rp, 32);
	return b->rp[0];
}

static uint64_t openssl_mul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_mont(b, reps, 0, 0);
}

static uint64_t openssl_sqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_mont(b, reps, 1, 0);
}

static uint64_t openssl_mul_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_mont(b, reps, 0, 1);
}

static uint64_t openssl_sqr_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return openssl_mont(b, reps, 1, 1);
}
#endif

/* --check oracle (GMP): rp < p and rp R = a b (mod p), for one call */
static const char *p256_verify_(const struct bench_buf *b, int sqr)
{
	struct bench_p256 *q = b->p256;
	if (b->n != 4)
		return NULL;
	mpz_t r, t;
	mpz_inits(r, t, NULL);
	mpz_import(r, 4, -1, 8, 0, 0, b->rp);
	int bad = mpz_cmp(r, q->p) >= 0;
	mpz_mul_2exp(r, r, 256);
	mpz_mul(t, q->a, sqr ? q->a : q->b);
	mpz_sub(t, t, r);
	bad |= !mpz_divisible_p(t, q->p);
	mpz_clears(r, t, NULL);
	return bad ? "differs from GMP: rp R != a b mod p, or rp >= p" : NULL;
}

static const char *mul_verify(const struct bench_buf *b)
{
	return p256_verify_(b, 0);
}

static const char *sqr_verify(const struct bench_buf *b)
{
	return p256_verify_(b, 1);
}

static const size_t p256_sizes[] = { 4, 0 };
static const size_t p256_check_sizes[] = { 0, 4, 0 };

#ifdef BENCH_HAVE_OPENSSL
#define OSSL(fn) \
	{ .name = "openssl~bn", .column = "OpenSSL", .key = "openssl", .kind = BK_PEER, .batch = fn }
#else
#define OSSL(fn) { .name = NULL }
#endif

#ifdef BENCH_HAVE_OSSL_FIELD
/* OpenSSL's ecp_nistz256 field functions (bench/ossl_field.c), called as our variants are */
#define NISTZ_WRAP(name, batch, fn)                                                    \
	static uint64_t name(struct bench_buf *b, lf_fnptr fn_, size_t reps)           \
	{                                                                              \
		(void)fn_;                                                             \
		return batch(b, (lf_fnptr)fn, reps);                                   \
	}
NISTZ_WRAP(nistz_mul_batch, mul_batch, ecp_nistz256_mul_mont)
NISTZ_WRAP(nistz_sqr_batch, sqr_batch, ecp_nistz256_sqr_mont)
NISTZ_WRAP(nistz_mul_chain_batch, mul_chain_batch, ecp_nistz256_mul_mont)
NISTZ_WRAP(nistz_sqr_chain_batch, sqr_chain_batch, ecp_nistz256_sqr_mont)
#define NISTZ(fn) { .name = "openssl~nistz256", .column = "nistz256", \
	            .key = "openssl_nistz256", .kind = BK_PEER, .batch = fn }
#define NISTZ_BATCH(fn) fn
#else
#define NISTZ(fn) { .name = NULL }
#define NISTZ_BATCH(fn) NULL
#endif

#define P256_DRIVER(nm, knl, what, jmhname, vbatch, gmpname, gmpbatch, osslbatch, nzbatch, ver) \
	{ .name = nm, .kernel = knl, .unit = "limb", .jmh = jmhname, .title = what,            \
	  .peer_note = "OpenSSL peers: BN_mod_mul_montgomery on p (generic BIGNUM Montgomery "  \
	               "code) and, where bench.mk found them in libcrypto.a, "                 \
	               "ecp_nistz256_mul_mont/sqr_mont (the field functions EVP's P-256 uses, " \
	               "not exported by libcrypto.so); GMP peer: the plain modular product "    \
	               "(mpn_mul_n or mpn_sqr, then mpn_tdiv_qr)",                             \
	  .sizes = p256_sizes, .check_sizes = p256_check_sizes, .variant_batch = vbatch,       \
	  .peers = { { .name = gmpname, .column = "GMP", .key = "gmp", .kind = BK_GMP_PEER,    \
	               .batch = gmpbatch }, OSSL(osslbatch), NISTZ(nzbatch) },                \
	  .alloc = p256_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp, .verify = ver }

const struct bench_driver bench_p256_drivers[4] = {
	P256_DRIVER("p256_mul_mont", "p256_mul_mont",
	            "r = a b 2^-256 mod p (P-256), independent calls on the same operands "
	            "(throughput); peers: OpenSSL BN_mod_mul_montgomery on p (BN level), GMP "
	            "mpn_mul_n + mpn_tdiv_qr (a peer row)", NULL,
	            mul_batch, "gmp~mulmod", gmp_mulmod_batch, openssl_mul_batch,
	            NISTZ_BATCH(nistz_mul_batch), mul_verify),
	P256_DRIVER("p256_sqr_mont", "p256_sqr_mont",
	            "r = a^2 2^-256 mod p (P-256), independent calls (throughput); peers: OpenSSL "
	            "BN_mod_mul_montgomery(a, a) on p (BN level), GMP mpn_sqr + mpn_tdiv_qr", NULL,
	            sqr_batch, "gmp~sqrmod", gmp_sqrmod_batch, openssl_sqr_batch,
	            NISTZ_BATCH(nistz_sqr_batch), sqr_verify),
	P256_DRIVER("p256_mul_mont_chain", "p256_mul_mont",
	            "x = x b 2^-256 mod p (P-256), chained: each output the next input (latency, "
	            "as benchMultiply's setProduct chain); peers as p256_mul_mont, chained too",
	            "PolynomialP256Bench.benchMultiply", mul_chain_batch, "gmp~mulmod",
	            gmp_mulmod_chain_batch, openssl_mul_chain_batch,
	            NISTZ_BATCH(nistz_mul_chain_batch), mul_verify),
	P256_DRIVER("p256_sqr_mont_chain", "p256_sqr_mont",
	            "x = x^2 2^-256 mod p (P-256), chained (latency, as benchSquare); peers as "
	            "p256_sqr_mont, chained too", "PolynomialP256Bench.benchSquare",
	            sqr_chain_batch, "gmp~sqrmod", gmp_sqrmod_chain_batch, openssl_sqr_chain_batch,
	            NISTZ_BATCH(nistz_sqr_chain_batch), sqr_verify),
};

/* ---- MontgomeryIntegerPolynomialP256: p256_mont_mult, p256_mont_square (5 limbs of 52 bits,
 * R = 2^260; size 5 limbs) and p256_mont_mult_x8 (size 8 products of 40 limbs) ----------------
 * The same measurements as above: independent calls on the same operands (throughput) and
 * chained calls (x = x b R^-1, x = x^2 R^-1: latency, benchMultiply / benchSquare).  Operands
 * random 52-bit limbs with the top limb below 2^47 (so below p); --check patterns: ones =
 * every element p - 1 (limbs 2^52-1 where the value allows), zeros = a zero.  Peers (rows,
 * not compared: another layout and R): GMP mpn_mul_n + mpn_tdiv_qr and OpenSSL
 * BN_mod_mul_montgomery on 4 x 64-bit operands, 8 products per call for the x8 driver. */
static const int64_t PM1_52[5] = { 0xffffffffffffe, 0xfffffffffff, 0, 0x1000000000,
	                           0xffffffff0000 };

static void p256m_sanitize(uint64_t *x, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		x[i] &= (UINT64_C(1) << 52) - 1;
		if (i % 5 == 4)
			x[i] >>= 5;
	}
}

static void p256m_fill(struct bench_buf *b, int pattern)
{
	if (pattern == BP_ONES || pattern == BP_ZEROS) {
		for (size_t i = 0; i < b->n; i++) {
			b->ap[i] = pattern == BP_ONES ? (uint64_t)PM1_52[i % 5] : 0;
			b->bp[i] = (uint64_t)PM1_52[i % 5];
		}
	}
	p256_sync(b);
	memcpy(b->rp, b->rp0, b->rp_len * 8);
}

static struct bench_buf *p256m_alloc(size_t n, uint64_t seed)
{
	size_t limbs = n == 8 ? 40 : n;
	struct bench_buf *b = p256_alloc(limbs, seed);
	b->p256->m52 = 1;
	b->p256->elems = n == 8 ? 8 : 1;
	p256m_sanitize(b->ap, limbs);
	p256m_sanitize(b->bp, limbs);
	p256_sync(b);
	return b;
}

static uint64_t m_batch_(struct bench_buf *b, lf_fnptr fn, size_t reps, int chain, int sqr)
{
	typedef void (*f3)(int64_t *, const int64_t *, const int64_t *);
	if (b->n != 5 && b->n != 40)
		return 0;
	int64_t *r = (int64_t *)b->rp;
	const int64_t *a = (const int64_t *)b->ap, *bb = (const int64_t *)b->bp;
	if (chain) {
		memcpy(r, a, b->n * 8);
		a = r;
	}
	if (sqr) {
		lf_p256_mont_square_fn f = (lf_p256_mont_square_fn)fn;
		for (size_t i = 0; i < reps; i++)
			f(r, a);
	} else {
		f3 f = (f3)fn;
		for (size_t i = 0; i < reps; i++)
			f(r, a, bb);
	}
	return b->rp[0];
}

static uint64_t mm_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return m_batch_(b, fn, reps, 0, 0);
}

static uint64_t mm_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return m_batch_(b, fn, reps, 1, 0);
}

static uint64_t ms_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return m_batch_(b, fn, reps, 0, 1);
}

static uint64_t ms_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return m_batch_(b, fn, reps, 1, 1);
}

/* --check oracle (GMP): every element's r < p, limbs < 2^52, and r 2^260 = a b (mod p) */
static const char *p256m_verify_(const struct bench_buf *b, int sqr)
{
	struct bench_p256 *q = b->p256;
	if (b->n != 5 && b->n != 40)
		return NULL;
	int bad = 0;
	mpz_t r, x, y, t;
	mpz_inits(r, x, y, t, NULL);
	for (size_t k = 0; k < b->n; k += 5) {
		mpz_set_ui(r, 0), mpz_set_ui(x, 0), mpz_set_ui(y, 0);
		for (int i = 4; i >= 0; i--) {
			bad |= b->rp[k + (size_t)i] >> 52 != 0;
			mpz_mul_2exp(r, r, 52), mpz_add_ui(r, r, b->rp[k + (size_t)i]);
			mpz_mul_2exp(x, x, 52), mpz_add_ui(x, x, b->ap[k + (size_t)i]);
			mpz_mul_2exp(y, y, 52), mpz_add_ui(y, y, b->bp[k + (size_t)i]);
		}
		bad |= mpz_cmp(r, q->p) >= 0;
		mpz_mul_2exp(r, r, 260);
		mpz_mul(t, x, sqr ? x : y);
		mpz_sub(t, t, r);
		bad |= !mpz_divisible_p(t, q->p);
	}
	mpz_clears(r, x, y, t, NULL);
	return bad ? "differs from GMP: r 2^260 != a b mod p, r >= p or a limb >= 2^52" : NULL;
}

static const char *mm_verify(const struct bench_buf *b)
{
	return p256m_verify_(b, 0);
}

static const char *ms_verify(const struct bench_buf *b)
{
	return p256m_verify_(b, 1);
}

static const size_t p256m_sizes[] = { 5, 0 };
static const size_t p256m_check_sizes[] = { 0, 5, 0 };
static const size_t p256m_x8_sizes[] = { 8, 0 };
static const size_t p256m_x8_check_sizes[] = { 0, 8, 0 };

#ifdef BENCH_HAVE_OPENSSL
#define OSSL_ROW(fn) \
	{ .name = "openssl~bn", .column = "OpenSSL", .key = "openssl", .kind = BK_GMP_PEER, \
	  .batch = fn }
#else
#define OSSL_ROW(fn) { .name = NULL }
#endif

#define P256M_DRIVER(nm, knl, unt, szs, chk, what, jmhname, vbatch, gmpname, gmpbatch,      \
                     osslbatch, ver)                                                        \
	{ .name = nm, .kernel = knl, .unit = unt, .jmh = jmhname, .title = what,               \
	  .peer_note = "peer rows (not compared: 4 x 64-bit operands, R = 2^256): OpenSSL "     \
	               "BN_mod_mul_montgomery on p, GMP mpn_mul_n or mpn_sqr + mpn_tdiv_qr; "   \
	               "8 products per call beside p256_mont_mult_x8",                          \
	  .sizes = szs, .check_sizes = chk, .variant_batch = vbatch,                           \
	  .peers = { { .name = gmpname, .column = "GMP", .key = "gmp", .kind = BK_GMP_PEER,    \
	               .batch = gmpbatch }, OSSL_ROW(osslbatch) },                             \
	  .alloc = p256m_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp, .verify = ver }

const struct bench_driver bench_p256m_drivers[5] = {
	P256M_DRIVER("p256_mont_mult", "p256_mont_mult", "limb", p256m_sizes, p256m_check_sizes,
	             "r = a b 2^-260 mod p (MontgomeryIntegerPolynomialP256, 5 x 52 bits), "
	             "independent calls on the same operands (throughput)", NULL, mm_batch,
	             "gmp~mulmod", gmp_mulmod_batch, openssl_mul_batch, mm_verify),
	P256M_DRIVER("p256_mont_mult_chain", "p256_mont_mult", "limb", p256m_sizes,
	             p256m_check_sizes, "x = x b 2^-260 mod p (5 x 52 bits), chained (latency, as "
	             "benchMultiply's setProduct chain)", "PolynomialP256Bench.benchMultiply",
	             mm_chain_batch, "gmp~mulmod", gmp_mulmod_chain_batch, openssl_mul_chain_batch,
	             mm_verify),
	P256M_DRIVER("p256_mont_square", "p256_mont_square", "limb", p256m_sizes,
	             p256m_check_sizes, "r = a^2 2^-260 mod p (5 x 52 bits), independent calls "
	             "(throughput)", NULL, ms_batch, "gmp~sqrmod", gmp_sqrmod_batch,
	             openssl_sqr_batch, ms_verify),
	P256M_DRIVER("p256_mont_square_chain", "p256_mont_square", "limb", p256m_sizes,
	             p256m_check_sizes, "x = x^2 2^-260 mod p (5 x 52 bits), chained (latency, as "
	             "benchSquare)", "PolynomialP256Bench.benchSquare", ms_chain_batch,
	             "gmp~sqrmod", gmp_sqrmod_chain_batch, openssl_sqr_chain_batch, ms_verify),
	P256M_DRIVER("p256_mont_mult_x8", "p256_mont_mult_x8", "product", p256m_x8_sizes,
	             p256m_x8_check_sizes, "8 independent products r_k = a_k b_k 2^-260 mod p per "
	             "call (5 x 52 bits, element k at limbs 5k..5k+4); cyc/product = cycles per "
	             "call / 8", NULL, mm_batch, "gmp~mulmod", gmp_mulmod_batch, openssl_mul_batch,
	             mm_verify),
};
