/*
 * cpu.c -- CPU feature detection and the LIMBFORGE_CPU mask.
 *
 * x86-64: CPUID leaves 1 and 7 (subleaves 0 and 1); AVX-class features count only when the
 * OS has enabled their register state, read with XGETBV(0) after checking OSXSAVE:
 * XCR0 bits 1-2 (XMM, YMM) for AVX/AVX2/FMA/AVX-IFMA, and bits 5-7 (opmask, ZMM_Hi256,
 * Hi16_ZMM) in addition for AVX-512.  AArch64 Linux: getauxval(AT_HWCAP/AT_HWCAP2).
 * LF_CPU_ASM ("asm") is set on both architectures: every assembly variant requires it.
 * Everything else in the library sees only lf_cpu_features().
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"

const struct lf_feature_name lf_feature_names[] = {
	{ "bmi1", LF_CPU_BMI1 },             { "bmi2", LF_CPU_BMI2 },
	{ "adx", LF_CPU_ADX },               { "avx", LF_CPU_AVX },
	{ "avx2", LF_CPU_AVX2 },             { "fma", LF_CPU_FMA },
	{ "avx512f", LF_CPU_AVX512F },       { "avx512dq", LF_CPU_AVX512DQ },
	{ "avx512bw", LF_CPU_AVX512BW },     { "avx512vl", LF_CPU_AVX512VL },
	{ "avx512ifma", LF_CPU_AVX512IFMA }, { "avx512vbmi", LF_CPU_AVX512VBMI },
	{ "avx512vbmi2", LF_CPU_AVX512VBMI2 }, { "avxifma", LF_CPU_AVXIFMA },
	{ "movbe", LF_CPU_MOVBE },
	{ "asimd", LF_CPU_ASIMD },           { "aes", LF_CPU_AES },
	{ "pmull", LF_CPU_PMULL },           { "sha2", LF_CPU_SHA2 },
	{ "sha3", LF_CPU_SHA3 },             { "sve", LF_CPU_SVE },
	{ "sve2", LF_CPU_SVE2 },             { "asm", LF_CPU_ASM },
	{ NULL, 0 }
};

#define BIT(w, n) (((w) >> (n)) & 1u)

uint64_t lf_cpu_decode_x86(const struct lf_x86_cpuid *c)
{
	uint64_t f = 0;
	int ymm = 0, zmm = 0;

	if (c->max_leaf < 1)
		return 0;
	if (BIT(c->l1_ecx, 27)) { /* OSXSAVE: XGETBV is usable, XCR0 is meaningful */
		ymm = (c->xcr0 & 0x6) == 0x6;
		zmm = ymm && (c->xcr0 & 0xe0) == 0xe0;
	}
	if (BIT(c->l1_ecx, 22))
		f |= LF_CPU_MOVBE;
	if (ymm && BIT(c->l1_ecx, 28))
		f |= LF_CPU_AVX;
	if (ymm && (f & LF_CPU_AVX) && BIT(c->l1_ecx, 12))
		f |= LF_CPU_FMA;
	if (c->max_leaf >= 7) {
		if (BIT(c->l7_ebx, 3))
			f |= LF_CPU_BMI1;
		if (BIT(c->l7_ebx, 8))
			f |= LF_CPU_BMI2;
		if (BIT(c->l7_ebx, 19))
			f |= LF_CPU_ADX;
		if ((f & LF_CPU_AVX) && BIT(c->l7_ebx, 5))
			f |= LF_CPU_AVX2;
		if ((f & LF_CPU_AVX) && BIT(c->l7s1_eax, 23))
			f |= LF_CPU_AVXIFMA;
		if (zmm && (f & LF_CPU_AVX) && BIT(c->l7_ebx, 16)) {
			f |= LF_CPU_AVX512F;
			if (BIT(c->l7_ebx, 17))
				f |= LF_CPU_AVX512DQ;
			if (BIT(c->l7_ebx, 21))
				f |= LF_CPU_AVX512IFMA;
			if (BIT(c->l7_ebx, 30))
				f |= LF_CPU_AVX512BW;
			if (BIT(c->l7_ebx, 31))
				f |= LF_CPU_AVX512VL;
			if (BIT(c->l7_ecx, 1))
				f |= LF_CPU_AVX512VBMI;
			if (BIT(c->l7_ecx, 6))
				f |= LF_CPU_AVX512VBMI2;
		}
	}
	return f;
}

uint64_t lf_cpu_decode_aarch64(unsigned long hwcap, unsigned long hwcap2)
{
	/* Linux arch/arm64/include/uapi/asm/hwcap.h */
	uint64_t f = 0;
	if (hwcap & (1ul << 1))
		f |= LF_CPU_ASIMD;
	if (hwcap & (1ul << 3))
		f |= LF_CPU_AES;
	if (hwcap & (1ul << 4))
		f |= LF_CPU_PMULL;
	if (hwcap & (1ul << 6))
		f |= LF_CPU_SHA2;
	if (hwcap & (1ul << 17))
		f |= LF_CPU_SHA3;
	if (hwcap & (1ul << 22))
		f |= LF_CPU_SVE;
	if (hwcap2 & (1ul << 1))
		f |= LF_CPU_SVE2;
	return f;
}

