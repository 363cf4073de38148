/*
 * poly1305.c -- the Poly1305 drivers of the benchmark harness: the JDK's Poly1305DigestBench
 * (test/micro/.../javax/crypto/full/Poly1305DigestBench.java, ../shared/KERNELS.md 2.8) with
 * every runnable variant of poly1305_blocks beside OpenSSL and libsodium, and the --check
 * that the tuner (`make tune`, gen/lfgen/tune/runner.py) runs on poly1305_blocks candidates.
 *
 * Sizes are in the kernel's unit, 16-byte blocks (the tuner's SPEC.tune_sizes 4, 16, 64,
 * 1024); the table and plot show bytes.  The JMH grid 64, 256, 1024, 16384, 1048576 bytes is
 * 4, 16, 64, 1024, 65536 blocks.
 *
 *   poly1305_blocks (digestBytes)  per op: lf_poly1305(tag, m, len, key = m[0..32)) -- the
 *       public one-shot = init + update + final, a fresh key per op, so vector variants build
 *       their powers of r every time, as every AEAD message does.  The variant is chosen by
 *       lf_impl_force("poly1305_blocks", name) before each batch (the select hook, untimed).
 *       Peers: OpenSSL EVP_MAC "POLY1305" (EVP_MAC_init with the key, EVP_MAC_update,
 *       EVP_MAC_final on one EVP_MAC_CTX), libsodium crypto_onetimeauth_poly1305 (one-shot).
 *   poly1305_update (updateBytes)  per op: lf_poly1305_update on a state initialised once
 *       (one state per contender, so a vector variant's powers table stays built); peers
 *       EVP_MAC_update / crypto_onetimeauth_poly1305_update on their own initialised state.
 * Messages: Poly1305DigestBench cycles over SET_SIZE = 128 random messages; here 128 as
 * well, but at most SET_BYTES = 4 MiB of them (1 MiB messages: 4), so that the largest size
 * still measures the MAC and not the memory (JMH's 128 MiB set would not fit the caches).
 * Each message is 64-byte aligned.  Every contender's output (the tag; for updateBytes the
 * tag of a copy of the state, computed outside the timed region) is compared with ref's.
 *
 * --check (kernel-level, what the tuner relies on): for a size n (blocks), an operand pattern
 * (random: random h with h2 in 0..4, random clamped r, random messages at a random
 * misalignment; ones: all-0xff messages, the largest clamped r, h = 5 2^128 - 1 (h2 = 4);
 * zeros: r = 0, everything else ones) the variant's function is called directly on a
 * guarded 64-byte aligned ctx:
 *   A  ctx = {h, r, ctx[5] = 0, ctx[6..7] = 0, ctx[8..135] stale garbage}, n blocks, pad 1;
 *   B  the next n blocks on the same ctx (the powers table of A now valid), pad 0 or 1;
 *   C  a new r with ctx[5] = 0 (the table must be rebuilt), n blocks, pad 1;
 * then, through the public API with the variant forced, the tag of 16n + t bytes (t in 0..15)
 * one-shot and in two updates split at a random point; then, with pattern ones, an edge
 * lattice (lattice(): h in {0, 2^128-1, p-1, p, 2^130, 5 2^128-1} x r in {0, 1, 2, 2^66,
 * the largest r0, the largest r} x n blocks of 0xff / 0x00 / random bytes, a fresh ctx each:
 * the carries random operands almost never produce), and with pattern random 4 more tags of
 * random keys and lengths.  The results (h mod 2^130-5 after A, B, C; both tags; every
 * lattice point and extra tag) must equal ref's and an independent oracle's: GMP arithmetic
 * on the RFC 8439 definition (any architecture), and libsodium's and OpenSSL's tags where
 * they are built in; h2 must be at most 4 after every call and ctx[3..4] unchanged; nothing
 * may be written outside ctx (guard zones).  About 0.5 s for four x86-64 variants, 1 s per
 * variant under qemu.  (The lattice is what caught a lost carry of a draft NEON variant at
 * r = 2 and 16 blocks of 0xff that the random operands had let through.)
 */
#include <gmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifdef BENCH_HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#endif
#ifdef BENCH_HAVE_SODIUM
#include <sodium.h>
#endif

#include "bench.h"

