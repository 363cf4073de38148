/*
 * w64call.h -- the call record of the Win64 test trampoline (tests/flavours/win64_call.S),
 * shared by the assembly and by win64_kat.c (which checks the offsets with _Static_assert).
 *
 * The trampoline calls a kernel's Win64 entry the way a Windows compiler would (rcx, rdx,
 * r8, r9, arguments 5 and 6 on the stack above a 32-byte home area, rsp 16-aligned at the
 * call) with known canaries in every register that is nonvolatile in the Microsoft x64 ABI
 * (rbx rbp rdi rsi r12-r15, xmm6-xmm15), and records what it finds after the return.
 */
#ifndef LF_W64CALL_H
#define LF_W64CALL_H

#define W_FN 0           /* the function to call */
#define W_ARGS 8         /* 6 x 8: rcx rdx r8 r9, then the two stack arguments */
#define W_CANARY 56      /* 8 x 8: rbx rbp rdi rsi r12 r13 r14 r15 */
#define W_SEEN 120       /* 8 x 8: the same after the call */
#define W_XCANARY 184    /* 10 x 16: xmm6..xmm15 */
#define W_XSEEN 344      /* 10 x 16 */
#define W_FLAGS 504      /* W_STEP: trap flag set for the call (single-step every instruction) */
#define W_CALL_SP 512    /* written: rsp at the call instruction */
#define W_RET 520        /* written: rax */
#define W_SP_AFTER 528   /* written: rsp after the return */
#define W_GUARD 536      /* written: 2 x 8, the caller's words above the stack arguments */
#define W_SIZE 552

#define W_STEP 1
#define W_GUARD_VALUE 0x6a09e667f3bcc908

#ifndef __ASSEMBLER__
#include <stdint.h>

struct w64_call {
	uint64_t fn;
	uint64_t args[6];
	uint64_t canary[8];
	uint64_t seen[8];
	uint64_t xcanary[10][2];
	uint64_t xseen[10][2];
	uint64_t flags;
	uint64_t call_sp;
	uint64_t ret;
	uint64_t sp_after;
	uint64_t guard[2];
};

void w64_call(struct w64_call *c);
extern const char w64_call_ret[];   /* the return address of the kernel call */
#endif

#endif /* LF_W64CALL_H */
