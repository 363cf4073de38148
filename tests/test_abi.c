/*
 * test_abi.c -- every runnable variant called through the ABI trampoline
 * (tests/abi/<arch>.S), plus self-tests proving the trampoline catches each violation.
 *
 * Faults this is designed to catch:
 *   - a callee-saved register not preserved: x86-64 rbx rbp r12-r15; AArch64 x19-x29 and
 *     d8-d15 (and x18, which generated code must never touch; gcc may use it in `ref`, so
 *     there it is reported, not failed);
 *   - sp not restored; the direction flag left set; MXCSR/x87 CW or FPCR modified;
 *   - x86-64: upper YMM/ZMM state left in use on return (missing vzeroupper), read from
 *     XINUSE (XGETBV with ECX=1) when CPUID.(EAX=0DH,ECX=1):EAX[2] says it exists: with a
 *     clean state before the call, no variant may return dirty; with a dirty state before
 *     the call, a variant that needs AVX-class features must return clean (it has to end
 *     with vzeroupper whatever the entry state);
 *   - bi_mul_add using the upper 32 bits of k: the trampoline passes k with garbage there
 *     (both ABIs leave them unspecified) and the result must match the oracle for (uint32_t)k;
 *   - a kernel that needs more than the ABI's 16-byte stack alignment: the call is made
 *     with exactly 16-byte alignment (checked by a self-test);
 *   - a generated kernel writing deeper below its call than its frame allows (the stack is
 *     painted below the call): at most the return address, 16 pushes, 4 KiB and the x86-64
 *     red zone, and for the x86 code before the frame (small bi_multiply_to_len,
 *     bi_square_to_len, mpn_mul) the return address, 6 pushes and the red zone only.
 * Results of every call are also compared with the oracle.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "abi/abi.h"
#include "fe_kernels.h"
#include "lf_xdh.h"

_Static_assert(offsetof(struct abi_frame, fn) == ABI_FN, "abi.h");
_Static_assert(offsetof(struct abi_frame, args) == ABI_ARGS, "abi.h");
_Static_assert(offsetof(struct abi_frame, flags) == ABI_FLAGS, "abi.h");
_Static_assert(offsetof(struct abi_frame, canary) == ABI_CANARY, "abi.h");
_Static_assert(offsetof(struct abi_frame, fcanary) == ABI_FCANARY, "abi.h");
_Static_assert(offsetof(struct abi_frame, seen) == ABI_SEEN, "abi.h");
_Static_assert(offsetof(struct abi_frame, fseen) == ABI_FSEEN, "abi.h");
_Static_assert(offsetof(struct abi_frame, ret) == ABI_RET, "abi.h");
_Static_assert(offsetof(struct abi_frame, sp_before) == ABI_SP_BEFORE, "abi.h");
_Static_assert(offsetof(struct abi_frame, sp_after) == ABI_SP_AFTER, "abi.h");
_Static_assert(offsetof(struct abi_frame, xinuse_before) == ABI_XINUSE_BEFORE, "abi.h");
_Static_assert(offsetof(struct abi_frame, xinuse_after) == ABI_XINUSE_AFTER, "abi.h");
_Static_assert(offsetof(struct abi_frame, rflags_after) == ABI_RFLAGS_AFTER, "abi.h");
_Static_assert(offsetof(struct abi_frame, ctrl_before) == ABI_CTRL_BEFORE, "abi.h");
_Static_assert(offsetof(struct abi_frame, ctrl_after) == ABI_CTRL_AFTER, "abi.h");
_Static_assert(offsetof(struct abi_frame, fcw_before) == ABI_FCW_BEFORE, "abi.h");
_Static_assert(offsetof(struct abi_frame, fcw_after) == ABI_FCW_AFTER, "abi.h");
_Static_assert(sizeof(struct abi_frame) == ABI_SIZE, "abi.h");

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define K_GARBAGE UINT64_C(0xdeadbeef00000000)

#if defined(__x86_64__)
static const char *const gpr_name[12] = { "rbx", "rbp", "r12", "r13", "r14", "r15" };
#define NGPR 6
#else
static const char *const gpr_name[12] = { "x19", "x20", "x21", "x22", "x23", "x24",
                                          "x25", "x26", "x27", "x28", "x29", "x18" };
#define NGPR 12
#define X18 11
#endif

/* ---- what this CPU lets us check (own CPUID reads, not limbforge's detection) ------------ */
struct xstate {
	int avx, avx512, xinuse;
};

