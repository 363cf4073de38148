/*
 * fe_ct.c -- constant time of the dispatched EC field products (fe_<field>_mul,
 * fe_<field>_square; the list is tests/fe_kernels.h; TESTING.md 11), every variant valgrind
 * can run.
 *
 * Run under valgrind memcheck (tests/ct.mk): the limbs of a and b are marked undefined
 * ("secret"), so memcheck reports every conditional branch and every memory address that
 * depends on them.  Each variant is called directly from lf_kernel_table (valgrind's CPUID
 * hides ADX and AVX-512; the bmi2 `mulx` variants run).  Operands, each limb at most the
 * field's LF_FE_<F>_M_LIMB and 2^56 - 1 (so within its input bound M): random limbs, every
 * limb at that cap (and limb 0 one less), 0 and 1, a == b, and r == a == b.  Outside
 * valgrind the client requests do nothing; under it too the program checks each result
 * against the ref variant's through the field's encode (canonical bytes; results are not
 * unique limbs).
 *
 * Fault caught: a carry resolved by a branch (`if (limb >> 51)`), an early exit on a zero
 * limb, a table lookup indexed by a limb, a final subtraction taken with `if` -- in a kernel
 * or in the C around it.  `--control` runs a deliberately leaky product (a branch on a's
 * top limb) instead: memcheck must report it (the make rule expects that run to fail).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "limbforge.h"
#include "ct_cpu.h"
#include "lf_dispatch.h"
#include "lf_fields.h"
#include "lf_kernels.h"
#include "../fe_kernels.h"

#define ML LF_TEST_FE_MAXLIMBS

static void secret(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static void public(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

static uint64_t rng = 0x452821e638d01377ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

typedef void (*fe_encode_fn)(uint8_t *out, const int64_t *a);
struct fe_entry {
	enum lf_kernel_id kid;
	size_t limbs;
	int sqr;
	fe_encode_fn encode;
};
#define FE_ENTRY(field, nl, op)                                                             \
	{ LF_K_fe_##field##_##op, nl, sizeof(#op) == sizeof("square"),                      \
	  lf_fe_##field##_encode },
static struct fe_entry table[] = { LF_TEST_FE_KERNELS(FE_ENTRY) };
#undef FE_ENTRY

/* The control: a product that skips work when a's top limb is zero. */
__attribute__((noinline)) static void leaky(int64_t *r, const int64_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		r[i] = a[n - 1] ? a[i] * 3 : 0;
}

int main(int argc, char **argv)
{
	uint64_t avail = lf_cpu_features() | cpuinfo_extra();
	unsigned long runs = 0, bad = 0;
	size_t nv = 0;
	int64_t a[ML], b[ML], r[ML], w[ML];

	if (argc > 1 && strcmp(argv[1], "--control") == 0) {
		for (size_t i = 0; i < 5; i++)
			a[i] = (int64_t)(rnd() >> 8);
		secret(a, sizeof a);
		leaky(r, a, 5);
		public(r, sizeof r);
		printf("fe_ct: control ran (%lld)\n", (long long)r[0]);
		return 0;
	}
	printf("fe_ct: %s valgrind\n", RUNNING_ON_VALGRIND ? "under" : "not under");
	for (size_t e = 0; e < sizeof table / sizeof table[0]; e++) {
		const struct fe_entry *E = &table[e];
		const struct lf_kernel *K = &lf_kernel_table[E->kid];
		lf_fnptr ref = K->variants[K->count - 1].fn;
		size_t n = E->limbs;
		uint64_t cap = lf_test_fe_limb_cap(K->name);
		if (!cap) {
			fprintf(stderr, "fe_ct: no field bound for %s\n", K->name);
			return 2;
		}
		for (size_t v = 0; v < K->count; v++) {
			const struct lf_variant *V = &K->variants[v];
			if (V->features & ~avail) {
				printf("fe_ct: SKIP %s/%s: %s; checked at generation time by "
				       "gen/lfgen/consttime.py\n", K->name, V->name,
				       RUNNING_ON_VALGRIND ? "valgrind does not offer its features"
				                           : "this CPU lacks its features");
				continue;
			}
			printf("fe_ct: TEST %s/%s\n", K->name, V->name);
			nv++;
			for (int kind = 0; kind < 8; kind++) {
				uint8_t er[80] = { 0 }, ew[80] = { 0 };
				int same = kind == 5 || kind == 6;
				for (size_t k = 0; k < n; k++) {
					a[k] = (int64_t)(rnd() % (cap + 1)), b[k] = (int64_t)(rnd() % (cap + 1));
					if (kind == 1)
						a[k] = b[k] = (int64_t)cap;
					if (kind == 2)   /* the cap but limb 0 one less */
						a[k] = (int64_t)(cap - (k == 0));
					if (kind == 3)
						a[k] = 0;
					if (kind == 4)
						a[k] = k == 0;
				}
				if (same)
					memcpy(b, a, n * 8);
				if (E->sqr)
					((lf_fe_square_fn)ref)(w, a);
				else
					((lf_fe_mul_fn)ref)(w, a, b);
				memcpy(r, a, n * 8);
				secret(a, n * 8);
				secret(b, n * 8);
				secret(r, n * 8);
				if (kind == 6) {         /* r == a == b */
					if (E->sqr)
						((lf_fe_square_fn)V->fn)(r, r);
					else
						((lf_fe_mul_fn)V->fn)(r, r, r);
				} else if (E->sqr) {
					((lf_fe_square_fn)V->fn)(r, a);
				} else {
					((lf_fe_mul_fn)V->fn)(r, a, b);
				}
				public(r, n * 8);
				public(a, n * 8);
				public(b, n * 8);
				E->encode(er, r);
				E->encode(ew, w);
				bad += memcmp(er, ew, sizeof er) != 0;
				runs++;
			}
		}
	}
	printf("fe_ct: %lu runs over %zu variants, %lu wrong results\n", runs, nv, bad);
	return nv >= sizeof table / sizeof table[0] && runs > 0 && bad == 0 ? 0 : 1;
}
