"""mpn_montmul: {rp, n} = a * b * R^-1 mod N, R = 2^(64 n) (Montgomery multiplication, REDC).

With B = 2^64, N odd, n0inv = -N^-1 mod B and a, b < N, the coarsely integrated operand
scanning form (CIOS, Koc-Acar-Kaliski 1996) keeps an accumulator t of n limbs plus a top bit:

    t = 0
    for i = 0 .. n-1:
        t = t + a * b_i                           row of a, carry into the top limbs
        m = t_0 * n0inv mod B                     so that t + m N = 0 mod B
        t = (t + m * N) / B                       row of N, shifted down one limb as it is stored
    (t < 2N throughout)
    t >= N ? t - N : t                            one constant-time conditional subtraction

    t (in rp):  [ t0  t1  ...  t(n-1) ] top        top in {0, 1} between iterations
    a * b_i:    [ lo0 ........ lo(n-1)] cy         row i of a: t += a b_i
    m * N:      [ 0   ..............  ] cy         row i of N, limb 0 known to cancel:
    stored:     [ t1' ... t(n-1)'  t(n)' ]            only hi(m N_0) and (t0 != 0) are
                                                       needed; t_k lands in t_(k-1)

The final subtraction computes the borrow of t - N first (no store), then subtracts N & mask
with mask = -(top or no borrow): the same instructions and addresses for every value.

x86-64 "adx" up to small_max limbs (8): the same CIOS unrolled for that n, t_0 .. t_(n+1) in
registers instead of rp (rows MULX, ADCX lo_j into t_j, ADOX hi_j into t_(j+1), the carries
of both chains into t_n, t_(n+1); after the row of N t_0 = 0 and the register names move down
a limb, t_0's becoming the new t_(n+1)); then t - N by SUB/SBB and N & mask added back (the
masked limbs parked first, AND writing the flags). 1.24-1.67x the row form at 1..8 limbs
(paired, one process, 2026-11-30).

x86-64 "adx" squaring (ap == bp, sqr_min <= n <= SQR_MAX = 128; pointer equality and n are
public): T = a^2 by mpn_sqr's code (x86_sqr: each cross product once, doubled with the
squares) into a 2n-limb stack buffer, then REDC as GMP's mpn_redc_1: row i adds m_i N at T_i
(m_i = T_i n0inv) and parks its carry in T_i, which the row cancelled; the result is
T[n..2n) + T[0..n), then the same constant-time subtraction. n^2/2 + n^2 products instead of
2 n^2 (OpenSSL's bn_sqr8x_mont is the same split). Core cycles against OpenSSL 3.0.22's
BN_mod_mul_montgomery(a, a) (its sqr8x path), paired ratios, before -> after (2026-11-30,
`limbforge-bench --kernel mpn_montsqr --variant adx`): n = 16 0.83 -> 0.98, 32 0.84 -> 1.05,
64 0.84 -> 1.09, 128 0.88 -> 1.16; lf_bi_mod_pow_consttime on adx against
BN_mod_exp_mont_consttime with OpenSSL's IFMA code masked (OPENSSL_ia32cap=":~0x200000"),
1024 / 2048 / 4096 bits: 0.77 / 0.85 / 0.85 -> 0.88 / 0.98 / 1.05.

x86-64 "adx" grouped passes (OpenSSL's bn_sqrx8x_reduction; K = redc_rows, K divides n,
n <= SQR_MAX): REDC takes K rows of N per pass over T with a K-limb window of T in registers
(_redc_groups), so a product costs MULX, ADCX and ADOX and no load or store of T; and for
a != b from group_mul_min limbs T = a b is made the same way, K limbs of b per pass
(_mul_groups), where the CIOS rows loaded and stored a limb of the accumulator per product.
The window moves a limb up per row, the column it leaves is complete and stored:

    columns:     i0   i0+1 ...  i0+K-1 | i0+K ...
    row r:        +m_r N_0  ...          m_r N_(K-1)   (m_r = b_(i0+r) for the product)
    window after row r:   columns i0+r+1 .. i0+r+K  (the top one is new: 0 + hi + carries)

AMD Zen 5 (2026-12-02, `limbforge-bench --kernel mpn_montmul,mpn_montsqr --variant
adx@znver5 --sizes 16,24,32,48,64,128 --repeats 31`, core cycles, against OpenSSL 3.0's
BN_mod_mul_montgomery, paired): square at n = 16 / 32 / 64 limbs 741 / 2670 / 10193 ->
643 / 2290 / 8621 (0.86 / 0.87 / 0.89x -> 0.99 / 1.01 / 1.05x; 1.17x at 128), multiply
906 / 3280 / 13014 -> 797 / 2684 / 10052 (0.95 / 1.01 / 1.01x -> 1.05 / 1.24 / 1.31x;
1.41x at 128). K = 4 is no better than the rows; K = 8 needs 14 registers. About 1.2 cycles a
product in all, where one MULX beside two independent ADC takes 0.9-1.0 on this core (README
"What this core allows"); running the next group's triangle beside this group's blocks (its
window parked on the stack) gained nothing. The buffer's final subtraction (subtract_from)
writes d = t - N into rp by one SBB chain and then selects t or d limb by limb without a
carry chain (the in-place form's NEG/SBB/SBB borrow chain takes 3 cycles a limb), and the
grouped REDC needs no T[n .. 2n) + T[0 .. n) pass (T[0 .. n) is zero): 16 / 32 / 64 limbs
square 643 / 2290 / 8621 -> 613 / 2236 / 8393, multiply 797 / 2684 / 10052 -> 731 / 2632 /
9895 (OPENSSL_ia32cap=":~0x200000" limbforge-bench --kernel mpn_montmul,mpn_montsqr
--variant adx@znver5 --sizes 16,32,48,64 --repeats 11: 1.15 / 1.26 / 1.33x and 1.04 / 1.03 /
1.08x OpenSSL).

From group_sqr_min limbs (16) the square is made the same way (_sqr_groups, the split of
OpenSSL's bn_sqrx8x_internal): the cross products a_i a_j (i < j) by groups of K rows, each
group's triangle (row r from a_(i0+r) a_(i0+r+1) on) then its blocks, and x86_sqr's final
pass doubles them and adds the squares. AMD Zen 3 (2026-12-07, `limbforge-bench --kernel
mpn_montsqr --variant adx@znver3,adx@znver1 --baseline adx@znver1 --repeats 31` with a
throwaway znver1 schedule equal to znver3's but for group_sqr_min = 0, paired): 16 / 32 / 48
/ 64 / 96 / 128 limbs 0.99 / 1.05 / 1.04 / 1.05 / 1.02 / 1.02x the rows' square (0.93x ->
0.97x OpenSSL at 32 limbs in that run). A MULX, ADCX, ADOX row of 8 products runs at ~1.5
core cycles a product on that core (1.3 for the MULX alone, a loop of such rows timed by
rdtsc), so at 32 limbs the 1520 products of the square and its REDC take at least ~2300 of
the ~2700.

Where n = 4 mod 8, from alt_min limbs (12) to SQR_MAX, a b and a^2 both take these passes
with K = 4, a second copy of them (K = 8 stays where 8 divides n: K = 4 there was 1.04-1.12x
slower at 16..128 limbs on Zen 3). AMD Zen 3 (2026-12-07, the same method, the throwaway
znver1 schedule with alt_min = 0): a b at 12 / 20 / 28 / 36 / 44 / 60 / 100 limbs 1.12 /
1.04 / 1.05 / 1.04 / 1.04 / 1.04 / 1.01x the CIOS rows (0.90x -> 0.98x OpenSSL at 12 limbs),
a^2 1.27 / 1.12 / 1.13 / 1.12 / 1.11 / 1.07 / 1.03x the code before (CIOS at 12 limbs, from
16 mpn_sqr's rows and REDC rows; 0.88x -> 1.11x OpenSSL at 12).

The final subtractions (final_subtract, subtract_from) run their loops tail_unroll (4) limbs
per iteration, entered in the middle for n mod tail_unroll (_limb_loop: every decision
before the borrow chain starts, then only LEA and DEC, which keep CF); the buffer is zeroed
by 16-byte stores (_zero); and n > small_max costs one comparison before the chain of
small-n cases. A 16-limb square, instructions per call (valgrind --tool=callgrind, 1000
calls of adx@znver3): 2365 -> 2202, of which the final subtraction about 320 -> 230 and the
zeroing 93 -> 33 (OpenSSL 3.0's BN_mod_mul_montgomery(a, a) with its MULX/ADX code forced
on, OPENSSL_ia32cap=":0x80128": about 2250). AMD Zen 3 (2026-12-07, `limbforge-bench
--kernel mpn_montmul,mpn_montsqr --variant adx@znver3,adx@znver1 --baseline adx@znver1
--repeats 31` with a throwaway znver1 schedule equal to znver3's but for tail_unroll = 1,
paired): a b at 9 / 12 / 16 / 17 / 24 / 32 / 64 limbs 1.03 / 1.03 / 1.03 / 1.06 / 1.01 /
1.01 / 1.01x, a^2 1.01 / 1.02 / 1.02 / 1.00 / 1.00 / 1.01 / 1.00x; against OpenSSL
afterwards (101 rounds) a b 0.97x at 12 limbs, 1.10-1.41x elsewhere from 8 to 64, a^2 0.96 /
0.98x at 16 / 24 limbs, 1.04-1.21x elsewhere.

AArch64 "a64" -- product scanning (Comba), as HotSpot's MontgomeryMultiplyGenerator (Andrew
Haley, stubGenerator_aarch64.cpp): the result is built one column (limb weight B^i) at a time
in a three-limb accumulator t = t2:t1:t0, and m_i is found when column i is complete:

    columns i = 0 .. n-1      t += sum_(j<i) a_j b_(i-j) + m_j N_(i-j)      (i steps)
                              t += a_i b_0
                              m_i = t0 n0inv mod B                          -> rp[i]
                              t = (t + m_i N_0) / B: only hi(m_i N_0) is computed, the low
                                  limbs cancel with carry (t0 != 0): cmp t0, #1; adcs; adc
    columns i = n .. 2n-1     t += sum_(i-n<j<n) a_j b_(i-j) + m_j N_(i-j)  (2n-1-i steps)
                              rp[i-n] = t0; t = t / B
    top = t0 (0 or 1)         rp - N & mask as in the CIOS variant

    rp:  [ m0 m1 ... m(i-1) | m_i ]               first half: m_i stored at column i
         [ r0 ... r(i-n) | m(i-n+1) ... m(n-1) ]  second half: column i reads m_j, j > i-n,
                                                   only, so r(i-n) replaces m(i-n)
    column i:   a_0  a_1  ...  a_j  ->          (ascending pointers into ap and rp)
                b_i  ...  b_(i-j)   <-          (descending pointers into bp and np)

The inner loop is HotSpot's `step`: one step multiplies a_j b_(i-j) and m_j N_(i-j) while the
operands of step j+1 are loaded (one step ahead, never past an array: the last step of a
second-half column loads nothing) and earlier products are accumulated with adds/adcs/adc.
Schedule: `depth` is how many products are still unaccumulated when a step ends (0; 1 as
HotSpot, m N added in the next step; 2 with two product register sets), `unroll` steps make
one loop iteration, the step count mod unroll taken by entering the body in the middle
(HotSpot's unroll_2; the pending products are zero there), `addressing` is ldr post-index
per operand (HotSpot) or immediate offsets from pointers advanced once per iteration. The
llvm-mca regions montmul_lo / montmul_hi are the two column loops; their limbs= count is the
64x64-bit products of one iteration (2 unroll). llvm-mca's out-of-order models do not see
`depth` (the three orders are rotations of one another in a loop), only timing does.

Squaring (a64, ap == bp and n >= sqr_min; pointer equality and n are public): column i is

    t += 2 sum_(lo<=j<i-j) a_j a_(i-j)  [+ a_h^2  if i = 2h]  + sum_j m_j N_(i-j)

(lo = 0 in the first half, i-n+1 in the second; the sum over m N as in the multiply). One
squaring step takes a lower index j and makes three products: a_j a_(i-j) into a separate
half-column accumulator u = u2:u1:u0, and both m N products of the pair, m_j N_(i-j) and
m_(i-j) N_j, into t; after the column's steps t += 2u (adds with lsl #1, extr, adcs, adc) and,
for even i, the middle a_h^2 and m_h N_h once. So a column of 2k a b and m N products of the
multiply is k steps of three multiplies (mul+umulh each): 25% fewer multiplies, and 4.5 instead
of 6 accumulating adds per product pair. Steps per column: (i+1)/2 in the first half (the
partner of j = 0 is m_i N_0: rp[i] is zeroed when column i starts, so it adds 0 and the REDC
step supplies it), (n-s)/2 in column n-1+s. The step is pipelined as the multiply's: the six
operands of step j+1 are loaded (post-index or immediate offsets from six pointers, per
`addressing`; ascending a_j, m_j, N_j, descending a_(i-j), m_(i-j), N_(i-j)) while the
previous products are accumulated, and for depth >= 1 m_(i-j) N_j is added in the next step
(depth 2 squares as depth 1). The loads after a column's last step are those of j = i-j:
always inside the arrays, and for even i the middle's operands. m computation (umulh(m, N0)
only), the second half, the final subtraction: as in the multiply. ap, np, n and n0inv wait on
the stack during the squaring columns (the six pointers need their registers). llvm-mca
regions montsqr_lo / montsqr_hi; their limbs= is 4 per step: the products of the multiply one
squaring step replaces, so cycles per limb compare directly with montmul_lo/hi.

sqr_min, measured with llvm-mca-19 (Debian 19.1.7): the loops alone (bench/mca.py, cycles per
multiply product) square at 0.74-0.75 of the multiply on every model -- cortex-a72 1.917 vs
2.584, neoverse-n1 4.500 vs 6.000, neoverse-v1 1.047 vs 1.407, thunderx2t99 4.000 vs 5.375,
apple-m1 1.501 vs 2.001 -- but the squaring path has more work per column (six pointers set
up from stack copies, u zeroed and doubled, the middle products, a reload of n0inv and N_0)
and saves only (n^2)/2 products. Whole calls (bench/mca_trace.py --set sqr_min=1: the
executed trace of one call, 10 calls back to back), cycles per call, square / multiply:

    n              1     2     4     8    12    16    17    18    20    24    32    64
    cortex-a72   1.33  1.41  1.34  1.18  1.08  1.02  1.01  1.00  0.98  0.95  0.90  0.83
    neoverse-n1  1.85  1.26  1.09  0.93  0.87  0.83  0.83  0.82  0.81  0.80  0.79  0.77
    neoverse-v1  1.50  1.32  1.30  1.18  1.08  1.01  1.00  0.99  0.97  0.94  0.89  0.82
    thunderx2t99 1.42  1.44  1.34  1.16  1.06  1.00  0.99  0.98  0.96  0.93  0.89  0.82
    apple-m1     1.49  1.52  1.42  1.16  1.06  1.00  0.99  0.97  0.96  0.93  0.89  0.82

(neoverse-n1: 1.02 at n = 5, 0.98 at 6). Fitting c(n) = a n^2 + b n + e over n = 4..64:
a_sqr / a_mul = 0.74-0.75 on every model (the quarter of the multiplies), and the linear
term (the work per column, 2n-1 columns) is larger, b_sqr vs b_mul cycles: cortex-a72 52.9
vs 28.8, neoverse-n1 19.6 vs 6.2, neoverse-v1 29.2 vs 16.9, thunderx2t99 89.4 vs 44.9,
apple-m1 38.6 vs 24.3. The crossover (b_sqr - b_mul) / (a_mul - a_sqr) is then 18, 4.4, 17,
16, 14; measured: 18, 6, 17, 17 (16 a tie), 17 (16 a tie). neoverse-n1 (one multiplier, 3
cycles per mul/umulh) is multiply-bound, so its gain is large and early. Default 18 (no model
slower there); neoverse-n1's schedule takes 6. A 1024-bit modulus (n = 16) still multiplies
(except on neoverse-n1); 2048 bits (n = 32) square at about 0.89, 4096 bits at 0.82.
"""

