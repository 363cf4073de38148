/*
 * test_dispatch.c -- CPU feature decoding, LIMBFORGE_CPU parsing, variant choice and the
 * lf_impl / lf_impl_list / lf_impl_force API.
 *
 * Faults this is designed to catch:
 *   - a feature reported although the OS has not enabled its register state (AVX-512 CPUID
 *     bits with XCR0 bits 5-7 off; AVX with OSXSAVE off or XCR0 bits 1-2 off), or a feature
 *     inferred from another (ADX from BMI2, VL from IFMA, AVX-512 sub-features without F);
 *   - CPUID/HWCAP bit positions mapped to the wrong feature (each bit checked alone against
 *     Intel SDM / Linux uapi values; on AArch64 builds against <asm/hwcap.h> itself);
 *   - the detection disagreeing with the kernel's view of this machine (/proc/cpuinfo);
 *   - LIMBFORGE_CPU parsing that adds an undetected feature, mis-handles lists, "none",
 *     "all", empty tokens, or does not warn about unknown tokens;
 *   - the dispatcher choosing a variant whose features are not all allowed, or not the best
 *     (first) allowed one, for any subset of the features the table uses;
 *   - a malformed table (ref not last, ref needing features, duplicate names, NULL fns);
 *   - lf_impl/lf_impl_list/lf_impl_force returning wrong names, counts or error codes;
 *   - lf_dispatch_hint giving another build's hint (the API would choose its sizes for the
 *     wrong code), for the resolved, the forced and every other build, or ref a hint;
 *   - under LIMBFORGE_CPU=... (tests/tests.mk runs this suite under several masks): a masked
 *     variant chosen, listed or forceable.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

/* The feature list as limbforge.h documents it (name in quotes, bit). */
static const struct {
	const char *name;
	uint64_t bit;
} doc_features[] = {
	{ "bmi1", LF_CPU_BMI1 },       { "bmi2", LF_CPU_BMI2 },
	{ "adx", LF_CPU_ADX },         { "avx", LF_CPU_AVX },
	{ "avx2", LF_CPU_AVX2 },       { "fma", LF_CPU_FMA },
	{ "avx512f", LF_CPU_AVX512F }, { "avx512dq", LF_CPU_AVX512DQ },
	{ "avx512bw", LF_CPU_AVX512BW }, { "avx512vl", LF_CPU_AVX512VL },
	{ "avx512ifma", LF_CPU_AVX512IFMA }, { "avx512vbmi", LF_CPU_AVX512VBMI },
	{ "avx512vbmi2", LF_CPU_AVX512VBMI2 }, { "avxifma", LF_CPU_AVXIFMA },
	{ "movbe", LF_CPU_MOVBE },     { "asimd", LF_CPU_ASIMD },
	{ "aes", LF_CPU_AES },         { "pmull", LF_CPU_PMULL },
	{ "sha2", LF_CPU_SHA2 },       { "sha3", LF_CPU_SHA3 },
	{ "sve", LF_CPU_SVE },         { "sve2", LF_CPU_SVE2 },
	{ "asm", LF_CPU_ASM },
};
#define X86_ALL (LF_CPU_BMI1 | LF_CPU_BMI2 | LF_CPU_ADX | LF_CPU_AVX | LF_CPU_AVX2 | LF_CPU_FMA | \
                 LF_CPU_AVX512F | LF_CPU_AVX512DQ | LF_CPU_AVX512BW | LF_CPU_AVX512VL |       \
                 LF_CPU_AVX512IFMA | LF_CPU_AVX512VBMI | LF_CPU_AVX512VBMI2 | LF_CPU_AVXIFMA | \
                 LF_CPU_MOVBE)
#define AVX512_ALL (LF_CPU_AVX512F | LF_CPU_AVX512DQ | LF_CPU_AVX512BW | LF_CPU_AVX512VL |   \
                    LF_CPU_AVX512IFMA | LF_CPU_AVX512VBMI | LF_CPU_AVX512VBMI2)
#define VEX_ALL (LF_CPU_AVX | LF_CPU_AVX2 | LF_CPU_FMA | LF_CPU_AVXIFMA | AVX512_ALL)
#define A64_ALL (LF_CPU_ASIMD | LF_CPU_AES | LF_CPU_PMULL | LF_CPU_SHA2 | LF_CPU_SHA3 |      \
                 LF_CPU_SVE | LF_CPU_SVE2)

/* The dependency rule limbforge.h states, restated here independently of cpu.c: a feature
 * goes when what it needs goes (AVX2/FMA/AVX-IFMA/AVX-512 need AVX, the AVX-512 extensions
 * AVX-512F, the AArch64 crypto extensions ASIMD, SVE2 needs SVE). */
static uint64_t doc_implied(uint64_t f)
{
	if (!(f & LF_CPU_AVX))
		f &= ~VEX_ALL;
	if (!(f & LF_CPU_AVX512F))
		f &= ~AVX512_ALL;
	if (!(f & LF_CPU_ASIMD))
		f &= ~(LF_CPU_AES | LF_CPU_PMULL | LF_CPU_SHA2 | LF_CPU_SHA3);
	if (!(f & LF_CPU_SVE))
		f &= ~LF_CPU_SVE2;
	return f;
}

static uint64_t doc_bit(const char *name)
{
	for (size_t i = 0; i < NLEN(doc_features); i++)
		if (strcmp(doc_features[i].name, name) == 0)
			return doc_features[i].bit;
	return 0;
}

static const char *fnames(uint64_t f)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	return feature_names(f, buf[k], sizeof buf[k]);
}

