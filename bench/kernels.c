/*
 * kernels.c -- one benchmark driver per kernel of lf_kernel_table: its default sizes, its
 * operands, the batch loop that calls a variant `reps` times, its GMP row and the output check.
 *
 * The variants themselves come from lf_kernel_table (main.c), so new variants are benchmarked
 * without touching this file; a new *kernel* needs a driver here (main.c lists kernels that
 * have none).  The Poly1305 drivers' code is in poly1305.c (their peers are OpenSSL and
 * libsodium); lf_mpn_mul and lf_mpn_sqr time the API (its Karatsuba layer over the kernel
 * forced to each variant); the limb/word drivers' GMP rows:
 *   mpn_mul_1, mpn_addmul_1, mpn_sqr   the same GMP function on the same limbs;
 *   bi_mul_add, bi_square_to_len,       GMP has no big-endian 32-bit-word API: the row is a
 *   bi_multiply_to_len                  *peer* -- GMP mpn_addmul_1 / mpn_sqr / mpn_mul on
 *       ceil(n/2) 64-bit limbs, the same number of bits -- labelled as such and never
 *       compared for output.  bi_multiply_to_len multiplies two n-word operands (in, in2).
 * Operands are 64-byte aligned, pseudo-random (splitmix64), all in L1 for the sizes used.
 * Calls in a batch reuse the buffers (addmul/mul_add accumulate in place, as in a row loop).
 * The outputs (rp, out) sit between BENCH_GUARD_BYTES guard zones that --check inspects;
 * bench_buf_fill gives --check its all-ones / zero-multiplicand operand patterns.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

volatile uint64_t bench_sink;

const char *gmp_version_string(void)
{
	return gmp_version;
}

int bench_checking;

uint64_t bench_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#define GUARD_LIMBS (BENCH_GUARD_BYTES / 8)
#define GUARD_WORDS (BENCH_GUARD_BYTES / 4)
#define GUARD_BYTE 0xa5

void *bench_alloc64(size_t bytes)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, bytes ? (bytes + 63) & ~(size_t)63 : 64) != 0) {
		fprintf(stderr, "limbforge-bench: out of memory\n");
		exit(2);
	}
	return p;
}

struct bench_buf *bench_buf_alloc(size_t n, uint64_t seed, size_t rp_len, size_t out_len)
{
	struct bench_buf *b = calloc(1, sizeof *b);
	if (!b)
		exit(2);
	b->n = n;
	b->nl = (n + 1) / 2;
	b->rp_len = rp_len;
	b->out_len = out_len;
	/* rp and out: guard zones before and after, the output itself stays 64-byte aligned */
	b->rp = (uint64_t *)bench_alloc64(rp_len * 8 + 2 * BENCH_GUARD_BYTES) + GUARD_LIMBS;
	memset(b->rp - GUARD_LIMBS, GUARD_BYTE, rp_len * 8 + 2 * BENCH_GUARD_BYTES);
	b->rp0 = bench_alloc64(rp_len * 8);
	b->ap = bench_alloc64(n * 8);
	b->out = (uint32_t *)bench_alloc64(out_len * 4 + 2 * BENCH_GUARD_BYTES) + GUARD_WORDS;
	memset(b->out - GUARD_WORDS, GUARD_BYTE, out_len * 4 + 2 * BENCH_GUARD_BYTES);
	b->out0 = bench_alloc64(out_len * 4);
	b->in = bench_alloc64(n * 4);
	b->in2 = bench_alloc64(n * 4);
	b->bp = bench_alloc64(n * 8);
	b->prp = bench_alloc64(2 * b->nl * 8);
	b->pap = bench_alloc64(b->nl * 8);
	for (size_t i = 0; i < rp_len; i++)
		b->rp0[i] = bench_splitmix64(&seed);
	for (size_t i = 0; i < n; i++)
		b->ap[i] = bench_splitmix64(&seed);
	for (size_t i = 0; i < out_len; i++)
		b->out0[i] = (uint32_t)bench_splitmix64(&seed);
	for (size_t i = 0; i < n; i++)
		b->in[i] = (uint32_t)bench_splitmix64(&seed);
	for (size_t i = 0; i < n; i++)
		b->in2[i] = (uint32_t)bench_splitmix64(&seed);
	for (size_t i = 0; i < n; i++)
		b->bp[i] = bench_splitmix64(&seed);
	for (size_t i = 0; i < 2 * b->nl; i++)
		b->prp[i] = bench_splitmix64(&seed);
	for (size_t i = 0; i < b->nl; i++)
		b->pap[i] = bench_splitmix64(&seed);
	b->b = bench_splitmix64(&seed);
	b->k = (uint32_t)bench_splitmix64(&seed);
	memcpy(b->rp, b->rp0, rp_len * 8);
	memcpy(b->out, b->out0, out_len * 4);
	return b;
}

