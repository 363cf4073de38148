/*
 * harness.h -- shared pieces of the limbforge Check suite.
 *
 * Faults this layer exists to expose (each test file states its own):
 *   - a variant tested against an oracle that shares its bugs: oracles here are GMP (mpn for
 *     64-bit limbs, mpz for BE-words and Poly1305), OpenSSL and libsodium (Poly1305, where
 *     the build has them) and Python integers (tests/kat/gen_vectors.py, gen_poly1305.py),
 *     never a limbforge kernel, not even `ref`;
 *   - reads or writes outside the operands: every buffer sits in its own mapping between two
 *     PROT_NONE pages, the bytes around the data are canaries, inputs are checked unchanged;
 *   - a variant silently left untested: variants are enumerated from lf_kernel_table at run
 *     time, each test records what it ran in a coverage table shared across Check's forks,
 *     and check_main fails when a runnable variant missed a test kind.
 */
#ifndef LF_TEST_HARNESS_H
#define LF_TEST_HARNESS_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_kernels.h"

/* ---- deterministic random numbers (splitmix64); LF_TEST_SEED=<n> overrides the seed ------ */
typedef struct {
	uint64_t s;
} rng_t;

static inline uint64_t rng_next(rng_t *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}
uint64_t test_seed(void);
/* A generator for one test: the run's seed mixed with a tag naming the test. */
void rng_init(rng_t *r, const char *tag, uint64_t extra);

/* ---- variants under test and coverage ----------------------------------------------------- */
enum cov_kind {
	COV_KAT,      /* known answers (Python vectors, hand-checked values) */
	COV_LATTICE,  /* edge-limb lattice and whole-value patterns, differential vs GMP */
	COV_CARRY,    /* carries solved to 0/1/2/max at every position */
	COV_LENGTH,   /* length sweep 0..130, 256, 513, 8k-1/8k/8k+1 */
	COV_GUARD,    /* operands ending at / starting after a PROT_NONE page */
	COV_ALIGN,    /* operands at every 8-byte (limbs) / 4-byte (words) offset mod 64 */
	COV_INPLACE,  /* rp == ap, in == window */
	COV_ZERO,     /* length 0: returns 0, touches nothing, NULL allowed */
	COV_API,      /* through the public lf_* entry point with lf_impl_force */
	COV_ABI,      /* through the callee-saved/stack/upper-state trampoline */
	COV_NKINDS
};
extern const char *const cov_kind_name[COV_NKINDS];

/* One variant of one kernel, as found in lf_kernel_table. */
struct tvar {
	enum lf_kernel_id kid;
	size_t vidx;                  /* index in lf_kernel_table[kid].variants */
	const struct lf_kernel *k;
	const struct lf_variant *v;
	char label[64];               /* "mpn_addmul_1/adx" */
};

/* Call once before building the suites: enumerates the table against lf_cpu_features(). */
void tv_init(void);
/* Variants of `kid` that can run here (features present and allowed), table order. */
size_t tv_runnable_count(enum lf_kernel_id kid);
const struct tvar *tv_runnable(enum lf_kernel_id kid, size_t i);
/* Print the plan: per kernel, each variant TEST or SKIP with the reason. */
void tv_print_plan(FILE *f);
/* Does this suite have tests for the kernel?  (Kernels added to the table later are reported.) */
int tv_kernel_known(enum lf_kernel_id kid);
/* Kinds expected for a kernel (in-place only where the API allows it). */
int cov_required(enum lf_kernel_id kid, enum cov_kind kind);

void cov_add(const struct tvar *t, enum cov_kind kind, unsigned long calls);
/* Print what each variant covered; with enforce, return the number of gaps. */
int cov_report(FILE *f, int enforce);

/* The build a correct dispatcher runs for kernel `k` under `allowed` and schedule `sched`,
 * rebuilt from the entries' names rather than taken from the dispatcher: under generic the
 * entries of schedule "<arch>/generic" in table order, then ref; under a CPU schedule S the
 * variants in the preference order[S] states, each as its "<variant>@S" build where there
 * is one, else the generic build.  Fails the test if order[S] lists anything else. */
