/*
 * main.c -- two copies of limbforge built with different prefixes live in one program: they
 * link without clashes, compute right, and keep separate dispatch state (masking one copy's
 * CPU features leaves the other's choice alone).
 * Fault caught: a symbol the prefix misses (duplicate definitions at link time, or one copy
 * silently calling into the other).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

uint64_t a_addmul_1(uint64_t *, const uint64_t *, size_t, uint64_t);
uint64_t b_addmul_1(uint64_t *, const uint64_t *, size_t, uint64_t);
void a_sqr(uint64_t *, const uint64_t *, size_t);
void b_sqr(uint64_t *, const uint64_t *, size_t);
const char *a_impl(const char *);
const char *b_impl(const char *);
void a_mask(uint64_t);

int main(void)
{
	uint64_t x[20], ra[40], rb[40];
	int bad = 0;

	for (int i = 0; i < 20; i++)
		x[i] = ~0ull;
	a_sqr(ra, x, 20);
	b_sqr(rb, x, 20);
	bad |= memcmp(ra, rb, sizeof ra) || ra[0] != 1 || ra[20] != ~0ull - 1;
	const char *before = b_impl("mpn_sqr");
	a_mask(0);                                   /* copy a: portable ref only */
	printf("copy a: mpn_sqr=%s, copy b: mpn_sqr=%s (was %s)\n", a_impl("mpn_sqr"),
	       b_impl("mpn_sqr"), before);
	bad |= strcmp(a_impl("mpn_sqr"), "ref") != 0 || strcmp(b_impl("mpn_sqr"), before) != 0;
	a_sqr(ra, x, 20);
	bad |= memcmp(ra, rb, sizeof ra) != 0;
	for (int i = 0; i < 20; i++)
		ra[i] = rb[i] = 3;
	bad |= a_addmul_1(ra, x, 20, 5) != b_addmul_1(rb, x, 20, 5) || memcmp(ra, rb, 160);
	printf("two prefixed copies: %s\n", bad ? "FAILED" : "ok");
	return bad;
}