void bench_buf_free(struct bench_buf *b)
{
	if (!b)
		return;
	bench_poly1305_free(b->poly);
	bench_mont_free(b->mont);
	bench_p256_free(b->p256);
	bench_ecdh_free(b->ecdh);
	bench_xdh_free(b->xdh);
	free(b->em);
	free(b->rp - GUARD_LIMBS);
	free(b->rp0);
	free(b->ap);
	free(b->out - GUARD_WORDS);
	free(b->out0);
	free(b->in);
	free(b->in2);
	free(b->bp);
	free(b->prp);
	free(b->pap);
	free(b);
}

void bench_buf_reset(struct bench_buf *b)
{
	memcpy(b->rp, b->rp0, b->rp_len * 8);
	memcpy(b->out, b->out0, b->out_len * 4);
}

/* ---- --check support ----------------------------------------------------------------- */

const char *const bench_pattern_names[BP_COUNT] = { "random", "ones", "zeros" };

void bench_buf_fill(struct bench_buf *b, int pattern)
{
	if (b->poly) {
		bench_poly1305_fill(b, pattern);
		return;
	}
	if (b->mont) {
		bench_mont_fill(b, pattern);
		return;
	}
	if (b->p256) {
		bench_p256_fill(b, pattern);
		return;
	}
	if (b->ecdh) {
		bench_ecdh_fill(b, pattern);
		return;
	}
	if (b->fe) {
		bench_fe_fill(b, pattern);
		return;
	}
	if (b->xdh) {
		bench_xdh_fill(b, pattern);
		return;
	}
	if (pattern == BP_ONES || pattern == BP_ZEROS) {
		int mul = pattern == BP_ONES ? 0xff : 0;   /* the multiplicand */
		memset(b->ap, mul, b->n * 8);
		memset(b->in, mul, b->n * 4);
		memset(b->in2, mul, b->n * 4);
		memset(b->bp, 0xff, b->n * 8);
		memset(b->rp0, 0xff, b->rp_len * 8);
		memset(b->out0, 0xff, b->out_len * 4);
		b->b = ~UINT64_C(0);
		b->k = ~UINT32_C(0);
	}
	bench_buf_reset(b);
}

static int guard_clean(const unsigned char *p, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		if (p[i] != GUARD_BYTE)
			return 0;
	return 1;
}

int bench_buf_guard_ok(const struct bench_buf *b)
{
	const unsigned char *rp = (const unsigned char *)b->rp;
	const unsigned char *out = (const unsigned char *)b->out;
	return guard_clean(rp - BENCH_GUARD_BYTES, BENCH_GUARD_BYTES) &&
	       guard_clean(rp + b->rp_len * 8, BENCH_GUARD_BYTES) &&
	       guard_clean(out - BENCH_GUARD_BYTES, BENCH_GUARD_BYTES) &&
	       guard_clean(out + b->out_len * 4, BENCH_GUARD_BYTES) &&
	       (!b->poly || bench_poly1305_guard_ok(b));
}