static void assert_features(uint64_t got, uint64_t want, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void assert_features(uint64_t got, uint64_t want, int line, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	ck_assert_msg(got == want, "line %d: %s: got {%s}, want {%s}", line, what, fnames(got),
	              fnames(want));
}
#define ASSERT_FEATURES(got, want, ...) assert_features((got), (want), __LINE__, __VA_ARGS__)

START_TEST(test_feature_names)
{
	size_t n = 0;
	for (const struct lf_feature_name *f = lf_feature_names; f->name; f++, n++) {
		uint64_t b = doc_bit(f->name);
		ck_assert_msg(b != 0, "lf_feature_names has \"%s\", not documented in limbforge.h",
		              f->name);
		ck_assert_msg(b == f->bit, "lf_feature_names: \"%s\" is bit %#llx, limbforge.h says "
		              "%#llx", f->name, (unsigned long long)f->bit, (unsigned long long)b);
		for (const struct lf_feature_name *g = lf_feature_names; g < f; g++)
			ck_assert_msg(g->bit != f->bit && strcmp(g->name, f->name) != 0,
			              "duplicate feature %s", f->name);
	}
	ck_assert_msg(n == NLEN(doc_features), "lf_feature_names has %zu names, limbforge.h %zu",
	              n, NLEN(doc_features));
}
END_TEST

/* ---- x86 decoding with synthetic CPUID/XCR0 --------------------------------------------
 * Bit positions from the Intel SDM (CPUID leaf 1 ECX, leaf 7 subleaf 0 EBX/ECX, leaf 7
 * subleaf 1 EAX), written here independently of runtime/cpu.c. */
#define L1_FMA (1u << 12)
#define L1_MOVBE (1u << 22)
#define L1_OSXSAVE (1u << 27)
#define L1_AVX (1u << 28)
#define L7B_BMI1 (1u << 3)
#define L7B_AVX2 (1u << 5)
#define L7B_BMI2 (1u << 8)
#define L7B_AVX512F (1u << 16)
#define L7B_AVX512DQ (1u << 17)
#define L7B_ADX (1u << 19)
#define L7B_AVX512IFMA (1u << 21)
#define L7B_AVX512BW (1u << 30)
#define L7B_AVX512VL (1u << 31)
#define L7C_AVX512VBMI (1u << 1)
#define L7C_AVX512VBMI2 (1u << 6)
#define L7S1A_AVXIFMA (1u << 23)
#define XCR0_X87_SSE_AVX UINT64_C(0x7)
#define XCR0_FULL UINT64_C(0xe7) /* + opmask, ZMM_Hi256, Hi16_ZMM */

static struct lf_x86_cpuid everything(void)
{
	struct lf_x86_cpuid c;
	memset(&c, 0, sizeof c);
	c.max_leaf = 0xd;
	c.l1_ecx = L1_FMA | L1_MOVBE | L1_OSXSAVE | L1_AVX;
	c.l7_ebx = L7B_BMI1 | L7B_AVX2 | L7B_BMI2 | L7B_AVX512F | L7B_AVX512DQ | L7B_ADX |
	           L7B_AVX512IFMA | L7B_AVX512BW | L7B_AVX512VL;
	c.l7_ecx = L7C_AVX512VBMI | L7C_AVX512VBMI2;
	c.l7s1_eax = L7S1A_AVXIFMA;
	c.xcr0 = XCR0_FULL;
	return c;
}

START_TEST(test_decode_x86)
{
	struct lf_x86_cpuid c;

	c = everything();
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), X86_ALL, "every bit, XCR0 0xe7");

	memset(&c, 0, sizeof c);
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), 0, "all zero");

	c = everything();
	c.max_leaf = 0;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), 0, "max leaf 0: no leaf is valid");

	c = everything();
	c.max_leaf = 6;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), LF_CPU_MOVBE | LF_CPU_AVX | LF_CPU_FMA,
	                "max leaf 6: leaf 7 words are not valid");

	/* OS has not enabled XSAVE: no VEX/EVEX feature at all, whatever XCR0 holds */
	c = everything();
	c.l1_ecx &= ~L1_OSXSAVE;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), X86_ALL & ~VEX_ALL, "OSXSAVE off");

	/* YMM enabled, opmask/ZMM not: AVX family yes, AVX-512 no */
	c = everything();
	c.xcr0 = XCR0_X87_SSE_AVX;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), X86_ALL & ~AVX512_ALL, "XCR0 = 0x7 (no ZMM state)");
	static const uint64_t partial_zmm[] = { 0x67, 0xa7, 0xc7, 0x27, 0x47, 0x87 };
	for (size_t i = 0; i < NLEN(partial_zmm); i++) {
		c.xcr0 = partial_zmm[i];
		ASSERT_FEATURES(lf_cpu_decode_x86(&c), X86_ALL & ~AVX512_ALL,
		                "XCR0 with only some of bits 5-7");
	}
	/* YMM state off (bit 2) or SSE state off (bit 1): no AVX, and hence no AVX-512 */
	static const uint64_t no_ymm[] = { 0x3, 0xe3, 0x5, 0xe5, 0x1 };
	for (size_t i = 0; i < NLEN(no_ymm); i++) {
		c.xcr0 = no_ymm[i];
		ASSERT_FEATURES(lf_cpu_decode_x86(&c), X86_ALL & ~VEX_ALL, "XCR0 without SSE+YMM");
	}

	/* AVX CPUID bit off: AVX2/FMA/AVX-IFMA/AVX-512 need VEX, so none of them */
	c = everything();
	c.l1_ecx &= ~L1_AVX;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), X86_ALL & ~VEX_ALL, "AVX bit off");

	/* BMI2 without ADX, ADX without BMI2: neither implies the other */
	memset(&c, 0, sizeof c);
	c.max_leaf = 7;
	c.l7_ebx = L7B_BMI2;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), LF_CPU_BMI2, "BMI2 without ADX");
	c.l7_ebx = L7B_ADX;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), LF_CPU_ADX, "ADX without BMI2");

	/* AVX-512 sub-features exactly as reported: IFMA without VL, F without BW/VL */
	c = everything();
	c.l7_ebx &= ~(L7B_AVX512VL | L7B_AVX512BW | L7B_AVX512DQ);
	c.l7_ecx = 0;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c) & AVX512_ALL, LF_CPU_AVX512F | LF_CPU_AVX512IFMA,
	                "IFMA without VL");
	c.l7_ebx &= ~L7B_AVX512IFMA;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c) & AVX512_ALL, LF_CPU_AVX512F,
	                "AVX512F without BW/VL");
	/* sub-feature bits without AVX512F: none of AVX-512 */
	c = everything();
	c.l7_ebx &= ~L7B_AVX512F;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c) & AVX512_ALL, 0, "AVX-512 sub-features without F");

	/* AVX-IFMA needs the YMM state */
	memset(&c, 0, sizeof c);
	c.max_leaf = 7;
	c.l1_ecx = L1_AVX;
	c.l7s1_eax = L7S1A_AVXIFMA;
	c.xcr0 = XCR0_X87_SSE_AVX;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), 0, "AVX-IFMA, AVX, OSXSAVE off");
	c.l1_ecx |= L1_OSXSAVE;
	ASSERT_FEATURES(lf_cpu_decode_x86(&c), LF_CPU_AVX | LF_CPU_AVXIFMA, "AVX-IFMA with YMM");
}
END_TEST

