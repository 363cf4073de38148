/*
 * test_schedule.c -- which schedule runs: CPU identification, matching, LIMBFORGE_SCHEDULE,
 * lf_schedule_force, and that every schedule's dispatcher choice computes correctly.
 *
 * Faults this is designed to catch:
 *   - a CPUID/MIDR decoder that drops the extended family/model fields, applies the
 *     extended model to families where it does not count, or shifts a MIDR field;
 *   - a matcher that ignores the vendor, treats "any model" wrongly, lets generic match, or
 *     picks a later schedule over an earlier one;
 *   - LIMBFORGE_SCHEDULE or lf_schedule_force naming one schedule while another runs, an
 *     unknown name accepted or silently ignored, the choice not re-resolved after a change;
 *   - a schedule whose builds compute wrong results through the public API.
 * Oracles: published CPUID signatures and MIDR values (Intel SDM vol. 2 CPUID, AMD APM
 * vol. 3 CPUID Fn0000_0001, Arm TRMs), /proc/cpuinfo for this host, GMP for the results.
 * LF_TEST_EXPECT_SCHEDULE=<name> (set by tests.mk for the runs under qemu -cpu <model> and
 * with LIMBFORGE_SCHEDULE) states the schedule that must be in use.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(test_decode_cpuid)
{
	static const struct {
		const char *what;
		uint32_t eax;
		unsigned family, model, stepping;
	} sig[] = {
		{ "Intel Sapphire Rapids", 0x000806f8, 0x6, 0x8f, 8 },
		{ "Intel Emerald Rapids", 0x000c06f2, 0x6, 0xcf, 2 },
		{ "Intel Skylake-SP", 0x00050654, 0x6, 0x55, 4 },
		{ "AMD Zen 4 (Genoa)", 0x00a10f11, 0x19, 0x11, 1 },
		{ "AMD Zen 5 (Granite Ridge)", 0x00b40f40, 0x1a, 0x44, 0 },
		{ "AMD K8 (family 0Fh: extended model counts)", 0x00020f32, 0xf, 0x23, 2 },
		/* family 5: the extended model field is not part of the model */
		{ "family 5 with extended-model bits", 0x00010543, 0x5, 0x4, 3 },
	};
	/* "GenuineIntel" is EBX "Genu", EDX "ineI", ECX "ntel" */
	const uint32_t ebx = 0x756e6547, edx = 0x49656e69, ecx = 0x6c65746e;
	for (size_t i = 0; i < NLEN(sig); i++) {
		struct lf_cpu_ident id;
		memset(&id, 0xa5, sizeof id);
		lf_cpu_ident_x86(&id, ebx, edx, ecx, sig[i].eax);
		ck_assert_msg(id.known, "%s: not known", sig[i].what);
		ck_assert_str_eq(id.vendor, "GenuineIntel");
		ck_assert_msg(id.family == sig[i].family && id.model == sig[i].model &&
		              id.stepping == sig[i].stepping,
		              "%s (%#x): family %#x model %#x stepping %u, want %#x %#x %u",
		              sig[i].what, sig[i].eax, id.family, id.model, id.stepping,
		              sig[i].family, sig[i].model, sig[i].stepping);
		ck_assert_uint_eq(id.implementer, 0);
		ck_assert_uint_eq(id.part, 0);
	}
}
END_TEST

START_TEST(test_decode_midr)
{
	static const struct {
		const char *what;
		uint64_t midr;
		unsigned implementer, variant, part, revision;
	} m[] = {
		{ "Neoverse N1 r4p1 (qemu -cpu neoverse-n1)", 0x414fd0c1, 0x41, 4, 0xd0c, 1 },
		{ "Cortex-A72 r0p3 (qemu -cpu cortex-a72)", 0x410fd083, 0x41, 0, 0xd08, 3 },
		{ "Neoverse V1 r1p1", 0x411fd401, 0x41, 1, 0xd40, 1 },
		{ "Cavium ThunderX2", 0x431f0af1, 0x43, 1, 0x0af, 1 },
		{ "Apple M1 Firestorm", 0x611f0231, 0x61, 1, 0x023, 1 },
		{ "upper bits set (RES0 in MIDR_EL1)", 0xffffffff414fd0c1ull, 0x41, 4, 0xd0c, 1 },
	};
	for (size_t i = 0; i < NLEN(m); i++) {
		struct lf_cpu_ident id;
		memset(&id, 0xa5, sizeof id);
		lf_cpu_ident_midr(&id, m[i].midr);
		ck_assert_msg(id.known && id.implementer == m[i].implementer &&
		              id.variant == m[i].variant && id.part == m[i].part &&
		              id.revision == m[i].revision,
		              "%s: implementer %#x variant %u part %#x revision %u", m[i].what,
		              id.implementer, id.variant, id.part, id.revision);
		ck_assert_str_eq(id.vendor, "");
		ck_assert_uint_eq(id.family, 0);
	}
	struct lf_cpu_ident id;
	lf_cpu_ident_midr(&id, 0);
	ck_assert_msg(!id.known, "MIDR 0 (unreadable) must count as unknown");
}
END_TEST

