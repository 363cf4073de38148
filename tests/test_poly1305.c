/*
 * test_poly1305.c -- Poly1305 (RFC 8439 section 2.5): every runnable variant of the
 * poly1305_blocks kernel, called directly and through the public API (lf_poly1305_init /
 * update / final, lf_poly1305, lf_poly1305_jdk_blocks) with the variant forced by
 * lf_impl_force, against independent oracles only: OpenSSL's EVP_MAC and libsodium where the
 * build has them (the x86-64 host), GMP (the RFC definition on mpz) and the Python vectors of
 * tests/kat/gen_poly1305.py (RFC 8439 2.5.2 and A.3 #1-#11 with the RFC's tags; random and
 * edge one-shot tags; block-function values; a model of the JDK's IntegerPolynomial1305).
 * `ref` is one of the variants under test, never an oracle.
 *
 * Faults this is designed to catch:
 *   - a lost carry in h + m + pad 2^128 (h0/h1 all ones plus a carry: A.3 #7, h at
 *     5 * 2^128 - 1, all-0xff blocks with the largest clamped r), in the products or in the
 *     partial reduction 5 (d2 >> 2) + (d2 & ~3) (edge-value lattice of h, r and blocks);
 *   - an accumulator that leaves the contract (h2 > 4) or a kernel that cannot take any h it
 *     allows (h = p, p + 4, 5 * 2^128 - 1 on entry);
 *   - a final reduction that is off at the modulus: accumulators driven to exactly 2^130-6,
 *     2^130-5 (= 0), 2^128-1, 2^128, ... after every block and through a final partial block
 *     (solved with GMP), s that wraps 2^128 (A.3 #5, #6, #8-#11);
 *   - block-count bugs in loops, vector widths and tails: every message length 0..2063
 *     ((2W+1) 16 + 15 for W = 64; W = 16, 32 inside it), 15/16/17, 31/32/33, 63/64/65,
 *     127-129, 255-257 blocks, each with 0, 1 and 15 trailing bytes; direct calls with every
 *     nblocks 0..140 and longer ones;
 *   - the update path: the partial-block buffer (1 byte then the rest, 15 + 1, random
 *     chunkings, byte at a time against one call, the JDK fuzz test's priming, many updates
 *     of 256..4096 bytes), the final 0x01 padding, the pad = 0 block, a state not wiped;
 *   - the vector variants' power tables (ctx[5]/ctx[8..135]): a table trusted after a new r,
 *     a garbage layout id, variants alternating on one context, chained calls;
 *   - reads past the message (guard pages after it and before it), writes outside ctx, the
 *     tag or the state, alignment assumptions on the message (offsets 0..63), nblocks == 0
 *     touching memory, NULL with length 0, the tag aliasing the message or the key;
 *   - lf_poly1305_jdk_blocks misreading the 5 x 26-bit limbs (limb 4 above 2^26, limbs past
 *     Java's ranges), returning limbs outside the documented bounds, or touching acc for
 *     len < 16;
 *   - a wrong answer from any of the above at random keys, lengths and chunkings (100000
 *     cases spread over the variants when OpenSSL and libsodium are there; 20000 with GMP
 *     alone, as under qemu; LF_TEST_P1305_RANDOM=<n> overrides the total).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "poly1305_vectors.h"

#define KID LF_K_poly1305_blocks
#define KNAME "poly1305_blocks"
#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define CTXW 136
#define CL0 UINT64_C(0x0ffffffc0fffffff)
#define CL1 UINT64_C(0x0ffffffc0ffffffc)
#define M64 UINT64_MAX
#define KB(off) (kat_p1305_bytes + (off))
#define BIGMSG 70000

/* p = 2^130 - 5 and a few values around it, as h0, h1, h2 */
static const uint64_t P_W[3] = { M64 - 4, M64, 3 };

/* ---- small helpers ------------------------------------------------------------------------ */
static void hex(char *out, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	out[2 * n] = 0;
}

static void rbytes(rng_t *r, uint8_t *b, size_t n)
{
	while (n >= 8) {
		uint64_t x = rng_next(r);
		memcpy(b, &x, 8);
		b += 8;
		n -= 8;
	}
	if (n) {
		uint64_t x = rng_next(r);
		memcpy(b, &x, n);
	}
}

static void store_le(uint8_t *b, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(x >> (8 * i));
}

static uint64_t load_le(const uint8_t *b)
{
	uint64_t x = 0;
	for (int i = 7; i >= 0; i--)
		x = x << 8 | b[i];
	return x;
}

/* out = a + b (three words, no overflow out of the top word for the values used here) */
static void add3(uint64_t out[3], const uint64_t a[3], const uint64_t b[3])
{
	uint64_t c = 0;
	for (int i = 0; i < 3; i++) {
		uint64_t s = a[i] + c;
		c = s < c;
		out[i] = s + b[i];
		c += out[i] < s;
	}
}

/* message contents: 0 random, 1 all 0xff, 2 zeros, 3 blocks of edge patterns */
static void fill_msg(rng_t *r, uint8_t *b, size_t n, int kind)
{
	switch (kind) {
	case 1:
		memset(b, 0xff, n);
		break;
	case 2:
		memset(b, 0, n);
		break;
	case 3:
		for (size_t i = 0; i < n; i += 16) {
			size_t l = n - i < 16 ? n - i : 16;
			uint8_t blk[16];
			switch (rng_next(r) % 5) {
			case 0: memset(blk, 0xff, 16); break;
			case 1: memset(blk, 0, 16); break;
			case 2: memset(blk, 0xff, 16), blk[0] = 0xfb; break;
			case 3: memset(blk, 0xff, 8), memset(blk + 8, 0, 8); break;
			default: rbytes(r, blk, 16); break;
			}
			memcpy(b + i, blk, l);
		}
		break;
	default:
		rbytes(r, b, n);
	}
}

/* keys: 0 random; 1 the largest clamped r (all 0xff), random s; 2 r in {0, 1, 2}, s all ones;
 * 3 random r, s all ones; 4 random r, s = 0 */
static void fill_key(rng_t *r, uint8_t key[32], int kind)
{
	rbytes(r, key, 32);
	switch (kind) {
	case 1:
		memset(key, 0xff, 16);
		break;
	case 2:
		memset(key, 0, 16);
		key[0] = (uint8_t)(rng_next(r) % 3);
		memset(key + 16, 0xff, 16);
		break;
	case 3:
		memset(key + 16, 0xff, 16);
		break;
	case 4:
		memset(key + 16, 0, 16);
		break;
	default:
		break;
	}
}

static void force(const struct tvar *t)
{
	ck_assert_msg(lf_impl_force(KNAME, t->v->name) == 0, "lf_impl_force(%s, %s) failed",
	              KNAME, t->v->name);
	const char *cur = lf_impl(KNAME);
	ck_assert_msg(cur && strcmp(cur, t->v->name) == 0, "forced %s, lf_impl says %s", t->label,
	              cur ? cur : "NULL");
}

static void unforce(void)
{
	lf_impl_force(KNAME, NULL);
}

static size_t total_random(void)
{
	const char *e = getenv("LF_TEST_P1305_RANDOM");
	if (e)
		return (size_t)strtoull(e, NULL, 0);
	return or_p1305_have_openssl() || or_p1305_have_sodium() ? 100000 : 20000;
}

/* ---- buffers --------------------------------------------------------------------------------
 * GB_START / GB_END: a guarded mapping (gb_alloc: the data right after / right against a
 * PROT_NONE page, so a stray read faults).  GB_MID: the heap, 64-byte aligned plus `shift`,
 * with 64 canary bytes on each side -- for the bulk of the calls: a mapping per buffer costs
 * several system calls, which qemu-user makes slow. */
struct tbuf {
	struct gbuf g;
	unsigned char *heap, *lo;
	uint8_t *p;
	size_t len, pre;
};
#define TB_MARGIN 64

static unsigned char tb_canary(size_t i)
{
	return (unsigned char)(0x3c ^ (i * 0x5b) ^ (i >> 7));
}

static void *tb_alloc(struct tbuf *b, size_t len, enum gb_place place, size_t shift)
{
	memset(b, 0, sizeof *b);
	if (place != GB_MID)
		return b->p = gb_alloc(&b->g, len, place, shift);
	b->heap = xmalloc(len + shift + 2 * TB_MARGIN + 64);
	b->lo = b->heap + ((64 - ((uintptr_t)b->heap & 63)) & 63);
	b->pre = TB_MARGIN + shift;
	b->p = b->lo + b->pre;
	b->len = len;
	for (size_t i = 0; i < b->pre + len + TB_MARGIN; i++)
		b->lo[i] = tb_canary(i);
	return b->p;
}

static void tb_check(const struct tbuf *b, const char *label, const char *name, const char *what)
{
	if (!b->heap) {
		ASSERT_CANARIES(&b->g, label, name, what);
		return;
	}
	/* plain ifs: every ck_assert records its location (a system call in fork mode) */
	for (size_t i = 0; i < TB_MARGIN; i++) {
		size_t a = b->pre + b->len + i, c = b->pre - 1 - i;
		if (b->lo[a] != tb_canary(a))
			ck_abort_msg("%s %s: canary after `%s` damaged at byte offset %zu from its "
			             "start", label, what, name, b->len + i);
		if (b->lo[c] != tb_canary(c))
			ck_abort_msg("%s %s: canary before `%s` damaged at byte offset -%zu from its "
			             "start", label, what, name, i + 1);
	}
}