/* Each CPUID bit on its own (with its prerequisites) adds exactly its feature. */
START_TEST(test_decode_x86_single_bits)
{
	static const struct {
		int word; /* 0 l1_ecx, 1 l7_ebx, 2 l7_ecx, 3 l7s1_eax */
		uint32_t bit;
		uint64_t feature;
		int needs; /* 0 nothing, 1 AVX (+ OS state), 2 AVX-512F (+ OS state) */
	} bits[] = {
		{ 0, L1_MOVBE, LF_CPU_MOVBE, 0 },       { 0, L1_FMA, LF_CPU_FMA, 1 },
		{ 1, L7B_BMI1, LF_CPU_BMI1, 0 },        { 1, L7B_BMI2, LF_CPU_BMI2, 0 },
		{ 1, L7B_ADX, LF_CPU_ADX, 0 },          { 1, L7B_AVX2, LF_CPU_AVX2, 1 },
		{ 3, L7S1A_AVXIFMA, LF_CPU_AVXIFMA, 1 },
		{ 1, L7B_AVX512DQ, LF_CPU_AVX512DQ, 2 }, { 1, L7B_AVX512IFMA, LF_CPU_AVX512IFMA, 2 },
		{ 1, L7B_AVX512BW, LF_CPU_AVX512BW, 2 }, { 1, L7B_AVX512VL, LF_CPU_AVX512VL, 2 },
		{ 2, L7C_AVX512VBMI, LF_CPU_AVX512VBMI, 2 },
		{ 2, L7C_AVX512VBMI2, LF_CPU_AVX512VBMI2, 2 },
	};
	for (size_t i = 0; i < NLEN(bits); i++) {
		struct lf_x86_cpuid c;
		memset(&c, 0, sizeof c);
		c.max_leaf = 0xd;
		if (bits[i].needs >= 1) {
			c.l1_ecx = L1_OSXSAVE | L1_AVX;
			c.xcr0 = XCR0_FULL;
		}
		if (bits[i].needs >= 2)
			c.l7_ebx = L7B_AVX512F;
		uint64_t base = lf_cpu_decode_x86(&c);
		uint32_t *w[4] = { &c.l1_ecx, &c.l7_ebx, &c.l7_ecx, &c.l7s1_eax };
		*w[bits[i].word] |= bits[i].bit;
		ASSERT_FEATURES(lf_cpu_decode_x86(&c), base | bits[i].feature, "single CPUID bit %s",
		                fnames(bits[i].feature));
	}
}
END_TEST

/* ---- AArch64 HWCAP ------------------------------------------------------------------------
 * Values from Linux arch/arm64/include/uapi/asm/hwcap.h; on AArch64 builds the real header
 * checks them. */
#define HC_FP (1ul << 0)
#define HC_ASIMD (1ul << 1)
#define HC_AES (1ul << 3)
#define HC_PMULL (1ul << 4)
#define HC_SHA1 (1ul << 5)
#define HC_SHA2 (1ul << 6)
#define HC_SHA3 (1ul << 17)
#define HC_SVE (1ul << 22)
#define HC2_SVE2 (1ul << 1)
#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
_Static_assert(HC_FP == HWCAP_FP && HC_ASIMD == HWCAP_ASIMD && HC_AES == HWCAP_AES &&
               HC_PMULL == HWCAP_PMULL && HC_SHA1 == HWCAP_SHA1 && HC_SHA2 == HWCAP_SHA2 &&
               HC_SHA3 == HWCAP_SHA3 && HC_SVE == HWCAP_SVE && HC2_SVE2 == HWCAP2_SVE2,
               "HWCAP values");
#endif

