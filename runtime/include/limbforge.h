/*
 * limbforge.h -- public API of limbforge: hand-scheduled big-number kernels with CPU dispatch.
 *
 * Conventions:
 *   - "BE-words": uint32_t array, index 0 is the most significant word, as the magnitude of
 *     java.math.BigInteger.  Words are unsigned.
 *   - "limbs": uint64_t array, index 0 is the least significant limb (GMP mpn order).
 *   - Lengths are counts of words or limbs, never bytes.  A length of 0 is allowed wherever it
 *     is documented; a pointer may then be NULL.
 *   - Nothing here allocates, locks or fails at run time (except lf_bi_mod_pow*, which
 *     allocate their tables and report failure); preconditions that are violated give
 *     undefined results (documented per function), exactly as the JDK stubs and GMP mpn do.
 *   - Every function is thread-safe; kernel selection happens once per kernel, lazily, and is
 *     redone only by lf_cpu_mask(), lf_schedule_force() and lf_impl_force().
 */
#ifndef LIMBFORGE_H
#define LIMBFORGE_H

#include <stddef.h>
#include <stdint.h>

#include "limbforge_prefix.h"   /* -DLF_PREFIX=myproj_ renames every symbol (generated/include) */

#ifdef __cplusplus
extern "C" {
#endif

/* Exported API.  ELF/Mach-O: default visibility (everything else is hidden).  Windows:
 * -DLF_BUILD_DLL when building limbforge as a DLL (dllexport), -DLF_USE_DLL in its users
 * (dllimport); neither for a static build. */
#ifndef LF_API
#  if defined(_WIN32) || defined(__CYGWIN__)
#    if defined(LF_BUILD_DLL)
#      define LF_API __declspec(dllexport)
#    elif defined(LF_USE_DLL)
#      define LF_API __declspec(dllimport)
#    else
#      define LF_API
#    endif
#  elif defined(__GNUC__)
#    define LF_API __attribute__((visibility("default")))
#  else
#    define LF_API
#  endif
#endif

/* ---- CPU features ---------------------------------------------------------------------------
 * One 64-bit word; x86-64 features in bits 0-31, AArch64 features in bits 32-63.  A feature
 * counts only if the CPU has it *and* the OS enables its register state (XCR0 for AVX/AVX-512).
 * The quoted name is the token accepted by the LIMBFORGE_CPU environment variable: a comma
 * list applied left to right to the detected set, "-x" removing x, "x" or "+x" putting back
 * a detected x, "none" clearing everything (then only the portable `ref` kernels run), "all"
 * restoring the detected set; e.g. LIMBFORGE_CPU=-avx512ifma,-adx or LIMBFORGE_CPU=none.
 * Features that need another are dropped with it (no AVX2 without AVX, no AVX-512 extension
 * without AVX-512F).
 * The generator reads this list to name the features each generated kernel requires. */
#define LF_CPU_BMI1        (UINT64_C(1) << 0)   /* "bmi1"        x86-64 BMI1 (andn, tzcnt)      */
#define LF_CPU_BMI2        (UINT64_C(1) << 1)   /* "bmi2"        x86-64 BMI2 (mulx, rorx, shlx)  */
#define LF_CPU_ADX         (UINT64_C(1) << 2)   /* "adx"         x86-64 ADX (adcx, adox)         */
#define LF_CPU_AVX         (UINT64_C(1) << 3)   /* "avx"         AVX, YMM state enabled          */
#define LF_CPU_AVX2        (UINT64_C(1) << 4)   /* "avx2"        AVX2                            */
#define LF_CPU_FMA         (UINT64_C(1) << 5)   /* "fma"         FMA3                            */
#define LF_CPU_AVX512F     (UINT64_C(1) << 6)   /* "avx512f"     AVX-512 Foundation, ZMM state   */
#define LF_CPU_AVX512DQ    (UINT64_C(1) << 7)   /* "avx512dq"    AVX-512 DQ                      */
#define LF_CPU_AVX512BW    (UINT64_C(1) << 8)   /* "avx512bw"    AVX-512 BW                      */
#define LF_CPU_AVX512VL    (UINT64_C(1) << 9)   /* "avx512vl"    AVX-512 VL                      */
#define LF_CPU_AVX512IFMA  (UINT64_C(1) << 10)  /* "avx512ifma"  AVX-512 IFMA52                  */
#define LF_CPU_AVX512VBMI  (UINT64_C(1) << 11)  /* "avx512vbmi"  AVX-512 VBMI                    */
#define LF_CPU_AVX512VBMI2 (UINT64_C(1) << 12)  /* "avx512vbmi2" AVX-512 VBMI2                   */
#define LF_CPU_AVXIFMA     (UINT64_C(1) << 13)  /* "avxifma"     AVX-IFMA (VEX-encoded IFMA52)   */
#define LF_CPU_MOVBE       (UINT64_C(1) << 14)  /* "movbe"       MOVBE                           */
#define LF_CPU_ASIMD       (UINT64_C(1) << 32)  /* "asimd"       AArch64 Advanced SIMD (NEON)    */
#define LF_CPU_AES         (UINT64_C(1) << 33)  /* "aes"         AArch64 AES instructions        */
#define LF_CPU_PMULL       (UINT64_C(1) << 34)  /* "pmull"       AArch64 64x64 polynomial mult.  */
#define LF_CPU_SHA2        (UINT64_C(1) << 35)  /* "sha2"        AArch64 SHA-256                 */
#define LF_CPU_SHA3        (UINT64_C(1) << 36)  /* "sha3"        AArch64 SHA-3 (eor3, rax1)      */
#define LF_CPU_SVE         (UINT64_C(1) << 37)  /* "sve"         AArch64 SVE                     */
#define LF_CPU_SVE2        (UINT64_C(1) << 38)  /* "sve2"        AArch64 SVE2                    */
/* Not a CPU feature: set wherever limbforge has assembly kernels (x86-64, AArch64) and
 * required by every one of them, so LIMBFORGE_CPU=none or -asm selects the portable `ref`
 * kernels even on AArch64, where the base kernels need no optional feature. */
#define LF_CPU_ASM         (UINT64_C(1) << 63)  /* "asm"         generated assembly kernels      */

/* ---- runtime and dispatch ------------------------------------------------------------------ */

/* Detected features, restricted by LIMBFORGE_CPU and by lf_cpu_mask(). */
LF_API uint64_t lf_cpu_features(void);

/* Restrict the usable features to `allowed` & detected (cumulative with earlier calls and with
 * LIMBFORGE_CPU; it never adds a feature).  Every kernel is re-resolved; an earlier
 * lf_impl_force() is dropped.  Intended for tests and experiments, not for hot paths. */
LF_API void lf_cpu_mask(uint64_t allowed);

/* Name of the variant in use for `kernel` (e.g. "mpn_addmul_1" -> "adx", "ref"); NULL if the
 * kernel name is unknown.  Kernel names are the API names without the "lf_" prefix. */
LF_API const char *lf_impl(const char *kernel);

/* Store up to `max` names of the variants runnable here into `names` and return how many are
 * runnable (which may exceed `max`); 0 for an unknown kernel.  Order: the schedule in use's
 * choices best first, then the builds of the other schedules ("adx@neoverse-n1"), "ref"
 * last.  Each name can be given to lf_impl_force(). */
LF_API size_t lf_impl_list(const char *kernel, const char **names, size_t max);

/* Use `variant` for `kernel` from now on: 0 on success, -1 if the kernel or variant is unknown
 * or not runnable with the allowed features.  variant == NULL restores the dispatcher's choice. */
LF_API int lf_impl_force(const char *kernel, const char *variant);

/* ---- schedules ------------------------------------------------------------------------------
 * Each variant may be built under several schedules (gen/schedules/<arch>/<cpu>.toml: unroll,
 * load-ahead, thresholds, variant order, tuned per CPU by `make tune`).  At first use the CPU
 * is identified (x86-64: CPUID vendor, family, model; AArch64: MIDR_EL1) and the schedule made
 * for it is used, "generic" otherwise.  The environment variable LIMBFORGE_SCHEDULE=<name>
 * overrides the choice ("auto": detect); lf_impl() then names builds of a CPU schedule
 * "<variant>@<schedule>", e.g. "adx@sapphirerapids". */

/* Name of the schedule in use ("generic", "sapphirerapids", "neoverse-n1", ...). */
LF_API const char *lf_schedule(void);

/* Store up to `max` names of this architecture's schedules (generic first) into `names`
 * and return how many there are. */
LF_API size_t lf_schedule_list(const char **names, size_t max);

/* Use schedule `name` from now on (NULL: back to LIMBFORGE_SCHEDULE / detection): 0 on
 * success, -1 if there is no such schedule here.  Every kernel is re-resolved; an earlier
 * lf_impl_force() is dropped.  For tests and experiments, not for hot paths. */
LF_API int lf_schedule_force(const char *name);

/* ---- java.math.BigInteger kernels (exact JDK semantics) -----------------------------------
 * All operands are BE-words.  These are the bodies of BigInteger.implMulAdd and
 * implSquareToLen with the argument checks of their Java wrappers stated as preconditions. */

/* implMulAdd: let top = out_len - offset - 1 and O be the len-word window out[top-len+1..top]
 * (BE-words), I = in[0..len).  Computes O + I*k, writes the low len words back into the window
 * and returns the carry-out word.  The window ends `offset` words before the end of `out`
 * (offset 0: it ends at out[out_len-1]).
 * Preconditions: offset < out_len, len <= out_len - offset, in has len words.  len == 0
 * returns 0 and touches nothing; out_len and offset are then not looked at and out and in may
 * be NULL.  `in` and the window may be the same words (in == &out[top-len+1]); any other
 * overlap is undefined.  Only the low 32 bits of k are used. */
LF_API uint32_t lf_bi_mul_add(uint32_t *out, size_t out_len, const uint32_t *in, size_t offset,
                              size_t len, uint32_t k);

/* implSquareToLen: z[0..2*len) = x[0..len)^2 (BE-words).  z need not be initialised and must
 * not overlap x.  len == 0 touches nothing (x and z may then be NULL).  Correct for every len;
 * the kernels are tuned for 1..127 words (BigInteger calls it below
 * KARATSUBA_SQUARE_THRESHOLD = 128); longer squares (from 24 words on x86-64, from 96
 * elsewhere) go through lf_mpn_sqr on little-endian limb copies (a heap copy above 341
 * words; if malloc fails, the word kernel), except with AVX-512 IFMA up to 512 words, which
 * the word kernel squares in radix 2^52 on the words themselves. */
LF_API void lf_bi_square_to_len(const uint32_t *x, size_t len, uint32_t *z);

/* implMultiplyToLen: z[0..xlen+ylen) = x[0..xlen) * y[0..ylen) (BE-words).  z need not be
 * initialised and must not overlap x or y; x and y may be the same array.  Either length 0:
 * z[0..xlen+ylen) is set to zero (x, y may then be NULL when their length is 0).  From 16
 * words of the shorter operand on x86-64 (80 elsewhere) the product goes through lf_mpn_mul
 * on little-endian limb copies (on the heap when they pass 512 limbs with the product; if
 * malloc fails, the word kernel), unless the dispatched word kernel does better itself: its
 * straight-line code (AMD Zen 5's build: both operands up to 16 words), or with AVX-512 IFMA
 * both operands up to 256 words in radix 2^52 on the words themselves. */
LF_API void lf_bi_multiply_to_len(const uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen,
                                  uint32_t *z);

/* implMontgomeryMultiply: product = a * b * 2^(-32 len) mod n (BE-words, len words each).
 * Preconditions (HotSpot's stubs): len even, 2 <= len <= 512; n odd; inv = -n^-1 mod 2^64
 * (from the low 64 bits of n, n[len-2..len-1]); a < n and b < n.  The result is then fully
 * reduced (< n; the HotSpot stubs only guarantee a congruent value below 2^(32 len)).  a or b
 * >= n (below 2^(32 len)) gives a congruent result below 2^(32 len).  len odd, 0 or above 512:
 * nothing is read or written.  product may be the same array as a and/or b (the JDK passes
 * its own arrays); any other overlap is undefined.  Constant time in a, b and n. */
LF_API void lf_bi_montgomery_multiply(const uint32_t *a, const uint32_t *b, const uint32_t *n,
                                      size_t len, uint64_t inv, uint32_t *product);
/* implMontgomerySquare: product = a^2 * 2^(-32 len) mod n; as lf_bi_montgomery_multiply with
 * b = a. */
LF_API void lf_bi_montgomery_square(const uint32_t *a, const uint32_t *n, size_t len,
                                    uint64_t inv, uint32_t *product);

/* BigInteger.modPow for an odd modulus (oddModPow): result = base^exp mod mod, all BE-words,
 * result mod_len words, fully reduced.  base and exp may have any length (0: the value 0) and
 * leading zero words; base >= mod is reduced first.  exp = 0 gives 1 mod mod.  Returns 0, or
 * LF_EINVAL (mod even or zero, nothing written) or LF_ENOMEM (the window table could not be
 * allocated, nothing written).  result may overlap the inputs (it is written last).
 *   lf_bi_mod_pow: sliding window over odd powers (window size from the exponent length, as
 *     BigInteger's bnExpModThreshTable): running time depends on the exponent's bits.
 *   lf_bi_mod_pow_consttime: fixed window, every table entry read for every window: no branch
 *     or address depends on base or exp (only on the lengths and the modulus), as OpenSSL's
 *     BN_mod_exp_mont_consttime; use it for secret exponents. */
#define LF_EINVAL (-1)
#define LF_ENOMEM (-2)
LF_API int lf_bi_mod_pow(uint32_t *result, const uint32_t *base, size_t base_len,
                         const uint32_t *exp, size_t exp_len, const uint32_t *mod, size_t mod_len);
LF_API int lf_bi_mod_pow_consttime(uint32_t *result, const uint32_t *base, size_t base_len,
                                   const uint32_t *exp, size_t exp_len, const uint32_t *mod,
                                   size_t mod_len);

/* ---- native 64-bit limbs, GMP mpn semantics -------------------------------------------------
 * Limbs little-endian (index 0 least significant). */

/* {rp,n} += {ap,n} * b; returns the carry-out limb.  rp == ap (in place) is allowed; other
 * overlaps are undefined.  n == 0 returns 0 and touches nothing (rp, ap may be NULL). */
LF_API uint64_t lf_mpn_addmul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);