/* The matcher on a table of its own (independent of the checked-in schedule files). */
START_TEST(test_match_synthetic)
{
	static const struct lf_schedule_id spr[] = { { 6, 0x8f }, { 6, 0xcf } };
	static const struct lf_schedule_id zen5[] = { { 0x1a, LF_SCHEDULE_ANY } };
	static const struct lf_schedule_id n1[] = { { 0x41, 0xd0c } };
	static const struct lf_schedule_id apple[] = { { 0x61, LF_SCHEDULE_ANY } };
	const struct lf_schedule s_spr = { "spr", "f", "GenuineIntel", spr, NLEN(spr) };
	const struct lf_schedule s_zen5 = { "zen5", "f", "AuthenticAMD", zen5, NLEN(zen5) };
	const struct lf_schedule s_n1 = { "n1", "f", NULL, n1, NLEN(n1) };
	const struct lf_schedule s_apple = { "m", "f", NULL, apple, NLEN(apple) };
	const struct lf_schedule s_gen = { "generic", "f", NULL, NULL, 0 };
	struct lf_cpu_ident id;
	memset(&id, 0, sizeof id);
	id.known = 1;
	strcpy(id.vendor, "GenuineIntel");
	id.family = 6;
	id.model = 0xcf;
	ck_assert(lf_schedule_matches(&s_spr, &id));
	id.model = 0x8f;
	ck_assert(lf_schedule_matches(&s_spr, &id));
	id.model = 0x55;
	ck_assert(!lf_schedule_matches(&s_spr, &id));             /* another model */
	ck_assert(!lf_schedule_matches(&s_gen, &id));             /* generic matches nothing */
	strcpy(id.vendor, "AuthenticAMD");
	id.model = 0xcf;
	ck_assert(!lf_schedule_matches(&s_spr, &id));             /* the vendor counts */
	id.family = 0x1a;
	id.model = 0x44;
	ck_assert(lf_schedule_matches(&s_zen5, &id));             /* any model of the family */
	id.model = 0x02;
	ck_assert(lf_schedule_matches(&s_zen5, &id));
	id.family = 0x19;
	ck_assert(!lf_schedule_matches(&s_zen5, &id));
	id.family = 0x1a;
	id.known = 0;
	ck_assert(!lf_schedule_matches(&s_zen5, &id));            /* unidentified: nothing */

	memset(&id, 0, sizeof id);
	lf_cpu_ident_midr(&id, 0x414fd0c1);
	ck_assert(lf_schedule_matches(&s_n1, &id));
	lf_cpu_ident_midr(&id, 0x410fd083);                       /* Cortex-A72 */
	ck_assert(!lf_schedule_matches(&s_n1, &id));
	lf_cpu_ident_midr(&id, 0x611f0221);
	ck_assert(lf_schedule_matches(&s_apple, &id));
	lf_cpu_ident_midr(&id, 0x420fd0c1);                       /* same part, implementer 0x42 */
	ck_assert(!lf_schedule_matches(&s_n1, &id));
}
END_TEST

/* The checked-in schedules: each is selected by every CPU its table lists (and by no
 * other schedule first), generic by anything else. */
START_TEST(test_select_table)
{
	ck_assert_str_eq(lf_schedule_table[0].name, "generic");
	ck_assert_uint_eq(lf_schedule_table[0].nids, 0);
	size_t n = 0;
	for (size_t s = 1; lf_schedule_table[s].name; s++) {
		const struct lf_schedule *t = &lf_schedule_table[s];
		ck_assert_msg(t->nids > 0, "%s lists no CPU", t->name);
		for (size_t i = 0; i < t->nids; i++) {
			struct lf_cpu_ident id;
			memset(&id, 0, sizeof id);
			id.known = 1;
			unsigned b = t->ids[i].b == LF_SCHEDULE_ANY ? 0x7f : t->ids[i].b;
			if (t->vendor) {
				snprintf(id.vendor, sizeof id.vendor, "%s", t->vendor);
				id.family = t->ids[i].a;
				id.model = b;
			} else {
				id.implementer = t->ids[i].a;
				id.part = b;
			}
			ck_assert_msg(lf_schedule_select(&id) == s, "%s's CPU %#x/%#x selects %s",
			              t->name, t->ids[i].a, b,
			              lf_schedule_table[lf_schedule_select(&id)].name);
			if (t->vendor) {
				snprintf(id.vendor, sizeof id.vendor, "%s", "NoSuchVendor");
				ck_assert_uint_eq(lf_schedule_select(&id), 0);
			}
			id.known = 0;
			ck_assert_uint_eq(lf_schedule_select(&id), 0);
			n++;
		}
	}
	struct lf_cpu_ident none;
	memset(&none, 0, sizeof none);
	ck_assert_uint_eq(lf_schedule_select(&none), 0);
	printf("schedule: %zu CPU schedule(s) besides generic here, %zu CPU ids checked\n",
	       lf_schedule_list(NULL, 0) - 1, n);
}
END_TEST

