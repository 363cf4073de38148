/*
 * bench.h -- shared declarations of the limbforge benchmark harness (the .c files in bench/).
 *
 * The harness (build/<arch>/bench/limbforge-bench, built and run by `make bench`) times, in one
 * process and interleaved round-robin, every runnable variant of every kernel in
 * lf_kernel_table, the portable `ref` variants and peer libraries (GMP; OpenSSL and libsodium
 * for Poly1305); it prints a JMH-like table and writes a JSON file (see main.c for the
 * options, report.c for the formats).  --check compares the variants with ref (and, for
 * Poly1305, with independent oracles) without timing anything (main.c).
 *
 *   timer.c    tick source (rdtsc+lfence / clock_gettime) and the core-cycles-per-tick
 *              calibration with a dependent register-register add chain
 *   stats.c    median, MAD, percentiles of a sample
 *   kernels.c  one driver per kernel: buffers, batch loops, GMP peers, output check
 *   ecdh.c     the P-256 ECDH driver: lf_p256_ecdh beside OpenSSL EVP_PKEY_derive
 *   fe.c       the field product drivers (tests/fe_kernels.h): every variant beside ref
 *   xdh.c      X25519 / X448: lf_x25519, lf_x448 beside OpenSSL EVP_PKEY_derive, libsodium
 *   poly1305.c the Poly1305 drivers: JMH Poly1305DigestBench digestBytes/updateBytes through
 *              the public API, OpenSSL and libsodium peers, the --check oracle (GMP)
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
#include "../tests/fe_kernels.h"

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

/* ---- kernels.c, poly1305.c ------------------------------------------------------------- */
struct bench_contender;
struct bench_poly;                 /* poly1305.c: messages, states, peers' contexts */

/* The operands of one (kernel, size).  Limb/word drivers use rp/ap/out/in; the Poly1305
 * drivers keep their messages and states in `poly` and write tags (and, in --check, reduced
 * accumulators) to rp.  rp and out sit between BENCH_GUARD_BYTES guard zones. */
struct bench_buf {
	size_t n;                      /* size in the kernel's unit */
	size_t nl;                     /* limbs of the GMP peer of a bi_* kernel: ceil(n/2) */
	uint64_t b;                    /* limb multiplier */
	uint32_t k;                    /* word multiplier */
	uint64_t *rp, *rp0, *ap;       /* mpn: rp (2n for sqr), initial rp, ap */
	uint32_t *out, *out0, *in;     /* bi: out (2n for square, multiply), initial out, in */
	uint32_t *in2;                 /* bi_multiply_to_len: the second operand, n words */
	uint64_t *bp;                  /* mpn_mul: the second operand, n limbs */
	uint64_t *prp, *pap;           /* peer limbs: 2nl, nl */
	size_t rp_len, out_len;
	struct bench_poly *poly;       /* Poly1305 drivers only */
	struct bench_mont *mont;       /* Montgomery drivers only (montgomery.c) */
	struct bench_p256 *p256;       /* P-256 field drivers only (p256.c) */
	struct bench_ecdh *ecdh;       /* the P-256 ECDH driver only (ecdh.c) */
	const struct bench_fe *fe;     /* the field product drivers only (fe.c) */
	struct bench_xdh *xdh;         /* the X25519 / X448 drivers only (xdh.c) */
	int64_t *em;                   /* fe_c25519_r51_mul_x4 (fe.c): a, b, r element-major */
	const struct bench_contender *cur;   /* set by a driver's select hook */
};

/* Most contenders (variants incl. ref, plus peers) of one kernel. */
#define BENCH_MAX_CONTENDERS 40
/* Most peer libraries per driver (GMP; OpenSSL and libsodium for Poly1305; GMP, OpenSSL's
 * BIGNUM and its ecp_nistz256 for P-256). */
#define BENCH_MAX_PEERS 3

