/*
 * win64_kat.c -- the Win64 flavour at run time (built with mingw-w64, run under wine64).
 *
 * Built from generated/ (the same x86_64 .S files, assembled for x86_64-w64-mingw32) and
 * runtime/, like a Windows consumer would.  For every x86-64 variant this CPU can run:
 *   1. known answers: random and all-ones inputs at the sizes around every size dispatch,
 *      unrolling and tail boundary, in place where allowed, compared with the portable ref
 *      variant; guard words around every buffer must survive;
 *   2. the Microsoft x64 ABI, on every one of those calls (tests/flavours/win64_call.S):
 *      rbx rbp rdi rsi r12-r15 and xmm6-xmm15 preserved, rsp restored, the caller's stack
 *      above the two stack arguments untouched, arguments 5 and 6 taken from the stack;
 *   3. Windows unwinding (SEH: .pdata/.xdata of the entry and of the body): a few calls per
 *      variant run with the trap flag set, and at every instruction of the entry and the
 *      body (and of a sibling body reached by size dispatch) a vectored exception handler
 *      unwinds with RtlLookupFunctionEntry/RtlVirtualUnwind to the caller, which must come
 *      out with the return address, rsp and every nonvolatile register (canaries) it had.
 * (The field products, whose results are not unique, are compared with ref's through the
 * field's encode: canonical bytes; fe_c25519_r51_mul_x4 lane by lane the same way; the
 * ladders projectively through the curve field's C, against RFC 7748 5.2 and ref.)  Then the public API once per kernel through the
 * runtime's dispatcher.
 * Exit status 0 when everything holds.  Faults caught: a missing argument move or a stack
 * argument read at the wrong offset (KAT), a nonvolatile register the entry does not save,
 * a red-zone spill (clobbered by the exception dispatch of the stepped calls), unwind codes
 * that disagree with the prologue or an epilogue Windows does not recognise (unwinding).
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_fields.h"
#include "w64call.h"
#include "../fe_kernels.h"

_Static_assert(offsetof(struct w64_call, args) == W_ARGS, "w64call.h: W_ARGS");
_Static_assert(offsetof(struct w64_call, canary) == W_CANARY, "w64call.h: W_CANARY");
_Static_assert(offsetof(struct w64_call, seen) == W_SEEN, "w64call.h: W_SEEN");
_Static_assert(offsetof(struct w64_call, xcanary) == W_XCANARY, "w64call.h: W_XCANARY");
_Static_assert(offsetof(struct w64_call, xseen) == W_XSEEN, "w64call.h: W_XSEEN");
_Static_assert(offsetof(struct w64_call, flags) == W_FLAGS, "w64call.h: W_FLAGS");
_Static_assert(offsetof(struct w64_call, call_sp) == W_CALL_SP, "w64call.h: W_CALL_SP");
_Static_assert(offsetof(struct w64_call, ret) == W_RET, "w64call.h: W_RET");
_Static_assert(offsetof(struct w64_call, sp_after) == W_SP_AFTER, "w64call.h: W_SP_AFTER");
_Static_assert(offsetof(struct w64_call, guard) == W_GUARD, "w64call.h: W_GUARD");
_Static_assert(sizeof(struct w64_call) == W_SIZE, "w64call.h: W_SIZE");

static const char *const REG[8] = {"rbx", "rbp", "rdi", "rsi", "r12", "r13", "r14", "r15"};

static int failures;
static const char *what;                  /* the call under test, for messages */

