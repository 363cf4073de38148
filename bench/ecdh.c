/*
 * ecdh.c -- the P-256 ECDH driver (p256_ecdh): lf_p256_ecdh with an existing key pair, as the
 * JDK's KeyAgreementBench (test/micro/org/openjdk/bench/javax/crypto/full/KeyAgreementBench:
 * ECDH, secp256r1; one op = init + doPhase + generateSecret on keys made in the setup), the
 * variant of both field kernels (p256_mul_mont and p256_sqr_mont, same name) forced by the
 * select hook as the mod_pow drivers do.  One op of lf_p256_ecdh includes decoding and
 * validating the peer point (on-curve check) and the scalar range check.
 *
 * Key pair: RFC 5903 section 8.1's (private i, peer public g^r); the shared x is known
 * (--check compares with it, and every contender with ref).
 *
 * Peers, in one process on the same keys (where the build has libcrypto):
 *   openssl~derive  EVP_PKEY_derive on a context prepared once (EVP_PKEY_derive_init and
 *                   EVP_PKEY_derive_set_peer in the setup), as `openssl speed ecdhp256` times;
 *                   OpenSSL 3's P-256 is ecp_nistz256 (assembly point arithmetic, 5-bit Booth
 *                   window) behind the EVP/provider layers;
 *   openssl~kab     the JDK-like op: EVP_PKEY_derive_init + EVP_PKEY_derive_set_peer (which
 *                   validates the peer key) + EVP_PKEY_derive, per op, on one context.
 * Size: 4 (limbs of the field; the only one).  The ops/s of a row are 1e9 / ns/op.
 */
#include <stdlib.h>
#include <string.h>
#ifdef BENCH_HAVE_OPENSSL
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#endif

#include "bench.h"

static const uint8_t rfc_i[32] = {
	0xc8, 0x8f, 0x01, 0xf5, 0x10, 0xd9, 0xac, 0x3f, 0x70, 0xa2, 0x92, 0xda, 0xa2, 0x31, 0x6d,
	0xe5, 0x44, 0xe9, 0xaa, 0xb8, 0xaf, 0xe8, 0x40, 0x49, 0xc6, 0x2a, 0x9c, 0x57, 0x86, 0x2d,
	0x14, 0x33 };
static const uint8_t rfc_gr[65] = {
	0x04, 0xd1, 0x2d, 0xfb, 0x52, 0x89, 0xc8, 0xd4, 0xf8, 0x12, 0x08, 0xb7, 0x02, 0x70, 0x39,
	0x8c, 0x34, 0x22, 0x96, 0x97, 0x0a, 0x0b, 0xcc, 0xb7, 0x4c, 0x73, 0x6f, 0xc7, 0x55, 0x44,
	0x94, 0xbf, 0x63, 0x56, 0xfb, 0xf3, 0xca, 0x36, 0x6c, 0xc2, 0x3e, 0x81, 0x57, 0x85, 0x4c,
	0x13, 0xc5, 0x8d, 0x6a, 0xac, 0x23, 0xf0, 0x46, 0xad, 0xa3, 0x0f, 0x83, 0x53, 0xe7, 0x4f,
	0x33, 0x03, 0x98, 0x72, 0xab };
static const uint8_t rfc_gir[32] = {
	0xd6, 0x84, 0x0f, 0x6b, 0x42, 0xf6, 0xed, 0xaf, 0xd1, 0x31, 0x16, 0xe0, 0xe1, 0x25, 0x65,
	0x20, 0x2f, 0xef, 0x8e, 0x9e, 0xce, 0x7d, 0xce, 0x03, 0x81, 0x24, 0x64, 0xd0, 0x4b, 0x94,
	0x42, 0xde };

struct bench_ecdh {
	uint8_t scalar[32], point[65];
#ifdef BENCH_HAVE_OPENSSL
	EVP_PKEY *mine, *peer;
	EVP_PKEY_CTX *ctx;           /* derive_init + set_peer done (openssl~derive) */
	EVP_PKEY_CTX *ctx2;          /* for openssl~kab */
#endif
};

#ifdef BENCH_HAVE_OPENSSL
static EVP_PKEY *ossl_key(const uint8_t *priv, const uint8_t *pub)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *bn = NULL;
	EVP_PKEY *k = NULL;
	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
	if (priv) {
		bn = BN_bin2bn(priv, 32, NULL);
		OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bn);
	}
	if (pub)
		OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, 65);
	OSSL_PARAM *ps = OSSL_PARAM_BLD_to_param(b);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (EVP_PKEY_fromdata_init(c) <= 0 ||
	    EVP_PKEY_fromdata(c, &k, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, ps) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(c);
	OSSL_PARAM_free(ps);
	OSSL_PARAM_BLD_free(b);
	BN_free(bn);
	return k;
}
#endif

