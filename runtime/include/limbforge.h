/*
 * limbforge.h -- public API of limbforge: hand-scheduled big-number kernels with CPU dispatch.
 *
 * Conventions:
 *   - "BE-words": uint32_t array, index 0 is the most significant word, as the magnitude of
 *     java.math.BigInteger.  Words are unsigned.
 *   - "limbs": uint64_t array, index 0 is the least significant limb (GMP mpn order).
 *   - Lengths are counts of words or limbs, never bytes.  A length of 0 is allowed wherever it
 *     is documented; a pointer may then be NULL.
 *   - Nothing here allocates, locks or fails at run time; preconditions that are violated give
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
 * KARATSUBA_SQUARE_THRESHOLD = 128). */
LF_API void lf_bi_square_to_len(const uint32_t *x, size_t len, uint32_t *z);

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

#ifdef __cplusplus
}
#endif
#endif /* LIMBFORGE_H */
