/*
 * limbforge-info -- print the detected CPU features and, for every kernel, the variants that
 * can run here with the one in use marked '*'.  Honors LIMBFORGE_CPU like the library.
 *
 *   build/<arch>/limbforge-info            human-readable
 */
#include <stdio.h>

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
	printf("\n\n%-20s %s\n", "kernel", "variants (runnable here; * = in use) [schedule]");
	for (int i = 0; i < LF_K_COUNT; i++) {
		const struct lf_kernel *k = &lf_kernel_table[i];
		const char *cur = lf_impl(k->name);
		printf("%-20s", k->name);
		for (size_t j = 0; j < k->count; j++) {
			const struct lf_variant *v = &k->variants[j];
			if (v->features & ~allowed)
				continue;
			printf(" %s%s[%s]", v->name, cur == v->name ? "*" : " ", v->schedule);
		}
		printf("\n");
	}
	return 0;
}