#if defined(__x86_64__)
#include <cpuid.h>
static struct xstate xstate_caps(void)
{
	struct xstate s = { 0, 0, 0 };
	unsigned a, b, c, d;
	if (__get_cpuid_max(0, NULL) < 0xd)
		return s;
	__cpuid(1, a, b, c, d);
	if (!((c >> 27) & 1)) /* OSXSAVE */
		return s;
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	uint64_t xcr0 = ((uint64_t)hi << 32) | lo;
	s.avx = ((c >> 28) & 1) && (xcr0 & 6) == 6;
	__cpuid_count(7, 0, a, b, c, d);
	s.avx512 = s.avx && ((b >> 16) & 1) && (xcr0 & 0xe0) == 0xe0;
	__cpuid_count(0xd, 1, a, b, c, d);
	s.xinuse = (a >> 2) & 1;
	return s;
}
#else
static struct xstate xstate_caps(void)
{
	struct xstate s = { 0, 0, 0 };
	return s;
}
#endif

/* AVX-class features: a variant needing any of them must vzeroupper before returning. */
#define AVX_CLASS (LF_CPU_AVX | LF_CPU_AVX2 | LF_CPU_FMA | LF_CPU_AVX512F | LF_CPU_AVX512DQ | \
                   LF_CPU_AVX512BW | LF_CPU_AVX512VL | LF_CPU_AVX512IFMA |                    \
                   LF_CPU_AVX512VBMI | LF_CPU_AVX512VBMI2 | LF_CPU_AVXIFMA)
#define XINUSE_DIRTY_MASK 0x44 /* YMM_Hi128 (2), ZMM_Hi256 (6); Hi16_ZMM (7) is not
                                * cleared by vzeroupper and glibc's EVEX string functions
                                * leave it in use, so it is reported, not required */

static void frame_init(struct abi_frame *f, lf_fnptr fn, rng_t *rng)
{
	memset(f, 0, sizeof *f);
	f->fn = (uint64_t)(uintptr_t)fn;
	for (int i = 0; i < 12; i++)
		f->canary[i] = (rng_next(rng) | UINT64_C(0x8000000000000001)) ^ (uint64_t)i << 8;
	for (int i = 0; i < 8; i++)
		f->fcanary[i] = rng_next(rng) | UINT64_C(0x4000000000000001);
}

/* Names of the registers the callee did not preserve; "" when all were. */
static const char *clobbered(const struct abi_frame *f, int check_x18, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < NGPR; i++) {
#if defined(__aarch64__)
		if (i == X18 && !check_x18)
			continue;
#else
		(void)check_x18;
#endif
		if (f->seen[i] != f->canary[i])
			o += (size_t)snprintf(buf + o, len - o, "%s ", gpr_name[i]);
	}
#if defined(__aarch64__)
	for (int i = 0; i < 8; i++)
		if (f->fseen[i] != f->fcanary[i])
			o += (size_t)snprintf(buf + o, len - o, "d%d ", 8 + i);
#endif
	return buf;
}

/* Everything but XINUSE; returns a description of the first violation or NULL. */
static const char *violation(const struct abi_frame *f, int check_x18, char *buf, size_t len)
{
	char regs[160];
	if (clobbered(f, check_x18, regs, sizeof regs)[0]) {
		snprintf(buf, len, "callee-saved registers not preserved: %s", regs);
		return buf;
	}
	if (f->sp_after != f->sp_before) {
		snprintf(buf, len, "sp moved by %+lld bytes", (long long)(f->sp_after - f->sp_before));
		return buf;
	}
	/* control bits only: MXCSR bits 0-5 are exception flags (caller-saved status; the
	 * harness's own AVX write on garbage may raise DE), FPCR holds no flags */
#if defined(__x86_64__)
	const uint32_t ctrl_mask = 0xffc0;
#else
	const uint32_t ctrl_mask = 0xffffffff;
#endif
	if ((f->ctrl_after ^ f->ctrl_before) & ctrl_mask) {
		snprintf(buf, len, "%s changed: %#x -> %#x",
#if defined(__x86_64__)
		         "MXCSR",
#else
		         "FPCR",
#endif
		         f->ctrl_before, f->ctrl_after);
		return buf;
	}
#if defined(__x86_64__)
	if (f->fcw_after != f->fcw_before) {
		snprintf(buf, len, "x87 control word changed: %#x -> %#x", f->fcw_before,
		         f->fcw_after);
		return buf;
	}
	if (f->rflags_after & (1u << 10)) {
		snprintf(buf, len, "direction flag left set");
		return buf;
	}
#endif
	return NULL;
}

