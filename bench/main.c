/*
 * main.c -- limbforge-bench: every runnable variant of every kernel, ref and GMP, side by side.
 *
 *   make bench                                        full run, bench/results/<cpu>.{json,png}
 *   make bench BENCH_ARGS="--kernel mpn_addmul_1 --sizes 25,64,128 --quick"
 *   build/<arch>/bench/limbforge-bench --help
 *
 * Schedule, per kernel and size: all contenders (the variants of lf_kernel_table runnable here,
 * ref, GMP) get the same operands; each is checked once against ref's output, warmed up, and
 * its batch length (calls between two timer reads) is set so that a batch lasts --batch-us.
 * Then --repeats rounds run every contender's batch once, round-robin with the starting
 * contender rotating each round, plus one core-clock calibration sample (timer.c) per round.
 * A row reports the median and spread over its batches (report.c).  Filtered or --quick runs
 * are "partial": their JSON goes to the scratch directory, never over bench/results/.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

struct options {
	char *kernels[16];
	size_t nkernels;
	char *variants[16];
	size_t nvariants;
	size_t sizes[64];
	size_t nsizes;
	int quick, emulated, list, pin;
	size_t repeats;
	double batch_us;
	const char *json, *json_dir, *scratch_dir;
	int partial;
};

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: limbforge-bench [options]\n"
	        "  --kernel K[,K..]    only these kernels (repeatable); see --list\n"
	        "  --variant V[,V..]   only these assembly variants (ref and GMP rows always kept)\n"
	        "  --sizes N[,N..]     sizes in limbs (mpn_*) or words (bi_*) instead of the defaults\n"
	        "  --quick             fewer, shorter batches (31 x 5 us) for quick iteration\n"
	        "  --repeats N         timed batches per row (default 301)\n"
	        "  --batch-us U        target length of one batch in microseconds (default 20)\n"
	        "  --pin CPU           pin the process to one CPU\n"
	        "  --json FILE         write the JSON here\n"
	        "  --json-dir DIR      directory for <cpu>.json of full runs (default bench/results)\n"
	        "  --scratch-dir DIR   directory for partial/quick/emulated runs (default: no JSON)\n"
	        "  --emulated          running under qemu: warn that timings are meaningless\n"
	        "  --list              list kernels, drivers and runnable variants, then exit\n");
}

static void split_into(char *arg, char **dst, size_t *n, size_t cap)
{
	for (char *t = strtok(arg, ","); t && *n < cap; t = strtok(NULL, ","))
		dst[(*n)++] = t;
}

static void parse(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->repeats = 301;
	o->batch_us = 20;
	o->json_dir = "bench/results";
	o->pin = -1;
	int repeats_set = 0, batch_set = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV() do { if (!v) { fprintf(stderr, "%s needs a value\n", a); exit(2); } i++; } while (0)
		if (!strcmp(a, "--kernel")) {
			NEEDV();
			split_into(argv[i], o->kernels, &o->nkernels, 16);
			o->partial = 1;
		} else if (!strcmp(a, "--variant")) {
			NEEDV();
			split_into(argv[i], o->variants, &o->nvariants, 16);
			o->partial = 1;
		} else if (!strcmp(a, "--sizes")) {
			NEEDV();
			for (char *t = strtok(argv[i], ","); t && o->nsizes < 63; t = strtok(NULL, ",")) {
				long s = strtol(t, NULL, 10);
				if (s < 1) {
					fprintf(stderr, "bad size %s\n", t);
					exit(2);
				}
				o->sizes[o->nsizes++] = (size_t)s;
			}
			o->partial = 1;
		} else if (!strcmp(a, "--quick")) {
			o->quick = 1;
			o->partial = 1;
		} else if (!strcmp(a, "--repeats")) {
			NEEDV();
			o->repeats = (size_t)strtoul(argv[i], NULL, 10);
			repeats_set = 1;
			o->partial = 1;
		} else if (!strcmp(a, "--batch-us")) {
			NEEDV();
			o->batch_us = strtod(argv[i], NULL);
			batch_set = 1;
			o->partial = 1;
		} else if (!strcmp(a, "--pin")) {
			NEEDV();
			o->pin = atoi(argv[i]);
		} else if (!strcmp(a, "--json")) {
			NEEDV();
			o->json = argv[i];
		} else if (!strcmp(a, "--json-dir")) {
			NEEDV();
			o->json_dir = argv[i];
		} else if (!strcmp(a, "--scratch-dir")) {
			NEEDV();
			o->scratch_dir = argv[i];
		} else if (!strcmp(a, "--emulated")) {
			o->emulated = 1;
		} else if (!strcmp(a, "--list")) {
			o->list = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else {
			fprintf(stderr, "unknown option %s\n", a);
			usage(stderr);
			exit(2);
		}
	}
	if (o->quick) {
		if (!repeats_set)
			o->repeats = 31;
		if (!batch_set)
			o->batch_us = 5;
	}
	if (o->repeats < 3)
		o->repeats = 3;
}

static int wanted(char *const *list, size_t n, const char *name)
{
	if (n == 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return 1;
	return 0;
}

static const struct lf_kernel *table_kernel(const char *name)
{
	for (size_t i = 0; i < LF_K_COUNT; i++)
		if (!strcmp(lf_kernel_table[i].name, name))
			return &lf_kernel_table[i];
	return NULL;
}

/* The contenders of one kernel: runnable assembly variants (table order), ref, GMP. */
static size_t contenders(const struct bench_driver *d, const struct options *o,
                         struct bench_contender *c, size_t cap)
{
	const struct lf_kernel *k = table_kernel(d->kernel);
	uint64_t allowed = lf_cpu_features();
	const char *cur = lf_impl(d->kernel);
	size_t n = 0;
	for (size_t i = 0; i < k->count && n + 1 < cap; i++) {
		const struct lf_variant *v = &k->variants[i];
		int is_ref = !strcmp(v->name, "ref");
		if (v->features & ~allowed)
			continue;
		if (!is_ref && !wanted(o->variants, o->nvariants, v->name))
			continue;
		struct bench_contender *x = &c[n++];
		memset(x, 0, sizeof *x);
		snprintf(x->label, sizeof x->label, "%s.%s", d->kernel, v->name);
		snprintf(x->variant, sizeof x->variant, "%s", v->name);
		x->kind = is_ref ? BK_REF : BK_VARIANT;
		x->chosen = cur && !strcmp(cur, v->name);
		x->fn = v->fn;
		x->batch = d->variant_batch;
	}
	struct bench_contender *g = &c[n++];
	memset(g, 0, sizeof *g);
	snprintf(g->label, sizeof g->label, "%s.%s", d->kernel, d->gmp_name);
	snprintf(g->variant, sizeof g->variant, "%s", d->gmp_name);
	g->kind = d->peer_note ? BK_GMP_PEER : BK_GMP;
	g->batch = d->gmp_batch;
	return n;
}

