/*
 * start_aarch64.S -- a minimal, BTI/PAC-marked _start for the BTI link check
 * (check_link.sh).
 *
 * Fault this exists to isolate: a program linked with toolchain start files that lack the
 * BTI/PAC property loses it whatever limbforge does, and `-z force-bti` warns about them.
 * The check links with -nostartfiles and this entry instead, so that the only inputs are
 * limbforge's archive, the test program and this file: a warning or a missing property can
 * then only come from limbforge.  (Dynamic program: ld.so has initialised libc before it
 * jumps here; main's status goes to exit().)
 */
	.text
	.globl	_start
	.type	_start, %function
_start:
	.cfi_startproc
	.cfi_undefined x30		// outermost frame
	hint	#34			// bti c
	mov	x29, #0
	mov	x30, #0
	ldr	x0, [sp]		// argc
	add	x1, sp, #8		// argv
	bl	main
	bl	exit
	brk	#0
	.cfi_endproc
	.size	_start, .-_start

	.section .note.GNU-stack, "", %progbits
	.section .note.gnu.property, "a"
	.p2align 3
	.long 4, 16, 5			// namesz, descsz, NT_GNU_PROPERTY_TYPE_0
	.asciz "GNU"
	.long 0xc0000000, 4, 3, 0	// AARCH64_FEATURE_1_AND: BTI | PAC