/* ---- harness self-tests: each broken callee must be caught ------------------------------ */
START_TEST(test_abi_selftest)
{
	struct abi_frame f;
	char buf[256];
	rng_t rng;
	rng_init(&rng, "abi-selftest", 0);

	frame_init(&f, (lf_fnptr)lf_test_abi_good, &rng);
	lf_test_abi_call(&f);
	ck_assert_msg(violation(&f, 1, buf, sizeof buf) == NULL, "good callee flagged: %s", buf);

	/* the sixth argument arrives with all 64 bits: garbage upper halves reach the callee */
	frame_init(&f, (lf_fnptr)lf_test_abi_echo6, &rng);
	f.args[5] = K_GARBAGE | 0x1234;
	lf_test_abi_call(&f);
	ck_assert_msg(f.ret == (K_GARBAGE | 0x1234), "echo6 returned %#llx",
	              (unsigned long long)f.ret);

	/* the callee is entered with a 16-byte aligned stack */
	frame_init(&f, (lf_fnptr)lf_test_abi_entry_sp, &rng);
	lf_test_abi_call(&f);
	ck_assert_msg(f.ret % 16 == 0, "callee entered with sp %#llx (not 16-byte aligned)",
	              (unsigned long long)f.ret);

	for (unsigned i = 0; i < lf_test_abi_nclobber; i++) {
		frame_init(&f, (lf_fnptr)lf_test_abi_clobber[i], &rng);
		lf_test_abi_call(&f);
		ck_assert_msg(violation(&f, 1, buf, sizeof buf) && strstr(buf, gpr_name[i]),
		              "clobbering %s was not detected", gpr_name[i]);
	}
#if defined(__aarch64__)
	for (unsigned i = 0; i < 8; i++) {
		char want[8];
		snprintf(want, sizeof want, "d%u ", 8 + i);
		frame_init(&f, (lf_fnptr)lf_test_abi_fclobber[i], &rng);
		lf_test_abi_call(&f);
		ck_assert_msg(violation(&f, 1, buf, sizeof buf) && strstr(buf, want),
		              "clobbering d%u was not detected", 8 + i);
	}
#endif
	frame_init(&f, (lf_fnptr)lf_test_abi_bad_sp, &rng);
	lf_test_abi_call(&f);
	ck_assert_msg(violation(&f, 1, buf, sizeof buf) && strstr(buf, "sp moved"),
	              "moved sp was not detected");

	frame_init(&f, (lf_fnptr)lf_test_abi_bad_ctrl, &rng);
	lf_test_abi_call(&f);
	ck_assert_msg(violation(&f, 1, buf, sizeof buf) != NULL, "changed MXCSR/FPCR not detected");
#if defined(__x86_64__)
	frame_init(&f, (lf_fnptr)lf_test_abi_bad_fcw, &rng);
	lf_test_abi_call(&f);
	ck_assert_msg(violation(&f, 1, buf, sizeof buf) != NULL, "changed x87 CW not detected");
	frame_init(&f, (lf_fnptr)lf_test_abi_set_df, &rng);
	lf_test_abi_call(&f);
	ck_assert_msg(violation(&f, 1, buf, sizeof buf) && strstr(buf, "direction"),
	              "DF left set was not detected");
#endif
}
END_TEST

START_TEST(test_abi_selftest_xinuse)
{
	struct xstate xs = xstate_caps();
	if (!xs.avx || !xs.xinuse) {
		printf("abi: SKIP upper-state (XINUSE) checks: %s\n",
#if defined(__x86_64__)
		       !xs.avx ? "AVX state not enabled on this CPU/OS" :
		                 "XGETBV(1) not supported (CPUID.(0DH,1):EAX[2] = 0)"
#else
		       "x86-64 only"
#endif
		);
		fflush(stdout);
		return;
	}
#if defined(__x86_64__)
	struct abi_frame f;
	rng_t rng;
	rng_init(&rng, "abi-selftest-xinuse", 0);
	/* clean before, AVX write without vzeroupper: must read as dirty */
	frame_init(&f, (lf_fnptr)lf_test_abi_dirty_ymm, &rng);
	f.flags = ABI_CLEAN_FIRST | ABI_READ_XINUSE;
	lf_test_abi_call(&f);
	ck_assert_msg((f.xinuse_before & XINUSE_DIRTY_MASK) == 0,
	              "XINUSE %#llx right after vzeroupper", (unsigned long long)f.xinuse_before);
	ck_assert_msg(f.xinuse_after & 4, "a dirty YMM state was not detected (XINUSE %#llx)",
	              (unsigned long long)f.xinuse_after);
	/* dirty before, vzeroupper in the callee: must read as clean */
	frame_init(&f, (lf_fnptr)lf_test_abi_vzeroupper, &rng);
	f.flags = ABI_DIRTY_YMM | ABI_READ_XINUSE | (xs.avx512 ? ABI_DIRTY_ZMM : 0);
	lf_test_abi_call(&f);
	ck_assert_msg(f.xinuse_before & 4, "dirtying YMM did not show in XINUSE (%#llx)",
	              (unsigned long long)f.xinuse_before);
	ck_assert_msg((f.xinuse_after & XINUSE_DIRTY_MASK) == 0,
	              "vzeroupper did not clean XINUSE (%#llx)", (unsigned long long)f.xinuse_after);
	if (xs.avx512) {
		frame_init(&f, (lf_fnptr)lf_test_abi_dirty_zmm, &rng);
		f.flags = ABI_CLEAN_FIRST | ABI_READ_XINUSE;
		lf_test_abi_call(&f);
		ck_assert_msg(f.xinuse_after & 0x40, "a dirty ZMM_Hi256 state was not detected "
		              "(XINUSE %#llx)", (unsigned long long)f.xinuse_after);
	}
#endif
}
END_TEST

