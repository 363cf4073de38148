/*
 * ecdh_ct.c -- constant time of lf_p256_ecdh in the scalar (TESTING.md 11), under valgrind
 * memcheck (tests/ct.mk).
 *
 * The scalar is marked undefined ("secret"), so memcheck reports every conditional branch
 * and every memory address that depends on it: in the Booth recoding, the masked table reads,
 * the infinity and doubling selects of the additions, the range check 0 < k < n (done by
 * masks: an invalid scalar only masks the output and selects the return code), the inversion
 * and the field kernels.  The peer point is public (it is validated by branches).  Outputs
 * (shared_x, the return code) are marked defined only after the call returns.  Each pair of
 * field kernels valgrind can execute runs through the internal lf_p256_ecdh_with (valgrind's
 * CPUID hides ADX from the dispatcher, but it executes ADCX/ADOX, so the adx variants run
 * when /proc/cpuinfo lists the instructions), and lf_p256_ecdh itself with the dispatcher's
 * choice.  Scalars: RFC 5903 8.1's i and r, 1, n - 1, n - 2, 2^255, a random one, and the
 * invalid 0, n and 2^256 - 1; answers checked against RFC 5903 and x(+-P) = x(P).
 *
 * Fault caught: a branch or an address on the scalar -- a table indexed by a digit, a skipped
 * addition for a zero digit, `if (k >= n) return`, an early exit of the recoding, a
 * conditional negation by branch.  `--control` runs a deliberately leaky lookup (a table
 * indexed by scalar bits and a branch on one): memcheck must report it (the make rule
 * expects that run to fail).
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

/* RFC 5903 8.1 */
static const uint8_t rfc_i[32] = {
	0xc8, 0x8f, 0x01, 0xf5, 0x10, 0xd9, 0xac, 0x3f, 0x70, 0xa2, 0x92, 0xda, 0xa2, 0x31, 0x6d,
	0xe5, 0x44, 0xe9, 0xaa, 0xb8, 0xaf, 0xe8, 0x40, 0x49, 0xc6, 0x2a, 0x9c, 0x57, 0x86, 0x2d,
	0x14, 0x33 };
static const uint8_t rfc_gr[65] = {
	0x04, 0xd1, 0x2d, 0xfb, 0x52, 0x89, 0xc8, 0xd4, 0xf8, 0x12, 0x08, 0xb7, 0x02, 0x70, 0x39,
	0x8c, 0x34, 0x22, 0x96, 0x97, 0x0a, 0x0b, 0xcc, 0xb7, 0x4c, 0x73, 0x6f, 0xc7, 0x55, 0x44,
	0x94, 0xbf, 0x63, 0x56, 0xfb, 0xf3, 0xca, 0x36, 0x6c, 0xc2, 0x3e, 0x81, 0x57, 0x85, 0x4c,
	0x13, 0xc5, 0x8d, 0x6a, 0xac, 0x23, 0xf0, 0x46, 0xad, 0xa3, 0x0f, 0x83, 0x53, 0xe7, 0x4f,
	0x33, 0x03, 0x98, 0x72, 0xab };
static const uint8_t rfc_gir[32] = {
	0xd6, 0x84, 0x0f, 0x6b, 0x42, 0xf6, 0xed, 0xaf, 0xd1, 0x31, 0x16, 0xe0, 0xe1, 0x25, 0x65,
	0x20, 0x2f, 0xef, 0x8e, 0x9e, 0xce, 0x7d, 0xce, 0x03, 0x81, 0x24, 0x64, 0xd0, 0x4b, 0x94,
	0x42, 0xde };
static const uint8_t order[32] = {
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63,
	0x25, 0x51 };

/* The control: a window table indexed by scalar bits, and a branch on a bit. */
__attribute__((noinline)) static unsigned leaky(const uint8_t *k, const unsigned *table)
{
	unsigned acc = table[k[31] & 15];
	if (k[0] & 1)
		acc ^= 0x5a5a;
	return acc;
}

static int fails;

/* one call with the scalar secret; rc and x compared with the expectation */
static void run(const char *label, const char *what, lf_p256_mul_mont_fn mul,
                lf_p256_sqr_mont_fn sqr, const uint8_t k[32], const uint8_t pt[65], int want_rc,
                const uint8_t *want_x)
{
	uint8_t kk[32], out[32];
	static const uint8_t zero[32];
	memcpy(kk, k, 32);
	secret(kk, 32);
	int rc = mul ? lf_p256_ecdh_with(out, kk, pt, mul, sqr) : lf_p256_ecdh(out, kk, pt);
	public(&rc, sizeof rc);
	public(out, 32);
	public(kk, 32);
	if (rc != want_rc || memcmp(out, want_rc ? zero : want_x, 32) != 0) {
		fprintf(stderr, "ecdh_ct: %s, %s: rc %d (want %d) or a wrong shared x\n", label, what,
		        rc, want_rc);
		fails++;
	}
}

