"""bi_multiply_to_len: java.math.BigInteger.implMultiplyToLen on BE-words (KERNELS.md §1.2).

    z[0..xlen+ylen) = x[0..xlen) * y[0..ylen), all BE-words (index 0 most significant)

Math. The operands are swapped first if xlen > ylen (the product commutes), so y is the
longer one: it is the row, x gives the multipliers. In 64-bit digits (B = 2^64), with
ox = xlen & 1, oy = ylen & 1, nx = ceil(xlen/2), ny = ceil(ylen/2):

    X' = x * 2^(32 ox) = sum a_i B^i  (i < nx)     Y' = y * 2^(32 oy) = sum b_k B^k  (k < ny)
    Z' = X' Y' = x y * 2^(32 (ox+oy)),  nx+ny digits c_0 .. c_(nx+ny-1)

    row 0      c[0 .. ny-1]  = Y' * a_0          mul_1 row,    carry -> c[ny]
    row i      c[i .. i+ny-1] += Y' * a_i        addmul_1 row, carry -> c[i+ny]  i = 1..nx-1

as HotSpot's multiply_to_len (first row multiply_64_x_64_loop, then one 128x128-style row per
x digit), with the rows of mpn_mul (x86_rows: MULX + ADCX/ADOX chains; a64_rows: ldp,
mul/umulh, two adds/adcs chains, stp, pipelined loads).

Layout. A digit is two BE-words read with one 64-bit load, which yields the pair swapped;
rotating by 32 gives the digit (and the same rotation turns a result digit back before the
store). Digit k of an array with n words (odd: as if a zero word followed it) lives at

    d_k = base + 4 n - 8 + 4 o - 8 k          (stride -8; o = n & 1)

    x:   [ x0  x1 | x2  x3 | ... | x(n-2) x(n-1) ]        n even
           d_(nx-1)   d_(nx-2)           d_0
    x:   [ x0  x1 | ... | x(n-3) x(n-2) | x(n-1) 0 ]      n odd: d_0 = x(n-1) * 2^32 (one
           d_(nx-1)         d_1            d_0           32-bit load; the zero word, past
                                                         the array, is never read)

    z, L = xlen+ylen words, as the digits c of Z' (c_0 the lowest pair):
         [ z0  z1 | ... | z(L-2) z(L-1) ]                 ox+oy = 0: c_0 = (z(L-2), z(L-1))
         [ z0  z1 | ... | z(L-1) 0 ]                      ox+oy = 1: c_0 = (z(L-1), 0)
         [ z0  z1 | ... | z(L-2) z(L-1) | 0  0 ]          ox+oy = 2: c_0 = (0, 0)

Odd lengths. Only digit 0 of an odd operand is special (its address reaches one word past
the array): it is formed once with a 32-bit load shifted left by 32 (a_0: the multiplier of
row 0; b_0: parked on the stack, and written into y's buffer when y is buffered, see `ybuf`
below). Row 0 runs over b_1 .. b_(ny-1), b_0 a_0 done outside it (c_0 below); so does every
row when y is not buffered, the product b_0 a_i done outside the row and entering it as the
carry; with y buffered, rows 1.. run over b_0 .. b_(ny-1). Z' gains ox+oy zero low words, all inside c_0, which is written only by row 0:
ox+oy = 0 stores c_0 whole, 1 stores its high half (32-bit store at z(L-1); the low half is
0 since a 2^32 factor divides it), 2 stores nothing (c_0 = 0). Every other digit c_j (j >= 1)
lies inside z. Nothing outside x[0..xlen), y[0..ylen), z[0..L) is read or written.

xlen == 0 or ylen == 0: z[0..L) is zeroed with 32-bit stores and x, y are not read.

y in the rows (x86 `ybuf`). A y of up to ybuf digits (448: 3584 bytes, the frame kept under
the 4 KiB that would need stack probes) is rotated once into a stack buffer of the same layout,
b_0 formed there too (two digits per PSHUFD); the rows' MULX then read its digits as they are,
and rows 1.. run over all ny digits with carry-in 0 (row 0 keeps digit 0 outside, as c_0 may
be partly outside z). A longer y is rotated by RORX in every row, as HotSpot. From 16 to 64
words the buffer made the kernel 1.3-2x faster on an Emerald Rapids Xeon (one RORX fewer per
digit-product on ports 0/6, and no digit-0 step per row).

z in the rows (x86 `zfinal`). RORX, ADCX and ADOX share ports 0 and 6 on Intel cores, so a
row that rotates y's digit, z's digit in and the result out spends 5 uops per digit there
(~2.5 cycles). With zfinal = 1 (the default) the rows keep z's digits c_1 .. c_(nx+ny-1)
as plain 64-bit values at their addresses (ADOX and the stores use memory directly, 3 such
uops per digit) and one pass over the nx+ny-1 qwords z[0 .. L+ox+oy-2) rotates them into
BE-words at the end (two per PSHUFD); c_0 is final after row 0 and stored rotated at once.
zfinal = 0 is HotSpot's form (every intermediate digit stored as BE-words); about 1.5x slower
at 32..127 words on an Emerald Rapids Xeon. AArch64's ror is an ordinary ALU operation off
the multiply pipe, and the a64 rows rotate y and z on every access.

Small operands (x86 `small`, default 6 digits = 12 words): when ylen <= 2*small (so both
operands are), a binary search on xlen, then ylen, picks straight-line code for that
(nx, ny): y's digits rotated once into stack slots, the digits of z under accumulation
(c_i .. c_(i+ny)) in registers, row i one MULX/ADOX/ADCX per digit, each c_j rotated and
stored once, when final; c_0 as above. No loop control, no final pass. 6 digits keep the
file at ~4500 lines (the code grows as small^3). This code runs before the frame
(Function.prefix_upto: its own pushes, the red zone, no `sub $n, %rsp`) and without the
swap: it has a block for every (nx, ny), those with nx > ny built with x as the row, so the
first loads wait for no compare and CMOV. On AMD Zen 5 (2026-12-01, the kernel dispatched
through its IFMA sibling) the stack allocation cost small products about 2.5 core cycles a
call and the swap about 2 more: 4 x 4 words 19.3 -> 16.9 -> 14.9 cycles, 1 x 1 13.5 ->
12.0 -> 11.3, 8 x 8 35.1 -> 34.2 -> 32.0. The Win64 form keeps the ordered blocks in the
body, after the swap (Windows unwinds one prologue, at the entry).

IFMA (x86 `ifma`). Both operands of ifma_min..ifma_max words (and not both of at most
adx_upto, which adx's straight-line code does better): mpn_mul's radix-2^52 core
(x86_ifma_mul) with BE words in and out. 52 bytes of the little-endian number are 13 words,
lying in reverse order in the array: each block is one byte-masked 52-byte load (or store)
counted down from the end of the array -- the last, partial block starts below the array and
its mask leaves those bytes out -- with its 13 dwords reversed by VPERMD
(x86_ifma_sqr.be_reverse); no limb copies, no RORX. Other sizes jump to the adx variant
before the frame. lf_bi_multiply_to_len sends it every product up to ifma_max words (its
lf_variant.hint) instead of the limb path, so ifma_min is at most 16 words, the API's
limb-path threshold.

Registers. Through a row only its pointers, count, carry and multiplier stay live (plus the
row's own registers, so every unroll/ahead the x86 row offers builds): &a_i, &b_1, ny-1, b_0
and the row count wait on the stack, &c_(i+1) is recomputed from where row i ends.
"""