/* ---- the variants ------------------------------------------------------------------------ */
static const size_t abi_lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100,
                                   127, 129 };

/* Stack use below the call: abi_invoke paints PAINT bytes below its frame, makes the call
 * through the trampoline, and finds the deepest byte written, as a distance below the stack
 * pointer at the kernel's call (f.sp_before; the return address is the first 8 bytes). */
#define PAINT 16384
static __attribute__((noinline)) uintptr_t stack_paint(void)
{
	volatile unsigned char pad[PAINT];
	for (size_t i = 0; i < PAINT; i++)
		pad[i] = 0xa5;
	return (uintptr_t)pad;
}

static __attribute__((noinline)) size_t abi_invoke(struct abi_frame *f)
{
	uintptr_t lo = stack_paint();
	lf_test_abi_call(f);
	const volatile unsigned char *p = (const volatile unsigned char *)lo;
	size_t i = 0;
	while (i < PAINT && p[i] == 0xa5)
		i++;
	return lo + i < f->sp_before ? f->sp_before - (lo + i) : 0;
}

/* The deepest stack a generated kernel may use below its call: the return address, the
 * pushes, a frame below 4 KiB (stack probes otherwise; the generator refuses larger frames)
 * and on x86-64 the 128-byte red zone.  Code before the frame (x86 Function.prefix_upto:
 * bi_multiply_to_len, bi_square_to_len, mpn_mul up to 8 words / limbs, which every schedule's
 * straight-line code covers) allocates nothing: return address, at most 6 pushes, red zone. */
#define STACK_ANY (8 + 8 * 16 + 4096 + 128)
#define STACK_PREFIX (8 + 8 * 6 + 128)