int main(int argc, char **argv)
{
	const struct lf_kernel *KM = &lf_kernel_table[LF_K_p256_mul_mont];
	const struct lf_kernel *KS = &lf_kernel_table[LF_K_p256_sqr_mont];
	uint64_t avail = lf_cpu_features() | cpuinfo_extra();
	uint8_t k[32], x_gr[32], r1[32], r2[32];
	unsigned long runs = 0;
	size_t pairs = 0;

	if (argc > 1 && strcmp(argv[1], "--control") == 0) {
		static unsigned table[16];
		memcpy(k, rfc_i, 32);
		secret(k, 32);
		volatile unsigned x = leaky(k, table);
		printf("ecdh_ct: control ran (%u)\n", x);
		return 0;
	}
	printf("ecdh_ct: %s valgrind\n", RUNNING_ON_VALGRIND ? "under" : "not under");
	memcpy(x_gr, rfc_gr + 1, 32);
	for (size_t m = 0; m < KM->count; m++) {
		for (size_t s = 0; s < KS->count; s++) {
			const struct lf_variant *VM = &KM->variants[m], *VS = &KS->variants[s];
			char label[96];
			snprintf(label, sizeof label, "p256_mul_mont/%s + p256_sqr_mont/%s", VM->name,
			         VS->name);
			if ((VM->features | VS->features) & ~avail) {
				printf("ecdh_ct: SKIP %s: this CPU lacks its features\n", label);
				continue;
			}
			printf("ecdh_ct: TEST %s%s\n", label,
			       (VM->features | VS->features) & ~lf_cpu_features()
			       ? " (called from the table: valgrind's CPUID hides ADX, /proc/cpuinfo "
			         "has it)" : "");
			lf_p256_mul_mont_fn mf = (lf_p256_mul_mont_fn)VM->fn;
			lf_p256_sqr_mont_fn sf = (lf_p256_sqr_mont_fn)VS->fn;
			pairs++;
			run(label, "RFC 5903 i g^r", mf, sf, rfc_i, rfc_gr, 0, rfc_gir);
			memset(k, 0, 32), k[31] = 1;
			run(label, "scalar 1", mf, sf, k, rfc_gr, 0, x_gr);
			memcpy(k, order, 32), k[31] -= 1;
			run(label, "scalar n - 1", mf, sf, k, rfc_gr, 0, x_gr);
			/* 2^255 and n - 2: the answers agree across the pairs (the first pair's) */
			static int have;
			static uint8_t want255[32], wantn2[32];
			memset(k, 0, 32), k[0] = 0x80;
			if (!have)
				lf_p256_ecdh_with(want255, k, rfc_gr, mf, sf);
			run(label, "scalar 2^255", mf, sf, k, rfc_gr, 0, want255);
			memcpy(k, order, 32), k[31] -= 2;
			if (!have)
				lf_p256_ecdh_with(wantn2, k, rfc_gr, mf, sf);
			have = 1;
			run(label, "scalar n - 2", mf, sf, k, rfc_gr, 0, wantn2);
			memset(k, 0, 32);
			run(label, "scalar 0", mf, sf, k, rfc_gr, LF_P256_ESCALAR, NULL);
			run(label, "scalar n", mf, sf, order, rfc_gr, LF_P256_ESCALAR, NULL);
			memset(k, 0xff, 32);
			run(label, "scalar 2^256 - 1", mf, sf, k, rfc_gr, LF_P256_ESCALAR, NULL);
			runs += 8;
		}
	}
	/* the public entry point, dispatcher's choice; a random-looking scalar both ways */
	for (int i = 0; i < 32; i++)
		k[i] = (uint8_t)(0x3d * i + 0x11);
	run("dispatched", "RFC 5903 i g^r", NULL, NULL, rfc_i, rfc_gr, 0, rfc_gir);
	memcpy(r1, k, 32);
	secret(r1, 32);
	int rc1 = lf_p256_ecdh(r2, r1, rfc_gr);
	public(&rc1, sizeof rc1);
	public(r2, 32);
	run("dispatched", "fixed scalar", (lf_p256_mul_mont_fn)KM->variants[KM->count - 1].fn,
	    (lf_p256_sqr_mont_fn)KS->variants[KS->count - 1].fn, k, rfc_gr, rc1, r2);
	runs += 3;
	printf("ecdh_ct: %lu lf_p256_ecdh runs over %zu kernel pairs, %d wrong\n", runs, pairs,
	       fails);
	return pairs > 0 && fails == 0 ? 0 : 1;
}
