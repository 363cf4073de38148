/*
 * unwind_sig.c -- unwind out of every assembly kernel from a signal handler, the way a
 * sampling profiler, a debugger or an exception thrown from a signal handler does.
 *
 * Fault this is designed to catch: wrong or missing CFI in a generated kernel -- a push,
 * stp or stack-pointer adjustment without its CFA note, a callee-saved register described at
 * the wrong slot or not at all, a .cfi_restore missing in the epilogue, an FDE that does not
 * cover the whole function, a size-dispatch preamble or frameless kernel with the wrong
 * default rule.  Every result test passes with such a kernel; perf, gdb and _Unwind_* stop
 * or go astray (or crash) when a sample lands at that instruction.
 *
 * How.  Each assembly variant runnable here is called through lf_uw_call (call_<arch>.S:
 * canaries in every callee-saved register, the stack pointer at the call recorded) from
 * lf_uw_drive, in a loop, while a one-shot POSIX timer (CLOCK_MONOTONIC, SIGPROF,
 * SA_SIGINFO|SA_RESTART) is re-armed with a random delay.  When the interrupted PC (from the
 * ucontext) lies in the variant's [start, start + st_size) -- from the ELF .symtab of
 * /proc/self/exe, since the kernels are hidden -- the handler calls libgcc's
 * _Unwind_Backtrace and requires:
 *   - a frame whose IP is the interrupted PC (the signal frame was unwound), with
 *     CFA == the stack pointer at lf_uw_call's call (the CFA rule at that very instruction);
 *   - the next frame at lf_uw_call_ret exactly (the return-address rule), with every
 *     callee-saved register equal to its canary (the register rules; AArch64: x19-x28,
 *     d8-d15, and x29 == lf_uw_call's frame record);
 *   - then lf_uw_drive, then main, and _URC_END_OF_STACK (the rest of the stack unwinds).
 * Phases per variant: long inputs (10^5-limb/word rows, squares of 1500 limbs / 3000 words,
 * 256 limbs for the IFMA squaring, less under qemu: hits in the body), then short inputs
 * (three calls in four of length 0..3, else 1..48, squares 1..16: hits at the entry, the
 * size-dispatch preamble, the prologue, early exits and the epilogue) until every prologue/
 * epilogue instant has been hit (AArch64, where they are found by decoding the stp/ldp/str/
 * ldr/add/sub-of-sp runs after the entry and before the final ret) or no new offset turns
 * up for a while, within a time budget; on x86-64 then a single-step pass (trap flag set by
 * lf_uw_call, SIGTRAP after every instruction) over fixed lengths 0..100, which checks every
 * instruction those calls execute, prologue and epilogue included.  A fault inside the
 * unwinder (bad CFI sends it to read anywhere) is caught and counted as a failed hit.
 * A variant fails if any check fails, if the timer never got a checked hit in it, if no
 * timer hit landed in its body (the deepest frame it reaches), or if fewer than 3 distinct
 * offsets were checked.
 *
 * Controls, before any kernel: lf_uw_control (control.c, plain C with
 * -fasynchronous-unwind-tables) must pass -- otherwise unwinding through a signal frame does
 * not work on this platform, and the kernels cannot be judged: with --emulated (how
 * tests/unwind.mk runs it under qemu-user, whose signal frame libgcc must recognise) the run
 * then reports SKIP with the reason and exits 0, natively it fails; and two deliberately
 * broken functions (lf_uw_broken_cfa, lf_uw_broken_reg) must each be caught, or the
 * checker is blind.
 *
 *   unwind_sig [-v] [--emulated] [--long-ms N] [--short-ms N] [--timer-us BASE,JITTER]
 *              [--no-step]
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include "../fe_kernels.h"
#include "elfsyms.h"
#include "lf_dispatch.h"
#include "lf_kernels.h"
#include "limbforge.h"
#include "uwcall.h"

_Static_assert(offsetof(struct uw_call, fn) == UW_FN, "uwcall.h layout");
_Static_assert(offsetof(struct uw_call, args) == UW_ARGS, "uwcall.h layout");
_Static_assert(offsetof(struct uw_call, canary) == UW_CANARY, "uwcall.h layout");
_Static_assert(offsetof(struct uw_call, flags) == UW_FLAGS, "uwcall.h layout");
_Static_assert(offsetof(struct uw_call, call_sp) == UW_CALL_SP, "uwcall.h layout");
_Static_assert(offsetof(struct uw_call, ret) == UW_RET, "uwcall.h layout");
_Static_assert(sizeof(struct uw_call) == UW_SIZE, "uwcall.h layout");

uint64_t lf_uw_control(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);

#if defined(__x86_64__)
#  define ARCH_NAME "x86_64"
#  define UC_PC(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RIP])
#  define UC_SP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RSP])
#  define ENTRY_DEPTH 8     /* CFA - sp at the first instruction: the return address */
#  define HAVE_STEP 1
static const int canary_reg[UW_NCANARY] = { 3, 6, 12, 13, 14, 15 };
static const char *const canary_name[UW_NCANARY + 1] = {
	"rbx", "rbp", "r12", "r13", "r14", "r15", "-"
};
/* long-input sizes: limbs for rows, limbs for squares, words for bi_* */
#  define LONG_ROW 100000
#  define LONG_SQR 1500
#  define LONG_BI_ROW 100000
#  define LONG_BI_SQR 3000
#  define DEF_LONG_MS 150
#  define DEF_SHORT_MS 250
#  define DEF_TIMER_US 40
#  define DEF_JITTER_US 80
#elif defined(__aarch64__)
#  define ARCH_NAME "aarch64"
#  define UC_PC(uc) ((uintptr_t)(uc)->uc_mcontext.pc)
#  define UC_SP(uc) ((uintptr_t)(uc)->uc_mcontext.sp)
#  define ENTRY_DEPTH 0
#  define HAVE_STEP 0
static const int canary_reg[UW_NCANARY] = {
	19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 72, 73, 74, 75, 76, 77, 78, 79
};
static const char *const canary_name[UW_NCANARY + 1] = {
	"x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
	"d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "x29"
};
/* smaller: the AArch64 binary runs under qemu-user (one instruction per block) */
#  define LONG_ROW 100000
#  define LONG_SQR 400
#  define LONG_BI_ROW 100000
#  define LONG_BI_SQR 800
#  define DEF_LONG_MS 300
#  define DEF_SHORT_MS 1200
#  define DEF_TIMER_US 300
#  define DEF_JITTER_US 600
#else
#  error "x86-64 and AArch64 only"
#endif
#define SHORT_MAX 48
/* x29 (AArch64) is checked against the call's stack pointer, after the canaries */
#define NGR (UW_NCANARY + 1)

