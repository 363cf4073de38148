/*
 * p256_ecdh.c -- ECDH on NIST P-256 (secp256r1) over the P-256 field kernels.
 *
 *   int lf_p256_ecdh(uint8_t shared_x[32], const uint8_t scalar[32],
 *                    const uint8_t peer_point[65]);
 *
 * Operation: shared_x = x(k P), the affine x coordinate of the scalar multiple of the peer's
 * public point P by the private scalar k: the ECDH primitive of SEC 1 v2 section 3.3.1 /
 * NIST SP 800-56A rev. 3 section 5.7.1.2 (cofactor 1), whose output RFC 5903 section 9 (IKE)
 * and TLS use as the shared secret.  No KDF is applied.
 *
 * Byte order and units: scalar is 32 bytes big-endian (the integer k, SEC 1 octet string);
 * peer_point is the 65-byte uncompressed SEC 1 encoding 0x04 || X || Y, X and Y 32 bytes
 * big-endian each; shared_x is 32 bytes big-endian (SEC 1 FieldElement-to-OctetString).
 * Curve: y^2 = x^3 - 3x + b over GF(p), p = 2^256 - 2^224 + 2^192 + 2^96 - 1, group order n
 * (FIPS 186-4 D.1.2.3 / SEC 2 2.4.2).
 *
 * Preconditions and errors (limbforge.h lists the LF_P256_E* codes):
 *   peer_point[0] != 0x04 (compressed 0x02/0x03, hybrid 0x06/0x07, 0x00) -> LF_P256_EENCODING;
 *   X >= p or Y >= p -> LF_P256_ERANGE;  X = Y = 0 (no encoding of the point at infinity is
 *   accepted) -> LF_P256_EINFINITY;  (X, Y) not on the curve -> LF_P256_ECURVE (the full public
 *   key validation of SP 800-56A 5.6.2.3.3 without the n P = O step, which cofactor 1 makes
 *   redundant: every point on the curve but O has order n);  k = 0 or k >= n ->
 *   LF_P256_ESCALAR.  The point is checked first (it is public), so a call with a bad point
 *   and a bad scalar returns the point's code.  On any error shared_x is set to 32 zero bytes;
 *   a wrong secret is never written.  On success 0.  shared_x may overlap the inputs (they
 *   are read into locals before anything is written).  NULL pointers are undefined.
 *
 * Constant time: no branch and no memory address depends on the scalar, including its range
 * check (k = 0 or k >= n is found by masks; the rejection merely masks the output to zeros
 * and selects the return code, so the code path and addresses are the same for every k).
 * Branches depend only on the public point (its validation).  The field kernels are straight
 * line (their contract).  tests/ct/ecdh_ct.c runs this under valgrind memcheck with the
 * scalar marked undefined.  Secrets (scalar, digits, accumulator, selected table entries) are
 * wiped from this function's locals before it returns, and the stack area the work used is
 * overwritten by a second call before returning.
 *
 * Algorithm:
 *   - Field: the dispatched p256_mul_mont / p256_sqr_mont kernels (Montgomery form, R = 2^256,
 *     4 x 64-bit limbs, OpenSSL ecp_nistz256 layout), fetched once per call (LF_CALL); add,
 *     sub, 3/2 (a + b), negate and selects mod p here, branch-free: on x86-64 carry chains in
 *     inline assembly (add with a CMOV select as OpenSSL's __ecp_nistz256_add_toq; sub adds p
 *     under the borrow's mask; the halving in 3/2 as div_by_2q, the sum kept in registers),
 *     elsewhere portable C with masks behind a value barrier.  Into Montgomery form: mul_mont
 *     by R^2 mod p; out: mul_mont by 1.
 *   - Points: Jacobian (X : Y : Z) = (X/Z^2, Y/Z^3), infinity = Z = 0.  Doubling for a = -3
 *     (4M + 4S, the products of OpenSSL ecp_nistz256_point_double; the "dbl-2001-b" idea of
 *     Bernstein-Lange, Explicit-Formulas Database, 3(X - Z^2)(X + Z^2) = 3X^2 - 3Z^4), its
 *     result scaled by 1/2 in the Jacobian sense (p_dbl: Z3 = YZ, fewer additions), which
 *     maps O to O.
 *     Addition: add-1998-cmo-2 (Cohen, Miyaji, Ono 1998; 12M + 4S, as ecp_nistz256_point_add)
 *     with the infinity cases selected by masks: O + Q = Q, P + O = P.  The kernel calls are
 *     ordered so that a product whose inputs are ready sits between a product and the one
 *     that waits for it: the ladder is bound by its chain of dependences about as much as by
 *     the work (p_dbl's comment has the measurements).
 *   - Scalar: fixed window w = 5 with Booth-recoded signed digits d_j in [-16, 16] (52 windows,
 *     as OpenSSL ecp_nistz256 booth_recode_w5): k = sum d_j 32^j.  Table T[i] = i P, i = 1..16
 *     (8 doublings, 7 additions (i - 1) P + P with P affine: 8M + 3S, p_add_affine); each digit
 *     reads all 16 entries under masks (index 0 gives the all-zero entry, i.e. O), then negates
 *     Y under a mask for d_j < 0.  Q = T[d_51]; then for j = 50..0: Q = 32 Q (5 doublings),
 *     Q = Q + d_j P (the entry read before the doublings).  255 doublings, 51 additions.
 *   - When the addition formula fails (P + P, where it gives Z = 0): write M_j for the prefix
 *     value sum_{i>=j} d_i 32^(i-j) (Q = 32 M_{j+1} P before adding d_j P).  Booth digits give
 *     M_j = (k - L_j) / 32^j with L_j in [-32^j/2, 32^j/2), so 0 <= M_{j+1} <= k/32^(j+1) + 1/2.
 *     The doubling case is 32 M_{j+1} = d_j (mod n) with both points finite: since
 *     32 M_{j+1} >= 32 > 16 >= |d_j|, it needs 32 M_{j+1} = n + d_j >= n - 16, impossible for
 *     j >= 1 (32 M_{j+1} <= k/32 + 16 < n/32 + 16); at j = 0 it needs k = 32 M_1 + d_0 =
 *     n + 2 d_0, and k = d_0 (mod 32) then gives d_0 = -n = 15 (mod 32), i.e. k = n + 30: never
 *     for 0 < k < n.  P + (-P) gives Z = 0, the right answer O, and only if M_j = 0, i.e.
 *     M_{j+1} = d_j = 0, both infinite anyway.  So for valid scalars only the infinity cases
 *     occur (O + dP while the leading digits are 0; Q + O for a zero digit) and are selected by
 *     masks; the last addition nevertheless also computes 2Q and selects it when H = 0 and
 *     R = 0 with both points finite -- insurance against a flaw in this argument, in constant
 *     time, one doubling per call (0.3%).  (OpenSSL's ecp_nistz256_point_add branches there
 *     instead.)  tests/kat/gen_ecdh.py replays the ladder on its vectors and asserts the
 *     doubling and P - P cases never occur.  For k = 0 or k >= n the output is masked away.
 *   - Affine x: x = X Z^-2, Z^-2 from 1/Z by Bernstein-Yang divsteps (runtime/lf_safegcd.h, the
 *     inversion of the generated EC fields: 10 batches of 60 half-delta divsteps, constant
 *     time), then one squaring and one multiplication by R^5 back into the Montgomery domain
 *     (on AMD Zen 5: 118,300 -> 116,200 core cycles per ECDH, 1.09x -> 1.12x OpenSSL's, with
 *     13 batches of the paper's divstep; the half-delta form took the inversion from about
 *     6,200 to 4,900 cycles and ECDH to 1.13x, 2026-12-02).  Compilers
 *     without __int128 take Z^(p-3) by the addition chain of Z^(p-2) (x2, x4, x8, x16, x32
 *     blocks of ones, as ecp_nistz256_mod_inverse) without its last multiplication: 255
 *     squarings and 12 multiplications.
 *   Per call: 264 doublings (4M + 4S), 51 additions (12M + 4S) and 7 with an affine point
 *   (8M + 3S), the inversion and 7 more: about 1730 mul_mont + 1290 sqr_mont kernel calls.
 *   Where the time goes (AMD Zen 5, 2026-12-01, a harness including this file): ECDH 115,000
 *   core cycles; p_dbl 274 (the throughput of its parts alone: 4 x 28.4 + 4 x 24.3 for the
 *   products, ~50 for the additions and subtractions), p_add 540, the inversion 6,500 (4,900
 *   since), a gather 78.  Upper bounds measured 2026-12-02 by removing a part (wrong
 *   results, timing only): p_dbl's additions and subtractions all free 7% of an ECDH, the
 *   gathers free 1.8%.  The products bound the doublings by throughput, not by calls: 8 kernel calls
 *   back to back took 28.9 cycles each, their bodies inlined 28.6, so a point kernel with the
 *   field code inlined would gain little; the lever is the products themselves.
 *
 * Sources: SEC 1 v2 (2009) 2.3.3-2.3.4 (encodings), 3.2.2.1 (public key validation), 3.3.1
 * (ECDH); NIST SP 800-56A rev. 3 5.6.2.3 and 5.7.1.2; FIPS 186-4 D.1.2.3 (curve); RFC 5903
 * (ECP groups, test vectors for the shared x); H. Cohen, A. Miyaji, T. Ono, "Efficient
 * elliptic curve exponentiation using mixed coordinates", ASIACRYPT 1998; D. J. Bernstein,
 * T. Lange, Explicit-Formulas Database (hyperelliptic.org/EFD, g1p/shortw/jacobian-3);
 * S. Gueron, V. Krasnov, "Fast prime field elliptic-curve cryptography with 256-bit primes",
 * J. Cryptogr. Eng. 2015 (ecp_nistz256: window, Booth recoding, gather); A. D. Booth 1951;
 * D. J. Bernstein, B.-Y. Yang, "Fast constant-time gcd computation and modular inversion",
 * TCHES 2019 (the inversion).
 */
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"
#include "lf_fields.h"              /* LF_FE_WIDE: the compiler has __int128 */
#if LF_FE_WIDE
#  include "lf_safegcd.h"
#endif