/* {rp,n} = {ap,n} * b; returns the high limb.  rp == ap allowed; other overlaps are
 * undefined.  n == 0 returns 0 and touches nothing (rp, ap may be NULL). */
LF_API uint64_t lf_mpn_mul_1(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);

/* {rp,2n} = {ap,n}^2.  {rp,2n} must not overlap {ap,n}.  n == 0 touches nothing (rp, ap may
 * be NULL). */
LF_API void lf_mpn_sqr(uint64_t *rp, const uint64_t *ap, size_t n);

/* {rp,an+bn} = {ap,an} * {bp,bn}, any an and bn (GMP's mpn_mul needs an >= bn >= 1; here
 * the longer operand is chosen, and a length of 0 zeroes {rp,an+bn}).  rp must not overlap
 * ap or bp; ap == bp is allowed.  Karatsuba (runtime/karatsuba.c) from 40 limbs of the shorter
 * operand (129 over the IFMA kernel), and over every other kernel Toom-3 for balanced
 * operands from 250 limbs; kernel mpn_mul for the base cases: x86-64 "ifma" (AVX-512 IFMA,
 * radix 2^52; 12..128 limbs, other shapes go to "adx"), "adx" (MULX/ADCX/ADOX rows), AArch64
 * "a64", portable "ref".  lf_mpn_sqr likewise from 48 limbs (257 over its "ifma" kernel),
 * Toom-3 from 500. */
