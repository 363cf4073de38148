"""x86-64 AVX-512 bi_mul_add: 16 BE-words per zmm block, lane carries by a one-lane shift.

Window w[0..len) (w[0] most significant, BE-words), in[0..len), k < 2^32. Full blocks of 16
words (one zmm, 64 bytes) are cut from the *start* of the window, so the r = len mod 16 words
left over (the tail) are the least significant ones:

    w:  [ block 0: w[0..16) ][ block 1 ] ... [ block m-1 ][ tail: r words ]
          processed last                        first full    processed first

    block at word b, qword lane i = words (b+2i, b+2i+1); the LE qword load holds
    w[b+2i] + 2^32 w[b+2i+1], the BE digit D_i = 2^32 w[b+2i] + w[b+2i+1] with halves swapped

Products, each < 2^64 since (2^32-1)^2 + (2^32-1) < 2^64 (VPMULUDQ reads the low dword of
every qword lane):

    E_i = in[b+2i]   k + w[b+2i]      VPMULUDQ K, [in];   + zero-masked load of w (k=0x5555)
    O_i = in[b+2i+1] k + w[b+2i+1]    VPMULUDQ K, [in+4]; + VPSRLQ [w], 32

Digit i of the result, with E_8 = lane 0 of the block below (less significant, done before):

    R_i = O_i + V2_i + c_i,   V2_i = 2^32 lo32(E_i) + hi32(E_(i+1))       (one VPERMT2D)

    lane      0                 1                 ...  7
    O         O_0               O_1                    O_7
    V2        lo E_0 | hi E_1   lo E_1 | hi E_2        lo E_7 | hi E_8 (block below)
    T = O + V2 mod 2^64,  G_i = carry out of that add (0/1),
    c_i = carry into lane i from lane i+1 (lane 7: from lane 0 of the block below).

Fast path: c_i = G_(i+1), i.e. Cv = VALIGNQ(Gprev, G, 1) with G = msb of
(O & V2) | ((O | V2) & ~T) (VPTERNLOGQ 0xd4) >> 63, and R = T + Cv. That is exact unless a
carry meets an all-ones lane (T_i = 2^64-1, c_i = 1: the lane wraps to 0 and its own carry
out is lost). The blocks are checked before they are stored, `R < Cv` (VPCMPUQ; with
`unroll` 2 one KORTESTB covers a pair), and a block that wraps (both of a pair) is finished
by the exact path: lanes reversed (VSHUFI64X2 + VPSHUFD) so that significance grows with the
mask bit, g = G mask, p = (T == 2^64-1) mask (g & p = 0), cin = the carry into the block:

    x = 2g + p + cin;  reversed lane j gets +1 where bit j of (x ^ p) is set;  cout = x >> 8

(the generate/propagate identity, checked exhaustively over all g, p, cin); cout goes on as
Gprev = (cout, 0, ..., 0). The stored qword is rot32(R_i) (VPRORQ), BE order again, and the
carry-out word of the window is hi32(E_0) + G_0 of block 0 (< 2^32).

Per block: 2 VPMULUDQ, 1 zero-masked load, 5 VPADDQ/VPTERNLOGQ, 2 VPSRLQ, VPERMT2D, VALIGNQ,
VPCMPUQ, VPRORQ and half a KORTESTB: about 14.5 port-0/5 ops for 16 words.

Memory: a full block's odd-word load reads the 4 bytes after the block, which lie in the
window because the tail (or, without a tail, the first block, which then shifts its own
load instead) is below it. The tail: up to `word_tail` words by single 32-bit IMUL steps,
up to `scalar_tail` words by the adx variant's MULX/ADCX/ADOX row (x86_rows); their carry
word enters as hi32(E_8) of the first block, and in-place calls on one window then meet
64-byte loads with 64-byte stores of the same address (store forwarding; a masked store
never forwards, which costs ~10 cycles of latency per call). Longer tails: one block with
zero-masked VMOVDQU32 loads and a masked store (nothing outside the window is read or
written; a wrap there redoes the tail by the row). Windows below `vec_min` words: with
short_to_mulx a tail call before the frame to the sibling `short_variant` (mulx, or adx with
its straight-line code for short windows); without it the row here, or up to `small_words`
words the 32-bit steps. The row needs as many GPRs as in the adx
variant, so w, in and the block index wait in the red zone meanwhile (one callee-saved
register, rbx, as in adx; no stack frame). Windows has no red zone: the Win64 flavour's form
of the body keeps them in a 24-byte frame (Function.red_zone_slots).
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, ZMMRegister, XMMRegister, KRegister,
                            MOV, LEA, ADD, SUB, SHR, SHL, XOR, AND, CMP, TEST, IMUL, BZHI,
                            JZ, JNZ, JA, JB, JBE, JMP, LABEL, rdx, k7,
                            KMOVB, KMOVW, KORTESTB, VMOVQ, VPINSRQ, VPMOVZXBD, VPBROADCASTQ,
                            VMOVDQU64, VMOVDQU32, VMOVDQA64, VPMULUDQ, VPADDQ, VPSUBQ,
                            VPSRLQ, VPRORQ, VPERMT2D, VPTERNLOGQ, VALIGNQ, VPCMPUQ, VPCMPEQQ,
                            VPTESTMQ, VSHUFI64X2, VPSHUFD, VPXORQ, zword)

from ..kernel import Param
from .x86_rows import Digits, row

PARAMS = {
    "vec_min": Param(16, (16, 20, 24, 32, 48),
                     "from this many words on the vector path (below: the scalar row)",
                     kind="size", sizes=(16, 19, 20, 23, 24, 31, 32, 40, 47, 48, 56)),
    "short_to_mulx": Param(1, (0, 1),
                           "1: windows below vec_min jump to a sibling before the frame "
                           "(short_variant: mulx by default; no frame, no vector setup); "
                           "0: handled here",
                           kind="size", sizes=(1, 2, 3, 5, 8, 12, 15)),
    "short_variant": Param("mulx", ("mulx", "adx"),
                           "the sibling short_to_mulx = 1 jumps to: mulx, or adx (whose own "
                           "small and short_to_mulx then split the short windows)",
                           kind="size", sizes=(1, 2, 3, 5, 8, 12, 15, 16, 20, 24, 31)),
    "scalar_tail": Param(11, (0, 3, 5, 7, 9, 11, 13, 15),
                         "tails (len mod 16) of up to this many words by the scalar row, "
                         "longer ones by a masked vector block",
                         kind="size", sizes=range(65, 80)),
    "small_words": Param(5, (0, 1, 2, 3, 4, 5, 7),
                         "windows of up to this many words by single 32-bit IMUL steps",
                         kind="size", sizes=range(1, 9)),
    "word_tail": Param(7, (0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15),
                       "tails of up to this many words by single 32-bit IMUL steps (no row)",
                       kind="size", sizes=range(65, 80)),
    "unroll": Param(2, (1, 2), "16-word blocks per loop iteration (2: one KORTESTB per pair)"),
    "row_unroll": Param(4, (2, 4, 8), "digits per iteration of the scalar row"),
    "row_ahead": Param(1, (0, 1), "MULX of digit j+ahead among the adds of digit j (row)"),
}

# V2 = VPERMT2D(table 1 = Eprev (the block below), table 2 = E): dword d of V2 <- index
# (0..15: Eprev, 16..31: E). Lane i low dword = hi32(E_(i+1)) = E dword 2i+3 (lane 7: Eprev
# dword 1), high dword = lo32(E_i) = E dword 2i.
V2_INDEX = []
for _i in range(8):
    V2_INDEX += [16 + 2 * _i + 3 if _i < 7 else 1, 16 + 2 * _i]
TERNLOG_CARRY = 0xd4        # msb of (a & b) | ((a | b) & ~c), a = O, b = V2, c = O + V2


def _carry_imm():
    imm = 0
    for n in range(8):
        a, b, c = (n >> 2) & 1, (n >> 1) & 1, n & 1
        if (a & b) | ((a | b) & (1 - c)):
            imm |= 1 << n
    return imm


assert _carry_imm() == TERNLOG_CARRY


def _check_gp_identity(lanes=8):
    """The exact path's identity, for every generate/propagate pattern (g & p = 0) and
    carry-in: bits 0..lanes-1 of ((g << 1) + p + cin) ^ p are the carries into the lanes,
    bit `lanes` the carry out."""
    for cin in (0, 1):
        for n in range(3 ** lanes):
            g = p = 0
            for i in range(lanes):
                d = n // 3 ** i % 3                # 0: kill, 1: generate, 2: propagate
                g |= (d == 1) << i
                p |= (d == 2) << i
            c, carries = cin, 0
            for i in range(lanes):
                carries |= c << i
                c = (g >> i) & 1 | ((p >> i) & 1 & c)
            x = (g << 1) + p + cin
            assert (x ^ p) & ((1 << lanes) - 1) == carries and x >> lanes == c


_check_gp_identity()


class _Ctx:
    pass


def _zmm_bytes(reg, values):
    """reg = 16 small byte values zero-extended to dwords (no RIP-relative constants). Built
    in an xmm register: two 8-byte stack stores read back by one 16-byte load would miss
    store forwarding, and that stall costs more than the two shuffles."""
    lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    x = XMMRegister()
    MOV(lo, sum(v << (8 * i) for i, v in enumerate(values[:8])))
    MOV(hi, sum(v << (8 * i) for i, v in enumerate(values[8:])))
    VMOVQ(x, lo)
    VPINSRQ(x, x, hi, 1)
    VPMOVZXBD(reg, x)


def scalar_words(f, wend, iend, n, cy, p):
    """cy = carry-out of w[end-n..end) += in[end-n..end) * rdx + cy (the adx variant's row:
    word pairs as rotated 64-bit digits walking down memory, an odd top word last).
    wend/iend point one past the last word; n (> 0) and the pointers are preserved."""
    ob, ib, nd = GeneralPurposeRegister64(), GeneralPurposeRegister64(), GeneralPurposeRegister64()
    LEA(ob, [wend - 8])
    LEA(ib, [iend - 8])
    MOV(nd, n)
    SHR(nd, 1)
    skip = f.new_label("pairs_done")
    JZ(skip)
    row(f, Digits(ob, -8, True), Digits(ib, -8, True), nd, "addmul", "adx",
        p.row_unroll, p.row_ahead, cy, ("words", 2))
    LABEL(skip)
    even = f.new_label("even")
    TEST(n, 1)
    JZ(even)
    w_, t = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    MOV(w_.as_dword, [ob + 4])
    MOV(t.as_dword, [ib + 4])
    IMUL(t, rdx)
    ADD(t, w_)
    ADD(t, cy)
    MOV([ob + 4], t.as_dword)
    MOV(cy, t)
    SHR(cy, 32)
    LABEL(even)


def _compute(c, off, first, table1, gprev):
    """Fast path of the block at byte offset `off` from w + 4b (and in + 4b), up to the
    unrotated result D and the wrap mask: returns (E, T, G, D, kw). table1 holds the E of
    the block below and is overwritten by V2; gprev holds its G."""
    wa, ia = c.w + c.b * 4 + off, c.inp + c.b * 4 + off
    E, t, O = ZMMRegister(), ZMMRegister(), ZMMRegister()
    VPMULUDQ(E, c.K, [ia])                        # in[2i] * k (vpmuludq reads low dwords)
    VMOVDQU32(t(c.keven.z), [wa])                 # w[2i], zero-extended
    VPADDQ(E, E, t)                               # E_i = in[2i] k + w[2i]
    if first:
        xo = ZMMRegister()
        VPSRLQ(xo, [ia], 32)                      # stays inside the block
        VPMULUDQ(O, c.K, xo)
    else:
        VPMULUDQ(O, c.K, [ia + 4])                # low dword of lane i = in[2i+1]
    VPSRLQ(t, [wa], 32)                           # w[2i+1]
    VPADDQ(O, O, t)                               # O_i = in[2i+1] k + w[2i+1]
    VPERMT2D(table1, c.idx, E)                    # table1 <- V2
    T, G, Cv, D = ZMMRegister(), ZMMRegister(), ZMMRegister(), ZMMRegister()
    VPADDQ(T, O, table1)
    VPTERNLOGQ(O, table1, T, TERNLOG_CARRY)       # msb = carry out of O + V2
    VPSRLQ(G, O, 63)
    VALIGNQ(Cv, gprev, G, 1)                      # lane i <- G_(i+1), lane 7 <- gprev_0
    VPADDQ(D, T, Cv)
    kw = KRegister()
    VPCMPUQ(kw, D, Cv, 1)                         # D < Cv: a carry met 2^64-1
    return E, T, G, D, kw


def _store(c, off, D):
    VPRORQ(D, D, 32)                              # halves back to BE word order
    VMOVDQU64([c.w + c.b * 4 + off], D)


def _single(c, first):
    """The block at word b: fast path, its exact path queued for out-of-line emission."""
    E, T, G, D, kw = _compute(c, 0, first, c.Eprev, c.Gprev)
    KORTESTB(kw, kw)
    slow = c.f.new_label("exact")
    resume = c.f.new_label("stored")
    JNZ(slow)
    _store(c, 0, D)
    LABEL(resume)
    VMOVDQA64(c.Eprev, E)
    VMOVDQA64(c.Gprev, G)

    def out_of_line():
        LABEL(slow)
        ci = GeneralPurposeRegister64()
        VMOVQ(ci, c.Gprev.as_xmm)                 # carry into the block (lane 0)
        x = _exact(c, 0, T, G, ci)
        VMOVQ(G.as_xmm, x)                        # G = (carry out, 0, ..., 0)
        JMP(resume)
    c.slow.append(out_of_line)


def _pair(c):
    """Blocks at words b-16 (A, the less significant) and b-32 (B): one KORTESTB for both;
    if either wraps, both are finished by the exact path (B's fast carry-in may be stale)."""
    EA, TA, GA, DA, kA = _compute(c, -64, False, c.Eprev, c.Gprev)
    EB, TB, GB, DB, kB = _compute(c, -128, False, EA, GA)
    KORTESTB(kA, kB)
    slow = c.f.new_label("exact")
    resume = c.f.new_label("stored")
    JNZ(slow)
    _store(c, -64, DA)
    _store(c, -128, DB)
    LABEL(resume)
    VMOVDQA64(c.Eprev, EB)
    VMOVDQA64(c.Gprev, GB)

    def out_of_line():
        LABEL(slow)
        ci = GeneralPurposeRegister64()
        VMOVQ(ci, c.Gprev.as_xmm)
        x = _exact(c, -64, TA, GA, ci)
        x = _exact(c, -128, TB, GB, x)
        VMOVQ(GB.as_xmm, x)
        JMP(resume)
    c.slow.append(out_of_line)


def _exact(c, off, T, G, cin):
    """Exact finish of one block (T = O + V2, G its 0/1 carry lanes, cin a GPR 0/1): masks
    in reversed lane order so that significance grows with the bit, then the
    generate/propagate identity; stores and returns the carry out (a new GPR)."""
    t = GeneralPurposeRegister64()
    ones = ZMMRegister()
    MOV(t, -1)
    VPBROADCASTQ(ones, t)
    Tr, Gr = ZMMRegister(), ZMMRegister()
    VSHUFI64X2(Tr, T, T, 0x1b)                    # 128-bit lanes reversed
    VPSHUFD(Tr, Tr, 0x4e)                         # qwords reversed: lane j <- lane 7-j
    VSHUFI64X2(Gr, G, G, 0x1b)
    VPSHUFD(Gr, Gr, 0x4e)
    kg, kp, kc = KRegister(), KRegister(), KRegister()
    VPTESTMQ(kg, Gr, Gr)
    VPCMPEQQ(kp, Tr, ones)
    g, pm, x = (GeneralPurposeRegister64() for _ in range(3))
    KMOVB(g.as_dword, kg)
    KMOVB(pm.as_dword, kp)
    LEA(x, [cin + g * 2])
    ADD(x, pm)
    XOR(x, pm)                                    # bits 0..7: lanes that get +1; bit 8: cout
    KMOVB(kc, x.as_dword)
    VPSUBQ(Tr(kc), Tr, ones)
    R = ZMMRegister()
    VSHUFI64X2(R, Tr, Tr, 0x1b)
    VPSHUFD(R, R, 0x1b)                           # lanes back in order, halves swapped (BE)
    VMOVDQU64([c.w + c.b * 4 + off], R)
    SHR(x, 8)
    return x


def _blocks(c, p, done):
    """Full blocks at words b-16, b-32, ..., 0 (b > 0, a multiple of 16), from the end of
    the window towards w[0]; falls through to `done`."""
    f = c.f
    if p.unroll == 1:
        top = f.new_label("block_loop")
        LABEL(top)
        f.mca_begin("blocks words=16")
        SUB(c.b, 16)
        _single(c, False)
        TEST(c.b, c.b)
        JNZ(top)
        f.mca_end()
    else:
        pairs = f.new_label("pairs")
        TEST(c.b, 16)                             # an odd number of blocks: one alone first
        JZ(pairs)
        SUB(c.b, 16)
        _single(c, False)
        TEST(c.b, c.b)
        JZ(done)
        LABEL(pairs)
        f.mca_begin("blocks words=32")
        _pair(c)
        SUB(c.b, 32)
        JNZ(pairs)
        f.mca_end()
    LABEL(done)


def bi_mul_add(f, w, inp, ln, cy, p, exit_label):
    """Whole body after len == 0 was handled: w = window start, rdx = k, cy = 0. With
    p.short_to_mulx, windows below vec_min never get here (size dispatch before the frame)."""
    c = _Ctx()
    c.f, c.w, c.inp, c.slow = f, w, inp, []
    small = f.new_label("small")
    if not p.short_to_mulx:
        CMP(ln, p.vec_min)
        JB(small)

    # ---- constants ----------------------------------------------------------------------
    t = GeneralPurposeRegister64()
    c.K, c.idx = ZMMRegister(), ZMMRegister()
    VPBROADCASTQ(c.K, rdx)
    _zmm_bytes(c.idx, V2_INDEX)
    c.keven = KRegister()
    MOV(t.as_dword, 0x5555)
    KMOVW(c.keven, t.as_dword)
    c.Eprev, c.Gprev = ZMMRegister(), ZMMRegister()
    wend, iend = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    b = GeneralPurposeRegister64()
    MOV(b, ln)
    AND(b, -16)                                   # words in full blocks (len >= vec_min >= 16)
    c.b = b
    r = GeneralPurposeRegister64()
    MOV(r, ln)
    AND(r, 15)

    # ---- tail: r = len mod 16 words at the end of the window ----------------------------
    blocks = f.new_label("blocks")
    notail = f.new_label("notail")
    JZ(notail)
    stail = f.new_label("scalar_tail")
    vtail = f.new_label("vector_tail")
    wtail = f.new_label("word_tail")
    if p.word_tail:
        CMP(r, p.word_tail)
        JBE(wtail)
    if p.scalar_tail == 0:
        JMP(vtail)
    elif p.scalar_tail < 15:
        CMP(r, p.scalar_tail)
        JA(vtail)
    LABEL(stail)
    # w, inp and b wait in the SysV red zone during the row, which then finds as many free
    # GPRs as in the adx variant (no more callee-saved registers); a leaf may use the red
    # zone without moving rsp, and a frame (sub/add rsp) costs the short windows a cycle.
    # (The Win64 flavour's form of this body gets three slots of a real frame instead.)
    s_w, s_in, s_b = f.red_zone_slots(3)
    MOV(s_w, w)
    MOV(s_in, inp)
    MOV(s_b, b)
    LEA(wend, [w + ln * 4])
    LEA(iend, [inp + ln * 4])
    XOR(cy.as_dword, cy.as_dword)
    scalar_words(f, wend, iend, r, cy, p)
    MOV(w, s_w)
    MOV(inp, s_in)
    MOV(b, s_b)
    SHL(cy, 32)
    VMOVQ(c.Eprev.as_xmm, cy)                     # hi32(E_8) of the first block = carry word
    VPXORQ(c.Gprev, c.K, c.K)                     # (zero idiom; K only names a register)
    JMP(blocks)
    if p.scalar_tail < 15:
        _vector_tail(c, vtail, stail, blocks, r)
    if p.word_tail:
        _word_tail(c, wtail, blocks, r, cy, p.word_tail)
    # ---- full blocks, from the end of the window towards w[0] ---------------------------
    # Without a tail the least significant block is the window's last: its odd-word load
    # must not read the 4 bytes after it, so it shifts its own load (one more op).
    done = f.new_label("blocks_done")
    LABEL(notail)
    VPXORQ(c.Eprev, c.K, c.K)
    VPXORQ(c.Gprev, c.K, c.K)
    SUB(b, 16)
    _single(c, True)
    TEST(b, b)
    JZ(done)
    LABEL(blocks)
    _blocks(c, p, done)
    # carry-out word = hi32(E_0) + G_0 of the last block
    g = GeneralPurposeRegister64()
    VMOVQ(cy, c.Eprev.as_xmm)
    SHR(cy, 32)
    VMOVQ(g, c.Gprev.as_xmm)
    ADD(cy, g)
    JMP(exit_label)

    for emit in c.slow:
        emit()

    if p.short_to_mulx:
        return
    LABEL(small)
    if p.small_words:
        row_path = f.new_label("small_row")
        CMP(ln, p.small_words)
        JA(row_path)
        _word_steps(f, w, inp, ln, cy, p.small_words)
        JMP(exit_label)
        LABEL(row_path)
    wend2, iend2 = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    LEA(wend2, [w + ln * 4])
    LEA(iend2, [inp + ln * 4])
    scalar_words(f, wend2, iend2, ln, cy, p)


def _word_steps(f, wt, it, r, cy, most):
    """cy = carry out of wt[0..r) += it[0..r) * rdx for 1 <= r <= `most`: straight-line
    32-bit steps, least significant first, t = in[j] k + w[j] + cy, w[j] = lo32(t),
    cy = t >> 32 (cy needs no initial value)."""
    done = f.new_label("word_steps_done")
    for j in range(1, most + 1):
        if j > 1:
            CMP(r, j)
            JB(done)
        x, t = GeneralPurposeRegister64(), GeneralPurposeRegister64()
        MOV(x.as_dword, [wt + r * 4 - 4 * j])     # word r-j
        MOV(t.as_dword, [it + r * 4 - 4 * j])
        IMUL(t, rdx)
        ADD(t, x)
        if j > 1:
            ADD(t, cy)
        MOV([wt + r * 4 - 4 * j], t.as_dword)
        MOV(cy, t)
        SHR(cy, 32)
    LABEL(done)


def _word_tail(c, wtail, blocks, r, cy, most):
    """A tail of 1..`most` words by _word_steps; w, in and b stay in their registers."""
    LABEL(wtail)
    wt, it = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    LEA(wt, [c.w + c.b * 4])                      # the tail: wt[0 .. r)
    LEA(it, [c.inp + c.b * 4])
    _word_steps(c.f, wt, it, r, cy, most)
    SHL(cy, 32)
    VMOVQ(c.Eprev.as_xmm, cy)                     # hi32(E_8) of the first block = carry word
    VPXORQ(c.Gprev, c.K, c.K)
    JMP(blocks)


def _vector_tail(c, vtail, stail, blocks, r):
    """The r-word tail (r > scalar_tail) as one masked block at w + 4(len - r): words at
    dwords 0..r-1, zeros after (they act as less significant zero words)."""
    LABEL(vtail)
    wt, it, ones = GeneralPurposeRegister64(), GeneralPurposeRegister64(), GeneralPurposeRegister64()
    LEA(it, [c.inp + c.b * 4])                    # b = len - r here
    LEA(wt, [c.w + c.b * 4])
    MOV(ones, -1)
    BZHI(ones, ones, r)                           # (1 << r) - 1
    kr = KRegister()
    KMOVW(kr, ones.as_dword)
    X, Y, E, O, tt, xo = (ZMMRegister() for _ in range(6))
    VMOVDQU32(X(kr.z), [it])
    VMOVDQU32(Y(kr.z), [wt])
    VPMULUDQ(E, c.K, X)
    VMOVDQU32(tt(c.keven.z), Y)
    VPADDQ(E, E, tt)
    VPSRLQ(xo, X, 32)
    VPMULUDQ(O, c.K, xo)
    VPSRLQ(tt, Y, 32)
    VPADDQ(O, O, tt)
    VPXORQ(c.Eprev, c.K, c.K)
    VPXORQ(c.Gprev, c.K, c.K)
    VPERMT2D(c.Eprev, c.idx, E)                   # V2 with a zero block below
    T, G, Cv, D = (ZMMRegister() for _ in range(4))
    VPADDQ(T, O, c.Eprev)
    VPTERNLOGQ(O, c.Eprev, T, TERNLOG_CARRY)
    VPSRLQ(G, O, 63)
    VALIGNQ(Cv, c.Gprev, G, 1)
    VPADDQ(D, T, Cv)
    kw = KRegister()
    VPCMPUQ(kw, D, Cv, 1)
    KORTESTB(kw, kw)
    JNZ(stail)                                    # rare: redo the tail by the scalar row
    VPRORQ(D, D, 32)
    KMOVW(k7, ones.as_dword)
    VMOVDQU32(zword[wt](k7), D)
    VMOVDQA64(c.Eprev, E)
    VMOVDQA64(c.Gprev, G)
    JMP(blocks)


def build(symbol, p):
    from ..x86 import function as x86
    from .bi_mul_add import SPEC
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    if p.short_to_mulx:
        f.tail_call_outside(4, p.vec_min, None, p.sibling(p.short_variant))
    with f:
        out, out_len, inp, offset, ln, k = f.load_args()
        cy = GeneralPurposeRegister64()
        XOR(cy.as_dword, cy.as_dword)
        TEST(ln, ln)
        JZ(f.exit_label)
        MOV(rdx.as_dword, k.as_dword)             # zero-extends: k's upper half ignored
        w = GeneralPurposeRegister64()
        SUB(out_len, offset)
        SUB(out_len, ln)
        LEA(w, [out + out_len * 4])               # window start w[0]
        bi_mul_add(f, w, inp, ln, cy, p, f.exit_label)
        f.ret(cy.as_dword)
    return f.finalize()
