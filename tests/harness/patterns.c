/*
 * patterns.c -- operands that reach the corners of the arithmetic.
 *
 * Faults this is designed to catch: lost or doubled carries, which random operands almost
 * never provoke.  edge64/edge32 give the limb lattice {0, 1, 2, 2^31, 2^32-1, 2^32, 2^63,
 * 2^64-2, 2^64-1, random}; fill64/fill32be build whole values (all ones, top limb all ones,
 * 0x80..0, 0x7f..f, repeated bytes, sparse, alternating, all ones with one zero limb); the
 * carry solvers choose each input limb so that the carry out of every position is exactly
 * the requested 0, 1, 2 or maximum -- at unroll boundaries and everywhere else.
 */
#include "harness.h"

uint64_t edge64(unsigned i, rng_t *r)
{
	static const uint64_t e[N_EDGE64 - 1] = {
		0, 1, 2, UINT64_C(1) << 31, UINT64_C(0xffffffff), UINT64_C(1) << 32,
		UINT64_C(1) << 63, UINT64_MAX - 1, UINT64_MAX,
	};
	return i < N_EDGE64 - 1 ? e[i] : rng_next(r);
}

uint32_t edge32(unsigned i, rng_t *r)
{
	static const uint32_t e[N_EDGE32 - 1] = {
		0, 1, 2, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu, 0x10000u, 0xffffu,
	};
	return i < N_EDGE32 - 1 ? e[i] : (uint32_t)rng_next(r);
}

const char *pat_name(enum pattern p)
{
	static const char *const n[N_PAT] = {
		"random", "lattice", "all-ones", "top-limb-ones", "0x80..0", "0x7f..f",
		"repeated-byte", "sparse", "alternating", "zero", "one", "ones-with-zero-limb",
	};
	return p < N_PAT ? n[p] : "?";
}

static uint64_t repeated_byte(rng_t *r)
{
	static const uint8_t b[] = { 0x01, 0x55, 0xaa, 0xfe, 0x80, 0x7f, 0xff, 0x10 };
	return (uint64_t)b[rng_next(r) % sizeof b] * UINT64_C(0x0101010101010101);
}

/* Little-endian limbs: index 0 least significant, "top" = a[n-1]. */
void fill64(uint64_t *a, size_t n, enum pattern p, rng_t *r)
{
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		switch (p) {
		case PAT_RANDOM:
		case PAT_TOP_ONES:
			a[i] = rng_next(r);
			break;
		case PAT_LATTICE:
			a[i] = edge64((unsigned)(rng_next(r) % N_EDGE64), r);
			break;
		case PAT_ONES:
		case PAT_7F:
		case PAT_MAXHOLE:
			a[i] = UINT64_MAX;
			break;
		case PAT_BYTES:
			a[i] = i == 0 ? repeated_byte(r) : a[0];
			break;
		case PAT_ALT:
			a[i] = (i & 1) ? 0 : UINT64_MAX;
			break;
		default: /* TOPBIT, SPARSE, ZERO, ONE */
			a[i] = 0;
			break;
		}
	}
	switch (p) {
	case PAT_TOP_ONES:
		a[n - 1] = UINT64_MAX;
		break;
	case PAT_TOPBIT:
		a[n - 1] = UINT64_C(1) << 63;
		break;
	case PAT_7F:
		a[n - 1] = UINT64_MAX >> 1;
		break;
	case PAT_ONE:
		a[0] = 1;
		break;
	case PAT_MAXHOLE:
		a[rng_next(r) % n] = 0;
		break;
	case PAT_SPARSE:
		for (size_t j = 0; j < n / 8 + 1; j++) {
			uint64_t x = rng_next(r);
			a[(x >> 8) % n] |= UINT64_C(1) << (x & 63);
		}
		break;
	default:
		break;
	}
}