size_t tv_expected_choice(const struct lf_kernel *k, uint64_t allowed, size_t sched);
/* The same preference as indices (best first, ref last); returns the count. */
size_t tv_expected_order(const struct lf_kernel *k, size_t sched, size_t *idx, size_t cap);

/* Names of the LF_CPU_* bits in `bits` ("adx bmi2"), into buf. */
const char *feature_names(uint64_t bits, char *buf, size_t len);

/* ---- guarded buffers ---------------------------------------------------------------------
 * Each buffer gets its own mapping: PROT_NONE page, read-write pages, PROT_NONE page.  All
 * read-write bytes outside [p, p+len) hold a position-dependent canary pattern. */
enum gb_place {
	GB_MID,    /* canaries on both sides: p = first rw byte + 64 + shift */
	GB_START,  /* p = first rw byte + shift: shift 0 starts right after a guard page */
	GB_END,    /* p + len = last rw byte + 1 - shift: shift 0 ends right at a guard page */
};
struct gbuf {
	unsigned char *map, *lo, *hi;  /* mapping, read-write [lo, hi) */
	size_t map_len;
	unsigned char *p;
	size_t len;
};
void *gb_alloc(struct gbuf *g, size_t len, enum gb_place place, size_t shift);
void gb_free(struct gbuf *g);
/* Offset (from p; negative before) of the first damaged canary byte, or 0 with *ok = 1. */
long gb_canary_check(const struct gbuf *g, int *ok);
/* A pointer into a PROT_NONE page: any access faults ("touches nothing" tests). */
void *gb_noaccess(void);
const char *gb_place_name(enum gb_place p);

#define ASSERT_CANARIES(g, label, name, what)                                               \
	do {                                                                                \
		int ok_;                                                                    \
		long off_ = gb_canary_check((g), &ok_);                                     \
		ck_assert_msg(ok_, "%s %s: canary around `%s` damaged at byte offset %ld "  \
		              "from its start", (label), (what), (name), off_);            \
	} while (0)

/* ---- oracles (GMP only) ------------------------------------------------------------------ */
uint64_t or_mul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);
uint64_t or_addmul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);
void or_sqr(uint64_t *rp, const uint64_t *ap, size_t n);
/* Same contract as lf_bi_mul_add (window at the end of out, in may equal the window). */
uint32_t or_mul_add(uint32_t *out, size_t out_len, const uint32_t *in, size_t offset, size_t len,
                    uint32_t k);
void or_square_to_len(const uint32_t *x, size_t len, uint32_t *z);
/* {rp, an+bn} = {ap,an} * {bp,bn} in either order (GMP mpn_mul after ordering the operands);
 * a length of 0 gives an+bn zero limbs (lf_mpn_mul's contract). */
void or_mul(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn);
/* z[0..xlen+ylen) = x * y on BE-words (mpz); a length of 0 gives zeros. */
void or_multiply_to_len(const uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen,
                        uint32_t *z);
/* -n0^-1 mod 2^64 (mpz_invert; n0 odd). */
uint64_t or_neg_inv64(uint64_t n0);
/* What the Montgomery oracle found out about one case, from an mpz simulation of the
 * textbook CIOS loop on values (t = (t + a b_i + m N) / 2^64, m = t n0inv mod 2^64) --
 * used to show that a test really reaches the state it claims, never as the expected value:
 *   reduced     a < N and b < N (the result must then equal the fully reduced value)
 *   subtract    the unreduced CIOS value U = (a b + M N) / R is >= N, so the final
 *               subtraction has to happen (U is also computed directly and compared)
 *   top1        iterations after which the accumulator's top word t >> 64n is 1
 *   carry2      iterations whose row of a carries out past the top word: (t + a b_i) >> 64n
 *               >= 2^64 (the two-word carry, the adx variant's `top2`)
 *   on_n        U == N exactly (the result must be 0, not N: the "almost Montgomery" bug)
 *   hi[i]       (t + a b_i) >> 64n at iteration i, saturated at 2^64 - 1 (only when the
 *               caller passes an array of n entries) */
