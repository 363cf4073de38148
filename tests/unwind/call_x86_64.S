/*
 * call_x86_64.S -- the unwinding test's trampoline and its deliberately broken self-test
 * functions (hand-written, complete CFI).
 *
 * Fault this is designed to catch (with unwind_sig.c): a kernel whose CFI gives the unwinder
 * a wrong CFA or a wrong location for a saved callee-saved register.  lf_uw_call loads
 * canaries into rbx, rbp, r12-r15, records %rsp at the call (the callee's CFA) and calls the
 * kernel; an unwind from inside the kernel must arrive at lf_uw_call_ret with that CFA and
 * with the canaries in those registers.  With UW_STEP it sets the trap flag right before
 * the call and clears it right after, so every instruction of the callee raises SIGTRAP.
 */
#include "uwcall.h"

#define FUNC(name) \
	.text; .p2align 4; .globl name; .hidden name; .type name, @function; name: \
	.cfi_startproc; endbr64
#define END(name) .cfi_endproc; .size name, .-name

FUNC(lf_uw_call)
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r15, 0
	pushq	%rdi			/* the record; 7 pushes: %rsp is 16-aligned at the call */
	.cfi_adjust_cfa_offset 8
	movq	%rsp, UW_CALL_SP(%rdi)
	movq	UW_CANARY+0(%rdi), %rbx
	movq	UW_CANARY+8(%rdi), %rbp
	movq	UW_CANARY+16(%rdi), %r12
	movq	UW_CANARY+24(%rdi), %r13
	movq	UW_CANARY+32(%rdi), %r14
	movq	UW_CANARY+40(%rdi), %r15
	movq	UW_FN(%rdi), %r11
	testq	$UW_STEP, UW_FLAGS(%rdi)
	jz	1f
	pushfq
	.cfi_adjust_cfa_offset 8
	orq	$0x100, (%rsp)		/* TF: the first trap comes after the call */
	popfq
	.cfi_adjust_cfa_offset -8
1:	movq	UW_ARGS+8(%rdi), %rsi
	movq	UW_ARGS+16(%rdi), %rdx
	movq	UW_ARGS+24(%rdi), %rcx
	movq	UW_ARGS+32(%rdi), %r8
	movq	UW_ARGS+40(%rdi), %r9
	movq	UW_ARGS+0(%rdi), %rdi
	call	*%r11
	.globl	lf_uw_call_ret
	.hidden	lf_uw_call_ret
lf_uw_call_ret:
	pushfq
	.cfi_adjust_cfa_offset 8
	andq	$~0x100, (%rsp)
	popfq
	.cfi_adjust_cfa_offset -8
	movq	(%rsp), %rdi
	movq	%rax, UW_RET(%rdi)
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r12
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
END(lf_uw_call)

/* Self-test: the push is not described, so inside the loop the unwinder takes the saved
 * %rbx for the return address. */
FUNC(lf_uw_broken_cfa)
	pushq	%rbx			/* (no .cfi_adjust_cfa_offset: the fault) */
	xorl	%ebx, %ebx
	testq	%rdx, %rdx
	jz	2f
1:	addq	%rdx, %rbx
	subq	$1, %rdx
	jnz	1b
2:	movq	%rbx, %rax
	popq	%rbx
	ret
END(lf_uw_broken_cfa)

/* Self-test: %rbx is said to be saved 8 bytes above where the push put it (the return
 * address' slot), so the unwound %rbx is not the caller's. */
FUNC(lf_uw_broken_reg)
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 8		/* (should be 0: the fault) */
	xorl	%ebx, %ebx
	testq	%rdx, %rdx
	jz	2f
1:	addq	%rdx, %rbx
	subq	$1, %rdx
	jnz	1b
2:	movq	%rbx, %rax
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
END(lf_uw_broken_reg)

	.section .note.GNU-stack, "", @progbits
