/*
 * p256_ct.c -- constant time of the P-256 field kernels (p256_mul_mont, p256_sqr_mont) and of
 * conditional_assign (TESTING.md 11), every variant valgrind can run; also the JDK's
 * MontgomeryIntegerPolynomialP256 kernels p256_mont_mult / square / mult_x8 (mulx, ref).
 *
 * Run under valgrind memcheck (tests/ct.mk): the operands a and b of the field kernels, and
 * for conditional_assign `set` itself and the limbs of a and b, are marked undefined
 * ("secret"), so memcheck reports every conditional branch and every memory address that
 * depends on them; n is public.  Each variant is called directly from lf_kernel_table:
 * valgrind's CPUID hides ADX, but it executes ADCX/ADOX, so the adx variants run when
 * /proc/cpuinfo lists the instructions.  Operands: random below p, p - 1 and the all-ones
 * limbs still below p (final subtraction due), 0 and 1 (not due), and a = b; conditional_assign
 * over every n 0..40 with set 0 and 1.  Outside valgrind the client requests do nothing and
 * the program checks the results against the ref variants.
 *
 * Fault caught: a final subtraction taken with `if (t >= p)`, an early exit on a zero limb,
 * `if (set) memcpy(a, b, ...)`, a table index or a length derived from set -- in a kernel or
 * in the C around it.  `--control` runs a deliberately leaky conditional assignment (a branch
 * on set) instead: memcheck must report it (the make rule expects that run to fail).
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "limbforge.h"
#include "ct_cpu.h"
#include "lf_dispatch.h"
#include "lf_kernels.h"

static void secret(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static void public(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

static uint64_t rng = 0x13198a2e03707344ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The control: conditionalAssign by branch. */
__attribute__((noinline)) static void leaky(int set, int64_t *a, const int64_t *b, size_t n)
{
	if (set)
		memcpy(a, b, n * 8);
}

typedef void (*lf_fnptr3)(int64_t *, const int64_t *, const int64_t *);

static int runnable(const struct lf_variant *V, uint64_t avail, const char *kernel)
{
	if (V->features & ~avail) {
		printf("p256_ct: SKIP %s/%s: %s; checked at generation time by "
		       "gen/lfgen/consttime.py\n", kernel, V->name,
		       RUNNING_ON_VALGRIND ? "valgrind does not offer its features"
		                           : "this CPU lacks its features");
		return 0;
	}
	printf("p256_ct: TEST %s/%s%s\n", kernel, V->name, V->features & ~lf_cpu_features()
	       ? " (called from the table: valgrind's CPUID hides ADX, /proc/cpuinfo has it)" : "");
	return 1;
}

