/*
 * fe.c -- the field product drivers: one pair per line of tests/fe_kernels.h (fe_<field>_mul,
 * fe_<field>_square: Curve25519 5 x 51, Curve448 8 x 56, P-521 9 x 58 bits), every variant
 * beside ref:
 *   fe_<field>_<op>        r = a b mod p (a^2), independent calls on the same operands
 *                          (throughput);
 *   fe_<field>_<op>_chain  x = x b mod p (x^2), chained: each output the next input (latency,
 *                          what the Montgomery ladder and the inversion pay).
 * Size 1 (one element; --check also runs size 0: nothing called); cyc/element = cycles per
 * call.  Operands: reduced elements from the field's decode of pseudo-random bytes (--check
 * patterns: ones = decode of all-ones bytes for a and b, zeros = a zero).  The results are
 * limbs within the kernel's stated bound, not unique: ref and a variant are compared through
 * the field's encode (canonical bytes), and --check verifies encode(r) = encode(a) encode(b)
 * mod p with GMP (p from its definition below).  No peer library computes these layouts.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lf_fields.h"

#if !LF_FE_WIDE
#error "the field products need signed __int128 (LF_FE_WIDE)"
#endif

#define FE_MAX_BYTES 80

struct bench_fe {
	const char *field;
	size_t limbs;
	int sqr;
	int x4;                        /* fe_c25519_r51_mul_x4: 4 elements, limb-major */
	void (*decode)(int64_t *r, const uint8_t *in);
	void (*encode)(uint8_t *out, const int64_t *a);
};

#define FE_INFO(fld, nl, op)                                                                \
	static const struct bench_fe fe_info_##fld##_##op = {                               \
		#fld, nl, sizeof(#op) == sizeof("square"), 0, lf_fe_##fld##_decode,         \
		lf_fe_##fld##_encode };
LF_TEST_FE_KERNELS(FE_INFO)
#undef FE_INFO

/* p of each field from its definition (the field name's prefix), hex */
static const struct {
	const char *prefix, *p;
} primes[] = {
	{ "c25519_", "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed" },
	{ "c448_", "fffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffffffff"
	           "ffffffffffffffffffffffffffffffffffff" },
	{ "p256_", "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff" },
	{ "p384_", "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff000"
	           "0000000000000ffffffff" },
	{ "p521_", "1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
	           "ffffffffffffffffffffffffffffffffffffffffffffffffffffffff" },
};

static void fe_elements(struct bench_buf *b, int pattern, uint64_t seed)
{
	const struct bench_fe *f = b->fe;
	uint8_t x[FE_MAX_BYTES], y[FE_MAX_BYTES];
	for (size_t i = 0; i < FE_MAX_BYTES; i += 8) {
		uint64_t u = bench_splitmix64(&seed), v = bench_splitmix64(&seed);
		memcpy(x + i, &u, 8);
		memcpy(y + i, &v, 8);
	}
	if (pattern == BP_ONES || pattern == BP_ZEROS) {
		memset(x, pattern == BP_ONES ? 0xff : 0, sizeof x);
		memset(y, 0xff, sizeof y);
	}
	f->decode((int64_t *)b->ap, x);
	f->decode((int64_t *)b->bp, y);
}

static struct bench_buf *fe_alloc(size_t n, uint64_t seed, const struct bench_fe *f)
{
	struct bench_buf *b = bench_buf_alloc(f->limbs, seed, f->limbs, 1);
	b->n = n;                       /* elements: ap, bp and rp hold one */
	b->fe = f;
	fe_elements(b, BP_RANDOM, seed);
	return b;
}

void bench_fe_x4_fill(struct bench_buf *b, int pattern);

void bench_fe_fill(struct bench_buf *b, int pattern)
{
	if (b->fe->x4) {
		bench_fe_x4_fill(b, pattern);
		return;
	}
	if (pattern != BP_RANDOM)
		fe_elements(b, pattern, 0);
	bench_buf_reset(b);
}

/* independent: r = a b (a^2) `reps` times; chained: x = a, then x = x b (x^2) `reps` times,
 * x in rp.  Either way one call leaves a b (a^2) in rp.  The return value is 0: the limbs
 * may differ between variants (same_output compares them mod p) */