START_TEST(test_env_and_lookup)
{
	char buf[512] = "";
	FILE *w = tmpfile();
	ck_assert_ptr_nonnull(w);
	size_t count = lf_schedule_list(NULL, 0);
	const char *names[32];
	ck_assert_uint_eq(lf_schedule_list(names, 32), count);
	ck_assert_str_eq(names[0], "generic");
	for (size_t s = 0; s < count; s++) {
		ck_assert_int_eq(lf_schedule_lookup(names[s]), (int)s);
		ck_assert_uint_eq(lf_schedule_env(names[s], 99, w), s);
	}
	ck_assert_uint_eq(lf_schedule_env(NULL, 7, w), 7);
	ck_assert_uint_eq(lf_schedule_env("", 7, w), 7);
	ck_assert_uint_eq(lf_schedule_env("auto", 7, w), 7);
	ck_assert_int_eq(lf_schedule_lookup("Generic"), -1);     /* names are exact */
	ck_assert_int_eq(lf_schedule_lookup(NULL), -1);
	ck_assert_uint_eq(lf_schedule_env("no-such-cpu", 5, w), 5);
	rewind(w);
	size_t got = fread(buf, 1, sizeof buf - 1, w);
	buf[got] = 0;
	fclose(w);
	ck_assert_msg(strstr(buf, "no-such-cpu") && strstr(buf, "ignored"),
	              "an unknown LIMBFORGE_SCHEDULE is not reported: '%s'", buf);
	ck_assert_msg(!strstr(buf, "auto"), "valid values were reported: '%s'", buf);
}
END_TEST

/* This host: lf_cpu_identify against /proc/cpuinfo (x86-64 Linux). */
START_TEST(test_identify_host)
{
	struct lf_cpu_ident id;
	lf_cpu_identify(&id);
#if defined(__x86_64__) && defined(__linux__)
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], vendor[64] = "";
	unsigned family = ~0u, model = ~0u, got = 0;
	if (!f) {
		printf("schedule: SKIP host identity (no /proc/cpuinfo)\n");
		return;
	}
	while (fgets(line, sizeof line, f) && got < 3) {
		if (sscanf(line, "vendor_id : %63s", vendor) == 1)
			got++;
		else if (sscanf(line, "cpu family : %u", &family) == 1)
			got++;
		else if (sscanf(line, "model : %u", &model) == 1)
			got++;
	}
	fclose(f);
	ck_assert_msg(got == 3, "could not read /proc/cpuinfo");
	ck_assert(id.known);
	ck_assert_str_eq(id.vendor, vendor);
	ck_assert_uint_eq(id.family, family);
	ck_assert_uint_eq(id.model, model);
	printf("schedule: host %s family %#x model %#x -> schedule %s\n", id.vendor, id.family,
	       id.model, lf_schedule_table[lf_schedule_select(&id)].name);
#else
	printf("schedule: host MIDR implementer %#x part %#x%s -> schedule %s\n",
	       id.implementer, id.part, id.known ? "" : " (unknown)",
	       lf_schedule_table[lf_schedule_select(&id)].name);
#endif
	const char *expect = getenv("LF_TEST_EXPECT_SCHEDULE");
	if (expect)
		ck_assert_msg(strcmp(lf_schedule(), expect) == 0,
		              "schedule in use is %s, want %s (LIMBFORGE_SCHEDULE=%s)", lf_schedule(),
		              expect, getenv("LIMBFORGE_SCHEDULE") ? getenv("LIMBFORGE_SCHEDULE") : "");
}
END_TEST