static void tb_free(struct tbuf *b)
{
	if (b->heap)
		free(b->heap);
	else
		gb_free(&b->g);
	memset(b, 0, sizeof *b);
}

/* ---- through the public API ---------------------------------------------------------------- */
/* chunking modes of api_tag */
enum chunking { CH_ONESHOT, CH_ONE_UPDATE, CH_LIST };

struct call {
	enum chunking mode;
	const size_t *chunks;    /* CH_LIST: update sizes, summing to len */
	size_t nchunks;
	enum gb_place mplace;    /* the message's buffer (see struct tbuf) */
	size_t mshift;
	enum gb_place tplace, splace;   /* tag; state and key */
};

static const struct call ONESHOT = { CH_ONESHOT, NULL, 0, GB_MID, 0, GB_MID, GB_MID };

/* Tag(key, msg) through the API with the variant forced, every buffer placed as `c` says
 * (struct tbuf); compared with `want` (NULL: the oracles).  A state is checked wiped (all
 * zero) after final. */
static void api_tag(const struct tvar *t, enum cov_kind kind, const char *what,
                    const uint8_t key[32], const uint8_t *msg, size_t len, const struct call *c,
                    const uint8_t *want)
{
	struct tbuf gm, gk, gt, gs;
	uint8_t w[16], *m, *k, *tg;
	char a[33], b[33];

	if (!want) {
		or_p1305(w, msg, len, key, 0);
		want = w;
	}
	m = tb_alloc(&gm, len, c->mplace, c->mshift);
	if (len)
		memcpy(m, msg, len);
	k = tb_alloc(&gk, 32, c->splace, 0);
	memcpy(k, key, 32);
	tg = tb_alloc(&gt, 16, c->tplace, 0);
	memset(tg, 0xa5, 16);
	crash_note(t->label, what, len);
	if (c->mode == CH_ONESHOT) {
		lf_poly1305(tg, len ? m : NULL, len, k);
	} else {
		lf_poly1305_state *st = tb_alloc(&gs, sizeof *st, c->splace, 0);
		ck_assert_msg(((uintptr_t)st & 63) == 0, "test bug: state not 64-byte aligned");
		memset(st, 0x5a, sizeof *st);             /* garbage before init */
		lf_poly1305_init(st, k);
		if (c->mode == CH_ONE_UPDATE) {
			lf_poly1305_update(st, len ? m : NULL, len);
		} else {
			size_t off = 0;
			for (size_t i = 0; i < c->nchunks; i++) {
				ck_assert_msg(off + c->chunks[i] <= len, "test bug: chunks exceed len");
				lf_poly1305_update(st, c->chunks[i] ? m + off : NULL, c->chunks[i]);
				off += c->chunks[i];
			}
			ck_assert_msg(off == len, "test bug: chunks sum to %zu, len %zu", off, len);
		}
		lf_poly1305_final(st, tg);
		const unsigned char *sb = (const unsigned char *)st;
		for (size_t i = 0; i < sizeof *st; i++)
			if (sb[i] != 0)
				ck_abort_msg("%s (%s, len %zu): state byte %zu is %#x after "
				             "lf_poly1305_final (not wiped)", t->label, what, len, i, sb[i]);
		tb_check(&gs, t->label, "state", what);
		tb_free(&gs);
	}
	hex(a, tg, 16);
	hex(b, want, 16);
	ck_assert_msg(memcmp(tg, want, 16) == 0, "%s: %s, len %zu (%s%s): tag %s, want %s",
	              t->label, what, len,
	              c->mode == CH_ONESHOT ? "lf_poly1305" :
	              c->mode == CH_ONE_UPDATE ? "init/one update/final" : "init/updates/final",
	              c->mode == CH_LIST && c->nchunks ? ", split" : "", a, b);
	ck_assert_msg(len == 0 || memcmp(m, msg, len) == 0, "%s: %s: the message was modified",
	              t->label, what);
	ck_assert_msg(memcmp(k, key, 32) == 0, "%s: %s: the key was modified", t->label, what);
	tb_check(&gm, t->label, "message", what);
	tb_check(&gk, t->label, "key", what);
	tb_check(&gt, t->label, "tag", what);
	tb_free(&gm);
	tb_free(&gk);
	tb_free(&gt);
	cov_add(t, kind, 1);
}

/* The same without guard pages (plain heap buffers at a random offset), for the bulk loops:
 * tag by one-shot, one update, or random chunks of up to `maxchunk` bytes. */
static void api_fast(const struct tvar *t, enum cov_kind kind, const char *what, rng_t *rng,
                     const uint8_t key[32], const uint8_t *msg, size_t len, int mode,
                     size_t maxchunk, const uint8_t want[16])
{
	static lf_poly1305_state st;
	uint8_t tg[16];
	char a[33], b[33], how[48];
	crash_note(t->label, what, len);
	if (mode == 0) {
		lf_poly1305(tg, msg, len, key);
		snprintf(how, sizeof how, "lf_poly1305");
	} else if (mode == 1) {
		lf_poly1305_init(&st, key);
		lf_poly1305_update(&st, msg, len);
		lf_poly1305_final(&st, tg);
		snprintf(how, sizeof how, "one update");
	} else {
		size_t off = 0, n = 0;
		lf_poly1305_init(&st, key);
		while (off < len) {
			size_t c = (size_t)(rng_next(rng) % (maxchunk + 1));
			if (c > len - off)
				c = len - off;
			lf_poly1305_update(&st, msg + off, c);
			off += c;
			n++;
		}
		lf_poly1305_final(&st, tg);
		snprintf(how, sizeof how, "%zu updates of <= %zu bytes", n, maxchunk);
	}
	if (memcmp(tg, want, 16) != 0) {
		hex(a, tg, 16);
		hex(b, want, 16);
		ck_abort_msg("%s: %s, len %zu (%s): tag %s, want %s", t->label, what, len, how, a, b);
	}
	cov_add(t, kind, 1);
}

/* ---- direct kernel calls -------------------------------------------------------------------- */
static void words_hex(char *out, size_t n, const uint64_t w[3])
{
	snprintf(out, n, "%llx:%016llx:%016llx", (unsigned long long)w[2],
	         (unsigned long long)w[1], (unsigned long long)w[0]);
}

/* Fill a context: h, r, no table (ctx[5] = `layout`, the table words garbage). */
static void ctx_set(uint64_t *ctx, const uint64_t h[3], const uint64_t r[2], uint64_t layout)
{
	ctx[0] = h[0], ctx[1] = h[1], ctx[2] = h[2];
	ctx[3] = r[0], ctx[4] = r[1];
	ctx[5] = layout;
	ctx[6] = ctx[7] = 0;
	for (size_t i = 8; i < CTXW; i++)
		ctx[i] = UINT64_C(0xdeadbeefcafe0000) ^ (i * UINT64_C(0x0101010101010101));
}

/* After a call: h2 <= 4, r and ctx[6..7] untouched, h congruent to `want`. */
static void ctx_check(const struct tvar *t, const char *what, const uint64_t *ctx,
                      const uint64_t r[2], const uint64_t want[3], size_t nblocks,
                      uint64_t pad)
{
	uint64_t got[3];
	char a[64], b[64];
	ck_assert_msg(ctx[2] <= 4, "%s: %s (nblocks %zu, pad %llu): h2 = %llu > 4 on exit",
	              t->label, what, nblocks, (unsigned long long)pad,
	              (unsigned long long)ctx[2]);
	ck_assert_msg(ctx[3] == r[0] && ctx[4] == r[1], "%s: %s: r (ctx[3..4]) was modified",
	              t->label, what);
	ck_assert_msg(ctx[6] == 0 && ctx[7] == 0, "%s: %s: ctx[6..7] were modified", t->label,
	              what);
	or_p1305_mod_p(got, ctx, 3);
	if (memcmp(got, want, sizeof got) != 0) {
		words_hex(a, sizeof a, got);
		words_hex(b, sizeof b, want);
		ck_abort_msg("%s: %s (nblocks %zu, pad %llu): h = %s mod p, want %s", t->label, what,
		             nblocks, (unsigned long long)pad, a, b);
	}
}

/* One direct call of the variant: ctx (64-byte aligned) and m placed as `cplace`, `mplace`
 * say (struct tbuf: against a guard page or between canaries), no powers table (ctx[5] = 0,
 * the table words garbage).  `want` NULL: the GMP block function. */