typedef uint64_t fe[4];

typedef struct {
	fe X, Y, Z;
} jpoint;

struct fops {
	lf_p256_mul_mont_fn mul;
	lf_p256_sqr_mont_fn sqr;
};

/* Keep the optimiser from learning that a mask is 0 or all ones (and from turning a masked
 * select into a branch). */
#if defined(__GNUC__)
#  define VALUE_BARRIER(x) __asm__("" : "+r"(x))
#  define NOINLINE __attribute__((noinline))
#else
#  define VALUE_BARRIER(x) do { volatile uint64_t v_ = (x); (x) = v_; } while (0)
#  define NOINLINE
#endif

static const fe P = {
	UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000ffffffff),
	UINT64_C(0x0000000000000000), UINT64_C(0xffffffff00000001),
};
static const fe N = {
	UINT64_C(0xf3b9cac2fc632551), UINT64_C(0xbce6faada7179e84),
	UINT64_C(0xffffffffffffffff), UINT64_C(0xffffffff00000000),
};
/* R^2 mod p: into the Montgomery domain */
static const fe RR = {
	UINT64_C(0x0000000000000003), UINT64_C(0xfffffffbffffffff),
	UINT64_C(0xfffffffffffffffe), UINT64_C(0x00000004fffffffd),
};
/* b R mod p */
static const fe B_MONT = {
	UINT64_C(0xd89cdf6229c4bddf), UINT64_C(0xacf005cd78843090),
	UINT64_C(0xe5a220abf7212ed6), UINT64_C(0xdc30061d04874834),
};
/* 1 (not in Montgomery form): out of the Montgomery domain */
static const fe ONE = { 1, 0, 0, 0 };