/* The limb drivers compare rp, the word drivers out; the other buffer has one unused
 * element, so flipping a bit in both corrupts exactly the compared output. */
void bench_buf_corrupt(struct bench_buf *b, int how)
{
	if (how == 1) {                /* into the guard zones */
		b->rp[b->rp_len] ^= 1;
		b->out[b->out_len] ^= 1;
		return;
	}
	if (b->n == 0)
		return;
	b->rp[(b->rp_len - 1) / 2] ^= UINT64_C(1) << (b->n % 64);
	b->out[(b->out_len - 1) / 2] ^= UINT32_C(1) << (b->n % 32);
}

static struct bench_buf *alloc_limbs(size_t n, uint64_t seed)
{
	return bench_buf_alloc(n, seed, n, 1);
}

static struct bench_buf *alloc_limbs_sqr(size_t n, uint64_t seed)
{
	return bench_buf_alloc(n, seed, 2 * n, 1);
}

static struct bench_buf *alloc_words(size_t n, uint64_t seed)
{
	return bench_buf_alloc(n, seed, 1, n);
}

static struct bench_buf *alloc_words_sqr(size_t n, uint64_t seed)
{
	return bench_buf_alloc(n, seed, 1, 2 * n);
}

int bench_same_rp(const struct bench_buf *x, const struct bench_buf *y)
{
	return memcmp(x->rp, y->rp, x->rp_len * 8) == 0;
}

int bench_same_out(const struct bench_buf *x, const struct bench_buf *y)
{
	return memcmp(x->out, y->out, x->out_len * 4) == 0;
}

/* ---- batch loops: the only code between the two timer reads ---------------------------- */

static uint64_t mul_1_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_mpn_mul_1_fn f = (lf_mpn_mul_1_fn)fn;
	uint64_t s = 0, *rp = b->rp, m = b->b;
	const uint64_t *ap = b->ap;
	size_t n = b->n;
	for (size_t i = 0; i < reps; i++)
		s += f(rp, ap, n, m);
	return s;
}

static uint64_t gmp_mul_1_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	uint64_t s = 0;
	mp_limb_t *rp = (mp_limb_t *)b->rp, m = b->b;
	const mp_limb_t *ap = (const mp_limb_t *)b->ap;
	mp_size_t n = (mp_size_t)b->n;
	for (size_t i = 0; i < reps; i++)
		s += mpn_mul_1(rp, ap, n, m);
	return s;
}

static uint64_t addmul_1_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_mpn_addmul_1_fn f = (lf_mpn_addmul_1_fn)fn;
	uint64_t s = 0, *rp = b->rp, m = b->b;
	const uint64_t *ap = b->ap;
	size_t n = b->n;
	for (size_t i = 0; i < reps; i++)
		s += f(rp, ap, n, m);
	return s;
}

static uint64_t gmp_addmul_1_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	uint64_t s = 0;
	mp_limb_t *rp = (mp_limb_t *)b->rp, m = b->b;
	const mp_limb_t *ap = (const mp_limb_t *)b->ap;
	mp_size_t n = (mp_size_t)b->n;
	for (size_t i = 0; i < reps; i++)
		s += mpn_addmul_1(rp, ap, n, m);
	return s;
}

static uint64_t sqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_mpn_sqr_fn f = (lf_mpn_sqr_fn)fn;
	uint64_t *rp = b->rp;
	const uint64_t *ap = b->ap;
	size_t n = b->n;
	for (size_t i = 0; i < reps; i++)
		f(rp, ap, n);
	return rp[0];
}

static uint64_t gmp_sqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	mp_limb_t *rp = (mp_limb_t *)b->rp;
	const mp_limb_t *ap = (const mp_limb_t *)b->ap;
	mp_size_t n = (mp_size_t)b->n;
	for (size_t i = 0; i < reps; i++)
		mpn_sqr(rp, ap, n);
	return rp[0];
}