enum { PH_LONG, PH_SHORT, PH_STEP, NPH };
static const char *const phase_name[NPH] = { "long", "short", "step" };

enum fail_kind {
	F_NONE, F_CRASH, F_NOPC, F_END, F_CFA, F_RET, F_REG, F_DRIVER, F_MAIN, F_RC
};

#define MAXFRAMES 48
#define MAXFAIL 4

struct frame {
	uintptr_t ip, cfa;
	int before;
};

struct failure {
	enum fail_kind kind;
	int phase, reg, nframes, kidx, rc;
	uintptr_t off, got, want;
	struct frame f[12];
};

struct probe {
	char label[64];
	enum lf_kernel_id kid;     /* argument shape */
	lf_fnptr fn;
	uintptr_t lo, hi;
	int expect_fail;           /* deliberately broken self-test function */
	uint32_t edge[64];         /* AArch64: offsets of the prologue/epilogue instants */
	int nedge;
	uint32_t *cnt[NPH];        /* per byte offset: checked hits */
	int32_t *depth;            /* per byte offset: CFA - sp seen there (-1: never) */
	unsigned long signals, hits[NPH], fails[NPH], distinct[NPH], last_new[NPH];
	unsigned long fail_kinds[F_RC + 1];
	struct failure fail[MAXFAIL];
	int nfail;
	volatile sig_atomic_t enough;
};

/* ---- state shared with the signal handlers ---------------------------------------------- */
static struct uw_call g_call;
static struct probe *volatile g_probe;
static volatile sig_atomic_t g_phase;
static volatile sig_atomic_t g_timer_on;
static timer_t g_timer;
static long g_timer_ns, g_jitter_ns;
static uintptr_t g_drive_lo, g_drive_hi, g_main_lo, g_main_hi;
static uint64_t g_hrng = 0x2545f4914f6cdd1dULL;
static int g_verbose;
static unsigned long g_min_hits[NPH] = { 100, 200, 0 };
static unsigned long g_saturate[NPH] = { 100, 300, 0 };

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

struct bt {
	uintptr_t pc;
	int n, kidx;
	struct frame f[MAXFRAMES];
	uint64_t gr[NGR];
};

static _Unwind_Reason_Code bt_cb(struct _Unwind_Context *ctx, void *arg)
{
	struct bt *st = arg;
	int before = 0;
	uintptr_t ip = (uintptr_t)_Unwind_GetIPInfo(ctx, &before);
	if (st->n < MAXFRAMES) {
		st->f[st->n].ip = ip;
		st->f[st->n].before = before;
		st->f[st->n].cfa = (uintptr_t)_Unwind_GetCFA(ctx);
	}
	if (st->kidx < 0 && ip == st->pc)
		st->kidx = st->n;
	else if (st->kidx >= 0 && st->n == st->kidx + 1) {
		for (int i = 0; i < UW_NCANARY; i++)
			st->gr[i] = (uint64_t)_Unwind_GetGR(ctx, canary_reg[i]);
#if defined(__aarch64__)
		st->gr[UW_NCANARY] = (uint64_t)_Unwind_GetGR(ctx, 29);
#endif
	}
	st->n++;
	return _URC_NO_REASON;
}

/* Bad CFI can send the unwinder to read anywhere (libgcc's fallback for frames without an
 * FDE reads the code at the "return address" to look for a signal trampoline): a fault
 * inside _Unwind_Backtrace is turned into a failed check.  No lock is held at those reads. */
static sigjmp_buf g_jmp;
static volatile sig_atomic_t g_jmp_armed;

static _Unwind_Reason_Code guarded_backtrace(struct bt *st, int *crashed)
{
	static volatile _Unwind_Reason_Code rc;
	rc = _URC_FATAL_PHASE1_ERROR;
	if (sigsetjmp(g_jmp, 1) == 0) {
		g_jmp_armed = 1;
		rc = _Unwind_Backtrace(bt_cb, st);
		g_jmp_armed = 0;
		*crashed = 0;
	} else {
		g_jmp_armed = 0;
		*crashed = 1;
	}
	return rc;
}

static int in_range(uintptr_t ip, int before, uintptr_t lo, uintptr_t hi)
{
	uintptr_t a = before ? ip : ip - 1;   /* a return address may end its function */
	return a >= lo && a < hi;
}

/* Judge one backtrace (frames st->f[0..n), the interrupted frame at k).  Checks in order;
 * when the unwinder faulted, a check that needs a frame it never produced reports F_CRASH. */
