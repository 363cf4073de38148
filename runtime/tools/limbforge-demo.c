/*
 * limbforge-demo -- smoke demo run by `make gen`: known answers through the public API (the
 * limb and BigInteger kernels, Karatsuba, Poly1305, X25519, X448, P-256 ECDH), with whatever
 * variants the dispatcher chose (try LIMBFORGE_CPU=none for ref).
 * Exit status 0 when all agree.
 *
 * (2^64-1) * (2^64-1) = 2^128 - 2^65 + 1: high limb 2^64-2, low limb 1.
 */
#include <stdio.h>
#include <string.h>

#include "limbforge.h"

static int failures;

/* hex digits (big-endian text) into n bytes in text order */
static void unhex(uint8_t *out, const char *hex, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

static void expect(const char *what, int ok)
{
	printf("  %-46s %s\n", what, ok ? "ok" : "FAILED");
	failures += !ok;
}

int main(void)
{
	uint64_t a[4] = { ~0ull, ~0ull, ~0ull, ~0ull }, r[8];

	printf("limbforge demo: every kernel through the dispatcher (expected values from Python\n"
	       "integers or closed forms)\n");
	uint64_t hi = lf_mpn_mul_1(r, a, 1, ~0ull);
	printf("  variants: mpn_mul_1 = %s, mpn_addmul_1 = %s, mpn_sqr = %s,\n"
	       "            bi_mul_add = %s, bi_square_to_len = %s\n", lf_impl("mpn_mul_1"),
	       lf_impl("mpn_addmul_1"), lf_impl("mpn_sqr"), lf_impl("bi_mul_add"),
	       lf_impl("bi_square_to_len"));
	expect("mpn_mul_1: (2^64-1)^2", hi == ~0ull - 1 && r[0] == 1);
	/* P = (2^256-1)*(2^64-1): {r,4} = P mod 2^256, hi = P >> 256 = 2^64-2; then
	 * {r,4} + P = 2^320 - 2^65 + 2 - 2^256 + ... : limbs 2, 2^64-2, 2^64-1, 2^64-1,
	 * carry 2^64-1 (computed with Python integers) */
	hi = lf_mpn_mul_1(r, a, 4, ~0ull);
	uint64_t hi2 = lf_mpn_addmul_1(r, a, 4, ~0ull);
	expect("mpn_addmul_1: (P mod 2^256) + P",
	       r[0] == 2 && r[1] == ~0ull - 1 && r[2] == ~0ull && r[3] == ~0ull &&
	       hi == ~0ull - 1 && hi2 == ~0ull);

	uint64_t s3[3] = { ~0ull, 0x0123456789abcdefull, 1ull << 63 }, sq[6];
	static const uint64_t sq_exp[6] = { 0x1, 0xfdb97530eca86420, 0xdeec6cd7a44a40ff,
	                                    0x14b66dc33f6ab, 0x123456789abcdf0,
	                                    0x4000000000000000 };
	lf_mpn_sqr(sq, s3, 3);
	expect("mpn_sqr: 3 limbs", memcmp(sq, sq_exp, sizeof sq) == 0);

	/* BigInteger: out = {1,2,3,4}, window out[1..2] += {ffffffff,ffffffff} * ffffffff */
	uint32_t out[4] = { 1, 2, 3, 4 }, in[2] = { 0xffffffffu, 0xffffffffu };
	uint32_t c = lf_bi_mul_add(out, 4, in, 1, 2, 0xffffffffu);
	expect("bi_mul_add: window + (2^64-1)(2^32-1)",
	       c == 0xffffffffu && out[0] == 1 && out[1] == 1 && out[2] == 4 && out[3] == 4);

	uint32_t x[3] = { 0xfedcba98, 0x76543210, 0xf0e1d2c3 }, z[6];
	static const uint32_t z_exp[6] = { 0xfdbac097, 0xc8dc5ace, 0xbe8bee5b, 0xe88e8545,
	                                   0x492eb6c1, 0xc84a8089 };
	lf_bi_square_to_len(x, 3, z);
	expect("bi_square_to_len: 3 words (odd length)", memcmp(z, z_exp, sizeof z) == 0);

	/* Sizes that reach the vector paths, with closed forms (B = 2^64 or 2^32):
	 *   (B^n - 1)^2 = B^2n - 2 B^n + 1: digits 1, 0 (n-1 times), B-2, B-1 (n-1 times)
	 *   (B^L - 1) + (B^L - 1)(B - 1) = (B^L - 1) B: window B^L - B, carry B - 1 */
	enum { N = 32, L = 64, Q = 63 };
	uint64_t big[N], sq2[2 * N];
	uint32_t w[L], inw[L], xq[Q], zq[2 * Q];
	int ok = 1;
	for (int i = 0; i < N; i++)
		big[i] = ~0ull;
	lf_mpn_sqr(sq2, big, N);
	for (int i = 0; i < 2 * N; i++)
		ok &= sq2[i] == (i == 0 ? 1 : i < N ? 0 : i == N ? ~0ull - 1 : ~0ull);
	expect("mpn_sqr: (2^2048-1)^2", ok);
	for (int i = 0; i < L; i++)
		w[i] = inw[i] = 0xffffffffu;
	c = lf_bi_mul_add(w, L, inw, 0, L, 0xffffffffu);
	ok = c == 0xffffffffu && w[L - 1] == 0;
	for (int i = 0; i < L - 1; i++)
		ok &= w[i] == 0xffffffffu;
	expect("bi_mul_add: 64 words, every carry rippling", ok);
	for (int i = 0; i < Q; i++)
		xq[i] = 0xffffffffu;
	lf_bi_square_to_len(xq, Q, zq);
	ok = 1;
	for (int i = 0; i < 2 * Q; i++)    /* BE: index 0 most significant */
		ok &= zq[i] == (i < Q - 1 ? 0xffffffffu : i == Q - 1 ? 0xfffffffeu :
		                i < 2 * Q - 1 ? 0 : 1);
	expect("bi_square_to_len: (2^2016-1)^2", ok);

	/* Poly1305: RFC 8439 section 2.5.2, and 1000 bytes i*131+7 under the key bytes
	 * 0xa5 ^ 29 i in two updates (62 whole blocks: the vector path; tag from a Python
	 * Poly1305 written from the RFC) */
	static const uint8_t rfc_key[32] = {
		0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5,
		0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf,
		0x41, 0x49, 0xf5, 0x1b };
	static const uint8_t rfc_tag[16] = {
		0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01,
		0x27, 0xa9 };
	static const uint8_t long_tag[16] = {
		0x5d, 0x81, 0x5f, 0xfc, 0x71, 0x74, 0x2e, 0xe9, 0xf0, 0x80, 0x66, 0x00, 0x87, 0xef,
		0x4a, 0x3b };
	static uint8_t msg[1000];
	uint8_t key[32], tag[16];
	const char *rfc_msg = "Cryptographic Forum Research Group";
	printf("  variant: poly1305_blocks = %s\n", lf_impl("poly1305_blocks"));
	lf_poly1305(tag, (const uint8_t *)rfc_msg, strlen(rfc_msg), rfc_key);
	expect("poly1305: RFC 8439 2.5.2", memcmp(tag, rfc_tag, 16) == 0);
	for (int i = 0; i < 1000; i++)
		msg[i] = (uint8_t)(i * 131 + 7);
	for (int i = 0; i < 32; i++)
		key[i] = (uint8_t)(0xa5 ^ (i * 29));
	lf_poly1305_state st;
	lf_poly1305_init(&st, key);
	lf_poly1305_update(&st, msg, 7);
	lf_poly1305_update(&st, msg + 7, sizeof msg - 7);
	lf_poly1305_final(&st, tag);
	expect("poly1305: 1000 bytes in two updates", memcmp(tag, long_tag, 16) == 0);

	/* Karatsuba and the BigInteger limb path, closed forms: (B^n - 1)^2 as above */
	enum { M = 130, W = 64 };
	static uint64_t ones[M], prod[2 * M];
	static uint32_t xw[W], zw[2 * W];
	for (int i = 0; i < M; i++)
		ones[i] = ~0ull;
	lf_mpn_mul(prod, ones, M, ones, M);
	ok = 1;
	for (int i = 0; i < 2 * M; i++)
		ok &= prod[i] == (i == 0 ? 1 : i < M ? 0 : i == M ? ~0ull - 1 : ~0ull);
	printf("  variants: mpn_mul = %s, bi_multiply_to_len = %s\n", lf_impl("mpn_mul"),
	       lf_impl("bi_multiply_to_len"));
	expect("lf_mpn_mul: (2^8320-1)^2 (Karatsuba)", ok);
	for (int i = 0; i < W; i++)
		xw[i] = 0xffffffffu;
	lf_bi_multiply_to_len(xw, W, xw, W, zw);
	ok = 1;
	for (int i = 0; i < 2 * W; i++)    /* BE */
		ok &= zw[i] == (i < W - 1 ? 0xffffffffu : i == W - 1 ? 0xfffffffeu :
		                i < 2 * W - 1 ? 0 : 1);
	expect("bi_multiply_to_len: (2^2048-1)^2", ok);

	/* X25519 / X448: RFC 7748 section 5.2, first vectors; P-256 ECDH: RFC 5903 section 8.1
	 * (i * g^r, the shared x) */
	uint8_t k56[56], u56[56], o56[56], want[56], pt[65];
	printf("  variants: x25519_ladder = %s, x448_ladder = %s, p256_mul_mont = %s\n",
	       lf_impl("x25519_ladder"), lf_impl("x448_ladder"), lf_impl("p256_mul_mont"));
	unhex(k56, "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4", 32);
	unhex(u56, "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c", 32);
	unhex(want, "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552", 32);
	expect("x25519: RFC 7748 5.2", lf_x25519(o56, k56, u56) == 0 && !memcmp(o56, want, 32));
	unhex(k56, "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121"
	           "700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3", 56);
	unhex(u56, "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9"
	           "814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086", 56);
	unhex(want, "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239f"
	            "e14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f", 56);
	expect("x448: RFC 7748 5.2", lf_x448(o56, k56, u56) == 0 && !memcmp(o56, want, 56));
	unhex(k56, "C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433", 32);
	unhex(pt, "04D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63"
	          "56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB", 65);
	unhex(want, "D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE", 32);
	expect("p256_ecdh: RFC 5903 8.1", lf_p256_ecdh(o56, k56, pt) == 0 && !memcmp(o56, want, 32));
	return failures ? 1 : 0;
}