static uint64_t mul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_mpn_mul_fn f = (lf_mpn_mul_fn)fn;
	for (size_t i = 0; i < reps; i++)
		f(b->rp, b->ap, b->n, b->bp, b->n);
	return b->n ? b->rp[0] : 0;
}

/* the API (Karatsuba over the forced kernel from LF_KARA_MIN / LF_KARA_SQR_MIN limbs) */
static uint64_t api_mul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	for (size_t i = 0; i < reps; i++)
		lf_mpn_mul(b->rp, b->ap, b->n, b->bp, b->n);
	return b->n ? b->rp[0] : 0;
}

static uint64_t api_sqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	for (size_t i = 0; i < reps; i++)
		lf_mpn_sqr(b->rp, b->ap, b->n);
	return b->n ? b->rp[0] : 0;
}

static uint64_t gmp_mul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	for (size_t i = 0; i < reps; i++)
		mpn_mul((mp_limb_t *)b->rp, (const mp_limb_t *)b->ap, (mp_size_t)b->n,
		        (const mp_limb_t *)b->bp, (mp_size_t)b->n);
	return b->n ? b->rp[0] : 0;
}

/* --check's oracle for the API rows: ref and each variant go through the same karatsuba.c,
 * so comparing them cannot see a fault there; GMP's product can */
static const char *gmp_product_differs(const struct bench_buf *b, int square)
{
	if (!b->n)
		return NULL;
	mp_limb_t *want = malloc(2 * b->n * sizeof *want);
	if (!want)
		return NULL;
	if (square)
		mpn_sqr(want, (const mp_limb_t *)b->ap, (mp_size_t)b->n);
	else
		mpn_mul(want, (const mp_limb_t *)b->ap, (mp_size_t)b->n,
		        (const mp_limb_t *)b->bp, (mp_size_t)b->n);
	int differs = memcmp(want, b->rp, 2 * b->n * sizeof *want) != 0;
	free(want);
	return differs ? (square ? "differs from GMP's mpn_sqr" : "differs from GMP's mpn_mul")
	               : NULL;
}

static const char *api_mul_verify(const struct bench_buf *b)
{
	return gmp_product_differs(b, 0);
}

static const char *api_sqr_verify(const struct bench_buf *b)
{
	return gmp_product_differs(b, 1);
}

static uint64_t bi_mul_add_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_bi_mul_add_fn f = (lf_bi_mul_add_fn)fn;
	uint64_t s = 0;
	uint32_t *out = b->out, k = b->k;
	const uint32_t *in = b->in;
	size_t n = b->n, out_len = b->out_len;
	for (size_t i = 0; i < reps; i++)
		s += f(out, out_len, in, 0, n, k);   /* the window is all of out */
	return s;
}

/* peer: GMP mpn_addmul_1 on ceil(n/2) limbs */
static uint64_t gmp_peer_addmul_1_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	uint64_t s = 0;
	mp_limb_t *rp = (mp_limb_t *)b->prp, m = b->b;
	const mp_limb_t *ap = (const mp_limb_t *)b->pap;
	mp_size_t n = (mp_size_t)b->nl;
	for (size_t i = 0; i < reps; i++)
		s += mpn_addmul_1(rp, ap, n, m);
	return s;
}

static uint64_t bi_square_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_bi_square_to_len_fn f = (lf_bi_square_to_len_fn)fn;
	uint32_t *z = b->out;
	const uint32_t *x = b->in;
	size_t n = b->n;
	for (size_t i = 0; i < reps; i++)
		f(x, n, z);
	return z[0];
}

/* the APIs: the word kernel forced to each variant, the limb path (api_bigint.c) where the
 * lengths take it */
static uint64_t api_bi_square_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	for (size_t i = 0; i < reps; i++)
		lf_bi_square_to_len(b->in, b->n, b->out);
	return b->out[0];
}