START_TEST(test_decode_aarch64)
{
	static const struct {
		unsigned long hwcap, hwcap2;
		uint64_t f;
	} one[] = {
		{ HC_ASIMD, 0, LF_CPU_ASIMD }, { HC_AES, 0, LF_CPU_AES },   { HC_PMULL, 0, LF_CPU_PMULL },
		{ HC_SHA2, 0, LF_CPU_SHA2 },   { HC_SHA3, 0, LF_CPU_SHA3 }, { HC_SVE, 0, LF_CPU_SVE },
		{ 0, HC2_SVE2, LF_CPU_SVE2 },
	};
	unsigned long all1 = 0, all2 = 0;
	ASSERT_FEATURES(lf_cpu_decode_aarch64(0, 0), 0, "no HWCAP");
	ASSERT_FEATURES(lf_cpu_decode_aarch64(HC_FP | HC_SHA1, 0), 0, "FP and SHA1 only");
	for (size_t i = 0; i < NLEN(one); i++) {
		ASSERT_FEATURES(lf_cpu_decode_aarch64(one[i].hwcap, one[i].hwcap2), one[i].f,
		                "single HWCAP bit");
		all1 |= one[i].hwcap;
		all2 |= one[i].hwcap2;
	}
	ASSERT_FEATURES(lf_cpu_decode_aarch64(all1, all2), A64_ALL, "every known HWCAP bit");
	ASSERT_FEATURES(lf_cpu_decode_aarch64(~all1, ~all2), 0, "every other HWCAP bit");
	/* the two words are not interchangeable */
	ASSERT_FEATURES(lf_cpu_decode_aarch64(HC2_SVE2, 0), LF_CPU_ASIMD, "hwcap bit 1 is ASIMD");
	ASSERT_FEATURES(lf_cpu_decode_aarch64(0, HC_ASIMD), LF_CPU_SVE2, "hwcap2 bit 1 is SVE2");
	ASSERT_FEATURES(lf_cpu_decode_aarch64(0, HC_SVE | HC_SHA3), 0, "hwcap bits in hwcap2");
}
END_TEST

/* This machine: limbforge's detection against the kernel's own view. */
START_TEST(test_detect_host)
{
	uint64_t d = lf_cpu_detect();
#if defined(__x86_64__) || defined(__aarch64__)
	ck_assert_msg(d & LF_CPU_ASM, "LF_CPU_ASM not set where assembly kernels exist");
	d &= ~LF_CPU_ASM;
#endif
#if defined(__x86_64__)
	static const struct {
		const char *flag;
		uint64_t bit;
	} map[] = {
		{ "bmi1", LF_CPU_BMI1 }, { "bmi2", LF_CPU_BMI2 }, { "adx", LF_CPU_ADX },
		{ "avx", LF_CPU_AVX }, { "avx2", LF_CPU_AVX2 }, { "fma", LF_CPU_FMA },
		{ "avx512f", LF_CPU_AVX512F }, { "avx512dq", LF_CPU_AVX512DQ },
		{ "avx512bw", LF_CPU_AVX512BW }, { "avx512vl", LF_CPU_AVX512VL },
		{ "avx512ifma", LF_CPU_AVX512IFMA }, { "avx512vbmi", LF_CPU_AVX512VBMI },
		{ "avx512_vbmi2", LF_CPU_AVX512VBMI2 }, { "avx_ifma", LF_CPU_AVXIFMA },
		{ "movbe", LF_CPU_MOVBE },
	};
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	uint64_t want = 0;
	int found = 0;
	if (!f) {
		printf("dispatch: SKIP /proc/cpuinfo comparison: cannot open /proc/cpuinfo\n");
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		found = 1;
		for (size_t i = 0; i < NLEN(map); i++) {
			char pat[32];
			snprintf(pat, sizeof pat, " %s", map[i].flag);
			for (char *p = strstr(line, pat); p; p = strstr(p + 1, pat)) {
				char e = p[strlen(pat)];
				if (e == ' ' || e == '\n' || e == 0) {
					want |= map[i].bit;
					break;
				}
			}
		}
		break;
	}
	free(line);
	fclose(f);
	if (!found) {
		printf("dispatch: SKIP /proc/cpuinfo comparison: no flags line\n");
		return;
	}
	/* Linux names avx_ifma only since 6.3: an older kernel cannot confirm it either way */
	if ((d & ~want) == LF_CPU_AVXIFMA) {
		printf("dispatch: note: avx_ifma detected but not in /proc/cpuinfo (kernel < 6.3?)\n");
		want |= LF_CPU_AVXIFMA;
	}
	ASSERT_FEATURES(d, want, "lf_cpu_detect() vs /proc/cpuinfo flags");
#elif defined(__aarch64__)
	ASSERT_FEATURES(d, lf_cpu_decode_aarch64(getauxval(AT_HWCAP), getauxval(AT_HWCAP2)),
	                "lf_cpu_detect() vs getauxval");
	ck_assert_msg(d & LF_CPU_ASIMD, "no ASIMD on an AArch64 Linux system?");
#else
	ck_assert_msg(d == 0, "features detected on an unsupported architecture");
#endif
}
END_TEST

/* ---- LIMBFORGE_CPU parsing ---------------------------------------------------------------- */
static uint64_t parse(const char *spec, uint64_t detected, char *warn, size_t wlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	ck_assert(w != NULL);
	uint64_t r = lf_cpu_parse_mask(spec, detected, w);
	fclose(w);
	snprintf(warn, wlen, "%s", buf ? buf : "");
	free(buf);
	return r;
}

