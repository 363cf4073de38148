/*
 * poly1305_ct.c -- constant time of the Poly1305 paths valgrind can run (TESTING.md 11).
 *
 * Run under valgrind memcheck (tests/ct.mk): the key and the message are marked undefined
 * ("secret"), so memcheck reports every conditional branch and every memory address that
 * depends on them ("Conditional jump or move depends on uninitialised value(s)", "Use of
 * uninitialised value of size 8").  The tag is marked defined only after it is written.
 * Each variant runnable under valgrind (its CPUID hides AVX-512, so ifma and avx512f are not
 * among them: those, like every variant, pass the generation-time taint check of
 * gen/lfgen/consttime.py) is forced in turn through the one-shot, the incremental API with
 * odd splits and lf_poly1305_jdk_blocks, over lengths on both sides of every variant's
 * vector threshold.  Outside valgrind the client requests do nothing and the program only
 * checks that it ran every variant.
 *
 * Fault caught: a branch or table index on key or message bytes (a data-dependent early exit,
 * a lookup by a secret digit, a reduction with `if (h >= p)`), in a kernel or in the C around
 * it.  `--control` runs a deliberately leaky function instead: memcheck must report it (the
 * make rule expects that run to fail), so a valgrind that sees nothing cannot pass the test.
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "limbforge.h"

static void secret(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static void public(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

/* A branch on a secret byte: the control memcheck must catch. */
__attribute__((noinline)) static int leaky(const uint8_t *k)
{
	if (k[0] > 128)
		return 1;
	return k[1] == 3 ? 2 : 0;
}

int main(int argc, char **argv)
{
	static uint8_t msg[4096 + 16];
	uint8_t key[32], tag[16];
	const char *names[16];
	size_t n = lf_impl_list("poly1305_blocks", names, 16);
	static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 511, 1024,
		                       1031, 4096 };
	unsigned long runs = 0;

	for (size_t i = 0; i < sizeof msg; i++)
		msg[i] = (uint8_t)(i * 131 + 7);
	for (size_t i = 0; i < 32; i++)
		key[i] = (uint8_t)(0xa5 ^ i * 29);
	if (argc > 1 && strcmp(argv[1], "--control") == 0) {
		secret(key, sizeof key);
		volatile int x = 0;
		for (int i = 0; i < 4; i++)
			if (leaky(key + i))
				x++;
		printf("poly1305_ct: control ran (%d)\n", x);
		return 0;
	}
	printf("poly1305_ct: %s valgrind; variants:", RUNNING_ON_VALGRIND ? "under" : "not under");
	for (size_t v = 0; v < n; v++)
		printf(" %s", names[v]);
	printf("\n");

	for (size_t v = 0; v < n; v++) {
		if (lf_impl_force("poly1305_blocks", names[v]) != 0) {
			fprintf(stderr, "poly1305_ct: cannot force %s\n", names[v]);
			return 1;
		}
		for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
			size_t len = lens[l];
			secret(key, sizeof key);
			secret(msg, sizeof msg);
			lf_poly1305(tag, msg, len, key);
			public(tag, sizeof tag);

			lf_poly1305_state st;
			lf_poly1305_init(&st, key);
			size_t cut = len / 3;
			lf_poly1305_update(&st, msg, cut);
			lf_poly1305_update(&st, msg + cut, 1 < len - cut ? 1 : len - cut);
			lf_poly1305_update(&st, msg + cut + 1, len > cut + 1 ? len - cut - 1 : 0);
			lf_poly1305_final(&st, tag);
			public(tag, sizeof tag);

			int64_t acc[5], r[5];
			for (int k = 0; k < 5; k++) {
				acc[k] = (int64_t)((key[k] * 0x10203u + 1) & 0x3ffffff);
				r[k] = (int64_t)((key[16 + k] * 0x30201u) & 0x3ffffff);
			}
			secret(acc, sizeof acc);
			secret(r, sizeof r);
			lf_poly1305_jdk_blocks(msg, len & ~(size_t)15, acc, r);
			public(acc, sizeof acc);
			runs++;
		}
		public(key, sizeof key);
		public(msg, sizeof msg);
	}
	lf_impl_force("poly1305_blocks", NULL);
	printf("poly1305_ct: %lu runs over %zu variants\n", runs, n);
	return n > 0 && runs == n * (sizeof lens / sizeof lens[0]) ? 0 : 1;
}
