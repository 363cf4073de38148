/*
 * main.c -- limbforge-bench: every runnable variant of every kernel, ref and GMP, side by side.
 *
 *   make bench                                        full run, bench/results/<cpu>.{json,png}
 *   make bench BENCH_ARGS="--kernel mpn_addmul_1 --sizes 25,64,128 --quick"
 *   build/<arch>/bench/limbforge-bench --help
 *   limbforge-bench --kernel mpn_addmul_1 --variant adx,adx#3 --baseline adx --no-gmp --json F
 *                                                     schedule tuning: ratios vs a baseline
 *   limbforge-bench --check [--kernel K] [--variant V]   correctness only, no timing
 *
 * Schedule, per kernel and size: all contenders (the variants of lf_kernel_table runnable here,
 * ref, the driver's peers: GMP; OpenSSL and libsodium for Poly1305) get the same operands;
 * each is checked once against ref's output, warmed up, and its batch length (calls between
 * two timer reads) is set so that a batch lasts --batch-us.  A driver's select hook runs
 * before every batch, outside the timed region (Poly1305: lf_impl_force of the variant, whose
 * calls then go through the public API).
 * Then --repeats rounds run every contender's batch once, round-robin with the starting
 * contender rotating each round, plus one core-clock calibration sample (timer.c) per round.
 * A row reports the median and spread over its batches (report.c).  Filtered or --quick runs
 * are "partial": their JSON goes to the scratch directory, never over bench/results/.
 *
 * --baseline V adds, per row, the paired per-round ratios V's batch time / this row's (column
 * xbase, JSON "ratio_vs_base"); V is a variant name of every selected kernel ("adx", "adx#3",
 * "adx@sapphirerapids", also "ref").  --no-gmp (or --no-peers) drops the peer rows: GMP,
 * OpenSSL, libsodium (ref is always kept).
 *
 * --check: no spin-up, calibration or timing.  Every selected non-ref variant runs once per
 * (size, operand pattern, seed) next to ref on identical operands; return value, output and
 * the guard zones around the output (no writes outside it) must agree; a driver with a
 * verify hook also checks both against an independent oracle (poly1305_blocks: the kernel
 * called directly on a guarded ctx, three calls, and tags through the public API, vs GMP
 * arithmetic, libsodium and OpenSSL -- poly1305.c).  Sizes 0..40 and
 * 47..49, 63..65, 95..97, 127..129, 255..257, 513 (or --sizes, where 0 is then allowed);
 * patterns: random (3 seeds), ones (every input, b/k and the initial output all ones), zeros
 * (multiplicand zero, everything else ones; Poly1305: see poly1305.c).  One line per variant,
 *   check <kernel>.<variant> ok <checks>
 *   check <kernel>.<variant> MISMATCH size=<n> pattern=<p> seed=<s>      (first failure)
 * exit status 1 on any mismatch, 2 when a --variant name matches no runnable variant; --json F
 * writes {"schema": "limbforge-check/1", "results": [...]}.  --check-selftest runs the same
 * machinery against deliberately wrong wrappers of ref (output bit flipped, return value
 * changed, a write past the output) and exits 0 only if each of them is reported MISMATCH
 * (and ref against itself ok).
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
	char *variants[32];
	size_t nvariants;
	size_t sizes[64];
	size_t nsizes;
	int quick, emulated, list, pin;
	int no_gmp, check, check_selftest;
	const char *baseline;
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
	        "  --variant V[,V..]   only these assembly variants, up to 32 names (ref and GMP rows\n"
	        "                      always kept); names as in --list, e.g. adx, adx@sapphirerapids,\n"
	        "                      adx#3\n"
	        "  --sizes N[,N..]     sizes in limbs (mpn_*), words (bi_*) or 16-byte blocks\n"
	        "                      (poly1305_*) instead of the defaults (at most 63; 0 only with\n"
	        "                      --check)\n"
	        "  --quick             fewer, shorter batches (31 x 5 us) for quick iteration\n"
	        "  --repeats N         timed batches per row (default 301)\n"
	        "  --batch-us U        target length of one batch in microseconds (default 20)\n"
	        "  --pin CPU           pin the process to one CPU\n"
	        "  --json FILE         write the JSON here\n"
	        "  --json-dir DIR      directory for <cpu>.json of full runs (default bench/results)\n"
	        "  --scratch-dir DIR   directory for partial/quick/emulated runs (default: no JSON)\n"
	        "  --emulated          running under qemu: warn that timings are meaningless\n"
	        "  --list              list kernels, drivers and runnable variants, then exit\n"
	        "  --baseline V        paired per-round ratios V / this row for every row: column\n"
	        "                      xbase, JSON ratio_vs_base; V must be a contender of every\n"
	        "                      selected kernel (exit 2 otherwise); makes the run partial\n"
	        "  --no-gmp, --no-peers  no peer rows (GMP, OpenSSL, libsodium; ref rows are always\n"
	        "                      kept); makes the run partial\n"
	        "  --check             correctness only, no timing: each selected non-ref variant vs\n"
	        "                      ref (poly1305_blocks: and vs GMP, libsodium, OpenSSL) on sizes\n"
	        "                      0..40,47..49,63..65,95..97,127..129,255..257,513 (or\n"
	        "                      --sizes), patterns random (3 seeds), ones, zeros; prints\n"
	        "                      'check K.V ok N' or 'check K.V MISMATCH size= pattern= seed='\n"
	        "                      (first failure); exit 1 on a mismatch; --json FILE writes\n"
	        "                      schema limbforge-check/1\n"
	        "  --check-selftest    --check against deliberately wrong wrappers of ref: exit 0\n"
	        "                      only if every one of them is reported as MISMATCH\n");
}

static void split_into(const char *opt, char *arg, char **dst, size_t *n, size_t cap)
{
	for (char *t = strtok(arg, ","); t; t = strtok(NULL, ",")) {
		if (*n == cap) {
			fprintf(stderr, "%s: at most %zu names\n", opt, cap);
			exit(2);
		}
		dst[(*n)++] = t;
	}
}

static void parse(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->repeats = 301;
	o->batch_us = 20;
	o->json_dir = "bench/results";
	o->pin = -1;
	int repeats_set = 0, batch_set = 0, size0 = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV() do { if (!v) { fprintf(stderr, "%s needs a value\n", a); exit(2); } i++; } while (0)
		if (!strcmp(a, "--kernel")) {
			NEEDV();
			split_into(a, argv[i], o->kernels, &o->nkernels, 16);
			o->partial = 1;
		} else if (!strcmp(a, "--variant")) {
			NEEDV();
			split_into(a, argv[i], o->variants, &o->nvariants, 32);
			o->partial = 1;
		} else if (!strcmp(a, "--sizes")) {
			NEEDV();
			for (char *t = strtok(argv[i], ","); t && o->nsizes < 63; t = strtok(NULL, ",")) {
				char *end;
				long s = strtol(t, &end, 10);
				if (s < 0 || end == t || *end) {
					fprintf(stderr, "bad size %s\n", t);
					exit(2);
				}
				size0 |= s == 0;   /* only --check takes 0: checked below */
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
		} else if (!strcmp(a, "--baseline")) {
			NEEDV();
			o->baseline = argv[i];
			o->partial = 1;
		} else if (!strcmp(a, "--no-gmp") || !strcmp(a, "--no-peers")) {
			o->no_gmp = 1;
			o->partial = 1;   /* never a bench/results/ file without the peer rows */
		} else if (!strcmp(a, "--check")) {
			o->check = 1;
		} else if (!strcmp(a, "--check-selftest")) {
			o->check_selftest = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else {
			fprintf(stderr, "unknown option %s\n", a);
			usage(stderr);
			exit(2);
		}
	}
	if (size0 && !o->check && !o->check_selftest) {
		fprintf(stderr, "bad size 0 (allowed only with --check)\n");
		exit(2);
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

/* The contenders of one driver: runnable assembly variants (table order), ref, the peers
 * (unless --no-gmp or `with_peers` is 0; a peer whose library is not built in has no row). */
static size_t contenders(const struct bench_driver *d, const struct options *o,
                         struct bench_contender *c, size_t cap, int with_peers)
{
	const struct lf_kernel *k = table_kernel(d->kernel);
	uint64_t allowed = lf_cpu_features();
	const char *cur = lf_impl(d->kernel);
	size_t n = 0, dropped = 0, npeers = 0;
	with_peers = with_peers && !o->no_gmp;
	for (size_t i = 0; with_peers && i < BENCH_MAX_PEERS && d->peers[i].name; i++)
		npeers += d->peers[i].batch != NULL;
	for (size_t i = 0; i < k->count; i++) {
		const struct lf_variant *v = &k->variants[i];
		int is_ref = !strcmp(v->name, "ref");
		if (v->features & ~allowed)
			continue;
		if (!is_ref && !wanted(o->variants, o->nvariants, v->name))
			continue;
		/* slots stay free for ref (last in the table) and the peers */
		if (n + npeers + !is_ref >= cap) {
			dropped++;
			continue;
		}
		struct bench_contender *x = &c[n];
		memset(x, 0, sizeof *x);
		if ((size_t)snprintf(x->label, sizeof x->label, "%s.%s", d->name, v->name) >=
		            sizeof x->label ||
		    (size_t)snprintf(x->variant, sizeof x->variant, "%s", v->name) >= sizeof x->variant)
			fprintf(stderr, "limbforge-bench: variant name %s.%s too long, truncated\n",
			        d->name, v->name);
		x->kind = is_ref ? BK_REF : BK_VARIANT;
		x->chosen = cur && !strcmp(cur, v->name);
		x->peer = -1;
		x->index = n++;
		x->drv = d;
		x->fn = v->fn;
		x->batch = d->variant_batch;
		x->check_batch = d->check_batch ? d->check_batch : d->variant_batch;
		x->select = d->select;
	}
	if (dropped)
		fprintf(stderr, "limbforge-bench: %s: more than %zu contenders, the last %zu variants "
		        "dropped (narrow with --variant)\n", d->name, cap, dropped);
	for (size_t i = 0; with_peers && i < BENCH_MAX_PEERS && d->peers[i].name; i++) {
		const struct bench_peer *p = &d->peers[i];
		if (!p->batch)
			continue;
		struct bench_contender *g = &c[n];
		memset(g, 0, sizeof *g);
		snprintf(g->label, sizeof g->label, "%s.%s", d->name, p->name);
		snprintf(g->variant, sizeof g->variant, "%s", p->name);
		g->kind = p->kind;
		g->peer = (int)i;
		g->index = n++;
		g->drv = d;
		g->batch = p->batch;
		g->check_batch = p->batch;
		g->select = d->select;
	}
	return n;
}

/* one call of the contender's batch (or check batch): its select hook first, untimed */
static uint64_t run_batch(const struct bench_contender *c, struct bench_buf *b, size_t reps,
                          int checking)
{
	if (c->select)
		c->select(b, c);
	return (checking ? c->check_batch : c->batch)(b, c->fn, reps);
}

static double ticks_once(const struct bench_contender *c, struct bench_buf *b, size_t reps)
{
	if (c->select)
		c->select(b, c);
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
	uint64_t ra = run_batch(ref, a, 1, 0);
	if (d->finish)
		d->finish(a);
	uint64_t rb = run_batch(c, b, 1, 0);
	if (d->finish)
		d->finish(b);
	int same = ra == rb && d->same_output(a, b);
	bench_buf_free(a);
	bench_buf_free(b);
	return same ? "ok" : "MISMATCH";
}

/* ---- --check / --check-selftest ------------------------------------------------------- */

static const size_t check_sizes[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
	47, 48, 49, 63, 64, 65, 95, 96, 97, 127, 128, 129, 255, 256, 257, 513
};
static const uint64_t check_seeds[] = { 12345, 1, 0x5eed5eed };
#define NCHECK_SEEDS (sizeof check_seeds / sizeof check_seeds[0])

struct check_result {
	const struct bench_driver *drv;
	const struct bench_contender *c;
	size_t checked;                /* comparisons passed */
	int ok;
	size_t size;                   /* the first failure */
	int pattern;
	uint64_t seed;
	const char *what;
};

/* ref and c once each on identical operands: NULL if they agree, else what differs */
static const char *check_one(const struct bench_driver *d, const struct bench_contender *ref,
                             const struct bench_contender *c, size_t n, int pattern,
                             uint64_t seed)
{
	struct bench_buf *a = d->alloc(n, seed), *b = d->alloc(n, seed);
	bench_buf_fill(a, pattern);
	bench_buf_fill(b, pattern);
	uint64_t ra = run_batch(ref, a, 1, 1);
	if (d->finish)
		d->finish(a);
	uint64_t rb = run_batch(c, b, 1, 1);
	if (d->finish)
		d->finish(b);
	const char *what = NULL, *oracle = NULL;
	if (d->verify && d->verify(a))
		oracle = "ref disagrees with the independent oracle";
	else if (d->verify)
		oracle = d->verify(b);
	if (!bench_buf_guard_ok(b))
		what = "wrote outside its output";
	else if (oracle)
		what = oracle;
	else if (!d->same_output(a, b))
		what = "output differs";
	else if (ra != rb)
		what = "return value differs";
	bench_buf_free(a);
	bench_buf_free(b);
	return what;
}

/* every size x pattern (x seed for the random one) until the first failure */
static void check_variant(const struct bench_driver *d, const struct bench_contender *ref,
                          const struct bench_contender *c, const size_t *sizes, size_t nsz,
                          struct check_result *res)
{
	memset(res, 0, sizeof *res);
	res->drv = d;
	res->c = c;
	res->ok = 1;
	for (size_t si = 0; si < nsz; si++)
		for (int p = 0; p < BP_COUNT; p++)
			for (size_t s = 0; s < (p == BP_RANDOM ? NCHECK_SEEDS : 1); s++) {
				const char *what = check_one(d, ref, c, sizes[si], p, check_seeds[s]);
				if (what) {
					res->ok = 0;
					res->size = sizes[si];
					res->pattern = p;
					res->seed = check_seeds[s];
					res->what = what;
					return;
				}
				res->checked++;
			}
}

static void check_print(const struct check_result *r)
{
	if (r->ok) {
		printf("check %s ok %zu\n", r->c->label, r->checked);
	} else {
		printf("check %s MISMATCH size=%zu pattern=%s seed=%llu\n", r->c->label, r->size,
		       bench_pattern_names[r->pattern], (unsigned long long)r->seed);
		fprintf(stderr, "# %s: %s (vs ref)\n", r->c->label, r->what);
	}
	fflush(stdout);
}

static int check_write_json(const char *path, const struct check_result *r, size_t n)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "{\"schema\": \"limbforge-check/1\", \"results\": [");
	for (size_t i = 0; i < n; i++) {
		/* names come from the dispatch table: [A-Za-z0-9_.@#~-], nothing to escape */
		fprintf(f, "%s\n  {\"kernel\": \"%s\", \"variant\": \"%s\", \"ok\": %s, "
		        "\"checked\": %zu, \"first_failure\": ", i ? "," : "", r[i].drv->name,
		        r[i].c->variant, r[i].ok ? "true" : "false", r[i].checked);
		if (r[i].ok)
			fprintf(f, "null}");
		else
			fprintf(f, "{\"size\": %zu, \"pattern\": \"%s\", \"seed\": %llu, "
			        "\"what\": \"%s\"}}", r[i].size, bench_pattern_names[r[i].pattern],
			        (unsigned long long)r[i].seed, r[i].what);
	}
	fprintf(f, "\n]}\n");
	return fclose(f);
}

