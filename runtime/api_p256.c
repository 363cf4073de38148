/*
 * api_p256.c -- public entry points of the P-256 field kernels (OpenSSL ecp_nistz256 layout:
 * 4 x 64-bit limbs, R = 2^256) and of the JDK's conditionalAssign.  Contracts: limbforge.h.
 * Each forwards to the variant chosen by the dispatcher.
 */
#include "limbforge.h"
#include "lf_dispatch.h"

void lf_p256_mul_mont(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	LF_CALL_NOW(p256_mul_mont)(r, a, b);
}

void lf_p256_sqr_mont(uint64_t r[4], const uint64_t a[4])
{
	LF_CALL_NOW(p256_sqr_mont)(r, a);
}

void lf_conditional_assign(int set, int64_t *a, const int64_t *b, size_t n)
{
	LF_CALL_NOW(conditional_assign)(set, a, b, n);
}

void lf_p256_mont_mult(int64_t r[5], const int64_t a[5], const int64_t b[5])
{
	LF_CALL_NOW(p256_mont_mult)(r, a, b);
}

void lf_p256_mont_square(int64_t r[5], const int64_t a[5])
{
	LF_CALL_NOW(p256_mont_square)(r, a);
}

void lf_p256_mont_mult_x8(int64_t r[40], const int64_t a[40], const int64_t b[40])
{
	LF_CALL_NOW(p256_mont_mult_x8)(r, a, b);
}
