/*
 * limbforge-info -- print the detected CPU features, the CPU identification and the schedule
 * in use (gen/schedules/<arch>/<cpu>.toml, chosen by CPU or LIMBFORGE_SCHEDULE), and for every
 * kernel the builds that can run here with the one in use marked '*'.  Honors LIMBFORGE_CPU
 * and LIMBFORGE_SCHEDULE like the library.
 *
 *   build/<arch>/limbforge-info            human-readable
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"

int main(void)
{
	uint64_t detected = lf_cpu_detect();
	uint64_t allowed = lf_cpu_features();

	printf("limbforge on %s\n", sizeof(void *) == 8 ?
#if defined(__x86_64__)
	       "x86-64"
#elif defined(__aarch64__)
	       "aarch64"
#else
	       "an unsupported architecture (ref only)"
#endif
	       : "?");
	printf("features:");
	for (const struct lf_feature_name *n = lf_feature_names; n->name; n++) {
		if (detected & n->bit)
			printf(" %s%s", n->name, (allowed & n->bit) ? "" : "(masked)");
	}
	struct lf_cpu_ident id;
	lf_cpu_identify(&id);
	size_t sched = lf_schedule_current();
	if (id.vendor[0])
		printf("\ncpu: %s family 0x%x model 0x%x stepping %u", id.vendor, id.family,
		       id.model, id.stepping);
	else if (id.known)
		printf("\ncpu: MIDR implementer 0x%02x part 0x%03x variant %u revision %u",
		       id.implementer, id.part, id.variant, id.revision);
	else
		printf("\ncpu: not identified");
	printf("\nschedule: %s (%s)%s\nschedules built in:", lf_schedule(),
	       lf_schedule_table[sched].file,
	       sched != lf_schedule_select(&id) ? " -- set by LIMBFORGE_SCHEDULE" :
	       sched ? " -- matched by this CPU" : "");
	for (size_t s = 0; lf_schedule_table[s].name; s++)
		printf(" %s", lf_schedule_table[s].name);
	const char *env = getenv("LIMBFORGE_SCHEDULE");
	if (env && *env && strcmp(env, "auto") != 0 && lf_schedule_lookup(env) < 0)
		printf("\nLIMBFORGE_SCHEDULE=%s ignored: no such schedule here", env);
	printf("\n\n%-20s %s\n", "kernel", "variants (runnable here, in the order tried; "
	       "* = in use) [schedule]");
	for (int i = 0; i < LF_K_COUNT; i++) {
		const struct lf_kernel *k = &lf_kernel_table[i];
		const char *names[64];
		size_t n = lf_impl_list(k->name, names, 64);
		const char *cur = lf_impl(k->name);
		printf("%-20s", k->name);
		for (size_t j = 0; j < n && j < 64; j++)
			for (size_t v = 0; v < k->count; v++)
				if (k->variants[v].name == names[j])
					printf(" %s%s [%s]", names[j], cur == names[j] ? "*" : "",
					       k->variants[v].schedule);
		printf("\n");
	}
	return 0;
}