/* blocks: 64 B, 256 B, 1 KiB, 16 KiB, 1 MiB (Poly1305DigestBench's dataSize) */
const size_t bench_poly1305_sizes[] = { 4, 16, 64, 1024, 65536, 0 };
/* updateBytes at the large sizes only: 16 KiB, 1 MiB */
const size_t bench_poly1305_update_sizes[] = { 1024, 65536, 0 };

#define SET_SIZE 128                   /* Poly1305DigestBench.SET_SIZE */
#define SET_BYTES ((size_t)4 << 20)    /* ... capped at 4 MiB of messages */
#define OUT_WORDS 16                   /* rp: tag(s) and reduced accumulators */
#define CTX_WORDS 136                  /* the kernel's ctx */
#define CTX_GUARD (BENCH_GUARD_BYTES / 8)
#define CTX_GUARD_BYTE 0xa5
#define CTX_STALE_BYTE 0x5a            /* a powers table that is not valid */
#define R0_CLAMP UINT64_C(0x0ffffffc0fffffff)
#define R1_CLAMP UINT64_C(0x0ffffffc0ffffffc)

/* rp words of the --check output */
enum { OUT_A = 0, OUT_B = 3, OUT_C = 6, OUT_EXTRA = 9, OUT_TAG = 12, OUT_SPLIT = 14 };

struct bench_poly {
	size_t len;                    /* message bytes: 16 n */
	size_t nmsg, stride, next;     /* message i at msgs + i stride; the next one to use */
	uint8_t *msgs;
	lf_poly1305_state *st;         /* updateBytes: one state per contender (by index) */
#ifdef BENCH_HAVE_OPENSSL
	EVP_MAC_CTX *mac;              /* digest: re-initialised per op; update: keyed once */
#endif
#ifdef BENCH_HAVE_SODIUM
	crypto_onetimeauth_poly1305_state sst;   /* updateBytes */
#endif
	/* --check */
	uint8_t *cmsg;                 /* --check only, 2 len + 128 bytes: blocks of A and B */
	uint64_t *ctx_raw, *ctx;       /* CTX_WORDS between guard zones of CTX_GUARD words */
	uint64_t h[3], ra[2], rc[2];   /* h before A; r of A and B; r of C */
	uint8_t key[32];               /* of the tags */
	size_t off, tail, cut;         /* misalignment of the blocks, tag length - 16 n, split */
	uint64_t pad_b;
	uint64_t h2max;                /* largest h2 left by the kernel in A, B, C */
	int r_kept;                    /* ctx[3..4] unchanged by the kernel */
	int pattern;                   /* bench_buf_fill's */
	uint64_t seed;                 /* of the extra random tags */
	uint8_t *lat_ff, *lat_00;      /* --check only: 16 n bytes of 0xff, of 0x00 */
	char *extra_what;              /* first disagreement of the lattice / extra tags */
	size_t extra_cases;
};

/* ---- peers ---------------------------------------------------------------------------- */

/* What every batch does: `reps` ops on the messages in turn, from where the previous batch
 * stopped.  op(p, m, arg) does one digest or update of message m (p->len bytes); `arg` is the
 * contender's state.  Inlined with a constant op, so each batch calls its library directly. */
typedef int (*poly_op)(struct bench_poly *p, const uint8_t *m, void *arg);

static inline __attribute__((always_inline)) int cycle_messages(struct bench_poly *p,
                                                                size_t reps, poly_op op,
                                                                void *arg)
{
	size_t stride = p->stride, nmsg = p->nmsg, i = p->next;
	int ok = 1;
	for (size_t r = 0; r < reps; r++) {
		ok &= op(p, p->msgs + i * stride, arg);
		if (++i == nmsg)
			i = 0;
	}
	p->next = i;
	return ok;
}

#ifdef BENCH_HAVE_OPENSSL
static EVP_MAC *openssl_mac(void)
{
	static EVP_MAC *mac;
	if (!mac) {
		mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
		if (!mac) {
			fprintf(stderr, "limbforge-bench: OpenSSL has no POLY1305 EVP_MAC\n");
			exit(2);
		}
	}
	return mac;
}

static EVP_MAC_CTX *openssl_ctx(void)
{
	EVP_MAC_CTX *c = EVP_MAC_CTX_new(openssl_mac());
	if (!c) {
		fprintf(stderr, "limbforge-bench: EVP_MAC_CTX_new failed\n");
		exit(2);
	}
	return c;
}