/* BE-words: index 0 most significant, "top" = a[0]. */
void fill32be(uint32_t *a, size_t n, enum pattern p, rng_t *r)
{
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		switch (p) {
		case PAT_RANDOM:
		case PAT_TOP_ONES:
			a[i] = (uint32_t)rng_next(r);
			break;
		case PAT_LATTICE:
			/* half the time a 64-bit edge split over two words (high word first) */
			if (i + 1 < n && (rng_next(r) & 1)) {
				uint64_t v = edge64((unsigned)(rng_next(r) % N_EDGE64), r);
				a[i] = (uint32_t)(v >> 32);
				a[++i] = (uint32_t)v;
			} else {
				a[i] = edge32((unsigned)(rng_next(r) % N_EDGE32), r);
			}
			break;
		case PAT_ONES:
		case PAT_7F:
		case PAT_MAXHOLE:
			a[i] = UINT32_MAX;
			break;
		case PAT_BYTES:
			a[i] = i == 0 ? (uint32_t)repeated_byte(r) : a[0];
			break;
		case PAT_ALT:
			a[i] = (i & 1) ? 0 : UINT32_MAX;
			break;
		default:
			a[i] = 0;
			break;
		}
	}
	switch (p) {
	case PAT_TOP_ONES:
		a[0] = UINT32_MAX;
		break;
	case PAT_TOPBIT:
		a[0] = 0x80000000u;
		break;
	case PAT_7F:
		a[0] = 0x7fffffffu;
		break;
	case PAT_ONE:
		a[n - 1] = 1;
		break;
	case PAT_MAXHOLE:
		a[rng_next(r) % n] = 0;
		break;
	case PAT_SPARSE:
		for (size_t j = 0; j < n / 8 + 1; j++) {
			uint64_t x = rng_next(r);
			a[(x >> 8) % n] |= UINT32_C(1) << (x & 31);
		}
		break;
	default:
		break;
	}
}

typedef unsigned __int128 u128;

/* One position of a carry chain: choose x so that (x*m + base) / 2^W == target, W = 64 or 32
 * (all values here fit: x, m < 2^W, base < 2^(W+1) - 1).  Returns the chosen x; *lower_r is
 * set when only lowering the addend can reach a zero target. */
static u128 solve_one(u128 m, u128 base, u128 target, unsigned w, u128 xmax, int *lower_r)
{
	u128 lo;
	*lower_r = 0;
	if (target == (u128)CT_MAX)
		target = (xmax * m + base) >> w;
	lo = target << w;
	if (m == 0 || base >= lo) {
		if ((base >> w) > target)
			*lower_r = 1;
		return 0;
	}
	u128 x = (lo - base + m - 1) / m;
	return x > xmax ? xmax : x;
}

size_t solve_carries64(uint64_t *a, uint64_t *r, size_t n, uint64_t b, const uint64_t *target)
{
	u128 c = 0;
	for (size_t i = 0; i < n; i++) {
		int lower;
		u128 base = (r ? r[i] : 0) + c;
		u128 x = solve_one(b, base, target[i], 64, UINT64_MAX, &lower);
		if (lower && r) {
			r[i] = 0;
			base = c;
			x = solve_one(b, base, target[i], 64, UINT64_MAX, &lower);
		}
		a[i] = (uint64_t)x;
		c = ((u128)a[i] * b + base) >> 64;
	}
	/* recount independently: simulate the chain and compare with the targets */
	size_t hits = 0;
	c = 0;
	for (size_t i = 0; i < n; i++) {
		u128 base = (u128)(r ? r[i] : 0) + c;
		u128 s = (u128)a[i] * b + base;
		u128 want = target[i] == CT_MAX ? ((u128)UINT64_MAX * b + base) >> 64 : target[i];
		c = s >> 64;
		hits += c == want;
	}
	return hits;
}

size_t solve_carries32(uint32_t *in, uint32_t *w, size_t len, uint32_t k, const uint64_t *target)
{
	u128 c = 0;
	for (size_t i = 0; i < len; i++) {
		size_t j = len - 1 - i;
		int lower;
		u128 base = (u128)w[j] + c;
		u128 x = solve_one(k, base, target[i], 32, UINT32_MAX, &lower);
		if (lower) {
			w[j] = 0;
			base = c;
			x = solve_one(k, base, target[i], 32, UINT32_MAX, &lower);
		}
		in[j] = (uint32_t)x;
		c = ((u128)in[j] * k + base) >> 32;
	}
	size_t hits = 0;
	c = 0;
	for (size_t i = 0; i < len; i++) {
		size_t j = len - 1 - i;
		u128 base = (u128)w[j] + c;
		u128 want = target[i] == CT_MAX ? ((u128)UINT32_MAX * k + base) >> 32 : target[i];
		c = ((u128)in[j] * k + base) >> 32;
		hits += c == want;
	}
	return hits;
}
