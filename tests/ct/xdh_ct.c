/*
 * xdh_ct.c -- constant time of the ladder kernels x25519_ladder and x448_ladder (k and u
 * secret) and of fe_c25519_r51_mul_x4 (a and b secret), every variant valgrind can run
 * (TESTING.md 11), and of lf_x25519 / lf_x448 around them (scalar and point secret).
 *
 * Run under valgrind memcheck (tests/ct.mk): the secrets are marked undefined, so memcheck
 * reports every conditional branch and every memory address that depends on them.  Each
 * variant is called directly from lf_kernel_table.  valgrind 3.19 cannot execute AVX-512
 * (its CPUID hides it, and it stops with SIGILL on the instructions), so the `ifma` variants
 * are skipped with the reason printed: they are checked at generation time by
 * gen/lfgen/consttime.py (taint tracking over every emitted instruction).  Inputs: RFC 7748
 * 5.2's vectors (their outputs checked: the program also fails on a wrong answer), scalars
 * clamped from zeros / ones / random, u = 0, 1, p - 1, limbs at the top of the contract's
 * bound, random; x4: random limbs below 2^52, every limb 2^52 - 1, zeros, a == b, r == a.
 * Outside valgrind the client requests do nothing.
 *
 * Fault caught: a ladder that branches on a scalar bit (a swap taken with `if`), skips the
 * leading zero bits, indexes a table by a bit, or a carry or a final reduction resolved by a
 * branch -- in a kernel or in the C around it (lf_x25519 / lf_x448: clamping, decoding,
 * inversion, encoding, the all-zero check).  `--control` runs a deliberately leaky ladder
 * step (a branch on a scalar bit) instead: memcheck must report it.
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "limbforge.h"
#include "ct_cpu.h"
#include "lf_dispatch.h"
#include "lf_fields.h"
#include "lf_kernels.h"
#include "lf_xdh.h"

static void secret(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static void public(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* RFC 7748 5.2, the first vector of each curve */
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

struct curve {
	enum lf_kernel_id kid;
	size_t limbs, nbytes;
	unsigned radix;
	void (*decode)(int64_t *r, const uint8_t *in);
	void (*encode)(uint8_t *out, const int64_t *a);
	void (*mul)(int64_t *r, const int64_t *a, const int64_t *b);
	const uint8_t *k, *u, *out;
	int (*api)(uint8_t *, const uint8_t *, const uint8_t *);
};

static const struct curve curves[] = {
	{ LF_K_x25519_ladder, 5, 32, 51, lf_fe_c25519_r51_decode, lf_fe_c25519_r51_encode,
	  lf_fe_c25519_r51_mul_ref, x25519_k, x25519_u, x25519_out, lf_x25519 },
	{ LF_K_x448_ladder, 9, 56, 50, lf_fe_c448_r50_decode, lf_fe_c448_r50_encode,
	  lf_fe_c448_r50_mul, x448_k, x448_u, x448_out, lf_x448 },
};

static void clamp(const struct curve *c, uint8_t *k)
{
	if (c->nbytes == 32)
		k[0] &= 248, k[31] &= 127, k[31] |= 64;
	else
		k[0] &= 252, k[55] |= 128;
}

/* The control: one ladder step's swap taken with `if` on the scalar bit. */
__attribute__((noinline)) static void leaky(int64_t *x2, int64_t *x3, const uint8_t *k)
{
	for (int t = 7; t >= 0; t--)
		if ((k[0] >> t) & 1) {
			int64_t s = *x2;
			*x2 = *x3;
			*x3 = s;
		}
}

static int skip(const struct lf_kernel *K, const struct lf_variant *V, uint64_t avail)
{
	if (!(V->features & ~avail))
		return 0;
	printf("xdh_ct: SKIP %s/%s: %s; checked at generation time by gen/lfgen/consttime.py\n",
	       K->name, V->name, RUNNING_ON_VALGRIND ? "valgrind cannot run AVX-512 (its CPUID "
	       "hides it)" : "this CPU lacks its features");
	return 1;
}

