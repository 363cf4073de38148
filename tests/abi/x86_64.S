/*
 * x86_64.S -- SysV ABI trampoline for the limbforge tests (hand-written).
 *
 * Fault this is designed to catch: a kernel that breaks the calling convention in a way no
 * result comparison sees -- a callee-saved register (rbx, rbp, r12-r15) not restored, the
 * stack pointer not returned to where it was, the direction flag left set, MXCSR or the x87
 * control word changed, upper YMM/ZMM state left in use (a missing vzeroupper), or the
 * upper half of a 32-bit argument used (the C side passes garbage there).
 *
 * lf_test_abi_call(struct abi_frame *f), layout in abi.h:
 *   saves the real callee-saved registers, records sp (16-byte aligned at the call, as the
 *   ABI requires), MXCSR and the x87 CW, optionally vzeroupper / dirties YMM / ZMM state and
 *   reads XINUSE (XGETBV with ECX=1), loads canaries into rbx rbp r12-r15, loads the six
 *   argument registers, calls f->fn; then, before anything else can disturb them, records
 *   rax, rsp, the six registers, RFLAGS, XINUSE, MXCSR and the CW, repairs sp from a saved
 *   copy, restores the control registers and DF, and returns.
 * The lf_test_abi_* functions after it are deliberately broken callees for the self-tests.
 */
#include "abi.h"

#define FUNC(name) \
	.text; .p2align 4; .globl name; .hidden name; .type name, @function; name: \
	.cfi_startproc; endbr64
#define END(name) .cfi_endproc; .size name, .-name

	.bss
	.p2align 3
saved_sp:
	.quad 0

FUNC(lf_test_abi_call)
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	pushq	%rdi			/* the frame, at 0(%rsp); 7 pushes: rsp is 16-aligned */
	.cfi_adjust_cfa_offset 8
	movq	%rsp, saved_sp(%rip)
	movq	%rsp, ABI_SP_BEFORE(%rdi)
	stmxcsr	ABI_CTRL_BEFORE(%rdi)
	fnstcw	ABI_FCW_BEFORE(%rdi)
	movq	ABI_FLAGS(%rdi), %rax
	testq	$ABI_CLEAN_FIRST, %rax
	jz	1f
	vzeroupper
1:	testq	$ABI_DIRTY_YMM, %rax
	jz	2f
	vcmpps	$15, %ymm1, %ymm1, %ymm1	/* TRUE predicate: all ones, upper half in use */
2:	testq	$ABI_DIRTY_ZMM, %rax
	jz	3f
	vpternlogd $0xff, %zmm2, %zmm2, %zmm2	/* all ones: ZMM_Hi256 in use */
3:	testq	$ABI_READ_XINUSE, %rax
	jz	4f
	movl	$1, %ecx
	xgetbv
	movl	%eax, ABI_XINUSE_BEFORE(%rdi)
	movl	%edx, ABI_XINUSE_BEFORE+4(%rdi)
4:	movq	ABI_FN(%rdi), %r11
	movq	ABI_CANARY+0(%rdi), %rbx
	movq	ABI_CANARY+8(%rdi), %rbp
	movq	ABI_CANARY+16(%rdi), %r12
	movq	ABI_CANARY+24(%rdi), %r13
	movq	ABI_CANARY+32(%rdi), %r14
	movq	ABI_CANARY+40(%rdi), %r15
	movq	ABI_ARGS+8(%rdi), %rsi
	movq	ABI_ARGS+16(%rdi), %rdx
	movq	ABI_ARGS+24(%rdi), %rcx
	movq	ABI_ARGS+32(%rdi), %r8
	movq	ABI_ARGS+40(%rdi), %r9
	movq	ABI_ARGS+0(%rdi), %rdi
	call	*%r11
	movq	%rax, %r10		/* return value */
	movq	%rsp, %r11		/* sp after the call */
	movq	saved_sp(%rip), %rsp	/* repair sp (a broken callee may have moved it) */
	movq	(%rsp), %rdi		/* the frame */
	movq	%r10, ABI_RET(%rdi)
	movq	%r11, ABI_SP_AFTER(%rdi)
	movq	%rbx, ABI_SEEN+0(%rdi)
	movq	%rbp, ABI_SEEN+8(%rdi)
	movq	%r12, ABI_SEEN+16(%rdi)
	movq	%r13, ABI_SEEN+24(%rdi)
	movq	%r14, ABI_SEEN+32(%rdi)
	movq	%r15, ABI_SEEN+40(%rdi)
	pushfq
	popq	ABI_RFLAGS_AFTER(%rdi)
	stmxcsr	ABI_CTRL_AFTER(%rdi)
	fnstcw	ABI_FCW_AFTER(%rdi)
	movq	ABI_FLAGS(%rdi), %rax
	testq	$ABI_READ_XINUSE, %rax
	jz	5f
	movl	$1, %ecx
	xgetbv
	movl	%eax, ABI_XINUSE_AFTER(%rdi)
	movl	%edx, ABI_XINUSE_AFTER+4(%rdi)
