"""x86-64 AVX-512 IFMA multiplication core for mpn_mul: {rp, an+bn} = {ap,an} * {bp,bn} in
radix 2^52 (the squaring kernel x86_ifma_sqr without the symmetry; its helpers are reused).

Digits. a = sum_t a_t 2^(64t) (an limbs) is re-cut into ma = ceil(64an/52) digits of 52 bits
x_p = bits [52p, 52p+52) of a, b (bn limbs) into mb = ceil(64bn/52) digits y_i, both on the
stack (64-byte aligned blocks of 8 digits, zero digits before and after), by
x86_ifma_sqr.to_digits (byte-masked 52-byte loads, VPERMB, VPSRLVQ, AND 2^52-1):

    b:  | 0 x 8 | y_0 .. y_7 | y_8 .. | ... y_(mb-1) 0 .. | 0 x 8 |
    a:  | 0 x (R+8) | x_0 .. x_7 | x_8 .. | ... x_(ma-1) 0 .. | 0 x (R+8) |

Products. With lo(x, y) = (x y) mod 2^52 and hi(x, y) = floor(x y / 2^52) (what VPMADD52LUQ
and VPMADD52HUQ add to a 64-bit lane), x y = lo + 2^52 hi, so

    a b = sum_p F_p 2^(52p),   F_p = sum_(i+j=p) lo(y_i, x_j) + sum_(i+j+1=p) hi(y_i, x_j)

Output block k is the zmm of positions 8k .. 8k+7. A *window* W_w is the zmm of the digits
x_w .. x_(w+7) of a (an unaligned load); with the digit y_i of b broadcast ({1to8}):

    block k, lane l = position 8k+l                  W_w = | x_w | x_w+1 | ... | x_w+7 |
      L_k += lo( y_(8k-w)   {1to8}, W_w )   lane l: (8k-w)   + (w+l)     = 8k+l
      H_k += hi( y_(8k-w-1) {1to8}, W_w )   lane l: (8k-w-1) + (w+l) + 1 = 8k+l

so block k needs the windows w in [8k - mb, 8k] (rows i = 8k - w in [0, mb]: the lo half of
row mb and the hi half of row 0 read the zero digits y_mb, y_-1) that meet a's digits,
w in [-7, ma-1]; each pair (i, j) lands exactly once, at w = 8k - i with j - w = l. No masks:
unlike the square every pair counts, and rows or windows just outside the operands read the
zero padding, so a range may be run over generously as long as no (block, window) pair is
visited twice. F_k = L_k + H_k.

Schedule. Groups of r = min(left, G) consecutive blocks k0 .. k0+r-1 (G = min(`blocks`,
floor((mb+1)/8) + 1), chosen at run time, so that the two ramps below never overlap); each
block has two accumulators (L, H) and one window feeds all blocks of the group (2r IFMAs per
load; the broadcast digits are memory operands). With R = 8(r-1), block b of the group takes
the windows 8(k0+b) - mb .. 8(k0+b):

    ramp in    w = 8k0-mb .. 8k0-mb+R-1   straight-line, block b from the (8b)-th window on
    steady     w = .. min(8k0, ma-1)       a loop, all r blocks, one window an iteration
    ramp out   w = 8k0+1 .. 8k0+R          straight-line, block b up to the (8b)-th window

    (window)  8k0-mb          8k0-mb+R                     8k0+1          8k0+R
    block 0   |=================================================|
    block 1   .   8  |===============================================|  8
    block 2   .     16     |===============================================| 16
              ramp in     steady                                  ramp out

IFMA latency is 4 cycles at 2 a cycle, so 8 chains must be in flight: where a ramp window
feeds fewer than 4 blocks it goes to copy t mod ceil(4/active) of their accumulators, and
groups of r < 4 blocks run the loop two windows an iteration into two accumulator sets (an
odd count peels one window); the copies are added in after the ramp or the loop.

A ramp that lies wholly outside a's digits is skipped (ramp in when 8k0-mb+R <= -7: the loop
starts at w = -7, every row it reads <= mb; ramp out when 8k0+1 >= ma: the loop ends at
ma-1); a ramp run partly outside reads the zero padding around a (R+7 digits each side).
The loop count min(8k0+1, ma) - (its start) may be negative when the ramp in ran past ma
(then the ramp out is skipped too): nothing is run twice. The ramps do not overlap because
R <= mb+1 (the choice of G).

Bounds. Lane p of L_k + H_k sums at most min(ma, mb) = mb lo terms and mb hi terms, each
< 2^52 (zero padding adds zeros), so F < 2 mb 2^52; mb <= ceil(64 ifma_max / 52) = 158 at
ifma_max = 128 limbs gives F < 2^61, and any mb <= 2047 keeps F < 2^64 - 2^52 and the carry
F >> 52 < 2^12, which the normalisation (x86_ifma_sqr.finish_block) assumes; ifma_max is
checked against that, and against a 4 KiB frame, at generation time.

Normalisation and packing (x86_ifma_sqr.finish_block), per block in ascending order: carry
F >> 52 one lane up (the previous block's lane 7 into lane 0), the rare lanes >= 2^52 - 1
rippled out of line, two digits to 13 bytes by VPERMB, 52 bytes stored at rp + 52k by a byte
mask (the last block only up to rp[an+bn-1]; nothing is written past it).

Sizes. bn < ifma_min or an > ifma_max go to the scalar adx variant before the frame is
built (mpn_mul.py, Function.tail_call_outside); so bn == 0 never gets here.

BE words (multiply(be=True), bi_multiply_to_len's ifma variant): the operands and the
product are java.math.BigInteger magnitudes, an, bn counted in words; the digits are read
and the product written through x86_ifma_sqr.be_reverse's 52-byte blocks, the rest is the
same.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, ZMMRegister, KRegister, LocalVariable,
                            MOV, LEA, ADD, SUB, SHR, SHL, AND, XOR, CMP, TEST, DEC, CMOVA, CMOVB,
                            CMOVG, JZ, JNZ, JE, JGE, JLE, JMP, LABEL, KMOVB, KMOVQ, VMOVDQU64,
                            VMOVDQA64, VPBROADCASTQ, VPADDQ, VPMADD52LUQ, VPMADD52HUQ, qword,
                            k6)

from ..kernel import Param
from .x86_ifma_sqr import (M52, _div13, unpack_consts, pack_index, to_digits, finish_block,
                           be_reverse)

PARAMS = {
    "ifma_min": Param(12, (8, 10, 12, 14, 16, 20, 24),
                      "from this many limbs of b (the shorter operand) on the IFMA path "
                      "(below: the scalar adx variant)",
                      kind="size", sizes=(8, 10, 12, 14, 16, 20, 24)),
    "ifma_max": Param(128, (64, 128, 160),
                      "up to this many limbs of a the IFMA path (above: scalar); sizes the "
                      "stack", kind="size", sizes=(64, 65, 128, 129, 160, 161)),
    "blocks": Param(4, (2, 3, 4, 5, 6), "output blocks per group (two zmm accumulators "
                    "each; one window load feeds 2 x blocks IFMAs)"),
}


def _digits(n):
    return -(-64 * n // 52)


def _frame(p):
    """(qmax, pad): digit blocks of an operand of ifma_max limbs, zero digits around a."""
    qmax = -(-2 * p.ifma_max // 13)
    pad = 8 * (p.blocks - 1) + 8
    return qmax, pad


def _frame_bytes(p):
    qmax, pad = _frame(p)
    # b: pad block, qmax blocks, pad block; a: pad, qmax blocks, pad; pack index; alignment
    return 64 * (qmax + 2) + 8 * pad + 64 * qmax + 8 * pad + 64 + 64


def _check(p):
    mb = _digits(p.ifma_max)
    # lanes: L + H < 2 mb 2^52 must stay below 2^64 - 2^52 (see the docstring)
    if (2 * mb + 1) << 52 > 1 << 64:
        raise ValueError("ifma_max = %d: lane sums could reach 2^64" % p.ifma_max)
    if _digits(p.ifma_min) < 8:
        raise ValueError("ifma_min below one block of 8 digits")
    if _frame_bytes(p) > 4096:
        raise ValueError("stack frame of %d bytes would need stack probes" % _frame_bytes(p))


class _Ctx:
    pass


def multiply(f, rp, ap, an, bp, bn, p, be=False):
    """The kernel body for ifma_min <= bn <= an <= ifma_max (the caller sends other shapes
    elsewhere before the frame). Clobbers the argument registers. be: the operands and the
    product are BE words (java.math.BigInteger magnitudes; an, bn in words, the product
    an + bn words; x86_ifma_sqr.be_reverse) instead of little-endian limbs."""
    _check(p)
    c = _Ctx()
    c.cold = []                                     # out-of-line code, emitted at the end
    qmax, pad = _frame(p)
    c.offa = 64 * (qmax + 1) + 8 * pad              # &x_0 - &y_0
    buf = LocalVariable(_frame_bytes(p), 16)
    pidx_mem = GeneralPurposeRegister64()
    base = GeneralPurposeRegister64()
    LEA(pidx_mem, buf)
    LEA(base, [pidx_mem + 64 + 63 + 64])
    AND(base, -64)                                  # &y_0, 64-byte aligned
    c.base = base

    # ---- constants --------------------------------------------------------------------
    t = GeneralPurposeRegister64()
    pack_index(pidx_mem, t)
    c.m52 = ZMMRegister()
    MOV(t, M52)
    VPBROADCASTQ(c.m52, t)
    c.zero = ZMMRegister()
    XOR(t.as_dword, t.as_dword)
    VPBROADCASTQ(c.zero, t)
    cidx, csh = unpack_consts(c.zero)
    c.rev = be_reverse() if be else None

    # ---- digits of b, then of a, and the zero padding ----------------------------------
    pdb = to_digits(f, bp, bn, base, cidx, csh, c.m52, c.rev)
    VMOVDQA64([base - 64], c.zero)
    VMOVDQA64([pdb], c.zero)
    abase = GeneralPurposeRegister64()
    LEA(abase, [base + c.offa])
    pda = to_digits(f, ap, an, abase, cidx, csh, c.m52, c.rev)
    for j in range(1, pad // 8 + 1):
        VMOVDQA64([base + c.offa - 64 * j], c.zero)
    for j in range(pad // 8):
        VMOVDQA64([pda + 64 * j], c.zero)

    # ---- loop-invariant state ---------------------------------------------------------
    c.pidx = ZMMRegister()
    VMOVDQU64(c.pidx, [pidx_mem])
    c.keven = KRegister()
    MOV(t.as_dword, 0x55)
    KMOVB(c.keven, t.as_dword)
    c.kfull = k6                                    # (memory-operand masks must be physical)
    MOV(t, (1 << 52) - 1)
    KMOVQ(c.kfull, t)
    c.ma, c.mb = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    unit = 3 if be else 4                           # digits = (2^unit units + 12) div 13
    MOV(c.ma, an)                                   # ma = (16 an + 12) div 13 digits
    SHL(c.ma, unit)                                 # (BE words: (8 an + 12) div 13)
    ADD(c.ma, 12)
    _div13(c.ma, c.ma)
    MOV(c.mb, bn)
    SHL(c.mb, unit)
    ADD(c.mb, 12)
    _div13(c.mb, c.mb)
    c.orem = GeneralPurposeRegister64()             # output bytes left: 8 (an + bn) - 52k
    LEA(c.orem, [an + bn * 1])                      # (BE words: 4 (an + bn) - 52k)
    c.left = GeneralPurposeRegister64()             # K = (2 (an + bn) + 12) div 13 blocks
    if be:                                          # (BE words: (an + bn + 12) div 13)
        LEA(c.left, [c.orem + 12])
    else:
        LEA(c.left, [c.orem * 2 + 12])
    _div13(c.left, c.left)
    SHL(c.orem, 2 if be else 3)
    if be:
        LEA(rp, [rp + c.orem * 1 - 52])             # the lowest 13 words' slot
    c.rpp = rp
    c.cin = GeneralPurposeRegister64()
    XOR(c.cin.as_dword, c.cin.as_dword)
    c.cprev = ZMMRegister()
    VMOVDQA64(c.cprev, c.zero)
    c.q8 = GeneralPurposeRegister64()               # 8 k0
    XOR(c.q8.as_dword, c.q8.as_dword)
    g = GeneralPurposeRegister64()                  # G = min(blocks, (mb + 1) div 8 + 1)
    LEA(g, [c.mb + 1])
    SHR(g, 3)
    ADD(g, 1)
    MOV(t, p.blocks)
    CMP(g, t)
    CMOVA(g, t)
    c.end = f.new_label("ifma_done")

    # ---- groups: r = min(left, G) blocks each -------------------------------------------
    top = f.new_label("groups")
    entries = {r: f.new_label("group%d" % r) for r in range(1, p.blocks + 1)}
    LABEL(top)
    r_ = GeneralPurposeRegister64()
    MOV(r_, g)
    CMP(c.left, r_)
    CMOVB(r_, c.left)
    for r in range(p.blocks, 1, -1):
        CMP(r_, r)
        JE(entries[r])
    for r in range(1, p.blocks + 1):
        LABEL(entries[r])
        _group(f, c, r)
        SUB(c.left, r)
        JNZ(top)
        JMP(c.end)
    for emit in c.cold:
        emit()
    LABEL(c.end)


def _group(f, c, r):
    """Blocks k0 .. k0+r-1 (k0 = q8/8): accumulate, finish, store; q8 += 8r."""
    R = 8 * (r - 1)
    L = [ZMMRegister() for _ in range(r)]
    H = [ZMMRegister() for _ in range(r)]
    for z in L + H:
        VMOVDQA64(z, c.zero)
    w, wp, ip, cnt = (GeneralPurposeRegister64() for _ in range(4))

    def window(woff, rows, acc=lambda b: (L[b], H[b])):
        """W = x_(w+woff) ..; rows: (block, byte offset of its y row from ip)."""
        W = ZMMRegister()
        VMOVDQU64(W, [wp + woff])
        for b, ioff in rows:
            lo, hi = acc(b)
            VPMADD52LUQ(lo, W, qword.to8[ip + ioff])
            VPMADD52HUQ(hi, W, qword.to8[ip + ioff - 8])

    def ramp(rows_of_t):
        """Straight-line windows t = 0, 1, ..: rows_of_t[t] as in window(). While fewer than
        4 blocks take a window, their (L, H) chains alone cannot keep two IFMAs a cycle in
        flight (latency 4): window t then goes to copy t mod ceil(4/active) of each
        accumulator, the copies added in at the end."""
        extra = {}

        def copy(b, k):
            if k == 0:
                return L[b], H[b]
            if (b, k) not in extra:
                pair = ZMMRegister(), ZMMRegister()
                for z in pair:
                    VMOVDQA64(z, c.zero)
                extra[(b, k)] = pair
            return extra[(b, k)]
        for t, rows in enumerate(rows_of_t):
            ncopy = -(-4 // len(rows)) if rows else 1
            window(8 * t, rows, lambda b: copy(b, t % ncopy))
        for (b, k), (lo, hi) in sorted(extra.items()):
            VPADDQ(L[b], L[b], lo)
            VPADDQ(H[b], H[b], hi)

    f.comment("group of %d blocks: ramp in" % r)
    skip_in, steady = f.new_label("ramp_in_skip"), f.new_label("steady_start")
    MOV(w, c.q8)
    SUB(w, c.mb)                                    # w = 8k0 - mb
    CMP(w, -7 - R)
    JLE(skip_in)                                    # the ramp would meet no digit of a
    if R:
        LEA(wp, [c.base + w * 8 + c.offa])
        LEA(ip, [c.base + c.mb * 8])                # row mb of block 0
        # block b joins at t = 8b (row mb)
        ramp([[(b, 8 * (8 * b - t)) for b in range(r) if 8 * b <= t] for t in range(R)])
        ADD(w, R)
    JMP(steady)
    LABEL(skip_in)
    MOV(w, -7)
    LABEL(steady)
    LEA(wp, [c.base + w * 8 + c.offa])              # &x_w
    MOV(ip, c.q8)
    SUB(ip, w)
    LEA(ip, [c.base + ip * 8])                      # &y_(8k0 - w), block 0's row
    LEA(cnt, [c.q8 + 1])                            # end: min(8k0 + 1, ma)
    CMP(cnt, c.ma)
    CMOVG(cnt, c.ma)
    SUB(cnt, w)
    skip, loop = f.new_label("steady_skip"), f.new_label("steady")
    JLE(skip)
    rows = [(b, 64 * b) for b in range(r)]
    if r >= 4:
        LABEL(loop)
        f.mca_begin("steady products=%d" % (8 * r))     # 52x52-bit digit products
        window(0, rows)
        ADD(wp, 8)
        SUB(ip, 8)
        DEC(cnt)
        JNZ(loop)
        f.mca_end()
    else:
        # fewer than 8 chains: two windows an iteration into two sets of accumulators (an
        # odd count peels one window first)
        even = f.new_label("steady_even")
        TEST(cnt, 1)
        JZ(even)
        window(0, rows)
        ADD(wp, 8)
        SUB(ip, 8)
        LABEL(even)
        SHR(cnt, 1)
        JZ(skip)
        L2 = [ZMMRegister() for _ in range(r)]
        H2 = [ZMMRegister() for _ in range(r)]
        for z in L2 + H2:
            VMOVDQA64(z, c.zero)
        LABEL(loop)
        f.mca_begin("steady products=%d" % (16 * r))
        window(0, rows)
        window(8, [(b, ioff - 8) for b, ioff in rows], lambda b: (L2[b], H2[b]))
        ADD(wp, 16)
        SUB(ip, 16)
        DEC(cnt)
        JNZ(loop)
        f.mca_end()
        for b in range(r):
            VPADDQ(L[b], L[b], L2[b])
            VPADDQ(H[b], H[b], H2[b])
    LABEL(skip)
    if R:
        f.comment("group of %d blocks: ramp out" % r)
        done = f.new_label("ramp_out_skip")
        LEA(cnt, [c.q8 + 1])
        CMP(cnt, c.ma)
        JGE(done)                                   # windows 8k0+1.. hold no digit of a
        # wp: x_(8k0+1), ip: y_-1; block b stays while t < 8b (row 8b-1-t >= 0)
        ramp([[(b, 64 * b - 8 * t) for b in range(r) if t + 1 <= 8 * b] for t in range(R)])
        LABEL(done)

    f.comment("group of %d blocks: finish" % r)
    cprev = c.cprev
    for b in range(r):
        VPADDQ(L[b], L[b], H[b])
        cprev = finish_block(f, c, L[b], cprev)
    VMOVDQA64(c.cprev, cprev)
    ADD(c.q8, 8 * r)