from ..kernel import KernelSpec, Variant, Param, ADX_CHAINS
from .mpn_addmul_1 import PARAMS as X86_PARAMS
from . import x86_ifma_mont

SQR_MAX = 128       # limbs: the square's 2n-limb buffer is at most 2 KiB of stack

ADX_PARAMS = dict(X86_PARAMS, small_max=Param(
    8, (0, 4, 6, 8), "up to this many limbs straight-line code with the accumulator in "
    "registers (_small); above, the rows of x86_rows over the accumulator in rp",
    kind="size", sizes=(2, 4, 6, 8, 9)), sqr_min=Param(
    16, (0, 9, 12, 16, 20, 24, 32), "ap == bp and sqr_min <= n <= %d: a^2 by the squaring "
    "of mpn_sqr into a stack buffer, then REDC (_buffered); 0: squares multiply" % SQR_MAX,
    kind="size", sizes=(9, 12, 16, 20, 24, 32, 48)), redc_rows=Param(
    8, (1, 4, 8), "the buffer's REDC (of a^2; of a b from group_mul_min): rows of N per "
    "pass over T when K divides n (_redc_groups: the accumulator window in registers, T read "
    "and written once per K rows); 1: one row per pass (row_of_n)", kind="size",
    sizes=(16, 24, 32, 48, 64)),
    group_mul_min=Param(16, (0, 16, 24, 32, 48), "a != b, K = redc_rows > 1 dividing n and "
    "group_mul_min <= n <= %d: T = a b by K rows per pass (_mul_groups) into the square's "
    "buffer, then the same REDC; 0: CIOS for every a != b" % SQR_MAX, kind="size",
    sizes=(16, 24, 32, 48, 64)),
    group_sqr_min=Param(16, (0, 16, 24, 32, 48), "the buffer's square (sqr_min): where K = "
    "redc_rows > 1 divides n and n >= group_sqr_min, T = a^2 by K rows per pass "
    "(_sqr_groups); else, and for 0, mpn_sqr's rows (x86_sqr.square)", kind="size",
    sizes=(16, 24, 32, 48, 64)),
    tail_unroll=Param(4, (1, 2, 4, 8), "the final subtraction's loops (the borrow of t - N, "
    "then t - N bit, or d = t - N then the selection): limbs per iteration, the loop entered "
    "in the middle for n mod tail_unroll (_limb_loop)", kind="size", sizes=(9, 16, 32, 64)),
    alt_min=Param(12, (0, 12, 20, 28, 36), "redc_rows = 8, n = 4 mod 8 and alt_min <= n <= %d: "
    "a b and a^2 by the grouped passes with K = 4 (_sqr_groups / _mul_groups, then "
    "_redc_groups), whatever sqr_min and group_mul_min say; 0: never" % SQR_MAX, kind="size",
    sizes=(12, 20, 28, 36, 44)))