static void kcall(const struct tvar *t, enum cov_kind kind, const char *what,
                  const uint64_t h[3], const uint64_t r[2], const uint8_t *msg, size_t nblocks,
                  uint64_t pad, const uint64_t *want, enum gb_place mplace, size_t mshift,
                  enum gb_place cplace)
{
	struct tbuf gc, gm;
	uint64_t w[3];
	lf_poly1305_blocks_fn fn = (lf_poly1305_blocks_fn)t->v->fn;
	if (!want) {
		or_p1305_blocks(w, h, r, msg, nblocks, pad);
		want = w;
	}
	uint64_t *ctx = tb_alloc(&gc, CTXW * 8, cplace, 0);
	ck_assert_msg(((uintptr_t)ctx & 63) == 0, "test bug: ctx not 64-byte aligned");
	ctx_set(ctx, h, r, 0);
	uint8_t *m = tb_alloc(&gm, 16 * nblocks, mplace, mshift);
	if (nblocks)
		memcpy(m, msg, 16 * nblocks);
	crash_note(t->label, what, nblocks);
	fn(ctx, nblocks ? m : NULL, nblocks, pad);
	ctx_check(t, what, ctx, r, want, nblocks, pad);
	ck_assert_msg(nblocks == 0 || memcmp(m, msg, 16 * nblocks) == 0,
	              "%s: %s: the message was modified", t->label, what);
	tb_check(&gc, t->label, "ctx", what);
	tb_check(&gm, t->label, "m", what);
	tb_free(&gc);
	tb_free(&gm);
	cov_add(t, kind, 1);
}

static void kcall_mid(const struct tvar *t, enum cov_kind kind, const char *what,
                      const uint64_t h[3], const uint64_t r[2], const uint8_t *msg,
                      size_t nblocks, uint64_t pad)
{
	kcall(t, kind, what, h, r, msg, nblocks, pad, NULL, GB_MID, 0, GB_MID);
}

static void pick_h(rng_t *g, uint64_t h[3])
{
	h[0] = rng_next(g);
	h[1] = rng_next(g);
	h[2] = rng_next(g) % 5;
}

static void pick_r(rng_t *g, uint64_t r[2])
{
	r[0] = rng_next(g) & CL0;
	r[1] = rng_next(g) & CL1;
}

/* ---- the tests ------------------------------------------------------------------------------ */
/* The oracles against the RFC's and Python's answers, and against each other. */
START_TEST(test_oracles)
{
	uint8_t tag[16];
	char a[33], b[33];
	printf("poly1305: oracles: %s\n", or_p1305_names());
	fflush(stdout);
	for (size_t i = 0; i < NLEN(kat_p1305_mac); i++) {
		const struct kat_p1305_mac *v = &kat_p1305_mac[i];
		const uint8_t *key = KB(v->key), *msg = KB(v->msg);
		void (*const fns[3])(uint8_t *, const uint8_t *, size_t, const uint8_t *) = {
			or_p1305_gmp, or_p1305_have_openssl() ? or_p1305_openssl : NULL,
			or_p1305_have_sodium() ? or_p1305_sodium : NULL };
		static const char *const names[3] = { "GMP", "OpenSSL", "libsodium" };
		for (int o = 0; o < 3; o++) {
			if (!fns[o])
				continue;
			fns[o](tag, msg, v->len, key);
			hex(a, tag, 16);
			hex(b, v->tag, 16);
			ck_assert_msg(memcmp(tag, v->tag, 16) == 0, "oracle %s on vector %zu (%s, len "
			              "%zu): %s, the vector says %s", names[o], i, v->what, v->len, a, b);
		}
	}
	/* the block-function oracle against Python's values */
	for (size_t i = 0; i < NLEN(kat_p1305_blocks); i++) {
		const struct kat_p1305_blocks *v = &kat_p1305_blocks[i];
		uint64_t got[3];
		or_p1305_blocks(got, v->h, v->r, KB(v->msg), v->nblocks, v->pad);
		ck_assert_msg(memcmp(got, v->want, sizeof got) == 0, "GMP block oracle on vector "
		              "%zu (%s) disagrees with Python", i, v->what);
	}
	/* the 5 x 26 limb reader against Python */
	for (size_t i = 0; i < NLEN(kat_p1305_jdk); i++) {
		const struct kat_p1305_jdk *v = &kat_p1305_jdk[i];
		uint64_t got[3];
		if (!v->has_java)
			continue;
		or_p1305_limbs26_mod_p(got, v->java);
		ck_assert_msg(memcmp(got, v->want, sizeof got) == 0, "GMP limb reader on the JDK "
		              "model's output %zu (%s) disagrees with Python", i, v->what);
	}
	/* the oracles agree with each other on random keys and lengths (where there are two) */
	if (!or_p1305_have_openssl() && !or_p1305_have_sodium())
		return;
	rng_t g;
	rng_init(&g, "p1305-oracles", 0);
	uint8_t *msg = xmalloc(5000), key[32];
	for (int i = 0; i < 400; i++) {
		size_t len = (size_t)(rng_next(&g) % (i < 300 ? 300 : 5000));
		fill_key(&g, key, i % 5);
		fill_msg(&g, msg, len, i % 4);
		or_p1305(tag, msg, len, key, 1);   /* fails on any disagreement */
	}
	free(msg);
}
END_TEST

/* State type: a complete type, 64-byte aligned, ctx first, sized in whole lines. */
START_TEST(test_state_layout)
{
	ck_assert_uint_eq(_Alignof(lf_poly1305_state), 64);
	ck_assert_uint_eq(offsetof(lf_poly1305_state, ctx), 0);
	ck_assert_uint_eq(sizeof(lf_poly1305_state) % 64, 0);
	ck_assert_uint_ge(sizeof(((lf_poly1305_state *)0)->ctx), CTXW * 8);
	printf("poly1305: sizeof(lf_poly1305_state) = %zu, alignment %zu\n",
	       sizeof(lf_poly1305_state), (size_t)_Alignof(lf_poly1305_state));
	fflush(stdout);
}
END_TEST

/* A state that is only 16-byte aligned (plain malloc) gives right tags through every variant
 * (the kernels use unaligned vector loads of the powers); so does a copied state. Below 16,
 * the C code itself may not cope (the compiler may use aligned vector stores on the type). */
START_TEST(test_state_misaligned_and_copied)
{
	rng_t g;
	rng_init(&g, "p1305-misaligned", 0);
	unsigned char *raw = aligned_alloc(64, 2 * sizeof(lf_poly1305_state) + 64);
	uint8_t key[32], msg[3000], tag[16], want[16];
	ck_assert_ptr_nonnull(raw);
	for (size_t v = 0; v < tv_runnable_count(KID); v++)
	for (size_t off = 16; off < 64; off += 16) {
		lf_poly1305_state *st = (lf_poly1305_state *)(void *)(raw + off);
		force(tv_runnable(KID, v));
		for (int i = 0; i < 12; i++) {
			size_t len = (size_t)(rng_next(&g) % sizeof msg);
			fill_key(&g, key, i % 5);
			fill_msg(&g, msg, len, i % 4);
			or_p1305(want, msg, len, key, 0);
			lf_poly1305_init(st, key);
			lf_poly1305_update(st, msg, len / 3);
			lf_poly1305_update(st, msg + len / 3, len - len / 3);
			lf_poly1305_final(st, tag);
			ck_assert_msg(memcmp(tag, want, 16) == 0, "%s: state at offset %zu mod 64: "
			              "wrong tag (len %zu)", tv_runnable(KID, v)->label, off, len);
		}
		unforce();
	}
	/* copy a state between updates (to an aligned place) and finish both */
	lf_poly1305_state *s1 = (lf_poly1305_state *)(void *)raw;
	lf_poly1305_state *s2 = (lf_poly1305_state *)(void *)(raw + sizeof(lf_poly1305_state));
	ck_assert_uint_eq((uintptr_t)s2 % 64, 0);
	for (int i = 0; i < 20; i++) {
		size_t len = 300 + (size_t)(rng_next(&g) % 2000), cut = (size_t)(rng_next(&g) % 300);
		fill_key(&g, key, 0);
		fill_msg(&g, msg, len, 0);
		or_p1305(want, msg, len, key, 0);
		lf_poly1305_init(s1, key);
		lf_poly1305_update(s1, msg, cut);
		memcpy(s2, s1, sizeof *s1);
		lf_poly1305_update(s1, msg + cut, len - cut);
		lf_poly1305_update(s2, msg + cut, len - cut);
		lf_poly1305_final(s1, tag);
		ck_assert_msg(memcmp(tag, want, 16) == 0, "original state: wrong tag");
		lf_poly1305_final(s2, tag);
		ck_assert_msg(memcmp(tag, want, 16) == 0, "copied state: wrong tag");
	}
	free(raw);
}
END_TEST

/* Known answers: RFC 8439 and the Python vectors, through the API (one-shot, byte at a time,
 * 15 + 1 + rest) and, for the block vectors, directly; the JDK vectors through
 * lf_poly1305_jdk_blocks. */
static void jdk_check(const struct tvar *t, enum cov_kind kind, const char *what,
                      const int64_t acc_in[5], const int64_t r[5], const uint8_t *msg, size_t len,
                      const uint64_t want[3], const int64_t *java, int guarded);