static uint64_t api_bi_multiply_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	for (size_t i = 0; i < reps; i++)
		lf_bi_multiply_to_len(b->in, b->n, b->in2, b->n, b->out);
	return b->out[0];
}

/* peer: GMP mpn_sqr on ceil(n/2) limbs */
static uint64_t gmp_peer_sqr_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	mp_limb_t *rp = (mp_limb_t *)b->prp;
	const mp_limb_t *ap = (const mp_limb_t *)b->pap;
	mp_size_t n = (mp_size_t)b->nl;
	for (size_t i = 0; i < reps; i++)
		mpn_sqr(rp, ap, n);
	return rp[0];
}

static uint64_t bi_multiply_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_bi_multiply_to_len_fn f = (lf_bi_multiply_to_len_fn)fn;
	uint32_t *z = b->out;
	const uint32_t *x = b->in, *y = b->in2;
	size_t n = b->n;
	for (size_t i = 0; i < reps; i++)
		f(x, n, y, n, z);
	return z[0];
}

/* peer: GMP mpn_mul of ceil(n/2) by ceil(n/2) limbs (pap by the first nl limbs of ap: two
 * different operands, or GMP would square) */
static uint64_t gmp_peer_mul_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	mp_limb_t *rp = (mp_limb_t *)b->prp;
	const mp_limb_t *up = (const mp_limb_t *)b->pap, *vp = (const mp_limb_t *)b->ap;
	mp_size_t n = (mp_size_t)b->nl;
	for (size_t i = 0; i < reps; i++)
		mpn_mul(rp, up, n, vp, n);
	return rp[0];
}

/* conditional_assign: a (rp, n limbs) = set ? b (bp) : a, set alternating 1, 0, 1, ... (the
 * first call copies, so a one-call --check compares a real assignment); b random, a random */
static uint64_t cond_assign_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	lf_conditional_assign_fn f = (lf_conditional_assign_fn)fn;
	for (size_t i = 0; i < reps; i++)
		f((int)(~i & 1), (int64_t *)b->rp, (const int64_t *)b->bp, b->n);
	return b->n ? b->rp[0] : 0;
}

/* ---- the drivers ---------------------------------------------------------------------- */

/* limbs: the sizes plus the acceptance ranges (addmul_1 25..128, sqr 8..64) */
static const size_t mpn_sizes[] = { 1, 2, 3, 5, 8, 10, 16, 25, 32, 50, 64, 100, 127, 128, 256, 0 };
static const size_t bi_sizes[] = { 1, 2, 3, 5, 10, 50, 100, 127, 256, 0 };
/* the BigInteger drivers' GMP peer rows (kernel and API) */
#define BI_SQR_PEER_NOTE \
	"GMP peer: mpn_sqr on ceil(n/2) 64-bit limbs (same bits, LE limbs; GMP has no BE-word API)"
#define BI_MUL_PEER_NOTE \
	"GMP peer: mpn_mul on ceil(n/2) x ceil(n/2) 64-bit limbs (same bits, LE limbs; GMP has " \
	"no BE-word API); x and y both n words"
static const size_t api_bi_sizes[] = { 10, 16, 20, 24, 32, 50, 64, 100, 127, 256, 512, 0 };
static const size_t api_mul_sizes[] = { 32, 40, 48, 64, 100, 128, 256, 512, 1024, 0 };
/* the JDK's field lengths (5: MontgomeryP256, 1305, 25519; 10; 14: P384; 16: 448; 19: P521) */
static const size_t assign_sizes[] = { 5, 10, 14, 16, 19, 32, 0 };

#define GMP_PEER(nm, fn) { .name = nm, .column = "GMP", .key = "gmp", .kind = BK_GMP, .batch = fn }
#define GMP_PEER_ROW(nm, fn) \
	{ .name = nm, .column = "GMP", .key = "gmp", .kind = BK_GMP_PEER, .batch = fn }