static void openssl_failed(const char *what)
{
	fprintf(stderr, "limbforge-bench: OpenSSL %s failed\n", what);
	exit(2);
}

/* OpenSSL's one-shot tag (init + update + final on a fresh context) */
static void openssl_tag(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32])
{
	EVP_MAC_CTX *c = openssl_ctx();
	size_t outl = 0;
	if (!EVP_MAC_init(c, key, 32, NULL) || !EVP_MAC_update(c, m, len) ||
	    !EVP_MAC_final(c, tag, &outl, 16) || outl != 16)
		openssl_failed("EVP_MAC one-shot");
	EVP_MAC_CTX_free(c);
}

const char *bench_openssl_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}

static int openssl_digest(struct bench_poly *p, const uint8_t *m, void *tag)
{
	size_t outl;
	return EVP_MAC_init(p->mac, m, 32, NULL) & EVP_MAC_update(p->mac, m, p->len) &
	       EVP_MAC_final(p->mac, tag, &outl, 16);
}

static int openssl_update(struct bench_poly *p, const uint8_t *m, void *unused)
{
	(void)unused;
	return EVP_MAC_update(p->mac, m, p->len);
}

uint64_t bench_openssl_digest_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	if (!cycle_messages(b->poly, reps, openssl_digest, b->rp))
		openssl_failed("EVP_MAC_init/update/final");
	return b->rp[0];
}

uint64_t bench_openssl_update_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	if (!cycle_messages(b->poly, reps, openssl_update, NULL))
		openssl_failed("EVP_MAC_update");
	return b->poly->next;
}
#else
const char *bench_openssl_version(void)
{
	return NULL;
}
#endif

#ifdef BENCH_HAVE_SODIUM
static void sodium_setup(void)
{
	static int done;
	if (!done) {
		if (sodium_init() < 0) {
			fprintf(stderr, "limbforge-bench: sodium_init failed\n");
			exit(2);
		}
		done = 1;
	}
}

const char *bench_sodium_version(void)
{
	return sodium_version_string();
}

static int sodium_digest(struct bench_poly *p, const uint8_t *m, void *tag)
{
	return crypto_onetimeauth_poly1305(tag, m, p->len, m) == 0;
}

static int sodium_update(struct bench_poly *p, const uint8_t *m, void *unused)
{
	(void)unused;
	return crypto_onetimeauth_poly1305_update(&p->sst, m, p->len) == 0;
}

uint64_t bench_sodium_digest_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	cycle_messages(b->poly, reps, sodium_digest, b->rp);
	return b->rp[0];
}

uint64_t bench_sodium_update_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	cycle_messages(b->poly, reps, sodium_update, NULL);
	return b->poly->next;
}
#else
const char *bench_sodium_version(void)
{
	return NULL;
}
#endif

/* ---- limbforge batches ------------------------------------------------------------------ */

static int lf_digest(struct bench_poly *p, const uint8_t *m, void *tag)
{
	lf_poly1305(tag, m, p->len, m);
	return 1;
}

static int lf_update(struct bench_poly *p, const uint8_t *m, void *st)
{
	lf_poly1305_update(st, m, p->len);
	return 1;
}

/* digestBytes: the variant was forced by the select hook; fn is not called directly */
uint64_t bench_poly1305_digest_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	cycle_messages(b->poly, reps, lf_digest, b->rp);
	return b->rp[0];
}

/* updateBytes batches return the index of the next message: the same for every contender */
uint64_t bench_poly1305_update_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)fn;
	cycle_messages(b->poly, reps, lf_update, &b->poly->st[b->cur->index]);
	return b->poly->next;
}