static void fail(const char *fmt, ...)
{
	va_list ap;
	if (++failures > 40)
		return;
	printf("FAIL %s: ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ---- single-step unwinding ----------------------------------------------------------- */

static struct w64_call *volatile stepping;  /* the call being single-stepped, or NULL */
static long steps, step_frames[4];

static void check_unwind(const CONTEXT *at)
{
	CONTEXT u = *at;
	struct w64_call *c = stepping;
	int frames = 0;
	while (u.Rip != (DWORD64)(uintptr_t)w64_call_ret) {
		DWORD64 base = 0, frame = 0;
		PVOID data = NULL;
		PRUNTIME_FUNCTION rf = RtlLookupFunctionEntry(u.Rip, &base, NULL);
		if (rf == NULL) {
			fail("at rip %p (%d frames): unwound to %p, which has no unwind entry (.pdata)",
			     (void *)(uintptr_t)at->Rip, frames, (void *)(uintptr_t)u.Rip);
			return;
		}
		if (frames == 1 && base + rf->BeginAddress != c->fn)
			fail("at rip %p: the body unwinds into %p, not into the entry %p",
			     (void *)(uintptr_t)at->Rip,
			     (void *)(uintptr_t)(base + rf->BeginAddress), (void *)(uintptr_t)c->fn);
		RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, u.Rip, rf, &u, &data, &frame, NULL);
		if (++frames > 2) {
			fail("at rip %p: no way back to the caller after 3 frames",
			     (void *)(uintptr_t)at->Rip);
			return;
		}
	}
	step_frames[frames]++;
	const DWORD64 got[8] = {u.Rbx, u.Rbp, u.Rdi, u.Rsi, u.R12, u.R13, u.R14, u.R15};
	if (u.Rsp != c->call_sp)
		fail("at rip %p (%d frames): unwound rsp %#llx, the caller's is %#llx",
		     (void *)(uintptr_t)at->Rip, frames, (unsigned long long)u.Rsp,
		     (unsigned long long)c->call_sp);
	for (int i = 0; i < 8; i++)
		if (got[i] != c->canary[i])
			fail("at rip %p (%d frames): unwound %s = %#llx, the caller's is %#llx",
			     (void *)(uintptr_t)at->Rip, frames, REG[i],
			     (unsigned long long)got[i], (unsigned long long)c->canary[i]);
	const M128A *x = &u.Xmm6;
	for (int i = 0; i < 10; i++)
		if (x[i].Low != c->xcanary[i][0] || (uint64_t)x[i].High != c->xcanary[i][1])
			fail("at rip %p (%d frames): unwound xmm%d differs from the caller's",
			     (void *)(uintptr_t)at->Rip, frames, 6 + i);
}

static LONG CALLBACK on_exception(EXCEPTION_POINTERS *ep)
{
	CONTEXT *ctx = ep->ContextRecord;
	if (ep->ExceptionRecord->ExceptionCode != EXCEPTION_SINGLE_STEP || stepping == NULL)
		return EXCEPTION_CONTINUE_SEARCH;
	if (ctx->Rip == (DWORD64)(uintptr_t)w64_call_ret) {
		ctx->EFlags &= ~0x100u;                 /* back in the caller: stop stepping */
		return EXCEPTION_CONTINUE_EXECUTION;
	}
	steps++;
	check_unwind(ctx);
	ctx->EFlags |= 0x100u;
	return EXCEPTION_CONTINUE_EXECUTION;
}

/* ---- one call through the trampoline ------------------------------------------------- */

static long calls, stepped_calls;

static uint64_t call(lf_fnptr fn, int step, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                     uint64_t a4, uint64_t a5)
{
	struct w64_call c;
	memset(&c, 0, sizeof c);
	c.fn = (uint64_t)(uintptr_t)fn;
	c.args[0] = a0, c.args[1] = a1, c.args[2] = a2;
	c.args[3] = a3, c.args[4] = a4, c.args[5] = a5;
	for (int i = 0; i < 8; i++)
		c.canary[i] = rnd();
	for (int i = 0; i < 10; i++)
		c.xcanary[i][0] = rnd(), c.xcanary[i][1] = rnd();
	c.flags = step ? W_STEP : 0;
	if (step)
		stepping = &c;
	w64_call(&c);
	stepping = NULL;
	calls++;
	stepped_calls += step;
	for (int i = 0; i < 8; i++)
		if (c.seen[i] != c.canary[i])
			fail("%s not preserved (%#llx -> %#llx)", REG[i],
			     (unsigned long long)c.canary[i], (unsigned long long)c.seen[i]);
	for (int i = 0; i < 10; i++)
		if (c.xseen[i][0] != c.xcanary[i][0] || c.xseen[i][1] != c.xcanary[i][1])
			fail("xmm%d not preserved", 6 + i);
	if (c.sp_after != c.call_sp)
		fail("rsp %#llx after the call, %#llx before", (unsigned long long)c.sp_after,
		     (unsigned long long)c.call_sp);
	if (c.guard[0] != W_GUARD_VALUE || c.guard[1] != W_GUARD_VALUE)
		fail("the caller's stack above the stack arguments was written");
	return c.ret;
}

/* ---- buffers with guard words -------------------------------------------------------- */

#define GUARD 4
#define GUARD_WORD 0xa5a5a5a5a5a5a5a5ull

static uint64_t *buf64(size_t n)
{
	if (n > (1u << 20))
		abort();
	uint64_t *p = malloc((n + 2 * GUARD) * sizeof *p);
	for (size_t i = 0; i < n + 2 * GUARD; i++)
		p[i] = GUARD_WORD;
	return p + GUARD;
}

static void check_guards64(const uint64_t *p, size_t n, const char *name)
{
	for (size_t i = 0; i < GUARD; i++)
		if (p[-1 - (long)i] != GUARD_WORD || p[n + i] != GUARD_WORD)
			fail("wrote outside %s[0..%zu)", name, n);
}

static void fill64(uint64_t *p, size_t n, int kind)
{
	for (size_t i = 0; i < n; i++)
		p[i] = kind == 1 ? ~0ull : kind == 2 ? (rnd() & 1 ? ~0ull : rnd()) : rnd();
}

/* ---- per kernel ----------------------------------------------------------------------- */

static const size_t MPN_SIZES[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                   17, 20, 24, 25, 31, 32, 33, 40, 63, 64, 65, 100, 128,
                                   255, 256, 257, 300};
static const size_t BI_SIZES[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                                  32, 33, 34, 40, 47, 48, 49, 63, 64, 65, 100, 127, 128, 129,
                                  200, 255};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* sizes stepped per variant: short ones (size dispatch, tails) and one past every unrolling */
static int stepped(const char *kernel, size_t n)
{
	if (!strcmp(kernel, "bi_mul_add"))
		return n == 5 || n == 41;
	if (!strcmp(kernel, "bi_square_to_len"))
		return n == 5 || n == 21;
	return n == 5 || n == 20;
}

static void test_mpn_1(const char *kernel, lf_fnptr fn, lf_fnptr ref, int add)
{
	for (size_t s = 0; s < COUNT(MPN_SIZES) + 2; s++) {
		size_t n = s < COUNT(MPN_SIZES) ? MPN_SIZES[s] : s == COUNT(MPN_SIZES) ? 5 : 20;
		for (int kind = 0; kind < 4; kind++) {
			int inplace = kind == 3, step = kind == 0 && s >= COUNT(MPN_SIZES) &&
			                                stepped(kernel, n);
			uint64_t *ap = buf64(n), *rp = buf64(n), *rr = buf64(n);
			fill64(ap, n, kind % 3);
			fill64(rp, n, kind % 3);
			uint64_t b = kind == 1 ? ~0ull : rnd();
			memcpy(rr, inplace ? ap : rp, n * 8);
			uint64_t want = add ? ((lf_mpn_addmul_1_fn)ref)(rr, inplace ? rr : ap, n, b)
			                    : ((lf_mpn_mul_1_fn)ref)(rr, inplace ? rr : ap, n, b);
			uint64_t *dst = inplace ? ap : rp;
			uint64_t got = call(fn, step, (uintptr_t)dst, (uintptr_t)ap, n, b, 0, 0);
			if (got != want || memcmp(dst, rr, n * 8))
				fail("n=%zu kind=%d%s: wrong result", n, kind, inplace ? " in place" : "");
			check_guards64(dst, n, "rp");
			free(ap - GUARD), free(rp - GUARD), free(rr - GUARD);
		}
	}
}

static void test_mpn_sqr(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(MPN_SIZES) + 2; s++) {
		size_t n = s < COUNT(MPN_SIZES) ? MPN_SIZES[s] : s == COUNT(MPN_SIZES) ? 5 : 20;
		for (int kind = 0; kind < 3; kind++) {
			int step = kind == 0 && s >= COUNT(MPN_SIZES) && stepped(kernel, n);
			uint64_t *ap = buf64(n), *rp = buf64(2 * n), *rr = buf64(2 * n);
			fill64(ap, n, kind);
			fill64(rp, 2 * n, 0);
			((lf_mpn_sqr_fn)ref)(rr, ap, n);
			call(fn, step, (uintptr_t)rp, (uintptr_t)ap, n, 0, 0, 0);
			if (memcmp(rp, rr, 2 * n * 8))
				fail("n=%zu kind=%d: wrong square", n, kind);
			check_guards64(rp, 2 * n, "rp");
			free(ap - GUARD), free(rp - GUARD), free(rr - GUARD);
		}
	}
}

static void fill32(uint32_t *p, size_t n, int kind)
{
	for (size_t i = 0; i < n; i++)
		p[i] = kind == 1 ? 0xffffffffu : kind == 2 ? (rnd() & 1 ? 0xffffffffu : (uint32_t)rnd())
		                                           : (uint32_t)rnd();
}

static void test_bi_mul_add(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(BI_SIZES) + 2; s++) {
		size_t len = s < COUNT(BI_SIZES) ? BI_SIZES[s] : s == COUNT(BI_SIZES) ? 5 : 41;
		for (int kind = 0; kind < 3; kind++) {
			int step = kind == 0 && s >= COUNT(BI_SIZES) && stepped(kernel, len);
			size_t offset = rnd() % 4, out_len = len + offset + rnd() % 4;
			uint64_t *o64 = buf64(out_len / 2 + 1), *r64 = buf64(out_len / 2 + 1);
			uint32_t *out = (uint32_t *)o64, *rr = (uint32_t *)r64;
			uint32_t *in = malloc(len * 4 + 4);
			fill32(out, out_len, kind);
			if (out_len & 1)
				out[out_len] = (uint32_t)GUARD_WORD;
			memcpy(rr, out, (out_len / 2 + 1) * 8);
			fill32(in, len, kind);
			uint32_t k = kind == 1 ? 0xffffffffu : (uint32_t)rnd();
			uint32_t want = ((lf_bi_mul_add_fn)ref)(rr, out_len, in, offset, len, k);
			/* the upper halves of the 32-bit and size arguments in registers and on the
			 * stack: junk is allowed for k (uint32_t), so pass some */
			uint64_t got = call(fn, step, (uintptr_t)out, out_len, (uintptr_t)in, offset, len,
			                    k | (rnd() << 32));
			if ((uint32_t)got != want || memcmp(out, rr, (out_len / 2 + 1) * 8))
				fail("len=%zu offset=%zu out_len=%zu kind=%d: wrong result", len, offset,
				     out_len, kind);
			check_guards64(o64, out_len / 2 + 1, "out");
			free(o64 - GUARD), free(r64 - GUARD), free(in);
		}
	}
}

