/*
 * poly1305_ref.c -- portable C reference variant ("ref") of the Poly1305 block function.
 *
 * Operation (RFC 8439 section 2.5.1, whole blocks only): for each 16-byte block m_i of
 * {m, 16 * nblocks}, read as a little-endian 128-bit number, in order,
 *
 *     h = ((h + m_i + pad * 2^128) * r) mod p,        p = 2^130 - 5,
 *
 * with h only partially reduced.
 *
 * Prototype:
 *     void lf_poly1305_blocks_ref(uint64_t *ctx, const uint8_t *m, size_t nblocks,
 *                                 uint64_t pad);
 *
 * Layout of ctx (136 uint64_t; the kernel contract of gen/lfgen/kernels/poly1305_blocks.py):
 *     ctx[0..2]   h0, h1, h2: h = h0 + h1 2^64 + h2 2^128, h2 <= 4 on entry and on exit
 *     ctx[3..4]   r0, r1: the clamped key half r = r0 + r1 2^64
 *     ctx[5]      layout of the powers of r in ctx[8..135] (0 = none); ref neither reads
 *                 nor writes it, nor ctx[6..135]
 * m: nblocks blocks of 16 bytes, any alignment.  pad: 1 for full blocks (2^128 added), 0 for
 * a final partial block that the caller padded with 0x01 and zeros.
 *
 * Preconditions: h2 <= 4 and r clamped (r0 & ~0x0ffffffc0fffffff == 0,
 * r1 & ~0x0ffffffc0ffffffc == 0); other values give a wrong h, never a fault.  pad in {0, 1}.
 * nblocks == 0 touches no memory (ctx is not read, m may be NULL).  ref needs no alignment of
 * ctx (the assembly variants want 64 bytes).
 *
 * Method (radix 2^64, as OpenSSL's poly1305 C code and the JDK's AArch64 stub): clamping
 * makes r0, r1 < 2^60 and r1 = 0 mod 4, so 2^128 r1 = 2^130 (r1/4) = 5 (r1/4) mod p; with
 * s1 = r1 + (r1 >> 2) = 5 r1 / 4 and h = h0 + h1 2^64 + h2 2^128 (h2 <= 6 after the add):
 *
 *     d0 = h0 r0 + h1 s1                      < 2^126
 *     d1 = h0 r1 + h1 r0 + h2 s1 + d0 >> 64   < 2^126
 *     d2 = h2 r0 + d1 >> 64                   < 2^63
 *     h * r = d0 mod 2^64 + (d1 mod 2^64) 2^64 + d2 2^128   (mod p)
 *
 * then the part from 2^130 up, c = d2 >> 2, comes back as 5c = (d2 & ~3) + (d2 >> 2) added
 * to the low words, leaving h2 = (d2 & 3) + carry <= 4.
 * Constant time: no branch or memory address depends on h, r or the message; only on
 * nblocks.  The products are 64x64->128-bit multiplies (lf_umul128) and 64-bit multiplies by
 * the small h2.
 *
 * Source: RFC 8439 section 2.5 (Poly1305), and section 2.5.1 for the block function.
 */
#include "lf_ref.h"

static inline uint64_t load64_le(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

void lf_poly1305_blocks_ref(uint64_t *ctx, const uint8_t *m, size_t nblocks, uint64_t pad)
{
	if (nblocks == 0)
		return;
	uint64_t h0 = ctx[0], h1 = ctx[1], h2 = ctx[2];
	const uint64_t r0 = ctx[3], r1 = ctx[4];
	const uint64_t s1 = r1 + (r1 >> 2);

	for (; nblocks > 0; nblocks--, m += 16) {
		uint64_t m0 = load64_le(m), m1 = load64_le(m + 8), c;

		/* h += m + pad 2^128 */
		h0 += m0;
		c = h0 < m0;
		h1 += c;
		c = h1 < c;
		h1 += m1;
		c += h1 < m1;
		h2 += c + pad;

		/* d = h * r (mod p, 5 r1 / 4 folded in) */
		uint64_t d0l, d0h, d1l, d1h, tl, th;
		lf_umul128(h0, r0, &d0h, &d0l);
		lf_umul128(h1, s1, &th, &tl);
		d0l += tl;
		d0h += th + (d0l < tl);

		lf_umul128(h0, r1, &d1h, &d1l);
		lf_umul128(h1, r0, &th, &tl);
		d1l += tl;
		d1h += th + (d1l < tl);
		tl = h2 * s1;                      /* h2 <= 6, s1 < 2^61 */
		d1l += tl;
		d1h += d1l < tl;
		d1l += d0h;
		d1h += d1l < d0h;

		uint64_t d2 = h2 * r0 + d1h;       /* < 2^63 */

		/* partial reduction: 2^130 = 5 mod p */
		c = (d2 & ~(uint64_t)3) + (d2 >> 2);
		h2 = d2 & 3;
		h0 = d0l + c;
		c = h0 < c;
		h1 = d1l + c;
		c = h1 < c;
		h2 += c;
	}
	ctx[0] = h0;
	ctx[1] = h1;
	ctx[2] = h2;
}