enum bench_kind {
	BK_VARIANT,                    /* an lf variant of the dispatch table */
	BK_REF,                        /* the portable ref variant */
	BK_GMP,                        /* GMP, the same function on the same limbs */
	BK_GMP_PEER,                   /* GMP, a related function on the same bits (bi_*) */
	BK_PEER                        /* another library, the same function (OpenSSL, libsodium) */
};

typedef uint64_t (*bench_batch_fn)(struct bench_buf *b, lf_fnptr fn, size_t reps);

/* A peer row of a driver. */
struct bench_peer {
	const char *name;              /* variant name of the row: "gmp", "gmp~sqr", "openssl" */
	const char *column;            /* table column "x<column>": "GMP", "OpenSSL", "sodium" */
	const char *key;               /* JSON "ratio_vs_<key>": "gmp", "openssl", "sodium" */
	enum bench_kind kind;          /* BK_GMP, BK_GMP_PEER or BK_PEER */
	bench_batch_fn batch;          /* NULL: not built in (library missing), no row */
};

struct bench_driver;

/* Something that can be timed: an lf variant (incl. ref) or a peer library's function. */
struct bench_contender {
	char label[64];                /* "mpn_addmul_1.adx", "mpn_sqr.adx@sapphirerapids#12" */
	char variant[48];              /* "adx", "adx#3", "ref", "gmp", "gmp~addmul_1", "openssl" */
	enum bench_kind kind;
	int chosen;                    /* the dispatcher's choice for this kernel */
	int peer;                      /* index in drv->peers, -1 for lf variants and ref */
	size_t index;                  /* position among the driver's contenders */
	const struct bench_driver *drv;
	lf_fnptr fn;                   /* lf variant, or NULL for a peer */
	/* run `reps` calls on the buffers; returns a value to keep the calls observable */
	bench_batch_fn batch;
	/* what --check runs once (the driver's check_batch, else batch) */
	bench_batch_fn check_batch;
	/* called before every batch, outside the timed region (driver's select hook) */
	void (*select)(struct bench_buf *b, const struct bench_contender *c);
};

struct bench_driver {
	const char *name;              /* bench name: --kernel, labels, JSON "kernel" */
	const char *kernel;            /* name in lf_kernel_table (= name but for poly1305_update) */
	const char *unit;              /* "limb", "word" or "block" (sizes are in this unit) */
	size_t unit_bytes;             /* 0, or bytes per unit: the table shows bytes, cyc/byte */
	const char *title;             /* what a row measures (table section, JSON), or NULL */
	const char *jmh;               /* the JMH benchmark it mirrors (JSON "benchmark"), or NULL */
	const char *peer_note;         /* how a GMP peer row maps the size, NULL for a true peer */
	const size_t *sizes;           /* default sizes, 0-terminated */
	/* --check sizes when they must be fewer than main.c's (0 first, then 0-terminated), or
	 * NULL.  A driver with sizes { K, 0 } and check_sizes { 0, K, 0 } has operands of one
	 * fixed shape (a field element, a point, a ladder): it runs at K only, and --sizes does
	 * not apply to it (main.c's fixed_size) */
	const size_t *check_sizes;
	bench_batch_fn variant_batch;
	struct bench_peer peers[BENCH_MAX_PEERS];   /* name NULL: no more */
	/* fresh pseudo-random operands of `n` units; reset before each check */
	struct bench_buf *(*alloc)(size_t n, uint64_t seed);
	void (*reset)(struct bench_buf *b);
	/* compare the output of the last call with `other`; the GMP peer of a bi_* kernel
	 * computes something else and is not compared */
	int (*same_output)(const struct bench_buf *a, const struct bench_buf *b);
	/* optional hooks (NULL for the limb/word drivers):
	 *   select       before each batch, untimed: e.g. lf_impl_force the contender's variant
	 *   check_batch  what --check runs instead of variant_batch (reps 1)
	 *   finish       after a batch whose output is a state, untimed: the comparable output
	 *   verify       after check_batch: NULL, or what disagrees with an independent oracle */
	void (*select)(struct bench_buf *b, const struct bench_contender *c);
	bench_batch_fn check_batch;
	void (*finish)(struct bench_buf *b);
	const char *(*verify)(const struct bench_buf *b);
};