/* --sizes, else the driver's own check sizes, else check_sizes */
/* K for a driver of one fixed operand shape (sizes { K, 0 }, check_sizes { 0, K, 0 }: a
 * field element, a point, a ladder; any other size would time a batch that returns at
 * once), else 0 */
static size_t fixed_size(const struct bench_driver *d)
{
	const size_t *c = d->check_sizes;
	if (c && c[0] == 0 && c[1] && c[2] == 0 && d->sizes[0] == c[1] && d->sizes[1] == 0)
		return c[1];
	return 0;
}

/* --sizes, or the driver's own sizes where it has one fixed shape (said once on stderr) */
static const size_t *sizes_for(const struct options *o, const struct bench_driver *d,
                               const size_t *own, size_t *nsz)
{
	if (o->nsizes && fixed_size(d)) {
		if (o->nsizes != 1 || o->sizes[0] != fixed_size(d))
			fprintf(stderr, "limbforge-bench: %s has one fixed size (%zu); --sizes does "
			        "not apply to it\n", d->name, fixed_size(d));
	} else if (o->nsizes) {
		*nsz = o->nsizes;
		return o->sizes;
	}
	size_t i = own == d->check_sizes;       /* check_sizes begin with a 0 */
	while (own[i])
		i++;
	*nsz = i;
	return own;
}