SPEC = KernelSpec(
    name="mpn_montmul",
    operation="{rp,n} = {ap,n} * {bp,n} * 2^(-64 n) mod {np,n} (Montgomery multiplication)",
    args=[("rp", "uint64_t *"), ("ap", "const uint64_t *"), ("bp", "const uint64_t *"),
          ("np", "const uint64_t *"), ("n0inv", "uint64_t"), ("n", "size_t")],
    result=None,
    shapes="rp, ap, bp, np: n limbs of 64 bits, little-endian limb order (index 0 least\n"
           "significant). n0inv: one limb.",
    units="lengths in limbs; R = 2^(64 n).",
    preconditions="N = {np,n} odd, n0inv = -N^-1 mod 2^64, {ap,n} < N and {bp,n} < N: then\n"
                  "{rp,n} = a b R^-1 mod N, fully reduced (< N). So it is with one input < N and\n"
                  "the other in [N, R) (a b + m N < 2 N R before the one conditional subtraction).\n"
                  "Both inputs >= N (but < R) give a congruent result below R, not necessarily\n"
                  "below N. A wrong n0inv or an even N gives a meaningless result, never a\n"
                  "fault. {rp,n} must not overlap {ap,n}, {bp,n} or {np,n} (rp is the\n"
                  "accumulator; lf_bi_montgomery_* copy the JDK's arrays, so product == a is\n"
                  "fine there); ap == bp (squaring) is allowed.\n"
                  "n == 0 touches no memory. Constant time: no branch or address depends on a, b or N.",
    source="Koc, Acar, Kaliski, 'Analyzing and comparing Montgomery multiplication\n"
           "algorithms' (IEEE Micro 1996), CIOS; OpenSSL bn_mul_mont / GMP mpn_redc_1;\n"
           "BigInteger.implMontgomeryMultiply (HotSpot SharedRuntime::montgomery_multiply;\n"
           "AArch64: MontgomeryMultiplyGenerator in stubGenerator_aarch64.cpp, A. Haley).",
    tune_sizes=(8, 16, 32, 48, 64),
)


def _limb_loop(f, name, n, ptrs, body, U, start=None):
    """for limb i = 0 .. n-1 (n >= 1, a register or slot, public): body(k) over the arrays at
    the registers ptrs, limb i at [p + 8 k], U limbs per iteration (a power of two). The
    loop is entered in the middle for n mod U = r != 0 (Duff's device: the pointers moved
    back U - r limbs, the first iteration begun at slot U - r), so every decision is taken
    before start() (e.g. CLC) and a carry chain in body runs through the loop: its control
    is LEA and DEC, which keep CF. Registers ptrs are clobbered (past the arrays at the end)."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, ADD, SHR, AND, CMP, LEA, \
        DEC, JE, JZ, JNZ, JMP
    assert U & (U - 1) == 0
    cnt = G()
    MOV(cnt, n)
    slots = [f.new_label("%s_%d" % (name, k)) for k in range(U)]
    if U > 1:
        ADD(cnt, U - 1)
        SHR(cnt, U.bit_length() - 1)            # ceil(n / U) iterations
        r, entries = G(), [f.new_label("%s_in%d" % (name, j)) for j in range(U)]
        MOV(r, n)
        AND(r, U - 1)
        JZ(entries[0])
        for k in range(1, U - 1):
            CMP(r, k)
            JE(entries[U - k])
        for j in range(1, U):                   # (n mod U = U - 1 falls into entries[1])
            f.bind(entries[j])
            for p in ptrs:
                LEA(p, [p - 8 * j])
            if start:
                start()
            JMP(slots[j])
        f.bind(entries[0])
    if start:
        start()
    for k in range(U):
        f.bind(slots[k])
        body(k)
    for p in ptrs:
        LEA(p, [p + 8 * U])
    DEC(cnt)
    JNZ(slots[0])


def _keep(f, name, x, t, np, n, top, U, rp=None):
    """top = -1 if t + top R < N (keep t), else 0 (top in {0, 1}): the borrow of t - N by one
    SBB chain through _limb_loop, the difference stored at rp if rp is given. x is scratch."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, SBB, SAR, CLC
    o, a = G(), G()
    MOV(o, t)
    MOV(a, np)
    ptrs = [o, a]
    if rp is not None:
        r = G()
        MOV(r, rp)
        ptrs.append(r)

    def body(k):
        MOV(x, [o + 8 * k])
        SBB(x, [a + 8 * k])
        if rp is not None:
            MOV([r + 8 * k], x)
    _limb_loop(f, name, n, ptrs, body, U, start=CLC)
    SBB(top, 0)                                     # 1, 0: t - N; -1: keep t
    SAR(top, 63)


def final_subtract(f, rp, t, np, n, top, U):
    """{rp,n} = t + top R minus N if that is >= N, else t (top in {0, 1}; clobbered), in
    constant time: the borrow of t - N first (_keep), then rp = t - N bit, where
    bit = 1 - keep is 1 or 0 and N bit is made by MULX (N_i times bit), which leaves the
    flags alone, so the subtraction is one SBB chain (an AND would clear CF: a borrow kept
    in a register by NEG/SBB/SBB made a chain of 3 cycles a limb). Both loops take U limbs
    per iteration (_limb_loop). rp may be t. np and n may be memory; rdx is clobbered. AMD
    Zen 5 (2026-12-02, the CIOS path, against the NEG/SBB/SBB form in one session): 20 limbs
    1318 -> 1283 core cycles, 65 limbs 13312 -> 13089, 9..15 limbs within 1%."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, SBB, MULX, CLC, LEA, rdx
    x, y, hi = G(), G(), G()
    _keep(f, "borrow", x, t, np, n, top, U)
    LEA(rdx, [top + 1])                             # bit: 1 subtract, 0 keep
    o, a = G(), G()
    MOV(o, t)
    MOV(a, np)
    ptrs = [o, a]
    if rp is t:
        r = o
    else:
        r = G()
        MOV(r, rp)
        ptrs.append(r)

    def body(k):
        MULX(hi, x, [a + 8 * k])                    # N_i bit (MULX keeps the flags)
        MOV(y, [o + 8 * k])
        SBB(y, x)
        MOV([r + 8 * k], y)
    _limb_loop(f, "subtract", n, ptrs, body, U, start=CLC)


def subtract_from(f, rp, t, np, n, top, U):
    """{rp,n} = t + top R minus N if that is >= N, else t (top in {0, 1}; clobbered), for a
    t that is not rp (the buffer of _buffered), which is zeroed behind: d = t - N by one
    SBB chain into rp, the borrow and top make keep = -(t < N), then rp = d ^ ((d ^ t) &
    keep) limb by limb, no carry chain; both loops U limbs per iteration (_limb_loop). The
    same instructions and addresses for every value. t, np and n may be memory; rp a
    register or memory."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, XOR, AND
    x, y = G(), G()
    _keep(f, "subtract_d", x, t, np, n, top, U, rp)
    zero, o, r = G(), G(), G()
    XOR(zero.as_dword, zero.as_dword)
    MOV(o, t)
    MOV(r, rp)

    def body(k):
        MOV(x, [r + 8 * k])
        MOV(y, [o + 8 * k])
        XOR(y, x)
        AND(y, top)
        XOR(x, y)
        MOV([r + 8 * k], x)
        MOV([o + 8 * k], zero)
    _limb_loop(f, "subtract_select", n, [o, r], body, U)


def row_of_n(f, p, t, out, s_n0inv, s_np, s_n, o, a, ln, cy, region=None):
    """t (+)= m N with m = t_0 n0inv (the CIOS step and the REDC row): limb 0 of t + m N is
    0 mod B, so only its carry is made, hi(m N_0) + (t_0 != 0), into cy; then the addmul_1
    row of N_1 .. N_(n-1) over t_1 .. t_(n-1) through `out` (Digits, or Shifted: stored a
    limb lower), its carry-out in cy."""
    from peachpy.x86_64 import GeneralPurposeRegister64, MOV, IMUL, MULX, ADD, ADC, LEA, DEC, rdx
    from . import x86_rows
    from .x86_rows import Digits
    MOV(rdx, [t])
    IMUL(rdx, s_n0inv)
    lo0 = GeneralPurposeRegister64()
    MOV(a, s_np)
    MULX(cy, lo0, [a])
    ADD(lo0, [t])
    ADC(cy, 0)
    LEA(o, [t + 8])
    LEA(a, [a + 8])
    MOV(ln, s_n)
    DEC(ln)
    x86_rows.row(f, out(o), Digits(a), ln, "addmul", "adx", p.unroll, p.ahead, cy,
                 region=region)