static void test_bi_sqr(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(BI_SIZES) + 2; s++) {
		size_t len = s < COUNT(BI_SIZES) ? BI_SIZES[s] : s == COUNT(BI_SIZES) ? 5 : 21;
		for (int kind = 0; kind < 3; kind++) {
			int step = kind == 0 && s >= COUNT(BI_SIZES) && stepped(kernel, len);
			uint32_t *x = malloc(len * 4 + 4);
			uint64_t *z64 = buf64(len), *r64 = buf64(len);
			fill32(x, len, kind);
			fill64(z64, len, 0);
			((lf_bi_square_to_len_fn)ref)(x, len, (uint32_t *)r64);
			call(fn, step, (uintptr_t)x, len, (uintptr_t)z64, 0, 0, 0);
			if (memcmp(z64, r64, len * 8))
				fail("len=%zu kind=%d: wrong square", len, kind);
			check_guards64(z64, len, "z");
			free(x), free(z64 - GUARD), free(r64 - GUARD);
		}
	}
}

static const size_t MUL_B[] = {1, 2, 3, 7, 8, 9, 17};

static void test_mpn_mul(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(MPN_SIZES) + 2; s++) {
		size_t an = s < COUNT(MPN_SIZES) ? MPN_SIZES[s] : s == COUNT(MPN_SIZES) ? 5 : 20;
		for (int kind = 0; kind < 3; kind++) {
			int step = kind == 0 && s >= COUNT(MPN_SIZES) && stepped(kernel, an);
			size_t bn = an ? (kind == 1 ? an : MUL_B[(s + (size_t)kind) % COUNT(MUL_B)]) : 0;
			if (bn > an)
				bn = an;
			uint64_t *ap = buf64(an), *bp = buf64(bn), *rp = buf64(an + bn);
			uint64_t *rr = buf64(an + bn);
			fill64(ap, an, kind);
			fill64(bp, bn, kind);
			fill64(rp, an + bn, 0);
			memcpy(rr, rp, (an + bn) * 8);
			((lf_mpn_mul_fn)ref)(rr, ap, an, bp, bn);
			call(fn, step, (uintptr_t)rp, (uintptr_t)ap, an, (uintptr_t)bp, bn, 0);
			if (memcmp(rp, rr, (an + bn) * 8))
				fail("an=%zu bn=%zu kind=%d: wrong product", an, bn, kind);
			check_guards64(rp, an + bn, "rp");
			free(ap - GUARD), free(bp - GUARD), free(rp - GUARD), free(rr - GUARD);
		}
	}
}

/* -n0^-1 mod 2^64 (Newton), n0 odd */
static uint64_t neg_inv(uint64_t n0)
{
	uint64_t x = n0;                  /* 3 bits */
	for (int i = 0; i < 5; i++)
		x *= 2 - n0 * x;
	return 0 - x;
}

static void test_montmul(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(MPN_SIZES) + 2; s++) {
		size_t n = s < COUNT(MPN_SIZES) ? MPN_SIZES[s] : s == COUNT(MPN_SIZES) ? 5 : 20;
		for (int kind = 0; kind < 3; kind++) {
			int step = kind == 0 && s >= COUNT(MPN_SIZES) && stepped(kernel, n);
			uint64_t *ap = buf64(n), *bp = buf64(n), *np = buf64(n), *rp = buf64(n);
			uint64_t *rr = buf64(n);
			/* N odd with its top limb all ones; a, b below N (their top limb cleared
			 * of its top bit) or, kind 1, N all ones and a = b = N-1 */
			fill64(np, n, kind == 1 ? 1 : 0);
			fill64(ap, n, kind == 1 ? 1 : 0);
			fill64(bp, n, kind == 1 ? 1 : 0);
			if (n) {
				np[0] |= 1;
				np[n - 1] = ~0ull;
				ap[n - 1] >>= 1, bp[n - 1] >>= 1;
				if (kind == 1)
					ap[n - 1] = bp[n - 1] = ~0ull, ap[0] = bp[0] = ~1ull;
			}
			fill64(rp, n, 0);
			uint64_t inv = n ? neg_inv(np[0]) : 0;
			((lf_mpn_montmul_fn)ref)(rr, ap, bp, np, inv, n);
			call(fn, step, (uintptr_t)rp, (uintptr_t)ap, (uintptr_t)bp, (uintptr_t)np, inv,
			     n);
			if (memcmp(rp, rr, n * 8))
				fail("n=%zu kind=%d: wrong Montgomery product", n, kind);
			check_guards64(rp, n, "rp");
			free(ap - GUARD), free(bp - GUARD), free(np - GUARD), free(rp - GUARD);
			free(rr - GUARD);
		}
	}
}

static void test_bi_mtl(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(BI_SIZES) + 2; s++) {
		size_t xl = s < COUNT(BI_SIZES) ? BI_SIZES[s] : s == COUNT(BI_SIZES) ? 5 : 21;
		for (int kind = 0; kind < 3; kind++) {
			int step = kind == 0 && s >= COUNT(BI_SIZES) && stepped(kernel, xl);
			size_t yl = kind == 1 ? xl : MUL_B[(s + (size_t)kind) % COUNT(MUL_B)];
			size_t zw = (xl + yl + 1) / 2;
			uint32_t *x = malloc(xl * 4 + 4), *y = malloc(yl * 4 + 4);
			uint64_t *z64 = buf64(zw), *r64 = buf64(zw);
			fill32(x, xl, kind);
			fill32(y, yl, kind);
			fill64(z64, zw, 0);
			memcpy(r64, z64, zw * 8);
			((lf_bi_multiply_to_len_fn)ref)(x, xl, y, yl, (uint32_t *)r64);
			call(fn, step, (uintptr_t)x, xl, (uintptr_t)y, yl, (uintptr_t)z64, 0);
			if (memcmp(z64, r64, zw * 8))
				fail("xlen=%zu ylen=%zu kind=%d: wrong product", xl, yl, kind);
			check_guards64(z64, zw, "z");
			free(x), free(y), free(z64 - GUARD), free(r64 - GUARD);
		}
	}
}

/* p256_mul_mont / p256_sqr_mont: 4 limbs below p (top limb below 2^63, or kind 1 a = b =
 * p - 1), r separate and r == a; the outputs against ref */
static void test_p256(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	int sqr = !strcmp(kernel, "p256_sqr_mont");
	for (int rep = 0; rep < 40; rep++) {
		int kind = rep % 3, step = rep == 1;
		uint64_t *ap = buf64(4), *bp = buf64(4), *rp = buf64(4), *rr = buf64(4);
		fill64(ap, 4, kind == 1 ? 0 : kind);
		fill64(bp, 4, 0);
		ap[3] >>= 1, bp[3] >>= 1;
		if (kind == 1) {
			ap[0] = ~1ull, ap[1] = 0xffffffffull, ap[2] = 0, ap[3] = 0xffffffff00000001ull;
			memcpy(bp, ap, 32);
		}
		fill64(rp, 4, 0);
		if (sqr)
			((lf_p256_sqr_mont_fn)ref)(rr, ap);
		else
			((lf_p256_mul_mont_fn)ref)(rr, ap, bp);
		if (rep & 1) {                  /* r == a */
			memcpy(rp, ap, 32);
			call(fn, step, (uintptr_t)rp, (uintptr_t)rp, (uintptr_t)bp, 0, 0, 0);
		} else {
			call(fn, step, (uintptr_t)rp, (uintptr_t)ap, (uintptr_t)bp, 0, 0, 0);
		}
		if (memcmp(rp, rr, 32))
			fail("rep=%d kind=%d%s: wrong Montgomery product", rep, kind,
			     rep & 1 ? " (r == a)" : "");
		check_guards64(rp, 4, "r");
		free(ap - GUARD), free(bp - GUARD), free(rp - GUARD), free(rr - GUARD);
	}
}