/* updateBytes, untimed: the tag of a copy of the contender's state (comparable output) */
void bench_poly1305_update_finish(struct bench_buf *b)
{
	struct bench_poly *p = b->poly;
	const struct bench_contender *c = b->cur;
	uint8_t *tag = (uint8_t *)b->rp;
	if (c->kind == BK_VARIANT || c->kind == BK_REF) {
		lf_poly1305_state copy;
		memcpy(&copy, &p->st[c->index], sizeof copy);
		lf_poly1305_final(&copy, tag);
		return;
	}
#ifdef BENCH_HAVE_OPENSSL
	if (!strcmp(c->variant, "openssl")) {
		EVP_MAC_CTX *d = EVP_MAC_CTX_dup(p->mac);
		size_t outl = 0;
		if (!d || !EVP_MAC_final(d, tag, &outl, 16))
			openssl_failed("EVP_MAC_CTX_dup/final");
		EVP_MAC_CTX_free(d);
		return;
	}
#endif
#ifdef BENCH_HAVE_SODIUM
	if (!strcmp(c->variant, "sodium")) {
		crypto_onetimeauth_poly1305_state copy = p->sst;
		crypto_onetimeauth_poly1305_final(&copy, tag);
		return;
	}
#endif
}

/* ---- buffers ---------------------------------------------------------------------------- */

static uint64_t clamp_word(uint64_t x, uint64_t mask)
{
	return x & mask;
}

static void fill_random(uint8_t *p, size_t bytes, uint64_t *seed)
{
	size_t i = 0;
	for (; i + 8 <= bytes; i += 8) {
		uint64_t x = bench_splitmix64(seed);
		memcpy(p + i, &x, 8);
	}
	if (i < bytes) {
		uint64_t x = bench_splitmix64(seed);
		memcpy(p + i, &x, bytes - i);
	}
}

static struct bench_buf *poly_alloc(size_t n, uint64_t seed, int update)
{
	/* the common part: rp (tags, --check results) between guard zones; no limbs */
	struct bench_buf *b = bench_buf_alloc(0, seed, OUT_WORDS, 1);
	struct bench_poly *p = calloc(1, sizeof *p);
	if (!p)
		exit(2);
	b->n = n;
	b->poly = p;
	p->len = 16 * n;
	if (bench_checking) {
		p->nmsg = 1;                   /* the timed batches use message 0 only */
	} else {
		size_t fit = SET_BYTES / (p->len ? p->len : 1);
		p->nmsg = fit < 2 ? 2 : fit > SET_SIZE ? SET_SIZE : fit;
	}
	/* 64-byte aligned messages of at least 32 bytes (the key is the first 32) */
	p->stride = ((p->len < 32 ? 32 : p->len) + 63) & ~(size_t)63;
	p->msgs = bench_alloc64(p->nmsg * p->stride);
	fill_random(p->msgs, p->nmsg * p->stride, &seed);

	/* --check operands (the blocks only under --check: for 1 MiB they would cost 2 MiB) */
	if (bench_checking) {
		p->cmsg = bench_alloc64(2 * p->len + 128);
		fill_random(p->cmsg, 2 * p->len + 128, &seed);
		p->lat_ff = bench_alloc64(p->len + 16);
		p->lat_00 = bench_alloc64(p->len + 16);
		memset(p->lat_ff, 0xff, p->len + 16);
		memset(p->lat_00, 0, p->len + 16);
	}
	p->ctx_raw = bench_alloc64((CTX_WORDS + 2 * CTX_GUARD) * 8);
	p->ctx = p->ctx_raw + CTX_GUARD;
	memset(p->ctx_raw, CTX_GUARD_BYTE, (CTX_WORDS + 2 * CTX_GUARD) * 8);
	p->h[0] = bench_splitmix64(&seed);
	p->h[1] = bench_splitmix64(&seed);
	p->h[2] = bench_splitmix64(&seed) % 5;
	p->ra[0] = clamp_word(bench_splitmix64(&seed), R0_CLAMP);
	p->ra[1] = clamp_word(bench_splitmix64(&seed), R1_CLAMP);
	p->rc[0] = clamp_word(bench_splitmix64(&seed), R0_CLAMP);
	p->rc[1] = clamp_word(bench_splitmix64(&seed), R1_CLAMP);
	fill_random(p->key, 32, &seed);
	p->off = bench_splitmix64(&seed) % 64;
	p->tail = bench_splitmix64(&seed) % 16;
	p->cut = bench_splitmix64(&seed) % (p->len + p->tail + 1);
	p->pad_b = bench_splitmix64(&seed) & 1;
	p->seed = bench_splitmix64(&seed);

