/*
 * kat.c -- the example consumer's known-answer check: every public kernel once, at sizes that
 * reach the vector paths, against closed forms (B = 2^64 or 2^32):
 *   (B^n - 1)^2 = B^2n - 2 B^n + 1        digits 1, 0 x (n-1), B-2, B-1 x (n-1)
 *   (B^L - 1) + (B^L - 1)(B - 1) = (B^L - 1) B     window B^L - B, carry B - 1
 *   (B^n - 1)(B - 1) = B^(n+1) - B^n - B + 1      low limbs 1, B-1 x (n-1), high B-2
 * Fault caught: a build from generated/ + runtime/ alone that links but computes wrong
 * (missing kernel file, wrong defines, wrong flavour).  Exit status 0 when all agree.
 */
#include <stdio.h>

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

	printf("  variants: %s %s %s %s %s\n", lf_impl("mpn_mul_1"), lf_impl("mpn_addmul_1"),
	       lf_impl("mpn_sqr"), lf_impl("bi_mul_add"), lf_impl("bi_square_to_len"));
	return failures != 0;
}