extern const struct bench_driver *const bench_drivers[];
extern const size_t bench_driver_count;
/* the driver called `name` (bench name), NULL if none */
const struct bench_driver *bench_find_driver(const char *name);
/* lf_impl_force(kernel, variant), exiting with a message when it fails */
void bench_force(const char *kernel, const char *variant);
/* The select hook of the drivers that time a public API: a variant or ref contender forces its
 * variant of drv->kernel (peers leave the dispatch alone); sets b->cur. */
void bench_force_select(struct bench_buf *b, const struct bench_contender *c);
void bench_buf_free(struct bench_buf *b);
/* rp and out back to their initial contents (rp0, out0): the reset of most drivers */
void bench_buf_reset(struct bench_buf *b);
/* same_output hooks: the whole rp (limb drivers) / the whole out (word drivers) */
int bench_same_rp(const struct bench_buf *a, const struct bench_buf *b);
int bench_same_out(const struct bench_buf *a, const struct bench_buf *b);
/* kernels.c: the common part of a buffer (rp_len limbs and out_len words between guard
 * zones, ap and in of n elements, pseudo-random) for drivers that add their own */
struct bench_buf *bench_buf_alloc(size_t n, uint64_t seed, size_t rp_len, size_t out_len);
uint64_t bench_splitmix64(uint64_t *state);
void *bench_alloc64(size_t bytes);
/* set by main.c for --check / --check-selftest: drivers may allocate smaller working sets */
extern int bench_checking;

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

/* ---- montgomery.c ---------------------------------------------------------------------- */
/* mpn_montmul, mpn_montsqr, bi_mod_pow, bi_mod_pow_ct; their buffers' hooks */
struct bench_mont;
extern const struct bench_driver bench_mont_drivers[4];
void bench_mont_free(struct bench_mont *m);
void bench_mont_fill(struct bench_buf *b, int pattern);

/* ---- p256.c ---------------------------------------------------------------------------- */
/* p256_mul_mont, p256_sqr_mont (independent and chained calls, beside OpenSSL's BN_mod_mul_montgomery); hooks */
struct bench_p256;
extern const struct bench_driver bench_p256_drivers[4];
/* p256_mont_mult(_chain), p256_mont_square(_chain), p256_mont_mult_x8 (5 x 52-bit limbs) */
extern const struct bench_driver bench_p256m_drivers[5];
void bench_p256_free(struct bench_p256 *q);
void bench_p256_fill(struct bench_buf *b, int pattern);

/* ---- ecdh.c ---------------------------------------------------------------------------- */
/* p256_ecdh: lf_p256_ecdh beside OpenSSL's EVP_PKEY_derive (KeyAgreementBench); hooks */
struct bench_ecdh;
extern const struct bench_driver bench_ecdh_driver;
void bench_ecdh_free(struct bench_ecdh *e);
void bench_ecdh_fill(struct bench_buf *b, int pattern);

/* ---- fe.c ------------------------------------------------------------------------------ */
/* fe_<field>_<op> and fe_<field>_<op>_chain for every line of tests/fe_kernels.h; hooks */
struct bench_fe;
#define BENCH_FE_DECL(field, limbs, op)                                                     \
	extern const struct bench_driver bench_fe_##field##_##op, bench_fe_##field##_##op##_chain;
LF_TEST_FE_KERNELS(BENCH_FE_DECL)
#undef BENCH_FE_DECL
void bench_fe_fill(struct bench_buf *b, int pattern);
/* fe_c25519_r51_mul_x4: four products a call (size 4, cyc/product), beside ref and beside
 * four calls of the dispatched scalar fe_c25519_r51_mul */