/* p256_mont_mult / p256_mont_square / p256_mont_mult_x8: 5 limbs of 52 bits (x8: 8 elements
 * of 5) below p (limbs cut to 52 bits, the top limb to 47: below p), kind 1: p - 1 in every
 * element; r separate and r == a; the outputs against ref */
static void test_p256m(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	int sqr = !strcmp(kernel, "p256_mont_square"), x8 = !strcmp(kernel, "p256_mont_mult_x8");
	size_t n = x8 ? 40 : 5;
	for (int rep = 0; rep < 40; rep++) {
		int kind = rep % 3, step = rep == 1;
		uint64_t *ap = buf64(n), *bp = buf64(n), *rp = buf64(n), *rr = buf64(n);
		fill64(ap, n, kind == 1 ? 0 : kind);
		fill64(bp, n, 0);
		for (size_t i = 0; i < n; i++) {
			ap[i] &= (1ull << 52) - 1, bp[i] &= (1ull << 52) - 1;
			if (i % 5 == 4)
				ap[i] >>= 5, bp[i] >>= 5;
			if (kind == 1) {
				static const uint64_t pm1[5] = { 0xffffffffffffeull, 0xfffffffffffull, 0,
				                                 0x1000000000ull, 0xffffffff0000ull };
				ap[i] = pm1[i % 5];
			}
		}
		fill64(rp, n, 0);
		if (sqr)
			((lf_p256_mont_square_fn)ref)((int64_t *)rr, (const int64_t *)ap);
		else if (x8)
			((lf_p256_mont_mult_x8_fn)ref)((int64_t *)rr, (const int64_t *)ap,
			                               (const int64_t *)bp);
		else
			((lf_p256_mont_mult_fn)ref)((int64_t *)rr, (const int64_t *)ap,
			                            (const int64_t *)bp);
		if (rep & 1) {                  /* r == a */
			memcpy(rp, ap, n * 8);
			call(fn, step, (uintptr_t)rp, (uintptr_t)rp, (uintptr_t)bp, 0, 0, 0);
		} else {
			call(fn, step, (uintptr_t)rp, (uintptr_t)ap, (uintptr_t)bp, 0, 0, 0);
		}
		if (memcmp(rp, rr, n * 8))
			fail("rep=%d kind=%d%s: wrong Montgomery product", rep, kind,
			     rep & 1 ? " (r == a)" : "");
		check_guards64(rp, n, "r");
		free(ap - GUARD), free(bp - GUARD), free(rp - GUARD), free(rr - GUARD);
	}
}

/* the field products (tests/fe_kernels.h): encode (the field's generated C, canonical bytes)
 * of each variant's result and of ref's must agree -- the limbs themselves need not */
