/*
 * aarch64.S -- AAPCS64 trampoline for the limbforge tests (hand-written).
 *
 * Fault this is designed to catch: a kernel that breaks the calling convention in a way no
 * result comparison sees -- a callee-saved register (x19-x28, the frame pointer x29, the low
 * 64 bits of v8-v15 = d8-d15) not restored, sp not returned to where it was, FPCR changed,
 * x18 (the platform register, which limbforge's generator must never touch) modified, or
 * the upper half of a 32-bit argument used (the C side passes garbage in x5 for k).
 *
 * lf_test_abi_call(struct abi_frame *f), layout in abi.h:
 *   saves the real callee-saved registers and x18, records sp and FPCR, loads canaries into
 *   x19-x29, x18 and d8-d15, loads x0-x5, calls f->fn with blr (the callee's bti c landing
 *   pad is exercised); then records x0, sp, the canary registers and FPCR, repairs sp from a
 *   saved copy, restores everything and returns.
 * The lf_test_abi_* functions after it are deliberately broken callees for the self-tests.
 */
#include "abi.h"

#define FUNC(name) \
	.text; .p2align 4; .globl name; .hidden name; .type name, %function; name: \
	.cfi_startproc; hint #34 /* bti c */
#define END(name) .cfi_endproc; .size name, .-name

#define FRAME 176

	.bss
	.p2align 3
saved_sp:
	.quad 0