int main(int argc, char **argv)
{
	uint64_t avail = lf_cpu_features() | cpuinfo_extra();
	unsigned long runs = 0, bad = 0;
	size_t nv = 0;

	if (argc > 1 && strcmp(argv[1], "--control") == 0) {
		uint8_t k[1] = { (uint8_t)rnd() };
		int64_t x2 = 1, x3 = 2;
		secret(k, sizeof k);
		leaky(&x2, &x3, k);
		public(&x2, sizeof x2);
		printf("xdh_ct: control ran (%lld)\n", (long long)x2);
		return 0;
	}
	printf("xdh_ct: %s valgrind\n", RUNNING_ON_VALGRIND ? "under" : "not under");
	for (size_t ci = 0; ci < sizeof curves / sizeof curves[0]; ci++) {
		const struct curve *C = &curves[ci];
		const struct lf_kernel *K = &lf_kernel_table[C->kid];
		size_t n = C->limbs, nb = C->nbytes;
		for (size_t v = 0; v < K->count; v++) {
			const struct lf_variant *V = &K->variants[v];
			if (skip(K, V, avail))
				continue;
			printf("xdh_ct: TEST %s/%s\n", K->name, V->name);
			nv++;
			for (int kind = 0; kind < 6; kind++) {
				_Alignas(32) int64_t tmp[LF_XDH_LADDER_TMP];
				int64_t u[9], xz[18], want[9], l[9], r[9];
				uint8_t k[56], ub[56], bl[56], br[56];
				for (size_t i = 0; i < nb; i++)
					k[i] = kind == 1 ? 0 : kind == 2 ? 0xff : (uint8_t)rnd(),
					ub[i] = (uint8_t)rnd();
				if (kind == 0) {
					memcpy(k, C->k, nb);
					memcpy(ub, C->u, nb);
				}
				clamp(C, k);
				if (nb == 32)
					ub[31] &= 127;
				C->decode(u, ub);
				for (size_t i = 0; i < n; i++)   /* 3: 0, 4: p - 1 = -1, 5: limbs 2^radix */
					u[i] = kind == 3 ? 0 : kind == 5 ? (int64_t)1 << C->radix : u[i];
				if (kind == 4) {        /* p - 1 as bytes, decoded */
					memset(ub, 0xff, nb);
					ub[0] = nb == 32 ? 0xec : 0xfe;
					if (nb == 32)
						ub[31] = 0x7f;
					else
						ub[28] = 0xfe;
					C->decode(u, ub);
				}
				secret(k, nb);
				secret(u, n * 8);
				((lf_x25519_ladder_fn)V->fn)(xz, k, u, tmp);
				public(xz, 2 * n * 8);
				public(k, nb);
				public(u, n * 8);
				public(tmp, sizeof tmp);
				for (size_t i = 0; i < 2 * n; i++)
					bad += xz[i] < 0 || xz[i] >= (int64_t)1 << 52;
				if (kind == 0) {        /* x2 == out z2 mod p */
					int64_t one[9] = { 1 };
					C->decode(want, C->out);
					C->mul(l, xz, one);
					C->mul(r, want, xz + n);
					C->encode(bl, l);
					C->encode(br, r);
					bad += memcmp(bl, br, nb) != 0;
				}
				runs++;
			}
		}
		/* the public function around the ladder (whatever variant the dispatcher takes) */
		for (int kind = 0; kind < 4; kind++) {
			uint8_t k[56], ub[56], out[56];
			for (size_t i = 0; i < nb; i++)
				k[i] = (uint8_t)rnd(), ub[i] = kind == 2 ? 0 : (uint8_t)rnd();
			if (kind == 0) {
				memcpy(k, C->k, nb);
				memcpy(ub, C->u, nb);
			}
			secret(k, nb);
			secret(ub, nb);
			int rc = C->api(out, k, ub);
			public(&rc, sizeof rc);
			public(out, nb);
			if (kind == 0)
				bad += memcmp(out, C->out, nb) != 0;
			if (kind == 2)
				bad += rc != LF_XDH_EZERO;
			runs++;
		}
	}
	/* fe_c25519_r51_mul_x4 */
	const struct lf_kernel *K = &lf_kernel_table[LF_K_fe_c25519_r51_mul_x4];
	lf_fnptr ref = K->variants[K->count - 1].fn;
	for (size_t v = 0; v < K->count; v++) {
		const struct lf_variant *V = &K->variants[v];
		if (skip(K, V, avail))
			continue;
		printf("xdh_ct: TEST %s/%s\n", K->name, V->name);
		nv++;
		for (int kind = 0; kind < 6; kind++) {
			int64_t a[20], b[20], r[20], w[20];
			for (int i = 0; i < 20; i++) {
				a[i] = (int64_t)(rnd() >> 12), b[i] = (int64_t)(rnd() >> 12);
				if (kind == 1)
					a[i] = b[i] = ((int64_t)1 << 52) - 1;
				if (kind == 2)
					a[i] = 0;
			}
			if (kind == 3)
				memcpy(b, a, sizeof b);
			((lf_fe_c25519_r51_mul_x4_fn)ref)(w, a, b);
			memcpy(r, a, sizeof r);
			secret(a, sizeof a);
			secret(b, sizeof b);
			secret(r, sizeof r);
			if (kind == 4)
				((lf_fe_c25519_r51_mul_x4_fn)V->fn)(r, r, b);
			else
				((lf_fe_c25519_r51_mul_x4_fn)V->fn)(r, a, b);
			public(r, sizeof r);
			public(a, sizeof a);
			public(b, sizeof b);
			for (int l = 0; l < 4; l++) {
				int64_t x[5], y[5];
				uint8_t bx[32], by[32];
				for (int i = 0; i < 5; i++)
					x[i] = r[4 * i + l], y[i] = w[4 * i + l];
				lf_fe_c25519_r51_encode(bx, x);
				lf_fe_c25519_r51_encode(by, y);
				bad += memcmp(bx, by, 32) != 0;
			}
			runs++;
		}
	}
	printf("xdh_ct: %lu runs over %zu variants, %lu wrong results\n", runs, nv, bad);
	return nv >= 3 && runs > 0 && bad == 0 ? 0 : 1;
}