static struct bench_buf *ecdh_alloc(size_t n, uint64_t seed)
{
	struct bench_buf *b = bench_buf_alloc(n, seed, 4, 1);
	struct bench_ecdh *e = calloc(1, sizeof *e);
	if (!e)
		exit(2);
	b->ecdh = e;
	memcpy(e->scalar, rfc_i, 32);
	memcpy(e->point, rfc_gr, 65);
#ifdef BENCH_HAVE_OPENSSL
	e->mine = ossl_key(e->scalar, NULL);
	e->peer = ossl_key(NULL, e->point);
	e->ctx = e->mine ? EVP_PKEY_CTX_new(e->mine, NULL) : NULL;
	e->ctx2 = e->mine ? EVP_PKEY_CTX_new(e->mine, NULL) : NULL;
	if (!e->peer || !e->ctx || !e->ctx2 || EVP_PKEY_derive_init(e->ctx) <= 0 ||
	    EVP_PKEY_derive_set_peer(e->ctx, e->peer) <= 0) {
		fprintf(stderr, "limbforge-bench: p256_ecdh: OpenSSL key set-up failed\n");
		exit(2);
	}
#endif
	return b;
}

void bench_ecdh_free(struct bench_ecdh *e)
{
	if (!e)
		return;
#ifdef BENCH_HAVE_OPENSSL
	EVP_PKEY_CTX_free(e->ctx);
	EVP_PKEY_CTX_free(e->ctx2);
	EVP_PKEY_free(e->mine);
	EVP_PKEY_free(e->peer);
#endif
	free(e);
}

void bench_ecdh_fill(struct bench_buf *b, int pattern)
{
	(void)pattern;                  /* one key pair: the patterns do not apply */
	memcpy(b->rp, b->rp0, b->rp_len * 8);
}

static void ecdh_select(struct bench_buf *b, const struct bench_contender *c)
{
	b->cur = c;
	if (c->kind != BK_VARIANT && c->kind != BK_REF)
		return;
	bench_force("p256_mul_mont", c->variant);
	bench_force("p256_sqr_mont", c->variant);
}

static uint64_t ecdh_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	struct bench_ecdh *e = b->ecdh;
	int rc = 0;
	(void)fn;
	if (b->n != 4)
		return 0;
	for (size_t i = 0; i < reps; i++)
		rc |= lf_p256_ecdh((uint8_t *)b->rp, e->scalar, e->point);
	return (uint64_t)(unsigned)rc + b->rp[0];
}

#ifdef BENCH_HAVE_OPENSSL
static uint64_t ossl_derive_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	struct bench_ecdh *e = b->ecdh;
	int bad = 0;
	(void)fn;
	if (b->n != 4)
		return 0;
	for (size_t i = 0; i < reps; i++) {
		size_t len = 32;
		bad |= EVP_PKEY_derive(e->ctx, (unsigned char *)b->rp, &len) <= 0 || len != 32;
	}
	return (uint64_t)bad + b->rp[0];
}

static uint64_t ossl_kab_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	struct bench_ecdh *e = b->ecdh;
	int bad = 0;
	(void)fn;
	if (b->n != 4)
		return 0;
	for (size_t i = 0; i < reps; i++) {
		size_t len = 32;
		bad |= EVP_PKEY_derive_init(e->ctx2) <= 0 ||
		       EVP_PKEY_derive_set_peer(e->ctx2, e->peer) <= 0 ||
		       EVP_PKEY_derive(e->ctx2, (unsigned char *)b->rp, &len) <= 0 || len != 32;
	}
	return (uint64_t)bad + b->rp[0];
}
#endif

static const char *ecdh_verify(const struct bench_buf *b)
{
	if (b->n != 4)
		return NULL;
	return memcmp(b->rp, rfc_gir, 32) == 0 ? NULL
	       : "shared x differs from RFC 5903 8.1's g^ir";
}

static const size_t ecdh_sizes[] = { 4, 0 };
static const size_t ecdh_check_sizes[] = { 0, 4, 0 };

const struct bench_driver bench_ecdh_driver = {
	.name = "p256_ecdh", .kernel = "p256_mul_mont", .unit = "limb",
	.jmh = "KeyAgreementBench (ECDH, secp256r1)",
	.title = "lf_p256_ecdh: x(k P) with decoding and validating P, an existing key pair "
	         "(RFC 5903 8.1), p256_mul_mont and p256_sqr_mont both forced to the variant; "
	         "peers: OpenSSL EVP_PKEY_derive on a prepared context (xOpenSSL), and "
	         "derive_init + set_peer + derive per op as KeyAgreementBench (xOSSLkab); "
	         "ops/s = 1e9 / ns/op",
	.sizes = ecdh_sizes, .check_sizes = ecdh_check_sizes, .variant_batch = ecdh_batch,
	.peers = {
#ifdef BENCH_HAVE_OPENSSL
		{ .name = "openssl~derive", .column = "OpenSSL", .key = "openssl", .kind = BK_PEER,
		  .batch = ossl_derive_batch },
		{ .name = "openssl~kab", .column = "OSSLkab", .key = "openssl_kab", .kind = BK_PEER,
		  .batch = ossl_kab_batch },
#endif
	},
	.alloc = ecdh_alloc, .reset = bench_buf_reset, .same_output = bench_same_rp,
	.select = ecdh_select, .verify = ecdh_verify,
};
