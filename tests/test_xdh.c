/*
 * test_xdh.c -- lf_x25519 and lf_x448 (RFC 7748, runtime/xdh.c on the generated field
 * kernels) against RFC 7748's vectors (5.2 single and iterated, 6.1 / 6.2), Python-integer
 * known answers (tests/kat/gen_xdh.py, both architectures) and, on the host, OpenSSL's
 * EVP_PKEY_derive (X25519, X448) and libsodium's crypto_scalarmult (X25519).
 *
 * Every test runs twice: on the library's lf_x25519 / lf_x448 (5 x 51 / 8 x 56-bit fields where
 * the compiler has __int128) and on runtime/xdh.c built again as a compiler without __int128
 * builds it (the 10 x 26 / 16 x 28-bit fields; tests/tests.mk, xdh_narrow.o).
 *
 * Faults this is designed to catch:
 *   - a wrong ladder, swap, inversion or encoding: RFC 5.2 vectors, the iterated vector after
 *     1 and 1,000 iterations (1,000,000 with LF_TEST_XDH_MILLION=1, host only: minutes);
 *     Diffie-Hellman keys of RFC 6.1 / 6.2 both ways; random keys against two libraries;
 *   - u of small order not giving all zeros with LF_XDH_EZERO (0, 1, the order-8 points,
 *     p - 1, p, p + 1, with bit 255 set too), or LF_XDH_EZERO for a non-zero output;
 *   - non-canonical u (u >= p; bit 255 of an X25519 u) not treated as u mod p / u without
 *     bit 255 (RFC 7748 5: "MUST mask", values >= p accepted);
 *   - clamping done in the caller's buffer (the scalar must not change), or not done (the
 *     cleared / set bits of the scalar must not change the answer);
 *   - out aliasing the scalar or the point broken (allowed: the inputs are copied first);
 *     reads beyond the 32 / 56 input bytes (they end at a PROT_NONE page), writes beyond out.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "lf_fields.h"
#include "xdh_vectors.h"

#if defined(LF_TEST_OPENSSL)
#include <openssl/evp.h>
#endif
#if defined(LF_TEST_SODIUM)
#include <sodium.h>
#endif

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

typedef int (*xdh_fn)(uint8_t *, const uint8_t *, const uint8_t *);

struct curve {
	const char *name;
	size_t n;
	xdh_fn fn;
	uint8_t base;
};
/* runtime/xdh.c built again as without __int128 (tests/tests.mk: xdh_narrow.o): the same
 * functions on the 10 x 26 / 16 x 28-bit fields */
int lf_test_x25519_narrow(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32]);
int lf_test_x448_narrow(uint8_t out[56], const uint8_t scalar[56], const uint8_t point[56]);

/* [narrow][448] */
static const struct curve curves[2][2] = {
	{ { "X25519", 32, lf_x25519, 9 }, { "X448", 56, lf_x448, 5 } },
	{ { "X25519 (10 x 26 fields)", 32, lf_test_x25519_narrow, 9 },
	  { "X448 (16 x 28 fields)", 56, lf_test_x448_narrow, 5 } },
};
/* loop index -> curve: 0 X25519, 1 X448, 2 and 3 the same on the narrow fields */
#define CURVE(i) (&curves[(i) / 2][(i) % 2])

static void unhex(uint8_t *out, const char *h)
{
	for (size_t i = 0; h[2 * i]; i++) {
		unsigned v;
		ck_assert(sscanf(h + 2 * i, "%2x", &v) == 1);
		out[i] = (uint8_t)v;
	}
}

static void hex(char *buf, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(buf + 2 * i, "%02x", b[i]);
}

enum alias { AL_NONE, AL_SCALAR, AL_POINT };