#if defined(__x86_64__)
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

uint64_t lf_cpu_detect(void)
{
	struct lf_x86_cpuid c;
	unsigned a, b, cx, d;

	memset(&c, 0, sizeof c);
	c.max_leaf = __get_cpuid_max(0, NULL);
	if (c.max_leaf >= 1) {
		__cpuid(1, a, b, cx, d);
		c.l1_ecx = cx;
	}
	if (c.max_leaf >= 7) {
		__cpuid_count(7, 0, a, b, cx, d);
		c.l7_ebx = b;
		c.l7_ecx = cx;
		if (a >= 1) {
			__cpuid_count(7, 1, a, b, cx, d);
			c.l7s1_eax = a;
		}
	}
	if (BIT(c.l1_ecx, 27))
		c.xcr0 = xgetbv0();
	return lf_cpu_decode_x86(&c) | LF_CPU_ASM;
}
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

uint64_t lf_cpu_detect(void)
{
	return lf_cpu_decode_aarch64(getauxval(AT_HWCAP), getauxval(AT_HWCAP2)) | LF_CPU_ASM;
}
#else
uint64_t lf_cpu_detect(void)
{
	return 0;
}
#endif

static uint64_t feature_bit(const char *name, size_t len)
{
	for (const struct lf_feature_name *n = lf_feature_names; n->name; n++)
		if (strlen(n->name) == len && memcmp(n->name, name, len) == 0)
			return n->bit;
	return 0;
}

uint64_t lf_cpu_parse_mask(const char *spec, uint64_t detected, FILE *warn)
{
	uint64_t f = detected;
	const char *p = spec;

	while (p && *p) {
		const char *end = strchr(p, ',');
		const char *tok = p;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char sign = 0;

		while (len && (*tok == ' ' || *tok == '\t')) {
			tok++;
			len--;
		}
		while (len && (tok[len - 1] == ' ' || tok[len - 1] == '\t'))
			len--;
		if (len && (*tok == '-' || *tok == '+')) {
			sign = *tok++;
			len--;
		}
		if (len == 4 && memcmp(tok, "none", 4) == 0 && sign == 0) {
			f = 0;
		} else if (len == 3 && memcmp(tok, "all", 3) == 0 && sign == 0) {
			f = detected;
		} else if (len) {
			uint64_t bit = feature_bit(tok, len);
			if (!bit) {
				if (warn)
					fprintf(warn, "limbforge: LIMBFORGE_CPU: unknown feature '%.*s' "
					        "ignored\n", (int)len, tok);
			} else if (sign == '-') {
				f &= ~bit;
			} else {
				f |= bit & detected;
			}
		} else if (sign && warn) {
			fprintf(warn, "limbforge: LIMBFORGE_CPU: '%c' without a feature ignored\n",
			        sign);
		}
		p = end ? end + 1 : NULL;
	}
	return lf_cpu_implied(f);
}

uint64_t lf_cpu_implied(uint64_t f)
{
	/* a feature whose register state or base instructions are gone goes with them */
	const uint64_t avx512_ext = LF_CPU_AVX512DQ | LF_CPU_AVX512BW | LF_CPU_AVX512VL |
	                            LF_CPU_AVX512IFMA | LF_CPU_AVX512VBMI | LF_CPU_AVX512VBMI2;
	if (!(f & LF_CPU_AVX))
		f &= ~(LF_CPU_AVX2 | LF_CPU_FMA | LF_CPU_AVXIFMA | LF_CPU_AVX512F | avx512_ext);
	if (!(f & LF_CPU_AVX512F))
		f &= ~avx512_ext;
	if (!(f & LF_CPU_ASIMD))
		f &= ~(LF_CPU_AES | LF_CPU_PMULL | LF_CPU_SHA2 | LF_CPU_SHA3);
	if (!(f & LF_CPU_SVE))
		f &= ~LF_CPU_SVE2;
	return f;
}

static _Atomic uint64_t allowed_mask = ~UINT64_C(0);
static _Atomic uint64_t cached = 0;
static _Atomic int cached_valid = 0;

uint64_t lf_cpu_features(void)
{
	uint64_t f;

	if (!atomic_load_explicit(&cached_valid, memory_order_acquire)) {
		/* Idempotent: racing threads compute and store the same value. */
		uint64_t f = lf_cpu_detect();
		const char *env = getenv("LIMBFORGE_CPU");
		if (env)
			f = lf_cpu_parse_mask(env, f, stderr);
		atomic_store_explicit(&cached, f, memory_order_relaxed);
		atomic_store_explicit(&cached_valid, 1, memory_order_release);
	}
	f = atomic_load_explicit(&cached, memory_order_relaxed) &
	    atomic_load_explicit(&allowed_mask, memory_order_acquire);
	return lf_cpu_implied(f);
}

void lf_cpu_mask(uint64_t allowed)
{
	atomic_fetch_and_explicit(&allowed_mask, allowed, memory_order_release);
	lf_dispatch_reset();    /* after the mask: see the generation protocol in dispatch.c */
}