struct or_mont_info {
	int reduced, subtract, on_n;
	size_t top1, carry2;
	uint64_t *hi;
};
/* {rp,n} = a b R^-1 mod N, R = 2^(64 n), fully reduced (< N) whatever a, b < R are
 * (mpz_invert of R mod N, nothing CIOS-shaped); N odd.  info may be NULL. */
void or_montmul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp, const uint64_t *np,
                size_t n, struct or_mont_info *info);
/* BigInteger.implMontgomeryMultiply on BE-words: product = a b 2^(-32 len) mod n, fully
 * reduced, len words (mpz; n odd). */
void or_bi_montmul(uint32_t *product, const uint32_t *a, const uint32_t *b, const uint32_t *n,
                   size_t len);
/* The carry solver for Montgomery rows: choose the limbs of b, lowest first, so that the
 * carry word of iteration i of the CIOS loop on values (see or_mont_info), (t + a b_i) >> 64n,
 * equals target[i] (0, 1, 2, ...; CT_MAX: b_i = 2^64-1, the largest carry a allows).
 * A target that cannot be met (0 when t >= R already; a too small for the target) takes
 * the nearest b_i.  Returns how many positions hit their target, recomputed independently
 * of the solver by or_montmul's trace. */
size_t or_mont_solve_b(uint64_t *bp, const uint64_t *ap, const uint64_t *np, size_t n,
                       const uint64_t *target);
/* P-256 (p = 2^256 - 2^224 + 2^192 + 2^96 - 1, 4 limbs LE), mpz:
 *   reduced   a < p and b < p (the result must then be exactly the fully reduced value)
 *   subtract  the unreduced Montgomery value (a b + M p) / 2^256, M = -a b p^-1 mod 2^256,
 *             is >= p: the kernel's final subtraction has to happen */
struct or_p256_info {
	int reduced, subtract;
};
void or_p256_prime(uint64_t p[4]);
/* r = a b 2^-256 mod p, fully reduced whatever a, b < 2^256 are; info may be NULL */
void or_p256_mont(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                  struct or_p256_info *info);
void or_p256_mod(uint64_t r[4], const uint64_t a[4]);
/* 2^(256 e) mod p (e = 1: R mod p, e = 2: R^2 mod p) */
void or_p256_rpow(uint64_t r[4], unsigned e);
/* {rp,n} = {ap,n} mod N (mpz), for building operands below N. */
void or_mod(uint64_t *rp, const uint64_t *ap, const uint64_t *np, size_t n);
/* result[0..mod_len) = base^exp mod mod on BE-words (mpz_powm); mod odd and non-zero. */
void or_mod_pow(uint32_t *result, const uint32_t *base, size_t base_len, const uint32_t *exp,
                size_t exp_len, const uint32_t *mod, size_t mod_len);
/* {a,n} compared with {b,n}: -1, 0, 1 (mpn_cmp). */
int or_cmp(const uint64_t *a, const uint64_t *b, size_t n);

/* ---- Poly1305 oracles (tests/harness/oracle_poly1305.c): OpenSSL and libsodium where the
 * build has them, GMP everywhere; never limbforge code ------------------------------------ */
#define OR_P1305_OPENSSL 1u
#define OR_P1305_SODIUM 2u
#define OR_P1305_GMP 4u
/* The tag by every oracle built in (GMP too when with_gmp, or when it is the only one); a
 * disagreement between oracles fails the test.  Returns the OR_P1305_* bits used. */
unsigned or_p1305(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32],
                  int with_gmp);
void or_p1305_gmp(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32]);
void or_p1305_openssl(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32]);
void or_p1305_sodium(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32]);
int or_p1305_have_openssl(void);
int or_p1305_have_sodium(void);
const char *or_p1305_names(void);
/* The block function on values: out = ((h + block + pad 2^128) r ...) mod 2^130-5 over the
 * nblocks blocks of m, canonical (< p) in three words; h any value < 2^192. */
void or_p1305_blocks(uint64_t out[3], const uint64_t h[3], const uint64_t r[2],
                     const uint8_t *m, size_t nblocks, uint64_t pad);
