/*
 * win64_call.S -- the Win64 test trampoline (Microsoft x64 ABI, mingw-w64 gas): see w64call.h.
 * void w64_call(struct w64_call *c)
 */
#include "w64call.h"

	.text
	.p2align 4
	.globl	w64_call
	.def	w64_call; .scl 2; .type 32; .endef
	.globl	w64_call_ret
w64_call:
	.seh_proc w64_call
	pushq	%rbp
	.seh_pushreg %rbp
	pushq	%rbx
	.seh_pushreg %rbx
	pushq	%rdi
	.seh_pushreg %rdi
	pushq	%rsi
	.seh_pushreg %rsi
	pushq	%r12
	.seh_pushreg %r12
	pushq	%r13
	.seh_pushreg %r13
	pushq	%r14
	.seh_pushreg %r14
	pushq	%r15
	.seh_pushreg %r15
	/* 0: home area, 32: arguments 5 and 6, 48: guard words, 64: c, 80: xmm6-15 */
	subq	$248, %rsp
	.seh_stackalloc 248
	movaps	%xmm6, 80(%rsp)
	.seh_savexmm %xmm6, 80
	movaps	%xmm7, 96(%rsp)
	.seh_savexmm %xmm7, 96
	movaps	%xmm8, 112(%rsp)
	.seh_savexmm %xmm8, 112
	movaps	%xmm9, 128(%rsp)
	.seh_savexmm %xmm9, 128
	movaps	%xmm10, 144(%rsp)
	.seh_savexmm %xmm10, 144
	movaps	%xmm11, 160(%rsp)
	.seh_savexmm %xmm11, 160
	movaps	%xmm12, 176(%rsp)
	.seh_savexmm %xmm12, 176
	movaps	%xmm13, 192(%rsp)
	.seh_savexmm %xmm13, 192
	movaps	%xmm14, 208(%rsp)
	.seh_savexmm %xmm14, 208
	movaps	%xmm15, 224(%rsp)
	.seh_savexmm %xmm15, 224
	.seh_endprologue
	movq	%rcx, 64(%rsp)
	movq	%rcx, %rax
	movabsq	$W_GUARD_VALUE, %r10
	movq	%r10, 48(%rsp)
	movq	%r10, 56(%rsp)
	notq	%r10                     /* junk in the home area: the callee owns it */
	movq	%r10, (%rsp)
	movq	%r10, 8(%rsp)
	movq	%r10, 16(%rsp)
	movq	%r10, 24(%rsp)
	movq	W_ARGS+32(%rax), %r10
	movq	%r10, 32(%rsp)
	movq	W_ARGS+40(%rax), %r10
	movq	%r10, 40(%rsp)
	movdqu	W_XCANARY(%rax), %xmm6
	movdqu	W_XCANARY+16(%rax), %xmm7
	movdqu	W_XCANARY+32(%rax), %xmm8
	movdqu	W_XCANARY+48(%rax), %xmm9
	movdqu	W_XCANARY+64(%rax), %xmm10
	movdqu	W_XCANARY+80(%rax), %xmm11
	movdqu	W_XCANARY+96(%rax), %xmm12
	movdqu	W_XCANARY+112(%rax), %xmm13
	movdqu	W_XCANARY+128(%rax), %xmm14
	movdqu	W_XCANARY+144(%rax), %xmm15
	movq	W_CANARY(%rax), %rbx
	movq	W_CANARY+8(%rax), %rbp
	movq	W_CANARY+16(%rax), %rdi
	movq	W_CANARY+24(%rax), %rsi
	movq	W_CANARY+32(%rax), %r12
	movq	W_CANARY+40(%rax), %r13
	movq	W_CANARY+48(%rax), %r14
	movq	W_CANARY+56(%rax), %r15
	movq	%rsp, W_CALL_SP(%rax)
	movq	W_FN(%rax), %r11
	movq	W_ARGS(%rax), %rcx
	movq	W_ARGS+8(%rax), %rdx
	movq	W_ARGS+16(%rax), %r8
	movq	W_ARGS+24(%rax), %r9
	testq	$W_STEP, W_FLAGS(%rax)
	jz	1f
	pushfq                           /* TF: a single-step trap after the call, i.e. at */
	orq	$0x100, (%rsp)           /* every instruction of the callee (the handler */
	popfq                            /* stops at w64_call_ret) */
1:	call	*%r11
w64_call_ret:
	movq	64(%rsp), %r11
	movq	%rax, W_RET(%r11)
	movq	%rsp, W_SP_AFTER(%r11)
	movq	%rbx, W_SEEN(%r11)
	movq	%rbp, W_SEEN+8(%r11)
	movq	%rdi, W_SEEN+16(%r11)
	movq	%rsi, W_SEEN+24(%r11)
	movq	%r12, W_SEEN+32(%r11)
	movq	%r13, W_SEEN+40(%r11)
	movq	%r14, W_SEEN+48(%r11)
	movq	%r15, W_SEEN+56(%r11)
	movdqu	%xmm6, W_XSEEN(%r11)
	movdqu	%xmm7, W_XSEEN+16(%r11)
	movdqu	%xmm8, W_XSEEN+32(%r11)
	movdqu	%xmm9, W_XSEEN+48(%r11)
	movdqu	%xmm10, W_XSEEN+64(%r11)
	movdqu	%xmm11, W_XSEEN+80(%r11)
	movdqu	%xmm12, W_XSEEN+96(%r11)
	movdqu	%xmm13, W_XSEEN+112(%r11)
	movdqu	%xmm14, W_XSEEN+128(%r11)
	movdqu	%xmm15, W_XSEEN+144(%r11)
	movq	48(%rsp), %rax
	movq	%rax, W_GUARD(%r11)
	movq	56(%rsp), %rax
	movq	%rax, W_GUARD+8(%r11)
	movaps	80(%rsp), %xmm6
	movaps	96(%rsp), %xmm7
	movaps	112(%rsp), %xmm8
	movaps	128(%rsp), %xmm9
	movaps	144(%rsp), %xmm10
	movaps	160(%rsp), %xmm11
	movaps	176(%rsp), %xmm12
	movaps	192(%rsp), %xmm13
	movaps	208(%rsp), %xmm14
	movaps	224(%rsp), %xmm15
	addq	$248, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rsi
	popq	%rdi
	popq	%rbx
	popq	%rbp
	ret
	.seh_endproc