/* ---- field helpers mod p, branch-free; inputs and outputs fully reduced (< p) ---------- */

/* all ones if x == 0, else 0 */
static inline uint64_t mask_is_zero64(uint64_t x)
{
	uint64_t m = ((x | (0 - x)) >> 63) - 1;
	VALUE_BARRIER(m);
	return m;
}

static inline uint64_t fe_is_zero(const fe a)
{
	return mask_is_zero64(a[0] | a[1] | a[2] | a[3]);
}

/* r = mask ? a : b  (mask 0 or all ones).  Each limb goes through a general register (the
 * barrier): a vectorised select would load 16 bytes from two 8-byte stores the field kernels
 * just made, a store-forwarding stall of ~15 cycles per pair. */
static inline void fe_select(fe r, uint64_t mask, const fe a, const fe b)
{
	for (int i = 0; i < 4; i++) {
		uint64_t x = (a[i] & mask) | (b[i] & ~mask);
		VALUE_BARRIER(x);
		r[i] = x;
	}
}

#if defined(__GNUC__) && defined(__x86_64__)
/* x86-64: carry chains with CMOV selects or masks in inline assembly (after OpenSSL's
 * __ecp_nistz256_add_toq, __ecp_nistz256_sub_fromq, __ecp_nistz256_div_by_2q); CMOV is a data
 * dependence, not a branch.  p = (2^64 - 1, P1, 0, P3). */
#define P1 UINT64_C(0x00000000ffffffff)
#define P3 UINT64_C(0xffffffff00000001)
#define FE_IN(x) "m"(*(const uint64_t(*)[4])(x))