def build_adx(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, XOR, ADD, ADC, CMP, LEA, TEST,
                                JZ, JE, JNZ, JNE, JBE, JA, JMP, AND, rdx)
    from ..x86 import function as x86
    from . import x86_rows
    from .x86_rows import Digits

    class Shifted(Digits):
        """The accumulator as read and written by the row of N: digit k is read at t_k and
        stored one limb down, at t_(k-1)."""
        def store(self, k, reg):
            MOV([self.base + 8 * k - 8], reg)

    f = x86.Function(symbol, SPEC.args, SPEC.result)
    with f:
        rp, ap, bp, np, n0inv, n = f.load_args()
        TEST(n, n)
        JZ(f.exit_label)
        # parked while the rows need every register
        slots = f.red_zone_slots(6 + max(p.small_max, 5))
        s_n0inv, s_n, s_end, s_ap, s_np, s_top2 = slots[:6]
        MOV(s_n0inv, n0inv)
        MOV(s_n, n)
        MOV(s_ap, ap)
        MOV(s_np, np)
        small = {k: f.new_label("small_%d" % k) for k in range(1, p.small_max + 1)}
        if small:
            large = f.new_label("large")
            CMP(n, p.small_max)
            JA(large)
            for k in small:
                CMP(n, k)
                JE(small[k])
            f.bind(large)
        # pointer equality and n are public: these branches depend on no value
        square = f.new_label("square") if p.sqr_min else None
        K = p.redc_rows
        alt = None
        if K == 8 and p.alt_min:
            # n = 4 mod 8: the grouped passes with K = 4, for a b and a^2 alike
            alt = (f.new_label("square_alt"), f.new_label("product_alt"))
            primary = f.new_label("primary")
            x = GeneralPurposeRegister64()
            CMP(n, max(p.alt_min, p.small_max + 1) - 1)
            JBE(primary)
            CMP(n, SQR_MAX)
            JA(primary)
            MOV(x, n)
            AND(x, K - 1)
            CMP(x, K // 2)
            JNE(primary)
            CMP(ap, bp)
            JE(alt[0])
            JMP(alt[1])
            f.bind(primary)
        product = f.new_label("product") if p.group_mul_min and K > 1 else None
        multiply = f.new_label("multiply")
        if square:
            not_square = f.new_label("not_square")
            CMP(ap, bp)
            JNE(not_square)
            CMP(n, max(p.sqr_min, p.small_max + 1) - 1)
            JBE(not_square)
            CMP(n, SQR_MAX)
            JBE(square)
            f.bind(not_square)
        if product:
            CMP(n, max(p.group_mul_min, p.small_max + 1) - 1)
            JBE(multiply)
            CMP(n, SQR_MAX)
            JA(multiply)
            TEST(n, K - 1)
            JZ(product)
        f.bind(multiply)
        LEA(n, [bp + n * 8])
        MOV(s_end, n)                                   # bp + 8 n: end of b
        top, top2, cy, o, a, ln = (GeneralPurposeRegister64() for _ in range(6))
        XOR(top.as_dword, top.as_dword)
        loop = f.new_label("outer")
        final = f.new_label("final")
        for i0 in (True, False):
            if not i0:
                f.bind(loop)
            # t (+)= a * b_i; top2:top += carry
            MOV(rdx, [bp])
            XOR(cy.as_dword, cy.as_dword)
            MOV(o, rp)
            MOV(a, s_ap)
            MOV(ln, s_n)
            x86_rows.row(f, Digits(o), Digits(a), ln, "mul" if i0 else "addmul", "adx",
                         p.unroll, p.ahead, cy, region="mul_a" if i0 else "addmul_a")
            XOR(top2.as_dword, top2.as_dword)
            ADD(top, cy)
            ADC(top2, 0)
            MOV(s_top2, top2)
            row_of_n(f, p, rp, Shifted, s_n0inv, s_np, s_n, o, a, ln, cy, region="addmul_n")
            # t_(n-1) = top + carry, top = top2 + carry-out
            ADD(cy, top)
            MOV([o - 8], cy)
            MOV(top, s_top2)                            # (MOV keeps CF)
            ADC(top, 0)
            LEA(bp, [bp + 8])
            CMP(bp, s_end)
            if i0:
                JE(final)
            else:
                JNZ(loop)
        f.bind(final)
        final_subtract(f, rp, rp, s_np, s_n, top, p.tail_unroll)
        for k, label in small.items():
            JMP(f.exit_label)
            f.bind(label)
            _small(k, rp, bp, s_n0inv, s_ap, s_np, s_end, s_top2, slots[6:])
        if square or product or alt:
            JMP(f.exit_label)
            _buffered(f, p, rp, ap, bp, n, s_n0inv, s_ap, s_np, s_n, s_end, slots[6:11],
                      square, product, alt)
        f.ret()
    return f.finalize()


def _buffered(f, p, rp, ap, bp, n, s_n0inv, s_ap, s_np, s_n, s_rp, spare, square, product,
              alt=None):
    """T (2n limbs, a stack buffer) = a^2 (at `square`: _sqr_groups where K = redc_rows
    divides n and n >= group_sqr_min, else x86_sqr.square; each cross product once, then
    doubled with the squares) or a b (at `product`: _mul_groups), then REDC as
    GMP's mpn_redc_1 and OpenSSL's bn_sqr8x_mont / bn_sqrx8x_reduction do it:

        for i = 0 .. n-1:  m = T_i n0inv;  T += m N B^i      row of N at T_i (T_i cancels:
                           T_i = carry out of the row          only hi(m N_0) and T_i != 0)
        t = T[n .. 2n) + T[0 .. n)                           the carries, a limb up each
        t >= N ? t - N : t                                   one constant-time subtraction

    by one row per pass (row_of_n, the row's carry parked in T_i), or K = redc_rows rows per
    pass where K divides n (_redc_groups: T_i = 0, the carries chained through the groups
    into s_top). T < N^2 (or R^2 for inputs below R), so t < 2N (R + N): one subtraction, as
    in the CIOS path. n^2/2 + n^2 products for a square where the CIOS rows make 2 n^2. T
    holds values derived from a and b, so it is zeroed behind: T[0 .. n) by the rows' sum
    or, in the groups, where the m were kept; T[n .. 2n) by subtract_from. alt = (square_alt,
    product_alt): entries for n = K/2 mod K, a^2 or a b and the REDC by K/2 rows per pass."""
    import types
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, LocalVariable, MOV, XOR, ADC,
                                ADD, SHL, LEA, DEC, TEST, CMP, JNZ, JB, JMP)
    from . import x86_sqr
    from .x86_rows import Digits
    from .mpn_sqr import PARAMS as SQR_PARAMS
    K = p.redc_rows
    buf = LocalVariable(16 * SQR_MAX, 16)
    s_top, s_c1, s_nend, s_tend, s_bp = spare
    groups = f.new_label("redc_groups")
    summed = f.new_label("redc_sum")
    if square:
        f.bind(square)
        MOV(s_rp, rp)
        if K > 1 and p.group_sqr_min:
            # n is public: the grouped square where K divides n and n >= group_sqr_min
            sqr_rows = f.new_label("sqr_rows")
            x = G()
            MOV(x, s_n)
            TEST(x, K - 1)
            JNZ(sqr_rows)
            CMP(x, p.group_sqr_min)
            JB(sqr_rows)
            _sqr_groups(f, K, buf, s_ap, s_n, s_top, s_c1, s_nend)
            JMP(groups)                             # s_top = 0 (_zero; carry out 0)
            f.bind(sqr_rows)
        T = G()
        LEA(T, buf)
        sp = types.SimpleNamespace(unroll=p.unroll, ahead=p.ahead, small=0,
                                   corner=SQR_PARAMS["corner"].default)
        x86_sqr.square(f, T, ap, n, sp, diag=x86_sqr.PlainDiag(ap))
        z = G()
        XOR(z.as_dword, z.as_dword)
        MOV(s_top, z)                               # (a slot has no size: no immediate)
        if K > 1:
            # n mod K is public: the grouped passes where K divides n, else the rows
            rows = f.new_label("redc_rows")
            x = G()
            MOV(x, s_n)
            TEST(x, K - 1)
            JNZ(rows)
    if K > 1:
        f.bind(groups)
        T = G()
        LEA(T, buf)
        _redc_groups(f, K, T, s_n0inv, s_np, s_n, s_top, s_c1, s_nend, s_tend)
        if square:
            JMP(summed)
            f.bind(rows)
    if square:
        # REDC rows: T_i's row of N, its carry stored at T_i
        ptr, cnt, o, a, ln, cy = (G() for _ in range(6))
        T = G()
        LEA(T, buf)
        MOV(ptr, T)
        MOV(cnt, s_n)
        row = f.new_label("redc_row")
        f.bind(row)
        row_of_n(f, p, ptr, Digits, s_n0inv, s_np, s_n, o, a, ln, cy)
        MOV([ptr], cy)
        LEA(ptr, [ptr + 8])
        DEC(cnt)
        JNZ(row)
        # t = T[n .. 2n) + T[0 .. n) in place, T[0 .. n) zeroed behind; s_top = the carry
        hi, x, zero, top = (G() for _ in range(4))
        MOV(cnt, s_n)
        MOV(ptr, T)
        LEA(hi, [T + cnt * 8])
        XOR(zero.as_dword, zero.as_dword)           # CF = 0
        add = f.new_label("redc_add")
        f.bind(add)
        MOV(x, [hi])
        ADC(x, [ptr])
        MOV([hi], x)
        MOV([ptr], zero)
        LEA(hi, [hi + 8])
        LEA(ptr, [ptr + 8])
        DEC(cnt)                                    # (DEC keeps CF)
        JNZ(add)
        MOV(top, zero)                              # (MOV keeps CF)
        ADC(top, 0)
        MOV(s_top, top)
    f.bind(summed)
    # t = T[n .. 2n) + s_top B^n (T[0 .. n) is zero), top at most 1: t < 2N; rp = t or t - N,
    # T[n .. 2n) zeroed behind
    t, top, T = G(), G(), G()
    MOV(t, s_n)
    SHL(t, 3)
    LEA(T, buf)
    ADD(t, T)
    MOV(top, s_top)
    subtract_from(f, s_rp, t, s_np, s_n, top, p.tail_unroll)
    if product:
        JMP(f.exit_label)
        f.bind(product)
        _product_groups(f, K, groups, buf, rp, bp, s_rp, s_bp, s_ap, s_n, s_top, s_c1,
                        s_nend, s_tend)
    if alt:
        # K / 2 divides n (n = K/2 mod K): the same passes with K / 2 rows each
        K2 = K // 2
        if not product:
            JMP(f.exit_label)
        square_alt, product_alt = alt
        groups_alt = f.new_label("redc_groups_alt")
        f.bind(square_alt)
        MOV(s_rp, rp)
        _sqr_groups(f, K2, buf, s_ap, s_n, s_top, s_c1, s_nend)
        f.bind(groups_alt)
        T = G()
        LEA(T, buf)
        _redc_groups(f, K2, T, s_n0inv, s_np, s_n, s_top, s_c1, s_nend, s_tend)
        JMP(summed)
        f.bind(product_alt)
        _product_groups(f, K2, groups_alt, buf, rp, bp, s_rp, s_bp, s_ap, s_n, s_top, s_c1,
                        s_nend, s_tend)