	if (update) {
		const uint8_t *key = p->msgs;  /* one key for the whole run, as JMH's init */
		p->st = bench_alloc64(BENCH_MAX_CONTENDERS * sizeof *p->st);
		for (size_t i = 0; i < BENCH_MAX_CONTENDERS; i++)
			lf_poly1305_init(&p->st[i], key);
#ifdef BENCH_HAVE_SODIUM
		sodium_setup();
		crypto_onetimeauth_poly1305_init(&p->sst, key);
#endif
#ifdef BENCH_HAVE_OPENSSL
		p->mac = openssl_ctx();
		if (!EVP_MAC_init(p->mac, key, 32, NULL))
			openssl_failed("EVP_MAC_init");
#endif
	} else {
#ifdef BENCH_HAVE_SODIUM
		sodium_setup();
#endif
#ifdef BENCH_HAVE_OPENSSL
		p->mac = openssl_ctx();
#endif
	}
	return b;
}

struct bench_buf *bench_poly1305_alloc(size_t n, uint64_t seed)
{
	return poly_alloc(n, seed, 0);
}

struct bench_buf *bench_poly1305_update_alloc(size_t n, uint64_t seed)
{
	return poly_alloc(n, seed, 1);
}

void bench_poly1305_free(struct bench_poly *p)
{
	if (!p)
		return;
#ifdef BENCH_HAVE_OPENSSL
	EVP_MAC_CTX_free(p->mac);
#endif
	free(p->msgs);
	free(p->cmsg);
	free(p->lat_ff);
	free(p->lat_00);
	free(p->extra_what);
	free(p->ctx_raw);
	free(p->st);
	free(p);
}

void bench_poly1305_reset(struct bench_buf *b)
{
	memcpy(b->rp, b->rp0, b->rp_len * 8);
	b->poly->next = 0;
}

/* --check patterns (bench_buf_fill): ones = the largest operands, zeros = r zero */
void bench_poly1305_fill(struct bench_buf *b, int pattern)
{
	struct bench_poly *p = b->poly;
	p->pattern = pattern;
	if (pattern == BP_ONES || pattern == BP_ZEROS) {
		memset(p->msgs, 0xff, p->nmsg * p->stride);
		if (p->cmsg)
			memset(p->cmsg, 0xff, 2 * p->len + 128);
		p->h[0] = p->h[1] = ~UINT64_C(0);
		p->h[2] = 4;                   /* h = 5 2^128 - 1, the largest h2 allowed */
		p->rc[0] = R0_CLAMP;
		p->rc[1] = R1_CLAMP;
		p->tail = 15;
		p->pad_b = 1;
		memset(p->key, 0xff, 32);      /* r clamped from all ones: the largest r */
		if (pattern == BP_ONES) {
			p->ra[0] = R0_CLAMP;
			p->ra[1] = R1_CLAMP;
		} else {
			p->ra[0] = p->ra[1] = 0;
			memset(p->key, 0, 16);     /* r = 0: the tag is s */
		}
	}
	bench_poly1305_reset(b);
}

int bench_poly1305_guard_ok(const struct bench_buf *b)
{
	const unsigned char *lo = (const unsigned char *)b->poly->ctx_raw;
	const unsigned char *hi = (const unsigned char *)(b->poly->ctx + CTX_WORDS);
	for (size_t i = 0; i < CTX_GUARD * 8; i++)
		if (lo[i] != CTX_GUARD_BYTE || hi[i] != CTX_GUARD_BYTE)
			return 0;
	return 1;
}

/* ---- --check ---------------------------------------------------------------------------- */

static void mpz_poly_p(mpz_t p)
{
	mpz_init_set_ui(p, 1);
	mpz_mul_2exp(p, p, 130);
	mpz_sub_ui(p, p, 5);
}

/* out[0..3) = (h0 + h1 2^64 + h2 2^128) mod 2^130-5, as three words */
static void reduced(const uint64_t h[3], uint64_t out[3])
{
	mpz_t x, p;
	mpz_init(x);
	mpz_poly_p(p);
	mpz_import(x, 3, -1, 8, 0, 0, h);
	mpz_mod(x, x, p);
	out[0] = out[1] = out[2] = 0;
	mpz_export(out, NULL, -1, 8, 0, 0, x);
	mpz_clear(x);
	mpz_clear(p);
}

static void record(struct bench_poly *p, const uint64_t *ctx, uint64_t *out)
{
	if (ctx[2] > p->h2max)
		p->h2max = ctx[2];
	reduced(ctx, out);
}