/* one call on guarded copies: rc and out as wanted, inputs unchanged, nothing outside */
static void xdh_call(const struct curve *c, const uint8_t *k, const uint8_t *u, int want_rc,
                     const uint8_t *want, enum alias al, const char *what)
{
	struct gbuf gk, gu, go;
	char hg[113], hw[113];
	size_t n = c->n;
	uint8_t *kb = gb_alloc(&gk, n, GB_END, 0), *ub = gb_alloc(&gu, n, GB_END, 0);
	uint8_t *ob = gb_alloc(&go, n, GB_MID, 0);
	memcpy(kb, k, n), memcpy(ub, u, n);
	memset(ob, 0xa5, n);
	uint8_t *out = al == AL_SCALAR ? kb : al == AL_POINT ? ub : ob;
	crash_note(c->name, what, n);
	int rc = c->fn(out, kb, ub);
	if (memcmp(out, want, n) != 0) {
		hex(hg, out, n), hex(hw, want, n);
		ck_abort_msg("%s %s%s: out %s, want %s", c->name, what,
		             al == AL_SCALAR ? " (out == scalar)" : al == AL_POINT ? " (out == point)"
		             : "", hg, hw);
	}
	ck_assert_msg(rc == want_rc, "%s %s: returned %d, want %d", c->name, what, rc, want_rc);
	ASSERT_CANARIES(&gk, c->name, "scalar", what);
	ASSERT_CANARIES(&gu, c->name, "point", what);
	ASSERT_CANARIES(&go, c->name, "out", what);
	if (al != AL_SCALAR)
		ck_assert_msg(memcmp(kb, k, n) == 0, "%s %s: the scalar was modified (clamped in "
		              "place?)", c->name, what);
	if (al != AL_POINT)
		ck_assert_msg(memcmp(ub, u, n) == 0, "%s %s: the point was modified", c->name, what);
	if (al != AL_NONE)
		for (size_t i = 0; i < n; i++)
			ck_assert_msg(ob[i] == 0xa5, "%s %s: unused out written", c->name, what);
	gb_free(&gk), gb_free(&gu), gb_free(&go);
}

static const struct curve *kat_curve(const struct kat_xdh *v, int narrow)
{
	return &curves[narrow][v->curve == 448];
}