/* out = (sum w[i] 2^(64 i)) mod 2^130-5, canonical */
void or_p1305_mod_p(uint64_t out[3], const uint64_t *w, size_t nw);
/* out = (sum (uint64_t)l[i] 2^(26 i)) mod 2^130-5, canonical */
void or_p1305_limbs26_mod_p(uint64_t out[3], const int64_t l[5]);
/* x = y r^-1 - z mod 2^130-5 (canonical); 0 if r has no inverse (r = 0) */
int or_p1305_solve(uint64_t x[3], const uint64_t y[3], const uint64_t r[2], const uint64_t z[3]);

/* The Poly1305 cases of the api suite (tests/test_poly1305.c): public entry points with the
 * variant of `t` in use, checked against the oracles; counted as `kind`. */
void p1305_api_cases(const struct tvar *t, enum cov_kind kind, const char *what);

/* ---- operand patterns --------------------------------------------------------------------- */
#define N_EDGE64 10
#define N_EDGE32 10
/* {0, 1, 2, 2^31, 2^32-1, 2^32, 2^63, 2^64-2, 2^64-1, random} */
uint64_t edge64(unsigned i, rng_t *r);
/* {0, 1, 2, 2^31-1, 2^31, 2^32-2, 2^32-1, 0x10000, 0xffff, random} */
uint32_t edge32(unsigned i, rng_t *r);

enum pattern {
	PAT_RANDOM, PAT_LATTICE, PAT_ONES, PAT_TOP_ONES, PAT_TOPBIT, PAT_7F, PAT_BYTES,
	PAT_SPARSE, PAT_ALT, PAT_ZERO, PAT_ONE, PAT_MAXHOLE, N_PAT
};
const char *pat_name(enum pattern p);
/* Little-endian limbs; "top" is a[n-1]. */
void fill64(uint64_t *a, size_t n, enum pattern p, rng_t *r);
/* BE-words; "top" is a[0].  The lattice mixes 32-bit edge words and split 64-bit edges. */
void fill32be(uint32_t *a, size_t n, enum pattern p, rng_t *r);

/* Carry targets.  CT_MAX = the largest carry reachable at that position. */
#define CT_MAX UINT64_MAX
/* Choose a[i] so that the carry out of limb i of {r,n} + {a,n}*b (r NULL: {a,n}*b) equals
 * target[i] where reachable (else the nearest reachable value); a 0 target that cannot be
 * met because r[i] + carry overflows is met by lowering r[i].  Returns how many positions
 * hit their target, recomputed independently of the solver. */
size_t solve_carries64(uint64_t *a, uint64_t *r, size_t n, uint64_t b, const uint64_t *target);
/* The same for BE-words: in[len-1-i], window w[len-1-i]; target[i] for significance i. */
size_t solve_carries32(uint32_t *in, uint32_t *w, size_t len, uint32_t k, const uint64_t *target);

/* ---- execution against the oracle (tests/harness/exec.c) ---------------------------------
 * Each builds guarded buffers with the given placement, computes the expected result with
 * the oracle (or takes it from `exp_*` when not NULL: known answers), calls `fn`, and checks
 * the result, the return value, the canaries around every buffer and that inputs are
 * unchanged.  `what` names the case in failure messages.  One coverage count per call. */
struct exec_ctx {
	const struct tvar *t;    /* variant the call counts for */
	lf_fnptr fn;             /* what to call: the variant itself or a public lf_* function */
	enum cov_kind kind;
	enum gb_place place;
	size_t shift;            /* bytes, see enum gb_place */
	const char *what;
};
/* addmul: 0 -> mul_1.  inplace: rp == ap (r0 ignored; for addmul the sum is {a} + {a}*b). */
void exec_mul1(const struct exec_ctx *c, int addmul, const uint64_t *a, const uint64_t *r0,
               size_t n, uint64_t b, int inplace, const uint64_t *exp_r, const uint64_t *exp_ret);