def _product_groups(f, K, groups, buf, rp, bp, s_rp, s_bp, s_ap, s_n, s_top, s_c1, s_nend,
                    s_tend):
    """The buffer's a b by K rows per pass (_mul_groups), s_top = 0, then on to the REDC
    passes at `groups`."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, LEA, XOR, JMP
    MOV(s_rp, rp)
    MOV(s_bp, bp)
    T = G()
    LEA(T, buf)
    _mul_groups(f, K, T, s_ap, s_bp, s_n, s_top, s_c1, s_nend, s_tend)
    z = G()
    XOR(z.as_dword, z.as_dword)
    MOV(s_top, z)
    JMP(groups)

def _redc_groups(f, K, T, s_n0inv, s_np, s_n, s_top, s_c1, s_nend, s_tend):
    """REDC of the 2n-limb T (stack buffer at T) when K divides n: K rows of N per pass over
    T, as OpenSSL's bn_sqrx8x_reduction, with K limbs of T in registers (the window w).
    Group g (i0 = g K) first runs the triangle, the rows m_r N[0 .. K) for r = 0 .. K-1 over
    columns i0 .. i0+2K-1:

        m_r = w_0 n0inv          (w_0 = column i0+r, complete: rows < r of this group and
                                  every earlier group have reached it), kept in T[i0+r]
        w += m_r N[0 .. K)       MULX N_k, ADCX lo into w_k, ADOX hi into w_(k+1), the new
                                  top w_K = 0 + hi + the carries: w + m_r N[0..K) < B^(K+1)
        w_0 = 0 drops out, w shifts down a limb

    then blocks of N: for N[j .. j+K), j = K, 2K, .. n-K, the window (columns i0+j ..)
    takes T[i0+j .. i0+j+K) by ADC (its carry out, weight i0+j+K, is the next block's carry
    in), then the rows w += m_r N[j .. j+K), each ending with column i0+j+r complete and
    stored. After the last block the window is columns i0+n .. i0+n+K-1: it takes
    T[i0+n ..) with the last carry, and c, the carry out of the previous group (weight
    i0+n); its own carry out is the next group's c (at most 1: every term of weight below
    i0+n+K has been added, and their sum is below B^(i0+n+K) + B^(i0+K) N), the last
    group's the top limb of t (s_top). T[i0 .. i0+K) (the m) is zeroed at the end.

        T:  [ i0 .. i0+K) | i0+K  ..  i0+n-1 | i0+n .. i0+n+K-1 | ..
              triangle      blocks of N        final window       c -> next group

    Per product MULX (N from memory), ADCX, ADOX; per row MOV rdx, XOR, ADC and a store;
    the row of N (row_of_n) also loads and stores a limb of T per product."""
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, IMUL, LEA, CMP, JNE, rdx,
                                qword)
    _ends(f, s_n, (T, s_tend), (s_np, s_nend))
    P, Nb, Q, x = G(), G(), G(), G()
    MOV(P, T)
    w = [G() for _ in range(K)]
    group = f.new_label("redc_group")
    f.bind(group)
    MOV(Nb, s_np)
    for k in range(K):
        MOV(w[k], [P + 8 * k])
    for r in range(K):
        def m_of(r=r):
            MOV(rdx, w[0])
            IMUL(rdx, s_n0inv)
            MOV([P + 8 * r], rdx)                   # m_r, in the limb its row cancels
        w = _group_row(f, K, w, Nb, P, r, m_of, store=False)
    LEA(Q, [P + 8 * K])
    _group_blocks(f, K, w, Nb, Q, x, lambda r: [P + 8 * r], s_c1, s_nend, s_top)
    for k in range(K):
        MOV(qword[P + 8 * k], 0)                    # the m
    LEA(P, [P + 8 * K])
    CMP(P, s_tend)
    JNE(group)


def _group_row(f, K, w, Nb, Q, r, m_of, store=True, k0=0):
    """w (+)= m_r {Nb, K} over the window of columns Q + r .. (w: K registers, the new top
    limb made in w_0's register once column Q + r is complete and stored); returns w rotated
    a limb down. m_of() puts m_r in rdx. k0 > 0: only the products k0 .. K-1 (the square's
    triangle, _sqr_groups), column Q + r taking none of them."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, MULX, ADCX, ADOX, ADC, XOR
    if k0 < K:
        m_of()
    if k0:
        MOV([Q + 8 * r], w[0])                      # column Q + r is complete
        XOR(w[0].as_dword, w[0].as_dword)           # the new top limb; CF = OF = 0
        if k0 == K:
            return w[1:] + w[:1]
    else:
        lo0 = G()
        XOR(lo0.as_dword, lo0.as_dword)             # CF = OF = 0
    for k in range(k0, K):
        lo, hi = (lo0 if k == 0 else G()), G()
        MULX(hi, lo, [Nb + 8 * k])
        ADCX(w[k], lo)
        ADOX(w[k + 1] if k + 1 < K else w[0], hi)
        if k == 0:
            if store:
                MOV([Q + 8 * r], w[0])              # column Q + r is complete
            MOV(w[0], 0)                            # the new top limb (MOV keeps the flags)
    ADC(w[0], 0)
    return w[1:] + w[:1]


def _group_blocks(f, K, w, Nb, Q, x, mult, s_c1, s_nend, s_top):
    """The blocks and the final window of a group (_redc_groups): while Nb + 8K != s_nend,
    Nb += 8K, the window (columns at Q) takes T[Q .. Q+K) with the last block's carry (s_c1
    holds -carry), then the K rows m_r {Nb, K} (mult(r): the memory operand of m_r), Q += 8K;
    at the end the window takes T[Q .. Q+K), the last carry and s_top (the previous group's
    carry, weight Q), is stored at Q, and its carry out goes to s_top."""
    from peachpy.x86_64 import MOV, ADC, ADD, SBB, NEG, XOR, LEA, CMP, JE, JMP, rdx
    XOR(x.as_dword, x.as_dword)
    MOV(s_c1, x)
    block = f.new_label("group_block")
    final = f.new_label("group_final")
    f.bind(block)
    LEA(Nb, [Nb + 8 * K])
    CMP(Nb, s_nend)
    JE(final)
    MOV(x, s_c1)
    ADD(x, x)                                       # CF = the carry of the last T sum
    for k in range(K):
        ADC(w[k], [Q + 8 * k])
    SBB(x, x)
    MOV(s_c1, x)
    for r in range(K):
        w = _group_row(f, K, w, Nb, Q, r, lambda r=r: MOV(rdx, mult(r)))
    LEA(Q, [Q + 8 * K])
    JMP(block)
    f.bind(final)
    MOV(x, s_c1)
    ADD(x, x)
    for k in range(K):
        ADC(w[k], [Q + 8 * k])
    SBB(x, x)
    NEG(x)
    ADD(w[0], s_top)
    for k in range(1, K):
        ADC(w[k], 0)
    ADC(x, 0)
    for k in range(K):
        MOV([Q + 8 * k], w[k])
    MOV(s_top, x)


def _ends(f, s_n, *pairs):
    """For each (base, slot): slot = base + 8 n (base a register or a slot)."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, SHL, ADD
    x = G()
    MOV(x, s_n)
    SHL(x, 3)
    for base, slot in pairs:
        y = G()
        MOV(y, base)
        ADD(y, x)
        MOV(slot, y)


def _mul_groups(f, K, T, s_ap, s_bp, s_n, s_top, s_c1, s_nend, s_bend):
    """T = a b (2n limbs at T, zeroed first) when K divides n: group g (i0 = g K) adds
    a b[i0 .. i0+K) B^i0 by _redc_groups' blocks with m_r = b_(i0+r): the window starts at
    zero (no triangle), the blocks run over a[0 .. n), the final window (columns i0+n ..)
    takes the zeros of T there and the last carry; its carry out is 0 (the partial product
    is below B^(n+i0+K))."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, XOR, LEA, CMP, JNE, NEG
    _zero(f, T, s_n, s_top, K)
    _ends(f, s_n, (s_ap, s_nend), (s_bp, s_bend))
    Bg, Q, Nb, x = G(), G(), G(), G()
    MOV(Bg, s_bp)
    MOV(Q, T)
    w = [G() for _ in range(K)]
    group = f.new_label("mul_group")
    f.bind(group)
    for k in range(K):
        XOR(w[k].as_dword, w[k].as_dword)
    MOV(Nb, s_ap)
    LEA(Nb, [Nb - 8 * K])                           # the first block is a[0 .. K)
    _group_blocks(f, K, w, Nb, Q, x, lambda r: [Bg + 8 * r], s_c1, s_nend, s_top)
    # Q is at column i0 + n: the next group's columns start at i0 + K
    MOV(x, s_n)
    NEG(x)
    LEA(Q, [Q + x * 8 + 8 * K])
    LEA(Bg, [Bg + 8 * K])
    CMP(Bg, s_bend)
    JNE(group)


def _zero(f, T, s_n, s_top, K):
    """T[0 .. 2n) = 0 and s_top = 0, for n a multiple of K, which 4 divides: 64 bytes per
    iteration by four MOVDQU (SSE2)."""
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, XOR, PXOR, MOVDQU, SHR,
                                LEA, DEC, JNZ, xmm0)
    assert K % 4 == 0, "the 16-byte clearing takes 2n limbs by eights"
    z, ptr, cnt, v = G(), G(), G(), xmm0             # (xmm0: no Win64 save)
    XOR(z.as_dword, z.as_dword)
    MOV(s_top, z)
    PXOR(v, v)
    MOV(cnt, s_n)
    SHR(cnt, 2)
    MOV(ptr, T)
    clear = f.new_label("clear")
    f.bind(clear)
    for k in range(4):
        MOVDQU([ptr + 16 * k], v)
    LEA(ptr, [ptr + 64])
    DEC(cnt)
    JNZ(clear)