static void kat(const struct tvar *t)
{
	force(t);
	static size_t bytewise[4096];
	for (size_t i = 0; i < NLEN(bytewise); i++)
		bytewise[i] = 1;
	for (size_t i = 0; i < NLEN(kat_p1305_mac); i++) {
		const struct kat_p1305_mac *v = &kat_p1305_mac[i];
		const uint8_t *key = KB(v->key), *msg = KB(v->msg);
		struct call c = ONESHOT;
		c.mplace = c.tplace = GB_END;
		api_tag(t, COV_KAT, v->what, key, msg, v->len, &c, v->tag);
		c = ONESHOT;
		c.mode = CH_ONE_UPDATE;
		api_tag(t, COV_KAT, v->what, key, msg, v->len, &c, v->tag);
		c.mode = CH_LIST;
		if (v->len <= NLEN(bytewise)) {
			c.chunks = bytewise;
			c.nchunks = v->len;
			api_tag(t, COV_KAT, v->what, key, msg, v->len, &c, v->tag);
		}
		if (v->len >= 16) {
			size_t ch[3] = { 15, 1, v->len - 16 };
			c.chunks = ch;
			c.nchunks = 3;
			api_tag(t, COV_KAT, v->what, key, msg, v->len, &c, v->tag);
		}
	}
	for (size_t i = 0; i < NLEN(kat_p1305_blocks); i++) {
		const struct kat_p1305_blocks *v = &kat_p1305_blocks[i];
		kcall(t, COV_KAT, v->what, v->h, v->r, KB(v->msg), v->nblocks, v->pad, v->want,
		      i % 2 ? GB_END : GB_MID, 0, GB_MID);
	}
	for (size_t i = 0; i < NLEN(kat_p1305_jdk); i++) {
		const struct kat_p1305_jdk *v = &kat_p1305_jdk[i];
		jdk_check(t, COV_KAT, v->what, v->acc, v->r, KB(v->msg), v->len, v->want,
		          v->has_java ? v->java : NULL, 1);
	}
	unforce();
}

/* lf_poly1305_jdk_blocks with the variant forced; acc, r and in guarded (against PROT_NONE
 * pages) or between canaries.  Checks: the value
 * mod p, limbs 0-3 in [0, 2^26), limb 4 in [0, 5 * 2^24), congruent to the Java model's
 * output when given, and len < 16 leaving acc bit for bit. */
static void jdk_check(const struct tvar *t, enum cov_kind kind, const char *what,
                      const int64_t acc_in[5], const int64_t r[5], const uint8_t *msg, size_t len,
                      const uint64_t want[3], const int64_t *java, int guarded)
{
	struct tbuf ga, gr, gm;
	uint64_t got[3], w[3];
	char a[64], b[64];
	int64_t *acc = tb_alloc(&ga, 40, guarded ? GB_END : GB_MID, 0);
	int64_t *rp = tb_alloc(&gr, 40, guarded ? GB_START : GB_MID, 0);
	uint8_t *m = tb_alloc(&gm, len, guarded ? GB_END : GB_MID, 0);
	memcpy(acc, acc_in, 40);
	memcpy(rp, r, 40);
	if (len)
		memcpy(m, msg, len);
	if (!want) {
		uint64_t h[3], rw[3];
		or_p1305_limbs26_mod_p(h, acc_in);
		or_p1305_limbs26_mod_p(rw, r);      /* r < 2^128 < p: its exact value */
		or_p1305_blocks(w, h, rw, msg, len / 16, 1);
		want = w;
	}
	crash_note(t->label, what, len);
	lf_poly1305_jdk_blocks(len ? m : NULL, len, acc, rp);
	if (len < 16) {
		ck_assert_msg(memcmp(acc, acc_in, 40) == 0, "%s: jdk_blocks %s: len %zu < 16 changed "
		              "acc", t->label, what, len);
	} else {
		for (int i = 0; i < 4; i++)
			ck_assert_msg(acc[i] >= 0 && acc[i] < (INT64_C(1) << 26), "%s: jdk_blocks %s "
			              "(len %zu): limb %d = %lld, not in [0, 2^26)", t->label, what, len,
			              i, (long long)acc[i]);
		ck_assert_msg(acc[4] >= 0 && acc[4] < 5 * (INT64_C(1) << 24), "%s: jdk_blocks %s "
		              "(len %zu): limb 4 = %lld, not in [0, 5 * 2^24)", t->label, what, len,
		              (long long)acc[4]);
	}
	or_p1305_limbs26_mod_p(got, acc);
	if (memcmp(got, want, sizeof got) != 0) {
		words_hex(a, sizeof a, got);
		words_hex(b, sizeof b, want);
		ck_abort_msg("%s: jdk_blocks %s (len %zu): acc = %s mod p, want %s", t->label, what,
		             len, a, b);
	}
	if (java) {
		uint64_t jv[3];
		or_p1305_limbs26_mod_p(jv, java);
		ck_assert_msg(memcmp(got, jv, sizeof jv) == 0, "%s: jdk_blocks %s: not congruent to "
		              "the Java model's limbs", t->label, what);
	}
	ck_assert_msg(memcmp(rp, r, 40) == 0, "%s: jdk_blocks %s: r was modified", t->label, what);
	ck_assert_msg(len == 0 || memcmp(m, msg, len) == 0, "%s: jdk_blocks %s: input modified",
	              t->label, what);
	tb_check(&ga, t->label, "acc", what);
	tb_check(&gr, t->label, "r", what);
	tb_check(&gm, t->label, "in", what);
	tb_free(&ga);
	tb_free(&gr);
	tb_free(&gm);
	cov_add(t, kind, 1);
}

/* Random JDK-style accumulators, r and lengths against GMP (limbs as Java keeps them, limb 4
 * a few bits over 2^26, and larger ones the API reads exactly). */
static void jdk_random(const struct tvar *t)
{
	rng_t g;
	rng_init(&g, t->label, 71);
	uint8_t *msg = xmalloc(16 * 300 + 15);
	force(t);
	for (int i = 0; i < 300; i++) {
		int64_t acc[5], r[5];
		uint64_t rv[2];
		int bits = i % 4 == 0 ? 26 : i % 4 == 1 ? 27 : i % 4 == 2 ? 28 : 40;
		for (int j = 0; j < 5; j++)
			acc[j] = (int64_t)(rng_next(&g) >> (64 - (j == 4 && bits == 26 ? 27 : bits)));
		if (i % 7 == 0)
			for (int j = 0; j < 4; j++)
				acc[j] = (INT64_C(1) << 26) - 1;
		pick_r(&g, rv);
		if (i % 5 == 0)
			rv[0] = CL0, rv[1] = CL1;
		for (int j = 0; j < 5; j++) {      /* bits 26j .. 26j+25 of r1:r0 */
			unsigned bit = 26 * (unsigned)j;
			uint64_t x = bit >= 64 ? rv[1] >> (bit - 64)
			                       : (rv[0] >> bit) | (bit ? rv[1] << (64 - bit) : 0);
			r[j] = (int64_t)(x & ((UINT64_C(1) << 26) - 1));
		}
		size_t len = (size_t)(rng_next(&g) % 300) * 16;
		if (i % 3 == 0)
			len += (size_t)(rng_next(&g) % 16);     /* trailing bytes: ignored */
		if (i < 40)
			len = 16 * (size_t)i;
		fill_msg(&g, msg, len, i % 4);
		jdk_check(t, COV_API, "random accumulator", acc, r, msg, len, NULL, NULL, i % 10 == 0);
	}
	/* the kernel's h at 2^130 and above: with r = 4, acc = 0 and one block of 0xff, the
	 * radix-2^64 step gives x = 2^129 - 1, 4x = 2^64 - 4 + (2^64 - 1) 2^64 + 7 2^128, and the
	 * partial reduction carries 5 through a full h1: h = 1 + 4 2^128 (h2 = 4, the largest
	 * the kernels leave).  The way out folds it again: acc = 6. */
	{
		static const int64_t zero[5] = { 0, 0, 0, 0, 0 }, four[5] = { 4, 0, 0, 0, 0 };
		memset(msg, 0xff, 16);
		jdk_check(t, COV_API, "kernel h2 = 4 on the way out", zero, four, msg, 16, NULL, NULL,
		          0);
	}
	free(msg);
	unforce();
}

/* Edge-value lattice: h, r and blocks from edge words, directly; the largest clamped r with
 * all-0xff messages, r in {0, 1, 2}, s all ones / zero through the API. */
