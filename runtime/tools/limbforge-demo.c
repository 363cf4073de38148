/*
 * limbforge-demo -- smoke demo run by `make gen`: a few known answers through the public API
 * with whatever variants the dispatcher chose.  Exit status 0 when all agree.
 *
 * (2^64-1) * (2^64-1) = 2^128 - 2^65 + 1: high limb 2^64-2, low limb 1.
 */
#include <stdio.h>
#include <string.h>

#include "limbforge.h"

static int failures;

static void expect(const char *what, int ok)
{
	printf("  %-46s %s\n", what, ok ? "ok" : "FAILED");
	failures += !ok;
}

int main(void)
{
	uint64_t a[4] = { ~0ull, ~0ull, ~0ull, ~0ull }, r[8];

	printf("limbforge demo (mpn_mul_1: %s, mpn_addmul_1: %s)\n", lf_impl("mpn_mul_1"),
	       lf_impl("mpn_addmul_1"));
	uint64_t hi = lf_mpn_mul_1(r, a, 1, ~0ull);
	expect("mpn_mul_1: (2^64-1)^2", hi == ~0ull - 1 && r[0] == 1);
	/* P = (2^256-1)*(2^64-1): {r,4} = P mod 2^256, hi = P >> 256 = 2^64-2; then
	 * {r,4} + P = 2^320 - 2^65 + 2 - 2^256 + ... : limbs 2, 2^64-2, 2^64-1, 2^64-1,
	 * carry 2^64-1 (computed with Python integers) */
	hi = lf_mpn_mul_1(r, a, 4, ~0ull);
	uint64_t hi2 = lf_mpn_addmul_1(r, a, 4, ~0ull);
	expect("mpn_addmul_1: (P mod 2^256) + P",
	       r[0] == 2 && r[1] == ~0ull - 1 && r[2] == ~0ull && r[3] == ~0ull &&
	       hi == ~0ull - 1 && hi2 == ~0ull);
	return failures ? 1 : 0;
}