int main(int argc, char **argv)
{
	static const uint64_t P[4] = { ~0ull, 0xffffffffull, 0, 0xffffffff00000001ull };
	uint64_t avail = lf_cpu_features() | cpuinfo_extra();
	unsigned long runs = 0, bad = 0;
	size_t nv = 0;
	int64_t a[40], b[40], w[40];

	if (argc > 1 && strcmp(argv[1], "--control") == 0) {
		int set = 1;
		for (size_t i = 0; i < 5; i++)
			a[i] = (int64_t)rnd(), b[i] = (int64_t)rnd();
		secret(&set, sizeof set);
		leaky(set, a, b, 5);
		public(a, sizeof a);
		printf("p256_ct: control ran (%lld)\n", (long long)a[0]);
		return 0;
	}
	printf("p256_ct: %s valgrind\n", RUNNING_ON_VALGRIND ? "under" : "not under");
	for (int kid = LF_K_p256_mul_mont; kid <= LF_K_p256_sqr_mont; kid++) {
		const struct lf_kernel *K = &lf_kernel_table[kid];
		lf_fnptr ref = K->variants[K->count - 1].fn;
		int sqr = kid == LF_K_p256_sqr_mont;
		for (size_t v = 0; v < K->count; v++) {
			const struct lf_variant *V = &K->variants[v];
			if (!runnable(V, avail, K->name))
				continue;
			nv++;
			for (int kind = 0; kind < 8; kind++) {
				uint64_t x[4], y[4], r[4], want[4];
				for (int k = 0; k < 4; k++)
					x[k] = rnd(), y[k] = rnd();
				x[3] >>= 1, y[3] >>= 1;                  /* below p */
				if (kind == 1)
					memcpy(x, P, 32), x[0] -= 1, memcpy(y, x, 32);
				if (kind == 2)
					x[0] = x[1] = x[2] = ~0ull, x[3] = 0xffffffff00000000ull;
				if (kind == 3)
					memset(x, 0, 32);
				if (kind == 4)
					memset(y, 0, 32), y[0] = 1;
				if (sqr)
					((lf_p256_sqr_mont_fn)ref)(want, x);
				else
					((lf_p256_mul_mont_fn)ref)(want, x, y);
				secret(x, 32);
				secret(y, 32);
				if (sqr)
					((lf_p256_sqr_mont_fn)V->fn)(r, x);
				else
					((lf_p256_mul_mont_fn)V->fn)(r, x, kind == 5 ? x : y);
				if (!sqr && kind == 5)
					((lf_p256_mul_mont_fn)V->fn)(r, x, x);
				public(r, 32);
				public(x, 32);
				public(y, 32);
				if (!sqr && kind == 5)
					((lf_p256_mul_mont_fn)ref)(want, x, x);
				bad += memcmp(r, want, 32) != 0;
				runs++;
			}
		}
	}
	/* MontgomeryIntegerPolynomialP256 (5 x 52 bits): p256_mont_mult / square / mult_x8, every
	 * variant valgrind runs (mulx, ref; ifma needs AVX-512, which valgrind hides: checked at
	 * generation time); operands random below p (top limb < 2^47), p - 1, limbs all ones
	 * still below p, 0 and 1, a = b */
	static const int64_t PM1[5] = { 0xffffffffffffe, 0xfffffffffff, 0, 0x1000000000,
	                                0xffffffff0000 };
	for (int kid = LF_K_p256_mont_mult; kid <= LF_K_p256_mont_mult_x8; kid++) {
		const struct lf_kernel *K = &lf_kernel_table[kid];
		lf_fnptr ref = K->variants[K->count - 1].fn;
		int sqr = kid == LF_K_p256_mont_square, x8 = kid == LF_K_p256_mont_mult_x8;
		size_t n = x8 ? 40 : 5;
		for (size_t v = 0; v < K->count; v++) {
			const struct lf_variant *V = &K->variants[v];
			if (!runnable(V, avail, K->name))
				continue;
			nv++;
			for (int kind = 0; kind < 8; kind++) {
				int64_t r[40];
				for (size_t k = 0; k < n; k++) {
					a[k] = (int64_t)(rnd() & 0xfffffffffffffull);
					b[k] = (int64_t)(rnd() & 0xfffffffffffffull);
					if (k % 5 == 4)
						a[k] >>= 5, b[k] >>= 5;           /* below p */
					if (kind == 1)
						a[k] = b[k] = PM1[k % 5];
					if (kind == 2)
						a[k] = k % 5 == 4 ? 0xfffeffffffffll : 0xfffffffffffffll;
					if (kind == 3)
						a[k] = 0;
					if (kind == 4)
						a[k] = k % 5 == 0;
				}
				if (kind == 5)
					memcpy(b, a, n * 8);
				if (sqr)
					((lf_p256_mont_square_fn)ref)(w, a);
				else
					((lf_fnptr3)ref)(w, a, b);
				secret(a, n * 8);
				secret(b, n * 8);
				if (sqr)
					((lf_p256_mont_square_fn)V->fn)(r, a);
				else
					((lf_fnptr3)V->fn)(r, a, b);
				public(r, n * 8);
				public(a, n * 8);
				public(b, n * 8);
				bad += memcmp(r, w, n * 8) != 0;
				runs++;
			}
		}
	}
	const struct lf_kernel *K = &lf_kernel_table[LF_K_conditional_assign];
	for (size_t v = 0; v < K->count; v++) {
		const struct lf_variant *V = &K->variants[v];
		if (!runnable(V, avail, K->name))
			continue;
		nv++;
		for (size_t n = 0; n <= 40; n++)
			for (int s = 0; s <= 1; s++) {
				int set = s;
				for (size_t i = 0; i < n; i++)
					a[i] = (int64_t)rnd(), b[i] = (int64_t)rnd();
				memcpy(w, set ? b : a, n * 8);
				secret(&set, sizeof set);
				secret(a, n * 8);
				secret(b, n * 8);
				((lf_conditional_assign_fn)V->fn)(set, a, b, n);
				public(a, n * 8);
				public(b, n * 8);
				bad += memcmp(a, w, n * 8) != 0;
				runs++;
			}
	}
	printf("p256_ct: %lu runs over %zu variants, %lu wrong results\n", runs, nv, bad);
	return nv >= 3 && runs > 0 && bad == 0 ? 0 : 1;
}