static uint64_t fe_batch_(struct bench_buf *b, lf_fnptr fn, size_t reps, int chain)
{
	const struct bench_fe *f = b->fe;
	if (b->n != 1)
		return 0;
	int64_t *r = (int64_t *)b->rp;
	const int64_t *a = (const int64_t *)b->ap, *bb = (const int64_t *)b->bp;
	if (chain) {
		memcpy(r, a, f->limbs * 8);
		a = r;
	}
	if (f->sqr) {
		lf_fe_square_fn sq = (lf_fe_square_fn)fn;
		for (size_t i = 0; i < reps; i++)
			sq(r, a);
	} else {
		lf_fe_mul_fn mul = (lf_fe_mul_fn)fn;
		for (size_t i = 0; i < reps; i++)
			mul(r, a, bb);
	}
	return 0;
}

static uint64_t fe_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return fe_batch_(b, fn, reps, 0);
}

static uint64_t fe_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return fe_batch_(b, fn, reps, 1);
}

/* rp of both mod p (encode: canonical bytes); size 0: rp untouched, compared as it is */
static int fe_same(const struct bench_buf *a, const struct bench_buf *b)
{
	if (a->n != 1)
		return bench_same_rp(a, b);
	uint8_t x[FE_MAX_BYTES] = { 0 }, y[FE_MAX_BYTES] = { 0 };
	a->fe->encode(x, (const int64_t *)a->rp);
	b->fe->encode(y, (const int64_t *)b->rp);
	return memcmp(x, y, sizeof x) == 0;
}

/* --check oracle (GMP): encode(r) = encode(a) encode(b) mod p (a^2 for square) */
static const char *fe_verify(const struct bench_buf *b)
{
	const struct bench_fe *f = b->fe;
	if (b->n != 1)
		return NULL;
	const char *ph = NULL;
	for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++)
		if (!strncmp(f->field, primes[i].prefix, strlen(primes[i].prefix)))
			ph = primes[i].p;
	if (!ph)
		return "no p for this field in bench/fe.c";
	uint8_t x[FE_MAX_BYTES] = { 0 }, y[FE_MAX_BYTES] = { 0 }, r[FE_MAX_BYTES] = { 0 };
	f->encode(x, (const int64_t *)b->ap);
	f->encode(y, (const int64_t *)b->bp);
	f->encode(r, (const int64_t *)b->rp);
	mpz_t p, zx, zy, zr;
	mpz_inits(p, zx, zy, zr, NULL);
	mpz_set_str(p, ph, 16);
	mpz_import(zx, FE_MAX_BYTES, -1, 1, 0, 0, x);
	mpz_import(zy, FE_MAX_BYTES, -1, 1, 0, 0, y);
	mpz_import(zr, FE_MAX_BYTES, -1, 1, 0, 0, r);
	mpz_mul(zx, zx, f->sqr ? zx : zy);
	mpz_mod(zx, zx, p);
	int bad = mpz_cmp(zx, zr) != 0;
	mpz_clears(p, zx, zy, zr, NULL);
	return bad ? "differs from GMP: encode(r) != a b mod p" : NULL;
}

static const size_t fe_sizes[] = { 1, 0 };
static const size_t fe_check_sizes[] = { 0, 1, 0 };

#define FE_R_mul "r = a b mod p"
#define FE_R_square "r = a^2 mod p"
#define FE_X_mul "x = x b mod p"
#define FE_X_square "x = x^2 mod p"
/* OpenSSL's Curve25519 field products in the same 5 x 51-bit layout (x25519-x86_64.pl,
 * linked out of libcrypto.a where bench.mk finds them: bench/ossl_field.c), a peer of
 * fe_c25519_r51_mul / _square, outputs compared mod p; no peer for the other fields */
#ifdef BENCH_HAVE_OSSL_FIELD
static uint64_t ossl_fe51_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return fe_batch(b, b->fe->sqr ? (lf_fnptr)x25519_fe51_sqr : (lf_fnptr)x25519_fe51_mul,
	                reps);
}

static uint64_t ossl_fe51_chain_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	return fe_chain_batch(b, b->fe->sqr ? (lf_fnptr)x25519_fe51_sqr :
	                      (lf_fnptr)x25519_fe51_mul, reps);
}
#define FE_PEERS_c25519_r51(fn) \
	{ { .name = "openssl~fe51", .column = "OpenSSL", .key = "openssl", .kind = BK_PEER, \
	    .batch = fn } }