static const struct bench_driver kernel_drivers[] = {
	{ .name = "mpn_mul_1", .kernel = "mpn_mul_1", .unit = "limb", .sizes = mpn_sizes,
	  .variant_batch = mul_1_batch, .peers = { GMP_PEER("gmp", gmp_mul_1_batch) },
	  .alloc = alloc_limbs, .reset = bench_buf_reset, .same_output = bench_same_rp },
	{ .name = "mpn_addmul_1", .kernel = "mpn_addmul_1", .unit = "limb", .sizes = mpn_sizes,
	  .variant_batch = addmul_1_batch, .peers = { GMP_PEER("gmp", gmp_addmul_1_batch) },
	  .alloc = alloc_limbs, .reset = bench_buf_reset, .same_output = bench_same_rp },
	{ .name = "mpn_sqr", .kernel = "mpn_sqr", .unit = "limb", .sizes = mpn_sizes,
	  .variant_batch = sqr_batch, .peers = { GMP_PEER("gmp", gmp_sqr_batch) },
	  .alloc = alloc_limbs_sqr, .reset = bench_buf_reset, .same_output = bench_same_rp },
	{ .name = "mpn_mul", .kernel = "mpn_mul", .unit = "limb", .sizes = mpn_sizes,
	  .title = "{rp,2n} = {ap,n} * {bp,n}",
	  .variant_batch = mul_batch, .peers = { GMP_PEER("gmp", gmp_mul_batch) },
	  .alloc = alloc_limbs_sqr, .reset = bench_buf_reset, .same_output = bench_same_rp },
	{ .name = "lf_mpn_mul", .kernel = "mpn_mul", .unit = "limb", .sizes = api_mul_sizes,
	  .title = "lf_mpn_mul: {rp,2n} = {ap,n} * {bp,n} through the API (Karatsuba from "
	           "LF_KARA_MIN limbs, Toom-3 from LF_TOOM3_MIN over non-IFMA kernels, "
	           "karatsuba.c), the kernel forced to each variant",
	  .variant_batch = api_mul_batch, .peers = { GMP_PEER("gmp", gmp_mul_batch) },
	  .alloc = alloc_limbs_sqr, .reset = bench_buf_reset, .same_output = bench_same_rp,
	  .select = bench_force_select, .verify = api_mul_verify },
	{ .name = "lf_mpn_sqr", .kernel = "mpn_sqr", .unit = "limb", .sizes = api_mul_sizes,
	  .title = "lf_mpn_sqr: {rp,2n} = {ap,n}^2 through the API (Karatsuba from "
	           "LF_KARA_SQR_MIN limbs, Toom-3 from LF_TOOM3_SQR_MIN over non-IFMA kernels), "
	           "the kernel forced to each variant",
	  .variant_batch = api_sqr_batch, .peers = { GMP_PEER("gmp", gmp_sqr_batch) },
	  .alloc = alloc_limbs_sqr, .reset = bench_buf_reset, .same_output = bench_same_rp,
	  .select = bench_force_select, .verify = api_sqr_verify },
	{ .name = "bi_mul_add", .kernel = "bi_mul_add", .unit = "word",
	  .peer_note = "GMP peer: mpn_addmul_1 on ceil(n/2) 64-bit limbs (same bits, LE limbs; GMP "
	               "has no BE-word API)",
	  .sizes = bi_sizes, .variant_batch = bi_mul_add_batch,
	  .peers = { GMP_PEER_ROW("gmp~addmul_1", gmp_peer_addmul_1_batch) },
	  .alloc = alloc_words, .reset = bench_buf_reset, .same_output = bench_same_out },
	{ .name = "bi_square_to_len", .kernel = "bi_square_to_len", .unit = "word",
	  .peer_note = BI_SQR_PEER_NOTE,
	  .sizes = bi_sizes, .variant_batch = bi_square_batch,
	  .peers = { GMP_PEER_ROW("gmp~sqr", gmp_peer_sqr_batch) },
	  .alloc = alloc_words_sqr, .reset = bench_buf_reset, .same_output = bench_same_out },
	{ .name = "lf_bi_square_to_len", .kernel = "bi_square_to_len", .unit = "word",
	  .title = "lf_bi_square_to_len through the API: the word kernel forced to each variant, "
	           "lf_mpn_sqr on limb copies from 64 words over an IFMA mpn_sqr (api_bigint.c)",
	  .peer_note = BI_SQR_PEER_NOTE,
	  .sizes = api_bi_sizes, .variant_batch = api_bi_square_batch,
	  .peers = { GMP_PEER_ROW("gmp~sqr", gmp_peer_sqr_batch) },
	  .alloc = alloc_words_sqr, .reset = bench_buf_reset, .same_output = bench_same_out,
	  .select = bench_force_select },
	{ .name = "lf_bi_multiply_to_len", .kernel = "bi_multiply_to_len", .unit = "word",
	  .title = "lf_bi_multiply_to_len through the API: the word kernel forced to each variant, "
	           "lf_mpn_mul on limb copies from 32 words over an IFMA mpn_mul (api_bigint.c)",
	  .peer_note = BI_MUL_PEER_NOTE,
	  .sizes = api_bi_sizes, .variant_batch = api_bi_multiply_batch,
	  .peers = { GMP_PEER_ROW("gmp~mul", gmp_peer_mul_batch) },
	  .alloc = alloc_words_sqr, .reset = bench_buf_reset, .same_output = bench_same_out,
	  .select = bench_force_select },
	{ .name = "bi_multiply_to_len", .kernel = "bi_multiply_to_len", .unit = "word",
	  .peer_note = BI_MUL_PEER_NOTE,
	  .sizes = bi_sizes, .variant_batch = bi_multiply_batch,
	  .peers = { GMP_PEER_ROW("gmp~mul", gmp_peer_mul_batch) },
	  .alloc = alloc_words_sqr, .reset = bench_buf_reset, .same_output = bench_same_out },
	/* Poly1305 (poly1305.c): sizes in 16-byte blocks, shown in bytes; every op goes through
	 * the public API with the variant forced by lf_impl_force (select hook) */
	{ .name = "poly1305_blocks", .kernel = "poly1305_blocks", .unit = "block",
	  .unit_bytes = 16, .jmh = "Poly1305DigestBench.digestBytes",
	  .title = "Poly1305DigestBench.digestBytes: lf_poly1305 one-shot = init+update+final "
	           "per op, key = the message's first 32 bytes, messages cycled; peers: OpenSSL "
	           "EVP_MAC init+update+final, libsodium crypto_onetimeauth_poly1305",
	  .sizes = bench_poly1305_sizes, .variant_batch = bench_poly1305_digest_batch,
	  .peers = {
#ifdef BENCH_HAVE_OPENSSL
		{ .name = "openssl", .column = "OpenSSL", .key = "openssl", .kind = BK_PEER,
		  .batch = bench_openssl_digest_batch },
#endif
#ifdef BENCH_HAVE_SODIUM
		{ .name = "sodium", .column = "sodium", .key = "sodium", .kind = BK_PEER,
		  .batch = bench_sodium_digest_batch },
#endif
	  },
	  .alloc = bench_poly1305_alloc, .reset = bench_poly1305_reset,
	  .same_output = bench_same_rp, .select = bench_force_select,
	  .check_batch = bench_poly1305_check_batch, .verify = bench_poly1305_verify },
	{ .name = "poly1305_update", .kernel = "poly1305_blocks", .unit = "block",
	  .unit_bytes = 16, .jmh = "Poly1305DigestBench.updateBytes",
	  .title = "Poly1305DigestBench.updateBytes: lf_poly1305_update only, on a state "
	           "initialised once per contender, messages cycled; peers: EVP_MAC_update, "
	           "crypto_onetimeauth_poly1305_update",
	  .sizes = bench_poly1305_update_sizes, .variant_batch = bench_poly1305_update_batch,
	  .peers = {
#ifdef BENCH_HAVE_OPENSSL
		{ .name = "openssl", .column = "OpenSSL", .key = "openssl", .kind = BK_PEER,
		  .batch = bench_openssl_update_batch },
#endif
#ifdef BENCH_HAVE_SODIUM
		{ .name = "sodium", .column = "sodium", .key = "sodium", .kind = BK_PEER,
		  .batch = bench_sodium_update_batch },
#endif
	  },
	  .alloc = bench_poly1305_update_alloc, .reset = bench_poly1305_reset,
	  .same_output = bench_same_rp, .select = bench_force_select,
	  .finish = bench_poly1305_update_finish },
	{ .name = "conditional_assign", .kernel = "conditional_assign", .unit = "limb",
	  .jmh = "PolynomialP256Bench.benchAssign",
	  .title = "IntegerPolynomial.conditionalAssign: a = set ? b : a over n limbs, set "
	           "alternating 1, 0 (no peer library has this function)",
	  .sizes = assign_sizes, .variant_batch = cond_assign_batch,
	  .alloc = alloc_limbs, .reset = bench_buf_reset, .same_output = bench_same_rp },
};
#define KD(i) &kernel_drivers[i]
#define MD(i) &bench_mont_drivers[i]
#define PD(i) &bench_p256_drivers[i]
#define QD(i) &bench_p256m_drivers[i]
/* fe.c's pair per line of tests/fe_kernels.h */
#define FD(field, limbs, op) &bench_fe_##field##_##op, &bench_fe_##field##_##op##_chain,
#define FE_COUNT(field, limbs, op) +2
/* every driver: the limb/word and Poly1305 ones above, then montgomery.c's, p256.c's, ecdh.c's,
 * the 5 x 52-bit P-256 ones, fe.c's and xdh.c's */
