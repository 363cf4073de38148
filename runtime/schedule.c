/*
 * schedule.c -- which schedule (gen/schedules/<arch>/<cpu>.toml) this CPU runs.
 *
 * Every schedule of an architecture is generated into the build (generated/dispatch_table.c:
 * lf_schedule_table, generic first).  At first use the CPU is identified -- x86-64: CPUID
 * vendor string and display family/model (CPUID.1:EAX, extended fields folded in as the
 * Intel SDM and AMD APM define them); AArch64 Linux: MIDR_EL1 (read with MRS, which the
 * kernel emulates when HWCAP_CPUID is set, else from sysfs) -- and the first schedule whose
 * [match] lists that CPU is chosen, generic otherwise, like GMP's fat binaries pick their
 * per-CPU kernels.  LIMBFORGE_SCHEDULE=<name> overrides the choice for experiments
 * ("generic", "auto" or a schedule of this architecture; an unknown name is reported on
 * stderr and ignored); lf_schedule_force() does the same at run time.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"

#define SCHED_UNSET (-1)

int lf_schedule_matches(const struct lf_schedule *s, const struct lf_cpu_ident *id)
{
	if (!id->known || s->nids == 0)
		return 0;
	if (s->vendor && strcmp(s->vendor, id->vendor) != 0)
		return 0;
	unsigned a = s->vendor ? id->family : id->implementer;
	unsigned b = s->vendor ? id->model : id->part;
	for (size_t i = 0; i < s->nids; i++)
		if (s->ids[i].a == a && (s->ids[i].b == LF_SCHEDULE_ANY || s->ids[i].b == b))
			return 1;
	return 0;
}

size_t lf_schedule_select(const struct lf_cpu_ident *id)
{
	for (size_t i = 1; lf_schedule_table[i].name; i++)
		if (lf_schedule_matches(&lf_schedule_table[i], id))
			return i;
	return 0;
}

int lf_schedule_lookup(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; lf_schedule_table[i].name; i++)
		if (strcmp(lf_schedule_table[i].name, name) == 0)
			return (int)i;
	return -1;
}

void lf_cpu_ident_x86(struct lf_cpu_ident *id, uint32_t vendor_ebx, uint32_t vendor_edx,
                      uint32_t vendor_ecx, uint32_t l1_eax)
{
	memset(id, 0, sizeof *id);
	memcpy(id->vendor, &vendor_ebx, 4);
	memcpy(id->vendor + 4, &vendor_edx, 4);
	memcpy(id->vendor + 8, &vendor_ecx, 4);
	unsigned base_family = (l1_eax >> 8) & 0xf, base_model = (l1_eax >> 4) & 0xf;
	id->stepping = l1_eax & 0xf;
	id->family = base_family == 0xf ? base_family + ((l1_eax >> 20) & 0xff) : base_family;
	id->model = (base_family == 0x6 || base_family == 0xf)
	            ? (((l1_eax >> 16) & 0xf) << 4) | base_model : base_model;
	id->known = 1;
}

void lf_cpu_ident_midr(struct lf_cpu_ident *id, uint64_t midr)
{
	memset(id, 0, sizeof *id);
	id->implementer = (midr >> 24) & 0xff;
	id->variant = (midr >> 20) & 0xf;
	id->part = (midr >> 4) & 0xfff;
	id->revision = midr & 0xf;
	id->known = midr != 0;
}

#if defined(__x86_64__)
#include <cpuid.h>
void lf_cpu_identify(struct lf_cpu_ident *id)
{
	unsigned a, b, c, d, max = __get_cpuid_max(0, NULL);
	memset(id, 0, sizeof *id);
	if (max < 1)
		return;
	__cpuid(0, a, b, c, d);
	unsigned vb = b, vd = d, vc = c;
	__cpuid(1, a, b, c, d);
	lf_cpu_ident_x86(id, vb, vd, vc, a);
}
#elif defined(__aarch64__) && defined(__linux__)
#include <stdio.h>
#include <sys/auxv.h>
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1ul << 11)
#endif
void lf_cpu_identify(struct lf_cpu_ident *id)
{
	uint64_t midr = 0;
	if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
		__asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
	} else {
		FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
		unsigned long long v = 0;
		if (f) {
			if (fscanf(f, "%llx", &v) == 1)
				midr = v;
			fclose(f);
		}
	}
	lf_cpu_ident_midr(id, midr);
}
#else
void lf_cpu_identify(struct lf_cpu_ident *id)
{
	memset(id, 0, sizeof *id);
}
#endif

static _Atomic int detected = SCHED_UNSET;   /* from the CPU and LIMBFORGE_SCHEDULE */
static _Atomic int forced = SCHED_UNSET;     /* lf_schedule_force */

size_t lf_schedule_env(const char *env, size_t auto_choice, FILE *warn)
{
	if (!env || !*env || strcmp(env, "auto") == 0)
		return auto_choice;
	int i = lf_schedule_lookup(env);
	if (i >= 0)
		return (size_t)i;
	if (warn) {
		fprintf(warn, "limbforge: LIMBFORGE_SCHEDULE: no schedule '%s' here (have:", env);
		for (size_t j = 0; lf_schedule_table[j].name; j++)
			fprintf(warn, " %s", lf_schedule_table[j].name);
		fprintf(warn, "); ignored\n");
	}
	return auto_choice;
}

size_t lf_schedule_current(void)
{
	int f = atomic_load_explicit(&forced, memory_order_acquire);
	if (f != SCHED_UNSET)
		return (size_t)f;
	int d = atomic_load_explicit(&detected, memory_order_acquire);
	if (d == SCHED_UNSET) {
		/* idempotent: racing threads compute and store the same value */
		struct lf_cpu_ident id;
		lf_cpu_identify(&id);
		d = (int)lf_schedule_env(getenv("LIMBFORGE_SCHEDULE"), lf_schedule_select(&id),
		                         stderr);
		atomic_store_explicit(&detected, d, memory_order_release);
	}
	return (size_t)d;
}

const char *lf_schedule(void)
{
	return lf_schedule_table[lf_schedule_current()].name;
}

size_t lf_schedule_list(const char **names, size_t max)
{
	size_t n = 0;
	for (; lf_schedule_table[n].name; n++)
		if (names && n < max)
			names[n] = lf_schedule_table[n].name;
	return n;
}

int lf_schedule_force(const char *name)
{
	int i = name ? lf_schedule_lookup(name) : SCHED_UNSET;
	if (name && i < 0)
		return -1;
	atomic_store_explicit(&forced, i, memory_order_release);
	lf_dispatch_reset();    /* after the change: see the generation protocol in dispatch.c */
	return 0;
}