static const size_t *sizes_to_check(const struct options *o, const struct bench_driver *d,
                                    size_t *nsz)
{
	if (o->nsizes && fixed_size(d))
		return sizes_for(o, d, d->check_sizes, nsz);
	if (o->nsizes) {
		*nsz = o->nsizes;
		return o->sizes;
	}
	if (d->check_sizes) {
		for (*nsz = 1; d->check_sizes[*nsz]; ++*nsz)
			;
		return d->check_sizes;
	}
	*nsz = sizeof check_sizes / sizeof check_sizes[0];
	return check_sizes;
}

/* --check: 0 all ok, 1 a mismatch, 2 a --variant name that matched nothing runnable */
static int run_check(const struct options *o, const struct bench_contender *cstore,
                     const size_t *ncont)
{
	size_t cap = 1, nres = 0;
	for (size_t di = 0; di < bench_driver_count; di++)
		cap += ncont[di];
	struct check_result *res = calloc(cap, sizeof *res);
	if (!res)
		return 2;
	int rc = 0;
	for (size_t di = 0; di < bench_driver_count; di++) {
		const struct bench_driver *d = bench_drivers[di];
		const struct bench_contender *c = &cstore[di * BENCH_MAX_CONTENDERS], *ref = NULL;
		if (!ncont[di])
			continue;
		for (size_t j = 0; j < ncont[di]; j++)
			if (c[j].kind == BK_REF)
				ref = &c[j];
		if (!ref)
			continue;
		/* variants asked for by name that cannot run here */
		const struct lf_kernel *k = table_kernel(d->kernel);
		for (size_t i = 0; o->nvariants && i < k->count; i++)
			if ((k->variants[i].features & ~lf_cpu_features()) &&
			    wanted(o->variants, o->nvariants, k->variants[i].name))
				fprintf(stderr, "# check %s.%s: not runnable on this CPU, skipped\n",
				        d->name, k->variants[i].name);
		for (size_t j = 0; j < ncont[di]; j++) {
			if (c[j].kind != BK_VARIANT)
				continue;
			size_t nsz;
			const size_t *sizes = sizes_to_check(o, d, &nsz);
			check_variant(d, ref, &c[j], sizes, nsz, &res[nres]);
			check_print(&res[nres]);
			if (!res[nres].ok)
				rc = 1;
			nres++;
		}
	}
	for (size_t i = 0; i < o->nvariants; i++) {
		int found = !strcmp(o->variants[i], "ref");   /* always there, never checked */
		for (size_t r = 0; r < nres; r++)
			found |= !strcmp(res[r].c->variant, o->variants[i]);
		if (!found) {
			fprintf(stderr, "limbforge-bench: --check: no runnable variant %s in the selected "
			        "kernels (see --list)\n", o->variants[i]);
			rc = 2;
		}
	}
	if (o->json) {
		if (check_write_json(o->json, res, nres) != 0) {
			perror(o->json);
			rc = 2;
		} else {
			printf("json: %s\n", o->json);
		}
	}
	free(res);
	return rc;
}