LF_API void lf_mpn_mul(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn);

/* Montgomery multiplication: {rp,n} = a * b * R^-1 mod N with R = 2^(64 n), N = {np,n} odd,
 * n0inv = -N^-1 mod 2^64.  a, b < N give a fully reduced result (< N), and so does one of
 * them below N with the other in [N, R) (a b + m N < 2 N R before the one conditional
 * subtraction; lf_bi_mod_pow leaves Montgomery form that way, by x * 1); a and b both >= N
 * (below R) a congruent one below R.  rp must not overlap ap, bp or np (it is the
 * accumulator); ap == bp is allowed.  n == 0 touches nothing.  Constant time in a, b and N
 * (lengths only). */
LF_API void lf_mpn_montmul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp,
                           const uint64_t *np, uint64_t n0inv, size_t n);

/* ---- P-256 field, saturated limbs (OpenSSL ecp_nistz256 layout) -----------------------------
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (NIST P-256).  Elements are 4 limbs of 64 bits
 * (uint64_t[4], index 0 least significant, as OpenSSL's BN_ULONG[P256_LIMBS]) in the Montgomery
 * domain with R = 2^256: x is held as x R mod p (to enter: mul_mont by R^2 mod p; to leave:
 * mul_mont by 1).  Inputs must be fully reduced (< p); outputs then are (< p).  Inputs in
 * [p, 2^256), outside the contract, give a value below 2^256 congruent to the right one mod p,
 * not necessarily below p, never a fault.  Constant time: straight-line code, no branch or
 * address depends on the values.  Kernels: p256_mul_mont, p256_sqr_mont (x86-64 "adx": MULX with
 * ADD/ADC chains, and ADCX/ADOX in the squaring -- p256_mul_mont needs BMI2 only, despite the
 * name -- and the reduction specialised to p of OpenSSL's __ecp_nistz256_mul_montx /
 * sqr_montx; AArch64 "a64", as ecp_nistz256-armv8; portable "ref": CIOS). */