/* r = a + b mod p */
static inline void fe_add(fe r, const fe a, const fe b)
{
	uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], t0, t1, t2, t3, t4 = 0;
	__asm__("addq 0(%[b]), %[a0]\n\t"
	        "adcq 8(%[b]), %[a1]\n\t"
	        "movq %[a0], %[t0]\n\t"
	        "adcq 16(%[b]), %[a2]\n\t"
	        "adcq 24(%[b]), %[a3]\n\t"
	        "movq %[a1], %[t1]\n\t"
	        "adcq $0, %[t4]\n\t"
	        "subq $-1, %[a0]\n\t"           /* (t4:a) - p */
	        "movq %[a2], %[t2]\n\t"
	        "sbbq %[p1], %[a1]\n\t"
	        "sbbq $0, %[a2]\n\t"
	        "movq %[a3], %[t3]\n\t"
	        "sbbq %[p3], %[a3]\n\t"
	        "sbbq $0, %[t4]\n\t"
	        "cmovcq %[t0], %[a0]\n\t"       /* borrowed: the sum was below p */
	        "cmovcq %[t1], %[a1]\n\t"
	        "cmovcq %[t2], %[a2]\n\t"
	        "cmovcq %[t3], %[a3]"
	        : [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [t0] "=&r"(t0),
	          [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "+&r"(t4)
	        : [b] "r"(b), [p1] "r"(P1), [p3] "r"(P3), FE_IN(b)
	        : "cc");
	r[0] = a0, r[1] = a1, r[2] = a2, r[3] = a3;
}

/* r = a - b mod p: the borrow of a - b becomes a mask m (SBB m, m), and p & m is added back
 * (p & m = (m, m mod 2^32, 0, m & P3): the 32-bit MOV zero-extends).  Seven carry
 * instructions (ports 0/6 on Golden Cove) against eleven for a select by CMOV. */
static inline void fe_sub(fe r, const fe a, const fe b)
{
	uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], m = 0, m1, m3;
	__asm__("subq 0(%[b]), %[a0]\n\t"
	        "sbbq 8(%[b]), %[a1]\n\t"
	        "sbbq 16(%[b]), %[a2]\n\t"
	        "sbbq 24(%[b]), %[a3]\n\t"
	        "sbbq %[m], %[m]\n\t"           /* all ones if a < b (m = 0 before: no false
	                                           dependence on the register's old value) */
	        "movl %k[m], %k[m1]\n\t"        /* m & P1 */
	        "movq %[m], %[m3]\n\t"
	        "andq %[p3], %[m3]\n\t"         /* m & P3 */
	        "addq %[m], %[a0]\n\t"          /* + (p & m) */
	        "adcq %[m1], %[a1]\n\t"
	        "adcq $0, %[a2]\n\t"
	        "adcq %[m3], %[a3]"
	        : [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [m] "+&r"(m),
	          [m1] "=&r"(m1), [m3] "=&r"(m3)
	        : [b] "r"(b), [p3] "r"(P3), FE_IN(b)
	        : "cc");
	r[0] = a0, r[1] = a1, r[2] = a2, r[3] = a3;
}

/* a = 3a/2 mod p, on registers (a < p): h = a/2 = (a + (a odd ? p : 0)) >> 1, then a + h
 * (< 2p) and t - p selected by CMOVC on its borrow.  The masks of p land in h directly
 * (h0 = m, h1 = m mod 2^32, h2 = 0, h3 = m & P3), then h += a. */
static inline void mul3half_rr(uint64_t *a0, uint64_t *a1, uint64_t *a2, uint64_t *a3)
{
	uint64_t h0, h1, h2, h3, h4;
	__asm__("movq %[a0], %[h0]\n\t"
	        "andq $1, %[h0]\n\t"
	        "negq %[h0]\n\t"              /* all ones if a is odd */
	        "movl %k[h0], %k[h1]\n\t"     /* m & P1 */
	        "movq %[h0], %[h3]\n\t"
	        "andq %[p3], %[h3]\n\t"       /* m & P3 */
	        "xorl %k[h2], %k[h2]\n\t"
	        "xorl %k[h4], %k[h4]\n\t"
	        "addq %[a0], %[h0]\n\t"       /* h = a + (p & m) */
	        "adcq %[a1], %[h1]\n\t"
	        "adcq %[a2], %[h2]\n\t"
	        "adcq %[a3], %[h3]\n\t"
	        "adcq $0, %[h4]\n\t"
	        "shrdq $1, %[h1], %[h0]\n\t"  /* h >>= 1: h < p */
	        "shrdq $1, %[h2], %[h1]\n\t"
	        "shrdq $1, %[h3], %[h2]\n\t"
	        "shrdq $1, %[h4], %[h3]\n\t"
	        "addq %[h0], %[a0]\n\t"       /* a + h < 2p */
	        "adcq %[h1], %[a1]\n\t"
	        "adcq %[h2], %[a2]\n\t"
	        "adcq %[h3], %[a3]\n\t"
	        "movl $0, %k[h4]\n\t"
	        "adcq $0, %[h4]\n\t"
	        "movq %[a0], %[h0]\n\t"
	        "movq %[a1], %[h1]\n\t"
	        "movq %[a2], %[h2]\n\t"
	        "movq %[a3], %[h3]\n\t"
	        "subq $-1, %[a0]\n\t"
	        "sbbq %[p1], %[a1]\n\t"
	        "sbbq $0, %[a2]\n\t"
	        "sbbq %[p3], %[a3]\n\t"
	        "sbbq $0, %[h4]\n\t"
	        "cmovcq %[h0], %[a0]\n\t"     /* borrowed: the sum was below p */
	        "cmovcq %[h1], %[a1]\n\t"
	        "cmovcq %[h2], %[a2]\n\t"
	        "cmovcq %[h3], %[a3]"
	        : [a0] "+&r"(*a0), [a1] "+&r"(*a1), [a2] "+&r"(*a2), [a3] "+&r"(*a3),
	          [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2), [h3] "=&r"(h3), [h4] "=&r"(h4)
	        : [p1] "r"(P1), [p3] "r"(P3)
	        : "cc");
}

/* r = 3/2 (a + b) mod p: the sum stays in registers for the 3/2 */
static inline void fe_add_3half(fe r, const fe a, const fe b)
{
	fe s;
	fe_add(s, a, b);
	uint64_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
	mul3half_rr(&s0, &s1, &s2, &s3);
	r[0] = s0, r[1] = s1, r[2] = s2, r[3] = s3;
}
#else
/* Portable C: carries by comparisons (no 128-bit type needed), selects by masks. */

/* r = a + b mod p */
static inline void fe_add(fe r, const fe a, const fe b)
{
	uint64_t s[4], d[4], c = 0, bw = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t x = a[i] + b[i];
		uint64_t c1 = x < a[i];
		s[i] = x + c;
		c = c1 | (s[i] < x);
	}
	/* d = s - p; keep s when (c:s) < p, i.e. the subtraction borrows and c = 0 */
	for (int i = 0; i < 4; i++) {
		uint64_t x = s[i] - P[i];
		uint64_t b1 = s[i] < P[i];
		d[i] = x - bw;
		bw = b1 | (x < bw);
	}
	uint64_t keep = 0 - (bw & (c ^ 1));
	VALUE_BARRIER(keep);
	fe_select(r, keep, s, d);
}

/* r = a - b mod p */
static inline void fe_sub(fe r, const fe a, const fe b)
{
	uint64_t d[4], bw = 0, c = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t x = a[i] - b[i];
		uint64_t b1 = a[i] < b[i];
		d[i] = x - bw;
		bw = b1 | (x < bw);
	}
	uint64_t m = 0 - bw;
	VALUE_BARRIER(m);
	/* borrowed: add p back (mod 2^256) */
	for (int i = 0; i < 4; i++) {
		uint64_t pm = P[i] & m;
		uint64_t x = d[i] + pm;
		uint64_t c1 = x < pm;
		uint64_t y = x + c;
		c = c1 | (y < x);
		VALUE_BARRIER(y);
		r[i] = y;
	}
}

/* r = a / 2 mod p: (a + (a odd ? p : 0)) >> 1 */
static inline void fe_half(fe r, const fe a)
{
	uint64_t m = 0 - (a[0] & 1), s[4], c = 0;
	VALUE_BARRIER(m);
	for (int i = 0; i < 4; i++) {
		uint64_t pm = P[i] & m;
		uint64_t x = a[i] + pm;
		uint64_t c1 = x < pm;
		s[i] = x + c;
		c = c1 | (s[i] < x);
	}
	for (int i = 0; i < 3; i++) {
		uint64_t y = (s[i] >> 1) | (s[i + 1] << 63);
		VALUE_BARRIER(y);
		r[i] = y;
	}
	r[3] = (s[3] >> 1) | (c << 63);
}