/* One call through the trampoline with the given flags; compares with the oracle. */
static void abi_call(const struct tvar *t, size_t n, uint64_t flags, rng_t *rng, const char *mode)
{
	struct abi_frame f;
	size_t depth = 0;
	char buf[256];
	uint64_t a[129], r[129], want64[258];
	uint32_t out[132], in[129], want32[258];
	struct gbuf go;
	int check_x18 = strcmp(t->v->name, "ref") != 0;

	crash_note(t->label, mode, n);
	frame_init(&f, t->v->fn, rng);
	f.flags = flags;
	switch (t->kid) {
	case LF_K_mpn_mul_1:
	case LF_K_mpn_addmul_1: {
		uint64_t b = rng_next(rng), *rp = gb_alloc(&go, n * 8, GB_MID, 0), wret;
		fill64(a, n, PAT_RANDOM, rng);
		fill64(r, n, PAT_RANDOM, rng);
		memcpy(rp, r, n * 8);
		memcpy(want64, r, n * 8);
		wret = t->kid == LF_K_mpn_addmul_1 ? or_addmul_1(want64, a, n, b)
		                                    : or_mul_1(want64, a, n, b);
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)a;
		f.args[2] = n;
		f.args[3] = b;
		depth = abi_invoke(&f);
		ck_assert_msg(f.ret == wret && memcmp(rp, want64, n * 8) == 0,
		              "%s via ABI trampoline (%s) n=%zu: wrong result", t->label, mode, n);
		break;
	}
	case LF_K_mpn_sqr: {
		uint64_t *rp = gb_alloc(&go, n * 16, GB_MID, 0);
		fill64(a, n, PAT_RANDOM, rng);
		or_sqr(want64, a, n);
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)a;
		f.args[2] = n;
		depth = abi_invoke(&f);
		ck_assert_msg(memcmp(rp, want64, n * 16) == 0,
		              "%s via ABI trampoline (%s) n=%zu: wrong result", t->label, mode, n);
		break;
	}
	case LF_K_bi_mul_add: {
		size_t out_len = n + 3, offset = n & 1 ? 0 : 3;
		uint32_t k = (uint32_t)rng_next(rng) | 1, *op = gb_alloc(&go, out_len * 4, GB_MID, 0);
		fill32be(out, out_len, PAT_RANDOM, rng);
		fill32be(in, n, PAT_RANDOM, rng);
		memcpy(op, out, out_len * 4);
		memcpy(want32, out, out_len * 4);
		uint32_t wret = or_mul_add(want32, out_len, in, offset, n, k);
		f.args[0] = (uintptr_t)op;
		f.args[1] = out_len;
		f.args[2] = (uintptr_t)in;
		f.args[3] = offset;
		f.args[4] = n;
		f.args[5] = K_GARBAGE | k; /* upper 32 bits of the uint32_t argument: garbage */
		depth = abi_invoke(&f);
		ck_assert_msg((uint32_t)f.ret == wret && memcmp(op, want32, out_len * 4) == 0,
		              "%s via ABI trampoline (%s) len=%zu k=%#x with garbage in bits 32-63 "
		              "of k: wrong result (ret %#x, want %#x)", t->label, mode, n, k,
		              (uint32_t)f.ret, wret);
		break;
	}
	case LF_K_bi_square_to_len: {
		uint32_t *zp = gb_alloc(&go, n * 8, GB_MID, 0);
		fill32be(in, n, PAT_RANDOM, rng);
		or_square_to_len(in, n, want32);
		f.args[0] = (uintptr_t)in;
		f.args[1] = n;
		f.args[2] = (uintptr_t)zp;
		depth = abi_invoke(&f);
		ck_assert_msg(memcmp(zp, want32, n * 8) == 0,
		              "%s via ABI trampoline (%s) len=%zu: wrong result", t->label, mode, n);
		break;
	}
	case LF_K_mpn_mul: {
		/* an = n, bn about n/2 (the kernel needs an >= bn; bn = 0 when n = 0) */
		size_t bn = (n + 1) / 2;
		uint64_t *rp = gb_alloc(&go, (n + bn) * 8, GB_MID, 0);
		fill64(a, n, PAT_RANDOM, rng);
		fill64(r, bn, PAT_RANDOM, rng);
		or_mul(want64, a, n, r, bn);
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)a;
		f.args[2] = n;
		f.args[3] = (uintptr_t)r;
		f.args[4] = bn;
		depth = abi_invoke(&f);
		ck_assert_msg(bn == 0 || memcmp(rp, want64, (n + bn) * 8) == 0,
		              "%s via ABI trampoline (%s) an=%zu bn=%zu: wrong result", t->label, mode,
		              n, bn);
		break;
	}
	case LF_K_mpn_montmul: {
		/* n limbs, an odd modulus with top limb set in want64[n..2n), n0inv in args[4] */
		uint64_t *rp = gb_alloc(&go, n * 8, GB_MID, 0), *N = want64 + 129;
		fill64(N, n, PAT_RANDOM, rng);
		if (n) {
			N[0] |= 1;
			N[n - 1] |= UINT64_C(1) << 63;
		}
		fill64(a, n, PAT_RANDOM, rng);
		fill64(r, n, PAT_RANDOM, rng);
		if (n) {
			or_mod(a, a, N, n);
			or_mod(r, r, N, n);
			or_montmul(want64, a, r, N, n, NULL);
		}
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)a;
		f.args[2] = (uintptr_t)r;
		f.args[3] = (uintptr_t)N;
		f.args[4] = n ? or_neg_inv64(N[0]) : 0;
		f.args[5] = n;
		depth = abi_invoke(&f);
		ck_assert_msg(memcmp(rp, want64, n * 8) == 0,
		              "%s via ABI trampoline (%s) n=%zu: wrong result", t->label, mode, n);
		break;
	}
	case LF_K_bi_multiply_to_len: {
		size_t yl = n ? 1 + n / 3 : 0;
		uint32_t *zp = gb_alloc(&go, (n + yl) * 4, GB_MID, 0);
		fill32be(in, n, PAT_RANDOM, rng);
		fill32be(out, yl, PAT_RANDOM, rng);
		or_multiply_to_len(in, n, out, yl, want32);
		fill_garbage32(zp, n + yl);
		/* odd n: the shorter operand first, so that the x86 straight-line blocks with
		 * nx < ny (built for each ordered pair, before the frame) go through the
		 * trampoline as well as those with nx >= ny */
		int shorter_first = n & 1;
		f.args[0] = (uintptr_t)(shorter_first ? out : in);
		f.args[1] = shorter_first ? yl : n;
		f.args[2] = (uintptr_t)(shorter_first ? in : out);
		f.args[3] = shorter_first ? n : yl;
		f.args[4] = (uintptr_t)zp;
		depth = abi_invoke(&f);
		ck_assert_msg(memcmp(zp, want32, (n + yl) * 4) == 0,
		              "%s via ABI trampoline (%s) xlen=%zu ylen=%zu: wrong result", t->label,
		              mode, n, yl);
		break;
	}
	case LF_K_poly1305_blocks: {
		/* ctx in the guarded buffer (64-byte aligned), n blocks of random message; pad 1,
		 * or 0 for odd n; the result congruent to GMP's with h2 <= 4 */
		uint64_t *ctx = gb_alloc(&go, 136 * 8, GB_MID, 0), h[3], rr[2], want[3], got[3];
		uint8_t *m = (uint8_t *)want64;          /* 129 * 16 bytes fit in want64 */
		uint64_t pad = n & 1 ? 0 : 1;
		h[0] = rng_next(rng), h[1] = rng_next(rng), h[2] = rng_next(rng) % 5;
		rr[0] = rng_next(rng) & UINT64_C(0x0ffffffc0fffffff);
		rr[1] = rng_next(rng) & UINT64_C(0x0ffffffc0ffffffc);
		for (size_t i = 0; i < 2 * n; i++)
			want64[i] = rng_next(rng);
		memset(ctx, 0x5c, 136 * 8);
		ctx[0] = h[0], ctx[1] = h[1], ctx[2] = h[2], ctx[3] = rr[0], ctx[4] = rr[1];
		ctx[5] = ctx[6] = ctx[7] = 0;
		or_p1305_blocks(want, h, rr, m, n, pad);
		f.args[0] = (uintptr_t)ctx;
		f.args[1] = (uintptr_t)m;
		f.args[2] = n;
		f.args[3] = pad;
		depth = abi_invoke(&f);
		or_p1305_mod_p(got, ctx, 3);
		ck_assert_msg(ctx[2] <= 4 && memcmp(got, want, sizeof got) == 0 && ctx[3] == rr[0] &&
		              ctx[4] == rr[1], "%s via ABI trampoline (%s) nblocks=%zu: wrong result",
		              t->label, mode, n);
		break;
	}
	case LF_K_p256_mul_mont:
	case LF_K_p256_sqr_mont: {
		/* 4 limbs whatever n is (n picks the operands: random below p, p - 1 for n % 4 ==
		 * 3); the output in the guarded buffer */
		uint64_t *rp = gb_alloc(&go, 32, GB_MID, 0), p[4];
		int sqr = t->kid == LF_K_p256_sqr_mont;
		or_p256_prime(p);
		fill64(a, 4, PAT_RANDOM, rng);
		fill64(r, 4, PAT_RANDOM, rng);
		or_p256_mod(a, a);
		or_p256_mod(r, r);
		if (n % 4 == 3) {
			memcpy(a, p, 32);
			a[0] -= 1;
		}
		or_p256_mont(want64, a, sqr ? a : r, NULL);
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)a;
		f.args[2] = (uintptr_t)r;
		depth = abi_invoke(&f);
		ck_assert_msg(memcmp(rp, want64, 32) == 0,
		              "%s via ABI trampoline (%s) case %zu: wrong result", t->label, mode, n);
		break;
	}
	case LF_K_p256_mont_mult:
	case LF_K_p256_mont_square:
	case LF_K_p256_mont_mult_x8: {
		/* 5 limbs of 52 bits (x8: 40) whatever n is; n picks the operands (random below
		 * p; p - 1 in every element for n % 4 == 3); the output in the guarded buffer */
		int x8 = t->kid == LF_K_p256_mont_mult_x8, sqr = t->kid == LF_K_p256_mont_square;
		size_t nl = x8 ? 40 : 5;
		int64_t *rp = gb_alloc(&go, nl * 8, GB_MID, 0), *ia = (int64_t *)a, *ib = (int64_t *)r;
		int64_t *w = (int64_t *)want64;
		for (size_t l = 0; l < nl; l += 5) {
			uint64_t x[5], y[5];
			fill64(x, 5, PAT_RANDOM, rng);
			fill64(y, 5, PAT_RANDOM, rng);
			or_p256m_mod(ia + l, x);
			or_p256m_mod(ib + l, y);
			if (n % 4 == 3)
				or_p256m_value(ia + l, NULL, 3);
			or_p256m_mont(w + l, ia + l, sqr ? ia + l : ib + l, NULL);
		}
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)ia;
		f.args[2] = (uintptr_t)ib;
		depth = abi_invoke(&f);
		ck_assert_msg(memcmp(rp, w, nl * 8) == 0,
		              "%s via ABI trampoline (%s) case %zu: wrong result", t->label, mode, n);
		break;
	}
	case LF_K_conditional_assign: {
		/* n limbs; set = n & 1 with garbage in bits 32-63 of the int argument */
		int64_t *ap = gb_alloc(&go, n * 8, GB_MID, 0);
		int set = (int)(n & 1);
		fill64(a, n, PAT_RANDOM, rng);
		fill64(r, n, PAT_RANDOM, rng);
		memcpy(ap, a, n * 8);
		f.args[0] = K_GARBAGE | (uint64_t)set;
		f.args[1] = (uintptr_t)ap;
		f.args[2] = (uintptr_t)r;
		f.args[3] = n;
		depth = abi_invoke(&f);
		ck_assert_msg(memcmp(ap, set ? (void *)r : (void *)a, n * 8) == 0,
		              "%s via ABI trampoline (%s) n=%zu set=%d with garbage in bits 32-63 of "
		              "set: wrong result", t->label, mode, n, set);
		break;
	}
	case LF_K_fe_c25519_r51_mul_x4: {
		/* four lanes whatever n is: random limbs below 2^52, every limb 2^52 - 1 in lane
		 * n % 4; the output in the guarded buffer, each lane against mpz */
		int64_t *rp = gb_alloc(&go, X4_LIMBS * 8, GB_MID, 0), *ia = (int64_t *)a;
		int64_t *ib = (int64_t *)r, e[5];
		for (int l = 0; l < 4; l++) {
			x4_elem(e, l == (int)(n % 4) ? X4_TOP : X4_RAND, rng);
			x4_put(ia, l, e);
			x4_elem(e, n % 2 ? X4_RAND : X4_RAND_P, rng);
			x4_put(ib, l, e);
		}
		fill_garbage64((uint64_t *)rp, X4_LIMBS);
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)ia;
		f.args[2] = (uintptr_t)ib;
		depth = abi_invoke(&f);
		x4_assert_result(t->label, mode, rp, ia, ib);
		break;
	}
	case LF_K_x25519_ladder:
	case LF_K_x448_ladder: {
		/* one ladder whatever n is: u random within [0, 2^radix] (every limb 2^radix for
		 * n % 4 == 3), k clamped random (from ones for n % 4 == 1); xz in the guarded
		 * buffer, tmp 32-byte aligned on the stack; the result against the mpz ladder */
		const struct xdh_ladder *L = xdh_ladder(t->kid);
		_Alignas(32) int64_t tmp[LF_XDH_LADDER_TMP];
		int64_t *xz = gb_alloc(&go, 2 * L->limbs * 8, GB_MID, 0), *iu = (int64_t *)a;
		int64_t X[9], Z[9], A[9];
		uint8_t *k = (uint8_t *)r;
		xdh_u(L, iu, n % 4 == 3 ? XU_TOP : XU_RAND_TOP, rng);
		xdh_k(L, k, n % 4 == 1 ? XK_ONES : XK_RAND, rng);
		or_xdh_ladder(L, X, Z, A, k, iu);
		fill_garbage64((uint64_t *)xz, 2 * L->limbs);
		f.args[0] = (uintptr_t)xz;
		f.args[1] = (uintptr_t)k;
		f.args[2] = (uintptr_t)iu;
		f.args[3] = (uintptr_t)tmp;
		depth = abi_invoke(&f);
		xdh_assert_result(L, t->label, mode, xz, X, Z, A);
		break;
	}
	default: {
		/* the field products: one element whatever n is; n picks the operands (random
		 * limbs within M; every limb at the top of M for n % 4 == 3); the output in the
		 * guarded buffer, within its bound and congruent to a b mod p */
		const struct fe_kernel *fk = fe_kernel(t->kid);
		ck_assert_msg(fk != NULL, "no ABI call for %s", t->k->name);
		int64_t *rp = gb_alloc(&go, fk->limbs * 8, GB_MID, 0), *ia = (int64_t *)a;
		int64_t *ib = (int64_t *)r;
		fe_elem(fk, ia, n % 4 == 3 ? FE_MTOP : FE_RAND_M, rng);
		fe_elem(fk, ib, n % 2 ? FE_RAND_M : FE_RAND_P, rng);
		fill_garbage64((uint64_t *)rp, fk->limbs);
		f.args[0] = (uintptr_t)rp;
		f.args[1] = (uintptr_t)ia;
		f.args[2] = (uintptr_t)ib;
		depth = abi_invoke(&f);
		fe_assert_result(fk, t->label, mode, rp, ia, ib);
		break;
	}
	}
	ASSERT_CANARIES(&go, t->label, "output", mode);
	gb_free(&go);

	const char *v = violation(&f, check_x18, buf, sizeof buf);
	ck_assert_msg(v == NULL, "%s (%s, n=%zu): ABI violation: %s", t->label, mode, n, v);
	if (check_x18) {                        /* generated code (ref is compiled C) */
		int prefix = 0;
#if defined(__x86_64__)
		prefix = n <= 8 && (t->kid == LF_K_bi_multiply_to_len ||
		                    t->kid == LF_K_bi_square_to_len || t->kid == LF_K_mpn_mul);
#endif
		size_t bound = prefix ? STACK_PREFIX : STACK_ANY;
		ck_assert_msg(depth <= bound, "%s (%s, n=%zu): wrote %zu bytes below its call, more "
		              "than %zu (%s)", t->label, mode, n, depth, bound,
		              prefix ? "code before the frame: pushes and the red zone only"
		                     : "a frame under 4 KiB, the pushes, the red zone");
	}
