/*
 * kat.c -- the example consumer's known-answer check: every public kernel once, at sizes that
 * reach the vector paths, against closed forms (B = 2^64 or 2^32):
 *   (B^n - 1)^2 = B^2n - 2 B^n + 1        digits 1, 0 x (n-1), B-2, B-1 x (n-1)
 *   (B^L - 1) + (B^L - 1)(B - 1) = (B^L - 1) B     window B^L - B, carry B - 1
 *   (B^n - 1)(B - 1) = B^(n+1) - B^n - B + 1      low limbs 1, B-1 x (n-1), high B-2
 * and Poly1305 tags: RFC 8439 section 2.5.2, and 1000 bytes i*131+7 under the key bytes
 * 0xa5 ^ 29 i (the tag computed by a Python Poly1305 written from the RFC; 62 blocks reach
 * the vector paths).
 * Fault caught: a build from generated/ + runtime/ alone that links but computes wrong
 * (missing kernel file, wrong defines, wrong flavour).  Exit status 0 when all agree.
 */
#include <stdio.h>
#include <string.h>

#include "limbforge.h"

static int failures;

static void expect(const char *what, int ok)
{
	printf("  %-44s %s\n", what, ok ? "ok" : "FAILED");
	failures += !ok;
}

int main(void)
{
	enum { N = 40, L = 70 };
	uint64_t a[N], r[2 * N];
	uint32_t w[L], x[L], z[2 * L];
	int ok;

	for (int i = 0; i < N; i++)
		a[i] = ~0ull;
	lf_mpn_sqr(r, a, N);
	ok = 1;
	for (int i = 0; i < 2 * N; i++)
		ok &= r[i] == (i == 0 ? 1 : i < N ? 0 : i == N ? ~0ull - 1 : ~0ull);
	expect("mpn_sqr (2^2560-1)^2", ok);

	uint64_t hi = lf_mpn_mul_1(r, a, N, ~0ull);
	ok = hi == ~0ull - 1 && r[0] == 1;
	for (int i = 1; i < N; i++)
		ok &= r[i] == ~0ull;
	expect("mpn_mul_1 (2^2560-1)(2^64-1)", ok);

	for (int i = 0; i < N; i++)
		r[i] = ~0ull;
	hi = lf_mpn_addmul_1(r, a, N, ~0ull);      /* (B^N-1) + (B^N-1)(B-1) = (B^N-1) B */
	ok = hi == ~0ull && r[0] == 0;
	for (int i = 1; i < N; i++)
		ok &= r[i] == ~0ull;
	expect("mpn_addmul_1 carries through 40 limbs", ok);

	for (int i = 0; i < L; i++)
		w[i] = x[i] = 0xffffffffu;
	uint32_t c = lf_bi_mul_add(w, L, x, 0, L, 0xffffffffu);
	ok = c == 0xffffffffu && w[L - 1] == 0;
	for (int i = 0; i < L - 1; i++)
		ok &= w[i] == 0xffffffffu;
	expect("bi_mul_add 70 words", ok);

	lf_bi_square_to_len(x, L - 1, z);           /* odd length: (2^2208-1)^2 */
	ok = 1;
	for (int i = 0; i < 2 * (L - 1); i++)
		ok &= z[i] == (i < L - 2 ? 0xffffffffu : i == L - 2 ? 0xfffffffeu :
		               i < 2 * (L - 1) - 1 ? 0u : 1u);
	expect("bi_square_to_len 69 words", ok);

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
	lf_poly1305(tag, (const uint8_t *)rfc_msg, strlen(rfc_msg), rfc_key);
	expect("poly1305 RFC 8439 2.5.2", memcmp(tag, rfc_tag, 16) == 0);
	for (int i = 0; i < 1000; i++)
		msg[i] = (uint8_t)(i * 131 + 7);
	for (int i = 0; i < 32; i++)
		key[i] = (uint8_t)(0xa5 ^ (i * 29));
	lf_poly1305_state st;
	lf_poly1305_init(&st, key);
	lf_poly1305_update(&st, msg, 7);
	lf_poly1305_update(&st, msg + 7, 1000 - 7);
	lf_poly1305_final(&st, tag);
	expect("poly1305 1000 bytes in two updates", memcmp(tag, long_tag, 16) == 0);

	printf("  variants: %s %s %s %s %s %s\n", lf_impl("mpn_mul_1"), lf_impl("mpn_addmul_1"),
	       lf_impl("mpn_sqr"), lf_impl("bi_mul_add"), lf_impl("bi_square_to_len"),
	       lf_impl("poly1305_blocks"));
	return failures != 0;
}