from ..kernel import KernelSpec, Variant, Param, ADX_CHAINS
from . import a64_rows
from .mpn_addmul_1 import PARAMS as MPN_PARAMS

SPEC = KernelSpec(
    name="bi_multiply_to_len",
    operation="z = x * y (BigInteger.implMultiplyToLen)",
    args=[("x", "const uint32_t *"), ("xlen", "size_t"), ("y", "const uint32_t *"),
          ("ylen", "size_t"), ("z", "uint32_t *")],
    result=None,
    shapes="BE-words (uint32_t, index 0 most significant): x has xlen words, y ylen, z\n"
           "xlen+ylen.",
    units="lengths in 32-bit words.",
    preconditions="z need not be initialised and must not overlap x or y; x == y is allowed.\n"
                  "xlen == 0 or ylen == 0: z[0..xlen+ylen) is zeroed (x, y may be NULL when\n"
                  "their length is 0).",
    source="OpenJDK java.math.BigInteger.implMultiplyToLen; HotSpot multiply_to_len stubs\n"
           "(MacroAssembler::multiply_to_len on x86-64, stubGenerator_aarch64).",
    tune_sizes=(8, 32, 64, 127),
)

UNIT = ("words", 2)
YBUF = 448          # digits: a 3584-byte buffer, the frame below the 4 KiB that needs probes