START_TEST(test_parse_mask)
{
	const uint64_t D = X86_ALL | LF_CPU_ASIMD | LF_CPU_SVE;
	const uint64_t NO_ADX = D & ~LF_CPU_ADX;
	char w[512];

	ASSERT_FEATURES(lf_cpu_parse_mask(NULL, D, NULL), D, "NULL spec");
	ASSERT_FEATURES(parse("", D, w, sizeof w), D, "empty spec");
	ck_assert_msg(w[0] == 0, "empty spec warned: %s", w);
	ASSERT_FEATURES(parse("none", D, w, sizeof w), 0, "none");
	ASSERT_FEATURES(parse("all", D, w, sizeof w), D, "all");
	ASSERT_FEATURES(parse("-adx", D, w, sizeof w), NO_ADX, "-adx");
	ck_assert_msg(w[0] == 0, "-adx warned: %s", w);
	ASSERT_FEATURES(parse("-avx512ifma,-adx", D, w, sizeof w),
	                D & ~(LF_CPU_AVX512IFMA | LF_CPU_ADX), "-avx512ifma,-adx");
	ASSERT_FEATURES(parse(",,-adx,", D, w, sizeof w), NO_ADX, "empty tokens");
	ASSERT_FEATURES(parse("none,+bmi2", D, w, sizeof w), LF_CPU_BMI2, "none,+bmi2");
	ASSERT_FEATURES(parse("none,bmi2", D, w, sizeof w), LF_CPU_BMI2, "none,bmi2");
	ASSERT_FEATURES(parse("-adx,all", D, w, sizeof w), D, "-adx,all");

	/* never adds a feature that was not detected */
	ASSERT_FEATURES(parse("+adx", NO_ADX, w, sizeof w), NO_ADX, "+adx, ADX not detected");
	ASSERT_FEATURES(parse("none,+adx,+bmi2", LF_CPU_BMI2, w, sizeof w), LF_CPU_BMI2,
	                "none,+adx,+bmi2 with only BMI2 detected");
	ASSERT_FEATURES(parse("all", LF_CPU_BMI2, w, sizeof w), LF_CPU_BMI2, "all adds nothing");

	/* unknown tokens: warned about, ignored */
	ASSERT_FEATURES(parse("-bogus", D, w, sizeof w), D, "-bogus");
	ck_assert_msg(strstr(w, "bogus") != NULL, "no warning naming 'bogus' (got \"%s\")", w);
	ASSERT_FEATURES(parse("sse9,-adx", D, w, sizeof w), NO_ADX, "sse9,-adx");
	ck_assert_msg(strstr(w, "sse9") != NULL, "no warning naming 'sse9' (got \"%s\")", w);
	ASSERT_FEATURES(parse("-adxx", D, w, sizeof w), D, "-adxx (prefix of no name)");
	ASSERT_FEATURES(parse("-ad", D, w, sizeof w), D, "-ad (prefix of adx)");
	ck_assert_msg(strstr(w, "ad") != NULL, "no warning for '-ad' (got \"%s\")", w);
	ASSERT_FEATURES(lf_cpu_parse_mask("-bogus,-adx", D, NULL), NO_ADX, "warn == NULL");

	/* every documented name, removed and kept alone (with what depends on it) */
	for (size_t i = 0; i < NLEN(doc_features); i++) {
		char spec[64];
		snprintf(spec, sizeof spec, "-%s", doc_features[i].name);
		ASSERT_FEATURES(parse(spec, D, w, sizeof w), doc_implied(D & ~doc_features[i].bit),
		                "%s", spec);
		snprintf(spec, sizeof spec, "none,+%s", doc_features[i].name);
		ASSERT_FEATURES(parse(spec, D, w, sizeof w), doc_implied(D & doc_features[i].bit),
		                "%s", spec);
		ck_assert_msg(w[0] == 0, "%s warned: %s", spec, w);
	}

	/* blanks around tokens are ignored; a bare sign is warned about */
	ASSERT_FEATURES(parse(" -adx , -bmi2", D, w, sizeof w), D & ~(LF_CPU_ADX | LF_CPU_BMI2),
	                "blanks around tokens");
	ck_assert_msg(w[0] == 0, "blanks warned: %s", w);
	ASSERT_FEATURES(parse("-", D, w, sizeof w), D, "bare -");
	ck_assert_msg(w[0] != 0, "no warning for a bare '-'");
	/* dependants go with what they need */
	ASSERT_FEATURES(parse("-avx", D, w, sizeof w), D & ~VEX_ALL, "-avx drops AVX2, AVX-512");
	ASSERT_FEATURES(parse("-avx512f", D, w, sizeof w), D & ~AVX512_ALL,
	                "-avx512f drops the AVX-512 extensions");

	/* property: whatever the tokens, the result is a subset of what was detected */
	rng_t rng;
	rng_init(&rng, "parse-mask", 0);
	for (int it = 0; it < 2000; it++) {
		char spec[256] = "";
		uint64_t det = rng_next(&rng) & (X86_ALL | A64_ALL);
		int ntok = (int)(rng_next(&rng) % 5);
		for (int t = 0; t < ntok; t++) {
			static const char *const sign[] = { "", "+", "-" };
			uint64_t x = rng_next(&rng);
			const char *name = x % 7 == 0 ? "none" : x % 11 == 0 ? "all" : x % 13 == 0 ? "zzz"
			                   : doc_features[(x >> 8) % NLEN(doc_features)].name;
			size_t o = strlen(spec);
			snprintf(spec + o, sizeof spec - o, "%s%s%s", t ? "," : "", sign[(x >> 4) % 3],
			         name);
		}
		uint64_t r = lf_cpu_parse_mask(spec, det, NULL);
		ck_assert_msg((r & ~det) == 0, "\"%s\" added {%s} to {%s}", spec, fnames(r & ~det),
		              fnames(det));
	}
}
END_TEST