/* r = a * b * 2^-256 mod p.  r may alias a and/or b (the inputs are read first); a == b
 * squares. */
LF_API void lf_p256_mul_mont(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);

/* r = a^2 * 2^-256 mod p (the cross products computed once).  r may alias a. */
LF_API void lf_p256_sqr_mont(uint64_t r[4], const uint64_t a[4]);

/* ---- P-256 ECDH (runtime/p256_ecdh.c, on the two kernels above) ---------------------------
 * shared_x = x(k P): the affine x coordinate of k times the peer's point P, the ECDH primitive
 * of SEC 1 v2 3.3.1 / NIST SP 800-56A rev. 3 5.7.1.2 (no KDF).  scalar: the private key k,
 * 32 bytes big-endian, 0 < k < n (n the group order).  peer_point: 65 bytes, the uncompressed
 * SEC 1 encoding 0x04 || X || Y, coordinates 32 bytes big-endian each.  shared_x: 32 bytes
 * big-endian.  Returns 0, or one of the LF_P256_E* codes below; on any error shared_x is set
 * to 32 zero bytes (a wrong secret is never written).  The point is validated first (it is
 * public): prefix, X < p and Y < p, not the all-zero pair, y^2 = x^3 - 3x + b (cofactor 1, so a
 * point on the curve has order n and needs no n P check); then the scalar, in constant time.
 * shared_x may overlap the inputs.  Constant time in the scalar (no branch or address depends
 * on it, its range check included; fixed window of 5 bits with Booth digits, masked table
 * reads); secrets are wiped from the stack.  Field kernels: p256_mul_mont and p256_sqr_mont,
 * as dispatched (lf_impl_force applies). */
