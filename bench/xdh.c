/*
 * xdh.c -- the X25519 and X448 drivers (RFC 7748): lf_x25519 / lf_x448 with an existing key
 * pair (the scalar and the peer's u-coordinate of RFC 7748 section 5.2's first vector, whose
 * output is known: --check compares with it, and every contender with ref), as the ECDH
 * driver (ecdh.c) times lf_p256_ecdh.  The variant of both field products of the curve
 * (fe_c25519_r51_mul / square, fe_c448_r56_mul / square; same name) is forced by the select
 * hook; a square without that variant keeps the dispatcher's choice.  One op of lf_x25519
 * includes decoding the scalar and u, the 255-bit ladder, the inversion and the encoding.
 *
 * Peers, in one process on the same keys (where the build has the library):
 *   openssl~derive  EVP_PKEY_derive on a context prepared once (EVP_PKEY_derive_init and
 *                   EVP_PKEY_derive_set_peer in the setup) with raw X25519 / X448 keys, as
 *                   `openssl speed ecdhx25519` times (OpenSSL 3: its own 64-bit field code);
 *   sodium          crypto_scalarmult (X25519 only: libsodium has no X448).
 * Size: the curve's field limbs (5, 8; the only one).  The ops/s of a row are 1e9 / ns/op.
 * x25519_ladder / x448_ladder: the same calls and peers, the ladder kernel (ifma, ref) forced
 * instead of the field products -- what the ladder's variant is worth in the whole function.
 */
#include <stdlib.h>
#include <string.h>
#ifdef BENCH_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef BENCH_HAVE_SODIUM
#include <sodium.h>
#endif

#include "bench.h"
#include "lf_fields.h"

/* RFC 7748 5.2, the first X25519 and X448 vectors (scalar, u, output) */
static const uint8_t x25519_k[32] = {
	0xa5, 0x46, 0xe3, 0x6b, 0xf0, 0x52, 0x7c, 0x9d, 0x3b, 0x16, 0x15, 0x4b, 0x82, 0x46, 0x5e,
	0xdd, 0x62, 0x14, 0x4c, 0x0a, 0xc1, 0xfc, 0x5a, 0x18, 0x50, 0x6a, 0x22, 0x44, 0xba, 0x44,
	0x9a, 0xc4 };
static const uint8_t x25519_u[32] = {
	0xe6, 0xdb, 0x68, 0x67, 0x58, 0x30, 0x30, 0xdb, 0x35, 0x94, 0xc1, 0xa4, 0x24, 0xb1, 0x5f,
	0x7c, 0x72, 0x66, 0x24, 0xec, 0x26, 0xb3, 0x35, 0x3b, 0x10, 0xa9, 0x03, 0xa6, 0xd0, 0xab,
	0x1c, 0x4c };
static const uint8_t x25519_out[32] = {
	0xc3, 0xda, 0x55, 0x37, 0x9d, 0xe9, 0xc6, 0x90, 0x8e, 0x94, 0xea, 0x4d, 0xf2, 0x8d, 0x08,
	0x4f, 0x32, 0xec, 0xcf, 0x03, 0x49, 0x1c, 0x71, 0xf7, 0x54, 0xb4, 0x07, 0x55, 0x77, 0xa2,
	0x85, 0x52 };
static const uint8_t x448_k[56] = {
	0x3d, 0x26, 0x2f, 0xdd, 0xf9, 0xec, 0x8e, 0x88, 0x49, 0x52, 0x66, 0xfe, 0xa1, 0x9a, 0x34,
	0xd2, 0x88, 0x82, 0xac, 0xef, 0x04, 0x51, 0x04, 0xd0, 0xd1, 0xaa, 0xe1, 0x21, 0x70, 0x0a,
	0x77, 0x9c, 0x98, 0x4c, 0x24, 0xf8, 0xcd, 0xd7, 0x8f, 0xbf, 0xf4, 0x49, 0x43, 0xeb, 0xa3,
	0x68, 0xf5, 0x4b, 0x29, 0x25, 0x9a, 0x4f, 0x1c, 0x60, 0x0a, 0xd3 };
static const uint8_t x448_u[56] = {
	0x06, 0xfc, 0xe6, 0x40, 0xfa, 0x34, 0x87, 0xbf, 0xda, 0x5f, 0x6c, 0xf2, 0xd5, 0x26, 0x3f,
	0x8a, 0xad, 0x88, 0x33, 0x4c, 0xbd, 0x07, 0x43, 0x7f, 0x02, 0x0f, 0x08, 0xf9, 0x81, 0x4d,
	0xc0, 0x31, 0xdd, 0xbd, 0xc3, 0x8c, 0x19, 0xc6, 0xda, 0x25, 0x83, 0xfa, 0x54, 0x29, 0xdb,
	0x94, 0xad, 0xa1, 0x8a, 0xa7, 0xa7, 0xfb, 0x4e, 0xf8, 0xa0, 0x86 };
