/*
 * abi.h -- layout of the frame the ABI trampolines (tests/abi/<arch>.S) read and fill.
 * Included by the .S files and by tests/test_abi.c, which checks the offsets with
 * _Static_assert against the C struct (a layout drift between the two would make the
 * trampoline check the wrong registers: the fault this header exists to prevent).
 */
#ifndef LF_TEST_ABI_H
#define LF_TEST_ABI_H

/* flags */
#define ABI_CLEAN_FIRST 1   /* x86-64: vzeroupper right before the call */
#define ABI_DIRTY_YMM 2     /* x86-64: make YMM_Hi128 in use right before the call (AVX) */
#define ABI_DIRTY_ZMM 4     /* x86-64: make ZMM_Hi256 in use right before the call (AVX-512F) */
#define ABI_READ_XINUSE 8   /* x86-64: XGETBV(1) right before and right after the call */

#define ABI_FN 0
#define ABI_ARGS 8          /* 6 x 8: rdi rsi rdx rcx r8 r9 / x0..x5 */
#define ABI_FLAGS 56
#define ABI_CANARY 64       /* 12 x 8: rbx rbp r12 r13 r14 r15 / x19..x28 x29 x18 */
#define ABI_FCANARY 160     /* 8 x 8: d8..d15 (AArch64) */
#define ABI_SEEN 224        /* 12 x 8: the same registers after the call */
#define ABI_FSEEN 320       /* 8 x 8 */
#define ABI_RET 384
#define ABI_SP_BEFORE 392
#define ABI_SP_AFTER 400
#define ABI_XINUSE_BEFORE 408
#define ABI_XINUSE_AFTER 416
#define ABI_RFLAGS_AFTER 424
#define ABI_CTRL_BEFORE 432 /* MXCSR (x86-64) / FPCR (AArch64), 32 bits */
#define ABI_CTRL_AFTER 436
#define ABI_FCW_BEFORE 440  /* x87 control word (x86-64), 16 bits */
#define ABI_FCW_AFTER 442
#define ABI_SIZE 448

#ifndef __ASSEMBLER__
#include <stdint.h>
struct abi_frame {
	uint64_t fn;
	uint64_t args[6];
	uint64_t flags;
	uint64_t canary[12];
	uint64_t fcanary[8];
	uint64_t seen[12];
	uint64_t fseen[8];
	uint64_t ret;
	uint64_t sp_before, sp_after;
	uint64_t xinuse_before, xinuse_after;
	uint64_t rflags_after;
	uint32_t ctrl_before, ctrl_after;
	uint16_t fcw_before, fcw_after;
	uint32_t pad;
};
/* Load canaries, call f->fn(args...), record what came back.  Never inlined or reordered:
 * it is assembly. */
void lf_test_abi_call(struct abi_frame *f);

/* Deliberately broken callees: the harness must notice each (self-test). */
uint64_t lf_test_abi_good(void);
uint64_t lf_test_abi_echo6(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
uint64_t lf_test_abi_entry_sp(void);    /* the caller's sp at the call */
void lf_test_abi_bad_sp(void);          /* returns with sp moved */
void lf_test_abi_bad_ctrl(void);        /* changes the rounding mode in MXCSR / FPCR */
extern void (*const lf_test_abi_clobber[])(void); /* one per callee-saved GPR, canary order */
extern const unsigned lf_test_abi_nclobber;
#if defined(__aarch64__)
extern void (*const lf_test_abi_fclobber[])(void); /* d8..d15 */
#endif
#if defined(__x86_64__)
void lf_test_abi_set_df(void);          /* returns with the direction flag set */
void lf_test_abi_bad_fcw(void);         /* changes the x87 precision control */
void lf_test_abi_dirty_ymm(void);       /* AVX write to ymm, no vzeroupper */
void lf_test_abi_dirty_zmm(void);       /* AVX-512 write to zmm, no vzeroupper */
void lf_test_abi_vzeroupper(void);
#endif
#endif

#endif /* LF_TEST_ABI_H */