static void oracle_blocks(mpz_t h, const uint64_t r[2], const uint8_t *m, size_t n,
                          unsigned pad, const mpz_t p);
static void oracle_tag(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32]);

static void extra_failed(struct bench_poly *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void extra_failed(struct bench_poly *p, const char *fmt, ...)
{
	if (p->extra_what)
		return;
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	p->extra_what = strdup(buf);
}

/* The edge lattice (pattern ones, once per size): a fresh ctx (ctx[5] = 0) for every h in
 * {0, 2^128 - 1, 2^130 - 6 = p - 1, 2^130 - 5 = p, 2^130, 5 2^128 - 1 (the largest h2 = 4)}
 * x r in {0, 1, 2, 2^66 (r1 = 4), the largest r0 alone, the largest r} x n blocks of 0xff,
 * of 0x00, of random bytes; each result against the GMP oracle.  Returns a hash of them. */
static uint64_t lattice(struct bench_poly *p, lf_poly1305_blocks_fn f, size_t n)
{
	static const uint64_t hs[][3] = {
		{ 0, 0, 0 }, { ~UINT64_C(0), ~UINT64_C(0), 0 },
		{ ~UINT64_C(0) - 5, ~UINT64_C(0), 3 }, { ~UINT64_C(0) - 4, ~UINT64_C(0), 3 },
		{ 0, 0, 4 }, { ~UINT64_C(0), ~UINT64_C(0), 4 },
	};
	static const uint64_t rs[][2] = {
		{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 0, 4 }, { R0_CLAMP, 0 }, { R0_CLAMP, R1_CLAMP },
	};
	const uint8_t *ms[3] = { p->lat_ff, p->lat_00, p->cmsg };
	static const char *const mnames[3] = { "0xff", "0x00", "random" };
	uint64_t *ctx = p->ctx, hash = 0, got[3], want[3];
	mpz_t pm, h;
	mpz_poly_p(pm);
	mpz_init(h);
	for (size_t hi = 0; hi < sizeof hs / sizeof hs[0]; hi++)
		for (size_t ri = 0; ri < sizeof rs / sizeof rs[0]; ri++)
			for (size_t mi = 0; mi < 3; mi++) {
				memset(ctx, CTX_STALE_BYTE, CTX_WORDS * 8);
				memcpy(ctx, hs[hi], 24);
				ctx[3] = rs[ri][0];
				ctx[4] = rs[ri][1];
				ctx[5] = ctx[6] = ctx[7] = 0;
				f(ctx, n ? ms[mi] : NULL, n, 1);
				if (ctx[2] > p->h2max)
					p->h2max = ctx[2];
				reduced(ctx, got);
				mpz_import(h, 3, -1, 8, 0, 0, hs[hi]);
				mpz_mod(h, h, pm);
				oracle_blocks(h, rs[ri], ms[mi], n, 1, pm);
				want[0] = want[1] = want[2] = 0;
				mpz_export(want, NULL, -1, 8, 0, 0, h);
				if (memcmp(got, want, sizeof got) != 0)
					extra_failed(p, "edge lattice: h = %x:%016llx:%016llx, r = %016llx:%016llx,"
					             " %zu blocks of %s: h differs from the GMP oracle",
					             (unsigned)hs[hi][2], (unsigned long long)hs[hi][1],
					             (unsigned long long)hs[hi][0],
					             (unsigned long long)rs[ri][1],
					             (unsigned long long)rs[ri][0], n, mnames[mi]);
				hash = hash * 31 + (got[0] ^ got[1] ^ got[2]);
				p->extra_cases++;
			}
	mpz_clear(pm);
	mpz_clear(h);
	return hash;
}

/* EXTRA_TAGS tags of random length 0..16n+15 and random keys through the public API, each
 * against the GMP oracle (random pattern).  Returns a hash of them. */
#define EXTRA_TAGS 4
static uint64_t extra_tags(struct bench_poly *p)
{
	uint64_t seed = p->seed, hash = 0;
	for (int i = 0; i < EXTRA_TAGS; i++) {
		uint8_t key[32], tag[16], want[16];
		fill_random(key, 32, &seed);
		size_t len = bench_splitmix64(&seed) % (p->len + 16);
		size_t off = bench_splitmix64(&seed) % 64;
		const uint8_t *m = p->cmsg + off;
		lf_poly1305(tag, m, len, key);
		oracle_tag(want, m, len, key);
		if (memcmp(tag, want, 16) != 0)
			extra_failed(p, "random key, length %zu (offset %zu): lf_poly1305 tag differs "
			             "from the GMP oracle", len, off);
		uint64_t t;
		memcpy(&t, tag, 8);
		hash = hash * 31 + t;
		p->extra_cases++;
	}
	return hash;
}

/* The kernel-level steps A, B, C on `fn` directly, then the tags through the public API
 * (the variant forced by the select hook), then the edge lattice (pattern ones) or extra
 * random tags (pattern random).  reps is ignored (one run). */
uint64_t bench_poly1305_check_batch(struct bench_buf *b, lf_fnptr fn, size_t reps)
{
	(void)reps;
	struct bench_poly *p = b->poly;
	lf_poly1305_blocks_fn f = (lf_poly1305_blocks_fn)fn;
	uint64_t *ctx = p->ctx;
	size_t n = b->n;
	if (!p->cmsg) {
		fprintf(stderr, "limbforge-bench: poly1305 check_batch outside --check\n");
		exit(2);
	}
	const uint8_t *ma = n ? p->cmsg + p->off : NULL, *mb = n ? p->cmsg + p->off + p->len : NULL;

	memset(ctx, CTX_STALE_BYTE, CTX_WORDS * 8);
	ctx[0] = p->h[0];
	ctx[1] = p->h[1];
	ctx[2] = p->h[2];
	ctx[3] = p->ra[0];
	ctx[4] = p->ra[1];
	ctx[5] = ctx[6] = ctx[7] = 0;
	p->h2max = 0;
	f(ctx, ma, n, 1);                                  /* A */
	record(p, ctx, b->rp + OUT_A);
	f(ctx, mb, n, p->pad_b);                           /* B: the table of A is valid */
	record(p, ctx, b->rp + OUT_B);
	p->r_kept = ctx[3] == p->ra[0] && ctx[4] == p->ra[1];
	ctx[3] = p->rc[0];
	ctx[4] = p->rc[1];
	ctx[5] = 0;
	f(ctx, ma, n, 1);                                  /* C: new r, table invalid */
	record(p, ctx, b->rp + OUT_C);
	p->r_kept &= ctx[3] == p->rc[0] && ctx[4] == p->rc[1];

	const uint8_t *tm = p->cmsg + p->off;
	size_t tlen = p->len + p->tail;
	lf_poly1305((uint8_t *)(b->rp + OUT_TAG), tm, tlen, p->key);
	lf_poly1305_state st;
	lf_poly1305_init(&st, p->key);
	lf_poly1305_update(&st, tm, p->cut);
	lf_poly1305_update(&st, tm + p->cut, tlen - p->cut);
	lf_poly1305_final(&st, (uint8_t *)(b->rp + OUT_SPLIT));

	free(p->extra_what);
	p->extra_what = NULL;
	p->extra_cases = 0;
	if (p->pattern == BP_ONES)
		b->rp[OUT_EXTRA] = lattice(p, f, n);
	else if (p->pattern == BP_RANDOM)
		b->rp[OUT_EXTRA] = extra_tags(p);
	return b->rp[OUT_A] ^ b->rp[OUT_C] ^ b->rp[OUT_TAG];
}

/* h = (h + m_i + pad 2^128) r mod p over n blocks, by the definition (RFC 8439 2.5) */
static void oracle_blocks(mpz_t h, const uint64_t r[2], const uint8_t *m, size_t n,
                          unsigned pad, const mpz_t p)
{
	mpz_t rr, t;
	mpz_init(rr);
	mpz_init(t);
	mpz_import(rr, 2, -1, 8, 0, 0, r);
	for (size_t i = 0; i < n; i++) {
		mpz_import(t, 16, -1, 1, 0, 0, m + 16 * i);
		if (pad)
			mpz_setbit(t, 128);
		mpz_add(h, h, t);
		mpz_mul(h, h, rr);
		mpz_mod(h, h, p);
	}
	mpz_clear(rr);
	mpz_clear(t);
}

/* the RFC 8439 tag, byte-wise clamping as the JDK's Poly1305.setRSVals */
static void oracle_tag(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32])
{
	uint8_t rb[16];
	memcpy(rb, key, 16);
	for (int i = 3; i < 16; i += 4)
		rb[i] &= 15;
	for (int i = 4; i < 16; i += 4)
		rb[i] &= 252;
	mpz_t p, h, r, s, t;
	mpz_poly_p(p);
	mpz_init(h);
	mpz_init(r);
	mpz_init(s);
	mpz_init(t);
	mpz_import(r, 16, -1, 1, 0, 0, rb);
	mpz_import(s, 16, -1, 1, 0, 0, key + 16);
	for (size_t i = 0; i < len; i += 16) {
		size_t k = len - i < 16 ? len - i : 16;
		mpz_import(t, k, -1, 1, 0, 0, m + i);
		mpz_setbit(t, 8 * k);
		mpz_add(h, h, t);
		mpz_mul(h, h, r);
		mpz_mod(h, h, p);
	}
	mpz_add(h, h, s);
	mpz_fdiv_r_2exp(h, h, 128);
	memset(tag, 0, 16);
	mpz_export(tag, NULL, -1, 1, 0, 0, h);
	mpz_clear(p);
	mpz_clear(h);
	mpz_clear(r);
	mpz_clear(s);
	mpz_clear(t);
}