static void lattice(const struct tvar *t)
{
	static const uint64_t hw[] = { 0, 1, 2, UINT64_C(1) << 63, M64 - 5, M64 - 4, M64 - 1, M64 };
	static const uint64_t rw0[] = { 0, 1, 2, 4, CL0, CL0 & ~UINT64_C(0xffffffff), 0x0fffffff };
	static const uint64_t rw1[] = { 0, 4, CL1, CL1 & ~UINT64_C(0xffffffff), 0x0ffffffc };
	static const size_t nbs[] = { 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, 65 };
	uint8_t blk[16 * 65], key[32], *msg = xmalloc(2100);
	rng_t g;
	rng_init(&g, t->label, 72);
	for (size_t hi = 0; hi < NLEN(hw); hi++) {
		for (size_t hj = 0; hj < NLEN(hw); hj++) {
			for (uint64_t h2 = 0; h2 <= 4; h2++) {
				uint64_t h[3] = { hw[hi], hw[hj], h2 };
				uint64_t r[2] = { rw0[(hi + hj + h2) % NLEN(rw0)],
				                  rw1[(hi * 3 + hj + h2) % NLEN(rw1)] };
				size_t nb = nbs[(hi * 5 + hj * 3 + h2) % NLEN(nbs)];
				for (size_t b = 0; b < nb; b++) {
					store_le(blk + 16 * b, hw[(hi + b) % NLEN(hw)]);
					store_le(blk + 16 * b + 8, hw[(hj + 3 * b + h2) % NLEN(hw)]);
				}
				kcall_mid(t, COV_LATTICE, "edge lattice of h, r and blocks", h, r, blk, nb,
				          1);
				kcall_mid(t, COV_LATTICE, "edge lattice, pad 0", h, r, blk, 1, 0);
			}
		}
	}
	/* the largest h the contract allows, the largest clamped r, all-ones blocks */
	{
		uint64_t h[3] = { M64, M64, 4 }, r[2] = { CL0, CL1 };
		memset(blk, 0xff, sizeof blk);
		for (size_t b = 0; b <= 65; b++) {
			kcall_mid(t, COV_LATTICE, "h = 5*2^128-1, max r, all-0xff blocks", h, r, blk, b,
			          1);
			kcall_mid(t, COV_LATTICE, "h = 5*2^128-1, max r, all-0xff blocks, pad 0", h, r,
			          blk, b, 0);
		}
		for (size_t ri = 0; ri < NLEN(rw0); ri++)
			for (size_t rj = 0; rj < NLEN(rw1); rj++) {
				uint64_t r2[2] = { rw0[ri], rw1[rj] };
				kcall_mid(t, COV_LATTICE, "h = 5*2^128-1, edge r, all-0xff blocks", h, r2,
				          blk, 17, 1);
			}
	}
	/* through the API */
	force(t);
	for (size_t len = 0; len <= 2063; len += len < 300 ? 1 : 97) {
		int kind = (int)(len % 6);
		memset(key, 0xff, 16);              /* the largest clamped r */
		if (kind == 1)
			memset(key + 16, 0xff, 16);
		else if (kind == 2)
			memset(key + 16, 0, 16);
		else
			rbytes(&g, key + 16, 16);
		if (kind >= 3) {                     /* r in {0, 1, 2}, s all ones */
			memset(key, 0, 16);
			key[0] = (uint8_t)(kind - 3);
			memset(key + 16, 0xff, 16);
		}
		memset(msg, 0xff, len);
		api_tag(t, COV_LATTICE, kind >= 3 ? "r in {0,1,2}, s all ones, all-0xff message" :
		        "max clamped r, all-0xff message", key, msg, len, &ONESHOT, NULL);
	}
	unforce();
	free(msg);
}

/* Accumulators driven to values at the modulus.  Block by block, m = T r^-1 - (h + 2^128)
 * (mod p) puts the accumulator on T whenever that m is below 2^128 (a 16-byte block); else a
 * random block moves h elsewhere and the next block tries again.  With h = T and the right r,
 * one block value holds h = T after every block (r is chosen for that where it exists; for
 * T = 0 it cannot: m would be -2^128); otherwise roughly every other block lands on T.  Then
 * a last full block and a final partial block of l bytes chosen to land on T as well.  Every
 * target, at every vector width's block count, through the API (s making h + s wrap 2^128 to
 * 0, s all ones, s = 0) and directly (h = T, and T + p where that is below 5 * 2^128, on
 * entry). */
static const uint64_t targets[][3] = {
	{ 0, 0, 0 },                         /* = 2^130 - 5 */
	{ 1, 0, 0 }, { 4, 0, 0 }, { 5, 0, 0 },
	{ M64 - 5, M64, 3 },                 /* 2^130 - 6 */
	{ M64 - 6, M64, 3 },                 /* 2^130 - 7 */
	{ M64, M64, 0 },                     /* 2^128 - 1 */
	{ 0, 0, 1 }, { 4, 0, 1 }, { 5, 0, 1 },   /* 2^128, 2^128 + 4, 2^128 + 5 */
	{ M64, M64, 1 },                     /* 2^129 - 1 */
	{ M64, 0, 3 }, { 0, M64, 3 },        /* one all-ones word */
};
static const char *const target_name[] = {
	"0 (= 2^130-5)", "1", "4", "5", "2^130-6", "2^130-7", "2^128-1", "2^128", "2^128+4",
	"2^128+5", "2^129-1", "3*2^128+2^64-1 (h0 all ones)", "2^130-2^64 (h1 all ones)",
};

/* m with (h + m + 2^128) r = T (mod p); 0 if no such m < 2^128 */
static int block_to(const uint64_t T[3], const uint64_t r[2], const uint64_t h[3],
                    uint8_t blk[16])
{
	uint64_t x[3], z[3];
	static const uint64_t two128[3] = { 0, 0, 1 };
	add3(z, h, two128);
	if (!or_p1305_solve(x, T, r, z) || x[2] != 0)
		return 0;
	store_le(blk, x[0]);
	store_le(blk + 8, x[1]);
	return 1;
}

/* r for which one block value holds h = T, when some r among 200 random ones does */
static void pick_r_for(rng_t *g, const uint64_t T[3], uint64_t r[2])
{
	uint8_t blk[16];
	for (int tries = 0; tries < 200; tries++) {
		pick_r(g, r);
		if (block_to(T, r, T, blk))
			return;
	}
}

/* nb blocks from accumulator h0 trying to land on T after each; returns how many did */
static size_t drive(rng_t *g, const uint64_t T[3], const uint64_t r[2], const uint64_t h0[3],
                    uint8_t *msg, size_t nb, uint64_t hs[][3])
{
	uint64_t h[3];
	size_t hits = 0;
	memcpy(h, h0, sizeof h);
	for (size_t b = 0; b < nb; b++) {
		if (block_to(T, r, h, msg + 16 * b)) {
			hits++;
		} else {
			rbytes(g, msg + 16 * b, 16);
		}
		or_p1305_blocks(h, h, r, msg + 16 * b, 1, 1);
		if (hs)
			memcpy(hs[b + 1], h, sizeof h);
	}
	return hits;
}

/* A last full block (after accumulator hp) and an l-byte chunk after which acc = T:
 * X = T r^-1 - (LE(chunk) + 2^(8l)), block = X r^-1 - (hp + 2^128) < 2^128. */
static int final_pair(rng_t *g, const uint64_t T[3], const uint64_t r[2], const uint64_t hp[3],
                      size_t l, uint8_t blk[16], uint8_t chunk[16])
{
	uint64_t X[3], cw[3];
	for (int tries = 0; tries < 400; tries++) {
		uint8_t cb[24];
		memset(cb, 0, sizeof cb);
		rbytes(g, chunk, l);
		memcpy(cb, chunk, l);
		cb[l] = 1;
		cw[0] = load_le(cb), cw[1] = load_le(cb + 8), cw[2] = load_le(cb + 16);
		if (!or_p1305_solve(X, T, r, cw))
			return 0;
		if (block_to(X, r, hp, blk))
			return 1;
	}
	return 0;
}

static void carries(const struct tvar *t)
{
	static const size_t nbs[] = { 1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 129 };
	static const uint64_t zero3[3] = { 0, 0, 0 };
	uint8_t *msg = xmalloc(16 * 130 + 16), key[32], chunk[16];
	uint64_t (*hs)[3] = xmalloc(131 * sizeof *hs);
	size_t hits = 0, blocks = 0, finals = 0;
	rng_t g;
	rng_init(&g, t->label, 73);
	force(t);
	for (size_t ti = 0; ti < NLEN(targets); ti++) {
		const uint64_t *T = targets[ti];
		uint64_t r[2], Tp[3];
		char what[128];
		pick_r_for(&g, T, r);
		add3(Tp, T, P_W);
		for (size_t ni = 0; ni < NLEN(nbs); ni++) {
			size_t nb = nbs[ni];
			/* directly, h = T on entry, and h = T + p where that is below 5 * 2^128 */
			snprintf(what, sizeof what, "h = %s on entry, driven to it after each block",
			         target_name[ti]);
			hits += drive(&g, T, r, T, msg, nb, NULL);
			blocks += nb;
			kcall_mid(t, COV_CARRY, what, T, r, msg, nb, 1);
			if (Tp[2] <= 4) {
				snprintf(what, sizeof what, "h = %s + p on entry, driven to %s",
				         target_name[ti], target_name[ti]);
				kcall_mid(t, COV_CARRY, what, Tp, r, msg, nb, 1);
			}
			/* through the API from h = 0; the key's r; s making h + s wrap 2^128 to 0,
			 * all ones, 0 */
			hits += drive(&g, T, r, zero3, msg, nb, hs);
			blocks += nb;
			store_le(key, r[0]);
			store_le(key + 8, r[1]);
			for (int si = 0; si < 3; si++) {
				if (si == 0) {
					store_le(key + 16, 0 - T[0]);
					store_le(key + 24, ~T[1] + (T[0] == 0));
				} else {
					memset(key + 16, si == 1 ? 0xff : 0, 16);
				}
				snprintf(what, sizeof what, "acc driven to %s, s %s", target_name[ti],
				         si == 0 ? "= -acc mod 2^128 (tag 0)" :
				         si == 1 ? "all ones" : "0");
				api_tag(t, COV_CARRY, what, key, msg, 16 * nb, &ONESHOT, NULL);
			}
			/* a last full block and a final partial block landing on T */
			size_t l = 1 + (size_t)(rng_next(&g) % 15);
			if (final_pair(&g, T, r, hs[nb - 1], l, msg + 16 * (nb - 1), chunk)) {
				memcpy(msg + 16 * nb, chunk, l);
				finals++;
				for (int si = 0; si < 2; si++) {
					if (si == 0) {
						store_le(key + 16, 0 - T[0]);
						store_le(key + 24, ~T[1] + (T[0] == 0));
					} else {
						memset(key + 16, 0xff, 16);
					}
					snprintf(what, sizeof what, "acc driven to %s, final %zu-byte block "
					         "landing on it, s %s", target_name[ti], l,
					         si ? "all ones" : "= -acc (tag 0)");
					api_tag(t, COV_CARRY, what, key, msg, 16 * nb + l, &ONESHOT, NULL);
					struct call c = ONESHOT;
					size_t ch[2] = { 16 * nb + l - 1, 1 };
					c.mode = CH_LIST;
					c.chunks = ch;
					c.nchunks = 2;
					api_tag(t, COV_CARRY, what, key, msg, 16 * nb + l, &c, NULL);
				}
			}
		}
	}
	ck_assert_msg(2 * hits >= blocks && finals * 2 >= NLEN(targets) * NLEN(nbs), "test bug: "
	              "the accumulators landed on their targets too rarely (%zu of %zu blocks, "
	              "%zu final blocks)", hits, blocks, finals);
	printf("poly1305: %s: accumulator on its target after %zu of %zu blocks, %zu final "
	       "partial blocks landing on it\n", t->label, hits, blocks, finals);
	fflush(stdout);
	unforce();
	free(hs);
	free(msg);
}