void exec_sqr(const struct exec_ctx *c, const uint64_t *a, size_t n, const uint64_t *exp_r);
/* inplace: in = the window of out (in ignored). */
void exec_mul_add(const struct exec_ctx *c, const uint32_t *out0, size_t out_len,
                  const uint32_t *in, size_t offset, size_t len, uint32_t k, int inplace,
                  const uint32_t *exp_out, const uint32_t *exp_ret);
void exec_square_to_len(const struct exec_ctx *c, const uint32_t *x, size_t len,
                        const uint32_t *exp_z);
/* mpn_mul (an >= bn >= 1 for the kernel; the public lf_mpn_mul takes any) and
 * bi_multiply_to_len: same = the second operand is the first one's buffer (needs equal
 * lengths; b / y ignored).  The output starts as garbage. */
void exec_mul(const struct exec_ctx *c, const uint64_t *a, size_t an, const uint64_t *b,
              size_t bn, int same, const uint64_t *exp_r);
void exec_multiply_to_len(const struct exec_ctx *c, const uint32_t *x, size_t xlen,
                          const uint32_t *y, size_t ylen, int same, const uint32_t *exp_z);
/* mpn_montmul with n0inv = -N^-1 mod 2^64 from or_neg_inv64: a, b < N must give exactly the
 * oracle's fully reduced value; an operand in [N, R) a value below R congruent to it mod N.
 * same: bp = ap (b ignored).  Fills *info (may be NULL) from the oracle. */
void exec_montmul(const struct exec_ctx *c, const uint64_t *a, const uint64_t *b,
                  const uint64_t *np, size_t n, int same, const uint64_t *exp_r,
                  struct or_mont_info *info);

/* p256_mul_mont (sqr 0) or p256_sqr_mont (sqr 1; b ignored, the square of a): a, b < p must
 * give exactly the oracle's fully reduced value; an operand in [p, 2^256) a value below 2^256
 * congruent to it.  alias: where r points (P256_SEP: its own buffer; P256_RA: r == a;
 * P256_RB: r == b; P256_AB: a == b, r separate; P256_ALL: r == a == b).  Fills *info (may be
 * NULL) from the oracle. */
enum p256_alias { P256_SEP, P256_RA, P256_RB, P256_AB, P256_ALL, P256_NALIAS };
extern const char *const p256_alias_name[P256_NALIAS];
void exec_p256(const struct exec_ctx *c, int sqr, const uint64_t a[4], const uint64_t b[4],
               enum p256_alias alias, const uint64_t *exp_r, struct or_p256_info *info);
/* MontgomeryIntegerPolynomialP256 (tests/harness/p256m.c): 5 limbs of 52 bits (int64_t),
 * R = 2^260, mpz oracle.  or_p256m_value: hex (mod p), or which = 0: 2^256 mod p, 1: oneMont
 * = 2^260 mod p, 2: h = 2^520 mod p, 3 + k: p - 1 - k.  or_p256m_mod: raw 64-bit words cut to
 * 52 bits, then mod p.  or_p256m_mont: r = a b 2^-260 mod p (limbs must be < 2^52; any value
 * below 2^260); *subtract (may be NULL): the unreduced Montgomery value is >= p. */
void or_p256m_value(int64_t x[5], const char *hex_or_null, int which);
void or_p256m_mod(int64_t r[5], const uint64_t raw[5]);
int or_p256m_below_p(const int64_t x[5]);
void or_p256m_mont(int64_t r[5], const int64_t a[5], const int64_t b[5], int *subtract);
/* p256_mont_mult (sqr 0) / p256_mont_square (sqr 1, b ignored) on one element, or
 * p256_mont_mult_x8 on eight (40 limbs, element k at [5k, 5k+5)): the result limb for limb
 * against the oracle (every limb < 2^52, value < p), aliasing as enum p256_alias, guarded
 * buffers and canaries as exec_p256.  *subtract: some element needed the final subtraction. */
extern const char *const p256m_alias_name[P256_NALIAS];
void exec_p256m(const struct exec_ctx *c, int sqr, const int64_t a[5], const int64_t b[5],
                enum p256_alias alias, const int64_t *exp_r, int *subtract);
void exec_p256m_x8(const struct exec_ctx *c, const int64_t a[40], const int64_t b[40],
                   enum p256_alias alias, const int64_t *exp_r, int *subtract);
