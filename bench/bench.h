/*
 * bench.h -- shared declarations of the limbforge benchmark harness (the .c files in bench/).
 *
 * The harness (build/<arch>/bench/limbforge-bench, built and run by `make bench`) times, in one
 * process and interleaved round-robin, every runnable variant of every kernel in
 * lf_kernel_table, the portable `ref` variants and GMP peers; it prints a JMH-like table and
 * writes a JSON file (see main.c for the options, report.c for the formats).  --check
 * compares the variants with ref without timing anything (main.c).
 *
 *   timer.c    tick source (rdtsc+lfence / clock_gettime) and the core-cycles-per-tick
 *              calibration with a dependent register-register add chain
 *   stats.c    median, MAD, percentiles of a sample
 *   kernels.c  one driver per kernel: buffers, batch loops, GMP peers, output check
 *   cpuname.c  CPU model string and the sanitized name of the results file
 *   report.c   the table on stdout and the JSON file
 *   main.c     options and the measurement schedule
 */
#ifndef LF_BENCH_H
#define LF_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "limbforge.h"
#include "lf_dispatch.h"

/* ---- timer.c ---------------------------------------------------------------------------- */
/* Ticks: the TSC on x86-64 (lfence-fenced rdtsc), nanoseconds of CLOCK_MONOTONIC_RAW elsewhere. */
uint64_t bench_ticks_begin(void);
uint64_t bench_ticks_end(void);
const char *bench_timer_name(void);
/* Nanoseconds of CLOCK_MONOTONIC_RAW (to measure the tick rate over the whole run). */
uint64_t bench_now_ns(void);
/* One calibration sample: run `loops` x 1000 dependent register-register adds (one core cycle
 * each) and return core cycles per tick = 1000*loops / ticks. */
double bench_calib_sample(uint64_t loops);
/* Median cost in ticks of an empty begin/end pair. */
double bench_timer_overhead(void);

/* ---- stats.c ---------------------------------------------------------------------------- */
struct bench_stats {
	double median, mad, p10, p25, p75, p90, min, mean;
};
/* Sorts v in place. */
void bench_stats(double *v, size_t n, struct bench_stats *out);

/* ---- kernels.c -------------------------------------------------------------------------- */
struct bench_buf;                  /* the operands of one (kernel, size) */

/* Most contenders (variants incl. ref, plus GMP) of one kernel. */
#define BENCH_MAX_CONTENDERS 40

enum bench_kind { BK_VARIANT, BK_REF, BK_GMP, BK_GMP_PEER };

/* Something that can be timed: an lf variant (incl. ref) or a GMP function. */
struct bench_contender {
	char label[64];                /* "mpn_addmul_1.adx", "mpn_sqr.adx@sapphirerapids#12" */
	char variant[48];              /* "adx", "adx#3", "ref", "gmp", "gmp~addmul_1" */
	enum bench_kind kind;
	int chosen;                    /* the dispatcher's choice for this kernel */
	lf_fnptr fn;                   /* lf variant, or NULL for GMP */
	/* run `reps` calls on the buffers; returns a value to keep the calls observable */
	uint64_t (*batch)(struct bench_buf *b, lf_fnptr fn, size_t reps);
};

struct bench_driver {
	const char *kernel;            /* name in lf_kernel_table */
	const char *unit;              /* "limb" or "word" */
	const char *peer_note;         /* how the GMP peer row maps the size, NULL for a true peer */
	const size_t *sizes;           /* default sizes, 0-terminated */
	uint64_t (*variant_batch)(struct bench_buf *b, lf_fnptr fn, size_t reps);
	const char *gmp_name;          /* variant name of the GMP row */
	uint64_t (*gmp_batch)(struct bench_buf *b, lf_fnptr fn, size_t reps);
	/* fresh pseudo-random operands of `n` units; reset before each check */
	struct bench_buf *(*alloc)(size_t n, uint64_t seed);
	void (*reset)(struct bench_buf *b);
	/* compare the output of the last call with `other`; the GMP peer of a bi_* kernel
	 * computes something else and is not compared */
	int (*same_output)(const struct bench_buf *a, const struct bench_buf *b);
};

