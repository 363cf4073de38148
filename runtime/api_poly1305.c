/*
 * api_poly1305.c -- public Poly1305 entry points (RFC 8439 section 2.5) over the
 * poly1305_blocks kernel.  Contracts: limbforge.h.
 *
 * The kernel (gen/lfgen/kernels/poly1305_blocks.py) takes whole 16-byte blocks only and keeps
 * h partially reduced (h = h0 + h1 2^64 + h2 2^128, h2 <= 4); this file does the rest, like
 * the JDK's com.sun.crypto.provider.Poly1305: key clamping, the partial-block buffer (filled
 * first, then all whole blocks of an update in one kernel call, the rest buffered), the final
 * padded block (0x01 then zeros, pad = 0), the full reduction mod 2^130-5, the addition of s
 * mod 2^128, and wiping.  lf_poly1305_jdk_blocks adapts the JDK's 5x26-bit limbs.
 *
 * Constant time: the only branches are on lengths and on the buffer fill level (a function of
 * the lengths); the final reduction selects with masks.
 */
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"

#define CTX_WORDS 136
#define CTX_POWERS 5                     /* ctx word naming the powers table's layout */
#define R0_CLAMP UINT64_C(0x0ffffffc0fffffff)
#define R1_CLAMP UINT64_C(0x0ffffffc0ffffffc)
#define M26 ((UINT64_C(1) << 26) - 1)

static inline uint64_t load64_le(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline void store64_le(uint8_t *p, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

void lf_poly1305_init(lf_poly1305_state *st, const uint8_t key[32])
{
	st->ctx[0] = st->ctx[1] = st->ctx[2] = 0;
	st->ctx[3] = load64_le(key) & R0_CLAMP;
	st->ctx[4] = load64_le(key + 8) & R1_CLAMP;
	st->ctx[CTX_POWERS] = 0;             /* new r: no valid powers table */
	st->ctx[6] = st->ctx[7] = 0;
	st->s[0] = load64_le(key + 16);
	st->s[1] = load64_le(key + 24);
	st->buflen = 0;
}

void lf_poly1305_update(lf_poly1305_state *st, const uint8_t *msg, size_t len)
{
	if (len == 0)
		return;
	size_t have = st->buflen & 15;       /* 0..15; the mask keeps a bad state in bounds */
	if (have) {
		size_t take = 16 - have < len ? 16 - have : len;
		memcpy(st->buf + have, msg, take);
		have += take;
		msg += take;
		len -= take;
		if (have < 16) {
			st->buflen = have;
			return;
		}
		LF_CALL_NOW(poly1305_blocks)(st->ctx, st->buf, 1, 1);
		have = 0;
	}
	size_t nblocks = len / 16;
	if (nblocks) {
		LF_CALL_NOW(poly1305_blocks)(st->ctx, msg, nblocks, 1);
		msg += 16 * nblocks;
		len -= 16 * nblocks;
	}
	if (len)
		memcpy(st->buf, msg, len);
	st->buflen = len;
}

void lf_poly1305_final(lf_poly1305_state *st, uint8_t tag[16])
{
	size_t have = st->buflen & 15;
	if (have) {
		st->buf[have] = 1;
		memset(st->buf + have + 1, 0, 15 - have);
		LF_CALL_NOW(poly1305_blocks)(st->ctx, st->buf, 1, 0);
	}
	uint64_t h0 = st->ctx[0], h1 = st->ctx[1], h2 = st->ctx[2];

	/* h <= 5 2^128 - 1 < 2p (h2 <= 4), so h mod p is h or h - p.  g = h + 5 = h - p + 2^130:
	 * h >= p exactly when g >= 2^130, i.e. g2 >= 4; then h - p = g mod 2^130.  The tag takes
	 * only the low 128 bits, so only g0, g1 are selected, by a mask. */
	uint64_t g0 = h0 + 5, c = g0 < 5;
	uint64_t g1 = h1 + c;
	c = g1 < c;
	uint64_t g2 = h2 + c;
	uint64_t mask = (uint64_t)0 - (g2 >> 2);   /* all ones iff h >= p (g2 <= 5) */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);

	/* tag = (h + s) mod 2^128 */
	uint64_t t0 = h0 + st->s[0];
	c = t0 < h0;
	uint64_t t1 = h1 + st->s[1] + c;
	store64_le(tag, t0);
	store64_le(tag + 8, t1);

	lf_wipe(st, sizeof *st);
}

void lf_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
	lf_poly1305_state st;
	lf_poly1305_init(&st, key);
	lf_poly1305_update(&st, msg, len);
	lf_poly1305_final(&st, tag);         /* wipes st */
}