/* ---- EC field products fe_<field>_mul / fe_<field>_square (tests/harness/fe.c) ----------
 * The kernels are the lines of tests/fe_kernels.h; p, the radix and the bounds each kernel
 * states (M: the limbs mul and square accept; out: the limbs each returns) come from
 * tests/kat/gen_fe.py.  An element is int64_t[limbs] of value sum l_i 2^(bits i), not
 * reduced; results are congruent to a b mod p with every limb within `out`, not unique, so
 * they are compared with the oracle mod p (GMP; the Python vectors for known answers). */
struct kat_fe;
struct kat_fe_field;
struct fe_kernel {
	enum lf_kernel_id kid;
	const char *name;              /* "fe_c25519_r51_mul" */
	const char *field;             /* "c25519_r51" */
	size_t limbs;
	int sqr;                       /* square (r, a) rather than mul (r, a, b) */
	lf_fnptr api, ref;             /* lf_fe_<field>_<op>, lf_fe_<field>_<op>_ref */
	const struct kat_fe_field *f;  /* p, radix, bounds and vectors of the field */
	const int64_t (*M)[2], (*out)[2];  /* per limb [lo, hi] */
	unsigned bits, power;
};
size_t fe_count(void);
const struct fe_kernel *fe_at(size_t i);
/* The field product with this id, or NULL (not one of tests/fe_kernels.h). */
const struct fe_kernel *fe_kernel(enum lf_kernel_id kid);
/* The field's Python vectors (count in *n) and the limbs their offsets index. */
const struct kat_fe *fe_kat(const struct fe_kernel *fk, size_t *n, const int64_t **limbs);

/* Operands: edge elements as canonical digits (value < 2^power) or limbs within M. */
enum fe_elem {
	FE_ZERO, FE_ONE, FE_TWO, FE_PM1, FE_PM2, FE_P, FE_PP1, FE_POW_M1, FE_ABOVE_P, FE_HALF,
	FE_TOPBIT, FE_MTOP, FE_MTOP_M1, FE_MALT, FE_MTOP_HI, FE_MTOP_LO, FE_RAND_P, FE_RAND_M,
	FE_NELEM
};
const char *fe_elem_name(enum fe_elem e);
void fe_elem(const struct fe_kernel *fk, int64_t *x, enum fe_elem e, rng_t *r);
/* the pattern's 64-bit words cut to digits (the top one to power - bits (limbs - 1) bits):
 * a value below 2^power, within M */
void fe_pattern(const struct fe_kernel *fk, int64_t *x, enum pattern p, rng_t *r);
/* The first limb of x outside bound b (n: none). */
size_t fe_outside(const int64_t *x, const int64_t (*b)[2], size_t n);
/* r = x mod p in canonical digits, x any limbs (mpz). */
void or_fe_canon(const struct fe_kernel *fk, int64_t *r, const int64_t *x);
/* r = a b mod p (square: a^2; b ignored) in canonical digits (mpz); a, b must be within M. */
void or_fe_mul(const struct fe_kernel *fk, int64_t *r, const int64_t *a, const int64_t *b);
/* b = t a^-1 mod p in canonical digits, so that a b = t mod p; 0 if a = 0 mod p. */
int or_fe_solve(const struct fe_kernel *fk, int64_t *b, const int64_t *a, const int64_t *t);
/* Asserts that r (a result of fk) has every limb within out and is congruent to a b mod p
 * (square: a^2); label/what name the call. */
void fe_assert_result(const struct fe_kernel *fk, const char *label, const char *what,
                      const int64_t *r, const int64_t *a, const int64_t *b);
/* One call of fk (or c->fn, same prototype) in guarded buffers, aliasing as enum p256_alias
 * (square: r == a or separate): the result limb by limb within out, congruent to a b mod p
 * (exp_r, canonical digits, when given: the Python answer), canaries, inputs unchanged, r
 * fully written (it starts as garbage). */
void exec_fe(const struct exec_ctx *c, const struct fe_kernel *fk, const int64_t *a,
             const int64_t *b, enum p256_alias alias, const int64_t *exp_r);