def _sqr_groups(f, K, buf, s_ap, s_n, s_top, s_c1, s_nend):
    """T = a^2 (2n limbs at buf, zeroed first) when K divides n, as OpenSSL's bn_sqrx8x
    makes it: the cross products a_i a_j (i < j) by groups of K rows (i0 = g K, m_r =
    a_(i0+r)), each group starting with its triangle over the window of columns 2 i0 ..
    loaded from T (row r: a_(i0+r) a_(i0+k) for r < k < K, _group_row from k0 = r + 1),
    then _mul_groups' blocks over a[i0+K .. n); the final window (columns i0+n .., still
    zero) carries out 0, the cross products of the rows below i0+K summing below
    B^(n+i0+K). Then x86_sqr.final_pass doubles T and adds the squares a_q^2 at 2q (T[2n-1]
    = 0: the cross products sum below B^(2n-1)). (n^2 - n)/2 products by MULX, ADCX, ADOX
    with the accumulator in registers, where x86_sqr.rows loads and stores a limb of T per
    product.

        columns:  2i0 .. 2i0+K-1 | 2i0+K ..        i0+n-1 | i0+n .. i0+n+K-1
                  triangle         blocks a[i0+K .. n)      final window"""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, LEA, ADD, SUB, CMP, JNE, rdx
    from . import x86_sqr
    T = G()
    LEA(T, buf)
    _zero(f, T, s_n, s_top, K)
    _ends(f, s_n, (s_ap, s_nend))
    Bg, Q, Nb, x = G(), G(), G(), G()
    MOV(Bg, s_ap)
    LEA(Q, buf)
    w = [G() for _ in range(K)]
    group = f.new_label("sqr_group")
    f.bind(group)
    for k in range(K):
        MOV(w[k], [Q + 8 * k])
    MOV(Nb, Bg)
    for r in range(K):
        w = _group_row(f, K, w, Nb, Q, r, lambda r=r: MOV(rdx, [Bg + 8 * r]), k0=r + 1)
    LEA(Q, [Q + 8 * K])
    _group_blocks(f, K, w, Nb, Q, x, lambda r: [Bg + 8 * r], s_c1, s_nend, s_top)
    # Q is at column i0 + n (Bg = a + 8 i0): the next group's window at column 2 (i0 + K)
    ADD(Q, Bg)
    SUB(Q, s_nend)
    LEA(Q, [Q + 16 * K])
    LEA(Bg, [Bg + 8 * K])
    CMP(Bg, s_nend)
    JNE(group)
    n, a = G(), G()
    MOV(n, s_n)
    MOV(a, s_ap)
    LEA(T, buf)
    x86_sqr.final_pass(f, T, n, x86_sqr.PlainDiag(a))


def _small(k, rp, bp, s_n0inv, s_ap, s_np, s_rp, s_bp, masked):
    """n = k <= small_max, straight-line CIOS with the accumulator t_0 .. t_(k+1) in registers
    (the rows of build_adx: MULX, ADCX lo_j into t_j, ADOX hi_j into t_(j+1); after the row
    of N, t_0 = 0 becomes the new top and the names move down a limb), then t - N by SUB/SBB
    and N & mask added back: no memory accumulator, no loop."""
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, XOR, IMUL, MULX, ADCX, ADOX,
                                SUB, SBB, ADD, ADC, AND, rdx)
    MOV(s_rp, rp)
    MOV(s_bp, bp)
    t = [GeneralPurposeRegister64() for _ in range(k + 2)]
    for r in t:
        XOR(r.as_dword, r.as_dword)
    lo, hi, src = (GeneralPurposeRegister64() for _ in range(3))

    def row(slot):
        MOV(src, slot)
        XOR(lo.as_dword, lo.as_dword)               # CF = OF = 0
        for j in range(k):
            MULX(hi, lo, [src + 8 * j])
            ADCX(t[j], lo)
            ADOX(t[j + 1], hi)
        MOV(src, 0)                                 # (MOV keeps the flags)
        ADCX(t[k], src)
        ADOX(t[k + 1], src)
        ADCX(t[k + 1], src)

    for i in range(k):
        MOV(rdx, s_bp)
        MOV(rdx, [rdx + 8 * i])
        row(s_ap)                                   # t += a b_i
        MOV(rdx, t[0])
        IMUL(rdx, s_n0inv)                          # m = t_0 n0inv
        row(s_np)                                   # t += m N: t_0 = 0
        t = t[1:] + t[:1]
    # t = t_0 .. t_k (t_k <= 1): t - N, and N back where that borrowed
    MOV(src, s_np)
    SUB(t[0], [src])
    for j in range(1, k):
        SBB(t[j], [src + 8 * j])
    SBB(t[k], 0)                                    # 0: t >= N; -1: add N back
    for j in range(k):                              # N & mask first: AND writes the flags
        MOV(lo, [src + 8 * j])
        AND(lo, t[k])
        MOV(masked[j], lo)
    ADD(t[0], masked[0])
    for j in range(1, k):
        ADC(t[j], masked[j])
    MOV(src, s_rp)
    for j in range(k):
        MOV([src + 8 * j], t[j])


def build_ifma(symbol, p):
    from ..x86 import function as x86
    f = x86.Function(symbol, SPEC.args, SPEC.result, zmm32=True)
    # n outside [ifma_min, ifma_max] (n == 0 included) runs the adx variant, reached before
    # this function's frame is built
    f.tail_call_outside(5, p.ifma_min, p.ifma_max, p.sibling("adx"))
    with f:
        rp, ap, bp, np, n0inv, n = f.load_args()
        x86_ifma_mont.montmul(f, rp, ap, bp, np, n0inv, n, p)
        f.ret()
    return f.finalize()


A64_PARAMS = {
    "unroll": Param(4, (1, 2, 4, 8), "steps (a_j b_(i-j) and m_j N_(i-j)) per iteration of the "
                                  "column loop"),
    "depth": Param(1, (0, 1, 2), "products still unaccumulated when a step ends: 0, 1 (m N "
                                 "added in the next step, HotSpot), 2 (both, two register "
                                 "sets; unroll even)"),
    "addressing": Param("offset", ("post", "offset"),
                        "operand loads: ldr post-index each (HotSpot), or immediate offsets "
                        "from pointers advanced once per iteration"),
    "sqr_min": Param(18, (0, 1, 2, 4, 6, 8, 12, 16, 17, 18, 20, 24, 32),
                     "ap == bp and n >= sqr_min: the squaring columns (module docstring); "
                     "0: no squaring path (ap == bp multiplies). Default 18: the smallest n "
                     "at which the squaring call is not slower than the multiply on any of "
                     "the five llvm-mca models (bench/mca_trace.py; figures in the module "
                     "docstring); neoverse-n1, limited by its one multiplier, gains from 6",
                     kind="size", sizes=(4, 6, 8, 12, 16, 17, 18, 20, 24, 32)),
}