#if defined(__aarch64__)
	if (!check_x18 && f.seen[X18] != f.canary[X18])
		printf("abi: note: %s modified x18 (allowed for compiled C; never for generated "
		       "code)\n", t->label);
#endif
	if (flags & ABI_READ_XINUSE) {
		int must_be_clean = (flags & ABI_CLEAN_FIRST) || (t->v->features & AVX_CLASS);
		if (must_be_clean)
			ck_assert_msg((f.xinuse_after & XINUSE_DIRTY_MASK) == 0,
			              "%s (%s, n=%zu): returned with upper YMM/ZMM state in use "
			              "(XINUSE %#llx): missing vzeroupper", t->label, mode, n,
			              (unsigned long long)f.xinuse_after);
	}
	cov_add(t, COV_ABI, 1);
}

static void abi_variant(enum lf_kernel_id kid, int vi)
{
	const struct tvar *t = tv_runnable(kid, (size_t)vi);
	struct xstate xs = xstate_caps();
	rng_t rng;
	rng_init(&rng, t->label, 51);
	for (size_t li = 0; li < NLEN(abi_lens); li++) {
		abi_call(t, abi_lens[li], 0, &rng, "plain");
		if (xs.avx && xs.xinuse) {
			abi_call(t, abi_lens[li], ABI_CLEAN_FIRST | ABI_READ_XINUSE, &rng,
			         "clean upper state before the call");
			abi_call(t, abi_lens[li],
			         ABI_DIRTY_YMM | ABI_READ_XINUSE | (xs.avx512 ? ABI_DIRTY_ZMM : 0), &rng,
			         "dirty upper state before the call");
		}
	}
}