/* ---- the ladder kernels x25519_ladder / x448_ladder and fe_c25519_r51_mul_x4 -------------
 * (tests/harness/xdh.c).  Oracle: RFC 7748's ladder on mpz (x1, x2, z2, x3, z3 as integers
 * mod p, the swap an if), p from its hex digits (tests/kat/gen_xdh.py).  A ladder result
 * (x2 : z2) is projective: it is checked limb by limb in [0, 2^52) (the contract), as
 * x2 Z == X z2 mod p with (x2 == 0) == (X == 0) and (z2 == 0) == (Z == 0) mod p against the
 * oracle's (X : Z), and x2 / z2 (0 when z2 = 0) against the affine answer. */
struct kat_lad;
struct kat_lad_curve;
struct kat_x4;
struct xdh_ladder {
	enum lf_kernel_id kid;
	const char *name;              /* "x25519_ladder" */
	const char *curve;             /* "x25519" */
	size_t limbs;                  /* of one coordinate; xz holds 2 limbs */
	unsigned radix, bits, nbytes;
	int (*api)(uint8_t *out, const uint8_t *k, const uint8_t *u);   /* lf_x25519 */
	void (*decode)(int64_t *r, const uint8_t *in);  /* the kernel's field decode */
	lf_fnptr ref;
	const struct kat_lad_curve *c;
};
size_t xdh_count(void);
const struct xdh_ladder *xdh_at(size_t i);
/* the ladder kernel with this id, or NULL */
const struct xdh_ladder *xdh_ladder(enum lf_kernel_id kid);
const struct kat_lad *xdh_kat(const struct xdh_ladder *L, size_t *n, const int64_t **limbs,
                              const uint8_t **bytes);
/* X25519 / X448 clamping of k in place */
void xdh_clamp(const struct xdh_ladder *L, uint8_t *k);
/* edge inputs: u (limbs within [0, 2^radix]) and clamped scalars */
enum xdh_u {
	XU_ZERO, XU_ONE, XU_TWO, XU_BASE, XU_PM1, XU_P, XU_PP1, XU_ALL1, XU_ABOVE_P, XU_TOP,
	XU_TOP_ALT, XU_TOP_HI, XU_TOP_LO, XU_RAND_TOP, XU_RAND_P, XU_NU
};
const char *xdh_u_name(enum xdh_u e);
void xdh_u(const struct xdh_ladder *L, int64_t *u, enum xdh_u e, rng_t *r);
enum xdh_k { XK_ZEROS, XK_ONES, XK_55, XK_AA, XK_LOW, XK_RAND, XK_NK };
const char *xdh_k_name(enum xdh_k e);
void xdh_k(const struct xdh_ladder *L, uint8_t *k, enum xdh_k e, rng_t *r);
/* (X : Z) and X / Z of RFC 7748's ladder (canonical digits), k: nbytes, u: limbs */
void or_xdh_ladder(const struct xdh_ladder *L, int64_t *X, int64_t *Z, int64_t *A,
                   const uint8_t *k, const int64_t *u);
/* x / z mod p (0 when z = 0 mod p), canonical digits, from any limbs */
void or_xdh_affine(const struct xdh_ladder *L, int64_t *a, const int64_t *x, const int64_t *z);
/* out = X25519 / X448 on bytes (decodeScalar, decodeUCoordinate, ladder, encode) */
void or_xdh_bytes(const struct xdh_ladder *L, uint8_t *out, const uint8_t *k, const uint8_t *u);
/* xz (x2 then z2) against the oracle's (X : Z) and affine A (canonical digits) */
void xdh_assert_result(const struct xdh_ladder *L, const char *label, const char *what,
                       const int64_t *xz, const int64_t *X, const int64_t *Z,
                       const int64_t *A);
/* One ladder call of c->fn in guarded buffers (k, u, xz: c->place and c->shift; tmp: the
 * same place, 32-byte aligned), xz starting as garbage: the result against the oracle (or
 * exp_*: the Python answer), canaries around all four, k and u unchanged. */