typedef void (*fe_encode_fn)(uint8_t *out, const int64_t *a);
struct fe_entry {
	const char *kernel;
	size_t limbs;
	int sqr;
	lf_fnptr api, ref;
	fe_encode_fn encode;
};
#define FE_ENTRY(field, nl, op)                                                             \
	{ "fe_" #field "_" #op, nl, sizeof(#op) == sizeof("square"),                        \
	  (lf_fnptr)lf_fe_##field##_##op, (lf_fnptr)lf_fe_##field##_##op##_ref,             \
	  lf_fe_##field##_encode },
static const struct fe_entry fe_table[] = { LF_TEST_FE_KERNELS(FE_ENTRY) };
#undef FE_ENTRY

static const struct fe_entry *fe_entry(const char *kernel)
{
	for (size_t i = 0; i < COUNT(fe_table); i++)
		if (!strcmp(fe_table[i].kernel, kernel))
			return &fe_table[i];
	return NULL;
}

static int fe_same(const struct fe_entry *e, const int64_t *x, const int64_t *y)
{
	uint8_t bx[80] = { 0 }, by[80] = { 0 };
	e->encode(bx, x);
	e->encode(by, y);
	return !memcmp(bx, by, sizeof bx);
}

/* limbs up to the field's cap (lf_test_fe_limb_cap: within its input bound M), kind 1: every
 * limb at the cap; r separate and r == a; the value against ref's (encoded) */
static void test_fe(const struct fe_entry *e, lf_fnptr fn)
{
	size_t n = e->limbs;
	uint64_t cap = lf_test_fe_limb_cap(e->kernel);
	if (!cap)
		fail("no field bound for %s", e->kernel);
	for (int rep = 0; rep < 40; rep++) {
		int kind = rep % 3, step = rep == 1;
		uint64_t *ap = buf64(n), *bp = buf64(n), *rp = buf64(n), *rr = buf64(n);
		fill64(ap, n, kind);
		fill64(bp, n, kind == 1 ? 1 : 0);
		for (size_t i = 0; i < n; i++) {
			ap[i] = ap[i] == ~0ull ? cap : ap[i] % (cap + 1);
			bp[i] = bp[i] == ~0ull ? cap : bp[i] % (cap + 1);
		}
		fill64(rp, n, 0);
		if (e->sqr)
			((lf_fe_square_fn)e->ref)((int64_t *)rr, (const int64_t *)ap);
		else
			((lf_fe_mul_fn)e->ref)((int64_t *)rr, (const int64_t *)ap, (const int64_t *)bp);
		if (rep & 1) {                  /* r == a */
			memcpy(rp, ap, n * 8);
			call(fn, step, (uintptr_t)rp, (uintptr_t)rp, (uintptr_t)bp, 0, 0, 0);
		} else {
			call(fn, step, (uintptr_t)rp, (uintptr_t)ap, (uintptr_t)bp, 0, 0, 0);
		}
		if (!fe_same(e, (const int64_t *)rp, (const int64_t *)rr))
			fail("rep=%d kind=%d%s: product differs from ref's mod p", rep, kind,
			     rep & 1 ? " (r == a)" : "");
		check_guards64(rp, n, "r");
		free(ap - GUARD), free(bp - GUARD), free(rp - GUARD), free(rr - GUARD);
	}
}

/* the ladder kernels: (x2 : z2) checked through the curve field's C (generated/fields/;
 * not the code under test): x2 == out z2 mod p for RFC 7748 5.2's vectors (out decoded from
 * the RFC's bytes), and x2 z2' == x2' z2 mod p against ref's (x2' : z2') for random clamped
 * scalars and u; limbs below 2^52; xz inside its guard words.  The first call single-stepped
 * (the whole ladder unwound instruction by instruction). */
struct xdh_entry {
	const char *kernel;
	size_t limbs, nbytes;
	void (*decode)(int64_t *r, const uint8_t *in);
	void (*encode)(uint8_t *out, const int64_t *a);
	void (*mul)(int64_t *r, const int64_t *a, const int64_t *b);
	const uint8_t *rfc[2][3];
};

static const uint8_t x25519_rfc[2][3][32] = {
	{ { 0xa5, 0x46, 0xe3, 0x6b, 0xf0, 0x52, 0x7c, 0x9d, 0x3b, 0x16, 0x15, 0x4b, 0x82, 0x46,
	    0x5e, 0xdd, 0x62, 0x14, 0x4c, 0x0a, 0xc1, 0xfc, 0x5a, 0x18, 0x50, 0x6a, 0x22, 0x44,
	    0xba, 0x44, 0x9a, 0xc4 },
	  { 0xe6, 0xdb, 0x68, 0x67, 0x58, 0x30, 0x30, 0xdb, 0x35, 0x94, 0xc1, 0xa4, 0x24, 0xb1,
	    0x5f, 0x7c, 0x72, 0x66, 0x24, 0xec, 0x26, 0xb3, 0x35, 0x3b, 0x10, 0xa9, 0x03, 0xa6,
	    0xd0, 0xab, 0x1c, 0x4c },
	  { 0xc3, 0xda, 0x55, 0x37, 0x9d, 0xe9, 0xc6, 0x90, 0x8e, 0x94, 0xea, 0x4d, 0xf2, 0x8d,
	    0x08, 0x4f, 0x32, 0xec, 0xcf, 0x03, 0x49, 0x1c, 0x71, 0xf7, 0x54, 0xb4, 0x07, 0x55,
	    0x77, 0xa2, 0x85, 0x52 } },
	{ { 0x4b, 0x66, 0xe9, 0xd4, 0xd1, 0xb4, 0x67, 0x3c, 0x5a, 0xd2, 0x26, 0x91, 0x95, 0x7d,
	    0x6a, 0xf5, 0xc1, 0x1b, 0x64, 0x21, 0xe0, 0xea, 0x01, 0xd4, 0x2c, 0xa4, 0x16, 0x9e,
	    0x79, 0x18, 0xba, 0x0d },
	  { 0xe5, 0x21, 0x0f, 0x12, 0x78, 0x68, 0x11, 0xd3, 0xf4, 0xb7, 0x95, 0x9d, 0x05, 0x38,
	    0xae, 0x2c, 0x31, 0xdb, 0xe7, 0x10, 0x6f, 0xc0, 0x3c, 0x3e, 0xfc, 0x4c, 0xd5, 0x49,
	    0xc7, 0x15, 0xa4, 0x93 },
	  { 0x95, 0xcb, 0xde, 0x94, 0x76, 0xe8, 0x90, 0x7d, 0x7a, 0xad, 0xe4, 0x5c, 0xb4, 0xb8,
	    0x73, 0xf8, 0x8b, 0x59, 0x5a, 0x68, 0x79, 0x9f, 0xa1, 0x52, 0xe6, 0xf8, 0xf7, 0x64,
	    0x7a, 0xac, 0x79, 0x57 } },
};
static const uint8_t x448_rfc[2][3][56] = {
	{ { 0x3d, 0x26, 0x2f, 0xdd, 0xf9, 0xec, 0x8e, 0x88, 0x49, 0x52, 0x66, 0xfe, 0xa1, 0x9a,
	    0x34, 0xd2, 0x88, 0x82, 0xac, 0xef, 0x04, 0x51, 0x04, 0xd0, 0xd1, 0xaa, 0xe1, 0x21,
	    0x70, 0x0a, 0x77, 0x9c, 0x98, 0x4c, 0x24, 0xf8, 0xcd, 0xd7, 0x8f, 0xbf, 0xf4, 0x49,
	    0x43, 0xeb, 0xa3, 0x68, 0xf5, 0x4b, 0x29, 0x25, 0x9a, 0x4f, 0x1c, 0x60, 0x0a, 0xd3 },
	  { 0x06, 0xfc, 0xe6, 0x40, 0xfa, 0x34, 0x87, 0xbf, 0xda, 0x5f, 0x6c, 0xf2, 0xd5, 0x26,
	    0x3f, 0x8a, 0xad, 0x88, 0x33, 0x4c, 0xbd, 0x07, 0x43, 0x7f, 0x02, 0x0f, 0x08, 0xf9,
	    0x81, 0x4d, 0xc0, 0x31, 0xdd, 0xbd, 0xc3, 0x8c, 0x19, 0xc6, 0xda, 0x25, 0x83, 0xfa,
	    0x54, 0x29, 0xdb, 0x94, 0xad, 0xa1, 0x8a, 0xa7, 0xa7, 0xfb, 0x4e, 0xf8, 0xa0, 0x86 },
	  { 0xce, 0x3e, 0x4f, 0xf9, 0x5a, 0x60, 0xdc, 0x66, 0x97, 0xda, 0x1d, 0xb1, 0xd8, 0x5e,
	    0x6a, 0xfb, 0xdf, 0x79, 0xb5, 0x0a, 0x24, 0x12, 0xd7, 0x54, 0x6d, 0x5f, 0x23, 0x9f,
	    0xe1, 0x4f, 0xba, 0xad, 0xeb, 0x44, 0x5f, 0xc6, 0x6a, 0x01, 0xb0, 0x77, 0x9d, 0x98,
	    0x22, 0x39, 0x61, 0x11, 0x1e, 0x21, 0x76, 0x62, 0x82, 0xf7, 0x3d, 0xd9, 0x6b, 0x6f } },
	{ { 0x20, 0x3d, 0x49, 0x44, 0x28, 0xb8, 0x39, 0x93, 0x52, 0x66, 0x5d, 0xdc, 0xa4, 0x2f,
	    0x9d, 0xe8, 0xfe, 0xf6, 0x00, 0x90, 0x8e, 0x0d, 0x46, 0x1c, 0xb0, 0x21, 0xf8, 0xc5,
	    0x38, 0x34, 0x5d, 0xd7, 0x7c, 0x3e, 0x48, 0x06, 0xe2, 0x5f, 0x46, 0xd3, 0x31, 0x5c,
	    0x44, 0xe0, 0xa5, 0xb4, 0x37, 0x12, 0x82, 0xdd, 0x2c, 0x8d, 0x5b, 0xe3, 0x09, 0x5f },
	  { 0x0f, 0xbc, 0xc2, 0xf9, 0x93, 0xcd, 0x56, 0xd3, 0x30, 0x5b, 0x0b, 0x7d, 0x9e, 0x55,
	    0xd4, 0xc1, 0xa8, 0xfb, 0x5d, 0xbb, 0x52, 0xf8, 0xe9, 0xa1, 0xe9, 0xb6, 0x20, 0x1b,
	    0x16, 0x5d, 0x01, 0x58, 0x94, 0xe5, 0x6c, 0x4d, 0x35, 0x70, 0xbe, 0xe5, 0x2f, 0xe2,
	    0x05, 0xe2, 0x8a, 0x78, 0xb9, 0x1c, 0xdf, 0xbd, 0xe7, 0x1c, 0xe8, 0xd1, 0x57, 0xdb },
	  { 0x88, 0x4a, 0x02, 0x57, 0x62, 0x39, 0xff, 0x7a, 0x2f, 0x2f, 0x63, 0xb2, 0xdb, 0x6a,
	    0x9f, 0xf3, 0x70, 0x47, 0xac, 0x13, 0x56, 0x8e, 0x1e, 0x30, 0xfe, 0x63, 0xc4, 0xa7,
	    0xad, 0x1b, 0x3e, 0xe3, 0xa5, 0x70, 0x0d, 0xf3, 0x43, 0x21, 0xd6, 0x20, 0x77, 0xe6,
	    0x36, 0x33, 0xc5, 0x75, 0xc1, 0xc9, 0x54, 0x51, 0x4e, 0x99, 0xda, 0x7c, 0x17, 0x9d } },
};

static const struct xdh_entry xdh_table[] = {
	{ "x25519_ladder", 5, 32, lf_fe_c25519_r51_decode, lf_fe_c25519_r51_encode,
	  lf_fe_c25519_r51_mul_ref,
	  { { x25519_rfc[0][0], x25519_rfc[0][1], x25519_rfc[0][2] },
	    { x25519_rfc[1][0], x25519_rfc[1][1], x25519_rfc[1][2] } } },
	{ "x448_ladder", 9, 56, lf_fe_c448_r50_decode, lf_fe_c448_r50_encode, lf_fe_c448_r50_mul,
	  { { x448_rfc[0][0], x448_rfc[0][1], x448_rfc[0][2] },
	    { x448_rfc[1][0], x448_rfc[1][1], x448_rfc[1][2] } } },
};

static const struct xdh_entry *xdh_entry(const char *kernel)
{
	for (size_t i = 0; i < COUNT(xdh_table); i++)
		if (!strcmp(xdh_table[i].kernel, kernel))
			return &xdh_table[i];
	return NULL;
}

static void xdh_clamp(const struct xdh_entry *e, uint8_t *k)
{
	if (e->nbytes == 32)
		k[0] &= 248, k[31] &= 127, k[31] |= 64;
	else
		k[0] &= 252, k[55] |= 128;
}

/* x a == y b mod p, through the field's mul and encode */
static int xdh_cross(const struct xdh_entry *e, const int64_t *x, const int64_t *a,
                     const int64_t *y, const int64_t *b)
{
	int64_t l[9], r[9];
	uint8_t bl[56], br[56];
	e->mul(l, x, a);
	e->mul(r, y, b);
	e->encode(bl, l);
	e->encode(br, r);
	return !memcmp(bl, br, e->nbytes);
}

static void test_ladder(const struct xdh_entry *e, lf_fnptr fn, lf_fnptr ref)
{
	size_t n = e->limbs, nb = e->nbytes;
	static int64_t tmp[128 + 4] __attribute__((aligned(32)));
	for (int rep = 0; rep < 12; rep++) {
		uint8_t k[56], ub[56];
		int64_t u[9], one[9] = { 1 }, want[9];
		uint64_t *xz = buf64(2 * n), *xr = buf64(2 * n);
		if (rep < 2) {
			memcpy(k, e->rfc[rep][0], nb);
			memcpy(ub, e->rfc[rep][1], nb);
			e->decode(want, e->rfc[rep][2]);
		} else {
			for (size_t i = 0; i < nb; i++)
				k[i] = (uint8_t)rnd(), ub[i] = (uint8_t)rnd();
		}
		xdh_clamp(e, k);
		if (nb == 32)
			ub[31] &= 127;
		e->decode(u, ub);
		call(fn, rep == 0, (uintptr_t)xz, (uintptr_t)k, (uintptr_t)u, (uintptr_t)tmp, 0, 0);
		((void (*)(int64_t *, const uint8_t *, const int64_t *, int64_t *))ref)(
			(int64_t *)xr, k, u, tmp);
		const int64_t *x2 = (const int64_t *)xz, *z2 = x2 + n;
		for (size_t i = 0; i < 2 * n; i++)
			if (x2[i] < 0 || x2[i] >= (int64_t)1 << 52)
				fail("rep=%d: limb %zu outside [0, 2^52)", rep, i);
		if (rep < 2 && !xdh_cross(e, x2, one, want, z2))
			fail("rep=%d: x2 / z2 misses RFC 7748 5.2", rep);
		if (!xdh_cross(e, x2, (const int64_t *)xr + n, (const int64_t *)xr, z2))
			fail("rep=%d: (x2 : z2) differs from ref's", rep);
		check_guards64(xz, 2 * n, "xz");
		free(xz - GUARD), free(xr - GUARD);
	}
}

/* fe_c25519_r51_mul_x4: four lanes of limbs below 2^52 (kind 1: all 2^52 - 1), r separate
 * and r == a, each lane against ref's through the field's encode */
static void test_x4(lf_fnptr fn, lf_fnptr ref)
{
	for (int rep = 0; rep < 40; rep++) {
		int kind = rep % 3;
		uint64_t *ap = buf64(20), *bp = buf64(20), *rp = buf64(20), *rr = buf64(20);
		fill64(ap, 20, kind);
		fill64(bp, 20, kind == 1 ? 1 : 0);
		for (size_t i = 0; i < 20; i++)
			ap[i] &= (1ull << 52) - 1, bp[i] &= (1ull << 52) - 1;
		((lf_fe_c25519_r51_mul_x4_fn)ref)((int64_t *)rr, (const int64_t *)ap,
		                                   (const int64_t *)bp);
		if (rep & 1) {
			memcpy(rp, ap, 160);
			call(fn, rep == 1, (uintptr_t)rp, (uintptr_t)rp, (uintptr_t)bp, 0, 0, 0);
		} else {
			call(fn, 0, (uintptr_t)rp, (uintptr_t)ap, (uintptr_t)bp, 0, 0, 0);
		}
		for (int l = 0; l < 4; l++) {
			int64_t x[5], y[5];
			uint8_t bx[32], by[32];
			for (int i = 0; i < 5; i++)
				x[i] = (int64_t)rp[4 * i + l], y[i] = (int64_t)rr[4 * i + l];
			lf_fe_c25519_r51_encode(bx, x);
			lf_fe_c25519_r51_encode(by, y);
			if (memcmp(bx, by, 32))
				fail("rep=%d kind=%d lane %d: product differs from ref's mod p", rep, kind,
				     l);
		}
		check_guards64(rp, 20, "r");
		free(ap - GUARD), free(bp - GUARD), free(rp - GUARD), free(rr - GUARD);
	}
}

/* conditional_assign: every n of MPN_SIZES, set 0 and 1 (garbage in the upper half of the
 * int argument's register), against ref */
static void test_assign(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(MPN_SIZES) + 2; s++) {
		size_t n = s < COUNT(MPN_SIZES) ? MPN_SIZES[s] : s == COUNT(MPN_SIZES) ? 5 : 20;
		for (int set = 0; set <= 1; set++) {
			int step = set == 1 && s >= COUNT(MPN_SIZES) && stepped(kernel, n);
			uint64_t *ap = buf64(n), *bp = buf64(n), *rr = buf64(n);
			fill64(ap, n, 0);
			fill64(bp, n, 2);
			memcpy(rr, ap, n * 8);
			((lf_conditional_assign_fn)ref)(set, (int64_t *)rr, (const int64_t *)bp, n);
			call(fn, step, 0xdeadbeef00000000ull | (unsigned)set, (uintptr_t)ap,
			     (uintptr_t)bp, n, 0, 0);
			if (memcmp(ap, rr, n * 8))
				fail("n=%zu set=%d: wrong assignment", n, set);
			check_guards64(ap, n, "a");
			free(ap - GUARD), free(bp - GUARD), free(rr - GUARD);
		}
	}
}