/* --check-selftest: wrong wrappers around ref's batch loop */
static bench_batch_fn selftest_inner;

static uint64_t selftest_flip_output(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	uint64_t r = selftest_inner(b, fn, reps);
	bench_buf_corrupt(b, 0);
	return r;
}

static uint64_t selftest_flip_return(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	return selftest_inner(b, fn, reps) ^ 1;
}

static uint64_t selftest_overrun(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	uint64_t r = selftest_inner(b, fn, reps);
	bench_buf_corrupt(b, 1);
	return r;
}

static int run_check_selftest(const struct options *o, const struct bench_contender *cstore,
                              const size_t *ncont)
{
	static const struct {
		const char *name;
		bench_batch_fn batch;
	} wrong[] = {
		{ "selftest-ref", NULL },  /* ref itself: must be ok */
		{ "selftest-flip-output", selftest_flip_output },
		{ "selftest-flip-return", selftest_flip_return },
		{ "selftest-overrun", selftest_overrun },
	};
	int bad = 0;
	for (size_t di = 0; di < bench_driver_count; di++) {
		const struct bench_driver *d = bench_drivers[di];
		const struct bench_contender *c = &cstore[di * BENCH_MAX_CONTENDERS], *ref = NULL;
		for (size_t j = 0; j < ncont[di]; j++)
			if (c[j].kind == BK_REF)
				ref = &c[j];
		if (!ref)
			continue;
		size_t nsz;
		const size_t *sizes = sizes_to_check(o, d, &nsz);
		for (size_t w = 0; w < sizeof wrong / sizeof wrong[0]; w++) {
			struct bench_contender x = *ref;
			struct check_result r;
			snprintf(x.label, sizeof x.label, "%s.%s", d->name, wrong[w].name);
			x.kind = BK_VARIANT;
			if (wrong[w].batch) {
				selftest_inner = ref->check_batch;
				x.check_batch = wrong[w].batch;
			}
			check_variant(d, ref, &x, sizes, nsz, &r);
			check_print(&r);
			if (r.ok != !wrong[w].batch) {
				fprintf(stderr, "limbforge-bench: selftest: %s was %s\n", x.label,
				        r.ok ? "NOT caught" : "wrongly reported");
				bad = 1;
			}
		}
	}
	printf("check-selftest %s\n", bad ? "FAILED" : "ok");
	return bad;
}