static int same_words(const uint64_t *got, mpz_t want)
{
	uint64_t w[3] = { 0, 0, 0 };
	mpz_export(w, NULL, -1, 8, 0, 0, want);
	return got[0] == w[0] && got[1] == w[1] && got[2] == w[2];
}

/* The independent oracle on the outputs of check_batch: NULL, or what disagrees. */
const char *bench_poly1305_verify(const struct bench_buf *b)
{
	const struct bench_poly *p = b->poly;
	size_t n = b->n;
	const char *what = NULL;
	if (!p->cmsg)
		return "not a --check buffer";
	if (p->h2max > 4)
		return "h2 > 4 after a call (the kernel contract keeps h2 <= 4)";
	if (!p->r_kept)
		return "r in ctx[3..4] changed by the kernel";
	if (p->extra_what)   /* kept by check_variant after the buffer is freed: a copy */
		return strdup(p->extra_what);
	mpz_t pm, h;
	mpz_poly_p(pm);
	mpz_init(h);
	mpz_import(h, 3, -1, 8, 0, 0, p->h);
	mpz_mod(h, h, pm);
	oracle_blocks(h, p->ra, p->cmsg + p->off, n, 1, pm);
	if (!same_words(b->rp + OUT_A, h))
		what = "h after A (n blocks, ctx[5] = 0) differs from the GMP oracle";
	oracle_blocks(h, p->ra, p->cmsg + p->off + p->len, n, (unsigned)p->pad_b, pm);
	if (!what && !same_words(b->rp + OUT_B, h))
		what = "h after B (next n blocks, powers table valid) differs from the GMP oracle";
	oracle_blocks(h, p->rc, p->cmsg + p->off, n, 1, pm);
	if (!what && !same_words(b->rp + OUT_C, h))
		what = "h after C (new r, ctx[5] = 0) differs from the GMP oracle";
	mpz_clear(pm);
	mpz_clear(h);
	if (what)
		return what;

	const uint8_t *tm = p->cmsg + p->off;
	size_t tlen = p->len + p->tail;
	uint8_t want[16];
	oracle_tag(want, tm, tlen, p->key);
	if (memcmp(b->rp + OUT_TAG, want, 16) != 0)
		return "lf_poly1305 tag differs from the GMP oracle";
	if (memcmp(b->rp + OUT_SPLIT, want, 16) != 0)
		return "tag of two lf_poly1305_update calls differs from the GMP oracle";
#ifdef BENCH_HAVE_SODIUM
	sodium_setup();
	crypto_onetimeauth_poly1305(want, tm, tlen, p->key);
	if (memcmp(b->rp + OUT_TAG, want, 16) != 0)
		return "lf_poly1305 tag differs from libsodium's";
#endif
#ifdef BENCH_HAVE_OPENSSL
	openssl_tag(want, tm, tlen, p->key);
	if (memcmp(b->rp + OUT_TAG, want, 16) != 0)
		return "lf_poly1305 tag differs from OpenSSL's";
#endif
	return NULL;
}
