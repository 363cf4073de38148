/*
 * start_x86_64.S -- a minimal, CET-marked _start for the CET link check (check_link.sh).
 *
 * Fault this exists to isolate: Debian 12's Scrt1.o/crti.o/crtn.o carry no IBT/SHSTK
 * property, so any program linked with them loses CET whatever limbforge does, and
 * `-z cet-report=error` rejects them.  The check links with -nostartfiles and this entry
 * instead, so that the only inputs are limbforge's archive, the test program and this file:
 * a missing property can then only come from limbforge.  (Dynamic program: ld.so has
 * initialised libc before it jumps here; main's status goes to exit().)
 */
	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined %rip		/* outermost frame */
	endbr64
	xorl	%ebp, %ebp
	movq	(%rsp), %rdi		/* argc */
	leaq	8(%rsp), %rsi		/* argv */
	andq	$-16, %rsp
	call	main
	movl	%eax, %edi
	call	exit
	hlt
	.cfi_endproc
	.size	_start, .-_start

	.section .note.GNU-stack, "", @progbits
	.section .note.gnu.property, "a"
	.p2align 3
	.long 4, 16, 5			/* namesz, descsz, NT_GNU_PROPERTY_TYPE_0 */
	.asciz "GNU"
	.long 0xc0000002, 4, 3, 0	/* X86_FEATURE_1_AND: IBT | SHSTK */