extern const struct bench_driver bench_fe_x4_driver;

/* ---- xdh.c ----------------------------------------------------------------------------- */
/* x25519, x448: lf_x25519 / lf_x448 beside OpenSSL's EVP_PKEY_derive and libsodium's
 * crypto_scalarmult (X25519); hooks */
struct bench_xdh;
extern const struct bench_driver bench_x25519_driver, bench_x448_driver;
/* x25519_ladder, x448_ladder: the same calls with the ladder kernel's variant forced */
extern const struct bench_driver bench_x25519_ladder_driver, bench_x448_ladder_driver;
void bench_xdh_free(struct bench_xdh *x);
void bench_xdh_fill(struct bench_buf *b, int pattern);

/* ---- poly1305.c ------------------------------------------------------------------------- */
/* The Poly1305 drivers (poly1305_blocks: Poly1305DigestBench.digestBytes; poly1305_update:
 * updateBytes), their buffers' hooks (called by kernels.c's bench_buf_* for b->poly). */
extern const size_t bench_poly1305_sizes[], bench_poly1305_update_sizes[];
struct bench_buf *bench_poly1305_alloc(size_t n, uint64_t seed);
struct bench_buf *bench_poly1305_update_alloc(size_t n, uint64_t seed);
void bench_poly1305_reset(struct bench_buf *b);
uint64_t bench_poly1305_digest_batch(struct bench_buf *b, lf_fnptr fn, size_t reps);
uint64_t bench_poly1305_update_batch(struct bench_buf *b, lf_fnptr fn, size_t reps);
uint64_t bench_poly1305_check_batch(struct bench_buf *b, lf_fnptr fn, size_t reps);
void bench_poly1305_update_finish(struct bench_buf *b);
const char *bench_poly1305_verify(const struct bench_buf *b);
/* peers, defined only where the library is built in: BENCH_HAVE_OPENSSL (libcrypto's
 * EVP_MAC "POLY1305") and BENCH_HAVE_SODIUM (crypto_onetimeauth_poly1305), set by bench.mk
 * when $(CC) can compile and link them (not for the arm64 cross build on Debian 12) */
uint64_t bench_openssl_digest_batch(struct bench_buf *b, lf_fnptr fn, size_t reps);
uint64_t bench_openssl_update_batch(struct bench_buf *b, lf_fnptr fn, size_t reps);
uint64_t bench_sodium_digest_batch(struct bench_buf *b, lf_fnptr fn, size_t reps);
uint64_t bench_sodium_update_batch(struct bench_buf *b, lf_fnptr fn, size_t reps);
void bench_poly1305_fill(struct bench_buf *b, int pattern);
int bench_poly1305_guard_ok(const struct bench_buf *b);
void bench_poly1305_free(struct bench_poly *p);
/* OpenSSL's field multiplications (bench/ossl_field.c), linked out of libcrypto.a */
#ifdef BENCH_HAVE_OSSL_FIELD
void ecp_nistz256_mul_mont(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
void ecp_nistz256_sqr_mont(uint64_t r[4], const uint64_t a[4]);
void x25519_fe51_mul(uint64_t h[5], const uint64_t f[5], const uint64_t g[5]);
void x25519_fe51_sqr(uint64_t h[5], const uint64_t f[5]);
#endif
/* "OpenSSL 3.0.22 25 Aug 2026", "libsodium 1.0.18"; NULL when not built in */
const char *bench_openssl_version(void);
const char *bench_sodium_version(void);

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
	 * ratios of batches timed next to each other -- robust to load changing over time;
	 * ratio_peer[i] against the driver's peers[i] (GMP; OpenSSL, libsodium) */
	double ratio_peer[BENCH_MAX_PEERS], ratio_ref;
	struct bench_stats paired_peer[BENCH_MAX_PEERS], paired_ref;
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