int main(int argc, char **argv)
{
	struct options o;
	struct bench_run run;
	memset(&run, 0, sizeof run);

	char args[2048] = "";
	for (int i = 1; i < argc; i++) {
		strncat(args, argv[i], sizeof args - strlen(args) - 2);
		if (i + 1 < argc)
			strncat(args, " ", sizeof args - strlen(args) - 1);
	}
	parse(argc, argv, &o);

	/* kernels in the table without a driver, and the --list output: one line per kernel
	 * (its driver is the one of the same name), then the other drivers of a kernel
	 * (poly1305_update) -- "<name> driver: <runnable variants> + <peers>" */
	for (size_t i = 0; i < LF_K_COUNT; i++) {
		const struct lf_kernel *k = &lf_kernel_table[i];
		const struct bench_driver *d = bench_find_driver(k->name);
		if (!d)
			printf("# note: kernel %s has no bench driver (add one in bench/kernels.c); "
			       "skipped\n", k->name);
		if (o.list && !d)
			printf("%-20s NO DRIVER\n", k->name);
	}
	for (size_t di = 0; o.list && di < bench_driver_count; di++) {
		const struct bench_driver *d = bench_drivers[di];
		const struct lf_kernel *k = table_kernel(d->kernel);
		if (!k)
			continue;
		printf("%-20s driver:", d->name);
		for (size_t j = 0; j < k->count; j++)
			if (!(k->variants[j].features & ~lf_cpu_features()))
				printf(" %s", k->variants[j].name);
		for (size_t j = 0; j < BENCH_MAX_PEERS && d->peers[j].name; j++)
			if (d->peers[j].batch)
				printf(" + %s%s", d->peers[j].column,
				       d->peers[j].kind == BK_GMP_PEER ? " peer" : "");
		printf("\n");
	}
	if (o.list)
		return 0;
	for (size_t i = 0; i < o.nkernels; i++) {
		const struct bench_driver *d = bench_find_driver(o.kernels[i]);
		if (!d || !table_kernel(d->kernel)) {
			fprintf(stderr, "unknown kernel %s (see --list)\n", o.kernels[i]);
			return 2;
		}
	}
	bench_checking = o.check || o.check_selftest;

	/* the contenders of every selected kernel; they must outlive the rows pointing to them */
	struct bench_contender *cstore = calloc(bench_driver_count * BENCH_MAX_CONTENDERS,
	                                        sizeof *cstore);
	size_t *ncont = calloc(bench_driver_count, sizeof *ncont);
	size_t *ibase = calloc(bench_driver_count, sizeof *ibase);
	if (!cstore || !ncont || !ibase)
		return 2;
	for (size_t di = 0; di < bench_driver_count; di++) {
		const struct bench_driver *d = bench_drivers[di];
		if (!table_kernel(d->kernel) || !wanted(o.kernels, o.nkernels, d->name))
			continue;
		struct bench_contender *c = &cstore[di * BENCH_MAX_CONTENDERS];
		ncont[di] = contenders(d, &o, c, BENCH_MAX_CONTENDERS,
		                       !o.check && !o.check_selftest);
		if (!o.baseline || o.check || o.check_selftest)
			continue;
		ibase[di] = ncont[di];
		for (size_t j = 0; j < ncont[di]; j++)
			if (!strcmp(c[j].variant, o.baseline))
				ibase[di] = j;
		if (ibase[di] == ncont[di]) {
			fprintf(stderr, "--baseline %s is not a contender of %s (runnable here and "
			        "selected by --variant; see --list)\n", o.baseline, d->name);
			return 2;
		}
	}
	if (o.check || o.check_selftest) {
		int rc = o.check_selftest ? run_check_selftest(&o, cstore, ncont)
		                          : run_check(&o, cstore, ncont);
		free(cstore);
		free(ncont);
		free(ibase);
		return rc;
	}

	run.args = args;
	run.quick = o.quick;
	run.partial = o.partial;
	run.emulated = o.emulated;
	run.baseline = o.baseline;
#if !defined(__x86_64__)
	if (o.emulated)
		fprintf(stderr, "limbforge-bench: WARNING: running under emulation; timings are "
		        "meaningless (the run only checks that the harness works)\n");
#endif
	bench_cpu_identify(&run.cpu, o.emulated);
	time_t now = time(NULL);
	strftime(run.date, sizeof run.date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

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
	double *samples = malloc(BENCH_MAX_CONTENDERS * o.repeats * sizeof *samples);
	double *ratio = malloc(o.repeats * sizeof *ratio);
	if (!cal || !run.rows || !samples || !ratio)
		return 2;
	run.calib_first = bench_calib_sample(calib_loops);

	for (size_t di = 0; di < bench_driver_count; di++) {
		const struct bench_driver *d = bench_drivers[di];
		if (!table_kernel(d->kernel) || !wanted(o.kernels, o.nkernels, d->name))
			continue;
		struct bench_contender *c = &cstore[di * BENCH_MAX_CONTENDERS];
		size_t nc = ncont[di];
		const struct bench_contender *ref = NULL;
		for (size_t j = 0; j < nc; j++)
			if (c[j].kind == BK_REF)
				ref = &c[j];

		size_t nsz;
		const size_t *sizes = sizes_for(&o, d, d->sizes, &nsz);
		for (size_t si = 0; si < nsz; si++) {
			size_t n = sizes[si];
			struct bench_buf *buf = d->alloc(n, 1 + n);
			size_t reps[BENCH_MAX_CONTENDERS];
			const char *chk[BENCH_MAX_CONTENDERS];
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
					if (c[g].peer >= 0)
						dst = &w->paired_peer[c[g].peer];
					else if (c[g].kind == BK_REF)
						dst = &w->paired_ref;
					if (!dst)
						continue;
					for (size_t r = 0; r < o.repeats; r++)
						ratio[r] = samples[g * o.repeats + r] /
						           samples[j * o.repeats + r];
					bench_stats(ratio, o.repeats, dst);
				}
				if (o.baseline) {
					size_t g = ibase[di];
					for (size_t r = 0; r < o.repeats; r++)
						ratio[r] = samples[g * o.repeats + r] /
						           samples[j * o.repeats + r];
					bench_stats(ratio, o.repeats, &w->paired_base);
				}
			}
			for (size_t j = 0; j < nc; j++)
				bench_stats(&samples[j * o.repeats], o.repeats,
				            &run.rows[base + j].cyc); /* ticks for now */
			bench_buf_free(buf);
			fprintf(stderr, ".");
		}
		if (d->select)          /* the variants were forced: back to the dispatcher */
			lf_impl_force(d->kernel, NULL);
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
		w->cyc.p25 *= k;
		w->cyc.p75 *= k;
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
			if (u->c->peer >= 0)
				w->ratio_peer[u->c->peer] = u->cyc.median / w->cyc.median;
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
	free(run.rows);
	free(cstore);
	free(ncont);
	free(ibase);
	return bad ? 1 : 0;
}