X86_PARAMS = dict(MPN_PARAMS, zfinal=Param(
    1, (0, 1), "1: z's digits unrotated through the rows, one RORX pass at the end; 0: RORX on\n"
               "every read and write of z, as HotSpot"),
    small=Param(6, (0, 2, 3, 4, 5, 6, 7, 8), "up to this many digits (2*small words) in both operands:\n"
                "straight-line code per (nx, ny), z's digits in registers (8: the most the\n"
                "registers hold)", kind="size", sizes=(2, 4, 6, 8, 10, 12, 14, 16)),
    ybuf=Param(YBUF, (0, YBUF), "y of up to this many digits: rotated once into a stack\n"
               "buffer (b_0 formed there too), the rows' MULX read its digits as they are and\n"
               "rows 1.. run over all ny; 0 (or a longer y): RORX in every row, digit 0 of\n"
               "each row outside it, as HotSpot", kind="size", sizes=(16, 32, 64, 127)))


def small_x86(f, S, xlen, ylen, xd, yd, zd, ox, oy, s, digit0, ordered=True):
    """Both operands of at most S digits: one straight-line block per (nx, ny), reached by a
    binary search on xlen, then ylen. ordered: the operands were swapped so that nx <= ny,
    and only those pairs are built; otherwise every pair of 1..S is, those with nx > ny with
    the roles of x and y exchanged at generation time (x the row, y's digits the
    multipliers), so that no run-time swap delays the first loads (the code before the
    frame). y's digits are rotated once into stack slots (row 0 multiplies them
    as they are loaded); the digits of z under accumulation stay in registers (the window
    c_i .. c_(i+ny)), and each digit is rotated and stored once, when it is final. Row i:
    MULX of b_j by a_i, ADOX adds the low half into c_(i+j), ADCX the high half into
    c_(i+j+1); the new top digit is the last high half plus both carries."""
    from .x86_rows import size_tree, straight_product, Digits
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, RORX, MULX, SHR, CMP, JA,
                                JE, JMP, rdx)
    b0, h0, lo = G(), G(), G()
    digit0(b0, yd, oy)
    digit0(rdx, xd, ox)
    MULX(h0, lo, b0)
    # c_0 = lo(b_0 a_0): only its words inside z (ox+oy = 1: the high word; 2: none)
    c0_one, c0_done = f.new_label("s_c0_one"), f.new_label("s_c0_done")
    CMP(s, 1)
    JA(c0_done)
    JE(c0_one)
    RORX(lo, lo, 32)
    MOV([zd], lo)
    JMP(c0_done)
    f.bind(c0_one)
    SHR(lo, 32)
    MOV([zd], lo.as_dword)
    f.bind(c0_done)
    slots = f.red_zone_slots(S)

    def leaf(nx, ny):
        mult, row, row0 = xd, yd, b0
        if nx > ny:                             # x the row: rdx = b_0, its row digit 0 a_0
            row0 = G() if ny > 1 else None      # (parked only for rows 1..)
            if row0 is not None:
                MOV(row0, rdx)
            MOV(rdx, b0)
            nx, ny, mult, row = ny, nx, yd, xd
        straight_product(f, nx, ny, Digits(mult, -8, True), Digits(row, -8, True),
                         Digits(zd, -8, True), row0, h0, slots)

    words = lambda d: 2 * d                    # noqa: E731
    size_tree(f, xlen, 1, S, lambda nx: size_tree(f, ylen, nx if ordered else 1, S,
                                                  lambda ny: leaf(nx, ny), words), words)


