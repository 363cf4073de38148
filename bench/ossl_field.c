/*
 * ossl_field.c -- OpenSSL's own field multiplications as bench peers, where the build has
 * them (BENCH_HAVE_OSSL_FIELD, set by bench.mk on x86-64 when the system's static libcrypto.a
 * holds the two perlasm objects below):
 *
 *   ecp_nistz256_mul_mont / ecp_nistz256_sqr_mont (crypto/ec/asm/ecp_nistz256-x86_64.pl):
 *     r = a b 2^-256 mod p (P-256), 4 x 64-bit limbs -- what EVP's P-256 code multiplies
 *     with, the same function as p256_mul_mont / p256_sqr_mont (outputs compared);
 *   x25519_fe51_mul / x25519_fe51_sqr (crypto/ec/asm/x25519-x86_64.pl): Curve25519 in
 *     5 x 51-bit limbs, the same layout as fe_c25519_r51 (outputs compared mod p).
 *
 * libcrypto.so does not export them, so bench.mk links the two objects out of libcrypto.a.
 * They read OPENSSL_ia32cap_P, libcrypto's CPU capability vector (hidden in the shared
 * library): it is defined here, word 2 = CPUID.(EAX=7,ECX=0).EBX as OPENSSL_cpuid_setup sets
 * it, so ecp_nistz256 takes its BMI2+ADX path (__ecp_nistz256_mul_montx) where the CPU has
 * both, as libcrypto itself does.
 */
#include "bench.h"

#ifdef BENCH_HAVE_OSSL_FIELD
#include <cpuid.h>

unsigned int OPENSSL_ia32cap_P[4];

__attribute__((constructor)) static void ossl_field_caps(void)
{
	unsigned a, b, c, d;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		OPENSSL_ia32cap_P[2] = b;
	if (__get_cpuid(1, &a, &b, &c, &d)) {
		OPENSSL_ia32cap_P[0] = d;
		OPENSSL_ia32cap_P[1] = c;
	}
}
#endif
