/*
 * cpuname.c -- which CPU the numbers belong to, and the stem of the results file name.
 *
 * x86-64: the CPUID brand string (leaves 0x80000002..4) and family/model/stepping (leaf 1);
 * the stem is the sanitized brand + "-f<family>m<model>" (hypervisors often report a generic
 * brand such as "Intel(R) Xeon(R) Processor") + "_x86_64", e.g.
 * "intel-xeon-processor-f6m143_x86_64".  AArch64: MIDR implementer/part from /proc/cpuinfo,
 * named for the common Arm cores, e.g. "arm-neoverse-n1_aarch64"; under qemu
 * "qemu-user_aarch64" (the host's /proc/cpuinfo says nothing about the emulated CPU).
 * Used by main.c (`make bench`).
 */
#include <ctype.h>
#include <string.h>

#include "bench.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* lower-case alphanumerics, runs of anything else -> '-', drop (R)/(TM), "CPU" and "@ ..." */
static void sanitize(const char *in, char *out, size_t cap)
{
	char tmp[160];
	size_t j = 0;
	for (size_t i = 0; in[i] && j + 1 < sizeof tmp; i++) {
		if (in[i] == '@')
			break;
		if (strncmp(in + i, "(R)", 3) == 0 || strncmp(in + i, "(r)", 3) == 0) {
			i += 2;
			continue;
		}
		if (strncmp(in + i, "(TM)", 4) == 0 || strncmp(in + i, "(tm)", 4) == 0) {
			i += 3;
			continue;
		}
		tmp[j++] = in[i];
	}
	tmp[j] = 0;
	/* drop a standalone word "CPU" */
	char *p;
	while ((p = strstr(tmp, " CPU")) && (p[4] == 0 || p[4] == ' '))
		memmove(p, p + 4, strlen(p + 4) + 1);

	size_t o = 0;
	int dash = 1;
	for (size_t i = 0; tmp[i] && o + 1 < cap; i++) {
		unsigned char ch = (unsigned char)tmp[i];
		if (isalnum(ch) || ch == '+') {
			out[o++] = ch == '+' ? 'p' : (char)tolower(ch);
			dash = 0;
		} else if (!dash) {
			out[o++] = '-';
			dash = 1;
		}
	}
	while (o > 0 && out[o - 1] == '-')
		o--;
	out[o] = 0;
	if (o == 0)
		snprintf(out, cap, "unknown");
}

#if defined(__aarch64__)
static const char *arm_part_name(unsigned impl, unsigned part)
{
	static const struct {
		unsigned impl, part;
		const char *name;
	} t[] = {
		{ 0x41, 0xd03, "Arm Cortex-A53" },   { 0x41, 0xd07, "Arm Cortex-A57" },
		{ 0x41, 0xd08, "Arm Cortex-A72" },   { 0x41, 0xd0b, "Arm Cortex-A76" },
		{ 0x41, 0xd0c, "Arm Neoverse-N1" },  { 0x41, 0xd40, "Arm Neoverse-V1" },
		{ 0x41, 0xd49, "Arm Neoverse-N2" },  { 0x41, 0xd4f, "Arm Neoverse-V2" },
		{ 0x41, 0xd8e, "Arm Neoverse-N3" },  { 0x41, 0xd84, "Arm Neoverse-V3" },
		{ 0x43, 0x0af, "Cavium ThunderX2" }, { 0x61, 0x022, "Apple M1" },
		{ 0x61, 0x023, "Apple M1" },         { 0xc0, 0xac3, "Ampere-1" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].impl == impl && t[i].part == part)
			return t[i].name;
	return NULL;
}
#endif

void bench_cpu_identify(struct bench_cpu *c, int emulated)
{
	memset(c, 0, sizeof *c);
	char id[32] = "";
#if defined(__x86_64__)
	snprintf(c->arch, sizeof c->arch, "x86_64");
	unsigned a, b, cc, d;
	if (__get_cpuid(0x80000000, &a, &b, &cc, &d) && a >= 0x80000004) {
		unsigned w[12];
		for (unsigned l = 0; l < 3; l++)
			__get_cpuid(0x80000002 + l, &w[4 * l], &w[4 * l + 1], &w[4 * l + 2],
			            &w[4 * l + 3]);
		memcpy(c->model, w, 48);
		c->model[48] = 0;
		/* trim */
		char *s = c->model;
		while (*s == ' ')
			s++;
		memmove(c->model, s, strlen(s) + 1);
		for (size_t n = strlen(c->model); n > 0 && c->model[n - 1] == ' '; n--)
			c->model[n - 1] = 0;
	}
	if (__get_cpuid(1, &a, &b, &cc, &d)) {
		unsigned fam = (a >> 8) & 0xf, mod = (a >> 4) & 0xf;
		if (fam == 0xf)
			fam += (a >> 20) & 0xff;
		if (fam == 0x6 || fam >= 0xf)
			mod |= ((a >> 16) & 0xf) << 4;
		c->family = fam;
		c->model_id = mod;
		c->stepping = a & 0xf;
		snprintf(id, sizeof id, "-f%um%u", fam, mod);
	}
#elif defined(__aarch64__)
	snprintf(c->arch, sizeof c->arch, "aarch64");
	if (emulated) {
		snprintf(c->model, sizeof c->model, "qemu-user (emulated, timing meaningless)");
		snprintf(c->name, sizeof c->name, "qemu-user_aarch64");
		return;
	}
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[256];
		while (fgets(line, sizeof line, f)) {
			unsigned v;
			if (sscanf(line, "CPU implementer : %x", &v) == 1)
				c->family = v;
			else if (sscanf(line, "CPU part : %x", &v) == 1)
				c->model_id = v;
			else if (sscanf(line, "CPU variant : %x", &v) == 1)
				c->stepping = v;
			else if (strncmp(line, "processor", 9) == 0 && c->model_id)
				break; /* first core only */
		}
		fclose(f);
	}
	const char *n = arm_part_name(c->family, c->model_id);
	if (n)
		snprintf(c->model, sizeof c->model, "%s", n);
	else
		snprintf(c->model, sizeof c->model, "impl 0x%02x part 0x%03x", c->family,
		         c->model_id);
#else
	snprintf(c->arch, sizeof c->arch, "other");
	snprintf(c->model, sizeof c->model, "unknown");
#endif
	(void)emulated;
	char stem[128];
	sanitize(c->model, stem, sizeof stem);
	snprintf(c->name, sizeof c->name, "%s%s_%s", stem, id, c->arch);
}