FUNC(lf_test_abi_call)
	stp	x29, x30, [sp, #-FRAME]!
	.cfi_def_cfa_offset FRAME
	.cfi_offset x29, -FRAME
	.cfi_offset x30, -FRAME+8
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	stp	x0, x18, [sp, #160]		// the frame, and our caller's x18
	mov	x9, sp
	adrp	x10, saved_sp
	str	x9, [x10, :lo12:saved_sp]
	str	x9, [x0, #ABI_SP_BEFORE]
	mrs	x9, fpcr
	str	w9, [x0, #ABI_CTRL_BEFORE]
	ldp	x19, x20, [x0, #ABI_CANARY+0]
	ldp	x21, x22, [x0, #ABI_CANARY+16]
	ldp	x23, x24, [x0, #ABI_CANARY+32]
	ldp	x25, x26, [x0, #ABI_CANARY+48]
	ldp	x27, x28, [x0, #ABI_CANARY+64]
	ldp	x29, x18, [x0, #ABI_CANARY+80]
	ldp	d8, d9, [x0, #ABI_FCANARY+0]
	ldp	d10, d11, [x0, #ABI_FCANARY+16]
	ldp	d12, d13, [x0, #ABI_FCANARY+32]
	ldp	d14, d15, [x0, #ABI_FCANARY+48]
	ldr	x16, [x0, #ABI_FN]
	ldp	x4, x5, [x0, #ABI_ARGS+32]
	ldp	x2, x3, [x0, #ABI_ARGS+16]
	ldp	x0, x1, [x0, #ABI_ARGS+0]
	blr	x16
	mov	x9, sp				// sp after the call
	mov	x10, x0				// return value
	adrp	x11, saved_sp
	ldr	x11, [x11, :lo12:saved_sp]
	mov	sp, x11				// repair sp
	ldr	x11, [sp, #160]			// the frame
	str	x10, [x11, #ABI_RET]
	str	x9, [x11, #ABI_SP_AFTER]
	stp	x19, x20, [x11, #ABI_SEEN+0]
	stp	x21, x22, [x11, #ABI_SEEN+16]
	stp	x23, x24, [x11, #ABI_SEEN+32]
	stp	x25, x26, [x11, #ABI_SEEN+48]
	stp	x27, x28, [x11, #ABI_SEEN+64]
	stp	x29, x18, [x11, #ABI_SEEN+80]
	stp	d8, d9, [x11, #ABI_FSEEN+0]
	stp	d10, d11, [x11, #ABI_FSEEN+16]
	stp	d12, d13, [x11, #ABI_FSEEN+32]
	stp	d14, d15, [x11, #ABI_FSEEN+48]
	mrs	x9, fpcr
	str	w9, [x11, #ABI_CTRL_AFTER]
	ldr	w9, [x11, #ABI_CTRL_BEFORE]
	msr	fpcr, x9
	ldr	x18, [sp, #168]
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	ldp	x29, x30, [sp], #FRAME
	.cfi_def_cfa_offset 0
	ret
END(lf_test_abi_call)

/* ---- deliberately broken callees (harness self-tests) ---------------------------------- */
FUNC(lf_test_abi_good)
	mov	x0, #0
	ret
END(lf_test_abi_good)

FUNC(lf_test_abi_echo6)
	mov	x0, x5
	ret
END(lf_test_abi_echo6)

FUNC(lf_test_abi_entry_sp)
	mov	x0, sp
	ret
END(lf_test_abi_entry_sp)

FUNC(lf_test_abi_bad_sp)
	add	sp, sp, #16			// return 16 bytes higher than we should
	ret
END(lf_test_abi_bad_sp)

FUNC(lf_test_abi_bad_ctrl)
	mrs	x9, fpcr
	eor	x9, x9, #(3 << 22)		// flip the rounding mode
	msr	fpcr, x9
	ret
END(lf_test_abi_bad_ctrl)

#define CLOBBER(reg) \
	FUNC(lf_test_abi_clobber_##reg); mov reg, #0; ret; END(lf_test_abi_clobber_##reg)
#define FCLOBBER(reg) \
	FUNC(lf_test_abi_fclobber_##reg); fmov reg, xzr; ret; END(lf_test_abi_fclobber_##reg)
CLOBBER(x19)
CLOBBER(x20)
CLOBBER(x21)
CLOBBER(x22)
CLOBBER(x23)
CLOBBER(x24)
CLOBBER(x25)
CLOBBER(x26)
CLOBBER(x27)
CLOBBER(x28)
CLOBBER(x29)
CLOBBER(x18)
FCLOBBER(d8)
FCLOBBER(d9)
FCLOBBER(d10)
FCLOBBER(d11)
FCLOBBER(d12)
FCLOBBER(d13)
FCLOBBER(d14)
FCLOBBER(d15)

	.section .data.rel.ro, "aw"
	.p2align 3
	.globl	lf_test_abi_clobber
	.hidden	lf_test_abi_clobber
lf_test_abi_clobber:
	.quad	lf_test_abi_clobber_x19, lf_test_abi_clobber_x20, lf_test_abi_clobber_x21
	.quad	lf_test_abi_clobber_x22, lf_test_abi_clobber_x23, lf_test_abi_clobber_x24
	.quad	lf_test_abi_clobber_x25, lf_test_abi_clobber_x26, lf_test_abi_clobber_x27
	.quad	lf_test_abi_clobber_x28, lf_test_abi_clobber_x29, lf_test_abi_clobber_x18
	.size	lf_test_abi_clobber, .-lf_test_abi_clobber
	.globl	lf_test_abi_fclobber
	.hidden	lf_test_abi_fclobber
lf_test_abi_fclobber:
	.quad	lf_test_abi_fclobber_d8, lf_test_abi_fclobber_d9, lf_test_abi_fclobber_d10
	.quad	lf_test_abi_fclobber_d11, lf_test_abi_fclobber_d12, lf_test_abi_fclobber_d13
	.quad	lf_test_abi_fclobber_d14, lf_test_abi_fclobber_d15
	.size	lf_test_abi_fclobber, .-lf_test_abi_fclobber
	.section .rodata
	.p2align 2
	.globl	lf_test_abi_nclobber
	.hidden	lf_test_abi_nclobber
lf_test_abi_nclobber:
	.long	12
	.size	lf_test_abi_nclobber, 4

	.section .note.GNU-stack, "", %progbits