void exec_ladder(const struct exec_ctx *c, const struct xdh_ladder *L, const uint8_t *k,
                 const int64_t *u, const int64_t *exp_x, const int64_t *exp_z,
                 const int64_t *exp_a);
/* lf_x25519 / lf_x448 with whatever ladder variant is forced: RFC 7748 5.2, the edge
 * u-coordinates as bytes (>= p, bit 255 set, small order: LF_XDH_EZERO), random, against
 * or_xdh_bytes; each call counted for t as `kind` */
void xdh_api_cases(const struct tvar *t, enum cov_kind kind, const char *what);

/* fe_c25519_r51_mul_x4: four products, limb-major [4 i + l]; inputs limbs in [0, 2^52) */
#define X4_LIMBS 20
extern const int64_t (*const x4_out)[2];   /* the bound its .S header states, per limb */
enum x4_elem {
	X4_ZERO, X4_ONE, X4_PM1, X4_P, X4_POW_M1, X4_TOP, X4_TOP51, X4_ALT, X4_TOP_HI, X4_TOP_LO,
	X4_RAND_P, X4_RAND, X4_NELEM
};
const char *x4_elem_name(enum x4_elem e);
void x4_elem(int64_t *x, enum x4_elem e, rng_t *r);     /* one element, 5 limbs */
void x4_put(int64_t *v, int lane, const int64_t *x);      /* element into lane */
void x4_get(int64_t *x, const int64_t *v, int lane);
size_t x4_kat(const struct kat_x4 **v, const int64_t **limbs);
/* r = a_l b_l mod p per lane, canonical digits (mpz) */
void or_x4(int64_t *r, const int64_t *a, const int64_t *b);
void x4_assert_result(const char *label, const char *what, const int64_t *r,
                      const int64_t *a, const int64_t *b);
/* one call of c->fn in guarded buffers, aliasing as enum p256_alias; r starts as garbage */
void exec_x4(const struct exec_ctx *c, const int64_t *a, const int64_t *b,
             enum p256_alias alias, const int64_t *exp_r);

/* conditional_assign: a = set ? b : a over n limbs (set 0 or 1); same: b is a's buffer.
 * The expected a is a copy of the chosen input (no kernel involved); b must be unchanged. */
void exec_assign(const struct exec_ctx *c, int set, const int64_t *a, const int64_t *b,
                 size_t n, int same);

/* Fill `n` limbs with a pattern that is neither a plausible answer nor zero (outputs that
 * must be fully overwritten start like this). */
void fill_garbage64(uint64_t *a, size_t n);
void fill_garbage32(uint32_t *a, size_t n);
void *xmalloc(size_t n);

/* ---- crash reports in no-fork mode --------------------------------------------------------
 * With CK_FORK=no (qemu) a fault in a kernel kills the whole run and Check cannot say where;
 * exec_* and the ABI calls record the call in progress and check_main installs a handler that
 * prints it before exiting.  (In fork mode Check reports the signal per test itself.) */
void crash_note(const char *label, const char *what, size_t n);
void crash_handler_install(void);

/* ---- the suites --------------------------------------------------------------------------- */
Suite *suite_kat(void);
Suite *suite_mpn(void);
Suite *suite_mpn_sqr(void);
Suite *suite_bigint(void);
Suite *suite_bigint_sqr(void);
Suite *suite_api(void);
Suite *suite_abi(void);
Suite *suite_dispatch(void);
Suite *suite_mask(void);
Suite *suite_schedule(void);
Suite *suite_poly1305(void);
Suite *suite_mpn_mul(void);
Suite *suite_bigint_mul(void);
Suite *suite_montmul(void);
Suite *suite_modpow(void);
Suite *suite_p256(void);
Suite *suite_ecdh(void);
Suite *suite_p256_mont(void);
Suite *suite_fe(void);
Suite *suite_fields(void);
Suite *suite_ladder(void);
Suite *suite_xdh(void);

/* Timeout (seconds) for test cases with large operands (Check's default is 4 s). */
#define LF_TEST_TIMEOUT 300

#endif /* LF_TEST_HARNESS_H */