static double ticks_once(const struct bench_contender *c, struct bench_buf *b, size_t reps)
{
	uint64_t t0 = bench_ticks_begin();
	uint64_t s = c->batch(b, c->fn, reps);
	uint64_t t1 = bench_ticks_end();
	bench_sink += s;
	return (double)(t1 - t0);
}

/* calls per batch so that a batch lasts about `target` ticks */
static size_t batch_length(const struct bench_contender *c, struct bench_buf *b, double target)
{
	size_t reps = 1;
	for (int w = 0; w < 3; w++)
		ticks_once(c, b, 1);
	for (;;) {
		double t = ticks_once(c, b, reps);
		if (t >= target / 4 || reps >= (1u << 24)) {
			double per = t / (double)reps;
			size_t r = per > 0 ? (size_t)(target / per) : reps;
			return r < 1 ? 1 : r;
		}
		reps *= 2;
	}
}

/* Run the contender once on fresh operands; compare output and return value with ref. */
static const char *check(const struct bench_driver *d, const struct bench_contender *c,
                         const struct bench_contender *ref, size_t n)
{
	if (c->kind == BK_GMP_PEER)
		return "n/a";
	if (c->kind == BK_REF)
		return "ok";
	struct bench_buf *a = d->alloc(n, 12345), *b = d->alloc(n, 12345);
	uint64_t ra = ref->batch(a, ref->fn, 1);
	uint64_t rb = c->batch(b, c->fn, 1);
	int same = ra == rb && d->same_output(a, b);
	bench_buf_free(a);
	bench_buf_free(b);
	return same ? "ok" : "MISMATCH";
}