/* Every message length 0..2063 = (2W+1) 16 + 15 for W = 64 (W = 16, 32 inside it), one-shot
 * and split (random keys, messages random / all 0xff / edge blocks), the block counts around
 * each vector width with 0, 1 and 15 trailing bytes, and direct calls with every nblocks
 * 0..140 and some long ones. */
static void lengths(const struct tvar *t)
{
	static const size_t nbs[] = { 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256,
	                              257, 1023, 1024, 1025 };
	uint8_t *msg = xmalloc(16 * 1025 + 16), key[32];
	rng_t g;
	rng_init(&g, t->label, 74);
	force(t);
	for (size_t len = 0; len <= (2 * 64 + 1) * 16 + 15; len++) {
		uint8_t want[16];
		fill_key(&g, key, (int)(len % 7 == 3 ? 1 : len % 11 == 5 ? 3 : 0));
		fill_msg(&g, msg, len, (int)(len % 5 == 4 ? 1 : len % 5 == 3 ? 3 : 0));
		or_p1305(want, msg, len, key, len % 64 == 0);
		api_fast(t, COV_LENGTH, "length sweep, one-shot", &g, key, msg, len, 0, 0, want);
		api_fast(t, COV_LENGTH, "length sweep, split", &g, key, msg, len, 1 + (int)(len % 2),
		         100, want);
	}
	for (size_t i = 0; i < NLEN(nbs); i++) {
		for (size_t extra = 0; extra < 16; extra += extra == 0 ? 1 : 14) {
			size_t len = 16 * nbs[i] + extra;
			fill_key(&g, key, 0);
			fill_msg(&g, msg, len, (int)(i % 4));
			api_tag(t, COV_LENGTH, "block counts around the vector widths", key, msg, len,
			        &ONESHOT, NULL);
			struct call c = ONESHOT;
			c.mode = CH_ONE_UPDATE;
			api_tag(t, COV_LENGTH, "block counts around the vector widths", key, msg, len,
			        &c, NULL);
		}
	}
	unforce();
	for (size_t nb = 0; nb <= 140; nb++) {
		uint64_t h[3], r[2];
		pick_h(&g, h);
		pick_r(&g, r);
		fill_msg(&g, msg, 16 * nb, (int)(nb % 4));
		kcall_mid(t, COV_LENGTH, "nblocks sweep", h, r, msg, nb, nb % 5 == 4 ? 0 : 1);
	}
	for (size_t i = 0; i < NLEN(nbs); i++) {
		uint64_t h[3], r[2];
		pick_h(&g, h);
		pick_r(&g, r);
		fill_msg(&g, msg, 16 * nbs[i], (int)(i % 4));
		kcall_mid(t, COV_LENGTH, "long nblocks", h, r, msg, nbs[i], 1);
	}
	free(msg);
}

/* Split updates: 1 + rest, 15 + 1 + rest, 16 + rest, rest - 1 + 1, byte at a time against
 * one call, random chunkings, the JDK fuzz test's 1..15-byte priming then random updates,
 * and many updates of 256..4096 bytes. */
static void splits(const struct tvar *t)
{
	static const size_t lens[] = { 0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 100,
	                               127, 128, 129, 255, 256, 257, 300, 511, 512, 513, 1000,
	                               1023, 1024, 1025, 2063, 4095, 4096 };
	size_t *ch = xmalloc(5000 * sizeof *ch);
	uint8_t *msg = xmalloc(BIGMSG), key[32], want[16];
	rng_t g;
	rng_init(&g, t->label, 75);
	force(t);
	for (size_t li = 0; li < NLEN(lens); li++) {
		size_t len = lens[li];
		struct call c = ONESHOT;
		c.mode = CH_LIST;
		c.chunks = ch;
		fill_key(&g, key, (int)(li % 5));
		fill_msg(&g, msg, len, (int)(li % 4));
		or_p1305(want, msg, len, key, 1);
		for (int mode = 0; mode < 8; mode++) {
			size_t n = 0, off = 0;
			const char *what = "";
			switch (mode) {
			case 0:
				what = "1 byte, then the rest";
				ch[n++] = len ? 1 : 0;
				ch[n++] = len ? len - 1 : 0;
				break;
			case 1:
				what = "15 + 1 bytes, then the rest";
				if (len < 16)
					continue;
				ch[n++] = 15, ch[n++] = 1, ch[n++] = len - 16;
				break;
			case 2:
				what = "16 bytes, then the rest";
				if (len < 16)
					continue;
				ch[n++] = 16, ch[n++] = len - 16;
				break;
			case 3:
				what = "all but 1 byte, then 1";
				if (len < 1)
					continue;
				ch[n++] = len - 1, ch[n++] = 1;
				break;
			case 4:
				what = "byte at a time";
				for (size_t i = 0; i < len; i++)
					ch[n++] = 1;
				break;
			case 5:
				what = "random chunks of 0..70 bytes";
				while (off < len) {
					size_t x = (size_t)(rng_next(&g) % 71);
					x = x > len - off ? len - off : x;
					ch[n++] = x, off += x;
				}
				break;
			case 6:
				what = "random chunks of 0..600 bytes";
				while (off < len) {
					size_t x = (size_t)(rng_next(&g) % 601);
					x = x > len - off ? len - off : x;
					ch[n++] = x, off += x;
				}
				break;
			default:
				what = "empty updates between 3-byte ones";
				while (off < len) {
					size_t x = len - off < 3 ? len - off : 3;
					ch[n++] = 0, ch[n++] = x, off += x;
				}
				break;
			}
			c.nchunks = n;
			c.mplace = mode == 1 || mode == 4 ? GB_END : GB_MID;
			api_tag(t, COV_API, what, key, msg, len, &c, want);
		}
	}
	/* the JDK fuzz test: random key, length in [128, 4096), slow (byte at a time) against fast
	 * (priming 1..15 bytes, then random updates); both must give the oracle's tag */
	for (int i = 0; i < 300; i++) {
		size_t len = 128 + (size_t)(rng_next(&g) % (4096 - 128)), n = 0, off = 0;
		fill_key(&g, key, 0);
		fill_msg(&g, msg, len, i % 4);
		or_p1305(want, msg, len, key, i % 16 == 0);
		api_fast(t, COV_API, "JDK fuzz: byte at a time", &g, key, msg, len, 2, 1, want);
		if (i % 2) {
			ch[n++] = 1 + (size_t)(rng_next(&g) % 15);
			off = ch[0];
		}
		while (off < len) {
			size_t x = (size_t)(rng_next(&g) % (len / 2 + 1));
			x = x > len - off ? len - off : x;
			ch[n++] = x, off += x;
		}
		lf_poly1305_state st;
		uint8_t tag[16];
		lf_poly1305_init(&st, key);
		off = 0;
		for (size_t j = 0; j < n; j++) {
			lf_poly1305_update(&st, msg + off, ch[j]);
			off += ch[j];
		}
		lf_poly1305_final(&st, tag);
		ck_assert_msg(memcmp(tag, want, 16) == 0, "%s: JDK fuzz trial %d (len %zu, %zu "
		              "updates%s): wrong tag", t->label, i, len, n, i % 2 ? ", primed" : "");
		cov_add(t, COV_API, 1);
	}
	/* many updates of 256..4096 bytes */
	for (int i = 0; i < 12; i++) {
		size_t len = 0, n = 0;
		while (n < 30) {
			size_t x = 256 + (size_t)(rng_next(&g) % (4096 - 256 + 1));
			if (len + x > BIGMSG)
				break;
			ch[n++] = x, len += x;
		}
		fill_key(&g, key, i % 5);
		fill_msg(&g, msg, len, i % 4);
		struct call c = ONESHOT;
		c.mode = CH_LIST;
		c.chunks = ch;
		c.nchunks = n;
		api_tag(t, COV_API, "many updates of 256..4096 bytes", key, msg, len, &c, NULL);
	}
	unforce();
	free(msg);
	free(ch);
}