static const uint8_t x448_out[56] = {
	0xce, 0x3e, 0x4f, 0xf9, 0x5a, 0x60, 0xdc, 0x66, 0x97, 0xda, 0x1d, 0xb1, 0xd8, 0x5e, 0x6a,
	0xfb, 0xdf, 0x79, 0xb5, 0x0a, 0x24, 0x12, 0xd7, 0x54, 0x6d, 0x5f, 0x23, 0x9f, 0xe1, 0x4f,
	0xba, 0xad, 0xeb, 0x44, 0x5f, 0xc6, 0x6a, 0x01, 0xb0, 0x77, 0x9d, 0x98, 0x22, 0x39, 0x61,
	0x11, 0x1e, 0x21, 0x76, 0x62, 0x82, 0xf7, 0x3d, 0xd9, 0x6b, 0x6f };

struct bench_xdh {
	int x448;
	size_t len, limbs;             /* 32 / 56 bytes; the field's limbs: the driver's size */
	uint8_t scalar[56], point[56];
	const uint8_t *want;
#ifdef BENCH_HAVE_OPENSSL
	EVP_PKEY *mine, *peer;
	EVP_PKEY_CTX *ctx;             /* derive_init + set_peer done */
#endif
};

static struct bench_buf *xdh_alloc(size_t n, uint64_t seed, int x448)
{
	struct bench_buf *b = bench_buf_alloc(n, seed, 7, 1);    /* rp: 56 bytes of output */
	struct bench_xdh *x = calloc(1, sizeof *x);
	if (!x)
		exit(2);
	b->xdh = x;
	x->x448 = x448;
	x->len = x448 ? 56 : 32;
	x->limbs = x448 ? LF_FE_C448_R56_LIMBS : LF_FE_C25519_R51_LIMBS;
	memcpy(x->scalar, x448 ? x448_k : x25519_k, x->len);
	memcpy(x->point, x448 ? x448_u : x25519_u, x->len);
	x->want = x448 ? x448_out : x25519_out;
#ifdef BENCH_HAVE_SODIUM
	if (sodium_init() < 0)
		exit(2);
#endif
#ifdef BENCH_HAVE_OPENSSL
	int id = x448 ? EVP_PKEY_X448 : EVP_PKEY_X25519;
	x->mine = EVP_PKEY_new_raw_private_key(id, NULL, x->scalar, x->len);
	x->peer = EVP_PKEY_new_raw_public_key(id, NULL, x->point, x->len);
	x->ctx = x->mine ? EVP_PKEY_CTX_new(x->mine, NULL) : NULL;
	if (!x->peer || !x->ctx || EVP_PKEY_derive_init(x->ctx) <= 0 ||
	    EVP_PKEY_derive_set_peer(x->ctx, x->peer) <= 0) {
		fprintf(stderr, "limbforge-bench: %s: OpenSSL key set-up failed\n",
		        x448 ? "x448" : "x25519");
		exit(2);
	}
#endif
	return b;
}

static struct bench_buf *x25519_alloc(size_t n, uint64_t seed)
{
	return xdh_alloc(n, seed, 0);
}

static struct bench_buf *x448_alloc(size_t n, uint64_t seed)
{
	return xdh_alloc(n, seed, 1);
}

void bench_xdh_free(struct bench_xdh *x)
{
	if (!x)
		return;
#ifdef BENCH_HAVE_OPENSSL
	EVP_PKEY_CTX_free(x->ctx);
	EVP_PKEY_free(x->mine);
	EVP_PKEY_free(x->peer);
#endif
	free(x);
}

void bench_xdh_fill(struct bench_buf *b, int pattern)
{
	(void)pattern;                  /* one key pair: the patterns do not apply */
	memcpy(b->rp, b->rp0, b->rp_len * 8);
}

/* the variant of both products of the curve's field (a square without it: the dispatcher's) */
static void xdh_select(struct bench_buf *b, const struct bench_contender *c)
{
	const char *sq = b->xdh->x448 ? "fe_c448_r56_square" : "fe_c25519_r51_square";
	b->cur = c;
	if (c->kind != BK_VARIANT && c->kind != BK_REF)
		return;
	bench_force(c->drv->kernel, c->variant);
	if (lf_impl_force(sq, c->variant) != 0)
		lf_impl_force(sq, NULL);
}

static uint64_t xdh_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	struct bench_xdh *x = b->xdh;
	int rc = 0;
	(void)fn;
	if (b->n != x->limbs)
		return 0;
	for (size_t i = 0; i < reps; i++)
		rc |= x->x448 ? lf_x448((uint8_t *)b->rp, x->scalar, x->point)
		              : lf_x25519((uint8_t *)b->rp, x->scalar, x->point);
	return (uint64_t)(unsigned)rc + b->rp[0];
}

#ifdef BENCH_HAVE_OPENSSL
static uint64_t ossl_derive_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	struct bench_xdh *x = b->xdh;
	int bad = 0;
	(void)fn;
	if (b->n != x->limbs)
		return 0;
	for (size_t i = 0; i < reps; i++) {
		size_t len = x->len;
		bad |= EVP_PKEY_derive(x->ctx, (unsigned char *)b->rp, &len) <= 0 || len != x->len;
	}
	return (uint64_t)bad + b->rp[0];
}
#endif

