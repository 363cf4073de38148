/*
 * check_main.c -- the limbforge test runner.
 *
 *   check_limbforge [suite...]      suites: dispatch kat mpn mpn_sqr bigint bigint_sqr poly1305
 *                                   mpn_mul bigint_mul montmul modpow p256 p256_mont ecdh
 *                                   fields xdh ladder api abi schedule mask
 *                                   (default: all, in that order; mask must stay last)
 * Environment: LIMBFORGE_CPU (feature mask, as for the library), LF_TEST_SEED (random seed),
 * CK_FORK=no (one process; required under qemu-aarch64), CK_VERBOSITY, CK_RUN_SUITE/CASE.
 *
 * Fault this is designed to catch: a test run that passes without having tested anything.
 * It prints the plan (each variant TEST or SKIP with the reason) before running, and after
 * the run the coverage table; when every suite ran, a runnable variant with zero checked
 * calls of a kind its kernel needs fails the run.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

static const struct {
	const char *name;
	Suite *(*make)(void);
} suites[] = {
	{ "dispatch", suite_dispatch },     { "kat", suite_kat },
	{ "mpn", suite_mpn },               { "mpn_sqr", suite_mpn_sqr },
	{ "bigint", suite_bigint },         { "bigint_sqr", suite_bigint_sqr },
	{ "poly1305", suite_poly1305 },
	{ "mpn_mul", suite_mpn_mul },       { "bigint_mul", suite_bigint_mul },
	{ "montmul", suite_montmul },       { "modpow", suite_modpow },
	{ "p256", suite_p256 },             { "p256_mont", suite_p256_mont },
	{ "fe", suite_fe },                 { "ladder", suite_ladder },
	{ "ecdh", suite_ecdh },
	{ "fields", suite_fields },         { "xdh", suite_xdh },
	{ "api", suite_api },               { "abi", suite_abi },
	{ "schedule", suite_schedule },
	{ "mask", suite_mask }, /* last: lf_cpu_mask cannot be undone in a process */
};
#define NSUITES (sizeof suites / sizeof suites[0])

int main(int argc, char **argv)
{
	int want[NSUITES];
	int all = argc < 2;
	struct timespec t0, t1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < NSUITES; i++)
		want[i] = all;
	for (int a = 1; a < argc; a++) {
		size_t i;
		for (i = 0; i < NSUITES; i++)
			if (strcmp(argv[a], suites[i].name) == 0)
				break;
		if (i == NSUITES) {
			fprintf(stderr, "unknown suite '%s'; suites:", argv[a]);
			for (i = 0; i < NSUITES; i++)
				fprintf(stderr, " %s", suites[i].name);
			fprintf(stderr, "\n");
			return 2;
		}
		want[i] = 1;
	}

	if (getenv("CK_FORK") && strcmp(getenv("CK_FORK"), "no") == 0)
		crash_handler_install();
	tv_init();
	tv_print_plan(stdout);
	printf("seed %llu (LF_TEST_SEED to change)\n", (unsigned long long)test_seed());

	SRunner *sr = NULL;
	for (size_t i = 0; i < NSUITES; i++) {
		if (!want[i])
			continue;
		if (!sr)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	printf("check fork mode: %s\n", srunner_fork_status(sr) == CK_NOFORK ? "no (one process)" : "yes");
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);

	int complete = all && !getenv("CK_RUN_SUITE") && !getenv("CK_RUN_CASE") &&
	               !getenv("CK_INCLUDE_TAGS") && !getenv("CK_EXCLUDE_TAGS");
	int gaps = cov_report(stdout, complete && failed == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("limbforge tests: %s (%d failed, %d coverage gaps) in %.1f s%s\n",
	       failed || gaps ? "FAILED" : "passed", failed, gaps,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       complete ? "" : " (subset of suites: coverage not enforced)");
	return failed || gaps ? EXIT_FAILURE : EXIT_SUCCESS;
}