/* poly1305_blocks: h (partially reduced, h2 <= 4) to its value mod 2^130-5; the variant and
 * ref may hold different representatives of the same value */
static void p1305_canon(uint64_t h[3])
{
	for (int i = 0; i < 2; i++) {
		uint64_t g0 = h[0] + 5, c = g0 < 5, g1 = h[1] + c, g2;
		c = g1 < c;
		g2 = h[2] + c;
		if (g2 >= 4)                    /* h >= p: h - p = h + 5 - 2^130 */
			h[0] = g0, h[1] = g1, h[2] = g2 - 4;
	}
}

static const size_t P1305_BLOCKS[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64,
                                      65, 100, 128, 129, 257};

static void test_poly1305(const char *kernel, lf_fnptr fn, lf_fnptr ref)
{
	for (size_t s = 0; s < COUNT(P1305_BLOCKS) + 2; s++) {
		size_t n = s < COUNT(P1305_BLOCKS) ? P1305_BLOCKS[s] : s == COUNT(P1305_BLOCKS) ? 5 : 20;
		for (int kind = 0; kind < 3; kind++) {
			int step = kind == 0 && s >= COUNT(P1305_BLOCKS) && stepped(kernel, n);
			/* ctx: 136 words, 64-byte aligned, GUARD words on both sides */
			uint64_t *raw = malloc((136 + 2 * GUARD + 8) * sizeof *raw), rc[136];
			uint64_t *ctx = (uint64_t *)(((uintptr_t)(raw + GUARD) + 63) & ~(uintptr_t)63);
			uint64_t *m = malloc(n * 16 + 8), pad = kind == 2 ? 0 : 1;
			for (uint64_t *q = raw; q < raw + 136 + 2 * GUARD + 8; q++)
				*q = GUARD_WORD;
			fill64(m, 2 * n, kind % 2);
			fill64(ctx, 3, kind % 2);
			ctx[2] = kind == 1 ? 4 : ctx[2] % 5;
			ctx[3] = (kind == 1 ? ~0ull : rnd()) & 0x0ffffffc0fffffffull;
			ctx[4] = (kind == 1 ? ~0ull : rnd()) & 0x0ffffffc0ffffffcull;
			ctx[5] = ctx[6] = ctx[7] = 0;
			for (int i = 8; i < 136; i++)
				ctx[i] = rnd();
			memcpy(rc, ctx, sizeof rc);
			((lf_poly1305_blocks_fn)ref)(rc, (const uint8_t *)m, n, pad);
			call(fn, step, (uintptr_t)ctx, (uintptr_t)m, n, pad, 0, 0);
			uint64_t a[3] = {ctx[0], ctx[1], ctx[2]}, b[3] = {rc[0], rc[1], rc[2]};
			if (ctx[2] > 4)
				fail("nblocks=%zu kind=%d: h2 = %llu > 4", n, kind,
				     (unsigned long long)ctx[2]);
			p1305_canon(a);
			p1305_canon(b);
			if (memcmp(a, b, sizeof a) || ctx[3] != rc[3] || ctx[4] != rc[4] || ctx[6] ||
			    ctx[7])
				fail("nblocks=%zu kind=%d: wrong result", n, kind);
			for (uint64_t *q = raw; q < ctx; q++)
				if (*q != GUARD_WORD)
					fail("wrote before ctx");
			for (uint64_t *q = ctx + 136; q < raw + 136 + 2 * GUARD + 8; q++)
				if (*q != GUARD_WORD)
					fail("wrote after ctx[136]");
			free(raw), free(m);
		}
	}
}