5:	movq	ABI_FLAGS(%rdi), %rax
	testq	$(ABI_CLEAN_FIRST | ABI_DIRTY_YMM | ABI_DIRTY_ZMM), %rax
	jz	6f
	vzeroupper			/* leave the C code a clean state */
6:	cld
	ldmxcsr	ABI_CTRL_BEFORE(%rdi)
	fldcw	ABI_FCW_BEFORE(%rdi)
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%r15
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
END(lf_test_abi_call)

/* ---- deliberately broken callees (harness self-tests) ---------------------------------- */
FUNC(lf_test_abi_good)
	xorl	%eax, %eax
	ret
END(lf_test_abi_good)

FUNC(lf_test_abi_echo6)
	movq	%r9, %rax
	ret
END(lf_test_abi_echo6)

FUNC(lf_test_abi_entry_sp)
	leaq	8(%rsp), %rax		/* rsp before the call pushed the return address */
	ret
END(lf_test_abi_entry_sp)

FUNC(lf_test_abi_bad_sp)
	popq	%r11
	addq	$8, %rsp		/* return 8 bytes higher than we should */
	jmp	*%r11
END(lf_test_abi_bad_sp)

FUNC(lf_test_abi_bad_ctrl)
	stmxcsr	-8(%rsp)
	xorl	$0x6000, -8(%rsp)	/* flip the rounding-control bits */
	ldmxcsr	-8(%rsp)
	ret
END(lf_test_abi_bad_ctrl)

FUNC(lf_test_abi_bad_fcw)
	fnstcw	-8(%rsp)
	xorw	$0x0300, -8(%rsp)	/* flip the precision-control bits */
	fldcw	-8(%rsp)
	ret
END(lf_test_abi_bad_fcw)

FUNC(lf_test_abi_set_df)
	std
	ret
END(lf_test_abi_set_df)

FUNC(lf_test_abi_dirty_ymm)
	vcmpps	$15, %ymm3, %ymm3, %ymm3
	ret
END(lf_test_abi_dirty_ymm)

FUNC(lf_test_abi_dirty_zmm)
	vpternlogd $0xff, %zmm4, %zmm4, %zmm4
	ret
END(lf_test_abi_dirty_zmm)

FUNC(lf_test_abi_vzeroupper)
	vzeroupper
	ret
END(lf_test_abi_vzeroupper)

#define CLOBBER(reg) \
	FUNC(lf_test_abi_clobber_##reg); xorq %reg, %reg; ret; END(lf_test_abi_clobber_##reg)
CLOBBER(rbx)
CLOBBER(rbp)
CLOBBER(r12)
CLOBBER(r13)
CLOBBER(r14)
CLOBBER(r15)

	.section .data.rel.ro, "aw"
	.p2align 3
	.globl	lf_test_abi_clobber
	.hidden	lf_test_abi_clobber
lf_test_abi_clobber:
	.quad	lf_test_abi_clobber_rbx, lf_test_abi_clobber_rbp, lf_test_abi_clobber_r12
	.quad	lf_test_abi_clobber_r13, lf_test_abi_clobber_r14, lf_test_abi_clobber_r15
	.size	lf_test_abi_clobber, .-lf_test_abi_clobber
	.section .rodata
	.p2align 2
	.globl	lf_test_abi_nclobber
	.hidden	lf_test_abi_nclobber
lf_test_abi_nclobber:
	.long	6
	.size	lf_test_abi_nclobber, 4

	.section .note.GNU-stack, "", @progbits