/* r = 3/2 (a + b) mod p */
static inline void fe_add_3half(fe r, const fe a, const fe b)
{
	fe s, h;
	fe_add(s, a, b);
	fe_half(h, s);
	fe_add(r, s, h);
}
#endif

/* r = -a mod p (0 stays 0) */
static inline void fe_neg(fe r, const fe a)
{
	static const fe zero = { 0, 0, 0, 0 };
	fe_sub(r, zero, a);
}

/* x >= p: 1 (public data only: used on the decoded point) */
static int fe_geq_p(const fe x)
{
	for (int i = 3; i >= 0; i--)
		if (x[i] != P[i])
			return x[i] > P[i];
	return 1;
}

static void fe_from_be(fe r, const uint8_t b[32])
{
	for (int i = 0; i < 4; i++) {
		uint64_t v = 0;
		for (int j = 0; j < 8; j++)
			v = (v << 8) | b[(3 - i) * 8 + j];
		r[i] = v;
	}
}

static void fe_to_be(uint8_t b[32], const fe a)
{
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 8; j++)
			b[(3 - i) * 8 + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

/* ---- points ---------------------------------------------------------------------------- */

/* r = 2 a (Jacobian, a = -3); r may alias a; O stays O (Z3 = YZ = 0).  The result is the
 * doubling of OpenSSL's ecp_nistz256_point_double, (X3, Y3, Z3) = (M^2 - 8XY^2,
 * M(4XY^2 - X3) - 8Y^4, 2YZ) with M = 3(X^2 - Z^4), scaled by lambda = 1/2: (lambda^2 X3,
 * lambda^3 Y3, lambda Z3) is the same point, and with M' = M/2 it reads X3' = M'^2 - 2B,
 * Y3' = M'(B - X3') - Y^4, Z3' = YZ, B = XY^2 -- no 2Y, 2YZ, 8XY^2 or 8Y^4 (dbl-2004-hmv of
 * the Explicit-Formulas Database has the same products).  The doublings are bound by their
 * chain of dependences more than by the work (measured, paired): B - X3 is taken as
 * 3B - M'^2, so that M'^2 -> M'(B - X3) -> Y3 has one subtraction between the products
 * instead of three (one addition more, 0.976x the time), and M' = (X - Z^2) 3/2 (X + Z^2)
 * takes the 3/2 before the product, on the sum still in registers (0.989x); Y^4, which is
 * ready, is squared between M'^2 and the product that waits for it (0.98x when the other
 * vCPU of the test machine is idle, 0.99-1.01x when it is busy). */
static void p_dbl(const struct fops *f, jpoint *r, const jpoint *a)
{
	fe Zsqr, A, B, B2, B3, C, M, U, T;
	f->sqr(Zsqr, a->Z);             /* Z^2 */
	f->sqr(A, a->Y);                /* Y^2 */
	f->mul(r->Z, a->Z, a->Y);       /* Z3 = YZ; a->Y, a->Z are not read after this */
	fe_add_3half(U, a->X, Zsqr);    /* 3/2 (X + Z^2) */
	fe_sub(T, a->X, Zsqr);          /* X - Z^2 */
	f->mul(B, A, a->X);             /* B = XY^2; a is not read after this */
	f->mul(M, U, T);                /* M' = 3/2 (X^2 - Z^4) */
	fe_add(B2, B, B);               /* 2B and 3B before M'^2 is known: after it, X3 and */
	fe_add(B3, B2, B);              /* B - X3 are one subtraction each, side by side */
	f->sqr(T, M);                   /* M'^2 */
	fe_sub(r->X, T, B2);            /* X3 = M'^2 - 2B */
	fe_sub(T, B3, T);               /* B - X3 = 3B - M'^2 */
	f->sqr(C, A);                   /* Y^4: ready, between M'^2 and M'(B - X3) */
	f->mul(T, T, M);
	fe_sub(r->Y, T, C);             /* Y3 = M'(B - X3) - Y^4 */
}

/* r = a + b (Jacobian); the infinity cases by masks (O + b = b, a + O = a).  For a = b
 * (both finite) the formula gives Z = 0: the returned mask (all ones) says so, and the
 * caller selects 2a instead where that can happen.  r may alias a or b. */
static uint64_t p_add(const struct fops *f, jpoint *r, const jpoint *a, const jpoint *b)
{
	fe Z1sqr, Z2sqr, U1, U2, S1, S2, H, R, Hsqr, Rsqr, Hcub, rx, ry, rz;
	f->sqr(Z2sqr, b->Z);
	f->sqr(Z1sqr, a->Z);
	f->mul(S1, b->Z, Z2sqr);        /* Z2^3 */
	f->mul(S2, a->Z, Z1sqr);        /* Z1^3 */
	f->mul(U1, a->X, Z2sqr);        /* U1 = X1 Z2^2 */
	f->mul(U2, b->X, Z1sqr);        /* U2 = X2 Z1^2 */
	f->mul(S1, S1, a->Y);           /* S1 = Y1 Z2^3 */
	f->mul(S2, S2, b->Y);           /* S2 = Y2 Z1^3 */
	f->mul(rz, a->Z, b->Z);
	fe_sub(H, U2, U1);
	fe_sub(R, S2, S1);
	f->sqr(Hsqr, H);
	f->sqr(Rsqr, R);
	f->mul(Hcub, Hsqr, H);
	f->mul(U2, U1, Hsqr);           /* U1 H^2 */
	fe_sub(rx, Rsqr, Hcub);
	fe_sub(rx, rx, U2);
	fe_sub(rx, rx, U2);             /* X3 = R^2 - H^3 - 2 U1 H^2 */
	fe_sub(ry, U2, rx);
	/* two products that are ready, between the subtractions and the product that waits for
	 * them (measured 0.99-1.00x the time of the plain order) */
	f->mul(S2, S1, Hcub);           /* S1 H^3 */
	f->mul(rz, rz, H);              /* Z3 = Z1 Z2 H */
	f->mul(ry, ry, R);
	fe_sub(ry, ry, S2);             /* Y3 = R (U1 H^2 - X3) - S1 H^3 */

	uint64_t inf1 = fe_is_zero(a->Z), inf2 = fe_is_zero(b->Z);
	uint64_t same = fe_is_zero(H) & fe_is_zero(R) & ~inf1 & ~inf2;
	/* O + b = b; a + O = a (b is read before r, which may alias it, is written) */
	fe_select(rx, inf1, b->X, rx);
	fe_select(ry, inf1, b->Y, ry);
	fe_select(rz, inf1, b->Z, rz);
	fe_select(r->X, inf2, a->X, rx);
	fe_select(r->Y, inf2, a->Y, ry);
	fe_select(r->Z, inf2, a->Z, rz);
	return same;
}

/* r = a + b for the table: b affine (Z = 1, i.e. R mod p), a finite and a != +-b, which the
 * table's sums (i - 1) P + P, i = 3..15, always are (and they are public: no masks).  The
 * same formula with Z2 = 1 (madd-2004-hmv's products): 8M + 3S instead of 12M + 4S.  r may
 * alias a. */
static void p_add_affine(const struct fops *f, jpoint *r, const jpoint *a, const jpoint *b)
{
	fe Z1sqr, U2, S2, H, R, Hsqr, Rsqr, Hcub, t;
	f->sqr(Z1sqr, a->Z);
	f->mul(S2, a->Z, Z1sqr);        /* Z1^3 */
	f->mul(U2, b->X, Z1sqr);        /* U2 = X2 Z1^2 */
	f->mul(S2, S2, b->Y);           /* S2 = Y2 Z1^3 */
	fe_sub(H, U2, a->X);            /* U1 = X1 */
	fe_sub(R, S2, a->Y);            /* S1 = Y1 */
	f->sqr(Hsqr, H);
	f->sqr(Rsqr, R);
	f->mul(r->Z, a->Z, H);          /* Z3 = Z1 H */
	f->mul(Hcub, Hsqr, H);
	f->mul(U2, a->X, Hsqr);         /* X1 H^2 */
	f->mul(S2, a->Y, Hcub);         /* Y1 H^3 */
	fe_sub(t, Rsqr, Hcub);
	fe_sub(t, t, U2);
	fe_sub(r->X, t, U2);            /* X3 = R^2 - H^3 - 2 X1 H^2 */
	fe_sub(t, U2, r->X);
	f->mul(t, t, R);
	fe_sub(r->Y, t, S2);            /* Y3 = R (X1 H^2 - X3) - Y1 H^3 */
}

static void p_select(jpoint *r, uint64_t mask, const jpoint *a, const jpoint *b)
{
	fe_select(r->X, mask, a->X, b->X);
	fe_select(r->Y, mask, a->Y, b->Y);
	fe_select(r->Z, mask, a->Z, b->Z);
}

/* r = T[idx - 1] for idx in 1..16, the all-zero point (O) for idx = 0: every entry read,
 * combined under masks (no address depends on idx).  The accumulators stay in registers
 * (SSE2 on x86-64, twelve general registers elsewhere). */
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
static void gather16(jpoint *r, const jpoint T[16], uint64_t idx)
{
	__m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
	/* idx < 17: compare 32-bit lanes (SSE2 has no 64-bit compare), all four equal or not */
	const __m128i want = _mm_set1_epi32((int)idx), one = _mm_set1_epi32(1);
	__m128i cur = one;
	for (int i = 0; i < 16; i++) {
		__m128i m = _mm_cmpeq_epi32(cur, want);
		cur = _mm_add_epi32(cur, one);
		const __m128i *e = (const __m128i *)(const void *)&T[i];
		a0 = _mm_or_si128(a0, _mm_and_si128(m, _mm_loadu_si128(e + 0)));
		a1 = _mm_or_si128(a1, _mm_and_si128(m, _mm_loadu_si128(e + 1)));
		a2 = _mm_or_si128(a2, _mm_and_si128(m, _mm_loadu_si128(e + 2)));
		a3 = _mm_or_si128(a3, _mm_and_si128(m, _mm_loadu_si128(e + 3)));
		a4 = _mm_or_si128(a4, _mm_and_si128(m, _mm_loadu_si128(e + 4)));
		a5 = _mm_or_si128(a5, _mm_and_si128(m, _mm_loadu_si128(e + 5)));
	}
	__m128i *o = (__m128i *)(void *)r;
	_mm_storeu_si128(o + 0, a0);
	_mm_storeu_si128(o + 1, a1);
	_mm_storeu_si128(o + 2, a2);
	_mm_storeu_si128(o + 3, a3);
	_mm_storeu_si128(o + 4, a4);
	_mm_storeu_si128(o + 5, a5);
}
#else
static void gather16(jpoint *r, const jpoint T[16], uint64_t idx)
{
	uint64_t a[12] = { 0 };
	for (uint64_t i = 0; i < 16; i++) {
		uint64_t m = mask_is_zero64(idx ^ (i + 1));
		const uint64_t *e = T[i].X;
		a[0] |= e[0] & m, a[1] |= e[1] & m, a[2] |= e[2] & m, a[3] |= e[3] & m;
		a[4] |= e[4] & m, a[5] |= e[5] & m, a[6] |= e[6] & m, a[7] |= e[7] & m;
		a[8] |= e[8] & m, a[9] |= e[9] & m, a[10] |= e[10] & m, a[11] |= e[11] & m;
	}
	memcpy(r, a, sizeof a);
}
#endif

/* Booth recoding of the 6-bit window w (bits 5j-1 .. 5j+4 of k): digit |d| and sign mask */
static inline void booth5(uint64_t w, uint64_t *absd, uint64_t *neg)
{
	uint64_t s = 0 - (w >> 5);              /* negative digit */
	uint64_t d = (63 - w) & s;              /* 63 - w for w >= 32 */
	d |= w & ~s;
	*absd = (d >> 1) + (d & 1);
	*neg = s;
}

/* bits 5j-1 .. 5j+4 of k (bit -1 is 0, bits >= 256 are 0); j public */
static inline uint64_t window6(const fe k, int j)
{
	int pos = 5 * j - 1;
	if (pos < 0)
		return (k[0] << 1) & 0x3f;
	int limb = pos / 64, sh = pos % 64;
	uint64_t v = k[limb] >> sh;
	if (sh > 58 && limb < 3)
		v |= k[limb + 1] << (64 - sh);
	return v & 0x3f;
}

#if LF_FE_WIDE
/* z^-2 mod p (Montgomery form in and out; 0 gives 0): s = 1/z as an integer by Bernstein-Yang
 * divsteps (runtime/lf_safegcd.h, constant time; z = Z R gives s = Z^-1 R^-1), then
 * sqr_mont(s) = Z^-2 R^-3 and mul_mont by R^5 mod p gives Z^-2 R. */
static const fe R5 = {
	UINT64_C(0xfffffeb2ffffffad), UINT64_C(0xffffff86fffffea8),
	UINT64_C(0x000001c900000135), UINT64_C(0x0000017a000001ba),
};

static NOINLINE void fe_inv_sqr(const struct fops *f, fe r, const fe z)
{
	/* p in signed-62 limbs; 10 batches x 60 >= 591 half-delta divsteps (p < 2^256) */
	static const int64_t p62[5] = {
		INT64_C(0x3fffffffffffffff), INT64_C(0x3ffffffff), INT64_C(0x0),
		INT64_C(0x3fffffc000000040), INT64_C(0xff),
	};
	int64_t s[5];
	fe t;
	lf_sg_from_digits(5, s, 4, 64, (const int64_t *)(const void *)z);
	lf_sg_inverse(5, 10, s, p62, UINT64_C(0x3fffffffffffffff));
	lf_sg_to_digits(4, 64, (int64_t *)(void *)t, 5, s);
	f->sqr(t, t);
	f->mul(r, t, R5);
	lf_wipe(s, sizeof s);
	lf_wipe(t, sizeof t);
}
#else
/* z^-2 = z^(p-3) mod p (Montgomery form in and out; 0 gives 0): the addition chain of
 * z^(p-2) = z^-1 without its last step (p - 2 = 4e + 1, p - 3 = 4e) */
static NOINLINE void fe_inv_sqr(const struct fops *f, fe r, const fe z)
{
	fe x2, x4, x8, x16, x32, t;
	int i;
	f->sqr(t, z);
	f->mul(x2, t, z);               /* 2 ones */
	f->sqr(t, x2);
	f->sqr(t, t);
	f->mul(x4, t, x2);              /* 4 ones */
	f->sqr(t, x4);
	for (i = 1; i < 4; i++)
		f->sqr(t, t);
	f->mul(x8, t, x4);
	f->sqr(t, x8);
	for (i = 1; i < 8; i++)
		f->sqr(t, t);
	f->mul(x16, t, x8);
	f->sqr(t, x16);
	for (i = 1; i < 16; i++)
		f->sqr(t, t);
	f->mul(x32, t, x16);            /* ffffffff */
	f->sqr(t, x32);
	for (i = 1; i < 32; i++)
		f->sqr(t, t);
	f->mul(t, t, z);                /* ffffffff 00000001 */
	for (i = 0; i < 128; i++)
		f->sqr(t, t);
	f->mul(t, t, x32);              /* ... 00000000 00000000 00000000 ffffffff */
	for (i = 0; i < 32; i++)
		f->sqr(t, t);
	f->mul(t, t, x32);              /* ffffffff */
	for (i = 0; i < 16; i++)
		f->sqr(t, t);
	f->mul(t, t, x16);
	for (i = 0; i < 8; i++)
		f->sqr(t, t);
	f->mul(t, t, x8);
	for (i = 0; i < 4; i++)
		f->sqr(t, t);
	f->mul(t, t, x4);
	for (i = 0; i < 2; i++)
		f->sqr(t, t);
	f->mul(t, t, x2);               /* ... 3fffffff: e = (p - 3)/4 */
	f->sqr(t, t);
	f->sqr(r, t);                   /* ... fffffffc: p - 3 */
	memset(x2, 0, sizeof x2), memset(x4, 0, sizeof x4), memset(x8, 0, sizeof x8);
	memset(x16, 0, sizeof x16), memset(x32, 0, sizeof x32), memset(t, 0, sizeof t);
	__asm__ __volatile__("" : : "r"(x2), "r"(x4), "r"(x8), "r"(x16), "r"(x32), "r"(t)
	                     : "memory");
}
#endif

/* Everything the scalar multiplication keeps, wiped in one go. */
struct ecdh_work {
	jpoint T[16];           /* i P, i = 1..16 (public: depends on the point only) */
	jpoint Q, A, D;         /* accumulator, gathered entry, 2Q for the last addition */
	fe k, zi, x, negy;
	uint64_t digit[52], sign[52];
	uint8_t out[32];
};

/* Decode and validate the peer point (public): 0 or an LF_P256_E* code; X, Y in Montgomery
 * form. */
static int decode_point(const struct fops *f, fe X, fe Y, const uint8_t pt[65])
{
	fe x, y, t, rhs;
	if (pt[0] != 0x04)
		return LF_P256_EENCODING;
	fe_from_be(x, pt + 1);
	fe_from_be(y, pt + 33);
	if (fe_geq_p(x) || fe_geq_p(y))
		return LF_P256_ERANGE;
	if ((x[0] | x[1] | x[2] | x[3] | y[0] | y[1] | y[2] | y[3]) == 0)
		return LF_P256_EINFINITY;
	f->mul(X, x, RR);
	f->mul(Y, y, RR);
	/* y^2 = x^3 - 3x + b */
	f->sqr(t, X);
	f->mul(t, t, X);
	fe_sub(t, t, X);
	fe_sub(t, t, X);
	fe_sub(t, t, X);
	fe_add(rhs, t, B_MONT);
	f->sqr(t, Y);
	if (memcmp(t, rhs, sizeof t) != 0)
		return LF_P256_ECURVE;
	return 0;
}

static NOINLINE int ecdh_core(const struct fops *f, uint8_t shared_x[32],
                              const uint8_t scalar[32], const uint8_t peer_point[65])
{
	struct ecdh_work w;
	int rc;
	uint8_t sc[32];

	memcpy(sc, scalar, 32);          /* shared_x may overlap the inputs */
	rc = decode_point(f, w.T[0].X, w.T[0].Y, peer_point);
	if (rc) {
		lf_wipe(sc, sizeof sc);
		memset(shared_x, 0, 32);
		return rc;
	}
	memcpy(w.T[0].Z, (const fe){ UINT64_C(0x0000000000000001), UINT64_C(0xffffffff00000000),
	                             UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000fffffffe) },
	       sizeof(fe));             /* Z = 1 (R mod p) */

	/* scalar: 0 < k < n, by masks */
	fe_from_be(w.k, sc);
	lf_wipe(sc, sizeof sc);
	uint64_t bw = 0;               /* the borrow out of k - n */
	for (int i = 0; i < 4; i++) {
		uint64_t x = w.k[i] - N[i];
		bw = ((w.k[i] < N[i]) | (x < bw)) & 1;
	}
	uint64_t ok = (0 - bw) & ~fe_is_zero(w.k);     /* k < n and k != 0 */
	VALUE_BARRIER(ok);

	/* table: T[i-1] = i P */
	for (int i = 2; i <= 16; i++) {
		if (i % 2 == 0)
			p_dbl(f, &w.T[i - 1], &w.T[i / 2 - 1]);
		else
			p_add_affine(f, &w.T[i - 1], &w.T[i - 2], &w.T[0]);
	}

	/* digits */
	for (int j = 0; j < 52; j++)
		booth5(window6(w.k, j), &w.digit[j], &w.sign[j]);

	gather16(&w.Q, w.T, w.digit[51]);       /* the top digit is 0..2 (k < 2^256) */
	for (int j = 50; j >= 0; j--) {
		/* the entry first: its reads and masks overlap the doublings' chain of products */
		gather16(&w.A, w.T, w.digit[j]);
		fe_neg(w.negy, w.A.Y);
		fe_select(w.A.Y, w.sign[j], w.negy, w.A.Y);
		for (int i = 0; i < 5; i++)
			p_dbl(f, &w.Q, &w.Q);
		if (j > 0) {
			(void)p_add(f, &w.Q, &w.Q, &w.A);
		} else {
			/* the last addition may be Q + Q (k = n - 2|d_0|): select 2Q then */
			p_dbl(f, &w.D, &w.Q);
			uint64_t same = p_add(f, &w.Q, &w.Q, &w.A);
			p_select(&w.Q, same, &w.D, &w.Q);
		}
	}

	/* affine x = X / Z^2, out of the Montgomery domain */
	ok &= ~fe_is_zero(w.Q.Z);               /* never O for 0 < k < n; defensive */
	fe_inv_sqr(f, w.zi, w.Q.Z);
	f->mul(w.x, w.Q.X, w.zi);
	f->mul(w.x, w.x, ONE);
	for (int i = 0; i < 4; i++)
		w.x[i] &= ok;
	fe_to_be(w.out, w.x);
	memcpy(shared_x, w.out, 32);
	/* 0 or LF_P256_ESCALAR; the scalar check also covers the (impossible) O result */
	rc = (int)((int64_t)LF_P256_ESCALAR & (int64_t)~ok);
	lf_wipe(&w, sizeof w);
	return rc;
}

/* Overwrite the stack below the caller's frame, where ecdh_core and the kernels ran. */
static NOINLINE void burn_stack(void)
{
	unsigned char buf[8192];
	lf_wipe(buf, sizeof buf);
}

int lf_p256_ecdh_with(uint8_t shared_x[32], const uint8_t scalar[32],
                      const uint8_t peer_point[65], lf_p256_mul_mont_fn mul,
                      lf_p256_sqr_mont_fn sqr)
{
	struct fops f = { mul, sqr };
	int rc = ecdh_core(&f, shared_x, scalar, peer_point);
	burn_stack();
	return rc;
}

int lf_p256_ecdh(uint8_t shared_x[32], const uint8_t scalar[32], const uint8_t peer_point[65])
{
	return lf_p256_ecdh_with(shared_x, scalar, peer_point, LF_CALL(p256_mul_mont),
	                         LF_CALL(p256_sqr_mont));
}