extern const struct bench_driver bench_drivers[];
extern const size_t bench_driver_count;
const struct bench_driver *bench_find_driver(const char *kernel);
void bench_buf_free(struct bench_buf *b);

/* --check operand patterns, applied by bench_buf_fill after alloc: */
enum bench_pattern {
	BP_RANDOM,                     /* keep alloc's pseudo-random operands */
	BP_ONES,                       /* every input limb/word, b/k and the initial rp/out: ~0 */
	BP_ZEROS,                      /* multiplicand (ap / in) zero, everything else ~0 */
	BP_COUNT
};
extern const char *const bench_pattern_names[BP_COUNT];   /* "random", "ones", "zeros" */
/* Overwrite the operands (ap, in, initial rp/out, b, k) with `pattern`, then reset. */
void bench_buf_fill(struct bench_buf *b, int pattern);
/* 0 if a call wrote outside its output (rp[0..rp_len), out[0..out_len)): the outputs sit
 * between guard zones of BENCH_GUARD_BYTES on each side, checked by --check. */
#define BENCH_GUARD_BYTES 64
int bench_buf_guard_ok(const struct bench_buf *b);
/* --check-selftest: damage what a correct call leaves behind.  how 0: flip one bit of the
 * output (rp and out) when n >= 1; how 1: change the element just past each output. */
void bench_buf_corrupt(struct bench_buf *b, int how);
/* The sink that keeps results observable. */
extern volatile uint64_t bench_sink;
/* GMP's version string (gmp_version). */
const char *gmp_version_string(void);

#if defined(__clang__)
#  define BENCH_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#  define BENCH_COMPILER "gcc " __VERSION__
#else
#  define BENCH_COMPILER "unknown compiler"
#endif

/* ---- cpuname.c -------------------------------------------------------------------------- */
struct bench_cpu {
	char model[128];               /* brand string / MIDR description, as reported */
	char name[160];                /* sanitized file name stem: "<model>-<id>_<arch>" */
	char arch[16];
	unsigned family, model_id, stepping;   /* x86 CPUID; implementer/part/variant on AArch64 */
};
void bench_cpu_identify(struct bench_cpu *c, int emulated);

/* ---- report.c --------------------------------------------------------------------------- */
struct bench_row {
	const struct bench_driver *drv;
	const struct bench_contender *c;
	size_t size;
	size_t cnt;                    /* number of timed batches */
	size_t batch_calls;            /* calls per batch */
	struct bench_stats cyc;        /* core cycles per call */
	double ns_per_call;            /* median */
	/* other / this, 0 when absent: the ratio of the medians, and the per-round (paired)
	 * ratios of batches timed next to each other -- robust to load changing over time */
	double ratio_gmp, ratio_ref;
	struct bench_stats paired_gmp, paired_ref;
	/* --baseline V: per-round baseline batch time / this one (paired_base.median > 1: this
	 * row is faster than the baseline) */
	struct bench_stats paired_base;
	const char *check;             /* "ok", "MISMATCH", "n/a" */
};

struct bench_run {
	struct bench_cpu cpu;
	int emulated, quick, partial;
	const char *args;
	const char *baseline;          /* --baseline variant name, NULL without */
	double ticks_per_ns;           /* TSC GHz on x86-64; 1 with clock_gettime */
	struct bench_stats calib;      /* core cycles per tick */
	size_t calib_n;
	double calib_first, calib_last;
	double timer_overhead;         /* ticks, subtracted from each batch */
	struct bench_row *rows;
	size_t nrows;
	char date[40];
};

void bench_print_header(const struct bench_run *r, FILE *f);
void bench_print_table(const struct bench_run *r, FILE *f);
int bench_write_json(const struct bench_run *r, const char *path);

#endif /* LF_BENCH_H */