/* The ctx[5] protocol of the vector variants, directly: chained calls on one context; a new r
 * with ctx[5] = 0 over a stale table; a garbage layout id; every runnable variant alternating
 * with this one on one context. */
static void tables(const struct tvar *t)
{
	/* 16 and 24 blocks build only part of a table where a chunk is longer (ifma with 4 chains:
	 * the last group's powers), 64 then completes it */
	static const size_t chain[] = { 1, 0, 16, 24, 3, 64, 129, 0, 17, 256, 2, 33, 1024, 5 };
	uint8_t *msg = xmalloc(16 * 1024);
	uint64_t *ctx = aligned_alloc(64, CTXW * 8), h[3], r[2], want[3];
	rng_t g;
	rng_init(&g, t->label, 76);
	lf_poly1305_blocks_fn fn = (lf_poly1305_blocks_fn)t->v->fn;
	ck_assert_ptr_nonnull(ctx);
	for (int round = 0; round < 4; round++) {
		pick_h(&g, h);
		pick_r(&g, r);
		ctx_set(ctx, h, r, round == 3 ? UINT64_C(0xfeedfacecafebeef) : 0);
		memcpy(want, h, sizeof want);
		for (size_t i = 0; i < NLEN(chain); i++) {
			size_t nb = chain[i];
			uint64_t pad = i == NLEN(chain) - 1 ? 0 : 1;
			if (round == 1 && i == 6) {
				/* a new r: the caller sets ctx[5] = 0; the stale table stays behind */
				pick_r(&g, r);
				ctx[3] = r[0], ctx[4] = r[1], ctx[5] = 0;
			}
			if (round == 2 && i % 4 == 3) {
				/* a new r in the middle without a valid layout: garbage id */
				pick_r(&g, r);
				ctx[3] = r[0], ctx[4] = r[1], ctx[5] = UINT64_C(0xfeedfacecafebeef) ^ i;
			}
			fill_msg(&g, msg, 16 * nb, (int)(i % 4));
			or_p1305_blocks(want, want, r, msg, nb, pad);
			uint64_t saved5 = ctx[5];
			crash_note(t->label, "chained calls on one context", nb);
			fn(ctx, msg, nb, pad);
			if (nb == 0)
				ck_assert_msg(ctx[5] == saved5, "%s: nblocks 0 changed ctx[5]", t->label);
			ctx_check(t, round == 0 ? "chained calls on one context" :
			          round == 1 ? "chained calls, new r with ctx[5] = 0" :
			          round == 2 ? "chained calls, new r with a garbage layout id" :
			                       "chained calls, garbage layout id at the start",
			          ctx, r, want, nb, pad);
			cov_add(t, COV_LATTICE, 1);
		}
	}
	/* alternate with every runnable variant (tables of another layout, or none) */
	for (size_t u = 0; u < tv_runnable_count(KID); u++) {
		const struct tvar *o = tv_runnable(KID, u);
		lf_poly1305_blocks_fn ofn = (lf_poly1305_blocks_fn)o->v->fn;
		pick_h(&g, h);
		pick_r(&g, r);
		ctx_set(ctx, h, r, 0);
		memcpy(want, h, sizeof want);
		for (size_t i = 0; i < NLEN(chain); i++) {
			size_t nb = chain[i];
			fill_msg(&g, msg, 16 * nb, 0);
			or_p1305_blocks(want, want, r, msg, nb, 1);
			(i % 2 ? ofn : fn)(ctx, msg, nb, 1);
			char what[96];
			snprintf(what, sizeof what, "alternating with %s on one context", o->label);
			ctx_check(t, what, ctx, r, want, nb, 1);
			cov_add(t, COV_LATTICE, 1);
		}
	}
	free(ctx);
	free(msg);
}

/* Random keys, lengths and chunkings: total_random() cases spread over the variants. */
static void random_cases(const struct tvar *t)
{
	size_t nv = tv_runnable_count(KID), n = (total_random() + nv - 1) / nv;
	uint8_t *msg = xmalloc(16384 + 64), key[32], want[16];
	rng_t g;
	rng_init(&g, t->label, 77);
	force(t);
	for (size_t i = 0; i < n; i++) {
		uint64_t x = rng_next(&g);
		size_t len;
		if (x % 10 < 6)
			len = (size_t)((x >> 8) % 256);
		else if (x % 10 < 9)
			len = 256 + (size_t)((x >> 8) % 1792);
		else
			len = 2048 + (size_t)((x >> 8) % 14337);
		size_t off = (size_t)((x >> 40) % 64);
		fill_key(&g, key, (x >> 20) % 8 < 5 ? 0 : (int)((x >> 20) % 8 - 3));
		fill_msg(&g, msg + off, len, (x >> 24) % 8 < 5 ? 0 : (int)((x >> 24) % 8 - 4));
		or_p1305(want, msg + off, len, key, i % 64 == 0);
		int mode = (int)((x >> 30) % 5);
		api_fast(t, COV_API, "random key, length and chunking", &g, key, msg + off, len,
		         mode > 2 ? 2 : mode, mode == 4 ? 40 : 700, want);
	}
	printf("poly1305: %s: %zu random (key, length, chunking) cases\n", t->label, n);
	fflush(stdout);
	unforce();
	free(msg);
}

/* Guard pages: the message ending at one / starting right after one (API and direct), the
 * tag, key and state ending at one or starting after one; ctx at both. */
static void guards(const struct tvar *t)
{
	static const size_t lens[] = { 0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65,
	                               127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4111 };
	static const size_t nbs[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64,
	                              65, 127, 128, 129, 257 };
	uint8_t *msg = xmalloc(4111 + 16), key[32];
	rng_t g;
	rng_init(&g, t->label, 78);
	force(t);
	for (size_t li = 0; li < NLEN(lens); li++) {
		size_t len = lens[li];
		fill_key(&g, key, 0);
		fill_msg(&g, msg, len, (int)(li % 4));
		for (int place = GB_START; place <= GB_END; place++) {
			struct call c = ONESHOT;
			c.mplace = (enum gb_place)place;
			c.tplace = c.splace = (enum gb_place)place;
			api_tag(t, COV_GUARD, "guard pages", key, msg, len, &c, NULL);
			c.mode = CH_ONE_UPDATE;
			api_tag(t, COV_GUARD, "guard pages", key, msg, len, &c, NULL);
			size_t ch[3] = { len / 3, 1, 0 };
			if (len) {
				ch[2] = len - len / 3 - 1;
				c.mode = CH_LIST;
				c.chunks = ch;
				c.nchunks = 3;
				api_tag(t, COV_GUARD, "guard pages, three updates", key, msg, len, &c,
				        NULL);
			}
		}
	}
	unforce();
	for (size_t i = 0; i < NLEN(nbs); i++) {
		uint64_t h[3], r[2];
		pick_h(&g, h);
		pick_r(&g, r);
		fill_msg(&g, msg, 16 * nbs[i], (int)(i % 4));
		for (int place = GB_START; place <= GB_END; place++)
			kcall(t, COV_GUARD, "m and ctx at guard pages", h, r, msg, nbs[i], i % 3 ? 1 : 0,
			      NULL, (enum gb_place)place, 0, (enum gb_place)place);
	}
	free(msg);
}

/* The message at every offset 0..63 (API, also after a 1..15-byte priming update so that the
 * kernel sees the message at yet other offsets; and directly). */
static void alignment(const struct tvar *t)
{
	static const size_t lens[] = { 1, 15, 16, 17, 33, 64, 65, 255, 256, 257, 1031 };
	static const size_t nbs[] = { 1, 2, 3, 16, 17, 64, 65 };
	uint8_t *msg = xmalloc(1031 + 64), key[32];
	rng_t g;
	rng_init(&g, t->label, 79);
	force(t);
	for (size_t li = 0; li < NLEN(lens); li++) {
		for (size_t shift = 0; shift < 64; shift++) {
			size_t len = lens[li];
			fill_key(&g, key, 0);
			fill_msg(&g, msg, len, 0);
			struct call c = ONESHOT;
			c.mshift = shift;
			c.mplace = shift % 8 == 1 ? GB_END : GB_MID;
			api_tag(t, COV_ALIGN, "message at offsets 0..63", key, msg, len, &c, NULL);
			size_t prime = 1 + shift % 15, ch[2] = { prime < len ? prime : len, 0 };
			ch[1] = len - ch[0];
			c.mode = CH_LIST;
			c.chunks = ch;
			c.nchunks = 2;
			api_tag(t, COV_ALIGN, "message at offsets 0..63 after a priming update", key, msg,
			        len, &c, NULL);
		}
	}
	unforce();
	for (size_t i = 0; i < NLEN(nbs); i++) {
		for (size_t shift = 0; shift < 64; shift++) {
			uint64_t h[3], r[2];
			pick_h(&g, h);
			pick_r(&g, r);
			fill_msg(&g, msg, 16 * nbs[i], 0);
			kcall(t, COV_ALIGN, "m at offsets 0..63", h, r, msg, nbs[i], 1, NULL,
			      shift % 8 == 1 ? GB_END : GB_MID, shift, GB_MID);
		}
	}
	free(msg);
}

/* Aliasing the API allows (limbforge.h): lf_poly1305's tag over the first or last 16 bytes of
 * the message, or over the key; the key inside the message. */