#ifdef BENCH_HAVE_SODIUM
static uint64_t sodium_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	struct bench_xdh *x = b->xdh;
	int bad = 0;
	(void)fn;
	if (b->n != x->limbs)
		return 0;
	for (size_t i = 0; i < reps; i++)
		bad |= crypto_scalarmult((unsigned char *)b->rp, x->scalar, x->point) != 0;
	return (uint64_t)bad + b->rp[0];
}
#endif

static const char *xdh_verify(const struct bench_buf *b)
{
	const struct bench_xdh *x = b->xdh;
	if (b->n != x->limbs)
		return NULL;
	return memcmp(b->rp, x->want, x->len) == 0 ? NULL
	       : "output differs from RFC 7748 5.2's first vector";
}

static const size_t x25519_sizes[] = { LF_FE_C25519_R51_LIMBS, 0 };
static const size_t x25519_check_sizes[] = { 0, LF_FE_C25519_R51_LIMBS, 0 };
static const size_t x448_sizes[] = { LF_FE_C448_R56_LIMBS, 0 };
static const size_t x448_check_sizes[] = { 0, LF_FE_C448_R56_LIMBS, 0 };

#ifdef BENCH_HAVE_OPENSSL
#define XDH_OSSL                                                                            \
	{ .name = "openssl~derive", .column = "OpenSSL", .key = "openssl", .kind = BK_PEER,    \
	  .batch = ossl_derive_batch },
#else
#define XDH_OSSL
#endif

const struct bench_driver bench_x25519_driver = {
	.name = "x25519", .kernel = "fe_c25519_r51_mul", .unit = "limb",
	.title = "lf_x25519: X(k, u) of RFC 7748 with decoding and encoding, an existing key pair "
	         "(5.2's first vector), fe_c25519_r51_mul and _square both forced to the variant "
	         "(the rows differ only where the C ladder runs, e.g. LIMBFORGE_CPU=-avx512ifma,"
	         "-adx: the ifma and adx ladders call no fe_c25519_r51 product; the x25519_ladder "
	         "rows force the ladder); peers: OpenSSL EVP_PKEY_derive on a prepared context "
	         "(xOpenSSL), libsodium crypto_scalarmult (xsodium); ops/s = 1e9 / ns/op",
	.sizes = x25519_sizes, .check_sizes = x25519_check_sizes, .variant_batch = xdh_batch,
	.peers = {
		XDH_OSSL
#ifdef BENCH_HAVE_SODIUM
		{ .name = "sodium", .column = "sodium", .key = "sodium", .kind = BK_PEER,
		  .batch = sodium_batch },
#endif
	},
	.alloc = x25519_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp,
	.select = xdh_select, .verify = xdh_verify,
};

const struct bench_driver bench_x448_driver = {
	.name = "x448", .kernel = "fe_c448_r56_mul", .unit = "limb",
	.title = "lf_x448: X(k, u) of RFC 7748 with decoding and encoding, an existing key pair "
	         "(5.2's first vector), fe_c448_r56_mul and _square both forced to the variant "
	         "(the rows differ only where the C ladder runs: without IFMA); "
	         "peer: OpenSSL EVP_PKEY_derive on a prepared context (xOpenSSL; libsodium has no "
	         "X448); ops/s = 1e9 / ns/op",
	.sizes = x448_sizes, .check_sizes = x448_check_sizes, .variant_batch = xdh_batch,
	.peers = { XDH_OSSL },
	.alloc = x448_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp,
	.select = xdh_select, .verify = xdh_verify,
};

/* the ladder kernels: the same lf_x25519 / lf_x448 calls, the ladder's variant forced (the
 * field products keep the dispatcher's choice) */
const struct bench_driver bench_x25519_ladder_driver = {
	.name = "x25519_ladder", .kernel = "x25519_ladder", .unit = "limb",
	.title = "lf_x25519 as the x25519 driver, the x25519_ladder kernel forced to the variant "
	         "(fe products: the dispatcher's); peers: OpenSSL EVP_PKEY_derive (xOpenSSL), "
	         "libsodium crypto_scalarmult (xsodium)",
	.sizes = x25519_sizes, .check_sizes = x25519_check_sizes, .variant_batch = xdh_batch,
	.peers = {
		XDH_OSSL
#ifdef BENCH_HAVE_SODIUM
		{ .name = "sodium", .column = "sodium", .key = "sodium", .kind = BK_PEER,
		  .batch = sodium_batch },
#endif
	},
	.alloc = x25519_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp,
	.select = bench_force_select, .verify = xdh_verify,
};

const struct bench_driver bench_x448_ladder_driver = {
	.name = "x448_ladder", .kernel = "x448_ladder", .unit = "limb",
	.title = "lf_x448 as the x448 driver, the x448_ladder kernel forced to the variant (fe "
	         "products: the dispatcher's); peer: OpenSSL EVP_PKEY_derive (xOpenSSL)",
	.sizes = x448_sizes, .check_sizes = x448_check_sizes, .variant_batch = xdh_batch,
	.peers = { XDH_OSSL },
	.alloc = x448_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp,
	.select = bench_force_select, .verify = xdh_verify,
};