#define ABI_TEST(kernel)                                                                    \
	START_TEST(test_abi_##kernel) { abi_variant(LF_K_##kernel, _i); }                   \
	END_TEST
ABI_TEST(mpn_mul_1)
ABI_TEST(mpn_addmul_1)
ABI_TEST(mpn_sqr)
ABI_TEST(bi_mul_add)
ABI_TEST(bi_square_to_len)
ABI_TEST(poly1305_blocks)
ABI_TEST(mpn_mul)
ABI_TEST(mpn_montmul)
ABI_TEST(bi_multiply_to_len)
ABI_TEST(p256_mul_mont)
ABI_TEST(p256_sqr_mont)
ABI_TEST(conditional_assign)
ABI_TEST(p256_mont_mult)
ABI_TEST(p256_mont_square)
ABI_TEST(p256_mont_mult_x8)
#define FE_ABI_TEST(field, limbs, op) ABI_TEST(fe_##field##_##op)
LF_TEST_FE_KERNELS(FE_ABI_TEST)
#undef FE_ABI_TEST
ABI_TEST(fe_c25519_r51_mul_x4)
ABI_TEST(x25519_ladder)
ABI_TEST(x448_ladder)

Suite *suite_abi(void)
{
	Suite *s = suite_create("abi");
	TCase *tc = tcase_create("trampoline_selftest");
	tcase_add_test(tc, test_abi_selftest);
	tcase_add_test(tc, test_abi_selftest_xinuse);
	suite_add_tcase(s, tc);
	tc = tcase_create("variants");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
#define ADD(kernel) \
	tcase_add_loop_test(tc, test_abi_##kernel, 0, (int)tv_runnable_count(LF_K_##kernel))
	ADD(mpn_mul_1);
	ADD(mpn_addmul_1);
	ADD(mpn_sqr);
	ADD(bi_mul_add);
	ADD(bi_square_to_len);
	ADD(poly1305_blocks);
	ADD(mpn_mul);
	ADD(mpn_montmul);
	ADD(bi_multiply_to_len);
	ADD(p256_mul_mont);
	ADD(p256_sqr_mont);
	ADD(conditional_assign);
	ADD(p256_mont_mult);
	ADD(p256_mont_square);
	ADD(p256_mont_mult_x8);
#define FE_ADD(field, limbs, op) ADD(fe_##field##_##op);
	LF_TEST_FE_KERNELS(FE_ADD)
#undef FE_ADD
	ADD(fe_c25519_r51_mul_x4);
	ADD(x25519_ladder);
	ADD(x448_ladder);
#undef ADD
	suite_add_tcase(s, tc);
	return s;
}
