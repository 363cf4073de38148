/*
 * call_aarch64.S -- the unwinding test's trampoline and its deliberately broken self-test
 * functions (hand-written, complete CFI).
 *
 * Fault this is designed to catch (with unwind_sig.c): a kernel whose CFI gives the unwinder
 * a wrong CFA or a wrong location for a saved callee-saved register.  lf_uw_call loads
 * canaries into x19-x28 and d8-d15, keeps x29 = its own frame record = sp at the call (the
 * callee's CFA), records that sp and calls the kernel with blr (exercising its bti c); an
 * unwind from inside the kernel must arrive at lf_uw_call_ret with that CFA, those
 * canaries, and x29 unchanged.  (UW_STEP has no AArch64 user-mode equivalent: ignored.)
 */
#include "uwcall.h"

#define FUNC(name) \
	.text; .p2align 4; .globl name; .hidden name; .type name, %function; name: \
	.cfi_startproc; hint #34 /* bti c */
#define END(name) .cfi_endproc; .size name, .-name

#define FRAME 176

FUNC(lf_uw_call)
	stp	x29, x30, [sp, #-FRAME]!
	.cfi_def_cfa_offset FRAME
	.cfi_offset x29, -FRAME
	.cfi_offset x30, -FRAME+8
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	.cfi_offset x19, -FRAME+16
	.cfi_offset x20, -FRAME+24
	stp	x21, x22, [sp, #32]
	.cfi_offset x21, -FRAME+32
	.cfi_offset x22, -FRAME+40
	stp	x23, x24, [sp, #48]
	.cfi_offset x23, -FRAME+48
	.cfi_offset x24, -FRAME+56
	stp	x25, x26, [sp, #64]
	.cfi_offset x25, -FRAME+64
	.cfi_offset x26, -FRAME+72
	stp	x27, x28, [sp, #80]
	.cfi_offset x27, -FRAME+80
	.cfi_offset x28, -FRAME+88
	stp	d8, d9, [sp, #96]
	.cfi_offset 72, -FRAME+96
	.cfi_offset 73, -FRAME+104
	stp	d10, d11, [sp, #112]
	.cfi_offset 74, -FRAME+112
	.cfi_offset 75, -FRAME+120
	stp	d12, d13, [sp, #128]
	.cfi_offset 76, -FRAME+128
	.cfi_offset 77, -FRAME+136
	stp	d14, d15, [sp, #144]
	.cfi_offset 78, -FRAME+144
	.cfi_offset 79, -FRAME+152
	str	x0, [sp, #160]			// the record
	mov	x9, sp
	str	x9, [x0, #UW_CALL_SP]
	ldp	x19, x20, [x0, #UW_CANARY+0]
	ldp	x21, x22, [x0, #UW_CANARY+16]
	ldp	x23, x24, [x0, #UW_CANARY+32]
	ldp	x25, x26, [x0, #UW_CANARY+48]
	ldp	x27, x28, [x0, #UW_CANARY+64]
	ldp	d8, d9, [x0, #UW_CANARY+80]
	ldp	d10, d11, [x0, #UW_CANARY+96]
	ldp	d12, d13, [x0, #UW_CANARY+112]
	ldp	d14, d15, [x0, #UW_CANARY+128]
	ldr	x16, [x0, #UW_FN]
	ldp	x4, x5, [x0, #UW_ARGS+32]
	ldp	x2, x3, [x0, #UW_ARGS+16]
	ldp	x0, x1, [x0, #UW_ARGS+0]
	blr	x16
	.globl	lf_uw_call_ret
	.hidden	lf_uw_call_ret
lf_uw_call_ret:
	ldr	x11, [sp, #160]
	str	x0, [x11, #UW_RET]
	ldp	d14, d15, [sp, #144]
	.cfi_restore 78
	.cfi_restore 79
	ldp	d12, d13, [sp, #128]
	.cfi_restore 76
	.cfi_restore 77
	ldp	d10, d11, [sp, #112]
	.cfi_restore 74
	.cfi_restore 75
	ldp	d8, d9, [sp, #96]
	.cfi_restore 72
	.cfi_restore 73
	ldp	x27, x28, [sp, #80]
	.cfi_restore x27
	.cfi_restore x28
	ldp	x25, x26, [sp, #64]
	.cfi_restore x25
	.cfi_restore x26
	ldp	x23, x24, [sp, #48]
	.cfi_restore x23
	.cfi_restore x24
	ldp	x21, x22, [sp, #32]
	.cfi_restore x21
	.cfi_restore x22
	ldp	x19, x20, [sp, #16]
	.cfi_restore x19
	.cfi_restore x20
	ldp	x29, x30, [sp], #FRAME
	.cfi_restore x29
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	ret
END(lf_uw_call)

/* Self-test: the stp's writeback is not described (CFA stays sp + 0 inside the loop). */
FUNC(lf_uw_broken_cfa)
	stp	x19, x20, [sp, #-16]!		// (no .cfi_def_cfa_offset / .cfi_offset: the fault)
	mov	x19, #0
	cbz	x2, 2f
1:	add	x19, x19, x2
	subs	x2, x2, #1
	b.ne	1b
2:	mov	x0, x19
	ldp	x19, x20, [sp], #16
	ret
END(lf_uw_broken_cfa)

/* Self-test: x19 and x20 are described in each other's slot. */
FUNC(lf_uw_broken_reg)
	stp	x19, x20, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x19, -8			// (should be -16: the fault)
	.cfi_offset x20, -16			// (should be -8)
	mov	x19, #0
	mov	x20, #0
	cbz	x2, 2f
1:	add	x19, x19, x2
	subs	x2, x2, #1
	b.ne	1b
2:	mov	x0, x19
	ldp	x19, x20, [sp], #16
	.cfi_restore x19
	.cfi_restore x20
	.cfi_def_cfa_offset 0
	ret
END(lf_uw_broken_reg)

	.section .note.GNU-stack, "", %progbits