static void inplace(const struct tvar *t)
{
	uint8_t buf[2100], msg[2100], key[32], want[16], tag[16];
	rng_t g;
	rng_init(&g, t->label, 80);
	force(t);
	for (size_t len = 16; len <= 2063; len += len < 80 ? 1 : 61) {
		fill_key(&g, key, 0);
		fill_msg(&g, msg, len, (int)(len % 4));
		or_p1305(want, msg, len, key, 0);
		/* tag over the first 16 bytes */
		memcpy(buf, msg, len);
		crash_note(t->label, "tag over the message", len);
		lf_poly1305(buf, buf, len, key);
		ck_assert_msg(memcmp(buf, want, 16) == 0 && memcmp(buf + 16, msg + 16, len - 16) == 0,
		              "%s: tag written over the message start (len %zu): wrong", t->label,
		              len);
		/* tag over the last 16 bytes */
		memcpy(buf, msg, len);
		lf_poly1305(buf + len - 16, buf, len, key);
		ck_assert_msg(memcmp(buf + len - 16, want, 16) == 0 &&
		              memcmp(buf, msg, len - 16) == 0,
		              "%s: tag written over the message end (len %zu): wrong", t->label, len);
		/* tag over the key */
		uint8_t k2[32];
		memcpy(k2, key, 32);
		lf_poly1305(k2, msg, len, k2);
		ck_assert_msg(memcmp(k2, want, 16) == 0 && memcmp(k2 + 16, key + 16, 16) == 0,
		              "%s: tag written over the key (len %zu): wrong", t->label, len);
		/* the key is the first 32 bytes of the message */
		if (len >= 32) {
			memcpy(buf, msg, len);
			or_p1305(tag, buf, len, buf, 0);
			uint8_t t2[16];
			lf_poly1305(t2, buf, len, buf);
			ck_assert_msg(memcmp(t2, tag, 16) == 0, "%s: key inside the message (len %zu): "
			              "wrong", t->label, len);
		}
		cov_add(t, COV_INPLACE, 4);
	}
	unforce();
}

/* Length 0: the kernel with nblocks 0 touches nothing (ctx and m in PROT_NONE, NULL); the API
 * with NULL and length 0; lf_poly1305_jdk_blocks with len < 16 reads nothing. */
static void zero(const struct tvar *t)
{
	lf_poly1305_blocks_fn fn = (lf_poly1305_blocks_fn)t->v->fn;
	void *na = gb_noaccess();
	uint8_t key[32], tag[16], want[16];
	rng_t g;
	rng_init(&g, t->label, 81);

	crash_note(t->label, "nblocks 0 with PROT_NONE / NULL pointers", 0);
	fn(na, NULL, 0, 1);
	fn(na, na, 0, 0);
	fn(NULL, NULL, 0, 1);
	cov_add(t, COV_ZERO, 3);
	/* a real context: bit for bit unchanged, even its table words and ctx[5] */
	uint64_t h[3], r[2];
	pick_h(&g, h);
	pick_r(&g, r);
	kcall(t, COV_ZERO, "nblocks 0 between canaries", h, r, NULL, 0, 1, NULL, GB_END, 0,
	      GB_END);
	{
		uint64_t *ctx = aligned_alloc(64, CTXW * 8), copy[CTXW];
		ck_assert_ptr_nonnull(ctx);
		ctx_set(ctx, h, r, UINT64_C(0x1234));
		memcpy(copy, ctx, sizeof copy);
		fn(ctx, na, 0, 1);
		ck_assert_msg(memcmp(copy, ctx, sizeof copy) == 0, "%s: nblocks 0 wrote to ctx",
		              t->label);
		free(ctx);
		cov_add(t, COV_ZERO, 1);
	}

	force(t);
	fill_key(&g, key, 0);
	or_p1305(want, NULL, 0, key, 1);
	ck_assert_msg(memcmp(want, key + 16, 16) == 0, "oracle: the empty message's tag is not s");
	crash_note(t->label, "lf_poly1305 with NULL, 0", 0);
	lf_poly1305(tag, NULL, 0, key);
	ck_assert_msg(memcmp(tag, want, 16) == 0, "%s: lf_poly1305(NULL, 0) wrong", t->label);
	lf_poly1305(tag, na, 0, key);
	ck_assert_msg(memcmp(tag, want, 16) == 0, "%s: lf_poly1305(PROT_NONE, 0) wrong", t->label);
	api_tag(t, COV_ZERO, "empty message", key, NULL, 0, &ONESHOT, want);
	{
		lf_poly1305_state st, copy;
		uint8_t msg[40];
		rbytes(&g, msg, sizeof msg);
		for (size_t pre = 0; pre < 40; pre += 13) {
			lf_poly1305_init(&st, key);
			lf_poly1305_update(&st, msg, pre);
			memcpy(&copy, &st, sizeof st);
			lf_poly1305_update(&st, NULL, 0);
			lf_poly1305_update(&st, na, 0);
			ck_assert_msg(memcmp(&copy, &st, sizeof st) == 0, "%s: update with length 0 "
			              "changed the state", t->label);
			lf_poly1305_final(&st, tag);
			or_p1305(want, msg, pre, key, 0);
			ck_assert_msg(memcmp(tag, want, 16) == 0, "%s: tag after empty updates",
			              t->label);
		}
		cov_add(t, COV_ZERO, 3);
	}
	{
		/* len < 16: acc, r and in are not read (PROT_NONE pointers) */
		lf_poly1305_jdk_blocks(NULL, 0, na, na);
		lf_poly1305_jdk_blocks(na, 15, na, na);
		int64_t acc[5] = { 1, 2, 3, 4, (INT64_C(1) << 26) + 7 }, r5[5] = { 5, 0, 0, 0, 0 };
		uint64_t w[3];
		or_p1305_limbs26_mod_p(w, acc);
		jdk_check(t, COV_ZERO, "len 0", acc, r5, NULL, 0, w, NULL, 1);
		cov_add(t, COV_ZERO, 2);
	}
	unforce();
}

/* ---- the api suite's Poly1305 cases (also run under every LIMBFORGE_CPU mask) -------------- */
void p1305_api_cases(const struct tvar *t, enum cov_kind kind, const char *what)
{
	uint8_t *msg = xmalloc(4200), key[32];
	rng_t g;
	rng_init(&g, t->label, 82);
	for (size_t i = 0; i < KAT_P1305_NRFC; i++) {
		const struct kat_p1305_mac *v = &kat_p1305_mac[i];
		api_tag(t, kind, v->what, KB(v->key), KB(v->msg), v->len, &ONESHOT, v->tag);
	}
	for (size_t len = 0; len <= 4200; len += len < 300 ? 1 : 129) {
		uint8_t want[16];
		fill_key(&g, key, (int)(len % 5));
		fill_msg(&g, msg, len, (int)(len % 4));
		or_p1305(want, msg, len, key, len % 50 == 0);
		api_fast(t, kind, what, &g, key, msg, len, (int)(len % 3), 50, want);
	}
	for (size_t i = 0; i < NLEN(kat_p1305_jdk); i += 3) {
		const struct kat_p1305_jdk *v = &kat_p1305_jdk[i];
		jdk_check(t, kind, v->what, v->acc, v->r, KB(v->msg), v->len, v->want, NULL, 0);
	}
	free(msg);
}

/* ---- registration --------------------------------------------------------------------------- */
#define VTEST(name)                                                                         \
	START_TEST(test_p1305_##name) { name(tv_runnable(KID, (size_t)_i)); }               \
	END_TEST
VTEST(kat)
VTEST(jdk_random)
VTEST(lattice)
VTEST(carries)
VTEST(lengths)
VTEST(splits)
VTEST(tables)
VTEST(random_cases)
VTEST(guards)
VTEST(alignment)
VTEST(inplace)
VTEST(zero)

Suite *suite_poly1305(void)
{
	Suite *s = suite_create("poly1305");
	TCase *tc = tcase_create("oracles_and_state");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, unforce, unforce);
	tcase_add_test(tc, test_oracles);
	tcase_add_test(tc, test_state_layout);
	tcase_add_test(tc, test_state_misaligned_and_copied);
	suite_add_tcase(s, tc);

	tc = tcase_create("variants");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	/* no-fork mode (qemu) shares one process: undo the force, even after a failure */
	tcase_add_checked_fixture(tc, unforce, unforce);
	int n = (int)tv_runnable_count(KID);
	tcase_add_loop_test(tc, test_p1305_zero, 0, n);
	tcase_add_loop_test(tc, test_p1305_kat, 0, n);
	tcase_add_loop_test(tc, test_p1305_lattice, 0, n);
	tcase_add_loop_test(tc, test_p1305_carries, 0, n);
	tcase_add_loop_test(tc, test_p1305_lengths, 0, n);
	tcase_add_loop_test(tc, test_p1305_splits, 0, n);
	tcase_add_loop_test(tc, test_p1305_tables, 0, n);
	tcase_add_loop_test(tc, test_p1305_guards, 0, n);
	tcase_add_loop_test(tc, test_p1305_alignment, 0, n);
	tcase_add_loop_test(tc, test_p1305_inplace, 0, n);
	tcase_add_loop_test(tc, test_p1305_jdk_random, 0, n);
	tcase_add_loop_test(tc, test_p1305_random_cases, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