#define LF_P256_EENCODING (-16)   /* peer_point[0] != 0x04 (compressed, hybrid, 0x00, ...) */
#define LF_P256_ERANGE (-17)      /* X >= p or Y >= p */
#define LF_P256_EINFINITY (-18)   /* X = Y = 0: the point at infinity has no such encoding */
#define LF_P256_ECURVE (-19)      /* (X, Y) is not on the curve */
#define LF_P256_ESCALAR (-20)     /* scalar 0 or >= n */
LF_API int lf_p256_ecdh(uint8_t shared_x[32], const uint8_t scalar[32],
                        const uint8_t peer_point[65]);
/* ---- X25519 and X448, RFC 7748 (runtime/xdh.c, on the generated field kernels) ------------
 * out = X(k, u): the Montgomery-ladder scalar multiplication of RFC 7748 §5.  scalar: 32 / 56
 * bytes, little-endian, clamped as the RFC's decodeScalar25519 / decodeScalar448 (the caller's
 * bytes are not modified); point: the u coordinate, 32 / 56 bytes little-endian (X25519 ignores
 * bit 255; values >= p are accepted, as the RFC requires); out: 32 / 56 bytes, canonical
 * little-endian.  Returns 0, or LF_XDH_EZERO when out is all zeros (a point of small order,
 * RFC 7748 §6.1 -- out is still written, all zeros).  out may overlap the inputs.  Constant
 * time in the scalar and the point; secrets are wiped from the stack.  Fields: Curve25519 in
 * 5 x 51-bit limbs and Curve448 in 9 x 50 for the ladder, 8 x 56 for the inversion (10 x 26 and
 * 16 x 28 without __int128). */
#define LF_XDH_EZERO (-24)        /* the shared secret is all zeros */
LF_API int lf_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32]);
LF_API int lf_x448(uint8_t out[56], const uint8_t scalar[56], const uint8_t point[56]);

