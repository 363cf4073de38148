"""x86-64 AVX-512 IFMA squaring core for mpn_sqr: {rp, 2n} = {ap, n}^2 in radix 2^52.

Digits. a = sum_t a_t 2^(64t) (n limbs) is re-cut into m = ceil(64n/52) digits of 52 bits,
d_p = bits [52p, 52p+52) of a, on the stack (64-byte aligned, zero digits before and after).
Eight digits come from 52 bytes: a byte-masked 64-byte load at ap + 52q (never past
ap[n-1]), VPERMB moves bytes floor(6.5l) .. +7 into qword l, VPSRLVQ by 0/4, AND 2^52-1.

Products. With lo(x, y) = (x y) mod 2^52 and hi(x, y) = floor(x y / 2^52) (what VPMADD52LUQ
and VPMADD52HUQ add to a 64-bit lane), x y = lo + 2^52 hi, so

    a^2 = sum_p F_p 2^(52p),   F_p = 2 T_p + S_p,
    T_p = sum_(i<j, i+j=p) lo(d_i, d_j) + sum_(i<j, i+j+1=p) hi(d_i, d_j)       (triangle)
    S_p = lo(d_i, d_i) if p = 2i,  hi(d_i, d_i) if p = 2i+1                    (squares)

Output block k is the zmm of positions 8k .. 8k+7. A *window* W_w is the zmm of digits
d_w .. d_(w+7); it meets every block through a broadcast digit ({1to8}, an 8-byte load):

    block k, lane l = position 8k+l                  W_w = | d_w | d_w+1 | ... | d_w+7 |
      L_k += lo( d_(8k-w)   {1to8}, W_w )   lane l: (8k-w)   + (w+l)     = 8k+l
      H_k += hi( d_(8k-w-1) {1to8}, W_w )   lane l: (8k-w-1) + (w+l) + 1 = 8k+l

    w = 4k-3+s, s = 0, 1, 2: only lanes l >= 6-2s have j = w+l >= i (lo) / > i (hi):
      k-masks 0xC0, 0xF0, 0xFC, merge-masked; w >= 4k: all lanes. Block k needs
      w in [4k-3, min(8k, m-1)]: w > 8k means a row i < 0, w >= m a window of zeros.
    The lo masks keep the diagonal lane j = i, so L_k holds lo(d_i, d_i) at 2i once:
      F = 2 (L + H) + Sx,  Sx = [-lo(d^2), hi(d^2)] of d_4k .. d_4k+3 interleaved
      (two IFMAs on the aligned digits d_8j .. d_8j+7 and two VPERMT2Q per block pair).

Every pair i < j lands exactly once: lo at w = 8k - i in [4k-3, min(8k, m-1)], hi at
w = 8k - i - 1 in [4k-3, 8k-1]; digits at i >= m (and the row i = -1 of the hi half)
read the zero padding, so the ranges may be run over generously.

Schedule. Each block has two accumulators (L, H), one IFMA per window each (4-cycle
latency, independent chains across blocks).
  first group: blocks 0 .. first-1 as straight-line code, windows w = -3 .. 8(first-1) in
    order, leaving once w >= m; block b takes exactly w in [4b-3, 8b]. W_w = VALIGNQ of the
    aligned digit blocks: the digits were just stored, and a load spanning two stores would
    wait until they reach L1 (store forwarding fails; measured ~50 cycles at n = 14).
  later groups (K = ceil(16n/52) > first): `blocks` (B) blocks k0 .. k0+B-1 per iteration,
    windows as unaligned loads: w = 4k0-3 .. 4k0+4B-4 straight-line (block b joins at
    4(k0+b)-3, masked for three windows), then w .. min(8(k0+B-1), m) in a loop of
    `wunroll` windows (the count rounded up: extra windows are zeros); the last group has
    K mod B blocks (its own straight-line code).

Bounds. L_p + H_p sums at most m products of < 2^52, so 2 (L + H) + hi(d^2) < (2m + 1) 2^52
< 2^64 while m <= 2047; `ifma_max` is checked against that (and against a 4 KiB frame) at
generation time.

Normalisation and packing, per block in ascending order (carries across blocks and groups):
    c = F >> 52 (< 2^12), F = (F & M52) + (c one lane up, the previous block's lane 7 in
    lane 0) < 2^52 + 2^12. Lanes >= M52 or a carry in are rare (random data: ~2^-40 per
    lane) and go out of line to the generate/propagate ripple: g = F > M52, p = F == M52,
    x = ((g << 1) + cin + p) ^ p, lane l gets +1 where bit l of x is set, cin' = x >> 8,
    F = (F + x) & M52 (OpenSSL rsaz-avx512's trick).
    Two digits make 13 bytes: [F0 | F1 << 52, F1 >> 12] per 128-bit lane, VPERMB closes the
    3-byte gaps, a byte-masked store puts 52 bytes at rp + 52k (the last block only up to
    rp[2n-1]; nothing is written past it).

Outside [ifma_min, ifma_max] limbs the kernel jumps to the scalar adx variant before building
its frame (mpn_sqr.py, Function.tail_call_outside).
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, ZMMRegister, XMMRegister, KRegister,
                            LocalVariable, MOV, LEA, ADD, SUB, SHR, SHL, AND, OR, XOR, CMP, TEST,
                            DEC, IMUL, CMOVB, CMOVG, BZHI, SHLX, JZ, JNZ, JB, JG, JLE, JMP, LABEL,
                            KMOVB, KMOVQ, VMOVQ, VMOVDQU64, VMOVDQA64, VMOVDQU8,
                            VPBROADCASTQ, VPMOVZXBQ, VPSHUFB, VPADDB, VPUNPCKLQDQ, VPUNPCKHQDQ,
                            VPERMB, VPERMD, VPERMT2Q, VPSRLVQ, VPANDQ, VPORQ, VPADDQ, VPSUBQ,
                            VPSRLQ, VPSLLQ, VALIGNQ, VPCMPUQ, VPCMPEQQ, VPMOVM2Q,
                            VPMADD52LUQ, VPMADD52HUQ, qword, zword, k6, k7)

from ..kernel import Param

M52 = (1 << 52) - 1
MAGIC13 = 0x4EC4EC4F        # floor(x / 13) = (x * MAGIC13) >> 34 for 0 <= x < 2^32

PARAMS = {
    "ifma_min": Param(15, (8, 10, 12, 13, 14, 15, 16, 17, 18, 20, 24, 32),
                      "from this many limbs on the IFMA path (below: the scalar adx core)",
                      kind="size", sizes=(8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 24, 32)),
    "ifma_max": Param(256, (64, 128, 256),
                      "up to this many limbs the IFMA path (above: scalar); sizes the stack",
                      kind="size", sizes=(64, 65, 100, 128, 129, 200, 256, 257)),
    "first": Param(8, (2, 4, 6, 8),
                   "output blocks of the first group: straight-line code, every window and mask "
                   "fixed at generation time (two zmm accumulators per block)",
                   kind="size", sizes=(16, 20, 24, 32, 40, 48, 64, 96)),
    "blocks": Param(4, (2, 4, 6, 8), "output blocks per later group (two zmm accumulators each)"),
    "wunroll": Param(2, (1, 2, 4), "windows per iteration of the unmasked group loop"),
}


def _div13(dst, src):
    """dst = src div 13 (src < 2^32)."""
    IMUL(dst, src, MAGIC13)
    SHR(dst, 34)


def _const_bytes(reg, values):
    """zmm reg = the 8 small byte values zero-extended to qwords."""
    t = GeneralPurposeRegister64()
    x = XMMRegister()
    MOV(t, sum(v << (8 * i) for i, v in enumerate(values)))
    VMOVQ(x, t)
    VPMOVZXBQ(reg, x)


def unpack_consts(zero):
    """(cidx, csh): the VPERMB index and VPSRLVQ counts that cut 52 bytes into 8 digits of
    52 bits (qword l <- bytes floor(13l/2) + 0..7, shifted right by 0 or 4). zero: a zmm of
    zeros."""
    t = GeneralPurposeRegister64()
    cidx, rep, step, csh = ZMMRegister(), ZMMRegister(), ZMMRegister(), ZMMRegister()
    _const_bytes(cidx, [(13 * l) // 2 for l in range(8)])
    MOV(t, 0x0808080808080808)
    VPBROADCASTQ(rep, t)
    VPUNPCKLQDQ(rep, zero, rep)                     # per 128 bits: 8 x 0, 8 x 8
    VPSHUFB(cidx, cidx, rep)                        # the low byte of each qword, 8 times
    MOV(t, 0x0706050403020100)
    VPBROADCASTQ(step, t)
    VPADDB(cidx, cidx, step)
    _const_bytes(csh, [0, 4] * 4)
    return cidx, csh


def pack_index(mem, t):
    """64 bytes at mem = the VPERMB index of pack_block: byte b <- byte 16 floor(b/13) + b
    mod 13 (b < 52). t: a scratch register."""
    pidx = [16 * (b // 13) + b % 13 for b in range(52)] + [0] * 12
    for q in range(8):
        MOV(t, sum(v << (8 * i) for i, v in enumerate(pidx[8 * q:8 * q + 8])))
        MOV([mem + 8 * q], t)


def pack_block(F, pidx, keven):
    """A new zmm whose low 52 bytes are F's 8 digits of 52 bits (each < 2^52), packed: two
    digits make 13 bytes [F0 | F1 << 52, F1 >> 12] per 128-bit lane, VPERMB (pidx from
    pack_index) closes the 3-byte gaps. keven: lanes 0, 2, 4, 6."""
    e, g, r = ZMMRegister(), ZMMRegister(), ZMMRegister()
    VPSLLQ(e, F, 52)
    VPSRLQ(g, F, 12)
    VPUNPCKHQDQ(r, e, g)                            # [F1 << 52, F1 >> 12]
    VPORQ(r(keven), r, F)                           # [F0 | F1 << 52, F1 >> 12]
    VPERMB(r, pidx, r)
    return r


def unpack_block(x, kl, src, cidx, csh, m52, rev=None):
    """zmm x = the 8 digits of 52 bits in the (up to) 52 bytes at src that mask kl loads
    (rev: BE words, the 13 dwords reversed first by VPERMD; see be_reverse)."""
    VMOVDQU8(x(kl.z), src)
    if rev is not None:
        VPERMD(x, rev, x)
    VPERMB(x, cidx, x)
    VPSRLVQ(x, x, csh)
    VPANDQ(x, x, m52)


def be_reverse():
    """BE-word operands (java.math.BigInteger magnitudes: word 0 most significant). 52 bytes
    of the little-endian number are 13 words, which sit in reverse order in memory: the
    chunk of bytes [52q, 52q + 52) is the words w - 13q - 13 .. w - 13q - 1 of a w-word
    array, read (and written) as one 52-byte block at x + 4 (w - 13q - 13) -- below x for
    the last, partial chunk, whose missing words the byte mask leaves out -- with its 13
    dwords reversed by VPERMD. Returns the index zmm: dword j <- dword 12 - j (j < 13)."""
    t = GeneralPurposeRegister64()
    x = XMMRegister()
    rev = ZMMRegister()
    MOV(t, sum(v << (4 * i) for i, v in enumerate([12 - j for j in range(13)] + [13, 14, 15])))
    VMOVQ(x, t)
    VPMOVZXBQ(rev, x)                               # 8 nibble pairs, one per qword
    t2 = ZMMRegister()
    VPSRLQ(t2, rev, 4)                              # the odd dwords' nibble in bits 0..3
    VPSLLQ(t2, t2, 32)
    VPORQ(rev, rev, t2)
    MOV(t, 0x0000000F0000000F)
    m = ZMMRegister()
    VPBROADCASTQ(m, t)
    VPANDQ(rev, rev, m)                             # dword 2l = nibble 2l, 2l+1 = nibble 2l+1
    return rev


class WordsAsLimbs:
    """A BE-word kernel's values for the IFMA cores, which size their frame and check their
    bounds in limbs: ifma_min and ifma_max in words as limbs (ifma_min rounded down: 12
    words, 384 bits, are 8 digits, as 6 limbs are), every other value as it is."""

    def __init__(self, p):
        self._p = p
        self.ifma_min = p.ifma_min // 2
        self.ifma_max = -(-p.ifma_max // 2)

    def __getattr__(self, name):
        return getattr(self._p, name)


def to_digits(f, ap, n, dst, cidx, csh, m52, rev=None):
    """Store the ceil(2n/13) blocks of 8 digits of {ap, n} (n >= 1 limbs) at dst (64-byte
    aligned), 52 bytes of ap a block by byte-masked loads that never read past ap[n-1] (the
    digits above the value are zero). Returns a new register: dst + 64 ceil(2n/13), the end
    of the stored blocks. rev (be_reverse): ap is n BE words instead, ceil(n/13) blocks,
    read from its end down, never below ap[0]."""
    rem, pa_, pd, cnt, ones = (GeneralPurposeRegister64() for _ in range(5))
    MOV(rem, n)
    SHL(rem, 3 if rev is None else 2)               # bytes of a still to read
    if rev is None:
        MOV(pa_, ap)
    else:
        LEA(pa_, [ap + rem * 1 - 52])               # the lowest 13 words' block
    MOV(pd, dst)
    MOV(ones, -1)
    kl = KRegister()
    conv = f.new_label("conv")
    LABEL(conv)
    if rev is None:
        MOV(cnt, 64)
        CMP(rem, 64)
        CMOVB(cnt, rem)
        BZHI(cnt, ones, cnt)
    else:
        # the top min(rem, 52) bytes of the 52-byte block: (2^c - 1) << (52 - c)
        sh = GeneralPurposeRegister64()
        MOV(cnt, 52)
        CMP(rem, 52)
        CMOVB(cnt, rem)
        MOV(sh, 52)
        SUB(sh, cnt)
        BZHI(cnt, ones, cnt)
        SHLX(cnt, cnt, sh)
    KMOVQ(kl, cnt)
    x = ZMMRegister()
    unpack_block(x, kl, [pa_], cidx, csh, m52, rev)  # masked: never outside ap's n units
    VMOVDQA64([pd], x)
    if rev is None:
        ADD(pa_, 52)
    else:
        SUB(pa_, 52)
    ADD(pd, 64)
    SUB(rem, 52)
    JG(conv)
    return pd


def _frame(p):
    B, U = p.blocks, p.wunroll
    qmax = -(-2 * p.ifma_max // 13)          # converted digit blocks for n = ifma_max
    pb = -(-(8 * B + U + 8) // 8) * 8                 # zero digits before d_0
    pa = -(-(U + 8) // 8) * 8 + 8                       # zero digits after the 8Q digits
    return qmax, pb, pa


def _check(p):
    m = -(-64 * p.ifma_max // 52)
    # lanes: 2 (L + H) + S_hi < (2m + 1) 2^52 must stay below 2^64 (see the docstring)
    if (2 * m + 2) << 52 > 1 << 64:
        raise ValueError("ifma_max = %d: lane sums could reach 2^64" % p.ifma_max)
    if p.first % 2 or p.blocks % 2:
        raise ValueError("first and blocks must be even (squares are made per block pair)")
    if p.ifma_min < 8:
        raise ValueError("ifma_min < 8")
    frame = 8 * sum(_frame(p)[1:]) + 64 * _frame(p)[0] + 128
    if frame > 4096:
        raise ValueError("stack frame of %d bytes would need stack probes" % frame)


class _Ctx:
    pass


def square(f, rp, ap, n, p, be=False):
    """The kernel body for ifma_min <= n <= ifma_max (n preserved); the caller sends other
    sizes elsewhere before the frame (Function.tail_call_outside). be: ap is n BE words and
    the square 2n BE words (java.math.BigInteger magnitudes; be_reverse) instead of limbs."""
    _check(p)
    _ifma(f, rp, ap, n, p, be)


def _ifma(f, rp, ap, n, p, be=False):
    c = _Ctx()
    c.cold = []                                     # out-of-line code, emitted at the end
    qmax, pb, pa = _frame(p)
    buf = LocalVariable(8 * (pb + 8 * qmax + pa) + 64 + 64, 16)
    pidx_mem = GeneralPurposeRegister64()
    base = GeneralPurposeRegister64()
    LEA(pidx_mem, buf)
    LEA(base, [pidx_mem + 64 + 63 + 8 * pb])
    AND(base, -64)                                  # &d_0, 64-byte aligned
    c.base = base

    # ---- constants --------------------------------------------------------------------
    t = GeneralPurposeRegister64()
    # PIDX is only needed by the first block's packing, so the store-to-load forwarding
    # stall of eight qword stores read as one zmm is hidden
    pack_index(pidx_mem, t)
    c.m52 = ZMMRegister()
    MOV(t, M52)
    VPBROADCASTQ(c.m52, t)
    c.zero = ZMMRegister()
    XOR(t.as_dword, t.as_dword)
    VPBROADCASTQ(c.zero, t)                         # (VPXORD z,z,z would read z for PeachPy)
    cidx, csh = unpack_consts(c.zero)
    c.rev = be_reverse() if be else None

    # ---- digits: Q = ceil(2n/13) blocks of 8, from 52 bytes each -------------------------
    pd = to_digits(f, ap, n, base, cidx, csh, c.m52, c.rev)
    # zero padding: before d_0, and after the last converted block (pd)
    for j in range(1, pb // 8 + 1):
        VMOVDQA64([base - 64 * j], c.zero)
    for j in range(pa // 8):
        VMOVDQA64([pd + 64 * j], c.zero)

    # ---- loop-invariant state ---------------------------------------------------------
    c.pidx = ZMMRegister()
    VMOVDQU64(c.pidx, [pidx_mem])
    c.idxa, c.idxb = ZMMRegister(), ZMMRegister()
    _const_bytes(c.idxa, [0, 8, 1, 9, 2, 10, 3, 11])
    _const_bytes(c.idxb, [4, 12, 5, 13, 6, 14, 7, 15])
    c.qmask = []
    for s in range(3):                              # lanes >= 6 - 2s
        k = KRegister()
        MOV(t.as_dword, (0xFF << (6 - 2 * s)) & 0xFF)
        KMOVB(k, t.as_dword)
        c.qmask.append(k)
    c.keven = KRegister()
    MOV(t.as_dword, 0x55)
    KMOVB(c.keven, t.as_dword)
    c.kfull = k6                                    # (memory-operand masks must be physical)
    MOV(t, (1 << 52) - 1)
    KMOVQ(c.kfull, t)
    # (BE words: m = (8n + 12) div 13 digits, K = (2n + 12) div 13 blocks, 8n bytes)
    c.m = GeneralPurposeRegister64()                # m = (16n + 12) div 13 digits
    MOV(c.m, n)
    SHL(c.m, 3 if be else 4)
    ADD(c.m, 12)
    _div13(c.m, c.m)
    c.left = GeneralPurposeRegister64()             # K = (4n + 12) div 13 output blocks
    LEA(c.left, [n * (2 if be else 4) + 12])
    _div13(c.left, c.left)
    c.rpp = GeneralPurposeRegister64()
    if not be:
        MOV(c.rpp, rp)
    c.orem = GeneralPurposeRegister64()             # output bytes left: 16n - 52k
    MOV(c.orem, n)
    SHL(c.orem, 3 if be else 4)
    if be:
        LEA(c.rpp, [rp + c.orem * 1 - 52])          # the lowest 13 words' slot
    c.cin = GeneralPurposeRegister64()
    XOR(c.cin.as_dword, c.cin.as_dword)
    c.cprev = ZMMRegister()
    VMOVDQA64(c.cprev, c.zero)
    c.end = f.new_label("ifma_done")

    _first_group(f, c, p)

    B, U = p.blocks, p.wunroll
    c.q4 = GeneralPurposeRegister64()               # 4 k0
    MOV(c.q4, 4 * p.first)
    SUB(c.left, p.first)
    JLE(c.end)
    top = f.new_label("groups")
    tail = f.new_label("tail")
    LABEL(top)
    CMP(c.left, B)
    JB(tail)
    _group(f, c, B, U)
    SUB(c.left, B)
    JMP(top)
    LABEL(tail)
    entries = {r: f.new_label("tail%d" % r) for r in range(1, B)}
    TEST(c.left, c.left)
    JZ(c.end)
    for r in range(1, B - 1):
        CMP(c.left, r)
        JZ(entries[r])
    JMP(entries[B - 1])
    for r in range(1, B):
        LABEL(entries[r])
        _group(f, c, r, U)
        JMP(c.end)
    for emit in c.cold:
        emit()
    LABEL(c.end)


def _first_group(f, c, p):
    """Blocks 0 .. B0-1, everything static: window w = -3 .. 8(B0-1) (stopping once w >= m),
    block b takes w in [4b-3, 8b] (rows i = 8b - w >= 0), masked while w < 4b. Windows are
    built from aligned digit blocks by VALIGNQ: the digits were just stored, and an unaligned
    load spanning two stores would wait for them to reach L1."""
    B0 = p.first
    L = [ZMMRegister() for _ in range(B0)]
    H = [ZMMRegister() for _ in range(B0)]
    for r in L + H:
        VMOVDQA64(r, c.zero)
    fin = f.new_label("first_fin")
    m_min = -(-64 * p.ifma_min // 52)
    blocks_d = {}

    def dblock(q):
        if q not in blocks_d:
            if q < 0:
                blocks_d[q] = c.zero
            else:
                d = ZMMRegister()
                VMOVDQA64(d, [c.base + 64 * q])
                blocks_d[q] = d
        return blocks_d[q]

    f.comment("first group: blocks 0 .. %d, windows -3 .. %d" % (B0 - 1, 8 * (B0 - 1)))
    for w in range(-3, 8 * (B0 - 1) + 1):
        if w >= m_min and (w - m_min) % 2 == 0:
            CMP(c.m, w)
            JLE(fin)                                # windows w >= m hold only zero digits
        qa, r = w // 8, w % 8
        if r == 0:
            W = dblock(qa)
        else:
            W = ZMMRegister()
            VALIGNQ(W, dblock(qa + 1), dblock(qa), r)
        for b in range(B0):
            if not 4 * b - 3 <= w <= 8 * b:
                continue
            s = w - 4 * b + 3
            mk = c.qmask[s] if s < 3 else None
            lo = L[b](mk) if mk is not None else L[b]
            hi = H[b](mk) if mk is not None else H[b]
            i = 8 * b - w
            VPMADD52LUQ(lo, W, qword.to8[c.base + 8 * i])
            VPMADD52HUQ(hi, W, qword.to8[c.base + 8 * i - 8])
    LABEL(fin)
    k_min = -(-4 * p.ifma_min // 13)
    cprev = c.cprev
    for b in range(0, B0, 2):
        if b >= k_min:
            CMP(c.left, b)
            JLE(c.end)
        sa, sb = _squares(c, [c.base + 32 * b])
        cprev = _finish(f, c, L[b], H[b], sa, cprev)
        if b + 1 >= k_min:
            CMP(c.left, b + 1)
            JLE(c.end)
        cprev = _finish(f, c, L[b + 1], H[b + 1], sb, cprev)
    VMOVDQA64(c.cprev, cprev)


def _group(f, c, Bp, U):
    """Blocks k0 .. k0+Bp-1 (k0 = q4/4 >= first, even): accumulate, finish, store;
    q4 += 4 Bp. Windows are unaligned loads (their digits were stored long ago)."""
    L = [ZMMRegister() for _ in range(Bp)]
    H = [ZMMRegister() for _ in range(Bp)]
    for r in L + H:
        VMOVDQA64(r, c.zero)
    wp, ip = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    LEA(wp, [c.base + c.q4 * 8 - 24])               # &d_w,  w = 4k0 - 3
    LEA(ip, [c.base + c.q4 * 8 + 24])               # &d_i,  i = 8k0 - w

    def window(woff, ioff, blocks, masks):
        W = ZMMRegister()
        VMOVDQU64(W, [wp + woff])
        for b in blocks:
            mk = masks.get(b)
            lo = L[b](mk) if mk is not None else L[b]
            hi = H[b](mk) if mk is not None else H[b]
            VPMADD52LUQ(lo, W, qword.to8[ip + ioff + 64 * b])
            VPMADD52HUQ(hi, W, qword.to8[ip + ioff + 64 * b - 8])

    f.comment("group of %d blocks: diagonal windows" % Bp)
    for t in range(4 * Bp):
        blocks = [b for b in range(Bp) if t >= 4 * b]
        masks = {b: c.qmask[t - 4 * b] for b in blocks if t - 4 * b < 3}
        window(8 * t, -8 * t, blocks, masks)
    # unmasked windows w = 4k0+4Bp-3 .. min(8(k0+Bp-1), m), count rounded up to U
    cnt, c2 = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    LEA(cnt, [c.q4 + 4 * Bp - 4])
    MOV(c2, c.m)
    SUB(c2, c.q4)
    if 4 * Bp - 4:
        SUB(c2, 4 * Bp - 4)
    CMP(cnt, c2)
    CMOVG(cnt, c2)
    ADD(wp, 32 * Bp)
    SUB(ip, 32 * Bp)
    skip = f.new_label("steady_skip")
    loop = f.new_label("steady")
    TEST(cnt, cnt)
    JLE(skip)
    if U > 1:
        ADD(cnt, U - 1)
        SHR(cnt, U.bit_length() - 1)
    LABEL(loop)
    f.mca_begin("steady products=%d" % (8 * U * Bp))   # 52x52-bit digit products
    for u in range(U):
        window(8 * u, -8 * u, range(Bp), {})
    ADD(wp, 8 * U)
    SUB(ip, 8 * U)
    DEC(cnt)
    JNZ(loop)
    f.mca_end()
    LABEL(skip)

    f.comment("group of %d blocks: finish" % Bp)
    cprev = c.cprev
    for b in range(0, Bp, 2):
        sa, sb = _squares(c, [c.base + c.q4 * 8 + 32 * b])
        cprev = _finish(f, c, L[b], H[b], sa, cprev)
        if b + 1 < Bp:
            cprev = _finish(f, c, L[b + 1], H[b + 1], sb, cprev)
    VMOVDQA64(c.cprev, cprev)
    ADD(c.q4, 4 * Bp)


def _squares(c, mem):
    """Square corrections of blocks 2j, 2j+1 from the aligned digits d_8j .. d_8j+7 at mem:
    lanes [-lo(d^2), hi(d^2)] of d_8j .. d_8j+3 and of d_8j+4 .. d_8j+7 (the lo mask of the
    diagonal windows already added lo(d_i^2) once to L)."""
    d, lo, hi, sa = ZMMRegister(), ZMMRegister(), ZMMRegister(), ZMMRegister()
    VMOVDQA64(d, mem)
    VMOVDQA64(lo, c.zero)
    VPMADD52LUQ(lo, d, d)
    VMOVDQA64(hi, c.zero)
    VPMADD52HUQ(hi, d, d)
    VPSUBQ(lo, c.zero, lo)
    VMOVDQA64(sa, lo)
    VPERMT2Q(sa, c.idxa, hi)                        # -lo0 hi0 -lo1 hi1 -lo2 hi2 -lo3 hi3
    VPERMT2Q(lo, c.idxb, hi)                        # -lo4 hi4 ... -lo7 hi7
    return sa, lo


def _finish(f, c, L, H, S, cprev):
    """One output block: F = 2 (L + H) + S, normalise (carries from cprev's lane 7 and c.cin),
    pack and store 52 bytes (fewer for the last). Returns this block's carry vector."""
    F = L
    VPADDQ(F, L, H)
    VPADDQ(F, F, F)
    VPADDQ(F, F, S)
    return finish_block(f, c, F, cprev)


def finish_block(f, c, F, cprev):
    """Normalise the output block F (lanes < 2^64 - 2^52: c = F >> 52 < 2^12), with the carries
    of cprev's lane 7 and c.cin, pack it and store 52 bytes at c.rpp (c.orem bytes left; fewer
    for the last block); c.rpp += 52, c.orem -= 52. Uses c.m52, c.pidx, c.keven, c.kfull and
    c.cold (the ripple and the partial store go out of line). F is clobbered. Returns this
    block's carry vector (F >> 52), the next block's cprev. With c.rev (be_reverse) the
    output is BE words: the block's dwords reversed, c.rpp -= 52 (c.rpp: the block's
    52-byte slot, counted down from the end of the words; the last block stores only its top
    c.orem bytes, at or above the array's start)."""
    cy, cs = ZMMRegister(), ZMMRegister()
    VPSRLQ(cy, F, 52)
    VPANDQ(F, F, c.m52)
    VALIGNQ(cs, cy, cprev, 7)                       # lane 0 <- previous block's lane 7
    VPADDQ(F, F, cs)                                # < 2^52 + 2^12
    # lanes >= M52 (or a carry in) need the 0/1 ripple: rare, out of line
    kt, tst = KRegister(), GeneralPurposeRegister64()
    VPCMPUQ(kt, F, c.m52, 5)                        # F >= M52
    KMOVB(tst.as_dword, kt)
    OR(tst, c.cin)
    slow, back = f.new_label("ripple"), f.new_label("ripple_done")
    JNZ(slow)
    LABEL(back)

    def ripple():
        LABEL(slow)
        kg, kp, kc = KRegister(), KRegister(), KRegister()
        g, pr, x = (GeneralPurposeRegister64() for _ in range(3))
        VPCMPUQ(kg, F, c.m52, 6)                    # generate: F > M52
        VPCMPEQQ(kp, F, c.m52)                      # propagate: F == M52
        KMOVB(g.as_dword, kg)
        KMOVB(pr.as_dword, kp)
        LEA(x, [c.cin + g * 2])
        ADD(x, pr)
        XOR(x, pr)                                  # bit l: lane l gets +1, bit 8: carry out
        MOV(c.cin, x)
        SHR(c.cin, 8)
        KMOVB(kc, x.as_dword)
        v = ZMMRegister()
        VPMOVM2Q(v, kc)
        VPSUBQ(F, F, v)
        VPANDQ(F, F, c.m52)
        JMP(back)
    c.cold.append(ripple)
    r = pack_block(F, c.pidx, c.keven)
    rev = c.rev                                     # BE words (be_reverse), else None
    if rev is not None:
        VPERMD(r, rev, r)
    part, stored = f.new_label("part"), f.new_label("stored")
    CMP(c.orem, 52)
    JB(part)
    VMOVDQU8(zword[c.rpp](c.kfull), r)
    LABEL(stored)
    if rev is None:
        ADD(c.rpp, 52)
    else:
        SUB(c.rpp, 52)
    SUB(c.orem, 52)

    def partial():                                  # the last block: fewer than 52 bytes
        LABEL(part)
        t, ones = GeneralPurposeRegister64(), GeneralPurposeRegister64()
        MOV(ones, -1)
        BZHI(t, ones, c.orem)
        if rev is not None:                         # the top orem bytes of the block
            sh = GeneralPurposeRegister64()
            MOV(sh, 52)
            SUB(sh, c.orem)
            SHLX(t, t, sh)
        KMOVQ(k7, t)
        VMOVDQU8(zword[c.rpp](k7), r)
        JMP(stored)
    c.cold.append(partial)
    return cy