def build_a64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem, post
    from ..a64.regs import XZR, SP

    U, D, post_index = p.unroll, p.depth, p.addressing == "post"
    if D == 2 and U % 2:
        raise ValueError("depth 2 alternates two product register sets between steps: "
                         "unroll must be even")
    shift = U.bit_length() - 1
    f = Function(symbol, SPEC.args, SPEC.result)
    f.secret_independent()
    rp, ap, bp, np_, n0inv, n = f.arg_regs
    done = f.new_label("n0")
    f.cbz(n, done)

    t0, t1, t2 = f.gpr("t0"), f.gpr("t1"), f.gpr("t2")
    ra, rb, rm, rn = f.gpr("ra"), f.gpr("rb"), f.gpr("rm"), f.gpr("rn")
    pa, pb, pm, pn = f.gpr("pa"), f.gpr("pb"), f.gpr("pm"), f.gpr("pn")
    cnt = f.gpr("cnt")
    # product registers (lo_ab, hi_ab, lo_mn, hi_mn), one set per step in flight
    sets = [f.gprs(4, "p%d_" % s) for s in range(2 if D == 2 else 1)]

    def acc(lo, hi):
        f.adds(t0, t0, lo)
        f.adcs(t1, t1, hi)
        f.adc(t2, t2, XZR)

    def mul(lo, hi, x, y):
        f.umulh(hi, x, y)
        f.mul(lo, x, y)

    def load_ab(k=None):
        """Operands of the next step; k: the step's place in the loop body (offset
        addressing from the pointers as they were when the iteration started)."""
        if k is None or post_index:
            f.ldr(ra, post(pa, 8))
            f.ldr(rb, post(pb, -8))
        else:
            f.ldr(ra, mem(pa, 8 * k))
            f.ldr(rb, mem(pb, -8 * k))

    def load_mn(k=None):
        if k is None or post_index:
            f.ldr(rm, post(pm, 8))
            f.ldr(rn, post(pn, -8))
        else:
            f.ldr(rm, mem(pm, 8 * k))
            f.ldr(rn, mem(pn, -8 * k))

    def advance(e):
        """Pointers moved e steps on (offset addressing)."""
        for r, d in ((pa, 8 * e), (pb, -8 * e), (pm, 8 * e), (pn, -8 * e)):
            if d > 0:
                f.add(r, r, d)
            elif d < 0:
                f.sub(r, r, -d)

    def step(k, loads=True):
        """ra, rb, rm, rn hold the operands of this step; loads those of the next."""
        lab, hab, lmn, hmn = sets[k % len(sets)]
        ld_ab = (lambda: load_ab(k)) if loads else (lambda: None)
        ld_mn = (lambda: load_mn(k)) if loads else (lambda: None)
        if D == 0:
            mul(lab, hab, ra, rb)
            ld_ab()
            acc(lab, hab)
            mul(lmn, hmn, rm, rn)
            ld_mn()
            acc(lmn, hmn)
        elif D == 1:                    # HotSpot's step: m N of the previous step pending
            mul(lab, hab, ra, rb)
            ld_ab()
            acc(lmn, hmn)
            mul(lmn, hmn, rm, rn)
            ld_mn()
            acc(lab, hab)
        else:                           # this set's products are from two steps back
            acc(lab, hab)
            mul(lab, hab, ra, rb)
            ld_ab()
            acc(lmn, hmn)
            mul(lmn, hmn, rm, rn)
            ld_mn()

    def start():
        """Pending products zero (so the body may be entered at any step)."""
        for regs in sets:
            for r in (regs if D == 2 else regs[2:] if D == 1 else ()):
                f.mov(r, XZR)

    def flush():
        for regs in sets:
            if D == 2:
                acc(regs[0], regs[1])
            if D >= 1:
                acc(regs[2], regs[3])

    def steps(c, region, step=step, units=2, adv=advance):
        """c (preserved) steps: (c + U - 1) / U iterations of U steps, the first entered at
        step (-c) mod U. adv: how the step's pointers move (offset addressing); units: the
        64x64-bit products of the multiply that one step stands for (the marker's limbs=)."""
        moving = post_index
        end = f.new_label("steps_done")
        if U == 1:
            f.mov(cnt, c)
        else:
            f.add(cnt, c, U - 1)
            f.lsr(cnt, cnt, shift)
        f.cbz(cnt, end)
        entry = [f.new_label("step%d" % k) for k in range(U)]

        def tree(bit, r):               # branch on the low bits r = c mod U
            if moving and bit == shift - 1:
                f.tbnz(c, bit, entry[-(r | 1 << bit) % U])
                f.b(entry[-r % U])
                return
            if bit == shift:            # entering at step e: offsets count from e back
                adv(-(-r % U))
                f.b(entry[-r % U])
                return
            clear = f.new_label("mod%d_%d" % (1 << (bit + 1), r))
            f.tbz(c, bit, clear)
            tree(bit + 1, r | 1 << bit)
            f.bind(clear)
            tree(bit + 1, r)
        if U > 1:
            tree(0, 0)
        f.mca_begin("%s limbs=%d" % (region, units * U))
        for k in range(U):
            f.bind(entry[k])
            step(k)
        if not moving:
            adv(U)
        f.subs(cnt, cnt, 1)
        f.b_ne(entry[0])
        f.mca_end()
        f.bind(end)

    def first_loads():
        load_ab()
        load_mn()

    def square():
        """ap == bp, n >= sqr_min: the columns with the symmetric products a_j a_(i-j),
        j < i-j, summed once into u = u2:u1:u0 and added twice (t += 2u, extr), the square
        a_h^2 (i = 2h) once; the m N products as in the multiply, two per step (module
        docstring). Ends as the multiply does: r in rp, top in t1, np_ at N_0, n intact."""
        u0, u1, u2 = f.gpr("u0"), f.gpr("u1"), f.gpr("u2")
        rm2, rn2 = f.gpr("rm2"), f.gpr("rn2")
        pm2, pn2 = f.gpr("pm2"), f.gpr("pn2")
        X, Y, Z = f.gprs(2, "x_"), f.gprs(2, "y_"), f.gprs(2, "z_")
        # six pointers and three product pairs need the registers of ap, np, n and n0inv
        # in the column loops: those wait on the stack
        s_ap, s_np, s_n, s_inv = (f.local(x) for x in ("ap", "np", "n", "n0inv"))
        for r, slot in ((ap, s_ap), (np_, s_np), (n, s_n), (n0inv, s_inv)):
            f.spill(r, slot)
        # arguments, public as they were in their registers (the check still sees every
        # other load as secret)
        f.secret_independent(public=[(SP, sl) for sl in (s_ap, s_np, s_n, s_inv)])
        # step j: a_j (pa ascending), a_(i-j) (pb descending), m_j (pm up), N_(i-j) (pn
        # down), m_(i-j) (pm2 down), N_j (pn2 up)
        streams = ((ra, pa, 1), (rb, pb, -1), (rm, pm, 1), (rn, pn, -1), (rm2, pm2, -1),
                   (rn2, pn2, 1))

        def load(which, k=None):
            """The operands of the next step (k: the step's place in the body, offset
            addressing from the pointers as they were when the iteration started)."""
            for r, ptr, d in (streams[x] for x in which):
                if k is None or post_index:
                    f.ldr(r, post(ptr, 8 * d))
                else:
                    f.ldr(r, mem(ptr, 8 * d * k))

        def sq_advance(e):
            for _, ptr, d in streams:
                if e * d > 0:
                    f.add(ptr, ptr, 8 * e * d)
                elif e * d < 0:
                    f.sub(ptr, ptr, -8 * e * d)

        def sq_step(k):
            """a_j a_(i-j) into u, m_j N_(i-j) and m_(i-j) N_j into t; the operands of step
            j+1 loaded meanwhile. depth >= 1: m_(i-j) N_j is added in the next step."""
            if D == 0:
                mul(X[0], X[1], ra, rb)
                load((0, 1), k)
                acc_u(X)
                mul(X[0], X[1], rm, rn)
                load((2, 3), k)
                acc(X[0], X[1])
                mul(X[0], X[1], rm2, rn2)
                load((4, 5), k)
                acc(X[0], X[1])
            else:                       # Z: m_(i-j) N_j of the previous step
                mul(X[0], X[1], ra, rb)
                load((0, 1), k)
                acc(Z[0], Z[1])
                mul(Y[0], Y[1], rm, rn)
                load((2, 3), k)
                acc_u(X)
                mul(Z[0], Z[1], rm2, rn2)
                load((4, 5), k)
                acc(Y[0], Y[1])

        def acc_u(P):
            f.adds(u0, u0, P[0])
            f.adcs(u1, u1, P[1])
            f.adc(u2, u2, XZR)

        def column(c, region):
            """c steps from the pointers as set, then t += 2u + flush; ra..rn2 then hold
            the operands of step j = i - j (the middle of an even column)."""
            load(range(6))
            for r in [u0, u1, u2] + (Z if D else []):
                f.mov(r, XZR)
            steps(c, region, step=sq_step, units=4, adv=sq_advance)
            if D:
                acc(Z[0], Z[1])
            f.adds(t0, t0, u0, "lsl #1")            # t += 2 u
            f.extr(X[0], u1, u0, 63)
            f.adcs(t1, t1, X[0])
            f.extr(X[1], u2, u1, 63)
            f.adc(t2, t2, X[1])

        def middle():                   # column i = 2h: a_h^2 and m_h N_h once
            mul(X[0], X[1], ra, rb)
            acc(X[0], X[1])
            mul(Y[0], Y[1], rm, rn)
            acc(Y[0], Y[1])

        # columns i = 0 .. n-1: j = 0 .. (i+1)/2 - 1; m_i N_0 (j = 0 of the second stream)
        # reads rp[i] = 0 (stored first), found by the REDC step instead; the middle of
        # column 0 reads m_0 = 0 as well
        c, x = f.gpr("c"), f.gpr("x")
        f.mov(i, XZR)
        lo_top = f.new_label("sqr_lo")
        f.bind(lo_top)
        f.str_(XZR, mem(rp, index=i, shift=3))
        f.reload(x, s_ap)
        f.mov(pa, x)
        f.add(pb, x, i, "lsl #3")
        f.reload(x, s_np)
        f.mov(pn2, x)
        f.add(pn, x, i, "lsl #3")
        f.mov(pm, rp)
        f.add(pm2, rp, i, "lsl #3")
        f.add(c, i, 1)
        f.lsr(c, c, 1)
        column(c, "montsqr_lo")
        odd = f.new_label("sqr_lo_odd")
        f.tbnz(i, 0, odd)
        middle()
        f.bind(odd)
        m, hi = f.gpr("m"), f.gpr("hi")
        f.reload(x, s_inv)
        f.mul(m, t0, x)
        f.str_(m, mem(rp, index=i, shift=3))       # m_i -> rp[i]
        f.reload(x, s_np)
        f.ldr(hi, mem(x))               # N_0 (x keeps public values only)
        f.umulh(hi, m, hi)
        f.cmp(t0, 1)                    # carry of t0 + lo(m_i N_0) = 0 mod B: t0 != 0
        f.adcs(t0, t1, hi)
        f.adc(t1, t2, XZR)
        f.mov(t2, XZR)
        f.add(i, i, 1)
        f.reload(x, s_n)
        f.cmp(i, x)
        f.b_ne(lo_top)

        # columns i = n-1+s, s = 1 .. n-1: j = s .. s + (n-s)/2 - 1; r_(s-1) -> rp[s-1]
        # (q8 = 8 (s-1)); the middle when n-s is odd
        q8, top8 = f.gpr("q8"), f.gpr("top8")
        last = f.new_label("sqr_last")
        f.sub(top8, i, 1)
        f.lsl(top8, top8, 3)            # 8 (n-1)
        f.mov(q8, XZR)
        f.cbz(top8, last)
        hi_top = f.new_label("sqr_hi")
        f.bind(hi_top)
        f.add(c, q8, 8)                 # 8 s
        f.reload(x, s_ap)
        f.add(pa, x, c)
        f.add(pb, x, top8)
        f.reload(x, s_np)
        f.add(pn2, x, c)
        f.add(pn, x, top8)
        f.add(pm, rp, c)
        f.add(pm2, rp, top8)
        f.sub(c, top8, q8)
        f.lsr(c, c, 4)                  # (n-s) / 2
        column(c, "montsqr_hi")
        f.sub(c, top8, q8)
        even = f.new_label("sqr_hi_even")
        f.tbz(c, 3, even)
        middle()
        f.bind(even)
        f.str_(t0, mem(rp, index=q8))
        f.mov(t0, t1)
        f.mov(t1, t2)
        f.mov(t2, XZR)
        f.add(q8, q8, 8)
        f.cmp(q8, top8)
        f.b_ne(hi_top)
        f.bind(last)
        f.str_(t0, mem(rp, index=top8))     # column 2n-1: r_(n-1); top = t1
        f.reload(np_, s_np)
        f.reload(n, s_n)

    for r in (t0, t1, t2):
        f.mov(r, XZR)
    i = f.gpr("i")
    final = f.new_label("final")
    if p.sqr_min:
        mul_path = f.new_label("mul")
        f.cmp(ap, bp)                   # pointers and n are public: so is the path taken
        f.b_ne(mul_path)
        if p.sqr_min > 1:
            f.cmp(n, p.sqr_min)
            f.b_lo(mul_path)
        square()
        f.b(final)
        f.bind(mul_path)
    # columns 0 .. n-1; bp and np advance to b_i and N_i
    f.mov(i, XZR)
    lo_top = f.new_label("col_lo")
    f.bind(lo_top)
    f.mov(pa, ap)
    f.mov(pb, bp)
    f.mov(pm, rp)
    f.mov(pn, np_)
    first_loads()
    start()
    steps(i, "montmul_lo")
    flush()                             # now ra, rb, rn = a_i, b_0, N_0 (rm: rp[i], unused)
    lo, hi, m = f.gpr("lo"), f.gpr("hi"), f.gpr("m")
    mul(lo, hi, ra, rb)
    acc(lo, hi)
    f.mul(m, t0, n0inv)
    f.str_(m, mem(pm, -8))              # m_i -> rp[i]
    f.umulh(hi, m, rn)
    f.cmp(t0, 1)                        # carry of t0 + lo(m_i N_0) = 0 mod B: t0 != 0
    f.adcs(t0, t1, hi)
    f.adc(t1, t2, XZR)
    f.mov(t2, XZR)
    f.add(bp, bp, 8)
    f.add(np_, np_, 8)
    f.add(i, i, 1)
    f.cmp(i, n)
    f.b_ne(lo_top)

    # columns n .. 2n-2: j from i-n+1 (ai, mi) to n-1 (b and N from their top limb)
    last = f.new_label("col_last")
    ai, mi, c = f.gpr("ai"), f.gpr("mi"), f.gpr("c")
    f.sub(bp, bp, 8)
    f.sub(np_, np_, 8)
    f.add(ai, ap, 8)
    f.add(mi, rp, 8)
    f.subs(c, n, 2)                     # steps before the last one of column n
    f.b_lo(last)
    hi_top = f.new_label("col_hi")
    f.bind(hi_top)
    f.mov(pa, ai)
    f.mov(pb, bp)
    f.mov(pm, mi)
    f.mov(pn, np_)
    first_loads()
    start()
    steps(c, "montmul_hi")
    step(0, loads=False)                # the last step loads nothing (no read past a or rp)
    flush()
    f.str_(t0, mem(mi, -8))             # r_(i-n) -> rp[i-n], over m_(i-n)
    f.mov(t0, t1)
    f.mov(t1, t2)
    f.mov(t2, XZR)
    f.add(ai, ai, 8)
    f.add(mi, mi, 8)
    f.subs(c, c, 1)
    f.b_hs(hi_top)
    f.bind(last)
    f.str_(t0, mem(mi, -8))             # column 2n-1: r_(n-1); top = t1
    top = t1
    f.sub(np_, np_, n, "lsl #3")
    f.add(np_, np_, 8)                  # back to N_0

    # constant time: borrow of t - N, then t -= N & mask, mask = -(top - borrow >= 0)
    f.bind(final)                       # (squaring: np_ never moved, top in t1 as well)
    x, y, mask = f.gpr("x"), f.gpr("y"), f.gpr("mask")
    for sub in (False, True):
        f.mov(pm, rp)
        f.mov(pn, np_)
        f.mov(cnt, n)
        f.cmp(XZR, XZR)                 # C = 1: no borrow in
        loop = f.new_label("subtract" if sub else "borrow")
        f.bind(loop)
        f.ldr(y, post(pn, 8))
        if sub:
            f.ldr(x, mem(pm))
            f.and_(y, y, mask)
            f.sbcs(x, x, y)
            f.str_(x, post(pm, 8))
        else:
            f.ldr(x, post(pm, 8))
            f.sbcs(XZR, x, y)
        f.sub(cnt, cnt, 1)
        f.cbnz(cnt, loop)
        if not sub:
            f.sbcs(XZR, top, XZR)       # top - borrow: 1 or 0 subtract, -1 keep
            f.csetm(mask, "pl")
    f.bind(done)
    f.ret()
    return f.finalize()