#else
#define FE_PEERS_c25519_r51(fn) { { .name = NULL } }
#endif
#define FE_PEERS_c448_r56(fn) { { .name = NULL } }
#define FE_PEERS_p521_r58(fn) { { .name = NULL } }
#define FE_PEERS_p256_r52(fn) { { .name = NULL } }
#define FE_PEERS_p384_r56(fn) { { .name = NULL } }

#define FE_DRIVERS(fld, nl, op)                                                             \
	static struct bench_buf *fe_alloc_##fld##_##op(size_t n, uint64_t seed)             \
	{                                                                                   \
		return fe_alloc(n, seed, &fe_info_##fld##_##op);                            \
	}                                                                                   \
	const struct bench_driver bench_fe_##fld##_##op = {                                 \
		.name = "fe_" #fld "_" #op, .kernel = "fe_" #fld "_" #op, .unit = "element",  \
		.title = FE_R_##op " (" #fld ", " #nl " limbs), independent calls on the "    \
		         "same operands (throughput); results compared mod p",               \
		.sizes = fe_sizes, .check_sizes = fe_check_sizes, .variant_batch = fe_batch,  \
		.peers = FE_PEERS_##fld(ossl_fe51_batch),                                     \
		.alloc = fe_alloc_##fld##_##op, .reset = bench_buf_reset,                     \
		.same_output = fe_same, .verify = fe_verify };                                \
	const struct bench_driver bench_fe_##fld##_##op##_chain = {                         \
		.name = "fe_" #fld "_" #op "_chain", .kernel = "fe_" #fld "_" #op,            \
		.unit = "element",                                                           \
		.title = FE_X_##op " (" #fld ", " #nl " limbs), chained: each output the "    \
		         "next input (latency, as in the ladder and the inversion)",         \
		.sizes = fe_sizes, .check_sizes = fe_check_sizes,                            \
		.variant_batch = fe_chain_batch, .alloc = fe_alloc_##fld##_##op,             \
		.peers = FE_PEERS_##fld(ossl_fe51_chain_batch),                               \
		.reset = bench_buf_reset, .same_output = fe_same, .verify = fe_verify };
LF_TEST_FE_KERNELS(FE_DRIVERS)
#undef FE_DRIVERS

/* ---- fe_c25519_r51_mul_x4: four products a call ------------------------------------------
 * a, b, r: int64_t[20] limb-major (limb i of element l at [4 i + l]); the elements are the
 * field's decode of pseudo-random bytes (--check: ones = decode of all-ones bytes, zeros = a
 * zero), element-major copies in b->em for the peer row fe_mul~x4: four calls of the
 * dispatched scalar lf_fe_c25519_r51_mul (the mulx kernel here), its results transposed into
 * rp after the loop.  Size 4 (products): cyc/product = cycles per call / 4.  Results compared
 * lane by lane through encode; --check: each lane against GMP. */
static const struct bench_fe fe_info_x4 = { "c25519_r51", 20, 0, 1, lf_fe_c25519_r51_decode,
                                            lf_fe_c25519_r51_encode };

static void x4_elements(struct bench_buf *b, int pattern, uint64_t seed)
{
	int64_t *em = b->em;           /* a[4][5], b[4][5], r[4][5] */
	for (int l = 0; l < 8; l++) {
		uint8_t x[32];
		for (size_t i = 0; i < 32; i += 8) {
			uint64_t u = bench_splitmix64(&seed);
			memcpy(x + i, &u, 8);
		}
		if (pattern == BP_ONES || (pattern == BP_ZEROS && l >= 4))
			memset(x, 0xff, sizeof x);
		else if (pattern == BP_ZEROS)
			memset(x, 0, sizeof x);
		lf_fe_c25519_r51_decode(em + 5 * l, x);
	}
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < 5; i++) {
			((int64_t *)b->ap)[4 * i + l] = em[5 * l + i];
			((int64_t *)b->bp)[4 * i + l] = em[20 + 5 * l + i];
		}
}

static struct bench_buf *x4_alloc(size_t n, uint64_t seed)
{
	struct bench_buf *b = bench_buf_alloc(20, seed, 20, 1);
	b->em = calloc(60, sizeof(int64_t));
	if (!b->em)
		exit(2);
	b->n = n;                       /* products: 4 (0 in --check: nothing called) */
	b->fe = &fe_info_x4;
	x4_elements(b, BP_RANDOM, seed);
	return b;
}