static enum fail_kind judge(const struct bt *st, int n, int crashed, _Unwind_Reason_Code rc,
                            uintptr_t *got, uintptr_t *want, int *reg)
{
	int k = st->kidx;
	enum fail_kind missing = crashed ? F_CRASH : F_NONE;
	if (k < 0 || k >= MAXFRAMES - 3)
		return crashed ? F_CRASH : F_NOPC;
	if (k + 1 >= n)
		return missing ? missing : F_END;
	/* libgcc's _Unwind_GetCFA(context of frame j) is the CFA of frame j - 1, i.e. the stack
	 * pointer of frame j: the interrupted frame's CFA is read one frame up */
	if (st->f[k + 1].cfa != g_call.call_sp) {
		*got = st->f[k + 1].cfa;
		*want = g_call.call_sp;
		return F_CFA;
	}
	if (st->f[k + 1].ip != (uintptr_t)lf_uw_call_ret) {
		*got = st->f[k + 1].ip;
		*want = (uintptr_t)lf_uw_call_ret;
		return F_RET;
	}
	for (int i = 0; i < NGR; i++) {
#if !defined(__aarch64__)
		if (i == UW_NCANARY)
			break;   /* x86-64: no frame-record register to compare */
#endif
		uint64_t w = i < UW_NCANARY ? g_call.canary[i] : g_call.call_sp;
		if (st->gr[i] != w) {
			*reg = i;
			*got = st->gr[i];
			*want = w;
			return F_REG;
		}
	}
	if (k + 2 >= n)
		return missing ? missing : F_DRIVER;
	if (!in_range(st->f[k + 2].ip, st->f[k + 2].before, g_drive_lo, g_drive_hi))
		return F_DRIVER;
	for (int j = k + 3; j < n; j++)
		if (in_range(st->f[j].ip, st->f[j].before, g_main_lo, g_main_hi))
			return crashed ? F_CRASH : rc != _URC_END_OF_STACK ? F_RC : F_NONE;
	return missing ? missing : F_MAIN;
}

static void check_hit(struct probe *p, int phase, uintptr_t pc, uintptr_t sp)
{
	static struct bt st;   /* handlers do not nest (SIGPROF and SIGTRAP block each other) */
	memset(&st, 0, sizeof st);
	st.pc = pc;
	st.kidx = -1;
	int crashed = 0;
	_Unwind_Reason_Code rc = guarded_backtrace(&st, &crashed);
	int n = st.n < MAXFRAMES ? st.n : MAXFRAMES, k = st.kidx;
	uintptr_t got = 0, want = 0;
	int reg = -1;
	enum fail_kind kind = judge(&st, n, crashed, rc, &got, &want, &reg);

	uintptr_t off = pc - p->lo;
	p->hits[phase]++;
	if (kind != F_NONE) {
		p->fails[phase]++;
		p->fail_kinds[kind]++;
		if (p->nfail < MAXFAIL) {
			struct failure *f = &p->fail[p->nfail++];
			f->kind = kind;
			f->phase = phase;
			f->reg = reg;
			f->off = off;
			f->got = got;
			f->want = want;
			f->rc = rc;
			f->kidx = k;
			f->nframes = n < 12 ? n : 12;
			memcpy(f->f, st.f, sizeof f->f);
		}
		return;
	}
	if (p->cnt[phase][off]++ == 0) {
		p->distinct[phase]++;
		p->last_new[phase] = p->hits[phase];
	}
	if (p->depth[off] < 0)
		p->depth[off] = (int32_t)(st.f[k + 1].cfa - sp);
}

static int edges_hit(const struct probe *p)
{
	int h = 0;
	for (int i = 0; i < p->nedge; i++)
		h += p->cnt[PH_LONG][p->edge[i]] + p->cnt[PH_SHORT][p->edge[i]] +
		     p->cnt[PH_STEP][p->edge[i]] > 0;
	return h;
}

static void arm_timer(void)
{
	struct itimerspec its;
	memset(&its, 0, sizeof its);
	long ns = g_timer_ns + (long)(xorshift(&g_hrng) % (uint64_t)(g_jitter_ns + 1));
	its.it_value.tv_sec = ns / 1000000000L;
	its.it_value.tv_nsec = ns % 1000000000L;
	timer_settime(g_timer, 0, &its, NULL);
}

static void on_prof(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	int saved = errno;
	ucontext_t *uc = ucv;
	struct probe *p = g_probe;
	int ph = g_phase;
	if (p && ph != PH_STEP) {
		uintptr_t pc = UC_PC(uc);
		p->signals++;
		if (pc >= p->lo && pc < p->hi) {
			check_hit(p, ph, pc, UC_SP(uc));
			/* enough: (AArch64, short inputs) every prologue/epilogue instant hit, or
			 * else no new offset for a while */
			if (p->hits[ph] >= g_min_hits[ph] &&
			    (ph == PH_SHORT && p->nedge ? edges_hit(p) == p->nedge :
			     p->hits[ph] - p->last_new[ph] >= g_saturate[ph]))
				p->enough = 1;
		}
	}
	if (g_timer_on)
		arm_timer();
	errno = saved;
}

#if HAVE_STEP
static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	int saved = errno;
	ucontext_t *uc = ucv;
	struct probe *p = g_probe;
	uintptr_t pc = UC_PC(uc);
	if (p && g_phase == PH_STEP && pc >= p->lo && pc < p->hi)
		check_hit(p, PH_STEP, pc, UC_SP(uc));
	errno = saved;
}
#endif

/* A crash inside the unwinder (bad CFI can send it to read anywhere) or a libgcc assertion:
 * say where, then exit. */
static void on_fatal(int sig)
{
	char buf[160];
	if ((sig == SIGSEGV || sig == SIGBUS) && g_jmp_armed)
		siglongjmp(g_jmp, 1);
	struct probe *p = g_probe;
	int len = snprintf(buf, sizeof buf, "unwind_sig: FAIL: fatal signal %d while checking %s "
	                   "(%s phase): the unwinder crashed or aborted\n", sig,
	                   p ? p->label : "-", phase_name[g_phase]);
	if (len > 0)
		(void)!write(2, buf, (size_t)len);
	_exit(1);
}