VARIANTS = [
    Variant("ifma", "x86_64", build_ifma, x86_ifma_mont.PARAMS,
            "Radix 2^52 almost Montgomery multiplication (x86_ifma_mont): b shifted by\n"
            "52D - 64n bits, one digit of b per iteration into V zmm accumulators with\n"
            "VPMADD52LUQ/HUQ and a one-digit VALIGNQ shift, digit 0 exact in a scalar; packed\n"
            "back to limbs, constant-time final subtraction. Other sizes jump to adx.\n"),
    Variant("adx", "x86_64", build_adx, ADX_PARAMS,
            "CIOS: per limb b_i one MULX/ADCX/ADOX row of a into the accumulator (rp), then\n"
            "m = t0 n0inv and one row of N stored a limb lower (x86_rows); up to small_max\n"
            "limbs unrolled with the accumulator in registers; ap == bp and sqr_min <= n <=\n"
            "128: a^2 by mpn_sqr's squaring into a stack buffer, then REDC rows (3/4 of the\n"
            "products); redc_rows = K dividing n: REDC K rows per pass with a K-limb window\n"
            "in registers, and a b the same way from group_mul_min limbs; constant-time\n"
            "final subtraction.",
            unmodelled={"ahead": ADX_CHAINS}),
    Variant("a64", "aarch64", build_a64, A64_PARAMS,
            "Product scanning (Comba) as HotSpot's MontgomeryMultiplyGenerator: per column a\n"
            "software-pipelined loop of steps a_j b_(i-j), m_j N_(i-j) (mul/umulh; the next\n"
            "step's operands loaded meanwhile, never past an array; adds/adcs/adc into\n"
            "t2:t1:t0), entered mid-body for the step count mod unroll; m_i = t0 n0inv with\n"
            "only umulh(m_i, N_0); m kept in rp, overwritten by the result column by column;\n"
            "constant-time final subtraction. ap == bp and n >= sqr_min: squaring columns,\n"
            "steps of a_j a_(i-j) (summed once, doubled with extr) and the pair m_j N_(i-j),\n"
            "m_(i-j) N_j, the middle a_h^2, m_h N_h once: 3/4 of the multiplies."),
]