/* ---- P-256 field, the JDK's MontgomeryIntegerPolynomialP256 ---------------------------------
 * Elements are 5 limbs of 52 bits (int64_t[5], limb i of weight 2^(52 i), the JDK's long[5])
 * in the Montgomery domain with R = 2^260: x is held as x R mod p (to enter: mont_mult by
 * h = 2^520 mod p; to leave: mont_mult by 1).  Inputs: limbs in [0, 2^52), value < p (the JDK
 * reduces before every multiplication); outputs then have limbs in [0, 2^52) and value < p.
 * Other inputs give an unspecified result, never a fault.  Constant time in the values.
 * Kernels p256_mont_mult, p256_mont_square, p256_mont_mult_x8. */

/* r = a * b * 2^-260 mod p.  r may alias a and/or b. */
LF_API void lf_p256_mont_mult(int64_t r[5], const int64_t a[5], const int64_t b[5]);

/* r = a^2 * 2^-260 mod p.  r may alias a. */
LF_API void lf_p256_mont_square(int64_t r[5], const int64_t a[5]);

/* Eight independent products for throughput (kernel p256_mont_mult_x8): r_k = a_k * b_k *
 * 2^-260 mod p for k = 0..7, where element k is limbs [5k, 5k + 5) of each array (eight
 * long[5] back to back, element-major); each r_k equals lf_p256_mont_mult(a_k, b_k).  Same
 * input conditions per element.  r may alias a and/or b (the whole 40 limbs; no partial
 * overlap). */
LF_API void lf_p256_mont_mult_x8(int64_t r[40], const int64_t a[40], const int64_t b[40]);

/* ---- the JDK's IntegerPolynomial.conditionalAssign --------------------------------------------
 * a = set ? b : a over n 64-bit limbs (int64_t, the JDK's long[] limbs; only copied), in
 * constant time: mask = -set, a_i ^= (a_i ^ b_i) & mask for every i, so every limb of a and b
 * is read and every limb of a written whatever set is, and no branch or address depends on set
 * or on the limbs (n is public and may decide the code path).  set must be 0 or 1 (another
 * value gives an undefined mixture of a and b, never a fault; only its low 32 bits are read).
 * b is not modified.  n == 0 touches nothing (a, b may be NULL).  a == b is allowed (a stays);
 * other overlaps are undefined.  Fast for the JDK's lengths 5, 10, 14, 16 and 19; any n works.
 * Kernel conditional_assign: x86-64 "avx2" (ymm mask blend by XOR/AND/XOR), "sse2" (xmm),
 * both with short arrays (below the CPU schedule's gpr_below, e.g. 8 on AMD Zen 5) one limb
 * at a time in GPRs; AArch64 "a64" (csel), portable "ref" (masking behind a value barrier). */
LF_API void lf_conditional_assign(int set, int64_t *a, const int64_t *b, size_t n);

/* ---- Poly1305 (RFC 8439 section 2.5) --------------------------------------------------------
 * One-time authenticator: a 32-byte key (r = bytes 0..15 little-endian, clamped with
 * 0x0ffffffc0ffffffc0ffffffc0fffffff; s = bytes 16..31 little-endian) and a message of any
 * length give a 16-byte tag, ((sum of m_i r^(q-i+1)) mod 2^130-5 + s) mod 2^128, where m_i is
 * block i of 16 bytes (the last one possibly shorter) plus 2^(8 * its length).  Lengths are in
 * bytes.  A key must authenticate one message only (RFC 8439 section 2.5); nothing here checks
 * or rejects keys: the all-zero r or s of the RFC's test vectors are computed as given (the
 * JDK's checkWeakKey is the caller's business).  Constant time: no branch or memory address
 * depends on the key, the accumulator or the message bytes, only on lengths and addresses. */

/* Alignment of the state: 64 bytes, spelled for C11 and later, C++11 and later, GNU C/C++ of
 * any standard (gcc, clang) and MSVC. */
#ifndef LF_ALIGN64
#  if defined(__GNUC__)
#    define LF_ALIGN64 __attribute__((aligned(64)))
#  elif defined(_MSC_VER)
#    define LF_ALIGN64 __declspec(align(64))
#  elif defined(__cplusplus) && __cplusplus >= 201103L
#    define LF_ALIGN64 alignas(64)
#  elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#    define LF_ALIGN64 _Alignas(64)
#  else
#    error "limbforge.h: no way known to align lf_poly1305_state to 64 bytes with this compiler"
#  endif
#endif