/* ---- the table and the choice ------------------------------------------------------------- */
static lf_fnptr ref_symbol(int kid)
{
	switch (kid) {
	case LF_K_mpn_mul_1:
		return (lf_fnptr)lf_mpn_mul_1_ref;
	case LF_K_mpn_addmul_1:
		return (lf_fnptr)lf_mpn_addmul_1_ref;
	case LF_K_mpn_sqr:
		return (lf_fnptr)lf_mpn_sqr_ref;
	case LF_K_bi_mul_add:
		return (lf_fnptr)lf_bi_mul_add_ref;
	case LF_K_bi_square_to_len:
		return (lf_fnptr)lf_bi_square_to_len_ref;
	case LF_K_poly1305_blocks:
		return (lf_fnptr)lf_poly1305_blocks_ref;
	case LF_K_mpn_mul:
		return (lf_fnptr)lf_mpn_mul_ref;
	case LF_K_mpn_montmul:
		return (lf_fnptr)lf_mpn_montmul_ref;
	case LF_K_bi_multiply_to_len:
		return (lf_fnptr)lf_bi_multiply_to_len_ref;
	case LF_K_p256_mul_mont:
		return (lf_fnptr)lf_p256_mul_mont_ref;
	case LF_K_p256_sqr_mont:
		return (lf_fnptr)lf_p256_sqr_mont_ref;
	case LF_K_conditional_assign:
		return (lf_fnptr)lf_conditional_assign_ref;
	case LF_K_p256_mont_mult:
		return (lf_fnptr)lf_p256_mont_mult_ref;
	case LF_K_p256_mont_square:
		return (lf_fnptr)lf_p256_mont_square_ref;
	case LF_K_p256_mont_mult_x8:
		return (lf_fnptr)lf_p256_mont_mult_x8_ref;
	case LF_K_fe_c25519_r51_mul_x4:
		return (lf_fnptr)lf_fe_c25519_r51_mul_x4_ref;
	case LF_K_x25519_ladder:
		return (lf_fnptr)lf_x25519_ladder_ref;
	case LF_K_x448_ladder:
		return (lf_fnptr)lf_x448_ladder_ref;
	default:
		/* the field products: lf_fe_<field>_<op>_ref, the field's generated C */
		return fe_kernel((enum lf_kernel_id)kid) ? fe_kernel((enum lf_kernel_id)kid)->ref
		                                         : NULL;
	}
}

START_TEST(test_table_shape)
{
	static const char *const names[] = { [LF_K_mpn_mul_1] = "mpn_mul_1",
		                             [LF_K_mpn_addmul_1] = "mpn_addmul_1",
		                             [LF_K_mpn_sqr] = "mpn_sqr",
		                             [LF_K_bi_mul_add] = "bi_mul_add",
		                             [LF_K_bi_square_to_len] = "bi_square_to_len",
		                             [LF_K_poly1305_blocks] = "poly1305_blocks",
		                             [LF_K_mpn_mul] = "mpn_mul",
		                             [LF_K_mpn_montmul] = "mpn_montmul",
		                             [LF_K_bi_multiply_to_len] = "bi_multiply_to_len",
		                             [LF_K_p256_mul_mont] = "p256_mul_mont",
		                             [LF_K_p256_sqr_mont] = "p256_sqr_mont",
		                             [LF_K_conditional_assign] = "conditional_assign",
		                             [LF_K_p256_mont_mult] = "p256_mont_mult",
		                             [LF_K_p256_mont_square] = "p256_mont_square",
		                             [LF_K_p256_mont_mult_x8] = "p256_mont_mult_x8" };
	uint64_t arch_bits = 0;
#if defined(__x86_64__)
	arch_bits = X86_ALL | LF_CPU_ASM;
#elif defined(__aarch64__)
	arch_bits = A64_ALL | LF_CPU_ASM;
#endif
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		if (kid < (int)NLEN(names) && names[kid])
			ck_assert_str_eq(k->name, names[kid]);
		ck_assert_msg(k->count >= 1, "%s has no variants", k->name);
		const struct lf_variant *last = &k->variants[k->count - 1];
		ck_assert_msg(strcmp(last->name, "ref") == 0, "%s: last variant is %s, not ref",
		              k->name, last->name);
		ck_assert_msg(last->features == 0, "%s/ref requires features", k->name);
		if (ref_symbol(kid))
			ck_assert_msg(last->fn == ref_symbol(kid), "%s/ref is not lf_%s_ref", k->name,
			              k->name);
		for (size_t j = 0; j < k->count; j++) {
			const struct lf_variant *v = &k->variants[j];
			ck_assert_msg(v->name && v->name[0], "%s: variant %zu unnamed", k->name, j);
			ck_assert_msg(v->fn != NULL, "%s/%s: NULL function", k->name, v->name);
			ck_assert_msg(v->schedule != NULL, "%s/%s: NULL schedule", k->name, v->name);
			ck_assert_msg((v->features & ~arch_bits) == 0,
			              "%s/%s needs {%s}, not features of this architecture", k->name,
			              v->name, fnames(v->features & ~arch_bits));
			for (size_t i = 0; i < j; i++) {
				ck_assert_msg(strcmp(k->variants[i].name, v->name) != 0,
				              "%s: duplicate variant %s", k->name, v->name);
				ck_assert_msg(k->variants[i].fn != v->fn, "%s: %s and %s share a function",
				              k->name, k->variants[i].name, v->name);
			}
		}
	}
}
END_TEST

/* The build a correct dispatcher picks under the schedule in use (harness/variants.c). */
static size_t expected_choice(const struct lf_kernel *k, uint64_t allowed)
{
	return tv_expected_choice(k, allowed, lf_schedule_current());
}