/* ---- driving the calls ---------------------------------------------------------------------- */
static uint64_t *buf_a, *buf_b;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the field products (tests/fe_kernels.h): limbs per element, 0 for other kernels */
static size_t fe_limbs(enum lf_kernel_id kid)
{
#define FE_LIMBS(field, limbs, op)                                                          \
	if (kid == LF_K_fe_##field##_##op)                                                  \
		return limbs;
	LF_TEST_FE_KERNELS(FE_LIMBS)
#undef FE_LIMBS
	return 0;
}

static size_t long_size(enum lf_kernel_id kid, const char *label)
{
	switch (kid) {
	case LF_K_mpn_mul_1:
	case LF_K_mpn_addmul_1:
		return LONG_ROW;
	case LF_K_mpn_sqr:
		/* the IFMA squaring runs itself only up to 256 limbs (it jumps to adx above) */
		return strstr(label, "ifma") ? 256 : LONG_SQR;
	case LF_K_bi_mul_add:
		return LONG_BI_ROW;
	case LF_K_bi_square_to_len:
		/* the IFMA squaring runs itself only up to 512 words (it jumps to adx above) */
		return strstr(label, "ifma") ? 512 : LONG_BI_SQR;
	case LF_K_poly1305_blocks:
		return LONG_ROW / 2;    /* 16-byte blocks: 800 KB of buf_a */
	case LF_K_mpn_mul:
		return LONG_SQR;        /* an; bn = an / 2 */
	case LF_K_mpn_montmul:
		/* the IFMA Montgomery multiplication runs itself only up to 64 limbs */
		return strstr(label, "ifma") ? 64 : LONG_SQR / 2;
	case LF_K_bi_multiply_to_len:
		/* xlen; ylen = xlen / 2; the IFMA product runs itself only up to 256 words */
		return strstr(label, "ifma") ? 256 : LONG_BI_SQR;
	case LF_K_p256_mul_mont:
	case LF_K_p256_sqr_mont:
		return 4;               /* one size: the long phase is many short calls */
	case LF_K_p256_mont_mult:
	case LF_K_p256_mont_square:
	case LF_K_p256_mont_mult_x8:
		return 5;               /* one size (5 limbs; x8: 8 elements), as above */
	case LF_K_conditional_assign:
		return LONG_ROW;
	case LF_K_fe_c25519_r51_mul_x4:
		return 20;              /* one size (four elements), as above */
	case LF_K_x25519_ladder:
	case LF_K_x448_ladder:
		return 1;               /* one size (one ladder), as above */
	default:
		return fe_limbs(kid);   /* one size (one element), as the P-256 kernels */
	}
}

/* kernels whose work grows as n^2: shorter sizes in the short and stepped phases */
static int quadratic(enum lf_kernel_id kid)
{
	return kid == LF_K_mpn_sqr || kid == LF_K_bi_square_to_len || kid == LF_K_mpn_mul ||
	       kid == LF_K_mpn_montmul || kid == LF_K_bi_multiply_to_len;
}

static void set_args(enum lf_kernel_id kid, size_t n, uint64_t rnd)
{
	uint64_t *a = g_call.args;
	switch (kid) {
	case LF_K_mpn_mul_1:
	case LF_K_mpn_addmul_1:
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = n;
		a[3] = rnd | 1;
		break;
	case LF_K_mpn_sqr:
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = n;
		break;
	case LF_K_bi_mul_add:
		/* window out[1..n] of out[0..n] (top = out_len - offset - 1 = n) */
		a[0] = (uintptr_t)buf_b;
		a[1] = n + 1;
		a[2] = (uintptr_t)buf_a;
		a[3] = 0;
		a[4] = n;
		a[5] = (uint32_t)rnd;
		break;
	case LF_K_bi_square_to_len:
		a[0] = (uintptr_t)buf_a;
		a[1] = n;
		a[2] = (uintptr_t)buf_b;
		break;
	case LF_K_poly1305_blocks: {
		/* ctx: 136 words, 64-byte aligned, in buf_b: h small, a clamped r, no powers
		 * table (ctx[5] = 0, so vector variants rebuild theirs); m = buf_a, n blocks */
		uint64_t *ctx = (uint64_t *)(((uintptr_t)buf_b + 63) & ~(uintptr_t)63);
		ctx[0] = rnd, ctx[1] = ~rnd, ctx[2] = rnd & 3;
		ctx[3] = (rnd * 0x9e3779b97f4a7c15ULL) & 0x0ffffffc0fffffffULL;
		ctx[4] = (rnd ^ (rnd >> 7)) & 0x0ffffffc0ffffffcULL;
		ctx[5] = ctx[6] = ctx[7] = 0;
		a[0] = (uintptr_t)ctx;
		a[1] = (uintptr_t)buf_a;
		a[2] = n;
		a[3] = rnd & 1;
		break;
	}
	case LF_K_mpn_mul: {
		/* an = n >= bn: about half of an when long, any 1..an when short */
		size_t bn = n > 100 ? n / 2 : n ? 1 + (size_t)(rnd >> 8) % n : 0;
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = n;
		a[3] = (uintptr_t)(buf_a + n);
		a[4] = bn;
		break;
	}
	case LF_K_mpn_montmul:
		/* a, b, N consecutive in buf_a, N odd (any n0inv: the result is meaningless but
		 * the kernel must run through) */
		buf_a[2 * n] |= 1;
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = (uintptr_t)(buf_a + n);
		a[3] = (uintptr_t)(buf_a + 2 * n);
		a[4] = rnd | 1;
		a[5] = n;
		break;
	case LF_K_bi_multiply_to_len: {
		size_t yl = n > 100 ? n / 2 : (size_t)(rnd >> 8) % (n + 1);
		a[0] = (uintptr_t)buf_a;
		a[1] = n;
		a[2] = (uintptr_t)(buf_a + n);
		a[3] = yl;
		a[4] = (uintptr_t)buf_b;
		break;
	}
	case LF_K_p256_mul_mont:
	case LF_K_p256_sqr_mont:
		/* 4 limbs whatever n is: r = buf_b, a = buf_a, b = buf_a + 4 (any values: an
		 * input above p only makes the result unreduced) */
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = (uintptr_t)(buf_a + 4);
		break;
	case LF_K_p256_mont_mult:
	case LF_K_p256_mont_square:
	case LF_K_p256_mont_mult_x8:
		/* 5 limbs (x8: 40) whatever n is: r = buf_b, a = buf_a, b = buf_a + 40 (any
		 * values: limbs above 52 bits give an unspecified result, never a fault) */
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = (uintptr_t)(buf_a + 40);
		break;
	case LF_K_conditional_assign:
		a[0] = rnd & 1;
		a[1] = (uintptr_t)buf_b;
		a[2] = (uintptr_t)buf_a;
		a[3] = n;
		break;
	case LF_K_fe_c25519_r51_mul_x4:
		/* four elements whatever n is: r = buf_b, a = buf_a, b = buf_a + 20 (limbs of
		 * 52 bits and more give an unspecified result, never a fault) */
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = (uintptr_t)(buf_a + 20);
		break;
	case LF_K_x25519_ladder:
	case LF_K_x448_ladder: {
		/* one ladder whatever n is: xz = buf_b, k = buf_a (56 bytes), u = buf_a + 8 (any
		 * values: outside the contract an unspecified result, never a fault), tmp the
		 * 32-byte aligned scratch the contract asks for */
		static _Alignas(32) int64_t tmp[128];
		a[0] = (uintptr_t)buf_b;
		a[1] = (uintptr_t)buf_a;
		a[2] = (uintptr_t)(buf_a + 8);
		a[3] = (uintptr_t)tmp;
		break;
	}
	default:
		if (fe_limbs(kid)) {
			/* a field product: one element whatever n is: r = buf_b, a = buf_a, b =
			 * buf_a + 20 (any values: limbs outside the bound M give an unspecified
			 * result, never a fault; square ignores b) */
			a[0] = (uintptr_t)buf_b;
			a[1] = (uintptr_t)buf_a;
			a[2] = (uintptr_t)(buf_a + 20);
		}
		break;
	}
}

/* The caller every unwind must reach (not inlined, not cloned: found by its symbol). */
__attribute__((noinline, noclone)) void lf_uw_drive(struct probe *p, int phase, double secs,
                                                   const size_t *sizes, size_t nsizes);
__attribute__((noinline, noclone)) void lf_uw_drive(struct probe *p, int phase, double secs,
                                                   const size_t *sizes, size_t nsizes)
{
	static uint64_t rng = 0x9e3779b97f4a7c15ULL;
	double deadline = now_s() + secs;
	size_t i = 0, calls = 0;
	int sqr = quadratic(p->kid);
	g_call.fn = (uintptr_t)p->fn;
	g_call.flags = phase == PH_STEP ? UW_STEP : 0;
	while (!p->enough) {
		size_t n;
		if (phase == PH_STEP) {
			/* a ladder is one size and 255 / 448 steps of ~700 / ~1500 instructions,
			 * all of them stepped: one call covers its code */
			if (i >= nsizes || (i >= 1 && (p->kid == LF_K_x25519_ladder ||
			                               p->kid == LF_K_x448_ladder)))
				break;
			n = sizes[i++];
		} else if (phase == PH_SHORT) {
			/* 3 calls in 4 at 0..3: mostly entry, early exit, prologue, epilogue */
			uint64_t x = xorshift(&rng);
			size_t max = sqr ? SHORT_MAX / 3 : SHORT_MAX;   /* squares cost n^2 */
			n = (x & 3) ? (size_t)(x >> 2) % 4 : 1 + (size_t)(x >> 2) % max;
		} else {
			n = long_size(p->kid, p->label);
		}
		set_args(p->kid, n, xorshift(&rng));
		lf_uw_call(&g_call);
		calls++;
		if (phase != PH_STEP && (phase == PH_LONG || calls % 16 == 0) && now_s() > deadline)
			break;
	}
	g_call.flags = 0;
}

#if defined(__aarch64__)
/* Is `i` a store (prologue) or load (epilogue) of a register pair/register with base sp, or
 * an sp adjustment by an immediate?  Enough for the frames a compiler or limbforge emits. */
static int a64_frame_insn(uint32_t i, int *load)
{
	static const struct {
		uint32_t mask, val;
		int load;
	} t[] = {
		{ 0xffc00000, 0xa9000000, 0 }, { 0xffc00000, 0xa9800000, 0 }, /* stp x (off, pre) */
		{ 0xffc00000, 0xa8800000, 0 },                                /* stp x (post) */
		{ 0xffc00000, 0xa9400000, 1 }, { 0xffc00000, 0xa9c00000, 1 }, /* ldp x */
		{ 0xffc00000, 0xa8c00000, 1 },
		{ 0xffc00000, 0x6d000000, 0 }, { 0xffc00000, 0x6d800000, 0 }, /* stp d */
		{ 0xffc00000, 0x6c800000, 0 },
		{ 0xffc00000, 0x6d400000, 1 }, { 0xffc00000, 0x6dc00000, 1 }, /* ldp d */
		{ 0xffc00000, 0x6cc00000, 1 },
		{ 0xffc00000, 0xf9000000, 0 }, { 0xffc00000, 0xf9400000, 1 }, /* str/ldr x, uimm */
		{ 0xffe00c00, 0xf8000c00, 0 }, { 0xffe00c00, 0xf8000400, 0 }, /* str x pre/post */
		{ 0xffe00c00, 0xf8400c00, 1 }, { 0xffe00c00, 0xf8400400, 1 }, /* ldr x pre/post */
		{ 0xffc00000, 0xfd000000, 0 }, { 0xffc00000, 0xfd400000, 1 }, /* str/ldr d, uimm */
	};
	if (((i >> 5) & 31) != 31)
		return 0;
	for (size_t k = 0; k < sizeof t / sizeof *t; k++)
		if ((i & t[k].mask) == t[k].val) {
			*load = t[k].load;
			return 1;
		}
	if ((i & 31) == 31 && ((i & 0xff800000) == 0xd1000000 || (i & 0xff800000) == 0x91000000)) {
		*load = (i & 0xff800000) == 0x91000000;   /* sub / add sp, sp, #imm */
		return 1;
	}
	return 0;
}

/* The instants around the frame: from the entry to the first instruction after the
 * prologue's saves, and from the first restore to the final ret. */
static void find_edges(struct probe *p)
{
	const uint32_t *code = (const uint32_t *)p->lo;
	size_t n = (p->hi - p->lo) / 4, i = 0, e;
	int load;
	if (n && code[0] == 0xd503245f)   /* bti c */
		i = 1;
	while (i < n && a64_frame_insn(code[i], &load) && !load)
		i++;
	if (i > 1 || (i == 1 && code[0] != 0xd503245f))
		for (size_t j = 0; j <= i && j < n && p->nedge < 64; j++)
			p->edge[p->nedge++] = (uint32_t)(4 * j);
	if (n && code[n - 1] == 0xd65f03c0) {   /* ret */
		e = n - 1;
		while (e > i && a64_frame_insn(code[e - 1], &load) && load)
			e--;
		if (e < n - 1)
			for (size_t j = e; j < n && p->nedge < 64; j++)
				p->edge[p->nedge++] = (uint32_t)(4 * j);
	}
}
#endif

static int probe_init(struct probe *p, const char *label, enum lf_kernel_id kid, lf_fnptr fn,
                      int expect_fail)
{
	memset(p, 0, sizeof *p);
	snprintf(p->label, sizeof p->label, "%s", label);
	p->kid = kid;
	p->fn = fn;
	p->expect_fail = expect_fail;
	const struct elfsym *s = elfsyms_starting((uintptr_t)fn);
	if (!s) {
		printf("unwind_sig: FAIL: %s: no sized FUNC symbol at %p in the symbol table\n",
		       label, (void *)(uintptr_t)fn);
		return -1;
	}
	p->lo = s->addr;
	p->hi = s->addr + s->size;
	for (int ph = 0; ph < NPH; ph++)
		p->cnt[ph] = calloc(s->size, sizeof(uint32_t));
	p->depth = malloc(s->size * sizeof(int32_t));
	for (size_t i = 0; i < s->size; i++)
		p->depth[i] = -1;
#if defined(__aarch64__)
	find_edges(p);
#endif
	return 0;
}

static const char *kind_text(enum fail_kind k)
{
	switch (k) {
	case F_CRASH: return "the unwinder faulted (SIGSEGV/SIGBUS) following this frame's CFI";
	case F_NOPC: return "the unwinder never reached the interrupted PC (signal frame not unwound)";
	case F_END: return "the backtrace stops at the interrupted frame (no FDE covers the PC?)";
	case F_CFA: return "wrong CFA for the interrupted frame";
	case F_RET: return "the frame after the kernel is not the return address in lf_uw_call";
	case F_REG: return "a callee-saved register unwinds to the wrong value";
	case F_DRIVER: return "the frame after lf_uw_call is not lf_uw_drive";
	case F_MAIN: return "the backtrace does not reach main";
	case F_RC: return "_Unwind_Backtrace did not end with _URC_END_OF_STACK";
	default: return "?";
	}
}

static void print_failure(const struct probe *p, const struct failure *f)
{
	printf("    %s phase, pc = %s+%#lx: %s", phase_name[f->phase], p->label,
	       (unsigned long)f->off, kind_text(f->kind));
	if (f->kind == F_CFA)
		printf(" (got %#lx, expected %#lx: off by %ld)", (unsigned long)f->got,
		       (unsigned long)f->want, (long)(f->got - f->want));
	else if (f->kind == F_RET)
		printf(" (got %#lx, expected lf_uw_call_ret %#lx)", (unsigned long)f->got,
		       (unsigned long)f->want);
	else if (f->kind == F_REG)
		printf(" (%s: got %#lx, expected %#lx)", canary_name[f->reg],
		       (unsigned long)f->got, (unsigned long)f->want);
	else if (f->kind == F_RC)
		printf(" (rc %d)", f->rc);
	printf("\n      backtrace:");
	for (int i = 0; i < f->nframes; i++) {
		const struct elfsym *s = elfsyms_containing(f->f[i].before ? f->f[i].ip :
		                                            f->f[i].ip - 1);
		printf(" %s%s+%#lx", i == f->kidx ? "*" : "", s ? s->name : "?",
		       (unsigned long)(s ? f->f[i].ip - s->addr : f->f[i].ip));
	}
	printf("\n");
}

/* Run the phases for one probe; print its line; return 0 if it met its expectation. */
static int run_probe(struct probe *p, int do_step, double long_s, double short_s)
{
	static const size_t step_row[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	                                   16, 17, 18, 19, 20, 23, 31, 32, 33, 47, 48, 64, 100 };
	static const size_t step_sqr[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	                                   16, 17, 19, 24, 33 };
	int phases[NPH] = { PH_LONG, PH_SHORT, PH_STEP };
	for (int i = 0; i < NPH; i++) {
		int ph = phases[i];
		if (ph == PH_STEP && !do_step)
			continue;
		int sqr = quadratic(p->kid);
		p->enough = 0;
		g_phase = ph;
		g_probe = p;
		if (ph != PH_STEP) {
			g_timer_on = 1;
			arm_timer();
		}
		lf_uw_drive(p, ph, ph == PH_LONG ? long_s : short_s, sqr ? step_sqr : step_row,
		            sqr ? sizeof step_sqr / sizeof *step_sqr : sizeof step_row / sizeof *step_row);
		g_timer_on = 0;
		g_probe = NULL;
		struct itimerspec off;
		memset(&off, 0, sizeof off);
		timer_settime(g_timer, 0, &off, NULL);
	}

	/* where the checked hits landed: frame depth (CFA - sp) per offset; the body is the
	 * deepest frame the variant reaches, its edges (entry, preamble, prologue, epilogue,
	 * return) the rest */
	size_t size = p->hi - p->lo;
	int32_t maxd = -1;
	for (size_t o = 0; o < size; o++)
		if (p->depth[o] > maxd)
			maxd = p->depth[o];
	unsigned long total = 0, fails = 0, offs = 0, edge_offs = 0;
	unsigned long body_hits = 0, edge_hits = 0, timer_hits = p->hits[PH_LONG] + p->hits[PH_SHORT];
	unsigned long depths[16][2];   /* depth, distinct offsets */
	int nd = 0;
	for (int ph = 0; ph < NPH; ph++) {
		total += p->hits[ph];
		fails += p->fails[ph];
	}
	for (size_t o = 0; o < size; o++) {
		unsigned long timer = p->cnt[PH_LONG][o] + p->cnt[PH_SHORT][o];
		if (!timer && !p->cnt[PH_STEP][o])
			continue;
		offs++;
		if (p->depth[o] == maxd) {
			body_hits += timer;
		} else {
			edge_offs++;
			edge_hits += timer;
		}
		int j = 0;
		while (j < nd && depths[j][0] != (unsigned long)p->depth[o])
			j++;
		if (j == nd && nd < 16) {
			depths[nd][0] = (unsigned long)p->depth[o];
			depths[nd++][1] = 0;
		}
		if (j < nd)
			depths[j][1]++;
	}
	for (int a = 0; a < nd; a++)   /* ascending depth for the report */
		for (int b = a + 1; b < nd; b++)
			if (depths[b][0] < depths[a][0]) {
				unsigned long t0 = depths[a][0], t1 = depths[a][1];
				depths[a][0] = depths[b][0];
				depths[a][1] = depths[b][1];
				depths[b][0] = t0;
				depths[b][1] = t1;
			}

	int ok;
	if (p->expect_fail) {
		ok = fails > 0;
		printf("  %-24s %-6s deliberately wrong CFI: %lu of %lu hits rejected%s%s\n",
		       p->label, ok ? "caught" : "FAIL", fails, total, ok ? ", first: " : "",
		       ok ? kind_text(p->fail[0].kind) : " -- the checker is blind");
		if (ok && g_verbose)
			print_failure(p, &p->fail[0]);
		return ok ? 0 : -1;
	}
	char why[160] = "";
	ok = fails == 0 && timer_hits > 0 && body_hits > 0 && offs >= 3;
	if (fails)
		snprintf(why, sizeof why, " -- %lu of %lu checked hits failed", fails, total);
	else if (timer_hits == 0)
		snprintf(why, sizeof why, " -- the timer never interrupted it (%lu signals)",
		         p->signals);
	else if (body_hits == 0)
		snprintf(why, sizeof why, " -- no timer hit in the body");
	else if (offs < 3)
		snprintf(why, sizeof why, " -- hits at only %lu distinct offsets", offs);
	printf("  %-24s %-4s %5zu B: timer %lu (%lu long, %lu short), body %lu, edges %lu",
	       p->label, ok ? "ok" : "FAIL", size, timer_hits, p->hits[PH_LONG],
	       p->hits[PH_SHORT], body_hits, edge_hits);
	if (p->hits[PH_STEP])
		printf("; step %lu", p->hits[PH_STEP]);
	printf("; %lu offsets (%lu at edges", offs, edge_offs);
	if (p->nedge)
		printf("; prologue/epilogue instants %d of %d", edges_hit(p), p->nedge);
	printf("); CFA-sp:");
	for (int j = 0; j < nd; j++)
		printf(" %lu(%lu)", depths[j][0], depths[j][1]);
	if (nd == 1 && depths[0][0] == ENTRY_DEPTH)
		printf(" frameless");
	printf("%s\n", why);
	if (fails) {
		for (int i = 0; i < p->nfail; i++)
			print_failure(p, &p->fail[i]);
		printf("    failure kinds:");
		for (int k = F_CRASH; k <= F_RC; k++)
			if (p->fail_kinds[k])
				printf(" %lu x %s;", p->fail_kinds[k], kind_text((enum fail_kind)k));
		printf("\n");
	}
	return ok ? 0 : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: unwind_sig [-v] [--emulated] [--long-ms N] [--short-ms N] "
	        "[--timer-us BASE,JITTER] [--no-step]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long long_ms = DEF_LONG_MS, short_ms = DEF_SHORT_MS;
	long timer_us = DEF_TIMER_US, jitter_us = DEF_JITTER_US;
	int do_step = HAVE_STEP, emulated = 0;
	char err[256];

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			g_verbose = 1;
		else if (!strcmp(argv[i], "--long-ms") && i + 1 < argc)
			long_ms = atol(argv[++i]);
		else if (!strcmp(argv[i], "--short-ms") && i + 1 < argc)
			short_ms = atol(argv[++i]);
		else if (!strcmp(argv[i], "--timer-us") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ld,%ld", &timer_us, &jitter_us) != 2)
				usage();
		} else if (!strcmp(argv[i], "--no-step"))
			do_step = 0;
		else if (!strcmp(argv[i], "--emulated"))
			emulated = 1;
		else
			usage();
	}
	g_timer_ns = timer_us * 1000;
	g_jitter_ns = jitter_us * 1000;

	if (elfsyms_load("/proc/self/exe", (const void *)(uintptr_t)main, "main", err,
	                 sizeof err) != 0 &&
	    elfsyms_load(argv[0], (const void *)(uintptr_t)main, "main", err, sizeof err) != 0) {
		printf("unwind_sig: FAIL: %s\n", err);
		return 1;
	}
	const struct elfsym *sd = elfsyms_named("lf_uw_drive");
	const struct elfsym *sm = elfsyms_starting((uintptr_t)main);
	if (!sd || !sm) {
		printf("unwind_sig: FAIL: no sized symbol for lf_uw_drive or main\n");
		return 1;
	}
	g_drive_lo = sd->addr;
	g_drive_hi = sd->addr + sd->size;
	g_main_lo = sm->addr;
	g_main_hi = sm->addr + sm->size;

	/* operands: random limbs, large enough for every long input */
	size_t words = 2 * LONG_ROW + 16;
	buf_a = malloc(words * sizeof(uint64_t));
	buf_b = malloc(2 * words * sizeof(uint64_t));
	uint64_t r = 0x0123456789abcdefULL;
	for (size_t i = 0; i < words; i++)
		buf_a[i] = xorshift(&r);
	memset(buf_b, 0, 2 * words * sizeof(uint64_t));
	for (int i = 0; i < 18; i++)
		g_call.canary[i] = 0xca0a0000c0de0000ULL ^ ((uint64_t)(i + 1) * 0x0101010101ULL) ^
		                   (xorshift(&r) & 0xffff0000ULL);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_prof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGTRAP);
	sigaction(SIGPROF, &sa, NULL);