int main(int argc, char **argv)
{
	struct options o;
	struct bench_run run;
	memset(&run, 0, sizeof run);

	char args[512] = "";
	for (int i = 1; i < argc; i++) {
		strncat(args, argv[i], sizeof args - strlen(args) - 2);
		if (i + 1 < argc)
			strncat(args, " ", sizeof args - strlen(args) - 1);
	}
	parse(argc, argv, &o);
	run.args = args;
	run.quick = o.quick;
	run.partial = o.partial;
	run.emulated = o.emulated;
#if !defined(__x86_64__)
	if (o.emulated)
		fprintf(stderr, "limbforge-bench: WARNING: running under emulation; timings are "
		        "meaningless (the run only checks that the harness works)\n");
#endif
	bench_cpu_identify(&run.cpu, o.emulated);
	time_t now = time(NULL);
	strftime(run.date, sizeof run.date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

	/* kernels in the table without a driver, and the --list output */
	for (size_t i = 0; i < LF_K_COUNT; i++) {
		const struct lf_kernel *k = &lf_kernel_table[i];
		const struct bench_driver *d = bench_find_driver(k->name);
		if (!d)
			printf("# note: kernel %s has no bench driver (add one in bench/kernels.c); "
			       "skipped\n", k->name);
		if (o.list) {
			printf("%-20s %s:", k->name, d ? "driver" : "NO DRIVER");
			for (size_t j = 0; j < k->count; j++)
				if (!(k->variants[j].features & ~lf_cpu_features()))
					printf(" %s", k->variants[j].name);
			printf("%s\n", d ? (d->peer_note ? " + GMP peer" : " + GMP") : "");
		}
	}
	if (o.list)
		return 0;
	for (size_t i = 0; i < o.nkernels; i++)
		if (!bench_find_driver(o.kernels[i]) || !table_kernel(o.kernels[i])) {
			fprintf(stderr, "unknown kernel %s (see --list)\n", o.kernels[i]);
			return 2;
		}

	if (o.pin >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(o.pin, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0)
			perror("sched_setaffinity");
	}

	/* spin the core up (~100 ms of add chains), measure the tick rate roughly */
	uint64_t ns0 = bench_now_ns(), tk0 = bench_ticks_begin();
	while (bench_now_ns() - ns0 < (o.quick ? 30 : 100) * 1000000ull)
		bench_calib_sample(100);
	run.ticks_per_ns = (double)(bench_ticks_end() - tk0) / (double)(bench_now_ns() - ns0);
	run.timer_overhead = bench_timer_overhead();
	double target = o.batch_us * 1000.0 * run.ticks_per_ns;
	uint64_t calib_loops = o.quick ? 10 : 20;

	size_t cal_cap = 1024, ncal = 0;
	double *cal = malloc(cal_cap * sizeof *cal);
	size_t row_cap = 256;
	run.rows = malloc(row_cap * sizeof *run.rows);
	/* contenders must outlive the rows that point to them */
	struct bench_contender *cstore = calloc(bench_driver_count * 16, sizeof *cstore);
	double *samples = malloc(16 * o.repeats * sizeof *samples);
	double *ratio = malloc(o.repeats * sizeof *ratio);
	if (!cal || !run.rows || !cstore || !samples || !ratio)
		return 2;
	run.calib_first = bench_calib_sample(calib_loops);

	for (size_t di = 0; di < bench_driver_count; di++) {
		const struct bench_driver *d = &bench_drivers[di];
		if (!table_kernel(d->kernel) || !wanted(o.kernels, o.nkernels, d->kernel))
			continue;
		struct bench_contender *c = &cstore[di * 16];
		size_t nc = contenders(d, &o, c, 16);
		const struct bench_contender *ref = NULL;
		for (size_t j = 0; j < nc; j++)
			if (c[j].kind == BK_REF)
				ref = &c[j];

		const size_t *sizes = o.nsizes ? o.sizes : d->sizes;
		size_t nsz = 0;
		while (o.nsizes ? nsz < o.nsizes : sizes[nsz] != 0)
			nsz++;
		for (size_t si = 0; si < nsz; si++) {
			size_t n = sizes[si];
			struct bench_buf *buf = d->alloc(n, 1 + n);
			size_t reps[16];
			const char *chk[16];
			for (size_t j = 0; j < nc; j++) {
				chk[j] = check(d, &c[j], ref, n);
				reps[j] = batch_length(&c[j], buf, target);
			}
			/* warm-up (untimed): the contenders run round-robin for ~3 ms per size, so
			 * vector units that power up on first use (AVX-512 license / throttling,
			 * ~0.5-2 ms here) are warm before the timed rounds */
			{
				uint64_t w0 = bench_now_ns();
				while (bench_now_ns() - w0 < 3000000ull)
					for (size_t j = 0; j < nc; j++)
						ticks_once(&c[j], buf, reps[j]);
			}
			for (size_t r = 0; r < o.repeats; r++) {
				for (size_t j = 0; j < nc; j++) {
					size_t x = (r + j) % nc;
					double t = ticks_once(&c[x], buf, reps[x]) - run.timer_overhead;
					samples[x * o.repeats + r] = t / (double)reps[x];
				}
				if (ncal == cal_cap) {
					cal_cap *= 2;
					cal = realloc(cal, cal_cap * sizeof *cal);
					if (!cal)
						return 2;
				}
				cal[ncal++] = bench_calib_sample(calib_loops);
			}
			for (size_t j = 0; j < nc; j++) {
				if (run.nrows == row_cap) {
					row_cap *= 2;
					run.rows = realloc(run.rows, row_cap * sizeof *run.rows);
					if (!run.rows)
						return 2;
				}
				struct bench_row *w = &run.rows[run.nrows++];
				memset(w, 0, sizeof *w);
				w->drv = d;
				w->c = &c[j];
				w->size = n;
				w->cnt = o.repeats;
				w->batch_calls = reps[j];
				w->check = chk[j];
			}
			/* paired ratios first: bench_stats sorts the samples */
			size_t base = run.nrows - nc;
			for (size_t j = 0; j < nc; j++) {
				struct bench_row *w = &run.rows[base + j];
				for (size_t g = 0; g < nc; g++) {
					struct bench_stats *dst = NULL;
					if (c[g].kind == BK_GMP || c[g].kind == BK_GMP_PEER)
						dst = &w->paired_gmp;
					else if (c[g].kind == BK_REF)
						dst = &w->paired_ref;
					if (!dst)
						continue;
					for (size_t r = 0; r < o.repeats; r++)
						ratio[r] = samples[g * o.repeats + r] /
						           samples[j * o.repeats + r];
					bench_stats(ratio, o.repeats, dst);
				}
			}
			for (size_t j = 0; j < nc; j++)
				bench_stats(&samples[j * o.repeats], o.repeats,
				            &run.rows[base + j].cyc); /* ticks for now */
			bench_buf_free(buf);
			fprintf(stderr, ".");
		}
	}
	fprintf(stderr, "\n");
	run.calib_last = bench_calib_sample(calib_loops);
	run.ticks_per_ns = (double)(bench_ticks_end() - tk0) / (double)(bench_now_ns() - ns0);
	bench_stats(cal, ncal, &run.calib);
	run.calib_n = ncal;

	/* ticks -> core cycles and ns; ratios within each (kernel, size) */
	double k = run.calib.median;
	for (size_t i = 0; i < run.nrows; i++) {
		struct bench_row *w = &run.rows[i];
		w->ns_per_call = w->cyc.median / run.ticks_per_ns;
		w->cyc.median *= k;
		w->cyc.mad *= k;
		w->cyc.p10 *= k;
		w->cyc.p90 *= k;
		w->cyc.min *= k;
		w->cyc.mean *= k;
	}
	for (size_t i = 0; i < run.nrows; i++) {
		struct bench_row *w = &run.rows[i];
		for (size_t j = 0; j < run.nrows; j++) {
			const struct bench_row *u = &run.rows[j];
			if (u->drv != w->drv || u->size != w->size || w->cyc.median <= 0)
				continue;
			if (u->c->kind == BK_GMP || u->c->kind == BK_GMP_PEER)
				w->ratio_gmp = u->cyc.median / w->cyc.median;
			if (u->c->kind == BK_REF)
				w->ratio_ref = u->cyc.median / w->cyc.median;
		}
	}

	bench_print_header(&run, stdout);
	bench_print_table(&run, stdout);

	char path[1024] = "";
	if (o.json)
		snprintf(path, sizeof path, "%s", o.json);
	else if (!o.partial && !o.emulated && o.json_dir)
		snprintf(path, sizeof path, "%s/%s.json", o.json_dir, run.cpu.name);
	else if (o.scratch_dir)
		snprintf(path, sizeof path, "%s/%s%s.json", o.scratch_dir, run.cpu.name,
		         o.partial ? ".partial" : "");
	if (path[0]) {
		if (bench_write_json(&run, path) != 0) {
			perror(path);
			return 1;
		}
		printf("json: %s\n", path);
	}
	int bad = 0;
	for (size_t i = 0; i < run.nrows; i++)
		bad |= !strcmp(run.rows[i].check, "MISMATCH");
	if (bad)
		fprintf(stderr, "limbforge-bench: some variants disagree with ref (see the table)\n");
	free(cal);
	free(samples);
	free(ratio);
	return bad ? 1 : 0;
}