START_TEST(test_choose)
{
	struct lf_x86_cpuid c;
	uint64_t synthetic[8];
	size_t ns = 0;
	/* masks a real machine can produce */
	c = everything();
	synthetic[ns++] = lf_cpu_decode_x86(&c);
	c.xcr0 = XCR0_X87_SSE_AVX;
	synthetic[ns++] = lf_cpu_decode_x86(&c);              /* AVX-512 bits, no ZMM state */
	c = everything();
	c.l1_ecx &= ~L1_OSXSAVE;
	synthetic[ns++] = lf_cpu_decode_x86(&c);              /* OSXSAVE off */
	c = everything();
	c.l7_ebx &= ~(L7B_ADX | L7B_AVX512VL);
	synthetic[ns++] = lf_cpu_decode_x86(&c);              /* BMI2 without ADX; IFMA w/o VL */
	synthetic[ns++] = lf_cpu_decode_aarch64(~0ul, ~0ul);
	synthetic[ns++] = 0;
	synthetic[ns++] = ~UINT64_C(0);

	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		uint64_t used = 0;
		unsigned bits[64], nb = 0;
		for (size_t j = 0; j < k->count; j++)
			used |= k->variants[j].features;
		for (unsigned b = 0; b < 64; b++)
			if (used >> b & 1)
				bits[nb++] = b;
		ck_assert_msg(nb <= 16, "%s uses %u feature bits; enumerate fewer", k->name, nb);
		/* under every schedule: every subset of the features the table uses, plus the
		 * synthetic machines */
		for (size_t sc = 0; lf_schedule_table[sc].name; sc++) {
		for (uint64_t s = 0; s < (UINT64_C(1) << nb) + ns; s++) {
			uint64_t m = 0;
			if (s < (UINT64_C(1) << nb)) {
				for (unsigned i = 0; i < nb; i++)
					if (s >> i & 1)
						m |= UINT64_C(1) << bits[i];
			} else {
				m = synthetic[s - (UINT64_C(1) << nb)];
			}
			size_t got = lf_dispatch_choose(k, m, sc), want = tv_expected_choice(k, m, sc);
			ck_assert_msg(got < k->count, "%s: choice %zu out of range", k->name, got);
			ck_assert_msg((k->variants[got].features & ~m) == 0,
			              "%s: chose %s needing {%s} under {%s}", k->name,
			              k->variants[got].name, fnames(k->variants[got].features), fnames(m));
			ck_assert_msg(got == want, "%s under {%s}: chose %s, the best allowed is %s",
			              k->name, fnames(m), k->variants[got].name, k->variants[want].name);
		}
		size_t z = lf_dispatch_choose(k, 0, sc);
		ck_assert_msg(k->variants[z].features == 0, "%s: mask 0 chose %s", k->name,
		              k->variants[z].name);
		}
	}
}
END_TEST

/* ---- lf_impl, lf_impl_list, lf_impl_force --------------------------------------------------- */
static void restore_all(void)
{
	for (int kid = 0; kid < LF_K_COUNT; kid++)
		lf_impl_force(lf_kernel_table[kid].name, NULL);
}

START_TEST(test_impl)
{
	uint64_t allowed = lf_cpu_features();
	ck_assert_ptr_null(lf_impl(NULL));
	ck_assert_ptr_null(lf_impl(""));
	ck_assert_ptr_null(lf_impl("mpn_mul_2"));
	ck_assert_ptr_null(lf_impl("lf_mpn_mul_1")); /* names are without the lf_ prefix */
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		const char *cur = lf_impl(k->name);
		size_t want = expected_choice(k, allowed);
		ck_assert_msg(cur != NULL, "lf_impl(%s) = NULL", k->name);
		ck_assert_msg(strcmp(cur, k->variants[want].name) == 0,
		              "lf_impl(%s) = %s, but the best allowed variant is %s (allowed {%s})",
		              k->name, cur, k->variants[want].name, fnames(allowed));
		ck_assert_msg(lf_dispatch_get((enum lf_kernel_id)kid) == k->variants[want].fn,
		              "%s: the slot does not hold %s's function", k->name, cur);
		ck_assert_uint_eq(lf_dispatch_hint((enum lf_kernel_id)kid, k->variants[want].fn),
		                  k->variants[want].hint);
		/* any build of the table by its function (the index the resolver noted is another
		 * build's for all but one of them: the scan) */
		for (size_t j = 0; j < k->count; j++)
			ck_assert_msg(lf_dispatch_hint((enum lf_kernel_id)kid, k->variants[j].fn) ==
			                      k->variants[j].hint,
			              "lf_dispatch_hint(%s, %s's function) = %u, its hint is %u",
			              k->name, k->variants[j].name,
			              lf_dispatch_hint((enum lf_kernel_id)kid, k->variants[j].fn),
			              k->variants[j].hint);
		ck_assert_uint_eq(k->variants[k->count - 1].hint, 0);   /* ref */
	}
}
END_TEST

START_TEST(test_impl_list)
{
	uint64_t allowed = lf_cpu_features();
	const char *names[64];
	ck_assert_uint_eq(lf_impl_list("nope", names, 64), 0);
	ck_assert_uint_eq(lf_impl_list(NULL, names, 64), 0);
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		size_t want = 0;
		for (size_t j = 0; j < k->count; j++)
			want += (k->variants[j].features & ~allowed) == 0;
		for (size_t i = 0; i < 64; i++)
			names[i] = "sentinel";
		size_t n = lf_impl_list(k->name, names, 64);
		ck_assert_msg(n == want, "lf_impl_list(%s) = %zu, want %zu", k->name, n, want);
		/* the schedule in use's preference, then the other builds in table order, ref */
		size_t pref[64], np = tv_expected_order(k, lf_schedule_current(), pref, 64), o = 0;
		unsigned char seen[64] = { 0 };
		const char *expect[64];
		for (size_t i = 0; i + 1 < np; i++) {
			seen[pref[i]] = 1;
			if (!(k->variants[pref[i]].features & ~allowed))
				expect[o++] = k->variants[pref[i]].name;
		}
		for (size_t j = 0; j + 1 < k->count; j++)
			if (!seen[j] && !(k->variants[j].features & ~allowed))
				expect[o++] = k->variants[j].name;
		expect[o++] = "ref";
		ck_assert_uint_eq(o, want);
		for (size_t i = 0; i < o; i++)
			ck_assert_msg(strcmp(names[i], expect[i]) == 0,
			              "lf_impl_list(%s)[%zu] = %s, want %s", k->name, i, names[i],
			              expect[i]);
		ck_assert_str_eq(names[n - 1], "ref");
		ck_assert_str_eq(names[n], "sentinel");
		/* truncated: the count is still the full count, nothing past max is written */
		for (size_t i = 0; i < 64; i++)
			names[i] = "sentinel";
		ck_assert_uint_eq(lf_impl_list(k->name, names, 1), want);
		ck_assert_str_eq(names[0], k->variants[expected_choice(k, allowed)].name);
		ck_assert_str_eq(names[1], "sentinel");
		ck_assert_uint_eq(lf_impl_list(k->name, NULL, 0), want);
	}
}
END_TEST