/* One call per kernel through the public API, compared with GMP-backed oracles. */
static void check_api_once(const char *when)
{
	uint64_t a[20], r[40], e[40];
	uint32_t x[40], out[60], eo[60], z[80], ez[80];
	rng_t g;
	rng_init(&g, when, 0);
	for (size_t n = 1; n <= 20; n += 19) {
		fill64(a, n, PAT_RANDOM, &g);
		fill64(r, n, PAT_RANDOM, &g);
		memcpy(e, r, n * 8);
		ck_assert_msg(lf_mpn_addmul_1(r, a, n, a[0]) == or_addmul_1(e, a, n, a[0]) &&
		              !memcmp(r, e, n * 8), "%s: mpn_addmul_1 n=%zu", when, n);
		ck_assert_msg(lf_mpn_mul_1(r, a, n, ~a[0]) == or_mul_1(e, a, n, ~a[0]) &&
		              !memcmp(r, e, n * 8), "%s: mpn_mul_1 n=%zu", when, n);
		lf_mpn_sqr(r, a, n);
		or_sqr(e, a, n);
		ck_assert_msg(!memcmp(r, e, 2 * n * 8), "%s: mpn_sqr n=%zu", when, n);
	}
	for (size_t len = 1; len <= 40; len += 39) {
		fill32be(x, len, PAT_RANDOM, &g);
		fill32be(out, len + 20, PAT_RANDOM, &g);
		memcpy(eo, out, sizeof out);
		ck_assert_msg(lf_bi_mul_add(out, len + 20, x, 3, len, x[0]) ==
		              or_mul_add(eo, len + 20, x, 3, len, x[0]) &&
		              !memcmp(out, eo, (len + 20) * 4), "%s: bi_mul_add len=%zu", when, len);
		lf_bi_square_to_len(x, len, z);
		or_square_to_len(x, len, ez);
		ck_assert_msg(!memcmp(z, ez, 2 * len * 4), "%s: bi_square_to_len len=%zu", when, len);
	}
	for (size_t len = 17; len <= 1000; len += 983) {
		uint8_t msg[1000], key[32], tag[16], want[16];
		for (size_t i = 0; i < len; i++)
			msg[i] = (uint8_t)rng_next(&g);
		for (size_t i = 0; i < 32; i++)
			key[i] = (uint8_t)rng_next(&g);
		lf_poly1305(tag, msg, len, key);
		or_p1305(want, msg, len, key, 1);
		ck_assert_msg(!memcmp(tag, want, 16), "%s: poly1305 len=%zu", when, len);
	}
}

START_TEST(test_force)
{
	const char *names[32];
	size_t count = lf_schedule_list(names, 32);
	const char *before = lf_schedule();
	ck_assert_int_eq(lf_schedule_force("no-such-cpu"), -1);
	ck_assert_str_eq(lf_schedule(), before);
	for (size_t s = 0; s < count; s++) {
		ck_assert_int_eq(lf_schedule_force(names[s]), 0);
		ck_assert_str_eq(lf_schedule(), names[s]);
		ck_assert_uint_eq(lf_schedule_current(), s);
		uint64_t allowed = lf_cpu_features();
		for (int kid = 0; kid < LF_K_COUNT; kid++) {
			const struct lf_kernel *k = &lf_kernel_table[kid];
			size_t want = tv_expected_choice(k, allowed, s);
			const char *cur = lf_impl(k->name);
			ck_assert_msg(cur && strcmp(cur, k->variants[want].name) == 0,
			              "schedule %s: %s runs %s, want %s", names[s], k->name,
			              cur ? cur : "NULL", k->variants[want].name);
			/* a CPU schedule's own build is named after it and belongs to it */
			const char *at = strchr(cur, '@');
			if (at)
				ck_assert_str_eq(at + 1, names[s]);
		}
		check_api_once(names[s]);
	}
	/* lf_impl_force is dropped by a schedule change */
	ck_assert_int_eq(lf_impl_force("mpn_mul_1", "ref"), 0);
	ck_assert_int_eq(lf_schedule_force(NULL), 0);
	ck_assert_str_eq(lf_schedule(), before);
	const struct lf_kernel *k = &lf_kernel_table[LF_K_mpn_mul_1];
	ck_assert_str_eq(lf_impl("mpn_mul_1"),
	                 k->variants[tv_expected_choice(k, lf_cpu_features(),
	                                                lf_schedule_current())].name);
}
END_TEST

Suite *suite_schedule(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc = tcase_create("schedule");
	tcase_add_test(tc, test_decode_cpuid);
	tcase_add_test(tc, test_decode_midr);
	tcase_add_test(tc, test_match_synthetic);
	tcase_add_test(tc, test_select_table);
	tcase_add_test(tc, test_env_and_lookup);
	tcase_add_test(tc, test_identify_host);
	tcase_add_test(tc, test_force);
	suite_add_tcase(s, tc);
	return s;
}