void bench_fe_x4_fill(struct bench_buf *b, int pattern)
{
	if (pattern != BP_RANDOM)
		x4_elements(b, pattern, 0);
	bench_buf_reset(b);
}

static uint64_t x4_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	if (b->n != 4)
		return 0;
	lf_fe_c25519_r51_mul_x4_fn f = (lf_fe_c25519_r51_mul_x4_fn)fn;
	for (size_t i = 0; i < reps; i++)
		f((int64_t *)b->rp, (const int64_t *)b->ap, (const int64_t *)b->bp);
	return 0;
}

/* the peer: four scalar products through the dispatcher (fe_c25519_r51_mul's choice) */
static uint64_t x4_scalar_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	if (b->n != 4)
		return 0;
	int64_t *em = b->em;
	lf_fe_mul_fn mul = (lf_fe_mul_fn)lf_dispatch_get(LF_K_fe_c25519_r51_mul);
	for (size_t i = 0; i < reps; i++)
		for (int l = 0; l < 4; l++)
			mul(em + 40 + 5 * l, em + 5 * l, em + 20 + 5 * l);
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < 5; i++)
			((int64_t *)b->rp)[4 * i + l] = em[40 + 5 * l + i];
	return 0;
}

static void x4_lane(int64_t *x, const uint64_t *v, int l)
{
	for (int i = 0; i < 5; i++)
		x[i] = (int64_t)v[4 * i + l];
}

static int x4_same(const struct bench_buf *a, const struct bench_buf *b)
{
	if (a->n != 4)
		return bench_same_rp(a, b);
	for (int l = 0; l < 4; l++) {
		int64_t x[5], y[5];
		uint8_t bx[32], by[32];
		x4_lane(x, a->rp, l);
		x4_lane(y, b->rp, l);
		lf_fe_c25519_r51_encode(bx, x);
		lf_fe_c25519_r51_encode(by, y);
		if (memcmp(bx, by, 32))
			return 0;
	}
	return 1;
}

static const char *x4_verify(const struct bench_buf *b)
{
	if (b->n != 4)
		return NULL;
	const char *bad = NULL;
	mpz_t p, zx, zy, zr;
	mpz_inits(p, zx, zy, zr, NULL);
	mpz_set_str(p, primes[0].p, 16);
	for (int l = 0; l < 4 && !bad; l++) {
		int64_t x[5], y[5], r[5];
		uint8_t bx[32], by[32], br[32];
		x4_lane(x, b->ap, l);
		x4_lane(y, b->bp, l);
		x4_lane(r, b->rp, l);
		lf_fe_c25519_r51_encode(bx, x);
		lf_fe_c25519_r51_encode(by, y);
		lf_fe_c25519_r51_encode(br, r);
		mpz_import(zx, 32, -1, 1, 0, 0, bx);
		mpz_import(zy, 32, -1, 1, 0, 0, by);
		mpz_import(zr, 32, -1, 1, 0, 0, br);
		mpz_mul(zx, zx, zy);
		mpz_mod(zx, zx, p);
		if (mpz_cmp(zx, zr) != 0)
			bad = "differs from GMP: a lane's encode(r) != a b mod p";
	}
	mpz_clears(p, zx, zy, zr, NULL);
	return bad;
}

static const size_t x4_sizes[] = { 4, 0 };
static const size_t x4_check_sizes[] = { 0, 4, 0 };

const struct bench_driver bench_fe_x4_driver = {
	.name = "fe_c25519_r51_mul_x4", .kernel = "fe_c25519_r51_mul_x4", .unit = "product",
	.title = "four Curve25519 products a call (c25519_r51, limb-major), independent calls on "
	         "the same operands; cyc/product = per call / 4; peer fe_mul~x4: four calls of "
	         "the dispatched scalar fe_c25519_r51_mul (xmul); results compared mod p per lane",
	.sizes = x4_sizes, .check_sizes = x4_check_sizes, .variant_batch = x4_batch,
	.peers = { { .name = "fe_mul~x4", .column = "mul", .key = "fe_mul", .kind = BK_PEER,
	             .batch = x4_scalar_batch } },
	.alloc = x4_alloc, .reset = bench_buf_reset, .same_output = x4_same,
	.verify = x4_verify };