/* h[0..3) += v 2^bit (0 <= bit < 128), carries propagated through h[2] */
static void add_shifted(uint64_t h[3], uint64_t v, unsigned bit)
{
	unsigned w = bit / 64, b = bit % 64;
	uint64_t lo = v << b, hi = b ? v >> (64 - b) : 0, c;
	h[w] += lo;
	c = h[w] < lo;
	if (w == 0) {
		h[1] += c;
		c = h[1] < c;
		h[1] += hi;
		c += h[1] < hi;
		h[2] += c;
	} else {
		h[2] += c + hi;
	}
}

/* h = sum limb_i 2^(26 i) of five limbs read as unsigned 64-bit, exactly: term i is below
 * 2^(26 i + 64), so the sum is below 2^169 and fits in three words. */
static void from_26(uint64_t h[3], const int64_t l[5])
{
	h[0] = h[1] = h[2] = 0;
	for (unsigned i = 0; i < 5; i++)
		add_shifted(h, (uint64_t)l[i], 26 * i);
}

/* h = h mod 2^130 + 5 (h >> 130): the same value mod p, with h2 = (h2 & 3) + carry <= 4 */
static void reduce_partial(uint64_t h[3])
{
	uint64_t c = (h[2] & ~(uint64_t)3) + (h[2] >> 2);
	h[2] &= 3;
	h[0] += c;
	c = h[0] < c;
	h[1] += c;
	c = h[1] < c;
	h[2] += c;
}

void lf_poly1305_jdk_blocks(const uint8_t *in, size_t len, int64_t acc[5], const int64_t r[5])
{
	size_t nblocks = len / 16;
	if (nblocks == 0)
		return;
	/* the context, 64-byte aligned by hand: some compilers do not realign the stack for an
	 * over-aligned local (gcc for Win64) */
	uint64_t raw[CTX_WORDS + 7], h[3], rr[3];
	uint64_t *ctx = raw + (((uintptr_t)0 - (uintptr_t)raw) & 63) / 8;

	from_26(h, acc);       /* < 2^169 */
	reduce_partial(h);     /* h2 <= 4, as the kernel wants */
	from_26(rr, r);
	ctx[0] = h[0];
	ctx[1] = h[1];
	ctx[2] = h[2];
	ctx[3] = rr[0] & R0_CLAMP;
	ctx[4] = rr[1] & R1_CLAMP;
	ctx[CTX_POWERS] = ctx[6] = ctx[7] = 0;

	LF_CALL_NOW(poly1305_blocks)(ctx, in, nblocks, 1);

	h[0] = ctx[0];
	h[1] = ctx[1];
	h[2] = ctx[2];
	reduce_partial(h);     /* as the JDK's x86 stub: one more round on the way out */
	acc[0] = (int64_t)(h[0] & M26);
	acc[1] = (int64_t)((h[0] >> 26) & M26);
	acc[2] = (int64_t)(((h[0] >> 52) | (h[1] << 12)) & M26);
	acc[3] = (int64_t)((h[1] >> 14) & M26);
	acc[4] = (int64_t)((h[1] >> 40) | (h[2] << 24));

	lf_wipe(raw, sizeof raw);
	lf_wipe(h, sizeof h);
	lf_wipe(rr, sizeof rr);
}