const struct bench_driver *const bench_drivers[] = {
	KD(0), KD(1), KD(2), KD(3), KD(4), KD(5), KD(6), KD(7), KD(8), KD(9), KD(10), KD(11),
	KD(12), KD(13),
	MD(0), MD(1), MD(2),
	MD(3), PD(0), PD(1), PD(2), PD(3), &bench_ecdh_driver, QD(0), QD(1), QD(2), QD(3), QD(4),
	LF_TEST_FE_KERNELS(FD) &bench_fe_x4_driver, &bench_x25519_driver, &bench_x448_driver,
	&bench_x25519_ladder_driver, &bench_x448_ladder_driver,
};
_Static_assert(sizeof kernel_drivers / sizeof kernel_drivers[0] == 14,
               "list every kernel driver in bench_drivers");
_Static_assert(sizeof bench_drivers / sizeof bench_drivers[0] ==
               14 + 4 + 4 + 1 + 5 + (0 LF_TEST_FE_KERNELS(FE_COUNT)) + 1 + 4,
               "list every driver in bench_drivers");
#undef FD
#undef FE_COUNT
const size_t bench_driver_count = sizeof bench_drivers / sizeof bench_drivers[0];

void bench_force(const char *kernel, const char *variant)
{
	if (lf_impl_force(kernel, variant) != 0) {
		fprintf(stderr, "limbforge-bench: lf_impl_force(\"%s\", \"%s\") failed\n", kernel,
		        variant);
		exit(2);
	}
}

void bench_force_select(struct bench_buf *b, const struct bench_contender *c)
{
	b->cur = c;
	if (c->kind == BK_VARIANT || c->kind == BK_REF)
		bench_force(c->drv->kernel, c->variant);
}

const struct bench_driver *bench_find_driver(const char *name)
{
	for (size_t i = 0; i < bench_driver_count; i++)
		if (strcmp(bench_drivers[i]->name, name) == 0)
			return bench_drivers[i];
	return NULL;
}
