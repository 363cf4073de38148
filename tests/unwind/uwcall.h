/*
 * uwcall.h -- the call record of the unwinding test's trampoline (tests/unwind/call_<arch>.S),
 * shared by the assembly and by unwind_sig.c.
 *
 * Fault this layout exists to expose: a kernel whose CFI unwinds to a plausible return
 * address but with the wrong stack pointer (CFA) or the wrong saved value of a callee-saved
 * register.  The trampoline loads known canaries into every callee-saved register and
 * records its stack pointer at the call, so the signal handler can compare what the
 * unwinder reconstructs for the trampoline's frame with what it really was.  unwind_sig.c
 * checks these offsets against the C struct with _Static_assert.
 */
#ifndef LF_UWCALL_H
#define LF_UWCALL_H

#define UW_FN 0          /* the function to call */
#define UW_ARGS 8        /* 6 x 8: rdi rsi rdx rcx r8 r9 / x0..x5 */
#define UW_CANARY 56     /* 18 x 8: rbx rbp r12..r15 / x19..x28 then d8..d15 */
#define UW_FLAGS 200     /* UW_STEP: x86-64 trap flag set around the call (single step) */
#define UW_CALL_SP 208   /* written: stack pointer at the call instruction (= callee's CFA) */
#define UW_RET 216       /* written: x0 / rax */
#define UW_SIZE 224

#define UW_STEP 1

#ifndef __ASSEMBLER__
#include <stdint.h>

#if defined(__x86_64__)
#  define UW_NCANARY 6    /* DWARF 3 6 12 13 14 15 */
#else
#  define UW_NCANARY 18   /* DWARF 19..28, 72..79 */
#endif

struct uw_call {
	uint64_t fn;
	uint64_t args[6];
	uint64_t canary[18];
	uint64_t flags;
	uint64_t call_sp;
	uint64_t ret;
};

/* Load the canaries, record the stack pointer, call c->fn(args...), store the result. */
void lf_uw_call(struct uw_call *c);
/* The address right after the call instruction in lf_uw_call: the return address every
 * correct unwind out of the callee must find. */
extern const char lf_uw_call_ret[];

/* Deliberately broken CFI (the checker's self-test; signature of mpn_mul_1, loops n times):
 * the push/stp of the frame is not described (wrong CFA), or a callee-saved register is
 * described at the wrong slot. */
uint64_t lf_uw_broken_cfa(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);
uint64_t lf_uw_broken_reg(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);
#endif

#endif /* LF_UWCALL_H */