def rotate_qwords_x86(f, src, dst, count, name):
    """count (a register, kept) qwords from src to dst (registers, advanced past them; the same
    address allowed), each rotated by 32 -- BE-word pairs <-> digits: two per PSHUFD, an odd
    last one by RORX."""
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, XMMRegister, MOV, LEA, MOVDQU,
                                PSHUFD, RORX, SHR, TEST, JZ, JNZ, DEC)
    n, t = G(), G()
    MOV(n, count)
    SHR(n, 1)
    pairs, one, done = (f.new_label(name + x) for x in ("_pairs", "_one", "_done"))
    JZ(one)
    f.bind(pairs)
    v = XMMRegister()
    MOVDQU(v, [src])
    PSHUFD(v, v, 0xB1)                          # both qwords rotated by 32
    MOVDQU([dst], v)
    LEA(src, [src + 16])
    LEA(dst, [dst + 16])
    DEC(n)
    JNZ(pairs)
    f.bind(one)
    TEST(count, 1)
    JZ(done)
    RORX(t, [src], 32)
    MOV([dst], t)
    LEA(src, [src + 8])
    LEA(dst, [dst + 8])
    f.bind(done)


def rotate_y_x86(f, y, ny1, b0, s_y1, cap):
    """y's digits in a stack buffer, in y's layout (digit k at buf + 8 (ny - 1 - k)): b_1 ..
    b_(ny-1) (ny1 = ny - 1 < cap of them, the qwords [y, y + 8 ny1)), then b_0 (formed by
    the caller); &b_1 there into s_y1."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, LocalVariable, MOV, LEA
    buf = LocalVariable(8 * cap, 16)
    d, src, t = G(), G(), G()
    LEA(d, buf)
    LEA(t, [d + ny1 * 8 - 8])
    MOV(s_y1, t)                                # &b_1 = buf + 8 (ny - 2)
    MOV(src, y)
    rotate_qwords_x86(f, src, d, ny1, "ybuf")
    MOV([d], b0)


def entry_x86(f, swap=True):
    """The arguments, an empty operand (z zeroed, then the exit) and the operands in place:
    (swap) y the longer (the row), x the multipliers; odd-length flags, the addresses of
    digit 0. Returns (x, xlen, y, ylen, z, ox, oy, s, xd, yd, zd, t, digit0)."""
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, LEA, ADD, AND, TEST, CMP, CMOVA,
                                JZ, JNZ, JMP, DEC, dword)
    from .x86_rows import load_digit0
    x, xlen, y, ylen, z = f.load_args()
    t = GeneralPurposeRegister64()
    main = f.new_label("main")
    if swap:
        # y the longer operand (the row), x the multipliers (the pointers of an empty
        # operand may be NULL: only moved here)
        MOV(t, x)
        CMP(xlen, ylen)
        CMOVA(x, y)
        CMOVA(y, t)
        MOV(t, xlen)
        CMOVA(xlen, ylen)
        CMOVA(ylen, t)
        TEST(xlen, xlen)                        # the shorter
        JNZ(main)
    else:
        zero = f.new_label("zero")
        TEST(xlen, xlen)
        JZ(zero)
        TEST(ylen, ylen)
        JNZ(main)
        f.bind(zero)
    # an empty operand: z[0..xlen+ylen) = 0 (nothing when both are 0)
    n = GeneralPurposeRegister64()
    LEA(n, [xlen + ylen * 1])
    TEST(n, n)
    JZ(f.exit_label)
    zl = f.new_label("zero_loop")
    f.bind(zl)
    MOV(dword[z + n * 4 - 4], 0)
    DEC(n)
    JNZ(zl)
    JMP(f.exit_label)

    f.bind(main)
    ox, oy, s, xd, yd, zd = (GeneralPurposeRegister64() for _ in range(6))
    MOV(ox, xlen)
    AND(ox, 1)
    MOV(oy, ylen)
    AND(oy, 1)
    LEA(s, [ox + oy * 1])
    LEA(xd, [x + xlen * 4 - 8])
    LEA(xd, [xd + ox * 4])                      # &a_0
    LEA(yd, [y + ylen * 4 - 8])
    LEA(yd, [yd + oy * 4])                      # &b_0
    LEA(t, [xlen + ylen * 1])
    ADD(t, s)
    LEA(zd, [z + t * 4 - 8])                    # &c_0

    def digit0(reg, ptr, odd):
        load_digit0(f, reg, ptr, odd)
    return x, xlen, y, ylen, z, ox, oy, s, xd, yd, zd, t, digit0


def build_x86(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, RORX, MULX, SHL, SHR, LEA, ADD,
                                ADC, SUB, XOR, CMP, JE, JNZ, JA, JMP, DEC, rdx)
    from ..x86 import function as x86
    from . import x86_rows
    from .x86_rows import Digits
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    if p.small:
        # both operands at most `small` digits: the straight-line code runs before the frame,
        # so these sizes do not allocate the rows' stack buffer (SysV; the Win64 form keeps
        # it in the body, below)
        def small_body(g):
            _, xlen, _, ylen, _, ox, oy, s, xd, yd, zd, _, digit0 = entry_x86(g, swap=False)
            small_x86(g, p.small, xlen, ylen, xd, yd, zd, ox, oy, s, digit0, ordered=False)
            g.ret()
        f.prefix_upto((1, 3), 2 * p.small, small_body)
    with f:
        x, xlen, y, ylen, z, ox, oy, s, xd, yd, zd, t, digit0 = entry_x86(f)
        if p.small and f.flavour == "win64":
            generic = f.new_label("generic")
            CMP(ylen, 2 * p.small)
            JA(generic)
            small_x86(f, p.small, xlen, ylen, xd, yd, zd, ox, oy, s, digit0)
            f.bind(generic)
        n = GeneralPurposeRegister64()
        # parked while the rows need every register
        s_y0, s_y1, s_ny1, s_xlast, s_xd, s_fin = f.red_zone_slots(6)
        final = p.zfinal
        LEA(t, [ylen - 1])
        SHR(t, 1)
        MOV(s_ny1, t)                               # ny - 1 digits in row 0
        b0 = GeneralPurposeRegister64()
        digit0(b0, yd, oy)
        MOV(s_y0, b0)
        y_done = f.new_label("y_done")
        if p.ybuf:
            y_in_place = f.new_label("y_in_place")
            CMP(t, p.ybuf - 1)
            JA(y_in_place)
            rotate_y_x86(f, y, t, b0, s_y1, p.ybuf)
            JMP(y_done)
            f.bind(y_in_place)
        LEA(t, [yd - 8])
        MOV(s_y1, t)                                # &b_1
        f.bind(y_done)
        LEA(t, [xlen - 1])
        SHR(t, 1)
        SHL(t, 3)
        MOV(n, xd)
        SUB(n, t)
        MOV(s_xlast, n)                             # &a_(nx-1)
        if final:
            LEA(n, [xlen + ylen * 1])
            ADD(n, s)
            SHR(n, 1)
            DEC(n)
            MOV(s_fin, n)                           # nx+ny-1 digits c_1.. kept unrotated

        digit0(rdx, xd, ox)

        cy, lo, o, a, ln = (GeneralPurposeRegister64() for _ in range(5))
        # row 0, digit 0: c_0 = lo(b_0 a_0), only its words inside z
        MULX(cy, lo, s_y0)
        c0_one, c0_done = f.new_label("c0_one"), f.new_label("c0_done")
        CMP(s, 1)
        JA(c0_done)                                 # ox+oy = 2: c_0 = 0
        JE(c0_one)
        RORX(lo, lo, 32)
        MOV([zd], lo)
        JMP(c0_done)
        f.bind(c0_one)
        SHR(lo, 32)                                 # ox+oy = 1: the high word only
        MOV([zd], lo.as_dword)
        f.bind(c0_done)

        # only o, a, ln, cy, rdx and the row's own registers stay live through a row: &a_i
        # waits on the stack, &c_i is recomputed from where the row ends
        MOV(s_xd, xd)
        fin = f.new_label("final") if final else f.exit_label

        def rows(ybuffered):
            loop = f.new_label("rows")
            for first in (True, False):
                if not first:
                    f.bind(loop)
                    MOV(xd, s_xd)
                    LEA(xd, [xd - 8])
                    MOV(s_xd, xd)
                    RORX(rdx, [xd], 32)
                if not first and ybuffered:
                    # row i: c_i .. c_(i+ny) = c_i .. + a_i (b_0 .. b_(ny-1)), all in the row
                    XOR(cy.as_dword, cy.as_dword)
                    MOV(o, zd)
                    MOV(a, s_y1)
                    LEA(a, [a + 8])                 # &b_0 in the buffer
                    MOV(ln, s_ny1)
                    LEA(ln, [ln + 1])
                elif not first:
                    # row i, digit 0: c_i += lo(b_0 a_i), the carry into the row
                    MULX(cy, lo, s_y0)
                    if final:
                        ADD(lo, [zd])
                        ADC(cy, 0)
                    else:
                        c = GeneralPurposeRegister64()
                        RORX(c, [zd], 32)
                        ADD(lo, c)
                        ADC(cy, 0)
                        RORX(lo, lo, 32)
                    MOV([zd], lo)
                if first or not ybuffered:
                    LEA(o, [zd - 8])
                    MOV(a, s_y1)
                    MOV(ln, s_ny1)
                out = Digits(o, -8, not final)
                mode = "mul" if first else "addmul"
                x86_rows.row(f, out, Digits(a, -8, not ybuffered), ln, mode, "adx",
                             p.unroll, p.ahead, cy, unit=UNIT,
                             region=None if ybuffered or not p.ybuf else mode + "_yrot")
                out.store(0, cy)                    # c_(i+ny) = carry
                MOV(t, s_ny1)
                LEA(zd, [o + t * 8])                # &c_(i+1) = &c_(i+ny) + 8 (ny-1)
                MOV(xd, s_xd)
                CMP(xd, s_xlast)
                if first:
                    JE(fin)
                else:
                    JNZ(loop)

        if p.ybuf:
            y_rotating = f.new_label("rows_y_rotating")
            MOV(t, s_ny1)
            CMP(t, p.ybuf - 1)
            JA(y_rotating)
            rows(True)
            JMP(fin)
            f.bind(y_rotating)
        rows(False)
        if final:
            # c_1 .. c_(nx+ny-1) (z[0 .. 2(nx+ny-1))) into BE-words; o = z here
            f.bind(fin)
            MOV(n, s_fin)
            MOV(t, o)
            rotate_qwords_x86(f, o, t, n, "final")
        f.ret()
    return f.finalize()


IFMA_PARAMS = {
    # at most 16: lf_bi_multiply_to_len sends every product of 16 words or more in both
    # operands up to ifma_max (the hint) to this kernel, never through limb copies
    "ifma_min": Param(14, (12, 13, 14, 15, 16),
                      "from this many words in both operands on the IFMA path (below: the\n"
                      "adx variant, reached before the frame)",
                      kind="size", sizes=(12, 13, 14, 15, 16, 17)),
    "adx_upto": Param(12, (0, 12, 14, 16),
                      "both operands of at most this many words: the adx variant (its\n"
                      "straight-line code reaches 2 small words)",
                      kind="size", sizes=(12, 13, 14, 15, 16, 17)),
    "ifma_max": Param(256, (128, 256),
                      "up to this many words in both operands the IFMA path (above: adx);\n"
                      "sizes the stack", kind="size", sizes=(128, 129, 256, 257)),
    "blocks": Param(4, (2, 3, 4, 5, 6), "output blocks per group (two zmm accumulators\n"
                    "each; one window load feeds 2 x blocks IFMAs)"),
}


def build_ifma(symbol, p):
    """Both operands of ifma_min..ifma_max words: mpn_mul's IFMA core (x86_ifma_mul) on the
    BE words directly -- 52-byte blocks read from the end of each array down, their 13 words
    reversed by VPERMD, cut into 52-bit digits; the product packed back the same way
    (x86_ifma_sqr.be_reverse) -- so no limb copies and no RORX. Other sizes jump to the adx
    sibling before the frame."""
    from peachpy.x86_64 import GeneralPurposeRegister64, MOV, CMP, CMOVB
    from ..x86 import function as x86
    from . import x86_ifma_mul, x86_ifma_sqr
    f = x86.Function(symbol, SPEC.args, SPEC.result, zmm32=True)
    for arg in (1, 3):                                  # xlen, ylen
        f.tail_call_outside(arg, p.ifma_min, p.ifma_max, p.sibling("adx"))
    if p.adx_upto >= p.ifma_min:
        f.tail_call_all_upto((1, 3), p.adx_upto, p.sibling("adx"))
    with f:
        x, xlen, y, ylen, z = f.load_args()
        a, an, b, bn = (GeneralPurposeRegister64() for _ in range(4))
        MOV(a, x)                                       # a: the longer operand
        MOV(an, xlen)
        MOV(b, y)
        MOV(bn, ylen)
        CMP(xlen, ylen)
        CMOVB(a, y)
        CMOVB(an, ylen)
        CMOVB(b, x)
        CMOVB(bn, xlen)
        x86_ifma_mul.multiply(f, z, a, an, b, bn, x86_ifma_sqr.WordsAsLimbs(p), be=True)
        f.ret()
    return f.finalize()


def build_a64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem
    from ..a64.regs import XZR, WZR
    from .a64_rows import Digits
    f = Function(symbol, SPEC.args, SPEC.result)
    x0, xlen0, y0, ylen0, z = f.arg_regs
    done, main = f.new_label("done"), f.new_label("main")
    zero = f.new_label("zero")
    f.cbz(xlen0, zero)
    f.cbnz(ylen0, main)
    # an empty operand: z[0..xlen+ylen) = 0 (nothing when both lengths are 0)
    f.bind(zero)
    n = f.gpr("n")
    f.add(n, xlen0, ylen0)
    f.cbz(n, done)
    zl = f.new_label("zero_loop")
    f.bind(zl)
    f.sub(n, n, 1)
    f.str_(WZR, mem(z, index=n, shift=2, size=4))
    f.cbnz(n, zl)
    f.b(done)

    f.bind(main)
    # y the longer operand (the row), x the multipliers
    x, xlen, y, ylen = f.gpr("x"), f.gpr("xlen"), f.gpr("y"), f.gpr("ylen")
    f.cmp(xlen0, ylen0)
    f.csel(x, x0, y0, "ls")
    f.csel(y, y0, x0, "ls")
    f.csel(xlen, xlen0, ylen0, "ls")
    f.csel(ylen, ylen0, xlen0, "ls")
    ox, oy, s = f.gpr("ox"), f.gpr("oy"), f.gpr("s")
    xd, yd, zd, t = f.gpr("xd"), f.gpr("yd"), f.gpr("zd"), f.gpr("t")
    f.and_(ox, xlen, 1)
    f.and_(oy, ylen, 1)
    f.add(s, ox, oy)
    f.add(xd, x, xlen, "lsl #2")
    f.sub(xd, xd, 8)
    f.add(xd, xd, ox, "lsl #2")                 # &a_0
    f.add(yd, y, ylen, "lsl #2")
    f.sub(yd, yd, 8)
    f.add(yd, yd, oy, "lsl #2")                 # &b_0
    f.add(t, xlen, ylen)
    f.add(t, t, s)
    f.add(zd, z, t, "lsl #2")
    f.sub(zd, zd, 8)                            # &c_0
    ny1, rows = f.gpr("ny1"), f.gpr("rows")
    f.sub(ny1, ylen, 1)
    f.lsr(ny1, ny1, 1)                          # ny - 1 digits in every row
    f.sub(rows, xlen, 1)
    f.lsr(rows, rows, 1)                        # nx - 1 addmul rows

    def digit0(reg, ptr, odd):
        # odd: the lone word << 32 (a 32-bit load); even: the rotated pair
        e, d = f.new_label("d0_even"), f.new_label("d0_done")
        f.cbz(odd, e)
        f.ldr(reg.w, mem(ptr, size=4))
        f.lsl(reg, reg, 32)
        f.b(d)
        f.bind(e)
        f.ldr(reg, mem(ptr))
        f.ror(reg, reg, 32)
        f.bind(d)

    b0, m = f.gpr("b0"), f.gpr("m")
    digit0(b0, yd, oy)
    digit0(m, xd, ox)
    cy, lo, o, a, ln = f.gpr("cy"), f.gpr("lo"), f.gpr("o"), f.gpr("a"), f.gpr("ln")
    # row 0, digit 0: c_0 = lo(b_0 a_0), only its words inside z
    f.mul(lo, b0, m)
    f.umulh(cy, b0, m)
    c0_whole, c0_done = f.new_label("c0_whole"), f.new_label("c0_done")
    f.cbz(s, c0_whole)
    f.tbnz(s, 1, c0_done)                       # ox+oy = 2: c_0 = 0
    f.lsr(lo, lo, 32)                           # ox+oy = 1: the high word only
    f.str_(lo.w, mem(zd, size=4))
    f.b(c0_done)
    f.bind(c0_whole)
    f.ror(lo, lo, 32)
    f.str_(lo, mem(zd, tag=("z", 0)))
    f.bind(c0_done)
    # only m, o, a, ln, cy and the row's own registers stay live through a row (unroll 8
    # needs the rest): the others wait on the stack, &c_i is recomputed from where the
    # row ends
    s_xd, s_y1, s_ny1, s_rows, s_b0 = (f.local(nm) for nm in ("xd", "y1", "ny1", "rows", "b0"))
    f.spill(xd, s_xd)
    f.sub(t, yd, 8)
    f.spill(t, s_y1)                            # &b_1
    f.spill(ny1, s_ny1)
    f.spill(rows, s_rows)
    f.spill(b0, s_b0)

    loop = f.new_label("rows")
    for first in (True, False):
        if not first:
            f.bind(loop)
            # row i, digit 0: c_i += lo(b_0 a_i), the carry into the row
            f.reload(xd, s_xd)
            f.sub(xd, xd, 8)
            f.spill(xd, s_xd)
            f.ldr(m, mem(xd, tag=("x", 0)))
            f.ror(m, m, 32)
            f.reload(b0, s_b0)
            hi, c = f.gpr("hi"), f.gpr("c")
            f.mul(lo, b0, m)
            f.umulh(hi, b0, m)
            f.ldr(c, mem(zd, tag=("z", 0)))
            f.ror(c, c, 32)
            f.adds(lo, lo, c)
            f.adc(cy, hi, XZR)
            f.ror(lo, lo, 32)
            f.str_(lo, mem(zd, tag=("z", 0)))
        f.sub(o, zd, 8)
        f.reload(a, s_y1)
        f.reload(ln, s_ny1)
        a64_rows.row(f, Digits(o, -8, True, tag="z"), Digits(a, -8, True, tag="y"), ln, m,
                     "mul" if first else "addmul", p, cy, unit=UNIT)
        f.ror(cy, cy, 32)
        f.str_(cy, mem(o, tag=("z", 0)))        # c_(i+ny) = carry
        f.reload(t, s_ny1)
        f.add(zd, o, t, "lsl #3")               # &c_(i+1) = &c_(i+ny) + 8 (ny-1)
        f.reload(rows, s_rows)
        if first:
            f.cbz(rows, done)
        else:
            f.subs(rows, rows, 1)
            f.spill(rows, s_rows)
            f.b_ne(loop)
    f.bind(done)
    f.ret()
    return f.finalize()


VARIANTS = [
    Variant("ifma", "x86_64", build_ifma, IFMA_PARAMS,
            "Both operands of ifma_min..ifma_max words: radix 2^52 by AVX-512 IFMA, mpn_mul's\n"
            "core (x86_ifma_mul) reading and writing the BE words directly (52-byte blocks from\n"
            "the end of each array, their 13 words reversed by VPERMD); other sizes jump to\n"
            "the adx variant before the frame, as do pairs of at most adx_upto words.",
            hint=lambda v: v.ifma_max),
    Variant("adx", "x86_64", build_x86, X86_PARAMS,
            "BE-words as 64-bit digits (RORX 32 on 64-bit loads, odd lengths as x * 2^32 with a\n"
            "32-bit load for digit 0); the longer operand is the row: a mul_1 row, then one\n"
            "addmul_1 row per digit of the shorter (MULX/ADCX/ADOX, x86_rows); ybuf: y's\n"
            "digits rotated once into a stack buffer (PSHUFD); zfinal=1: z's digits stay unrotated through the\n"
            "rows and one pass rotates them at the end; up to `small` digits per operand,\n"
            "straight-line code per (nx, ny) with z's digits in registers, run before the\n"
            "frame and without swapping the operands.",
            unmodelled={"ahead": ADX_CHAINS}, hint=lambda v: 2 * v.small),
    Variant("a64", "aarch64", build_a64, a64_rows.PARAMS,
            "BE-words as 64-bit digits (ror #32 on ldp pairs, odd lengths as x * 2^32 with a\n"
            "32-bit load for digit 0); the longer operand is the row: software-pipelined\n"
            "mul/umulh rows (a64_rows), digit 0 of each row outside it as the carry-in."),
]