/* Incremental Poly1305 state (1152 bytes).  A complete type so that it can live on the stack
 * or inside the caller's structures without allocation; the fields are private (their layout
 * may change between versions; only sizeof and the alignment are for the caller).  It is
 * declared 64-byte aligned, which automatic, static and member storage of this type are; a
 * state in plain malloc'ed memory (16-byte aligned) works the same, through the same kernels
 * (aligned_alloc(64, sizeof(lf_poly1305_state)) keeps the powers of r in whole cache lines);
 * less than 16-byte alignment is not supported.  A state may be copied with memcpy between init and
 * final; both copies then go on independently. */
typedef struct lf_poly1305_state lf_poly1305_state;
struct lf_poly1305_state {
	/* private.  ctx: the kernel context (gen/lfgen/kernels/poly1305_blocks.py): h in ctx[0..2],
	 * the clamped r in ctx[3..4], ctx[5] the layout of the powers of r kept in ctx[8..135] by
	 * vector kernels; s: the second key half; buf/buflen: the bytes of a partial block. */
	LF_ALIGN64 uint64_t ctx[136];
	uint64_t s[2];
	uint8_t buf[16];
	size_t buflen;
};

/* Start authenticating with the 32-byte `key` (read once; it may be discarded after the call
 * and may overlap nothing in *st).  Any earlier content of *st is overwritten; st != NULL. */
LF_API void lf_poly1305_init(lf_poly1305_state *st, const uint8_t key[32]);

/* Append `len` bytes of message.  Any split gives the same tag as one call with the whole
 * message: bytes are buffered up to a 16-byte block, and all whole blocks of one call go to
 * the kernel in one pass.  len == 0 does nothing (msg may then be NULL).  msg must not
 * overlap *st.  Calling it on a state that was not initialised (or after final, which wipes
 * the state) gives a meaningless tag, never a fault. */
LF_API void lf_poly1305_update(lf_poly1305_state *st, const uint8_t *msg, size_t len);

/* Finish: pad and process the buffered partial block, reduce the accumulator fully modulo
 * 2^130-5, add s modulo 2^128 and write the 16-byte tag (little-endian).  Then the whole
 * state, including the powers of r and the key halves, is wiped (set to zero); start again
 * with lf_poly1305_init.  tag may point anywhere except into *st. */
LF_API void lf_poly1305_final(lf_poly1305_state *st, uint8_t tag[16]);

/* One-shot: tag = Poly1305(key, msg[0..len)), i.e. init, update, final on a state on the
 * stack (wiped before returning).  len == 0 allowed (msg may then be NULL).  tag may overlap
 * msg and key (both are read before the tag is written), e.g. to write the tag over the first
 * 16 bytes of the message in place. */
LF_API void lf_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]);

/* The JDK's Poly1305 intrinsic, com.sun.crypto.provider.Poly1305.processMultipleBlocks:
 * for each of the len / 16 whole blocks of `in`, acc = (acc + block + 2^128) * r mod 2^130-5.
 * acc and r are IntegerPolynomial1305 limbs: value = sum limb_i 2^(26 i), i = 0..4.
 *   acc (in place): on entry non-negative limbs (the JDK keeps limbs 0-3 below 2^26 and limb 4
 *     a few bits above; any non-negative limbs are read exactly, as unsigned 64-bit).  On
 *     exit, when len >= 16, limbs 0-3 are exactly 26 bits (0 <= limb < 2^26) and limb 4 holds
 *     the rest, unmasked and small (< 5 * 2^24, just above 2^26); the value is congruent to the
 *     result modulo 2^130-5 but not necessarily below it (the JDK reduces lazily later).
 *   r (read only): the clamped key half in the same limbs, limbs 0-4 of 26 bits, value
 *     < 2^128.  Limbs are carried exactly; bits that a clamped r cannot have are cleared
 *     (r is used as (r mod 2^128) & 0x0ffffffc0ffffffc0ffffffc0fffffff).
 * len is in bytes: the JDK always passes a multiple of 16; any trailing len % 16 bytes are
 * ignored (not read).  len < 16 does nothing at all: acc keeps its exact limbs, and in, acc
 * and r are not accessed (in may then be NULL).  in may have any alignment and must not
 * overlap acc.  Negative limbs (outside the JDK's contract) are read as 2^64 + limb: a wrong value,
 * never a fault.  The temporary kernel context (powers of r included) is wiped. */
LF_API void lf_poly1305_jdk_blocks(const uint8_t *in, size_t len, int64_t acc[5],
                                   const int64_t r[5]);

#ifdef __cplusplus
}
#endif
#endif /* LIMBFORGE_H */
