/*
 * montmul_ct.c -- constant time of Montgomery multiplication and of the constant-time modular
 * exponentiation (TESTING.md 11), the paths valgrind can run.
 *
 * Run under valgrind memcheck (tests/ct.mk): the operands a and b of lf_mpn_montmul, and the
 * base and the exponent of lf_bi_mod_pow_consttime, are marked undefined ("secret"), so
 * memcheck reports every conditional branch and every memory address that depends on them.
 * The modulus and all lengths are public (the contracts say so).  Outputs are marked
 * defined only after they are written.  Each mpn_montmul variant valgrind can execute is
 * called directly from lf_kernel_table: its CPUID hides ADX (and AVX-512), but it executes
 * ADCX/ADOX, so adx runs when /proc/cpuinfo lists the instructions; it cannot execute
 * AVX-512, so the ifma variant is skipped with that reason printed (like every variant it
 * passes the generation-time taint check of gen/lfgen/consttime.py).  Sizes cover the unrolled
 * rows and their tails and adx's grouped passes, by eight rows and by four (n = 1..9, 12, 16,
 * 17, 20, 24, 32, 48, 64 limbs) with random, all-ones-saturating (N all ones, a = b =
 * N-1) and zero operands, so that the final subtraction is both due and not due.
 * lf_bi_mod_pow_consttime runs over 1-, 16-, 33- and 64-word moduli (one padded behind a
 * zero word) and exponents of 1, 3 and 64 words, bases shorter and longer than the modulus.
 * Outside valgrind the client requests do nothing and the program only checks that it ran.
 *
 * Fault caught: a branch or an address on secret data -- a final subtraction taken with
 * `if (t >= N)`, an early exit on a zero limb, a window table indexed by exponent bits, a
 * square-and-multiply that skips the multiply for 0 bits -- in a kernel or in the C around
 * it.  `--control` runs a deliberately leaky function (a conditional subtraction by branch)
 * instead: memcheck must report it (the make rule expects that run to fail).
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "limbforge.h"
#include "ct_cpu.h"
#include "lf_dispatch.h"
#include "lf_kernels.h"

#define MAXN 64

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

static uint64_t neg_inv(uint64_t n0)
{
	uint64_t x = n0;
	for (int i = 0; i < 5; i++)
		x *= 2 - n0 * x;
	return 0 - x;
}

/* The control: a textbook final subtraction by branch on a secret comparison. */
__attribute__((noinline)) static int leaky(const uint64_t *t, const uint64_t *n, size_t len)
{
	for (size_t i = len; i-- > 0;)
		if (t[i] != n[i])
			return t[i] > n[i];
	return 1;
}

int main(int argc, char **argv)
{
	static const size_t ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 20, 24, 32, 48, 64 };
	uint64_t N[MAXN], a[MAXN], b[MAXN], r[MAXN];
	const struct lf_kernel *K = &lf_kernel_table[LF_K_mpn_montmul];
	uint64_t avail = lf_cpu_features() | cpuinfo_extra();
	size_t nv = 0;
	unsigned long runs = 0;

	if (argc > 1 && strcmp(argv[1], "--control") == 0) {
		for (size_t i = 0; i < 4; i++)
			a[i] = rnd(), N[i] = rnd();
		secret(a, 4 * 8);
		volatile int x = leaky(a, N, 4);
		printf("montmul_ct: control ran (%d)\n", x);
		return 0;
	}
	printf("montmul_ct: %s valgrind\n", RUNNING_ON_VALGRIND ? "under" : "not under");
	for (size_t v = 0; v < K->count; v++) {
		const struct lf_variant *V = &K->variants[v];
		lf_mpn_montmul_fn fn = (lf_mpn_montmul_fn)V->fn;
		if (V->features & ~avail) {
			printf("montmul_ct: SKIP mpn_montmul/%s: %s; checked at generation time by "
			       "gen/lfgen/consttime.py\n", V->name,
			       RUNNING_ON_VALGRIND && (V->features & (LF_CPU_AVX512F | LF_CPU_AVX512IFMA))
			       ? "valgrind cannot execute AVX-512 (its CPUID hides it)"
			       : "this CPU lacks its features");
			continue;
		}
		printf("montmul_ct: TEST mpn_montmul/%s%s\n", V->name, V->features & ~lf_cpu_features()
		       ? " (called from the table: valgrind's CPUID hides ADX, /proc/cpuinfo has it)"
		       : "");
		nv++;
		for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
			size_t n = ns[i];
			for (int kind = 0; kind < 3; kind++) {
				for (size_t k = 0; k < n; k++) {
					N[k] = kind == 1 ? ~0ull : rnd();
					a[k] = kind == 2 ? 0 : rnd();
					b[k] = rnd();
				}
				N[0] |= 1;
				N[n - 1] |= 1ull << 63;
				a[n - 1] >>= 1, b[n - 1] >>= 1;              /* below N */
				if (kind == 1) {                             /* a = b = N-1 */
					memcpy(a, N, n * 8), memcpy(b, N, n * 8);
					a[0] -= 1, b[0] -= 1;
				}
				secret(a, n * 8);
				secret(b, n * 8);
				fn(r, a, b, N, neg_inv(N[0]), n);
				public(r, n * 8);
				fn(r, a, a, N, neg_inv(N[0]), n);              /* squaring */
				public(r, n * 8);
				public(a, n * 8);
				public(b, n * 8);
				runs++;
			}
		}
	}

	/* lf_bi_mod_pow_consttime with the dispatcher's choice (and ref) */
	static const size_t mws[] = { 1, 16, 33, 64 };
	static const size_t els[] = { 1, 3, 64 };
	uint32_t mod[65], base[140], exp[64], res[65];
	unsigned long pow_runs = 0;
	for (int forced = 0; forced < 2; forced++) {
		if (forced)
			lf_impl_force("mpn_montmul", "ref");
		for (size_t i = 0; i < sizeof mws / sizeof mws[0]; i++) {
			size_t mw = mws[i], lead = mw == 33, ml = mw + lead;
			for (size_t k = 0; k < ml; k++)
				mod[k] = k < lead ? 0 : (uint32_t)rnd();
			mod[lead] |= 0x80000000u;
			mod[ml - 1] |= 1;
			for (size_t j = 0; j < sizeof els / sizeof els[0]; j++) {
				size_t el = els[j], bl = j == 2 ? 2 * ml + 3 : ml;
				for (size_t k = 0; k < el; k++)
					exp[k] = (uint32_t)rnd();
				for (size_t k = 0; k < bl; k++)
					base[k] = (uint32_t)rnd();
				secret(base, bl * 4);
				secret(exp, el * 4);
				int rc = lf_bi_mod_pow_consttime(res, base, bl, exp, el, mod, ml);
				public(res, ml * 4);
				public(base, bl * 4);
				public(exp, el * 4);
				if (rc != 0) {
					fprintf(stderr, "montmul_ct: lf_bi_mod_pow_consttime returned %d\n",
					        rc);
					return 1;
				}
				pow_runs++;
			}
		}
	}
	lf_impl_force("mpn_montmul", NULL);
	printf("montmul_ct: %lu lf_mpn_montmul runs over %zu variants, %lu "
	       "lf_bi_mod_pow_consttime runs\n", runs, nv, pow_runs);
	return nv > 0 && runs == nv * 3 * (sizeof ns / sizeof ns[0]) && pow_runs == 24 ? 0 : 1;
}