/* ---- the public API through the dispatcher ------------------------------------------- */

static void public_api(void)
{
	enum { N = 40, L = 70 };
	uint64_t a[N], r[2 * N], want[2 * N];
	uint32_t x[L], z[2 * L], zw[2 * L];
	what = "public API";
	fill64(a, N, 0);
	lf_mpn_sqr(r, a, N);
	lf_mpn_sqr_ref(want, a, N);
	if (memcmp(r, want, sizeof r))
		fail("lf_mpn_sqr");
	fill32(x, L, 0);
	lf_bi_square_to_len(x, L, z);
	lf_bi_square_to_len_ref(x, L, zw);
	if (memcmp(z, zw, sizeof z))
		fail("lf_bi_square_to_len");
	memcpy(want, r, sizeof r);
	if (lf_mpn_addmul_1(r, a, N, 12345) != lf_mpn_addmul_1_ref(want, a, N, 12345) ||
	    memcmp(r, want, sizeof r))
		fail("lf_mpn_addmul_1");
	if (lf_mpn_mul_1(r, a, N, ~0ull) != lf_mpn_mul_1_ref(want, a, N, ~0ull) ||
	    memcmp(r, want, sizeof r))
		fail("lf_mpn_mul_1");
	memcpy(zw, z, sizeof z);
	if (lf_bi_mul_add(z, 2 * L, x, 3, L, 0xfedcba98u) !=
	    lf_bi_mul_add_ref(zw, 2 * L, x, 3, L, 0xfedcba98u) || memcmp(z, zw, sizeof z))
		fail("lf_bi_mul_add");
	lf_mpn_mul(r, a, N, a, N / 2);
	lf_mpn_mul_ref(want, a, N, a, N / 2);
	if (memcmp(r, want, (N + N / 2) * 8))
		fail("lf_mpn_mul");
	lf_bi_multiply_to_len(x, L, x, L / 3, z);
	lf_bi_multiply_to_len_ref(x, L, x, L / 3, zw);
	if (memcmp(z, zw, (L + L / 3) * 4))
		fail("lf_bi_multiply_to_len");
	{
		/* N/2 limbs: N odd, top limb all ones; a, b below it */
		uint64_t nn[N / 2], aa[N / 2], bb[N / 2], r1[N / 2], r2[N / 2];
		fill64(nn, N / 2, 0);
		fill64(aa, N / 2, 0);
		fill64(bb, N / 2, 0);
		nn[0] |= 1, nn[N / 2 - 1] = ~0ull, aa[N / 2 - 1] >>= 1, bb[N / 2 - 1] >>= 1;
		lf_mpn_montmul(r1, aa, bb, nn, neg_inv(nn[0]), N / 2);
		lf_mpn_montmul_ref(r2, aa, bb, nn, neg_inv(nn[0]), N / 2);
		if (memcmp(r1, r2, sizeof r1))
			fail("lf_mpn_montmul");
	}
	{
		uint64_t pa[4] = { ~1ull, 0xffffffffull, 0, 0xffffffff00000001ull }, p1[4], p2[4];
		uint64_t pb[4] = { 3, 5, 7, 0x7fffffffffffffffull };
		lf_p256_mul_mont(p1, pa, pb);
		lf_p256_mul_mont_ref(p2, pa, pb);
		if (memcmp(p1, p2, sizeof p1))
			fail("lf_p256_mul_mont");
		lf_p256_sqr_mont(p1, pb);
		lf_p256_sqr_mont_ref(p2, pb);
		if (memcmp(p1, p2, sizeof p1))
			fail("lf_p256_sqr_mont");
		int64_t ca[19], cb[19];
		for (int i = 0; i < 19; i++)
			ca[i] = i, cb[i] = -i - 1;
		lf_conditional_assign(1, ca, cb, 19);
		if (memcmp(ca, cb, sizeof ca))
			fail("lf_conditional_assign");
		int64_t ma[40], mb[40], m1[40], m2[40];
		for (int i = 0; i < 40; i++)
			ma[i] = (int64_t)((0x123456789abcdull * (uint64_t)(i + 1)) & ((1ull << 47) - 1)),
			mb[i] = (int64_t)((0xfedcba9876543ull * (uint64_t)(i + 3)) & ((1ull << 47) - 1));
		lf_p256_mont_mult(m1, ma, mb);
		lf_p256_mont_mult_ref(m2, ma, mb);
		if (memcmp(m1, m2, 40))
			fail("lf_p256_mont_mult");
		lf_p256_mont_square(m1, mb);
		lf_p256_mont_square_ref(m2, mb);
		if (memcmp(m1, m2, 40))
			fail("lf_p256_mont_square");
		lf_p256_mont_mult_x8(m1, ma, mb);
		lf_p256_mont_mult_x8_ref(m2, ma, mb);
		if (memcmp(m1, m2, sizeof m1))
			fail("lf_p256_mont_mult_x8");
	}
	/* the field products: a product of limbs up to the field's cap (in place) against ref's */
	for (size_t i = 0; i < COUNT(fe_table); i++) {
		const struct fe_entry *e = &fe_table[i];
		int64_t fa[LF_TEST_FE_MAXLIMBS], fb[LF_TEST_FE_MAXLIMBS], f1[LF_TEST_FE_MAXLIMBS];
		int64_t f2[LF_TEST_FE_MAXLIMBS];
		uint64_t cap = lf_test_fe_limb_cap(e->kernel);
		if (!cap)
			fail("no field bound for %s", e->kernel);
		for (size_t j = 0; j < e->limbs; j++)
			fa[j] = (int64_t)(rnd() % (cap + 1)), fb[j] = (int64_t)(rnd() % (cap + 1));
		memcpy(f1, fa, sizeof f1);
		if (e->sqr) {
			((lf_fe_square_fn)e->api)(f1, f1);
			((lf_fe_square_fn)e->ref)(f2, fa);
		} else {
			((lf_fe_mul_fn)e->api)(f1, f1, fb);
			((lf_fe_mul_fn)e->ref)(f2, fa, fb);
		}
		if (!fe_same(e, f1, f2))
			fail("lf_%s", e->kernel);
		printf("public API (dispatched): %s %s\n", e->kernel, lf_impl(e->kernel));
	}
	/* lf_x25519 / lf_x448 (the ladder kernels): RFC 7748 5.2's vectors */
	for (int i = 0; i < 2; i++) {
		uint8_t o1[32], o2[56];
		lf_x25519(o1, x25519_rfc[i][0], x25519_rfc[i][1]);
		if (memcmp(o1, x25519_rfc[i][2], 32))
			fail("lf_x25519: RFC 7748 5.2 vector %d", i + 1);
		lf_x448(o2, x448_rfc[i][0], x448_rfc[i][1]);
		if (memcmp(o2, x448_rfc[i][2], 56))
			fail("lf_x448: RFC 7748 5.2 vector %d", i + 1);
	}
	printf("public API (dispatched): lf_x25519 (x25519_ladder %s), lf_x448 (x448_ladder %s)\n",
	       lf_impl("x25519_ladder"), lf_impl("x448_ladder"));
	/* RFC 8439 2.5.2, one-shot (on a Win64 stack: the state may be under-aligned there) and
	 * through a state on the heap, 64-byte aligned */
	static const uint8_t key[32] = {
		0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5,
		0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf,
		0x41, 0x49, 0xf5, 0x1b};
	static const uint8_t tag_want[16] = {
		0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01,
		0x27, 0xa9};
	const char *text = "Cryptographic Forum Research Group";
	uint8_t tag[16];
	lf_poly1305(tag, (const uint8_t *)text, strlen(text), key);
	if (memcmp(tag, tag_want, 16))
		fail("lf_poly1305 (RFC 8439 2.5.2)");
	lf_poly1305_state *st = _aligned_malloc(sizeof *st, 64);
	lf_poly1305_init(st, key);
	lf_poly1305_update(st, (const uint8_t *)text, 5);
	lf_poly1305_update(st, (const uint8_t *)text + 5, strlen(text) - 5);
	lf_poly1305_final(st, tag);
	_aligned_free(st);
	if (memcmp(tag, tag_want, 16))
		fail("lf_poly1305_init/update/final (RFC 8439 2.5.2)");
	printf("public API (dispatched): mpn_mul_1 %s, mpn_addmul_1 %s, mpn_sqr %s, "
	       "bi_mul_add %s, bi_square_to_len %s, poly1305_blocks %s, mpn_mul %s, "
	       "mpn_montmul %s, bi_multiply_to_len %s, p256_mul_mont %s, p256_sqr_mont %s, "
	       "conditional_assign %s, p256_mont_mult %s, p256_mont_square %s, "
	       "p256_mont_mult_x8 %s\n", lf_impl("mpn_mul_1"),
	       lf_impl("mpn_addmul_1"), lf_impl("mpn_sqr"), lf_impl("bi_mul_add"),
	       lf_impl("bi_square_to_len"), lf_impl("poly1305_blocks"), lf_impl("mpn_mul"),
	       lf_impl("mpn_montmul"), lf_impl("bi_multiply_to_len"), lf_impl("p256_mul_mont"),
	       lf_impl("p256_sqr_mont"), lf_impl("conditional_assign"),
	       lf_impl("p256_mont_mult"), lf_impl("p256_mont_square"),
	       lf_impl("p256_mont_mult_x8"));
}