START_TEST(test_impl_force)
{
	uint64_t allowed = lf_cpu_features();
	int unrunnable_tested = 0;
	ck_assert_int_eq(lf_impl_force("nope", "ref"), -1);
	ck_assert_int_eq(lf_impl_force(NULL, "ref"), -1);
	ck_assert_int_eq(lf_impl_force("nope", NULL), -1);
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		const char *def = k->variants[expected_choice(k, allowed)].name;
		ck_assert_int_eq(lf_impl_force(k->name, "no-such-variant"), -1);
		ck_assert_int_eq(lf_impl_force(k->name, ""), -1);
		ck_assert_str_eq(lf_impl(k->name), def);
		const char *cur = def;
		for (size_t j = 0; j < k->count; j++) {
			const struct lf_variant *v = &k->variants[j];
			if (v->features & ~allowed) {
				/* not runnable: refused, and the current choice stays */
				ck_assert_msg(lf_impl_force(k->name, v->name) == -1,
				              "forcing unrunnable %s/%s (needs {%s}) succeeded", k->name,
				              v->name, fnames(v->features & ~allowed));
				ck_assert_str_eq(lf_impl(k->name), cur);
				unrunnable_tested++;
				continue;
			}
			ck_assert_int_eq(lf_impl_force(k->name, v->name), 0);
			ck_assert_str_eq(lf_impl(k->name), v->name);
			cur = v->name;
			ck_assert_msg(lf_dispatch_get((enum lf_kernel_id)kid) == v->fn,
			              "forced %s/%s but the slot holds another function", k->name,
			              v->name);
			ck_assert_uint_eq(lf_dispatch_hint((enum lf_kernel_id)kid, v->fn), v->hint);
		}
		ck_assert_int_eq(lf_impl_force(k->name, NULL), 0);
		ck_assert_str_eq(lf_impl(k->name), def);
	}
	if (!unrunnable_tested)
		printf("dispatch: note: every variant is runnable here, so forcing an unrunnable "
		       "one is covered by the LIMBFORGE_CPU runs and the mask suite\n");
}
END_TEST

/* ---- LIMBFORGE_CPU in the environment (tests.mk runs this suite under several masks) ----- */
START_TEST(test_env_mask)
{
	const char *env = getenv("LIMBFORGE_CPU");
	uint64_t det = lf_cpu_detect(), want = det;
	char tok[64];
	if (env) {
		/* an independent reading of the documented syntax: comma list of none, all,
		 * name, +name, -name */
		const char *p = env;
		while (*p) {
			size_t n = strcspn(p, ",");
			snprintf(tok, sizeof tok, "%.*s", (int)n, p);
			p += n + (p[n] == ',');
			if (!tok[0])
				continue;
			if (strcmp(tok, "none") == 0)
				want = 0;
			else if (strcmp(tok, "all") == 0)
				want = det;
			else if (tok[0] == '-')
				want &= ~doc_bit(tok + 1);
			else
				want |= doc_bit(tok + (tok[0] == '+')) & det;
		}
	}
	want = doc_implied(want);
	ASSERT_FEATURES(lf_cpu_features(), want, "lf_cpu_features() under LIMBFORGE_CPU=%s",
	                env ? env : "(unset)");
	uint64_t removed = det & ~want;
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		const char *cur = lf_impl(k->name);
		const char *names[64];
		size_t n = lf_impl_list(k->name, names, 64);
		for (size_t j = 0; j < k->count; j++) {
			const struct lf_variant *v = &k->variants[j];
			if (!(v->features & ~want))
				continue;
			ck_assert_msg(strcmp(cur, v->name) != 0, "LIMBFORGE_CPU=%s: %s/%s chosen",
			              env, k->name, v->name);
			for (size_t i = 0; i < n && i < 64; i++)
				ck_assert_msg(strcmp(names[i], v->name) != 0,
				              "LIMBFORGE_CPU=%s: %s/%s listed", env, k->name, v->name);
			ck_assert_msg(lf_impl_force(k->name, v->name) == -1,
			              "LIMBFORGE_CPU=%s: %s/%s could be forced", env, k->name, v->name);
			if (v->features & removed)
				printf("dispatch: LIMBFORGE_CPU=%s: %s/%s (needs {%s}) correctly never "
				       "chosen\n", env, k->name, v->name, fnames(v->features));
		}
	}
	fflush(stdout);
}
END_TEST

Suite *suite_dispatch(void)
{
	Suite *s = suite_create("dispatch");
	TCase *tc = tcase_create("pure");
	tcase_add_test(tc, test_feature_names);
	tcase_add_test(tc, test_decode_x86);
	tcase_add_test(tc, test_decode_x86_single_bits);
	tcase_add_test(tc, test_decode_aarch64);
	tcase_add_test(tc, test_parse_mask);
	tcase_add_test(tc, test_table_shape);
	tcase_add_test(tc, test_choose);
	suite_add_tcase(s, tc);

	tc = tcase_create("runtime");
	tcase_add_checked_fixture(tc, restore_all, restore_all);
	tcase_add_test(tc, test_detect_host);
	tcase_add_test(tc, test_impl);
	tcase_add_test(tc, test_impl_list);
	tcase_add_test(tc, test_impl_force);
	tcase_add_test(tc, test_env_mask);
	suite_add_tcase(s, tc);
	return s;
}