#if HAVE_STEP
	sa.sa_sigaction = on_trap;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGPROF);
	sigaction(SIGTRAP, &sa, NULL);
#endif
	signal(SIGSEGV, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGILL, on_fatal);
	signal(SIGABRT, on_fatal);
	struct sigevent sev;
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGPROF;
	if (timer_create(CLOCK_MONOTONIC, &sev, &g_timer) != 0) {
		printf("unwind_sig: FAIL: timer_create: %s\n", strerror(errno));
		return 1;
	}

	printf("unwind_sig (%s): SIGPROF every %ld..%ld us; per variant: long inputs %ld ms, "
	       "short inputs (0..%d, squares 0..%d) %ld ms%s\n", ARCH_NAME, timer_us,
	       timer_us + jitter_us, long_ms, SHORT_MAX, SHORT_MAX / 3, short_ms,
	       do_step ? ", then single-step (trap flag) over fixed lengths" : "");
	printf("  (timer: checked hits; body: at the deepest frame; edges: elsewhere (entry, "
	       "preamble, prologue, epilogue);\n   offsets: distinct byte offsets checked; "
	       "CFA-sp: frame depth (distinct offsets))\n");
	double long_s = long_ms / 1000.0, short_s = short_ms / 1000.0;
	int failed = 0, nvar = 0;
	struct probe p;

	/* the control: compiler-generated CFI through the platform's signal frame */
	if (probe_init(&p, "control/c", LF_K_mpn_mul_1, (lf_fnptr)lf_uw_control, 0) != 0)
		return 1;
	if (run_probe(&p, do_step, long_s, short_s) != 0) {
		printf("unwind_sig: %s: unwinding out of a plain C function (control.c, "
		       "-fasynchronous-unwind-tables) through the signal frame does not work %s, "
		       "so the kernels' CFI cannot be judged\n", emulated ? "SKIP" : "FAIL",
		       emulated ? "under this emulator (its signal frame is not what libgcc "
		       "expects)" : "here");
		return emulated ? 0 : 1;
	}
	/* the checker's self-test: deliberately wrong CFI must be caught */
	struct { const char *label; lf_fnptr fn; } broken[] = {
		{ "selftest/broken_cfa", (lf_fnptr)lf_uw_broken_cfa },
		{ "selftest/broken_reg", (lf_fnptr)lf_uw_broken_reg },
	};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
		struct probe q;
		if (probe_init(&q, broken[i].label, LF_K_mpn_mul_1, broken[i].fn, 1) != 0 ||
		    run_probe(&q, 0, long_s / 4, 0) != 0)
			failed++;
	}

	uint64_t have = lf_cpu_features();
	for (int k = 0; k < LF_K_COUNT; k++) {
		const struct lf_kernel *K = &lf_kernel_table[k];
		for (size_t v = 0; v < K->count; v++) {
			const struct lf_variant *V = &K->variants[v];
			char label[64];
			snprintf(label, sizeof label, "%s/%s", K->name, V->name);
			if (!(V->features & LF_CPU_ASM))
				continue;   /* portable C: not what this test is about */
			uint64_t missing = V->features & ~have;
			if (missing) {
				char names[256] = "";
				for (const struct lf_feature_name *fn = lf_feature_names; fn->name; fn++)
					if (missing & fn->bit) {
						strncat(names, " ", sizeof names - strlen(names) - 1);
						strncat(names, fn->name, sizeof names - strlen(names) - 1);
					}
				printf("  %-24s SKIP   the CPU (or LIMBFORGE_CPU) lacks:%s\n", label,
				       names);
				continue;
			}
			struct probe q;
			nvar++;
			if (probe_init(&q, label, (enum lf_kernel_id)k, V->fn, 0) != 0 ||
			    run_probe(&q, do_step, long_s, short_s) != 0)
				failed++;
		}
	}
	printf("unwind_sig (%s): %d assembly variants checked, %s\n", ARCH_NAME, nvar,
	       failed ? "FAILED" : nvar ? "all unwound correctly from every hit" :
	       "none runnable here (see SKIP)");
	return failed ? 1 : 0;
}
