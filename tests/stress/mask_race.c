/*
 * mask_race.c -- lf_cpu_mask racing with threads that resolve kernels.
 *
 * Fault this is designed to catch: a thread that read the allowed features just before
 * lf_cpu_mask() narrowed them stores its (now forbidden) choice after lf_cpu_mask() emptied
 * the dispatch slots, so a masked variant keeps running for good (found by a fresh-clone
 * review: 5 of 8000 trials before the generation protocol in runtime/dispatch.c).
 *
 * Two parts, each case in a child process (lf_cpu_mask cannot be undone):
 *   1. deterministic: a resolver is held (lf_dispatch_test_pause) after reading the features
 *      and before publishing its choice; the main thread masks that choice's features; the
 *      resolver then continues, and the kernel must not keep the masked variant. Done for
 *      every kernel whose chosen variant needs a feature.
 *   2. stress: six threads call every kernel in a loop and compare with GMP while the main
 *      thread masks features one after another; at the end every kernel must run a variant
 *      the final mask allows.
 *   mask_race [trials]      (stress trials, default 300; exit 1 on any failure)
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmp.h>

#include "limbforge.h"
#include "lf_dispatch.h"

static atomic_int stop, bad;

static void *worker(void *arg)
{
	uint64_t s = (uintptr_t)arg * 0x9e3779b97f4a7c15ull + 1;
	uint64_t a[40], r[40], g[40], sq[80], gs[80];

	while (!atomic_load(&stop)) {
		size_t n = 1 + s % 39;
		for (size_t i = 0; i < n; i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			a[i] = s;
			r[i] = g[i] = s * 3;
		}
		uint64_t c1 = lf_mpn_addmul_1(r, a, n, s), c2 = mpn_addmul_1(g, a, n, s);
		if (c1 != c2 || memcmp(r, g, 8 * n))
			atomic_fetch_add(&bad, 1);
		lf_mpn_sqr(sq, a, n);
		mpn_sqr(gs, a, n);
		if (memcmp(sq, gs, 16 * n))
			atomic_fetch_add(&bad, 1);
		uint32_t x[20], z[40], o[24];
		for (int i = 0; i < 20; i++)
			x[i] = (uint32_t)(a[i % n] >> 7);
		lf_bi_square_to_len(x, 20, z);
		memcpy(o, z, sizeof o);
		lf_bi_mul_add(o, 24, x, 1, 20, 12345);
		(void)lf_mpn_mul_1(r, a, n, s);
	}
	return NULL;
}

static int trial(void)
{
	static const uint64_t steps[] = { LF_CPU_AVX512IFMA, LF_CPU_AVX512F, LF_CPU_ADX,
	                                  LF_CPU_BMI2, LF_CPU_ASIMD, LF_CPU_ASM };
	pthread_t t[6];
	int stale = 0;

	for (long i = 0; i < 6; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
		lf_cpu_mask(~steps[k]);
		for (volatile int spin = 0; spin < 200; spin++)
			;
	}
	usleep(2000);
	uint64_t allowed = lf_cpu_features();
	for (int id = 0; id < LF_K_COUNT; id++) {
		const struct lf_kernel *k = &lf_kernel_table[id];
		const char *cur = lf_impl(k->name);
		for (size_t j = 0; j < k->count; j++)
			if (cur && strcmp(cur, k->variants[j].name) == 0 &&
			    (k->variants[j].features & ~allowed)) {
				printf("stale: %s runs %s under features %#llx\n", k->name, cur,
				       (unsigned long long)allowed);
				stale++;
			}
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < 6; i++)
		pthread_join(t[i], NULL);
	if (bad)
		printf("wrong results: %d\n", bad);
	return stale || bad;
}

/* part 1 ------------------------------------------------------------------------------ */
static sem_t held, go;
static enum lf_kernel_id held_id;

static void pause_once(enum lf_kernel_id id)
{
	if (id != held_id)
		return;
	lf_dispatch_test_pause = NULL;         /* only the first resolution of this kernel */
	sem_post(&held);
	sem_wait(&go);
}

static void *resolve_thread(void *arg)
{
	(void)arg;
	(void)lf_dispatch_get(held_id);
	return NULL;
}

static int held_resolver(enum lf_kernel_id id)
{
	const struct lf_kernel *k = &lf_kernel_table[id];
	uint64_t f0 = lf_cpu_features();
	size_t first = lf_dispatch_choose(k, f0, lf_schedule_current());
	uint64_t need = k->variants[first].features & ~LF_CPU_ASM;
	pthread_t t;

	if (!need)
		need = LF_CPU_ASM;                 /* AArch64 base kernels: mask assembly itself */
	sem_init(&held, 0, 0);
	sem_init(&go, 0, 0);
	held_id = id;
	lf_dispatch_test_pause = pause_once;
	pthread_create(&t, NULL, resolve_thread, NULL);
	sem_wait(&held);                       /* the resolver has read f0, not published */
	lf_cpu_mask(~need);                    /* forbid the variant it is about to publish */
	sem_post(&go);
	pthread_join(t, NULL);
	const char *cur = lf_impl(k->name);
	uint64_t allowed = lf_cpu_features();
	for (size_t j = 0; j < k->count; j++)
		if (strcmp(cur, k->variants[j].name) == 0 && (k->variants[j].features & ~allowed)) {
			printf("mask_race: %s keeps %s after lf_cpu_mask forbade it\n", k->name, cur);
			return 1;
		}
	return 0;
}

static int run_child(int (*fn)(int), int arg)
{
	pid_t p = fork();
	if (p == 0)
		_exit(fn(arg));
	int st;
	waitpid(p, &st, 0);
	return !WIFEXITED(st) || WEXITSTATUS(st);
}

static int held_case(int id)
{
	return held_resolver((enum lf_kernel_id)id);
}

static int stress_case(int unused)
{
	(void)unused;
	return trial();
}

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 300, failed = 0, held_failed = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (int id = 0; id < LF_K_COUNT; id++)
		held_failed += run_child(held_case, id);
	printf("mask_race: %d/%d kernels keep a variant masked while their resolver was held\n",
	       held_failed, LF_K_COUNT);
	for (int i = 0; i < trials; i++)
		failed += run_child(stress_case, 0);
	printf("mask_race: %d/%d stress trials with a stale dispatch choice or a wrong result\n",
	       failed, trials);
	return failed != 0 || held_failed != 0;
}