int main(void)
{
	uint64_t have = lf_cpu_features();
	int variants = 0;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!AddVectoredExceptionHandler(1, on_exception)) {
		printf("AddVectoredExceptionHandler failed\n");
		return 1;
	}
	for (size_t k = 0; k < LF_K_COUNT; k++) {
		const struct lf_kernel *ker = &lf_kernel_table[k];
		lf_fnptr ref = ker->variants[ker->count - 1].fn;
		for (size_t i = 0; i + 1 < ker->count; i++) {
			const struct lf_variant *v = &ker->variants[i];
			char name[96];
			snprintf(name, sizeof name, "%s.%s", ker->name, v->name);
			what = name;
			if (v->features & ~have) {
				printf("  %-26s skipped: this CPU lacks some of its features\n", name);
				continue;
			}
			long c0 = calls, s0 = steps, sc0 = stepped_calls, f0 = failures;
			long fr1 = step_frames[1], fr2 = step_frames[2];
			if (!strcmp(ker->name, "mpn_mul_1"))
				test_mpn_1(ker->name, v->fn, ref, 0);
			else if (!strcmp(ker->name, "mpn_addmul_1"))
				test_mpn_1(ker->name, v->fn, ref, 1);
			else if (!strcmp(ker->name, "mpn_sqr"))
				test_mpn_sqr(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "bi_mul_add"))
				test_bi_mul_add(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "bi_square_to_len"))
				test_bi_sqr(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "poly1305_blocks"))
				test_poly1305(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "mpn_mul"))
				test_mpn_mul(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "mpn_montmul"))
				test_montmul(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "bi_multiply_to_len"))
				test_bi_mtl(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "p256_mul_mont") ||
			         !strcmp(ker->name, "p256_sqr_mont"))
				test_p256(ker->name, v->fn, ref);
			else if (!strcmp(ker->name, "conditional_assign"))
				test_assign(ker->name, v->fn, ref);
			else if (!strncmp(ker->name, "p256_mont_", 10))
				test_p256m(ker->name, v->fn, ref);
			else if (fe_entry(ker->name))
				test_fe(fe_entry(ker->name), v->fn);
			else if (xdh_entry(ker->name))
				test_ladder(xdh_entry(ker->name), v->fn, ref);
			else if (!strcmp(ker->name, "fe_c25519_r51_mul_x4"))
				test_x4(v->fn, ref);
			else {
				fail("no test for this kernel");
				continue;
			}
			if (step_frames[2] == fr2)
				fail("no stepped instruction was in the body (unwinding not exercised)");
			variants++;
			printf("  %-26s %4ld calls, ABI ok; %ld stepped calls: %5ld instructions "
			       "unwound to the caller (%ld in the entry, %ld in a body)%s\n", name,
			       calls - c0, stepped_calls - sc0, steps - s0, step_frames[1] - fr1,
			       step_frames[2] - fr2, failures > f0 ? "  FAILED" : "");
		}
	}
	public_api();
	printf("win64: %d variants, %ld calls through the Microsoft x64 ABI, %ld instructions "
	       "single-stepped and unwound: %s\n", variants, calls, steps,
	       failures ? "FAILED" : "ok");
	return failures != 0 || variants == 0;
}