/* RFC 7748 5.2, as printed in the RFC (the KAT generator checks itself against the same) */
START_TEST(test_xdh_rfc)
{
	static const char *const v[][4] = {
		{ "25519", "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
		  "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
		  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" },
		{ "25519", "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
		  "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
		  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" },
		{ "448", "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121"
		         "700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
		  "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9"
		  "814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
		  "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239f"
		  "e14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f" },
		{ "448", "203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c5"
		         "38345dd77c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
		  "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b"
		  "165d015894e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
		  "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7"
		  "ad1b3ee3a5700df34321d62077e63633c575c1c954514e99da7c179d" },
	};
	uint8_t k[56], u[56], o[56];
	for (size_t i = 0; i < NLEN(v); i++) {
		const struct curve *c = &curves[_i][strcmp(v[i][0], "448") == 0];
		unhex(k, v[i][1]), unhex(u, v[i][2]), unhex(o, v[i][3]);
		for (int al = AL_NONE; al <= AL_POINT; al++)
			xdh_call(c, k, u, 0, o, (enum alias)al, "RFC 7748 5.2");
	}
}
END_TEST

/* RFC 7748 5.2: k = u = base; k, u = X(k, u), k; after 1, 1,000 (and 1,000,000) */
START_TEST(test_xdh_iterated)
{
	static const char *const want[2][3] = {
		{ "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079",
		  "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51",
		  "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424" },
		{ "3f482c8a9f19b01e6c46ee9711d9dc14fd4bf67af30765c2ae2b846a"
		  "4d23a8cd0db897086239492caf350b51f833868b9bc2b3bca9cf4113",
		  "aa3b4749d55b9daf1e5b00288826c467274ce3ebbdd5c17b975e09d4"
		  "af6c67cf10d087202db88286e2b79fceea3ec353ef54faa26e219f38",
		  "077f453681caca3693198420bbe515cae0002472519b3e67661a7e89"
		  "cab94695c8f4bcd66e61b9b9c946da8d524de3d69bd9d9d66b997e37" },
	};
	const struct curve *c = CURVE(_i);
	const char *e = getenv("LF_TEST_XDH_MILLION");
	int million = e && atoi(e) > 0 && _i < 2;        /* the library's own fields */
	uint8_t k[56] = { 0 }, u[56] = { 0 }, r[56], w[56];
	char hg[113];
	k[0] = u[0] = c->base;
	long iters = million ? 1000000 : 1000;
#if !defined(LF_TEST_OPENSSL)
	if (_i >= 2)
		iters = 1;            /* under qemu: the narrow build's 1,000 run on the host only */
#endif
	for (long i = 1; i <= iters; i++) {
		ck_assert_int_eq(c->fn(r, k, u), 0);
		memcpy(u, k, c->n);
		memcpy(k, r, c->n);
		int slot = i == 1 ? 0 : i == 1000 ? 1 : i == 1000000 ? 2 : -1;
		if (slot < 0)
			continue;
		unhex(w, want[_i % 2][slot]);
		hex(hg, k, c->n);
		ck_assert_msg(memcmp(k, w, c->n) == 0, "%s after %ld iterations: %s, want %s",
		              c->name, i, hg, want[_i % 2][slot]);
	}
	if (!million && _i == 3)
		printf("xdh: the 1,000,000-iteration vectors are skipped (LF_TEST_XDH_MILLION=1 "
		       "runs them: minutes)\n");
}
END_TEST

/* the Python known answers: RFC 6.1 / 6.2, small order, non-canonical u, random keys */
START_TEST(test_xdh_kat)
{
	unsigned small = 0;
	for (size_t i = 0; i < NLEN(kat_xdh); i++) {
		const struct kat_xdh *v = &kat_xdh[i];
		const struct curve *c = kat_curve(v, _i);
		xdh_call(c, v->scalar, v->u, v->rc, v->out, AL_NONE, v->what);
		if (i % 5 == 0)
			xdh_call(c, v->scalar, v->u, v->rc, v->out, (enum alias)(1 + i / 5 % 2), v->what);
		small += v->rc != 0;
	}
	ck_assert_msg(small >= 40, "the KAT has only %u small-order cases", small);
}
END_TEST

/* non-canonical u against the same u reduced (this library both times), and clamping */
START_TEST(test_xdh_clamp_noncanonical)
{
	const struct curve *c = CURVE(_i);
	size_t n = c->n;
	uint8_t k[56], k2[56], u[56], u2[56], r1[56];
	rng_t rng;
	rng_init(&rng, "xdh_clamp", (uint64_t)_i);
	for (int t = 0; t < 24; t++) {
		for (size_t i = 0; i < n; i++)
			k[i] = (uint8_t)rng_next(&rng), u[i] = (uint8_t)rng_next(&rng);
		if (n == 32)
			u[31] &= 0x7f;
		else
			u[55] = 0;                          /* below p */
		int rc = c->fn(r1, k, u);
		ck_assert_int_eq(rc, 0);
		/* the clamped bits do not matter */
		memcpy(k2, k, n);
		k2[0] ^= n == 32 ? 7 : 3;
		k2[n - 1] ^= n == 32 ? 0xc0 : 0x80;
		xdh_call(c, k2, u, 0, r1, (enum alias)(t % 3), "scalar with the clamped bits flipped");
		/* bit 255 of an X25519 u is ignored; u + p (X448: when it fits) is u */
		memcpy(u2, u, n);
		if (n == 32) {
			u2[31] |= 0x80;
			xdh_call(c, k, u2, 0, r1, AL_NONE, "u with bit 255 set");
		} else {
			/* u < 2^224, so that u + p < 2^448; p = 2^448 - 2^224 - 1: bytes 0xff but
			 * byte 28 (bit 224), 0xfe */
			unsigned carry = 0;
			memset(u + 28, 0, 28);
			c->fn(r1, k, u);
			for (size_t i = 0; i < 56; i++) {
				unsigned s = u[i] + (i == 28 ? 0xfeu : 0xffu) + carry;
				u2[i] = (uint8_t)s;
				carry = s >> 8;
			}
			ck_assert(carry == 0);
			xdh_call(c, k, u2, 0, r1, AL_NONE, "u + p");
		}
	}
}
END_TEST

#if defined(LF_TEST_OPENSSL)
static void ossl_derive(uint8_t *out, const struct curve *c, const uint8_t *k, const uint8_t *u)
{
	int id = c->n == 32 ? EVP_PKEY_X25519 : EVP_PKEY_X448;
	EVP_PKEY *mine = EVP_PKEY_new_raw_private_key(id, NULL, k, c->n);
	EVP_PKEY *peer = EVP_PKEY_new_raw_public_key(id, NULL, u, c->n);
	EVP_PKEY_CTX *ctx = mine ? EVP_PKEY_CTX_new(mine, NULL) : NULL;
	size_t len = c->n;
	ck_assert_msg(ctx && peer && EVP_PKEY_derive_init(ctx) > 0 &&
	              EVP_PKEY_derive_set_peer(ctx, peer) > 0 && EVP_PKEY_derive(ctx, out, &len) > 0
	              && len == c->n, "OpenSSL %s derive failed", c->name);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(mine);
	EVP_PKEY_free(peer);
}
#endif

/* random keys against OpenSSL (both curves) and libsodium (X25519), host only */
START_TEST(test_xdh_libraries)
{
#if defined(LF_TEST_OPENSSL) || defined(LF_TEST_SODIUM)
	const struct curve *c = CURVE(_i);
	size_t n = c->n;
	uint8_t k[56], u[56], want[56], o[56];
	rng_t rng;
	rng_init(&rng, "xdh_libraries", (uint64_t)_i);
	const char *e = getenv("LF_TEST_XDH_RANDOM");
	long count = e ? atol(e) : _i < 2 ? 300 : 100;
	for (long t = 0; t < count; t++) {
		for (size_t i = 0; i < n; i++)
			k[i] = (uint8_t)rng_next(&rng), u[i] = (uint8_t)rng_next(&rng);
		if (t % 3 == 0) {                          /* a public key: base point */
			memset(u, 0, n);
			u[0] = c->base;
		}
		if (n == 56)
			u[55] &= 0x7f;                     /* u < p: the non-canonical ones are in the KAT */
		int have = 0;
#if defined(LF_TEST_OPENSSL)
		ossl_derive(want, c, k, u);
		have = 1;
#endif
#if defined(LF_TEST_SODIUM)
		if (n == 32) {
			ck_assert(sodium_init() >= 0);
			ck_assert_msg(crypto_scalarmult(o, k, u) == 0, "libsodium refused a random key");
			if (have)
				ck_assert_msg(memcmp(o, want, 32) == 0, "OpenSSL and libsodium disagree");
			memcpy(want, o, 32);
			have = 1;
		}
#endif
		if (!have)
			continue;
		xdh_call(c, k, u, 0, want, (enum alias)(t % 3), "random key");
	}
#else
	if (_i == 0)
		printf("xdh: SKIP OpenSSL/libsodium oracles (not in this build: AArch64 under qemu)\n");
#endif
}
END_TEST

Suite *suite_xdh(void)
{
	Suite *s = suite_create("xdh");
	TCase *tc = tcase_create("xdh");
	printf("xdh: lf_x25519, lf_x448 on %s; oracles: RFC 7748, Python KAT (%zu vectors)%s%s\n",
	       LF_FE_WIDE ? "5 x 51 / 8 x 56 limbs" : "10 x 26 / 16 x 28 limbs", NLEN(kat_xdh),
#if defined(LF_TEST_OPENSSL)
	       ", OpenSSL EVP_PKEY_derive",
#else
	       "",
#endif
#if defined(LF_TEST_SODIUM)
	       ", libsodium crypto_scalarmult"
#else
	       ""
#endif
	);
	const char *e = getenv("LF_TEST_XDH_MILLION");
	/* 1,000,000 X448 calls take ~6.5 min on the host: past Check's 300 s */
	tcase_set_timeout(tc, e && atoi(e) > 0 ? 4 * 3600 : LF_TEST_TIMEOUT);
	tcase_add_loop_test(tc, test_xdh_rfc, 0, 2);               /* wide, narrow fields */
	tcase_add_loop_test(tc, test_xdh_kat, 0, 2);
	tcase_add_loop_test(tc, test_xdh_iterated, 0, 4);          /* X25519, X448 x wide, narrow */
	tcase_add_loop_test(tc, test_xdh_clamp_noncanonical, 0, 4);
	tcase_add_loop_test(tc, test_xdh_libraries, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
